"""Nodes with no link to a kind of node: "How many concepts have no note explaining them?",
"Which students are not in any club?", "Kitne topics ka koi note nahi hai?" (notebooks 05, 09).

A "no", "without", "not ... any" or "koi ... nahi" right by the noun of a second label, and one
relationship the schema has between the asked label and that one: the asked nodes that have no
such link, counted when the question counts. Any other "not" stays the provider's refusal.
"""
from __future__ import annotations

import re

from course.llm.offline.cypher import alias, arrow, plural
from course.llm.offline.prompt import Pattern
from course.llm.offline.reading import Reading

# "no note", "without a club", "not in any club", "not explained by any note", "koi note nahi"
_BEFORE = r"\b(?:no|without(?: an?| any)?|(?:not|n't)(?: \w+){0,2} any|koi)\s+"


def _missing(reading: Reading, labels: list[str]) -> str | None:
    """The label whose noun the negation stands by, the asked one excluded."""
    found = [label for label in labels[1:]
             if re.search(_BEFORE + rf"(?:{reading.lexicon.label(label)})", reading.text)]
    return found[0] if len(found) == 1 else None


def _link(reading: Reading, asked: str, missing: str) -> Pattern | None:
    """The one relationship between the two labels (or the one the words name)."""
    links = [p for p in reading.schema.patterns if {p.start, p.end} == {asked, missing}
             and p.start != p.end]
    named = [p for p in links if p.type in reading.relations()]
    links = named or links
    return links[0] if len(links) == 1 else None


def absent_link(reading: Reading) -> str | None:
    """The asked nodes with no link to any node of the label the "no" stands by.

    The question names no node and exactly two labels, the asked one first.

    >>> from course import Agent, OfflineLLM
    >>> Agent(db, OfflineLLM()).answer("How many concepts have no note explaining them?").rows
    [[5]]
    """
    labels = reading.targets()
    if reading.entities or len(labels) != 2 or labels[0] == labels[1]:
        return None
    asked, missing = labels[0], _missing(reading, labels)
    link = _link(reading, asked, missing) if missing else None
    if link is None or missing is None:
        return None
    pattern = f"WHERE NOT (t){arrow(link, asked)}(:{missing})"
    if reading.has("count"):
        return f"MATCH (t:{asked})\n{pattern}\nRETURN count(DISTINCT t) AS {plural(asked)}"
    name = reading.schema.display(asked)
    return f"MATCH (t:{asked})\n{pattern}\nRETURN DISTINCT t.{name} AS {alias(asked, name)}"
