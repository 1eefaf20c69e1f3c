"""Which notes may answer a question that names graph values: those that speak of each one.

Introduced in notebook 12, with the agentic agent's note search: a note answers a concept
question, and a question that names a student, a club or a project asks about that node.
"What's Sneha's phone number?" is no note question though a note mentions phone numbers: no
note speaks of Sneha.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from course.foundation.db import Database
from course.pipeline.linking import Mention, link_entities

NEAR_NOTES = """\
MATCH (n:Note)-[*1..2]-(x)
WHERE n.id IN $notes AND x.name IS NOT NULL
RETURN n.id AS note, collect(DISTINCT toLower(x.name)) AS near"""


def speak_of(db: Database, mentions: Sequence[Mention], columns: Sequence[str],
             rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """The note rows that speak of every graph value the question names: by its name or the
    question's word for it in the note's text, or as a node at most two links from the note
    (its concept, that concept's subject). "What's Sneha's phone number?" asks about Sneha, whom
    no note speaks of: a note that mentions phone numbers does not answer it.

    >>> sneha = link_entities(db, "What is Sneha's phone number?")
    >>> speak_of(db, sneha, ["note", "text"], [["N02", "One row per phone number."]])
    []
    """
    if not mentions or "note" not in columns or "text" not in columns:
        return [list(r) for r in rows]
    note, text = list(columns).index("note"), list(columns).index("text")
    near = dict(db.run(NEAR_NOTES, {"notes": [r[note] for r in rows]}).rows) if rows else {}
    return [list(r) for r in rows if all(
        str(m.value).lower() in near.get(r[note], []) or
        any(w.lower() in str(r[text]).lower() for w in (str(m.value), m.text) if w.strip())
        for m in mentions)]
