"""Which relationship a question means: from a label to the label it asks for (notebooks 05, 09).

The relationship words of the lexicon narrow the schema's patterns to one, or to one chain of
two through a third label; none or several left means the rules do not know (the sentinel).

>>> from course import Agent, OfflineLLM
>>> sorted(Agent(db, OfflineLLM()).answer("Who studies DBMS?").values())
['Aarav', 'Payal']
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from course.llm.offline.chain import chained
from course.llm.offline.cypher import arrow
from course.llm.offline.prompt import Pattern
from course.llm.offline.reading import Reading


_DIRECTION_CUES = ("direction_toward", "direction_out", "part_of_name", "direction_in", "part_in", "part_out")


def direction(reading: Reading, pattern: Pattern | None = None) -> str:
    """For a relationship between two nodes of one label: 'in', 'out' or '' (either way).

    Given the `pattern`, a direction word that names another link says nothing about this
    one: in "Which clubs are §0's friends part of?", "part of" is a concept's parts, and a
    friend is a friend either way.
    """
    if pattern is not None and not _turns(reading, pattern.type):
        return ""
    if _toward(reading):      # "which concepts lead to §0": §0 is where they lead
        return "in"
    if reading.has("direction_out") or reading.has("part_of_name"):
        return "out"
    if reading.has("direction_in") or reading.has("part_in"):
        return "in"
    if reading.has("part_out"):
        return "out"
    return ""


def _toward(reading: Reading) -> bool:
    """A word of the way out with a name after it and none before it: "which of §0 and §1 is a
    prerequisite for §2" asks what comes before §2; "is §0 a prerequisite for §1" says §0's way."""
    def subject_before(text: str) -> bool:    # a name right before, not one of a choice's names
        return bool(re.search(r"§\d+ (?:is |are )?(?:a |an )?$", text)) and not \
            re.search(r"\b(?:of|among) (?:§\d+ ?(?:,|and|or)? ?)+(?:is |are )?(?:a |an )?$", text)
    return any(not subject_before(reading.text[:m.start()])
               for m in re.finditer(reading.lexicon.cues.get("direction_toward", r"(?!)"), reading.text))


def both_ways(reading: Reading, query: str) -> str | None:
    """The link of a label to itself that the query follows while the question's words point
    both along it and back ("the most subtopics under its name": "subtopics" is what a
    concept includes, "under" what includes it), or None: no direction can be trusted."""
    cue = reading.lexicon.cues.get
    inward = _spans(cue("direction_in", ""), reading.text) + _spans(cue("part_in", ""), reading.text)
    outward = [*_spans(cue("direction_out", ""), reading.text), *_spans(cue("part_out", ""), reading.text),
               *_spans(cue("part_of_name", ""), reading.text)]     # "under §0": inside the name
    def apart(spans: list[tuple[int, int]], others: list[tuple[int, int]]) -> bool:
        """A span no span of the other way overlaps ("has §0 as its prereq" holds "prereq")."""
        return any(all(b <= c or d <= a for c, d in others) for a, b in spans)
    if not (apart(inward, outward) and apart(outward, inward)):
        return None
    loops = {p.type for p in reading.schema.patterns if p.start == p.end}
    return next((t for t in sorted(loops) if f":{t}" in query), None)


def seen_from(reading: Reading, pattern: Pattern, own: int, others: set[int]) -> str | None:
    """The direction of a link of one label to itself on the way from name §`own`, when the
    question names `others` on the asked thing's side; None: the words do not say.

    A direction word says which way from the name it is said of. Said of one of `others` ("which
    of §0's subjects is a prerequisite for a subject §1 studies"), it is the asked thing's way,
    so from §1 it turns round; said of no name ("leads to a subject §1 studies"), it is unclear."""
    way = direction(reading, pattern)
    if not way:
        return way
    said = [s for cue in _DIRECTION_CUES for s in _spans(reading.lexicon.cues.get(cue, ""), reading.text)]
    anchors = {int(n) for a, b in said for n in re.findall(r"§(\d+)", reading.text[a:b])}
    if own in anchors and not anchors & others:
        return way
    if anchors and anchors <= others:
        return {"in": "out", "out": "in"}[way]
    return None


def had_by_the_asked(reading: Reading, loop: Pattern, target: str) -> bool:
    """Do the words say the asked kind has a link of itself to itself ("which of §0's subjects
    have a prerequisite?", "subjects that have a prerequisite")? Then the link is a condition
    on the nodes asked for, not a step to the nodes at its other end."""
    if not loop.start == loop.end == target:
        return False
    noun, word = reading.lexicon.label(target), reading.lexicon.relation(loop.type) or r"(?!)"
    # (not when a clause says which one: "subjects that have a prereq that §0 studies"); or are
    # one for any other ("which of the subjects §0 studies is a prerequisite for another subject?")
    return re.search(rf"\b(?:{noun})\s+(?:that\s+|which\s+)?(?:\S+\s+){{0,3}}?(?:has|have|having|with)\s+"
                     rf"(?:(?:a|an|any|some)\s+)?(?:{word})(?!\s+(?:that|which|who|whose|jo)\b|\s+§)"
                     rf"|\b(?:{noun})\s+(?:\S+\s+){{0,3}}?(?:(?:is|are)\s+)?(?:an?\s+)?(?:{word})"
                     rf"\s+(?:for|to|of)\s+"
                     rf"(?:another|any|some|other|an?)\s+(?:other\s+)?(?:{noun})\b", reading.text) is not None


def _spans(regex: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(regex, text)] if regex else []


def _turns(reading: Reading, link: str) -> bool:
    """Does a direction word of the question belong to `link`: it overlaps one of the link's
    own words, or it names no link at all ("opens", "inside")?"""
    def overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
        return any(a < span[1] and span[0] < b for a, b in spans)
    said = [s for cue in _DIRECTION_CUES for s in _spans(reading.lexicon.cues.get(cue, ""), reading.text)]
    own = _spans(reading.lexicon.relation(link) or "", reading.text)
    others = [s for t in reading.relations() if t != link
              for s in _spans(reading.lexicon.relation(t) or "", reading.text)]
    return any(overlaps(s, own) or not overlaps(s, others) for s in said)


@dataclass(frozen=True)
class Hop:
    """How to get from an entity's label to the target label: one or two patterns."""

    patterns: tuple[Pattern, ...]
    labels: tuple[str, ...]        # entity label, [middle label], target label


def find_hop(reading: Reading, start: str, target: str | None, *, strict: bool = True) -> Hop | None:
    """The one relationship (or two-step chain) from `start` to `target` the words point to.

    Relationship words narrow the choice ("works" -> a working-on link). `strict`: a word that names
    no relationship of this pair means "not this question" ("Who teaches DBMS?" is about
    teachers); with several names in one question the words may belong to another name.
    """
    schema, cues = reading.schema, reading.relations()
    candidates = [p for p in schema.touching(start)
                  if target is None or other(p, start) == target]
    if not candidates and target is not None and target != start:
        return _two_steps(reading, start, target, cues)
    named = [p for p in candidates if p.type in cues]
    if target is not None and candidates and not named and not _link_words(reading, target):
        cues = []   # "which subject is §0 in?": "subject" names the kind asked, not a link
    if target is not None and cues:
        # "§0's friends' subjects", "a project that requires §0": a chain the words name
        # step by step goes before a direct link that leaves a named step out
        steps = [types for _, types in chained(reading.text, reading.lexicon)]
        must = set().union(*steps) if steps else set()
        followed = bool(named) and (not must or any(p.type in must for p in named))
        # "projects that need a skill §0 has": words name links the direct one does not cover
        extra = _verbs_of_their_own(reading, {p.type for p in named})
        if followed and extra and not steps and len(named) == 1 and target != start:
            composed = _named_chain(reading, start, target, cues, [extra])
            if composed is not None and extra <= {p.type for p in composed.patterns}:
                return composed
        if not followed and (steps or target != start):
            composed = _named_chain(reading, start, target, cues, steps)
            if composed is not None:
                return composed
    if cues and (named or strict):
        candidates = named
    if target is None and len({(p.type, other(p, start)) for p in candidates}) > 1:
        # "after DBMS", "X ke baad", "prerequisites of X" point along a same-label link
        same = bool(direction(reading))
        candidates = [p for p in candidates if (other(p, start) == start) == same] or candidates
    if len({(p.type, p.start, p.end) for p in candidates}) != 1:
        return None
    return Hop((candidates[0],), (start, other(candidates[0], start)))


def _link_words(reading: Reading, target: str) -> list[str]:
    """The relationship types the words name besides the target's own noun ("subjects" is a
    word of studying, and the kind a "which subject" asks for)."""
    text = re.sub(reading.lexicon.label(target), " ", reading.text)
    return [t for t in reading.relations() if re.search(reading.lexicon.relation(t) or "(?!)", text)]


def other(p: Pattern, label: str) -> str:
    """The label at the far end of a pattern from `label`."""
    return p.end if p.start == label else p.start


def _two_steps(reading: Reading, start: str, target: str, cues: list[str]) -> Hop | None:
    """A unique chain start - middle - target through a third label (no same-label steps)."""
    chains = []
    for first in reading.schema.touching(start):
        middle = other(first, start)
        if middle in (start, target) or first.start == first.end:
            continue
        for second in reading.schema.touching(middle):
            if other(second, middle) == target and second.start != second.end:
                chains.append((first, second, middle))
    if cues:
        chains = [c for c in chains if c[0].type in cues or c[1].type in cues] or chains
    if len(chains) != 1:
        return None
    first, second, middle = chains[0]
    return Hop((first, second), (start, middle, target))


def _named_chain(reading: Reading, start: str, target: str, cues: list[str],
                 steps: list[set[str]]) -> Hop | None:
    """The one chain start - middle - target whose two relationships the words both name and
    which traverses every step a possessive names ("§0's friends": a friend hop first); a
    link of a label to itself only where the words name it. None when none or several fit."""
    must = set().union(*steps) if steps else set()
    # a link is named by its words, or by a word for a value of its property ("the president")
    valued = {q for q, words in reading.lexicon.value_words.items()
              if words and re.search(words, reading.text)}
    cues = list(cues) + [p.type for p in reading.schema.patterns if valued & set(p.props)]
    chains = []   # (first pattern, second pattern, middle label)
    for first in reading.schema.touching(start):
        middle = other(first, start)
        for second in reading.schema.touching(middle):
            if other(second, middle) != target or first.type not in cues or second.type not in cues:
                continue
            if (first.start == first.end and first.type not in must) or \
                    (second.start == second.end and second.type not in must):
                continue
            if not _each_step_once(steps, (first.type, second.type)):
                continue
            chains.append((first, second, middle))
    if len({(f.type, s.type, m) for f, s, m in chains}) > 1:
        # "the subject that comes before §0": a step whose word stands right before the
        # name is the name's own link, the first of the chain
        near = {t for word, types in _steps_at(reading) for t in types}
        chains = [c for c in chains if c[0].type in near and c[0].start == c[0].end == start] \
            or chains
    if len({(f.type, s.type, m) for f, s, m in chains}) != 1:
        return None
    first, second, middle = chains[0]
    for step in must:     # "§0's friends' friends' subjects" names more hops than two
        cue = reading.lexicon.relation(step)
        if cue and len(re.findall(cue, reading.text)) > [first.type, second.type].count(step):
            return None
    return Hop((first, second), (start, middle, target))


def _steps_at(reading: Reading) -> list[tuple[str, set[str]]]:
    """The chain's steps whose word stands right before the first name ("before §0")."""
    return [(word, types) for word, types in chained(reading.text, reading.lexicon)
            if re.search(rf"\b{re.escape(word)}\s+(?:the\s+)?§0\b", reading.text)]


def _without_nouns(reading: Reading) -> str:
    """The question's text without the label nouns (a plural noun of a label names the label,
    not only a link): what is left names links by verbs."""
    text = reading.text
    for label in reading.schema.labels:
        noun = reading.lexicon.label(label)
        text = re.sub(noun, " ", text) if noun else text
    return text


def _verbs_of_their_own(reading: Reading, taken: set[str]) -> set[str]:
    """The links besides `taken` that the question's verbs name with a word of their own: not
    one that names a taken link too ("the concepts under §0": "under" names a subject's
    concepts as well as a concept's parts, so it asks for no second link)."""
    text = _without_nouns(reading)
    spans = {t: [m.span() for m in re.finditer(reading.lexicon.relation(t) or r"(?!)", text)]
             for t in replace(reading, text=text).relations()}
    used = [span for t in taken for span in spans.get(t, [])]
    return {t for t, found in spans.items() if t not in taken and any(
        not any(a < d and c < b for c, d in used) for a, b in found)}


def _each_step_once(steps: list[set[str]], types: tuple[str, str]) -> bool:
    """Does each named step get a hop of its own ("friends' friends' friends" is three)?"""
    if len(steps) > len(types):
        return False
    if len(steps) == 2:
        return bool({types[0]} & steps[0] and {types[1]} & steps[1]
                    or {types[1]} & steps[0] and {types[0]} & steps[1])
    return not steps or bool(steps[0] & set(types))


def hop_match(reading: Reading, hop: Hop, left: str, right: str, *, rel: str = "r",
              way: str | None = None) -> str:
    """`(left)-[r:TYPE]->(right:Label)` (or via a middle node) for a resolved Hop; `way`, when
    given, is the direction of its link of one label to itself (`seen_from`)."""
    def turn(p: Pattern) -> str:
        return way if way is not None and p.start == p.end else direction(reading, p)
    if len(hop.patterns) == 1:
        only = hop.patterns[0]
        return f"({left}){arrow(only, hop.labels[0], rel, direction=turn(only))}({right})"
    first, second = hop.patterns     # the first link is `{rel}a`: a filter may need it
    return (f"({left}){arrow(first, hop.labels[0], f'{rel}a' if rel else '', direction=turn(first))}"
            f"(:{hop.labels[1]})"
            f"{arrow(second, hop.labels[1], rel, direction=turn(second))}({right})")


def twice(reading: Reading, hop: Hop | None) -> Hop | None:
    """"friends of friends", "Aarav's friends' friends": a same-label link named twice is two
    hops (two words for it side by side, "lead to after", name one); named more often, None (the rules
    do not count hops)."""
    if hop is None or len(hop.patterns) != 1 or hop.labels[0] != hop.labels[1]:
        return hop
    named = times_named(reading, hop.patterns[0].type)
    if named > 2:
        return None
    return Hop(hop.patterns * 2, hop.labels[:1] * 3) if named == 2 else hop


def times_named(reading: Reading, rel_type: str) -> int:
    """How many steps of a link the words name: a step for each word of it, except that two
    words for it side by side ("what does X lead to after?"), the kind asked with its verb
    ("what subtopics does X include?", "list the subtopics under X"), a word after "as" ("what does X include as
    subtopics?", "which subjects have OS as a prerequisite?") and a word that says the one
    before again ("before X, like the prereq") name one."""
    cue = reading.lexicon.relation(rel_type)
    found = list(re.finditer(cue, reading.text)) if cue else []
    if cue is None or len(found) < 2:
        return len(found)
    steps = [found[0]]     # words side by side ("included under") are one step
    for m in found[1:]:
        if reading.text[steps[-1].end():m.start()].strip() or m[0] == steps[-1][0]:
            steps.append(m)
    # "under which topic is §0 included?": the word put before the question word is the verb's
    if re.match(rf"\s+(?:{reading.cue('which')})\b", reading.text[found[0].end():]) and len(steps) > 1:
        steps.pop(0)
    if len(steps) < len(found):
        return len(steps) - (len(steps) > 1 and _asked_with_its_verb(reading, cue))
    asked = _asked_with_its_verb(reading, cue)
    between = [reading.text[a.end():b.start()] for a, b in zip(found, found[1:])]
    # ("which topics build on §0 next?": with only the name between, a word says the step again;
    # "the next topic after §0": with only the kind's noun, no "the", between, one step in two words)
    kinds = "|".join(f"(?:{p})" for p in reading.lexicon.labels.values())
    as_its = sum(bool(_AS.fullmatch(gap) or _RESTATED.search(gap) or _LEARNING.fullmatch(gap)
                      or re.fullmatch(rf"\s+(?:§\d+|{kinds})\s+", gap)) for gap in between)
    return len(found) - 1 if asked else len(found) - as_its


def _asked_with_its_verb(reading: Reading, cue: str) -> bool:
    """"which subtopics does X include", "list the subtopics that come under X", "how many
    subtopics does X include": the kind asked is a word of the link too."""
    asks = rf"(?:{reading.cue('which')}|{reading.cue('count')}|\blist|\bshow|\bname|\bgive)" \
        r"(?:\s+(?:me|us|all|the|of))*"
    return re.search(rf"{asks}\s+(?:{cue})", reading.text) is not None


_AS = re.compile(r"\s+as\s+(?:(?:a|an|its|their|the|one of (?:its|their|the))\s+)?")
# "before §0 like the prereq concept", "... i.e. its prerequisite": the second word says the first again
_RESTATED = re.compile(r"\b(?:like|i\.?e\.?|meaning|aka|matlab|yaani)\b")
# "which topics to go on to learn after §0": a learner's verb between the two words, one step
_LEARNING = re.compile(r"\s+(?:(?:learn|study|take|read|cover|do)\w*\s+)+")
