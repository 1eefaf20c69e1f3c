"""A remembered answer checked before it is served: its query, run again, still gives its rows.

Introduced in notebook 10, with the memory kept in the graph and the answer cache: an answer
remembered from an earlier turn, or shared by another session, is served only when the graph
still gives its rows.

>>> still_given(db, {"cypher": "MATCH (s:Student {name: 'Payal'}) RETURN s.year", "rows": [[2]]})
True
"""
from __future__ import annotations

import json
from typing import Any

from course.foundation.db import Database
from course.foundation.errors import CourseError
from course.pipeline.joined_check import joined


def _as_json(rows: Any) -> str:
    """Rows as the cache stores them, to compare a stored answer with a fresh one."""
    return json.dumps(rows, ensure_ascii=False, default=str, sort_keys=True)


def still_given(db: Database, stored: dict[str, Any]) -> bool:
    """Does the stored query, run again through the guarded door, give the stored rows?

    The data version tells what the course's own writes changed; this also catches a write
    that went around the course (redis-cli, FalkorDB's browser), so a remembered answer is
    never served unless the graph still gives it.

    A room served the same answer at once shares one run (`joined_check`): each asker gets
    the outcome of a run that began after it asked.
    """
    cypher, rows = stored.get("cypher"), stored.get("rows") or []
    if not cypher:
        return False
    cap = len(rows) if stored.get("truncated") else len(rows) + 1  # a cut answer: its first rows
    parameters = stored.get("parameters") or None
    key = ("still given", db.location, db.graph_name, cypher, _as_json(parameters), cap,
           _as_json(rows))
    return joined(key, lambda: _gives(db, cypher, parameters, cap, rows))


def _gives(db: Database, cypher: str, parameters: dict[str, Any] | None, cap: int,
           rows: list[Any]) -> bool:
    """Does the query, run now through the guarded door, give these rows?"""
    from course.pipeline.safety import run_guarded

    try:
        fresh = run_guarded(db, cypher, parameters, max_rows=max(cap, 1))
    except CourseError:
        return False
    return _as_json(fresh.rows) == _as_json(rows)
