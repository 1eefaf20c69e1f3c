"""Which of the named things has more or less of a number: a comparison (notebooks 05, 09).

"Who is in a higher year, Aarav or Karan?", "Which club is older?" of two clubs named, "Between
Rahul and Karan, who joined the club first?": two or more values of one label are named, with a
comparative ("higher", "older", "more") or an end ("first"). The answer is the one among them at
that end of a number: a property of theirs the words name (year, credits), a number of one of
their links (the year a membership began: "joined"), or, for a word of age or time, what dates
their label (a club's founding year); "better" compares by a scale's order (a grade). Ties are
all given. Nothing dates a student: "which of them is older?" of two students finds no number,
and the question is refused rather than answered with both. With no names, `end_of_number`
gives the nodes at an end of a number property the words name ("Which student is in the highest
year?", "the final year"); asked yes or no ("Is Karan in a higher year than Sneha?"),
`compared_yes_no` compares the two numbers.

>>> from course import Agent, OfflineLLM
>>> Agent(db, OfflineLLM()).answer("Who is in a higher year, Aarav or Karan?").rows
[['Karan', 4]]
"""
from __future__ import annotations

import re

from course.llm.offline.aggregates import extreme_property, dating, extreme_pick
from course.llm.offline.cypher import alias, arrow, count_column, lit, node, rank_case, where
from course.llm.offline.hops import Hop, find_hop, hop_match, other
from course.llm.offline.prompt import Entity
from course.llm.offline.reading import Reading
from course.llm.offline.scale_ranges import says_a_range

# "is one of them a prerequisite for the other?": how two things stand to each other, which no
# comparison answers, nor a list of what one of them is linked to, nor a note on either
ONE_TO_THE_OTHER = re.compile(r"\b(?:one|either|any) of\b.*\bthe other\b", re.I)


def compares_named(reading: Reading) -> tuple[str, list[Entity]] | None:
    """The comparison's end ('max' or 'min' of a number, 'best' or 'worst' on a scale) and the
    named values compared (two or more of one label), or None when it compares nothing named."""
    pick = "worst" if reading.has("worse") else "best" if reading.has("better") \
        else "max" if reading.has("higher") else "min" if reading.has("lower") else extreme_pick(reading) \
        or ("worst" if reading.has("worst") else "best" if reading.has("rank") else None) \
        or ("max" if reading.has("most") else "min" if reading.has("least") else None)   # "the most skills"
    labels = [e.label for e in reading.entities for _ in e.values]   # ("which of them": each one)
    compared = [label for label in dict.fromkeys(labels) if labels.count(label) >= 2]
    if pick is None or len(compared) != 1 or re.search(reading.lexicon.comparing, reading.text):
        return None       # ("older than 2016" is a filter, not a choice among names)
    return pick, [e for e in reading.entities if e.label == compared[0]]


def compared(reading: Reading) -> str | None:
    """The named value(s) at the asked end of the number the question compares them by."""
    found = compares_named(reading)
    if found is None or says_a_range(reading.text):    # ("an A or better": a range, no choice)
        return None
    pick, named = found
    label, schema = named[0].label, reading.schema
    names = ", ".join(lit(value) for e in named for value in e.values)
    within = f"t.{named[0].prop} IN [{names}]"
    show = f"t.{schema.display(label)} AS {alias(label, schema.display(label))}"
    scaled = pick in ("best", "worst")        # "better": by a scale's order, a link's
    kept = schema.scales if scaled else schema.numbers
    own = [] if scaled else [p for p in reading.asked_properties(label, schema.labels.get(label, []))
                             if f"{label}.{p}" in schema.numbers]
    links = [(p, q) for p in schema.patterns if label in (p.start, p.end) and p.start != p.end
             for q in reading.asked_properties("", p.props) if f"{p.type}.{q}" in kept]
    if not links and scaled:                   # "better at Python": the scale of the link to it (or
        # to what the last query named: "who knows ML?", then "which of them is better?")
        far_labels = ({e.label for e in reading.entities} | {e.label for _, e in reading.narrowed_by}) - {label}
        links = [(p, q) for p in schema.patterns if label in (p.start, p.end) and p.start != p.end
                 and other(p, label) in far_labels for q in p.props if f"{p.type}.{q}" in kept]
    if not own and not links and reading.has("age"):   # "older", "newer": what dates the label
        own = [prop] if (prop := dating(reading, label)) else []
    if own:
        match = f"MATCH (t:{label})"
        return (f"{match}\nWHERE {within}\nWITH {pick}(t.{own[0]}) AS top\n{match}\n"
                f"WHERE {within} AND t.{own[0]} = top\nRETURN {show}, t.{own[0]} AS {own[0]}")
    if not links and not scaled:          # "more skills", "fewer members": how many each has
        return _by_count(reading, label, named, pick)
    if len(links) != 1:
        return None
    p, prop = links[0]
    far = other(p, label)
    given = [e for e in reading.entities if e.label == far] or \
        [e for link, e in reading.narrowed_by if link == p.type and e.label == far]   # (of those found in §0)
    end, conds = node("x", given[0] if len(given) == 1 else None, far, relaxed=reading.relaxed)
    match = f"MATCH (t:{label}){arrow(p, label, 'r')}{end}"
    shown = "" if given else f", x.{schema.display(far)} AS {alias(far, schema.display(far))}"
    value, top = f"r.{prop}", pick
    if scaled:                        # its place on the scale, best first (no place: no one's)
        value = rank_case(value, schema.scales[f"{p.type}.{prop}"]).rsplit(" ELSE ", 1)[0] + " END"
        top = "min" if pick == "best" else "max"
    return (f"{match}{where([within, *conds])}\nWITH {top}({value}) AS top\n{match}"
            f"{where([within, *conds, f'{value} = top'])}\nRETURN {show}{shown}, r.{prop} AS {prop}")


def counted_after_comparative(reading: Reading, label: str) -> Hop | None:
    """The link a comparative (or a superlative) right before a kind's noun counts of `label`'s
    nodes: "more skills", "the most skills" (a student's skills), "fewer members" (a club's
    students), "more friends" (a link of
    the label to itself, named by its own word), or None when no count is compared."""
    ends = "|".join(reading.cue(c) for c in ("higher", "lower", "most", "least"))
    comparative = rf"\b(?:{ends})\s+"
    loop = reading.self_loop(label)
    if loop and re.search(comparative + rf"(?:{reading.lexicon.relationships[loop]})", reading.text):
        return find_hop(reading, label, label)
    counted = [t for t in reading.targets() if t != label
               and re.search(comparative + rf"(?:{reading.lexicon.label(t)})", reading.text)]
    return find_hop(reading, label, counted[0]) if len(counted) == 1 else None


def _by_count(reading: Reading, label: str, named: list[Entity], pick: str) -> str | None:
    """The named node(s) with the most (fewest) of what a comparative counts, each with its
    count; a named node with none counts 0."""
    hop = counted_after_comparative(reading, label)
    if hop is None:
        return None
    schema = reading.schema
    names = ", ".join(lit(value) for e in named for value in e.values)
    counted = hop.labels[-1]
    pattern = hop_match(reading, hop, "t", f"k:{counted}", rel="")
    noun = count_column(pattern, counted, label, reading.self_loop(label))
    counting = (f"MATCH (t:{label})\nWHERE t.{named[0].prop} IN [{names}]\nOPTIONAL MATCH {pattern}\n"
                f"WITH t, count(DISTINCT k) AS n")
    show = schema.display(label)
    return (f"{counting}\nWITH {pick}(n) AS top\n{counting}, top WHERE n = top\n"
            f"RETURN t.{show} AS {alias(label, show)}, n AS {noun}")


def marked_by_than(reading: Reading) -> int | None:
    """Which name the others are compared with: the one after "than" ("more skills than §1"), or
    before "se zyada" ("§0 se zyada"); None when no name is.

    >>> from course.llm.offline.prompt import Schema
    >>> marked_by_than(Reading("is §1 in a higher year than §0 ?", [], Schema()))
    0
    """
    than = re.search(rf"\bthan\s+(?:the\s+)?§(\d+)\b"
                     rf"|§(\d+)\s+se\s+(?:{reading.cue('higher')}|{reading.cue('lower')})", reading.text)
    return int(than[1] or than[2]) if than else None


def than_one_named(reading: Reading) -> str | None:
    """"Who is in a higher year than §0?", "who has more skills than §0?", "which club is older
    than §0?": the others of the named one's label past it in a number of their own (or what
    dates the label), or in how many of something each has (a named one with none counts 0)."""
    pick = "max" if reading.has("higher") else "min" if reading.has("lower") else None
    if pick is None or len(reading.entities) != 1 or marked_by_than(reading) != 0:
        return None
    named, schema = reading.entities[0], reading.schema
    label, op = named.label, ">" if pick == "max" else "<"
    if label not in [*reading.targets(), reading.person]:   # ("§0 se zyada skills kiske paas": a person)
        return None
    base, conds = node("b", named, relaxed=reading.relaxed)
    show = f"t.{schema.display(label)} AS {alias(label, schema.display(label))}"
    own = [p for p in reading.asked_properties(label, schema.labels.get(label, []))
           if f"{label}.{p}" in schema.numbers]
    if not own and reading.has("age"):    # "older than §0": what dates the label
        own = [prop] if (prop := dating(reading, label)) else []
    if own:
        return (f"MATCH {base}, (t:{label}){where([*conds, f't.{own[0]} {op} b.{own[0]}'])}\n"
                f"RETURN {show}, t.{own[0]} AS {own[0]} ORDER BY t.{own[0]}")
    hop = counted_after_comparative(reading, label)
    if hop is None:
        return None
    counted = hop.labels[-1]
    theirs = hop_match(reading, hop, "b", f"bk:{counted}", rel="")
    its = hop_match(reading, hop, "t", f"k:{counted}", rel="")
    noun = count_column(its, counted, label, reading.self_loop(label))
    return (f"MATCH {base}{where(conds)}\nOPTIONAL MATCH {theirs}\nWITH b, count(DISTINCT bk) AS nb\n"
            f"MATCH (t:{label}) WHERE t <> b\nOPTIONAL MATCH {its}\nWITH t, nb, count(DISTINCT k) AS n\n"
            f"WHERE n {op} nb\nRETURN {show}, n AS {noun} ORDER BY n DESC")


def end_of_number(reading: Reading) -> str | None:
    """The nodes with the largest or smallest value of a number property whose word follows a
    word for an end: 'Which student is in the highest year?', 'the final year', 'lowest credits'."""
    labels = reading.targets() or [reading.person]
    if reading.entities or reading.has("count"):
        return None
    for label in dict.fromkeys(labels):
        for prop in reading.schema.labels.get(label, []):
            for pick, end in (("max", "largest"), ("min", "smallest")):
                if f"{label}.{prop}" in reading.schema.numbers and re.search(
                        rf"(?:{reading.cue(end)})[\s-]+(?:{reading.lexicon.prop(prop)})", reading.text):
                    return extreme_property(reading, label, prop, pick)
    return None


def compared_yes_no(reading: Reading) -> str | None:
    """"Is §0 in a higher year than §1?": two values of one label named, a comparative before
    "than", and a number of their own the words name: whether the first's is higher (lower)."""
    pick = "max" if reading.has("higher") else "min" if reading.has("lower") else None
    labels = {e.label for e in reading.entities}
    mark = marked_by_than(reading)
    if pick is None or len(reading.entities) != 2 or len(labels) != 1 or mark not in (0, 1):
        return None
    # the one after "than" is the mark ("is she in a higher year than §0?", "she" read as §1)
    b = reading.entities[mark]
    a = next(e for e in reading.entities if e is not b)
    own = [p for p in reading.asked_properties(a.label, reading.schema.labels.get(a.label, []))
           if f"{a.label}.{p}" in reading.schema.numbers]
    (na, ca), (nb, cb) = node("a", a, relaxed=reading.relaxed), node("b", b, relaxed=reading.relaxed)
    op = ">" if pick == "max" else "<"
    if len(own) == 1:
        return f"MATCH {na}, {nb}{where(ca + cb)}\nRETURN a.{own[0]} {op} b.{own[0]} AS answer"
    hop = counted_after_comparative(reading, a.label)   # "more friends than §1": their counts
    if hop is None:
        return None   # no number of theirs named ("is §0 older than §1?": nothing dates a student)
    counted = hop.labels[-1]
    first, second = (hop_match(reading, hop, x, f"{x}k:{counted}", rel="") for x in "ab")
    return (f"MATCH {na}{where(ca)}\nOPTIONAL MATCH {first}\nWITH a, count(DISTINCT ak) AS na\n"
            f"MATCH {nb}{where(cb)}\nOPTIONAL MATCH {second}\nWITH na, count(DISTINCT bk) AS nb\n"
            f"RETURN na {op} nb AS answer")
