"""The college graph's tools for a model that is not ours: the same functions, the same refusals.

Introduced in notebook 16. `CollegeTools(db)` is what `python -m course mcp` serves
(`course.ui.mcp_server` only registers these methods with the MCP SDK). Nothing here is new
machinery: `execute_cypher` goes through the one guarded door (`run_guarded`: the guard,
FalkorDB's plan, read-only execution, a time limit and a row cap), `search_notes` is notebook
13's search, `study_plan` and `study_partners` are notebook 14's planner, and `ask` is the
learner's agentic agent (notebook 14), one conversation per session. What a client sends is
checked first, each argument against a size it may not pass; every refusal is a `CourseError`
whose message is one sentence that says what to do.

>>> tools = CollegeTools(db)
>>> tools.execute_cypher("MATCH (s:Student {name: $name}) RETURN s.year AS year", {"name": "Payal"})
{'recordCount': 1, 'records': [{'year': 2}], 'truncated': False}
>>> tools.execute_cypher("MATCH (n) DETACH DELETE n")
Traceback (most recent call last):
course.foundation.errors.UnsafeQuery: Refused by the read-only guard: DETACH DELETE would change the graph; the agent may only read.
"""
from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from course.agents.tools import records_of
from course.foundation.connection import connect
from course.foundation.dataset import ensure_college, graph_counts
from course.foundation.db import Database
from course.foundation.errors import (CourseError, InvalidInput, QueryFailed, QueryTimedOut,
                                     UnsafeQuery)
from course.llm import make_llm
from course.pipeline import prompts
from course.foundation.graphs import require_data_graph
from course.ingest.context import facts_context
from course.pipeline.questions import check_question
from course.pipeline.cleaning import clean
from course.pipeline.graph_memory import check_id
from course.pipeline.memory import ShortTermMemory
from course.pipeline.safety import run_guarded
from course.pipeline.schema import introspect
from course.planner.peers import peers
from course.planner.plans import plan
from course.planner.planner_tools import learner_agent
from course.retrieval.search import search

if TYPE_CHECKING:
    from course.agents.agentic import AgenticAgent

TIMEOUT_MS = 5_000        # one query's time limit (the agent's)
MAX_ROWS = 200            # rows read back (the agent's); the result is cut to MAX_RESULT_CHARS
MAX_RESULT_CHARS = 8_000  # one execute_cypher result, as JSON
MAX_QUERY_CHARS = 4_000   # one Cypher query
MAX_PARAMS = 20           # parameters of one query
MAX_PARAMS_CHARS = 4_000  # all of them, as JSON
MAX_NAME_CHARS = 100      # a student's or a subject's name
MAX_SESSIONS = 50         # conversations kept; the oldest is forgotten first
_PARAM_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def check_text(value: Any, what: str, limit: int) -> str:
    """A text argument, trimmed: refused when it is not text, empty, or longer than `limit`.

    >>> check_text(" Sneha ", "student", 100)
    'Sneha'
    >>> check_text("x" * 101, "student", 100)
    Traceback (most recent call last):
    course.foundation.errors.InvalidInput: The argument 'student' is 101 characters long; the limit is 100: send a shorter one.
    """
    if not isinstance(value, str) or "\x00" in value:
        raise InvalidInput(f"The argument {what!r} must be text: send a string.")
    if not value.strip():
        raise InvalidInput(f"The argument {what!r} is empty: send a value, e.g. the examples in "
                           "the tool's description.")
    if len(value) > limit:
        raise InvalidInput(f"The argument {what!r} is {len(value):,} characters long; the limit "
                           f"is {limit:,}: send a shorter one.")
    return value.strip()


def _plain_value(value: Any, depth: int = 0) -> bool:
    """A value FalkorDB takes as a parameter: text, a number, true/false, null, or a list of them."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return True
    return isinstance(value, list) and depth < 2 and all(_plain_value(v, depth + 1) for v in value)


def check_params(params: Any) -> dict[str, Any] | None:
    """The query's parameters: names like `name`, values text, numbers, booleans, null or lists.

    >>> check_params({"name": "Payal"})
    {'name': 'Payal'}
    >>> check_params({"x` RETURN 1 //": 1})
    Traceback (most recent call last):
    course.foundation.errors.InvalidInput: The parameter name 'x` RETURN 1 //' cannot be used: a name is letters, digits and _, e.g. {"name": "Payal"} for $name.
    """
    if params is None or params == {}:
        return None
    if not isinstance(params, dict):
        raise InvalidInput('The argument \'params\' must be an object, e.g. {"name": "Payal"}.')
    if len(params) > MAX_PARAMS:
        raise InvalidInput(f"The query has {len(params)} parameters; the limit is {MAX_PARAMS}: "
                           "send fewer.")
    for name, value in params.items():
        if not _PARAM_NAME.fullmatch(name):
            shown = name if len(name) <= 40 else name[:37] + "..."
            raise InvalidInput(f"The parameter name {shown!r} cannot be used: a name is letters, "
                               'digits and _, e.g. {"name": "Payal"} for $name.')
        if not _plain_value(value):
            raise InvalidInput(f"The parameter {name!r} must be text, a number, true/false, null "
                               "or a list of these.")
    size = len(json.dumps(params, ensure_ascii=False))
    if size > MAX_PARAMS_CHARS:
        raise InvalidInput(f"The parameters are {size:,} characters as JSON; the limit is "
                           f"{MAX_PARAMS_CHARS:,}: send less.")
    return dict(params)


def open_college() -> Database:
    """The course graph `course mcp` serves (loaded on the first run); never a memory graph."""
    db = connect()
    require_data_graph(db.graph_name)   # a user's stored conversations are nobody's tool data
    ensure_college(db)
    return db


class CollegeTools:
    """The tools over one course graph. One call runs at a time (`lock`)."""

    def __init__(self, db: Database) -> None:
        require_data_graph(db.graph_name)
        self.db = db
        self.lock = threading.Lock()
        self.sessions: OrderedDict[str, AgenticAgent] = OrderedDict()

    def get_schema(self) -> str:
        """The graph's schema as the agent's prompt gives it."""
        return introspect(self.db).render()

    def facts(self) -> dict[str, Any]:
        """What the graph holds: its name, and nodes and relationships by label and type."""
        return {"graph": self.db.graph_name, **graph_counts(self.db)}

    def cypher_rules(self) -> str:
        """The course's text-to-Cypher system prompt: the schema, the rules, the worked examples."""
        return prompts.cypher_system_prompt(self.get_schema())

    def execute_cypher(self, query: Any, params: Any = None) -> dict[str, Any]:
        """One read-only query through the guarded door; a refusal or FalkorDB's error raises."""
        text = check_text(query, "query", MAX_QUERY_CHARS)
        values = check_params(params)
        cypher = clean(text).cypher or text   # a ```cypher fence or a trailing ; is not an error
        try:
            rows = run_guarded(self.db, cypher, values, timeout_ms=TIMEOUT_MS, max_rows=MAX_ROWS)
        except UnsafeQuery as exc:
            raise UnsafeQuery(f"Refused by the read-only guard: {exc.reason}",
                              clause=exc.clause) from None
        except QueryTimedOut:        # the course's sentence: stopped at the time limit, ask for less
            raise
        except QueryFailed as exc:   # FalkorDB's own words, for the model to fix its query
            raise QueryFailed(f"FalkorDB: {exc.server_message}", server_message=exc.server_message,
                              cypher=cypher) from None
        return records_of(rows, max_chars=MAX_RESULT_CHARS)

    def search_notes(self, query: Any, mode: str = "hybrid", k: int = 3) -> dict[str, Any]:
        """Notebook 13's search: the notes that answer `query`, best first."""
        text = check_text(query, "query", 2_000)
        hits = search(self.db, text, mode=mode, k=k)
        return {"query": text, "mode": mode, "results": [hit.to_dict() for hit in hits]}

    def study_plan(self, student: Any, subject: Any, days: int = 30) -> dict[str, Any]:
        """Notebook 14's plan: `{student, subject, days: [{day, concepts, notes}], ..., summary}`."""
        found = plan(self.db, check_text(student, "student", MAX_NAME_CHARS),
                     check_text(subject, "subject", MAX_NAME_CHARS), days)
        return {**found.to_dict(), "summary": found.summary()}

    def study_partners(self, student: Any, subject: Any = None) -> dict[str, Any]:
        """Notebook 14's study partners and mentors, each with the grade that is the reason."""
        who = check_text(student, "student", MAX_NAME_CHARS)
        what = None if subject is None else check_text(subject, "subject", MAX_NAME_CHARS)
        found = peers(self.db, who, what)
        return {**found.to_dict(), "summary": found.summary()}

    def ask(self, question: Any, session: Any = None) -> str:
        """The learner's agentic agent: its answer and its footer. A session keeps a conversation.

        A question the agent refuses (a write) or cannot answer at all raises, saying why.
        """
        text = check_question(question)
        agent = self._agent(None if session is None else check_id(session, what="session id"))
        result = agent.answer(text)
        if result.status in ("blocked", "failed"):
            raise InvalidInput(" ".join(f"{result.answer or ''} {result.error or ''}".split()))
        return f"{result.answer}\n\n{result.footer()}"

    def _agent(self, session: str | None) -> AgenticAgent:
        """The session's agent (its memory is the conversation); no session: a fresh one."""
        if session is None:
            return _learner(self.db)
        if session not in self.sessions:
            self.sessions[session] = _learner(self.db)
            while len(self.sessions) > MAX_SESSIONS:
                self.sessions.popitem(last=False)
        self.sessions.move_to_end(session)
        return self.sessions[session]


def _learner(db: Database) -> AgenticAgent:
    """A learner's agent with its own conversation, seeing the verified ingested facts."""
    return learner_agent(db, make_llm(), memory=ShortTermMemory(), context_for=facts_context)


def refusal(exc: CourseError) -> str:
    """A refusal as the client reads it: the sentence, on one line.

    >>> refusal(InvalidInput("The argument 'query'\\nis empty."))
    "The argument 'query' is empty."
    """
    return " ".join(str(exc).split())
