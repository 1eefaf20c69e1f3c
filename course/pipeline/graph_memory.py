"""Memory across sessions: conversations kept in the graph.

Introduced in notebook 10. `GraphMemory` keeps the short-term memory's turns (notebook 06)
in FalkorDB, in a graph per user (`memory_user_<id>`), so a new process resumes the
conversation; it answers a repeated question from memory with no LLM call. With an
`AnswerCache` (`course.pipeline.answer_cache`) it also serves answers to stand-alone
questions that another session asked before.

>>> memory = GraphMemory(db, session="demo", user="alice")
>>> memory.store.graph_name
'memory_user_alice'
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

import redis

from course.foundation.db import Database
from course.foundation.errors import CourseError, DatabaseUnavailable, InvalidInput, QueryFailed
from course.foundation.language import language_of
from course.foundation.versioning import data_version
from course.foundation.graphs import MEMORY_GRAPH_PREFIX
from course.pipeline.group_save import together
from course.pipeline.in_flight import land, take_off, wait_for
from course.pipeline.linking import Mention
from course.pipeline.memory import Link, ShortTermMemory, Turn, one_line, question_key
from course.pipeline.prompts import AS_DATA, conversation_for, fence
from course.pipeline.recheck import still_given
from course.pipeline.results import Result

if TYPE_CHECKING:
    from course.pipeline.answer_cache import AnswerCache

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


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


def _remembered(question: str, stored: dict[str, Any], *, note: str, provider: str,
                mentions: Sequence[Mention]) -> Result:
    """A Result rebuilt from a stored answer: no attempts, no LLM call, from_memory True."""
    return Result(question=question, cypher=stored.get("cypher"),
                  columns=list(stored.get("columns") or []), rows=list(stored.get("rows") or []),
                  answer=note.format(answer=stored.get("answer", "")), status="answered",
                  provider=provider, llm_calls=0, mentions=list(mentions),
                  language=language_of(question), from_memory=True,
                  parameters=dict(stored.get("parameters") or {}))


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
    # True when the prompts of this answer hold no conversation (the question stands alone, or
    # nothing was said yet): only
    # such an answer may be shared, since what steered it (question, schema, rows) is the same
    # for every user, and the rows are checked again before it is served.
    alone: bool = False
    agent: str = "pipeline"     # which agent answers (`Agent.answered_by`): part of the cache key
    flight: str = ""            # the cache key this question answers for others waiting (in_flight)


_TURN_FIELDS = ("n", "question", "cypher", "result", "answer", "status")
# The turn's number is worked out inside the write, and the writes of one user's graph take
# turns (a Redis lock), so two processes answering in one session at once get different
# numbers. (FalkorDB does not stop two such writes from reading the same highest number.)
_SAVE_TURN = """
MERGE (s:Session {id: $session})
ON CREATE SET s.user = $user, s.started = $at
WITH s
OPTIONAL MATCH (s)-[:HAS_TURN]->(old:Turn)
WITH s, coalesce(max(old.n), 0) + 1 AS n
CREATE (s)-[:HAS_TURN]->(t:Turn {n: n, question: $question, norm: $norm, cypher: $cypher,
    columns: $columns, rows: $rows, result: $result, answer: $answer, status: $status,
    data_version: $version, context_key: $context_key, provider: $provider,
    from_memory: $from_memory, at: $at})
FOREACH (e IN $about |
    MERGE (x:Entity {label: e.label, value: e.value})
    CREATE (t)-[:ABOUT {rank: e.rank, source: e.source}]->(x))
RETURN t.n
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
# The session first (WITH), found by its index: a match naming the turn's fields would start
# from every Turn of every session (FalkorDB's plan), a cost growing with all ever asked.
_FIND_REPEAT = """
MATCH (s:Session {id: $session})
WITH s
MATCH (s)-[:HAS_TURN]->(t:Turn)
WHERE t.norm = $norm AND t.data_version = $version AND t.context_key = $context_key
  AND t.status = 'answered' AND t.from_memory = false AND t.answer IS NOT NULL
RETURN t.n, t.cypher, t.columns, t.rows, t.answer, t.provider
ORDER BY t.n DESC LIMIT 1
"""


_INDEX_SESSIONS = "CREATE INDEX FOR (s:Session) ON (s.id)"
_indexed: set[tuple[str, str]] = set()     # (server, memory graph) known to have the index


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
        # A conversation is no course data: nothing asks its data version.
        self.store = db.select(memory_graph_name(self.user), versioned=False)
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
            return self.store.run(cypher, params, max_rows=self.history_limit).rows
        except QueryFailed as exc:
            if "empty key" in exc.server_message:   # nothing stored for this user yet
                return []
            raise

    def _blocks(self) -> list[str]:
        older = "\n".join(f"- Turn {t.n}: {one_line(t.question)} -> {t.said()}"
                          for t in self.earlier)
        return [f"EARLIER IN THIS SESSION (older turns, question -> answer):\n"
                f"{fence(older, note=AS_DATA)}" if older else ""] + super()._blocks()

    def asked(self) -> list[str]:
        """The questions the prompt can show: the older turns' and the window's."""
        return [turn.question for turn in self.earlier] + super().asked()

    # -- repeats and the cache: called by the agent before its loop ------------------------

    def context_key(self, question: str, mentions: Sequence[Mention] = ()) -> str:
        """"" for a question that stands alone; else a fingerprint of what it could refer to.

        "uska year kya hai?" after Payal and after Rahul are different questions: the key
        holds the entities and the last question, so only the same context is a repeat.
        """
        if self.stands_alone(question, mentions):
            return ""
        last = question_key(self.turns[-1].question) if self.turns else ""
        state = json.dumps([list(self.entities.items()), last], ensure_ascii=False)
        return hashlib.sha1(state.encode()).hexdigest()[:12]

    def recall(self, question: str, *, mentions: Sequence[Mention] = (),
               provider: str = "", agent: str = "pipeline") -> Result | None:
        """A stored answer to this question (same session, or the cache), else None.

        The agent calls this before asking the LLM; a Result from here has llm_calls 0.
        """
        pending = _Pending(question, data_version(self.db), provider,
                           self.context_key(question, mentions),
                           alone=not conversation_for(self, question, mentions), agent=agent)
        self._land()    # a question before this one that ended with no turn to remember
        self._pending = pending
        found = self._find_repeat(question, pending)
        if found is not None and still_given(self.db, found[1]):
            n, stored = found
            note = REPEAT_NOTE[language_of(question)].format(n=n)
            return _remembered(question, stored, note=note, provider="memory", mentions=mentions)
        if self.cache is None or pending.context_key:
            return None
        cached = self._from_cache(question, pending, mentions)
        if cached is None:   # someone in this process may be answering it now: wait for theirs
            key = self.cache.key(question, version=pending.version, provider=provider, agent=agent)
            if pending.alone and take_off(key):
                # it may have landed between the miss and the take-off: read the cache again
                cached = self._from_cache(question, pending, mentions, again=True)
                if cached is None:
                    pending.flight = key      # this answer is the one the others wait for
                else:
                    land(key)
            elif wait_for(key):
                cached = self._from_cache(question, pending, mentions)
        return cached

    def _from_cache(self, question: str, pending: _Pending, mentions: Sequence[Mention],
                    again: bool = False) -> Result | None:
        """The cache's answer, if its query still gives its rows (`again`: a second look after
        a miss; found, the miss counts as a hit)."""
        assert self.cache is not None
        cached = self.cache.get(question, version=pending.version, provider=pending.provider,
                                agent=pending.agent, count=not again)
        if cached is None or not self.cache.stands_behind(cached, self.db, count=not again):
            return None
        if again:
            self.cache.hits, self.cache.misses = self.cache.hits + 1, self.cache.misses - 1
        return _remembered(question, cached, note=CACHE_NOTE[language_of(question)],
                           provider="answer cache", mentions=mentions)

    def settle(self) -> None:
        """The question ended with no turn to remember (it failed): nobody waits for it."""
        self._land()
        self._pending = None

    def _land(self) -> None:
        """Those waiting for this memory's answer go on (it is stored, or it will not be)."""
        if self._pending is not None and self._pending.flight:
            land(self._pending.flight)
            self._pending.flight = ""

    def _find_repeat(self, question: str, pending: _Pending) -> tuple[int, dict[str, Any]] | None:
        rows = self._read(_FIND_REPEAT, {"session": self.session, "norm": question_key(question),
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
        try:
            return self._remember(result, mentions, link)
        finally:
            self._land()
            self._pending = None

    def _remember(self, result: Result, mentions: Sequence[Mention],
                  link: Link | None) -> dict[str, str]:
        pending = self._pending
        cacheable = pending is not None and pending.question == result.question
        if pending is None or not cacheable:  # not asked through recall(): no provider known
            pending = _Pending(result.question, data_version(self.db), "",
                               self.context_key(result.question, mentions))
        if len(self.turns) == self.max_turns:
            self.earlier.append(self.turns[0])
        updates = super().remember(result, mentions, link)
        self._save(result, updates, pending, {m.value for m in mentions})
        if (self.cache is not None and cacheable and not pending.context_key and pending.alone
                and result.status == "answered" and not result.from_memory
                and result.answer is not None):   # rows only: no answer to serve again
            self.cache.put(result, version=pending.version, provider=pending.provider,
                           agent=pending.agent)
        return updates

    def _save(self, result: Result, updates: dict[str, str], pending: _Pending,
              asked: set[str]) -> None:
        about = [{"label": label, "value": value, "rank": rank,
                  "source": "question" if value in asked else "answer"}
                 for rank, (label, value) in enumerate(updates.items())]
        turn = self.turns[-1]
        params = {
            "session": self.session, "user": self.user, "question": result.question,
            "norm": question_key(result.question), "cypher": result.cypher or "",
            "columns": json.dumps(result.columns), "result": turn.result,
            "rows": json.dumps(result.rows, ensure_ascii=False, default=str),
            "answer": result.answer, "status": result.status, "version": pending.version,
            "context_key": pending.context_key, "provider": result.provider or "",
            "from_memory": bool(result.from_memory), "about": about,
            "at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        # Turns of this user's graph that other threads save now are saved with it, under one
        # holding of the lock (`group_save`): a room's forty answers do not take it forty times.
        saved = together(("saving turns", self.db.location, self.store.graph_name), self._saving,
                         lambda: self._store_turn(params))
        turn.n = self.count = saved   # the number the graph gave it

    def _store_turn(self, params: dict[str, Any]) -> int:
        try:
            self._index_sessions()
            return int(self.store.query(_SAVE_TURN, params).result_set[0][0])
        except redis.RedisError as exc:
            raise DatabaseUnavailable(f"The turn could not be stored ({exc}); check the database "
                                      "with `python -m course info`.") from exc

    def _index_sessions(self) -> None:
        """Sessions found by their id through an index (made once per graph, under the saving
        lock): every read and save of a turn starts there, the same cost however many turns the
        graph holds."""
        where = (self.db.location, self.store.graph_name)
        if where in _indexed:
            return
        try:
            self.store.query(_INDEX_SESSIONS)
        except QueryFailed as exc:
            if "already indexed" not in exc.server_message:
                raise
        _indexed.add(where)

    @contextmanager
    def _saving(self) -> Iterator[None]:
        """The lock on this user's graph that saving turns takes, across processes."""
        try:
            with self.db.lock(f"saving:{self.store.graph_name}", timeout_s=30):
                yield
        except redis.exceptions.LockError as exc:
            raise DatabaseUnavailable("Another process held this conversation for 30 s, so the "
                                      "turn was not stored: ask again.") from exc
        except redis.RedisError as exc:
            raise DatabaseUnavailable(f"The turn could not be stored ({exc}); check the database "
                                      "with `python -m course info`.") from exc

    # -- looking at and forgetting what is stored -------------------------------------------

    def history(self) -> list[dict[str, Any]]:
        """Every stored turn of this session, oldest first: n, question, answer, status, about."""
        rows = self._read(_LOAD_TURNS, {"session": self.session, "limit": self.history_limit})
        return [{"n": n, "question": q, "answer": a, "status": status,
                 "about": [f"{label}: {value}" for label, value in about if label]}
                for n, q, _cypher, _result, a, status, about in rows]

    @staticmethod
    def forget_user(db: Database, user: str) -> bool:
        """Delete a user's whole memory graph; False when there was none."""
        name = memory_graph_name(user)
        if name not in db.client.list_graphs():
            return False
        db.select(name).graph.delete()
        _indexed.discard((db.location, name))     # its index went with it
        return True
