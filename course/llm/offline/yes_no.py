"""Yes or no about named things: a link between two ("Does Aarav study DBMS?") or a link of one
with a value the words name ("Does the debate society have a president?", "does Rahul have
an advanced skill?") (notebooks 05 and 09).

>>> from course import Agent, OfflineLLM
>>> Agent(db, OfflineLLM()).answer("Does Aarav have an advanced skill?").answer
'No.'
"""
from __future__ import annotations

import re

from course.llm.offline.cypher import arrow, node, where
from course.llm.offline.filters import rel_filters
from course.llm.offline.hops import direction, find_hop, other, twice
from course.llm.offline.reading import Reading, listed_together


def yes_no(reading: Reading) -> str | None:
    """'Does Aarav study DBMS?', 'Are Aarav and Payal friends?', 'Does Aarav know SQL and Python?'."""
    any_one = reading.has("either") or reading.has("generic")    # "SQL or Python", "any of them"
    if len(reading.entities) > 2:
        reading = listed_together(reading)
    if len(reading.entities) != 2:
        return None
    a, b = reading.entities
    hop = twice(reading, find_hop(reading, a.label, b.label))
    if hop is None or len(hop.patterns) != 1:
        return None
    (na, ca), (nb, cb) = node("a", a, relaxed=reading.relaxed), node("b", b, relaxed=reading.relaxed)
    link = arrow(hop.patterns[0], a.label, "r", direction=_way_from_the_first(reading) or direction(reading))
    pairs = len(a.values) * len(b.values)
    if pairs > 1 and not any_one:
        # "does Aarav have all of them?", of SQL and Python: each one, not any one
        return (f"MATCH {na}, {nb}{where(ca + cb)}\nOPTIONAL MATCH (a){link}(b)\n"
                f"WITH a, b, count(r) AS links\nRETURN count(*) = {pairs} AND min(links) > 0 AS answer")
    return f"MATCH {na}, {nb}{where(ca + cb)}\nOPTIONAL MATCH (a){link}(b)\nRETURN count(r) > 0 AS answer"


def _way_from_the_first(reading: Reading) -> str:
    """Which way the link goes from the first name when the words of the way are said of the
    second ("is §0 part of §1", "does §0 come before §1", "§0 §1 se pehle"): a question that
    names one thing asks what is before it, but "§0 before §1" says §0 comes first. '' when
    no such word is said of the second name.

    >>> from course.llm.offline.prompt import Schema
    >>> [_way_from_the_first(Reading(t, [], Schema())) for t in ("is §0 part of §1 ?",
    ...  "does §0 come before §1 ?", "does §0 come after §1 ?", "does §0 include §1 ?")]
    ['in', 'out', 'in', '']
    """
    def said_of_the_second(cue: str) -> bool:
        return re.search(rf"(?:{cue})\s+(?:the\s+)?§1\b|§1\s+(?:se|ke)\s+(?:{cue})", reading.text) is not None
    if said_of_the_second(reading.cue("part_in")) or said_of_the_second(r"\bafter|\bbaad"):
        return "in"       # §1 includes §0; §1 comes first
    return "out" if said_of_the_second(reading.cue("direction_in")) else ""


def yes_no_of_one(reading: Reading) -> str | None:
    """"Does §0 have a president?", "does §0 have an advanced skill?": whether one named node has
    a link whose property holds a value the words name (a role, a level, a grade)."""
    if len(reading.entities) != 1 or re.search(r"\b(?:anyone|anybody|someone|somebody|any|koi)\b", reading.text):
        return None     # ("does any student have §0 at the advanced level?": who, the listing says)
    a = reading.entities[0]
    for p in reading.schema.touching(a.label):
        conds = rel_filters(reading, p, "r") if p.start != p.end else []
        if conds:
            na, ca = node("a", a, relaxed=reading.relaxed)
            return (f"MATCH {na}{where(ca)}\nOPTIONAL MATCH (a){arrow(p, a.label, 'r')}(:{other(p, a.label)})\n"
                    f"WHERE {' AND '.join(conds)}\nRETURN count(r) > 0 AS answer")
    return None
