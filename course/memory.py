"""Memory: follow-up questions, conversations that survive a restart, and an answer cache.

Introduced in notebook 06 (`ShortTermMemory`) and notebook 10 (`GraphMemory`, `AnswerCache`).

People talk in follow-ups: "Who is Payal?" then "uska year kya hai?". The agent asks its
memory for a `context()` before writing Cypher and calls `remember(result, mentions, link)`
after each answer. The context is two blocks of the prompt:

    CONVERSATION SO FAR:
    [Turn 1] User: Who is Payal?
    Cypher: MATCH (s:Student) WHERE s.name = 'Payal' RETURN s.name, s.year, s.branch
    Result: [["Payal", 2, "CSE"]]
    Answer: Payal is a second-year CSE student.

    RECENTLY MENTIONED (most recent first):
    - Student: Payal

Entities are recognised with the schema prompt's own name linking (values of the graph,
never a list of names written here). `GraphMemory` keeps the same turns in FalkorDB, in a
graph per user (`memory_user_<id>`), so a new process resumes the conversation; it answers a
repeated question from memory with no LLM call. `AnswerCache` shares answers to questions
that need no conversation context across sessions, with a Redis time-to-live.

>>> memory = ShortTermMemory(max_turns=5)
>>> agent = Agent(db, memory=memory)
>>> _ = agent.answer("Who is Payal?")
>>> agent.answer("uska year kya hai?").cypher        # the offline provider's query
"MATCH (e:Student {name: 'Payal'})\nRETURN e.name AS name, e.year AS year"
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

import redis

from .errors import DatabaseUnavailable, InvalidInput, QueryFailed

if TYPE_CHECKING:  # the agent imports nothing from here; keep it that way at run time too
    from .agent import Result
    from .db import Database
    from .schema import Mention

RESULT_CHARS = 300          # how much of a turn's rows goes into the prompt
ROWS_LINKED = 5             # rows read for "what the answer was about"
MEMORY_GRAPH_PREFIX = "memory_user_"
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

Link = Callable[[str], Sequence["Mention"]]


# --- short-term memory (notebook 06) ------------------------------------------------------

@dataclass
class Turn:
    """One exchange as the prompt shows it."""

    n: int
    question: str
    cypher: str | None
    result: str          # the rows, as JSON, trimmed to RESULT_CHARS
    answer: str
    status: str = "answered"

    def render(self) -> str:
        return "\n".join([f"[Turn {self.n}] User: {one_line(self.question)}",
                          f"Cypher: {one_line(self.cypher or '(none)')}",
                          f"Result: {self.result}",
                          f"Answer: {one_line(self.answer)}"])


def one_line(text: str) -> str:
    """Whitespace collapsed, so a turn is always four lines: `one_line("a\\n  b")` -> 'a b'."""
    return " ".join(str(text).split())


def trim_rows(rows: Sequence[Sequence[Any]], limit: int = RESULT_CHARS) -> str:
    """The rows as JSON, cut to `limit` characters: `[["Payal", 2, "CSE"]]`."""
    text = json.dumps([list(r) for r in rows], ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _cell_texts(rows: Sequence[Sequence[Any]], max_rows: int = ROWS_LINKED) -> list[str]:
    """The distinct text values in the first rows, in order (lists such as a route included)."""
    found: list[str] = []
    for row in rows[:max_rows]:
        for cell in row:
            for value in cell if isinstance(cell, list) else [cell]:
                if isinstance(value, str) and value.strip() and value not in found:
                    found.append(value)
    return found


def _first_by_label(mentions: Sequence[Mention]) -> dict[str, str]:
    """The first value named for each label.

    [Payal, DBMS, Aarav] -> {'Student': 'Payal', 'Subject': 'DBMS'}
    """
    first: dict[str, str] = {}
    for mention in mentions:
        first.setdefault(mention.label, mention.value)
    return first


def entity_updates(result: Result, mentions: Sequence[Mention],
                   link: Link | None) -> dict[str, str]:
    """Which entity each label now points at, after this turn.

    The question's own mentions come first; for the other labels, what the answer was about:
    the answer text (what the user read, in its order), then the first rows.
    "Who is the best person to teach me DBMS?" -> {'Subject': 'DBMS', 'Student': 'Payal'}.
    """
    updates = _first_by_label(mentions)
    if result.status == "answered" and link is not None:
        cells = _cell_texts(result.rows)
        about = list(link(result.answer)) if result.answer else []
        about += list(link("; ".join(cells))) if cells else []
        for label, value in _first_by_label(about).items():
            updates.setdefault(label, value)
    return updates


class ShortTermMemory:
    """A sliding window of the last turns and the entities last mentioned, by label.

    >>> memory = ShortTermMemory(max_turns=5)
    >>> memory.context()
    ''
    """

    def __init__(self, max_turns: int = 5, *, result_chars: int = RESULT_CHARS):
        if max_turns < 1:
            raise ValueError("max_turns must be at least 1")
        self.max_turns, self.result_chars = max_turns, result_chars
        self.turns: deque[Turn] = deque(maxlen=max_turns)   # old turns fall off the left
        self.entities: dict[str, str] = {}                    # label -> value, most recent last
        self.count = 0                                        # turns so far (their numbers)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {len(self.turns)}/{self.max_turns} turns, {self.entities}>"

    def last(self, label: str) -> str | None:
        """The entity of this label mentioned last: `memory.last("Student")` -> 'Payal'."""
        return self.entities.get(label)

    def context(self) -> str:
        """The CONVERSATION SO FAR and RECENTLY MENTIONED blocks, or "" before the first turn."""
        return "\n\n".join(block for block in self._blocks() if block)

    def _blocks(self) -> list[str]:
        conversation = "\n".join(turn.render() for turn in self.turns)
        recent = "\n".join(f"- {label}: {value}"
                           for label, value in reversed(self.entities.items()))
        return [f"CONVERSATION SO FAR:\n{conversation}" if conversation else "",
                f"RECENTLY MENTIONED (most recent first):\n{recent}" if recent else ""]

    def remember(self, result: Result, mentions: Sequence[Mention] = (),
                 link: Link | None = None) -> dict[str, str]:
        """Add the turn and update the entities; returns the updates (label -> value)."""
        updates = entity_updates(result, mentions, link)
        self.count += 1
        self.turns.append(Turn(self.count, result.question, result.cypher,
                               trim_rows(result.rows, self.result_chars), result.answer,
                               result.status))
        self._apply(updates)
        return updates

    def _apply(self, updates: dict[str, str]) -> None:
        for label, value in updates.items():   # later in the dict = more recent
            self.entities.pop(label, None)
            self.entities[label] = value

    def clear(self) -> None:
        """Forget the conversation (the turn numbers go on)."""
        self.turns.clear()
        self.entities.clear()


# --- which questions depend on the conversation -------------------------------------------

_REFERRING = frozenset("""he him his himself she her hers herself it its itself they them their
    theirs that this these those there same former latter uska uski uske usne usko usse unka
    unki unke unhone unko isko iska iski iske isne inka inki inke inko woh wo vo voh yeh ye
    wahi wohi yahi usme isme unme inme""".split())
_CONTINUING = ("and ", "aur ", "also ", "or ", "what about ", "how about ", "then ", "phir ",
               "same ", "toh ", "to ")


def normalise(question: str) -> str:
    """The question as a key: lower case, punctuation and extra spaces gone.

    >>> normalise("  Who is  PAYAL?? ")
    'who is payal'
    """
    return " ".join(re.findall(r"[\w+#]+", question.lower()))


def depends_on_context(question: str, mentions: Sequence[Mention] = ()) -> bool:
    """True when the question cannot be understood alone: a pronoun, "and ...?", or too short.

    >>> depends_on_context("uska year kya hai?"), depends_on_context("Who is Payal?")
    (True, False)
    """
    text = normalise(question)
    words = text.split()
    if any(word in _REFERRING for word in words):
        return True
    if (text + " ").startswith(_CONTINUING):
        return True
    return len(words) <= 3 and not mentions   # "year?", "kitne credits?"


# --- memory across sessions (notebook 10) -------------------------------------------------

def check_id(value: Any, *, what: str = "id") -> str:
    """An id that may become part of a graph or key name; InvalidInput for anything else.

    >>> check_id("demo", what="session id")
    'demo'
    """
    if isinstance(value, str) and _ID.fullmatch(value):
        return value
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise InvalidInput(f"The {what} {shown} cannot be used: ids become graph names, so they may "
                       "contain only letters, digits, _ and - (1 to 64 characters). "
                       "Pick one such as 'demo' or 'alice-2'.")


def memory_graph_name(user: str) -> str:
    """The graph of one user's conversations: "alice" -> 'memory_user_alice'."""
    return MEMORY_GRAPH_PREFIX + check_id(user, what="user id")


def data_version(db: Database) -> str:
    """A fingerprint of the college graph: counts and a checksum of every property.

    Any change to a node, a relationship or a property gives a new version, so remembered
    answers from before the change are not reused: '75n-132r-9c1f0a2b', in a few ms.
    """
    nodes = db.run("MATCH (n) RETURN id(n), labels(n), properties(n)",
                   guard=False, max_rows=10**7).rows
    rels = db.run("MATCH (a)-[r]->(b) RETURN id(a), type(r), id(b), properties(r)",
                  guard=False, max_rows=10**7).rows
    digest = hashlib.sha1()
    for line in sorted(json.dumps(row, sort_keys=True, default=str) for row in nodes + rels):
        digest.update(line.encode())
    return f"{len(nodes)}n-{len(rels)}r-{digest.hexdigest()[:8]}"


def _remembered(question: str, stored: dict[str, Any], *, note: str, provider: str,
                mentions: Sequence[Mention]) -> Result:
    """A Result rebuilt from a stored answer: no attempts, no LLM call, from_memory True."""
    from .agent import Result
    from .prompts import language_of

    return Result(question=question, cypher=stored.get("cypher"),
                  columns=list(stored.get("columns") or []), rows=list(stored.get("rows") or []),
                  answer=note.format(answer=stored.get("answer", "")), status="answered",
                  provider=provider, llm_calls=0, mentions=list(mentions),
                  language=language_of(question), from_memory=True)


REPEAT_NOTE = {
    "en": "As I said in turn {n} (remembered: same question, same data, no LLM call): {{answer}}",
    "hi": ("Turn {n} mein bataya tha (yaad se: same sawaal, same data, koi LLM call nahi): "
           "{{answer}}"),
}
CACHE_NOTE = {
    "en": "{answer} (From the answer cache: asked before, same data, no LLM call.)",
    "hi": "{answer} (Answer cache se: pehle poocha gaya tha, same data, koi LLM call nahi.)",
}


@dataclass
class _Pending:
    """What recall() worked out for the question being answered, for remember() to store."""

    question: str
    version: str
    provider: str
    context_key: str    # "" when the question stands alone


_TURN_FIELDS = ("n", "question", "cypher", "result", "answer", "status")
_SAVE_TURN = """
MERGE (s:Session {id: $session})
ON CREATE SET s.user = $user, s.started = $at
CREATE (s)-[:HAS_TURN]->(t:Turn {n: $n, question: $question, norm: $norm, cypher: $cypher,
    columns: $columns, rows: $rows, result: $result, answer: $answer, status: $status,
    data_version: $version, context_key: $context_key, provider: $provider,
    from_memory: $from_memory, at: $at})
WITH t
UNWIND $about AS e
MERGE (x:Entity {label: e.label, value: e.value})
CREATE (t)-[:ABOUT {rank: e.rank, source: e.source}]->(x)
"""
_LOAD_TURNS = """
MATCH (:Session {id: $session})-[:HAS_TURN]->(t:Turn)
WITH t ORDER BY t.n DESC LIMIT $limit
OPTIONAL MATCH (t)-[a:ABOUT]->(e:Entity)
WITH t, a, e ORDER BY a.rank
RETURN t.n, t.question, t.cypher, t.result, t.answer, t.status,
       collect(CASE WHEN e IS NULL THEN NULL ELSE [e.label, e.value] END) AS about
ORDER BY t.n
"""
_FIND_REPEAT = """
MATCH (:Session {id: $session})-[:HAS_TURN]->(t:Turn)
WHERE t.norm = $norm AND t.data_version = $version AND t.context_key = $context_key
  AND t.status = 'answered' AND t.from_memory = false
RETURN t.n, t.cypher, t.columns, t.rows, t.answer, t.provider
ORDER BY t.n DESC LIMIT 1
"""


class GraphMemory(ShortTermMemory):
    """Short-term memory whose turns are kept in FalkorDB, one graph per user.

    (:Session {id})-[:HAS_TURN]->(:Turn {n, question, cypher, answer, status, data_version, at})
    -[:ABOUT]->(:Entity {label, value}), in the graph `memory_user_<user>`. A new GraphMemory
    for the same user and session (another process, after a restart) starts where it stopped.

    >>> memory = GraphMemory(db, session="demo", user="alice")
    >>> memory.store.graph_name
    'memory_user_alice'
    """

    def __init__(self, db: Database, *, session: str = "default", user: str = "default",
                 max_turns: int = 5, cache: AnswerCache | None = None, earlier_shown: int = 5,
                 history_limit: int = 200):
        super().__init__(max_turns)
        self.session = check_id(session, what="session id")
        self.user = check_id(user, what="user id")
        self.db, self.cache = db, cache
        self.store = db.select(memory_graph_name(self.user))
        self.earlier: deque[Turn] = deque(maxlen=earlier_shown)   # older than the window
        self.history_limit = history_limit
        self._pending: _Pending | None = None
        self._load()

    def __repr__(self) -> str:
        return (f"<GraphMemory user={self.user!r} session={self.session!r} "
                f"{self.count} turns stored, {self.entities}>")

    def _load(self) -> None:
        """Replay the stored turns: the window, the older ones, and the entities they set."""
        rows = self._read(_LOAD_TURNS, {"session": self.session, "limit": self.history_limit})
        for *fields, about in rows:
            turn = Turn(**dict(zip(_TURN_FIELDS, fields)))
            if len(self.turns) == self.max_turns:
                self.earlier.append(self.turns[0])
            self.turns.append(turn)
            self._apply({label: value for label, value in about if label})
            self.count = turn.n

    def _read(self, cypher: str, params: dict[str, Any]) -> list[list[Any]]:
        """Rows of a read on the memory graph; none while the graph does not exist yet."""
        try:
            return self.store.run(cypher, params, guard=False, max_rows=self.history_limit).rows
        except QueryFailed as exc:
            if "empty key" in exc.server_message:   # nothing stored for this user yet
                return []
            raise

    def _blocks(self) -> list[str]:
        older = "\n".join(f"- Turn {t.n}: {one_line(t.question)} -> {one_line(t.answer)}"
                          for t in self.earlier)
        return [f"EARLIER IN THIS SESSION (older turns, question -> answer):\n{older}" if older
                else ""] + super()._blocks()

    # -- repeats and the cache: called by the agent before its loop ------------------------

    def context_key(self, question: str, mentions: Sequence[Mention] = ()) -> str:
        """"" for a question that stands alone; else a fingerprint of what it could refer to.

        "uska year kya hai?" after Payal and after Rahul are different questions: the key
        holds the entities and the last question, so only the same context is a repeat.
        """
        if not depends_on_context(question, mentions):
            return ""
        last = normalise(self.turns[-1].question) if self.turns else ""
        state = json.dumps([list(self.entities.items()), last], ensure_ascii=False)
        return hashlib.sha1(state.encode()).hexdigest()[:12]

    def recall(self, question: str, *, mentions: Sequence[Mention] = (),
               provider: str = "") -> Result | None:
        """A stored answer to this question (same session, or the cache), else None.

        The agent calls this before asking the LLM; a Result from here has llm_calls 0.
        """
        pending = _Pending(question, data_version(self.db), provider,
                           self.context_key(question, mentions))
        self._pending = pending
        found = self._find_repeat(question, pending)
        if found is not None:
            n, stored = found
            note = REPEAT_NOTE[_language(question)].format(n=n)
            return _remembered(question, stored, note=note, provider="memory", mentions=mentions)
        if self.cache is not None and not pending.context_key:
            stored = self.cache.get(question, version=pending.version, provider=provider)
            if stored is not None:
                return _remembered(question, stored, note=CACHE_NOTE[_language(question)],
                                   provider="answer cache", mentions=mentions)
        return None

    def _find_repeat(self, question: str, pending: _Pending) -> tuple[int, dict[str, Any]] | None:
        rows = self._read(_FIND_REPEAT, {"session": self.session, "norm": normalise(question),
                                         "version": pending.version,
                                         "context_key": pending.context_key})
        if not rows:
            return None
        n, cypher, columns, stored_rows, answer, provider = rows[0]
        return n, {"cypher": cypher, "columns": json.loads(columns),
                   "rows": json.loads(stored_rows), "answer": answer, "provider": provider}

    # -- storing a turn ---------------------------------------------------------------------

    def remember(self, result: Result, mentions: Sequence[Mention] = (),
                 link: Link | None = None) -> dict[str, str]:
        """Remember the turn in the window and in the graph (and the cache, when it may)."""
        pending = self._pending
        if pending is None or pending.question != result.question:
            pending = _Pending(result.question, data_version(self.db), result.provider or "",
                               self.context_key(result.question, mentions))
        self._pending = None
        if len(self.turns) == self.max_turns:
            self.earlier.append(self.turns[0])
        updates = super().remember(result, mentions, link)
        self._save(result, updates, pending, {m.value for m in mentions})
        if (self.cache is not None and not pending.context_key and result.status == "answered"
                and not result.from_memory):
            self.cache.put(result, version=pending.version, provider=pending.provider)
        return updates

    def _save(self, result: Result, updates: dict[str, str], pending: _Pending,
              asked: set[str]) -> None:
        about = [{"label": label, "value": value, "rank": rank,
                  "source": "question" if value in asked else "answer"}
                 for rank, (label, value) in enumerate(updates.items())]
        turn = self.turns[-1]
        self.store.query(_SAVE_TURN, {
            "session": self.session, "user": self.user, "n": turn.n, "question": result.question,
            "norm": normalise(result.question), "cypher": result.cypher or "",
            "columns": json.dumps(result.columns), "result": turn.result,
            "rows": json.dumps(result.rows, ensure_ascii=False, default=str),
            "answer": result.answer, "status": result.status, "version": pending.version,
            "context_key": pending.context_key, "provider": result.provider or "",
            "from_memory": bool(result.from_memory), "about": about,
            "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        })

    # -- looking at and forgetting what is stored -------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        """Every stored turn of this session, oldest first: n, question, answer, status, about."""
        rows = self._read(_LOAD_TURNS, {"session": self.session, "limit": self.history_limit})
        return [{"n": n, "question": q, "answer": a, "status": status,
                 "about": [f"{label}: {value}" for label, value in about if label]}
                for n, q, _cypher, _result, a, status, about in rows]

    def forget_session(self) -> None:
        """Delete this session's turns from the graph, and forget the window."""
        self.store.query("MATCH (s:Session {id: $session}) "
                         "OPTIONAL MATCH (s)-[:HAS_TURN]->(t:Turn) DETACH DELETE t, s",
                         {"session": self.session})
        self.clear()
        self.earlier.clear()
        self.count = 0

    @staticmethod
    def forget_user(db: Database, user: str) -> bool:
        """Delete a user's whole memory graph; False when there was none."""
        name = memory_graph_name(user)
        if name not in db.client.list_graphs():
            return False
        db.select(name).graph.delete()
        return True


def _language(question: str) -> str:
    from .prompts import language_of

    return language_of(question)


# --- the answer cache (notebook 10) -------------------------------------------------------

class AnswerCache:
    """Answers to stand-alone questions, shared across sessions, kept for `ttl_s` seconds.

    FalkorDB is Redis, so each answer is one key set with `SET key value EX ttl`; Redis
    deletes it when the time is up. The key is made of the normalised question, the data
    version and the provider, so a changed graph or another model never gets an old answer.

    >>> cache = AnswerCache(db, ttl_s=3600)
    >>> cache.stats()
    {'hits': 0, 'misses': 0, 'hit_rate': 0.0}
    """

    def __init__(self, db: Database, *, ttl_s: int = 3600, namespace: str = "shared"):
        if ttl_s < 1:
            raise ValueError("ttl_s must be at least 1 second")
        self.redis = db.client.connection
        self.ttl_s = ttl_s
        namespace = check_id(namespace, what="cache namespace")
        self.prefix = f"course:answers:{namespace}:{db.graph_name}:"
        self.hits = self.misses = 0

    def key(self, question: str, *, version: str, provider: str) -> str:
        """The Redis key of one answer."""
        digest = hashlib.sha1(f"{provider}\n{version}\n{normalise(question)}".encode()).hexdigest()
        return self.prefix + digest[:24]

    def get(self, question: str, *, version: str, provider: str) -> dict[str, Any] | None:
        """The stored answer (a dict of cypher, columns, rows, answer), counted as hit or miss."""
        raw = self._call(self.redis.get, self.key(question, version=version, provider=provider))
        if raw is None:
            self.misses += 1
            return None
        self.hits += 1
        return json.loads(raw)

    def put(self, result: Result, *, version: str, provider: str) -> str:
        """Store a result's answer for ttl_s seconds; returns the key."""
        key = self.key(result.question, version=version, provider=provider)
        value = json.dumps({"question": result.question, "cypher": result.cypher,
                            "columns": result.columns, "rows": result.rows, "answer": result.answer,
                            "provider": result.provider}, ensure_ascii=False, default=str)
        self._call(self.redis.set, key, value, ex=self.ttl_s)
        return key

    def ttl(self, question: str, *, version: str, provider: str) -> int:
        """Seconds left before the answer expires; -2 when there is none."""
        return self._call(self.redis.ttl, self.key(question, version=version, provider=provider))

    def stats(self) -> dict[str, Any]:
        """Hits, misses and the hit rate of this cache object."""
        asked = self.hits + self.misses
        return {"hits": self.hits, "misses": self.misses,
                "hit_rate": round(self.hits / asked, 3) if asked else 0.0}

    def size(self) -> int:
        """How many answers are stored under this cache's prefix now."""
        return len(self._keys())

    def clear(self) -> int:
        """Delete every answer under this prefix; returns how many there were."""
        keys = self._keys()
        if keys:
            self._call(self.redis.delete, *keys)
        self.hits = self.misses = 0
        return len(keys)

    def _keys(self) -> list[bytes]:
        return self._call(lambda: list(self.redis.scan_iter(match=self.prefix + "*", count=500)))

    @staticmethod
    def _call(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except redis.RedisError as exc:
            raise DatabaseUnavailable(f"The answer cache could not reach FalkorDB ({exc}); check "
                                      "the database with `python -m course info`.") from exc
