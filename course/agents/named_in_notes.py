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
    """The note rows, when the best one speaks of every graph value the question names in full
    (by its name or the question's word for it in the note's text, or as a node at most two
    links from the note: its concept, that concept's subject); else none. A weaker note is
    not promoted in its place: it did not answer the question either. "What's Sneha's phone
    number?" asks about Sneha, whom no note speaks of: a note on phone numbers is no answer.

    >>> sneha = link_entities(db, "What is Sneha's phone number?")
    >>> speak_of(db, sneha, ["note", "text"], [["N02", "One row per phone number."]])
    []
    """
    named = [m for m in mentions if m.score >= 1.0]    # a partial link names nothing for sure
    if not named or not rows or "note" not in columns or "text" not in columns:
        return [list(r) for r in rows]
    note, text = list(columns).index("note"), list(columns).index("text")
    best = rows[0]
    near = dict(db.run(NEAR_NOTES, {"notes": [best[note]]}).rows)
    spoken = all(str(m.value).lower() in near.get(best[note], []) or
                 any(w.lower() in str(best[text]).lower() for w in (str(m.value), m.text) if w.strip())
                 for m in named)
    return [list(r) for r in rows] if spoken else []
