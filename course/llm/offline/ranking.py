"""Best first by a VALUE SCALE, a grade or a level: "the best person to teach me DBMS", "who
got the top grade in DSA?", "Payal's best grade" (notebooks 05, 09).

A scale is an order of values (A+ before A), not a number: the rows are ranked by their
place on it, and "the best" or "the lowest" asks for the rows at that end, ties included.
"""
from __future__ import annotations

import re

from course.foundation.language import WORDS
from course.llm.offline.cypher import alias, node, rank_case, where
from course.llm.offline.filters import filter_values
from course.llm.offline.reading import Reading
from course.llm.offline.scale_ranges import in_range


def ranking(reading: Reading) -> str | None:
    """Best first by a VALUE SCALE: 'best person to teach me DBMS', 'learn ML from'; the top of
    it for one name ("Payal's best grade": her subjects at the top of her grades).

    >>> from course import Agent, OfflineLLM
    >>> Agent(db, OfflineLLM()).answer("In which subject did Payal get her best grade?").rows
    [['DBMS', 'A+']]
    """
    numbers = "|".join(f"(?:{reading.lexicon.prop(k.split('.')[1])})" for k in reading.schema.numbers)
    # "what does DSA teach?" asks for no one and no grade ("kiska grade": whose, it does)
    someone = reading.person in reading.targets() or bool(set(reading.text.split()) & WORDS.people)
    if len(reading.entities) > 1 or numbers and re.search(   # "the lowest semester": a number
            rf"(?:{reading.cue('superlative')})\s+(?:{numbers})", reading.text):
        return None
    for key, scale in reading.schema.scales.items():
        rel_type, prop = key.split(".")
        if not someone and not re.search(reading.lexicon.prop(prop), reading.text):
            continue
        # "good at X, like advanced level": the level named is a filter, not an order (a grade
        # of one letter is not "named": "a good person" holds the article, not the grade A)
        if any(len(str(value)) > 1 and re.search(rf"\b{re.escape(str(value).lower())}\b", reading.text)
               for value in scale) or len(found := filter_values(reading, key)) == 1 \
                and in_range(reading.text, found[0], scale) is not None:   # "B or better": a range
            continue
        for p in reading.schema.patterns:
            if p.type != rel_type or p.start != reading.person:
                continue
            one = reading.entities[0] if reading.entities else None
            if one is not None and one.label == p.start and asks_the_extreme(reading, prop):
                s, cond = node("s", one, relaxed=reading.relaxed)    # "Payal's best grade": hers
                far = reading.schema.display(p.end)
                return top_rows(reading, f"{s}-[r:{rel_type}]->(x:{p.end}){where(cond)}", prop, scale,
                                f"x.{far} AS {alias(p.end, far)}")
            if one is not None and one.label != p.end:
                continue
            if not reading.entities and not re.search(reading.lexicon.prop(prop), reading.text) \
                    and p.type not in reading.relations():
                continue
            x, cond = node("x", reading.entities[0] if reading.entities else None, p.end,
                           relaxed=reading.relaxed)
            order = rank_case(f"r.{prop}", scale) + (" DESC" if reading.has("worst") else "")
            extra = "" if reading.entities else f", x.{reading.schema.display(p.end)} AS {p.end.lower()}"
            name = reading.schema.display(p.start)
            if asks_the_extreme(reading, prop):
                return top_rows(reading, f"(s:{p.start})-[r:{rel_type}]->{x}{where(cond)}", prop,
                                scale, f"s.{name} AS {alias(p.start, name)}{extra}")
            return (f"MATCH (s:{p.start})-[r:{rel_type}]->{x}{where(cond)}\n"
                    f"RETURN s.{name} AS {alias(p.start, name)}{extra}, r.{prop} AS {prop}\n"
                    f"ORDER BY {order}, s.{name}")
    return None


def asks_the_extreme(reading: Reading, prop: str) -> bool:
    """"What's the lowest grade in DSA?", "Who got the top grade?": a superlative of the scale's
    property asks for the rows at the top (or bottom), ties included, not for everyone in order
    ("the best person to teach me DBMS" names no property: a ranking, best first). So does
    "really good at", "an expert in": the top of the scale, not everyone who has it."""
    return asks_extreme_value(reading.text, reading.cue("superlative"), reading.lexicon.prop(prop)) \
        or re.search(r"\b(?:really|very|truly|extremely|super)\s+good\b|\bexperts?\b", reading.text) is not None


def asks_extreme_value(text: str, superlative: str, prop: str) -> bool:
    """Does the text ask for the top (or bottom) value of a property, or for who has it?

    >>> asks_extreme_value("what's the lowest grade in dsa?", "lowest", "grades?")
    True
    >>> asks_extreme_value("who got the lowest grade in dsa?", "lowest", "grades?")
    True
    >>> asks_extreme_value("who is the best in dsa?", "best", "grades?")
    False
    """
    return bool(re.search(rf"{superlative}\s+(?:{prop})", text.lower()))


def top_rows(reading: Reading, pattern: str, prop: str, scale: list[str], shown: str) -> str:
    """The rows at the top of the scale (the bottom for "lowest"/"worst"), ties included, in
    no order (a tie is no ranking); a value not on the scale is no one's best or worst."""
    place = rank_case(f"r.{prop}", scale).rsplit(" ELSE ", 1)[0] + " END"
    pick = "max" if reading.has("worst") else "min"
    return (f"MATCH {pattern}\nWITH {pick}({place}) AS top\n"
            f"MATCH {pattern}\nWITH s, r, x, top WHERE {place} = top\n"
            f"RETURN {shown}, r.{prop} AS {prop}")
