"""Nodes with no link to a kind of node: "How many concepts have no note explaining them?",
"Which students are not in any club?", "Kitne topics ka koi note nahi hai?" (notebooks 05, 09).

A "no", "without", "not ... any" or "koi ... nahi" right by the noun of a second label, and one
relationship the schema has between the asked label and that one: the asked nodes that have no
such link, counted when the question counts. A "not" a few words before the one name the
question links ("Who doesn't study DSA?") asks the same of that one node. Any other "not" stays
the provider's refusal.
"""
from __future__ import annotations

import re

from course.llm.offline.cypher import alias, arrow, lit, node, plural, where
from course.llm.offline.hops import direction
from course.llm.offline.prompt import Pattern
from course.llm.offline.reading import Reading

# "no note", "without a club", "not in any club", "don't have a note", "koi note nahi"
_BEFORE = (r"(?:\b(?:no|without(?: an?| any)?|not(?: \w+){0,2} (?:any|an?)|koi)"
           r"|n't(?: \w+){0,2} (?:any|an?))\s+")

# "kaunse topics ke notes nahi hain?": Hindi says "no" after its noun
_AFTER = r"\s+(?:hi\s+|bhi\s+)?(?:nahi|nahin)\b"


def _missing(reading: Reading, labels: list[str]) -> str | None:
    """The label whose noun the negation stands by, the asked one excluded."""
    found = [label for label in labels[1:]
             if re.search(_BEFORE + rf"(?:{reading.lexicon.label(label)})", reading.text)
             or re.search(rf"(?:{reading.lexicon.label(label)}){_AFTER}", reading.text)]
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

    The question names exactly two labels, the asked one first; or it names values of the
    asked label ("which of A and B have no note?"), or one node the asked nodes link to ("the
    concepts of §0": those it covers).

    >>> from course import Agent, OfflineLLM
    >>> Agent(db, OfflineLLM()).answer("How many concepts have no note explaining them?").rows
    [[5]]
    """
    unlinked = _not_linked_to(reading) or _none_of_its_own_kind(reading)
    if unlinked is not None:
        return unlinked
    named = {e.label for e in reading.entities}
    labels = [label for label in reading.targets() if label not in named]
    if len(named) > 1 or (named and not labels):
        return None
    if named and len(labels) == 1:               # "which of A and B have no note?"
        labels = [*named, *labels]
    if len(labels) != 2 or labels[0] == labels[1]:
        return None
    asked, missing = labels[0], _missing(reading, labels)
    link = _link(reading, asked, missing) if missing else None
    if link is None or missing is None:
        return None
    match, conds = _among(reading, asked, missing)
    if match is None:
        return None
    pattern = where([*conds, f"NOT (t){arrow(link, asked)}(:{missing})"])
    if reading.has("count"):
        return f"{match}{pattern}\nRETURN count(DISTINCT t) AS {plural(asked)}"
    name = reading.schema.display(asked)
    return f"{match}{pattern}\nRETURN DISTINCT t.{name} AS {alias(asked, name)}"


# "doesn't study §0", "not in the §0", "don't need §0": a "not" a few words before the one name;
# "neither §0 nor §1", "not in §0 or §1": before two of one kind, linked to neither
_NOT_BEFORE_NAME = re.compile(r"(?:\bnot|n't|\bnever)\s+(?:[a-z]+\s+){0,3}?§0\b")
_NEITHER = re.compile(r"(?:\bneither|\bnot|n't|\bnever)\s+(?:[a-z]+\s+){0,3}?§0\s+(?:nor|or)\s+(?:the\s+)?§1\b")


def _not_linked_to(reading: Reading) -> str | None:
    """"Who doesn't study §0?", "Which projects don't need §0?", "which students study
    neither §0 nor §1?": the nodes of the one kind asked with no link to the nodes named (one,
    or two of one kind), by the one relationship between the two kinds (or the one the words
    name); None for any other question."""
    named = reading.entities
    one = len(named) == 1 and _NOT_BEFORE_NAME.search(reading.text) is not None
    two = len(named) == 2 and named[0].label == named[1].label and _NEITHER.search(reading.text) is not None
    if not (one or two) or any(isinstance(e.value, tuple) for e in named):
        return None
    e = named[0]
    asked = [label for label in dict.fromkeys(reading.targets()) if label != e.label]
    link = _link(reading, asked[0], e.label) if len(asked) == 1 else None
    if link is None:
        return None
    nots = " AND ".join(f"NOT (t){arrow(link, asked[0])}(:{x.label} {{{x.prop}: {lit(x.value)}}})" for x in named)
    match = f"MATCH (t:{asked[0]})\nWHERE {nots}"
    if reading.has("count"):
        return f"{match}\nRETURN count(DISTINCT t) AS {plural(asked[0])}"
    name = reading.schema.display(asked[0])
    return f"{match}\nRETURN DISTINCT t.{name} AS {alias(asked[0], name)}"


# "have no prerequisite", "without any subtopics", "don't have a prerequisite": what a node has
# none of ("are not a prerequisite for anything" says the other way, and is left alone)
_HAS_NONE = (r"\b(?:ha(?:ve|s) no|ha(?:ve|s) not? any|without(?: an?| any)?"
             r"|(?:don't|doesn't|do not|does not) have (?:any|an?))\s+")


def _none_of_its_own_kind(reading: Reading) -> str | None:
    """"Which concepts have no prerequisite?", "which DSA topics have no subtopics?": the asked
    nodes with no link of the relationship between nodes of their own label that the words
    name, the way its word points (a prerequisite comes before, a subtopic is included). A
    link with no way ("no friends") has no rule here: the course's evaluation keeps that
    question out of scope."""
    named = {e.label for e in reading.entities}
    asked = next((label for label in reading.targets() if label not in named), None)
    loop = reading.self_loop(asked) if asked else None
    way = direction(reading) if loop else ""
    if not asked or not loop or not way or not re.search(
            _HAS_NONE + rf"(?:{reading.lexicon.relation(loop)})", reading.text):
        return None
    match, conds = _among(reading, asked, "")
    if match is None:
        return None
    link = f"(t)-[:{loop}]->()" if way == "out" else f"()-[:{loop}]->(t)"
    pattern = where([*conds, f"NOT {link}"])
    if reading.has("count"):
        return f"{match}{pattern}\nRETURN count(DISTINCT t) AS {plural(asked)}"
    name = reading.schema.display(asked)
    return f"{match}{pattern}\nRETURN DISTINCT t.{name} AS {alias(asked, name)}"


def _among(reading: Reading, asked: str, missing: str) -> tuple[str | None, list[str]]:
    """The MATCH of the asked nodes: all of them; the named ones, when the question chooses
    among them ("which of §0 and §1", "§0 mein se"); or those one named node of another label
    links to by the one relationship between the two (not the missing one)."""
    if not reading.entities:
        return f"MATCH (t:{asked})", []
    if all(e.label == asked for e in reading.entities):
        if not re.search(rf"(?:{reading.cue('among')})\s+§\d|§\d+\s+(?:mein|me)\s+se\b", reading.text):
            return None, []      # "the topics in the graph": a word like a name, no choice among
        values = [v for e in reading.entities
                  for v in (e.value if isinstance(e.value, tuple) else (e.value,))]
        prop = reading.entities[0].prop
        return f"MATCH (t:{asked})", [f"t.{prop} IN [{', '.join(map(lit, values))}]"]
    if len(reading.entities) != 1:
        return None, []
    e = reading.entities[0]
    links = [p for p in reading.schema.patterns if {p.start, p.end} == {e.label, asked}
             and p.start != p.end and missing not in (p.start, p.end)]
    if len(links) != 1:
        return None, []
    x, conds = node("x0", e, relaxed=reading.relaxed)
    return f"MATCH {x}{arrow(links[0], e.label)}(t:{asked})", conds
