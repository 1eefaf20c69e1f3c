"""The numbers a question writes: a number property's values ("year 2", "third-year",
"before 2016") and an amount of links ("more than one club") (notebooks 05, 09).

A number is a value only by its property's word: "which 2 students are in year 3?" asks for
students of year 3, and the 2 counts them.
"""
from __future__ import annotations

import re

from course.llm.offline.reading import Reading


def threshold(reading: Reading) -> tuple[str, int] | None:
    """How many links a "common" question asks for: 'more than one' -> ('>', 1); 'multiple',
    'several', 'common', 'both' -> ('>', 1); None when it names no such amount."""
    words = reading.lexicon.count_words
    props = "|".join(f"(?:{r})" for r in reading.lexicon.properties.values() if r) or r"(?!)"
    for regex, op in reading.lexicon.thresholds:
        if m := re.search(regex, reading.text):
            if re.match(rf"\s+(?:{props})", reading.text[m.end():]):
                continue      # "more than 3 credits": a property's number, not links counted
            word = next(g for g in m.groups() if g and (g.isdigit() or g in words))
            return op, int(word) if word.isdigit() else words[word]
    if reading.has("several"):
        return ">", 1
    return None


def numbers(reading: Reading) -> list[tuple[int, str]]:
    """(number, comparison) for each number the question writes.

    An ordinal counts as its number only before a property's word ("third-year" = 3);
    "founded first" is the earliest, not 1; a number before a kind's noun counts the things
    ("which 2 students").

    >>> from course.llm.offline.prompt import Schema
    >>> numbers(Reading("which 2 students are in year 3 ?", [], Schema()))
    [(3, '=')]
    """
    return [(value, op) for value, op, _ in _numbers(reading)]


def numbers_of(reading: Reading, prop: str, others: list[str]) -> list[tuple[int, str]]:
    """`numbers` said of `prop` when the question names number properties of `others` too: each
    number is its nearest property word's ("third-year students in a club founded before 2016":
    3 is a year, 2016 a founding year).

    >>> from course.llm.offline.prompt import Schema
    >>> reading = Reading("which 3rd-year students are in a club founded before 2016 ?", [], Schema())
    >>> numbers_of(reading, "year", ["founded"]), numbers_of(reading, "founded", ["year"])
    ([(3, '=')], [(2016, '<')])
    """
    def where(p: str) -> list[int]:
        return [m.start() for m in re.finditer(reading.lexicon.prop(p), reading.text)]
    own, said = where(prop), {p: where(p) for p in others}
    if not own or not any(said.values()):
        return numbers(reading)
    def distance(at: int, places: list[int]) -> int:
        return min((abs(at - p) for p in places), default=len(reading.text))
    return [(value, op) for value, op, at in _numbers(reading)
            if all(distance(at, own) <= distance(at, places) for places in said.values())]


def _numbers(reading: Reading) -> list[tuple[int, str, int]]:
    """(number, comparison, where it is written) for each number the question writes."""
    lex, found = reading.lexicon, []
    kinds = "|".join(f"(?:{r})" for r in lex.labels.values() if r) or r"(?!)"
    ordinals = "|".join(map(re.escape, lex.ordinals))
    props = "|".join(lex.properties.values()) or r"(?!)"
    for m in re.finditer(rf"(?<![\w§])(\d+)\b|\b({ordinals})\b" if ordinals else r"(?<![\w§])(\d+)\b",
                         reading.text):
        if m[1] is None and not re.match(rf"[\s-]+(?:{props})", reading.text[m.end():]):
            continue
        value = int(m[1]) if m[1] else lex.ordinals[m[2]]
        before, after = reading.text[:m.start()], reading.text[m.end():]
        if m[1] and re.match(rf"\s+(?:{kinds})", after) and not re.search(rf"(?:{props})\s+$", before):
            continue      # "which 2 students": how many, not a value ("year 2 students" is one)
        op = next((o for regex, o in lex.comparisons
                   if re.search(regex, before if regex.endswith("$") else after)), "=")
        found.append((value, op, m.start()))
    return found


def said_with(reading: Reading, prop: str, value: int) -> bool:
    """Is a number the graph does not hold said right by its property's word ("year 1", "first
    year", "1st-year")? Then it is asked, and nothing holds it: none, not a refusal.

    >>> from course.llm.offline.prompt import Schema
    >>> said_with(Reading("any first-year students ?", [], Schema()), "year", 1)
    True
    >>> said_with(Reading("which 1 student is in year 3 ?", [], Schema()), "year", 1)
    False
    """
    words = reading.lexicon.prop(prop)
    ordinal = "|".join(re.escape(w) for w, n in reading.lexicon.ordinals.items() if n == value) or r"(?!)"
    said = rf"(?:\b{value}(?:st|nd|rd|th)?|\b(?:{ordinal}))"
    return bool(re.search(rf"{said}[\s-]+(?:{words})\b|\b(?:{words})\s+{value}\b", reading.text))


def compares_its_number(reading: Reading, end: int) -> bool:
    """Is the word ending at `end` part of a comparison said after its number ("2016 se pehle":
    before 2016), and so no word of a link?"""
    after = [p for p, _ in reading.lexicon.comparisons if p.startswith("^")]
    return any((said := re.match(p, reading.text[n.end():])) and n.end() + said.end() >= end
               for n in re.finditer(r"\d+", reading.text[:end]) for p in after)
