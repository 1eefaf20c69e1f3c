"""A course's short forms, written out for an encoder that never learned them.

Introduced in notebook 13, with the note search. A learner writes "dp" and "acid"; the
schema's aliases say they stand for Dynamic Programming and Transactions, but the embedding
model has never seen the course. Each query an encoder reads gets the name beside its short
form ("dp (Dynamic Programming)"); the rules that read the question still see it as the
learner wrote it.

Only the short form of a topic a note explains is written out: "OS" names a whole subject,
which the question's other words narrow ("paging in OS"), and "Operating Systems" beside it
would only add the words every note of that subject shares.
"""
from __future__ import annotations

import re

from course.foundation.dataset import load_schema
from course.foundation.db import Database
from course.foundation.versioning import per_version

_EXPLAINED = "MATCH (:Note)-[:EXPLAINS]->(c) RETURN DISTINCT c.name"


def short_forms_written_out(db: Database, query: str) -> str:
    """The query with each short form of a topic a note explains followed by its name.

    >>> short_forms_written_out(db, "when do you actually use dp? in OS?")
    'when do you actually use dp (Dynamic Programming)? in OS?'
    >>> short_forms_written_out(db, "use dp (Dynamic Programming)")     # once only
    'use dp (Dynamic Programming)'
    >>> short_forms_written_out(db, "tcp vs TCP/IP")     # a part of a name is no short form
    'tcp (TCP/IP) vs TCP/IP'
    """
    for short, name in per_version(db, "short forms of explained topics", lambda: _short_forms(db)).items():
        query = re.sub(rf"\b{re.escape(short)}\b(?! \()(?![/-]\w)", lambda m: f"{m[0]} ({name})", query,
                       flags=re.I)
    return query


def _short_forms(db: Database) -> dict[str, str]:
    """The schema's aliases written in capitals for a topic a note explains, each with its name
    ("DP": "Dynamic Programming")."""
    explained = {str(row[0]) for row in db.run(_EXPLAINED, max_rows=10**6).rows}
    aliases = load_schema().get("aliases") or {}
    return {short: name for name, shorts in aliases.items() if name in explained for short in shorts
            if re.fullmatch(r"[A-Z]{2,5}", short)}
