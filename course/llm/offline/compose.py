"""A chain of two or three links composed from the schema, when no intent's query follows the
question (notebooks 05 and 09).

"Which skills are needed for the projects Karan is part of?" names two links: Karan to his
projects, the projects to the skills they need. No intent writes that query, and the one that
comes closest (Karan's own skills) leaves out "needed", so it is refused. Before refusing, the
provider tries every chain of two (then three) links the schema allows from the question's name
to the label it asks for (or, with two names, every node between them), using only links the
question's words name. Each candidate query then meets the same checks as any other: every
word that names something is used (`coverage.unused`), every step of a possessive chain is
followed (`chain.unfollowed`). The question is answered only when exactly one candidate passes;
none or several is still a refusal.

>>> from course import Agent, OfflineLLM
>>> sorted(Agent(db, OfflineLLM()).answer("Which skills do the projects Rahul works on need?").values())
['Docker', 'Machine Learning']
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from course.llm.offline.cypher import alias, arrow, node, where
from course.llm.offline.filters import (filters, generic, node_filters, on_both_sides, rel_filters,
                                        said_of_the_asked)
from course.llm.offline.hops import direction, had_by_the_asked, other, times_named
from course.llm.offline.prompt import Entity, Pattern
from course.llm.offline.reading import Reading

Check = Callable[[Reading, str], bool]     # does a query pass the provider's checks?


def named_types(reading: Reading) -> set[str]:
    """The relationship types the words name: by a word of their own, or by a word for a
    value of one of their properties ("the president" names a membership)."""
    valued = {q for q, words in reading.lexicon.value_words.items()
              if words and re.search(words, reading.text)}
    return set(reading.relations()) | {p.type for p in reading.schema.patterns
                                       if valued & set(p.props)}


def asked_label(reading: Reading) -> str | None:
    """The label asked for: the noun after a "which" word, else a person for a question that
    opens with "who", else the first label noun that is no name's own label, else the one
    unnamed end of a link whose property is asked, else the person label for "who"."""
    names = {e.label for e in reading.entities}
    among = r"(?:of\s+(?:the|my|his|her|their|those|these|§\d+\s*'?s?)\s+)?"    # "which of §0's friends"
    for label in reading.targets():
        if re.search(rf"(?:{reading.cue('which')})\s+{among}(?:{reading.lexicon.label(label)})", reading.text):
            return label
    if re.match(r"\s*(?:who|whom)\b", reading.text):    # "who is in the club ...": a person
        return reading.person or None
    verb_asks = _object_of_last_verb(reading)
    if verb_asks is not None:    # "what do the members of §0 study?": what is studied
        return verb_asks
    rest = [t for t in reading.targets() if t not in names]
    if rest:
        return rest[0]
    # "what grades did §0's friends get?": a property of a link asked, its far end not named
    ends = {end for p in reading.schema.patterns if reading.asked_properties("", p.props)
            for end in (p.start, p.end) if end not in names}
    if len(ends) == 1:
        return ends.pop()
    return reading.person if reading.has("who") or reading.person in reading.targets() else None


def _object_of_last_verb(reading: Reading) -> str | None:
    """For "what do/does/did ... <verb>?", the label at the far end of the link the closing
    verb names from the kinds the question names ("what do the members of §0 study?": the
    members are people, people study subjects); None for another question, or when the verb
    names no such one label."""
    if not re.match(r"\s*(?:what|kya)\s+(?:do|does|did)\b", reading.text):
        return None
    last = " ".join(re.findall(r"[a-z]+", reading.text)[-2:])
    near = set(reading.targets()) | {e.label for e in reading.entities}
    ends = {far for p in reading.schema.patterns
            if re.search(reading.lexicon.relation(p.type) or r"(?!)", last)
            for here, far in ((p.start, p.end), (p.end, p.start)) if here in near and far not in near}
    return ends.pop() if len(ends) == 1 else None


def compose(reading: Reading, passes: Check) -> str | None:
    """The one chain query that passes `passes`; None when none or several do."""
    target = asked_label(reading)
    if target is None or not 1 <= len(reading.entities) <= 2 or on_both_sides(reading) \
            or any(isinstance(e.value, tuple) for e in reading.entities):
        return None
    found = {(query, middles) for query, middles, types in _candidates(reading, target)
             if _hops_enough(reading, types) and passes(reading, query)}
    if len(found) > 1:      # "the topics of the subject that comes before §0": the words name
        nouns = {t for t in reading.targets() if t != target or         # the labels in the
                 len(re.findall(reading.lexicon.label(t), reading.text)) + _the_one(reading, t) > 1}
        # middle of the chain
        found = {(query, middles) for query, middles in found if set(middles) <= nouns}
    return found.pop()[0] if len(found) == 1 else None


def _the_one(reading: Reading, label: str) -> int:
    """How often "the one that" (or "which", "who") stands for the kind named last before it:
    "what subject do I need before the one that teaches §0" names a subject twice."""
    ones = 0
    for m in re.finditer(r"\bthe one (?:that|which|who)\b", reading.text):
        kinds = [(k.start(), name) for name in reading.schema.labels
                 for k in re.finditer(reading.lexicon.label(name), reading.text[:m.start()])]
        ones += bool(kinds) and max(kinds)[1] == label
    return ones


def _hops_enough(reading: Reading, types: tuple[str, ...]) -> bool:
    """Does each link get a word of its own (a type used twice is named twice), and a link of
    a label to itself a hop for each time the words name it ("§0's friends' friends' friends"
    is three hops, more than two links)?"""
    loops = {p.type for p in reading.schema.patterns if p.start == p.end}
    for t in set(types):
        named = len(re.findall(reading.lexicon.relation(t) or r"(?!)", reading.text))
        # a word for a value of its property names a link too ("the club §0 is president of")
        props = {prop for p in reading.schema.patterns if p.type == t for prop in p.props}
        named += sum(len(re.findall(words, reading.text))
                     for prop, words in reading.lexicon.value_words.items() if prop in props and words)
        if named < types.count(t) or (t in loops and times_named(reading, t) != types.count(t)):
            return False
    return True


# "the skills the projects of §0's friends need": three links, each named. A kind that links a
# label to itself walked twice in three ("friends of friends of friends"; "after" named twice)
# may come back on itself and has no one reading: refused. Another kind may be walked there
# and back when the words name it twice ("the skills of the members of §0's club").
MAX_LINKS = 3


def _walks_once(chain: tuple[Pattern, ...], loops: set[str]) -> bool:
    """Is each kind of link walked once, or (not a kind of a label to itself) there and back
    in two steps in a row ("§0's club" and its "members")?"""
    kinds = [link.type for link in chain]
    for t in set(kinds):
        at = [i for i, k in enumerate(kinds) if k == t]
        if len(at) > 2 or len(at) == 2 and (t in loops or at[1] != at[0] + 1):
            return False
    return True


def _paths(links: list[Pattern], start: str, target: str,
           length: int) -> Iterator[tuple[Pattern, ...]]:
    """Every chain of `length` named links from `start` to `target`."""
    if length == 0:
        return
    for link in links:
        if start not in (link.start, link.end):
            continue
        nxt = other(link, start)
        if length == 1:
            if nxt == target:
                yield (link,)
            continue
        for rest in _paths(links, nxt, target, length - 1):
            yield (link, *rest)


def _candidates(reading: Reading,
                target: str) -> Iterator[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """(query, the labels between its links, their types) for each chain the named links
    allow: two or three links from one name, or one link from each of two names."""
    named = named_types(reading)
    links = [p for p in reading.schema.patterns if p.type in named]
    loops = {p.type for p in reading.schema.patterns if p.start == p.end}
    if len(reading.entities) == 1:
        e = reading.entities[0]
        for length in range(2, MAX_LINKS + 1):
            for chain in _paths(links, e.label, target, length):
                if length > 2 and not _walks_once(chain, loops):
                    continue
                middles, label = [], e.label
                for link in chain[:-1]:
                    label = other(link, label)
                    middles.append(label)
                said = _said_of_the_asked(reading, chain, middles, target)
                if said is not None:     # "the members of §0 who work on a project"
                    chain, middles = chain[:-2], middles[:-2]
                elif (said := _had_by_the_asked(reading, chain, middles, target)) is not None:
                    chain, middles = chain[:-1], middles[:-1]    # "§0's subjects that have one"
                yield (_through(reading, e, chain, target, said), tuple(middles),
                       tuple(link.type for link in chain))
        return
    a, b = reading.entities
    for first in links:
        for second in links:
            if a.label in (first.start, first.end) and other(first, a.label) == target and \
                    b.label in (second.start, second.end) and other(second, b.label) == target:
                yield (_between(reading, (a, b), (first, second), target), (target,),
                       (first.type, second.type))


def _said_of_the_asked(reading: Reading, chain: tuple[Pattern, ...], middles: list[str],
                       target: str) -> str | None:
    """A chain that reaches the asked kind, then walks to any node of a kind and back ("which
    members of §0 work on a project?"): the link to that kind is said of the nodes asked for,
    not a step to every other node on it. The pattern that says it, else None."""
    if len(chain) < 3 or middles[-2] != target or chain[-2].type != chain[-1].type \
            or middles[-1] not in generic(reading, target):
        return None
    return f"(t){arrow(chain[-1], target)}(:{middles[-1]})"


def _had_by_the_asked(reading: Reading, chain: tuple[Pattern, ...], middles: list[str],
                      target: str) -> str | None:
    """A chain that ends on a link of the asked kind to itself which the asked nodes are said
    to have ("which of §0's subjects have a prerequisite?"): they are the ones asked, the link
    a condition on them, not a step to the nodes at its other end. The pattern, else None."""
    last = chain[-1]
    if len(chain) < 2 or middles[-1] != target or not had_by_the_asked(reading, last, target):
        return None
    return f"(t){arrow(last, target, direction=direction(reading, last))}(:{target})"


def _through(reading: Reading, e: Entity, links: tuple[Pattern, ...], target: str,
             said: str | None = None) -> str:
    """(name)-first-(m)-...-last-(t:target), returning t's name: the links before the last
    are r0a, r0b, ..., the last r0, its far end m the node before t; `said`, a pattern the
    nodes asked for must also be in."""
    *steps, last = links
    x, conds = node("x0", e, relaxed=reading.relaxed)
    match, label = f"MATCH {x}", e.label
    # a value's words filter the first link that has it, once; the last when they describe
    # what is asked ("the president of the club §0 is in")
    asked = said_of_the_asked(reading, last.props)
    filtered: set[str] = set(asked)
    for i, link in enumerate(steps):
        var, ahead = f"r0{'abcdefgh'[i]}", other(link, label)
        end = f"(m:{ahead})" if i == len(steps) - 1 else f"(m{i}:{ahead})"
        match += f"{arrow(link, label, var, direction=direction(reading, link))}{end}"
        conds = conds + _first_filters(reading, link, var, filtered)
        if ahead == e.label and (reading.has("excluding") or reading.has("mates")):   # "the other members
            # of §0's club", "§0's project teammates": not §0
            conds.append(f"{end[1:].split(':')[0]} <> x0")
        label = ahead
    middle = label
    match += f"{arrow(last, middle, 'r0', direction=direction(reading, last))}(t:{target})"
    match += f"\nMATCH {said}" if said else ""
    conds += node_filters(reading, target)
    if last.type not in {link.type for link in steps}:
        conds += _first_filters(reading, last, "r0", filtered)
    conds += rel_filters(reading, last, "r0", asked)
    conds += ["t <> x0"] if target == e.label and not asked else []
    # a property of the last link belongs to the node before it too: say whose it is
    owner = f"m.{reading.schema.display(middle)} AS {alias(middle, reading.schema.display(middle))}" \
        if reading.asked_properties("", last.props) and middle != target else None
    return _returning(reading, match, conds, target, {"r0": last}, owner)


def _first_filters(reading: Reading, link: Pattern, var: str, filtered: set[str]) -> list[str]:
    """The link's filters on properties no link before it was filtered on ("the president's
    friends' projects": the membership's role, not the project's)."""
    conds = []
    for prop in link.props:
        found = [] if prop in filtered else filters(reading, f"{link.type}.{prop}", var)
        filtered |= {prop} if found else set()
        conds += found
    return conds


def _between(reading: Reading, names: tuple[Entity, Entity], links: tuple[Pattern, Pattern],
             target: str) -> str:
    """(a)-first-(t:target)-second-(b): the nodes linked to both names, with the asked
    properties of either link ("the grade Sneha's friend got in DBMS")."""
    (a, b), (first, second) = names, links
    x0, c0 = node("x0", a, relaxed=reading.relaxed)
    x1, c1 = node("x1", b, relaxed=reading.relaxed)
    # each link is read from its own name's side: "the topics of §0 that come before §1"
    match = (f"MATCH {x0}{arrow(first, a.label, 'r0', direction=direction(reading, first))}(t:{target})\n"
             f"MATCH {x1}{arrow(second, b.label, 'r1', direction=direction(reading, second))}(t)")
    conds = c0 + c1 + rel_filters(reading, first, "r0") + rel_filters(reading, second, "r1")
    conds += [f"t <> x{i}" for i, e in enumerate(names) if e.label == target]
    return _returning(reading, match, conds, target, {"r0": first, "r1": second})


def _returning(reading: Reading, match: str, conds: list[str], target: str,
               links: dict[str, Pattern], owner: str | None = None) -> str:
    cols = ([owner] if owner else []) + [f"t.{p} AS {alias(target, p)}" for p in reading.schema.shown(target)]
    for var, p in links.items():
        cols += [f"{var}.{q} AS {q}" for q in reading.asked_properties("", p.props)
                 if not rel_filters(reading, p, var)]
    return f"{match}{where(conds)}\nRETURN DISTINCT {', '.join(dict.fromkeys(cols))}"
