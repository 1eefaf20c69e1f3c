"""The student and the subject a request names, found in the graph; the planner's records.

Introduced in notebook 14. Students are found by name or id, subjects by name, code or
alias, in any case; a name that fits two asks for the id or code instead.

>>> find_student(db, "sneha"), find_subject(db, "CS201")
(Named(key='S04', name='Sneha'), Named(key='CS201', name='DBMS'))
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from course.foundation.dataset import load_schema
from course.foundation.db import Database
from course.foundation.errors import InvalidInput


class Record:
    """A flat record whose JSON form is its fields, in order."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload]


@dataclass(frozen=True)
class Named:
    """A student (key = id) or a subject (key = code) as the graph names it."""

    key: str
    name: str


_STUDENTS = "MATCH (s:Student) RETURN s.id, s.name ORDER BY s.id"
_SUBJECTS = "MATCH (s:Subject) RETURN s.code, s.name ORDER BY s.code"


def find_student(db: Database, text: Any) -> Named:
    """The student named or numbered `text`, in any case: "aarav" or "S01".

    >>> find_student(db, "s04")
    Named(key='S04', name='Sneha')
    """
    found = _find(db, _STUDENTS, text, {})
    if found is None:
        known = ", ".join(f"{n.name} ({n.key})" for n in _all(db, _STUDENTS))
        raise InvalidInput(f"There is no student {shown(text)} in the graph. Give a name or an "
                           f"id: {known}.")
    return found


def find_subject(db: Database, text: Any) -> Named:
    """The subject named, coded or aliased `text`, in any case: "dbms", "CS201" or "OS".

    >>> find_subject(db, "operating system")
    Named(key='CS301', name='Operating Systems')
    """
    found = _find(db, _SUBJECTS, text, load_schema().get("aliases") or {})
    if found is None:
        known = ", ".join(f"{n.name} ({n.key})" for n in _all(db, _SUBJECTS))
        raise InvalidInput(f"There is no subject {shown(text)} in the graph. Give a name or a "
                           f"code: {known}.")
    return found


def _all(db: Database, cypher: str) -> list[Named]:
    return [Named(key, name) for key, name in db.run(cypher).rows]


def _find(db: Database, cypher: str, text: Any, aliases: dict[str, list[str]]) -> Named | None:
    """The one item whose key, name or alias is `text`; None for none; two: say which to pick."""
    wanted = " ".join(str(text).split()).casefold() if isinstance(text, str) else ""
    items = _all(db, cypher)
    by_key = [i for i in items if wanted == str(i.key).casefold()]
    found = by_key or [i for i in items if wanted and wanted in
                       {str(n).casefold() for n in [i.name] + list(aliases.get(i.name, []))}]
    if len(found) > 1:
        raise InvalidInput(f"{shown(text)} could be " + " or ".join(f"{i.name} ({i.key})" for i in found)
                           + ": give the id or code instead.")
    return found[0] if found else None


def shown(text: Any) -> str:
    """`text` as an error message quotes it: its repr, cut at 40 characters."""
    quoted = repr(text)
    return quoted if len(quoted) <= 40 else quoted[:37] + "..."
