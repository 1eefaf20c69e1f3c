"""The one door for Cypher a model wrote: the guard, FalkorDB's plan, the read-only executor.

Introduced in notebook 03. `run_guarded(db, cypher)` is the one door for Cypher that a model
wrote (the agent, evaluation, the tool loop). First the guard (`course.pipeline.guard.check`,
which reads the query as tokens the way FalkorDB does: `course.pipeline.cypher_tokens`); then
`explain_check`, FalkorDB's own plan of the query (nothing runs) with every CALLed procedure
looked up in the server's own READ/WRITE list; then `Database.run`, which reads with
`ro_query`, a time limit and a row cap, on a server whose own limits
(`course.foundation.server.server_limits`) bound time, memory and rows. A write that only
the server's read-only mode caught is still `UnsafeQuery`, in the course's words.

>>> check("MATCH (n) DETACH DELETE n").reason
'DETACH DELETE would change the graph; the agent may only read.'
>>> check("MATCH (p:Project) RETURN p.created_at").allowed
True
"""
from __future__ import annotations

from typing import Any

from course.foundation.db import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT_MS, Database, Rows
from course.foundation.errors import CourseError, QueryFailed, UnsafeQuery
from course.pipeline.cypher_tokens import procedure_name, tokenize
from course.pipeline.guard import ALLOWED, Verdict, check, refuse

# Plan operations that change the graph or read from outside it (see `explain_check`).
# Each operation name -> what the learner wrote to get it.
WRITE_OPERATIONS = {"Create": "CREATE", "Delete": "DELETE", "Update": "SET or REMOVE",
                    "Merge": "MERGE", "MergeCreate": "MERGE", "Foreach": "FOREACH",
                    "Load CSV": "LOAD CSV"}


def ensure_safe(cypher: str) -> None:
    """Raise UnsafeQuery unless `check` allows the query.

    >>> ensure_safe("MATCH (s:Student) RETURN s.name")
    """
    verdict = check(cypher)
    if not verdict:
        raise UnsafeQuery(verdict.reason or "The query was refused.", clause=verdict.clause)


def run_guarded(db: Database, cypher: str, params: dict[str, Any] | None = None, *,
                timeout_ms: int = DEFAULT_TIMEOUT_MS, max_rows: int = DEFAULT_MAX_ROWS) -> Rows:
    """The door for model-written Cypher: the guard, FalkorDB's plan, then the read-only executor.

    Raises UnsafeQuery (nothing ran: the guard or the plan refused it, or the server's
    read-only mode did) or the executor's QueryFailed.

    >>> run_guarded(db, "MATCH (s:Student) RETURN count(s)").rows
    [[5]]
    >>> run_guarded(db, "MATCH (n) DETACH DELETE n")
    Traceback (most recent call last):
    course.foundation.errors.UnsafeQuery: DETACH DELETE would change the graph; the agent may only read.
    """
    ensure_safe(cypher)
    verdict = explain_check(db, cypher, params)
    if not verdict:
        raise UnsafeQuery(verdict.reason or "The query was refused.", clause=verdict.clause)
    return read_only(db, cypher, params, timeout_ms=timeout_ms, max_rows=max_rows)


SERVER_REFUSED_WRITE = ("FalkorDB's read-only mode refused this query because it would change "
                        "the graph; the agent may only read.")


def read_only(db: Database, cypher: str, params: dict[str, Any] | None = None, *,
              timeout_ms: int = DEFAULT_TIMEOUT_MS, max_rows: int = DEFAULT_MAX_ROWS) -> Rows:
    """`Database.run`, with the server's refusal of a write raised as UnsafeQuery in the course's words.

    >>> read_only(db, "MATCH (s:Student) SET s.year = 9")
    Traceback (most recent call last):
    course.foundation.errors.UnsafeQuery: FalkorDB's read-only mode refused this query because it would change the graph; the agent may only read.
    """
    try:
        return db.run(cypher, params, timeout_ms=timeout_ms, max_rows=max_rows)
    except QueryFailed as exc:
        if "read-only queries" in exc.server_message:  # graph.RO_QUERY is to be executed only on ...
            raise UnsafeQuery(SERVER_REFUSED_WRITE, clause="write") from None
        raise


def _operation(line: str) -> str:
    """`'    Conditional Traverse | (n)->(m)'` -> `'Conditional Traverse'`."""
    return line.strip().split(" | ")[0].strip()


_MODES: dict[tuple[str, str], dict[str, str]] = {}   # (server, graph) -> procedure -> READ/WRITE


def procedure_modes(db: Database) -> dict[str, str]:
    """Each procedure the server has (lower-cased name) -> its mode, READ or WRITE; cached per database.

    >>> procedure_modes(db)["db.idx.fulltext.drop"]
    'WRITE'
    """
    key = (db.location, db.graph_name)
    if key not in _MODES:
        rows = db.run("CALL dbms.procedures() YIELD name, mode RETURN name, mode", max_rows=10_000).rows
        _MODES[key] = {str(name).lower(): str(mode).upper() for name, mode in rows}
    return _MODES[key]


def called_procedures(cypher: str) -> list[str]:
    """The procedures a query CALLs, by the guard's reading of it.

    >>> called_procedures("WITH 1 AS as CALL db.idx.fulltext.drop('Student')")
    ['db.idx.fulltext.drop']
    """
    code = [t for t in tokenize(cypher) if t.kind not in ("comment", "other")]
    found = []
    for i, token in enumerate(code):
        if token.kind == "name" and token.word == "CALL":
            name = procedure_name(code, i + 1)
            if name:
                found.append(name)
    return found


def _check_procedures(db: Database, cypher: str) -> Verdict:
    """Every CALLed procedure must be one the server itself says only reads."""
    modes = procedure_modes(db)
    for name in called_procedures(cypher):
        mode = modes.get(name.lower())
        if mode != "READ":
            what = "is not a procedure this server has" if mode is None else "writes to the graph"
            return refuse(f"FalkorDB says the procedure {name} {what}; the agent may only read.",
                           f"CALL {name}")
    return ALLOWED


def explain_check(db: "Database", cypher: str, params: dict[str, Any] | None = None) -> Verdict:
    """Ask FalkorDB for the plan (nothing runs) and refuse plans that would write.

    A plan shows a procedure only as `ProcedureCall`, so each CALLed procedure is looked up
    in the server's own list (`dbms.procedures()`, READ or WRITE). A syntax error is the
    server's own: it raises QueryFailed with its message.

    >>> explain_check(db, "MATCH (n) DETACH DELETE n").clause
    'Delete'
    >>> explain_check(db, "CALL db.idx.fulltext.drop('Student')").clause
    'CALL db.idx.fulltext.drop'
    """
    try:
        plan = db.explain(cypher, params)
    except CourseError:
        raise
    except Exception as exc:  # falkordb cannot read the reply of a schema command
        if "plan must be an array" in str(exc):
            return refuse("FalkorDB reads this as a schema command (an index or a "
                           "constraint), which would change the graph.", "schema command")
        raise
    for line in plan:
        verdict = _check_plan_line(line)
        if not verdict:
            return verdict
    if any(_operation(line) == "ProcedureCall" for line in plan):
        return _check_procedures(db, cypher)
    return ALLOWED


def _check_plan_line(line: str) -> Verdict:
    """One operation of a plan: no write, no Load CSV, no path without an upper bound."""
    operation = _operation(line)
    if operation == "Load CSV":
        return refuse("FalkorDB's plan for this query has a Load CSV step, which reads "
                       "from outside the graph; the agent may only read the graph itself.",
                       operation)
    if operation in WRITE_OPERATIONS:
        article = "an" if operation[0] in "AEIOU" else "a"
        return refuse(f"FalkorDB's plan for this query has {article} {operation} step "
                       f"({WRITE_OPERATIONS[operation]}), which would change the graph; "
                       "the agent may only read.", operation)
    if "..INF]" in line:
        return refuse(f"FalkorDB's plan walks a path with no upper bound ({line.strip()}); "
                       "give the pattern one, such as [*1..3].", operation)
    return ALLOWED


def naive_is_safe(cypher: str) -> tuple[bool, str | None]:
    """The course text's keyword-list check, as written there: substring search.

    >>> naive_is_safe("MATCH (p:Project) RETURN p.created_at")
    (False, 'Write operation detected: CREATE')
    >>> naive_is_safe("MATCH (n) SET\\tn.x = 1")
    (True, None)
    """
    forbidden = ["CREATE", "DELETE", "SET ", "MERGE", "REMOVE", "DROP"]
    upper = cypher.upper()
    for word in forbidden:
        if word in upper:
            return False, f"Write operation detected: {word.strip()}"
    return True, None
