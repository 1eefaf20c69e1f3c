"""Values, numbers and the MATCH lines that link the asked nodes to the named ones (notebooks 05, 09).

"CSE students" -> `t.branch = 'CSE'`, "founded before 2016" -> `t.founded < 2016`: a listed
value or a number becomes a filter only next to the words that give it its meaning.

>>> from course import Agent, OfflineLLM
>>> answer = Agent(db, OfflineLLM()).answer("Which clubs were founded before 2016?")
>>> "founded < 2016" in answer.cypher, len(answer.rows)
(True, 2)
"""
from __future__ import annotations

import re
from dataclasses import replace
from collections.abc import Collection
from typing import Any

from course.llm.offline.chain import chained
from course.llm.offline.cypher import arrow, exclude, lit, node
from course.llm.offline.hops import Hop, direction, had_by_the_asked, hop_match, other, find_hop, seen_from, twice
from course.llm.offline.lexicon import Lexicon
from course.llm.offline.numbers import numbers_of, said_with, threshold
from course.llm.offline.prompt import Entity, Pattern
from course.llm.offline.reading import Reading
from course.llm.offline.scale_ranges import in_range, said_aloud, said_within_another


def filter_values(reading: Reading, key: str) -> list[Any]:
    """Listed text values of `key` ("Label.prop", "TYPE.prop") the question names.

    Short or ambiguous values count only in capitals or next to their property's word
    ("grade A", "role Member"); a value that is also a common word ("a") counts only in
    capitals; a value that is only a relationship or label word needs its property's word
    right beside it ("what is her role" in "a member of X" is no filter); numbers are read
    by `filters`.
    """
    lex = reading.lexicon
    owner, prop = key.split(".")
    values = reading.schema.values.get(key, []) + reading.schema.scales.get(key, [])
    prop_word = lex.prop(prop)
    cue = bool(re.search(prop_word, reading.text))
    # a value of a kind the question neither names nor links ("which subject must be completed
    # before §0": a project's status) is that value only beside its property's word
    elsewhere = owner in reading.schema.labels and owner not in {e.label for e in reading.entities} \
        and not re.search(lex.labels.get(owner, r"(?!)"), reading.text)
    found = []
    for v in dict.fromkeys(values):
        if isinstance(v, int):
            continue
        aloud = said_aloud(v.lower())    # "A+" said as "a plus": as plain as "A+" written
        exact = re.search(rf"(?<![\w+]){re.escape(v)}(?![\w+])", reading.text) or \
            aloud != v.lower() and re.search(rf"\b{re.escape(aloud)}\b", reading.text, re.I)
        low = rf"(?<![\w+])(?:{re.escape(v.lower())}|{re.escape(aloud)})(?![\w+])"
        loose = re.search(low, reading.text)
        named = [*lex.relationships.values(), *lex.labels.values()]
        plain = any(not any(re.search(c, w) for c in named) for w in v.lower().split())
        # (a word between only for a value that is no link's word: "project roles do members
        # of §0" asks the members' project roles, not the club's Members)
        between = r"(?:\w+\W+)?" if plain else r"(?:(?:of|as)\W+(?:an?\W+|the\W+)?)?"
        beside = bool(re.search(rf"(?:{prop_word})\W+{between}{low}|{low}\W+(?:{prop_word})", reading.text))
        if exact and (cue or "+" in v or v.isupper()):
            found.append(v)
        elif loose and v.lower() not in lex.common and ((plain and (cue or len(v) >= 3) and not elsewhere)
                                                         or beside):
            found.append(v)
    found = [v for v in found if v not in said_within_another(reading.text, found, lex.common)]
    if found:       # "runs the club as secretary": the value named, not what "runs" may mean
        return found
    # a word that only means a value ("started" of a status) means it of its own kind only:
    # "When was §0 started?" of a node of another kind asks something else (when it was founded)
    if elsewhere:
        return []
    # the word must be the whole of a value's words: "lead" means a President, "team lead" is
    # a value's own text (a project's), not a club's President
    named = [m[0] for m in re.finditer(lex.value_words.get(prop, r"(?!)"), reading.text)]
    return [v for v in dict.fromkeys(values) if isinstance(v, str) and any(
        any(re.fullmatch(word, n) for n in named) and re.search(means, v.lower())
        for word, means in lex.value_means.get(prop, []))]


def filters(reading: Reading, key: str, var: str) -> list[str]:
    """WHERE conditions on `var` for the values of `key` the question names.

    A number counts only next to its property's word, and a listed number only if listed.
    """
    prop = key.split(".")[1]
    found = filter_values(reading, key)
    scale = reading.schema.scales.get(key)
    ranged = in_range(reading.text, found[0], scale) if scale and len(found) == 1 else None
    found = found if ranged is None else ranged     # "a B or lower": B and every value after it
    conds = [f"{var}.{prop} = {lit(found[0])}" if len(found) == 1
             else f"{var}.{prop} IN [{', '.join(map(lit, found))}]"] if found or ranged is not None else []
    if not found and key not in reading.schema.values:
        conds = unlisted(reading, key, var)
    if found and prop == reading.negated:      # "not finished": every other value
        out = list(reading.negated_values) or found
        kept = [v for v in found if v not in out]   # "not started, only planned": still planned
        kept = kept or [v for v in reading.said_besides if v not in out]   # "not completed but started"
        conds = [f"{var}.{prop} = {lit(kept[0])}" if len(kept) == 1
                 else f"{var}.{prop} IN [{', '.join(map(lit, kept))}]"] if kept else []
        conds += [f"{var}.{prop} <> {lit(out[0])}" if len(out) == 1
                  else f"NOT {var}.{prop} IN [{', '.join(map(lit, out))}]"]
    if key in reading.schema.numbers and re.search(reading.lexicon.prop(prop), reading.text):
        listed = reading.schema.values.get(key)
        # (of this property's word, when the question names another number property too)
        others = [k.split(".")[1] for k in reading.schema.numbers if k.split(".")[1] != prop]
        pairs = [(v, op) for v, op in numbers_of(reading, prop, others) if op != "=" or listed is None
                 or v in listed or said_with(reading, prop, v)]
        equal = [v for v, op in pairs if op == "="]    # "year 2 or 3": one of them, never both
        conds += ([f"{var}.{prop} = {equal[0]}"] if len(equal) == 1 else
                  [f"{var}.{prop} IN [{', '.join(map(str, equal))}]"] if equal else [])
        conds += [f"{var}.{prop} {op} {v}" for v, op in pairs if op != "="]
    return conds


def unlisted(reading: Reading, key: str, var: str) -> list[str]:
    """A value the schema does not list, named in the words of its values ("the team lead" of
    a project): the property holds those words. A word that only means a value ("leads") asks
    for a value that holds one of the words it means ("lead", "head", "president", ...)."""
    lex, prop = reading.lexicon, key.split(".")[1]
    m = re.search(lex.value_words.get(prop, r"(?!)"), reading.text)
    if m is None or key in reading.schema.numbers or re.search(r"§\d+\s*$", reading.text[:m.start()]):
        return []    # ("the ML Engineer": a name linked inside the value's words; unsure: none)
    meant = [re.sub(r"[^a-z ]", "", re.sub(r"\\[a-z]\*?", "", value))
             for word, means in lex.value_means.get(prop, [])
             if re.fullmatch(word, m[0]) for value in means.split("|")]
    before = re.search(r"\b([a-z]+)\s+$", reading.text[:m.start()])
    phrase = f"{before[1]} {m[0]}" if before and value_word(lex, before[1]) else m[0]   # "devops engineer"
    held = [f"toLower({var}.{prop}) CONTAINS {lit(w)}" for w in dict.fromkeys(meant or [phrase]) if w]
    return [held[0] if len(held) == 1 else f"({' OR '.join(held)})"]


def value_word(lex: Lexicon, word: str) -> bool:
    """Is a word the rules do not know one of a free-text value's own words, as in "the DevOps
    engineer" (a word of no cue, label or property, before a word for such a value)?"""
    return word not in lex.vocab and word not in lex.filler and len(word) > 1 and \
        not any(re.search(p, word) for p in lex.all_patterns)


def value_words_before(reading: Reading) -> set[str]:
    """The unknown words right before a word for a value ("devops" of "the DevOps engineer"):
    known only as part of that value's text, which the query must then hold."""
    words = "|".join(f"(?:{r})" for r in reading.lexicon.value_words.values() if r)
    found = (m[1] for m in re.finditer(rf"\b([a-z]+)\s+(?:{words})", reading.text)) if words else ()
    return {w for w in found if value_word(reading.lexicon, w)}


def node_filters(reading: Reading, label: str) -> list[str]:
    return [c for prop in reading.schema.labels.get(label, []) for c in filters(reading, f"{label}.{prop}", "t")]


def rel_filters(reading: Reading, p: Pattern, var: str,
                props: Collection[str] | None = None) -> list[str]:
    """The filters on link `p`'s properties (only `props`, when given), as conditions on `var`."""
    return [c for prop in p.props if props is None or prop in props
            for c in filters(reading, f"{p.type}.{prop}", var)]


def said_of_the_asked(reading: Reading, props: Collection[str]) -> set[str]:
    """The properties whose value words stand before the first name, so describe what is asked,
    not the name: "the president of §0's club", "who leads the club §0 is in" (not "the club
    §0 is president of", "§0's president", "the club whose secretary is §0").

    >>> from course.llm.offline.prompt import Schema
    >>> said = lambda text: said_of_the_asked(Reading(text, [], Schema()), ["role"])
    >>> said("who is the president of §0's club ?"), said("who is in the club §0 is president of ?")
    ({'role'}, set())
    """
    at = reading.text.find("§0")
    asked = set()
    for prop in props:
        words = reading.lexicon.value_words.get(prop)
        found = list(re.finditer(words, reading.text)) if words and at >= 0 else []
        if found and all(m.end() <= at and not re.match(r"\s+(?:is|was|are)\s+§0", reading.text[m.end():])
                         for m in found):
            asked.add(prop)
    return asked


def on_both_sides(reading: Reading) -> bool:
    """Do words for values of one property stand both before and after the first name ("the
    secretary of the club §0 is president of")? Then they are two links' values, which one
    filter cannot say: no chain is built.

    >>> from course.llm.offline.prompt import Schema
    >>> both = lambda text: on_both_sides(Reading(text, [], Schema()))
    >>> both("who is the secretary of the club §0 is president of ?"), both("who leads §0's club ?")
    (True, False)
    """
    at = reading.text.find("§0")
    for words in reading.lexicon.value_words.values():
        found = [m.end() <= at for m in re.finditer(words, reading.text)] if words and at >= 0 else []
        if True in found and False in found:
            return True
    return False


def rel_filter_hops(reading: Reading, target: str) -> list[tuple[str, str]]:
    """'Who got an A+?': a filter on a relationship of the target with no named other end
    (`o` when the question asks for its kind too: "who got a B+, and in which subject?", "...,
    with the skill")."""
    for p in reading.schema.touching(target):
        if p.start == p.end:
            continue
        conds = rel_filters(reading, p, "rf")
        far = other(p, target)
        if conds:
            # "and in which subject?", ", with the skill": the far end is asked for too
            asked = re.search(rf"(?:(?:{reading.cue('which')})|\bwith\s+(?:the|their|its|his|her))\s+"
                              rf"(?:{reading.lexicon.label(far)})", reading.text)
            end = f"o:{far}" if asked else f":{far}"
            # ("which of them got below A?" of those found in OS: in OS too)
            kept = next((e for link, e in reading.narrowed_by if link == p.type and e.label == far), None)
            end += f" {{{kept.prop}: {lit(kept.value)}}}" if kept else ""
            return [(f"MATCH (t){arrow(p, target, 'rf')}({end})", " AND ".join(conds))]
    return []


def valued_kinds(reading: Reading, target: str) -> list[tuple[str, list[str]]]:
    """The other kinds the question names with a listed value of their own, and those
    properties: "which people use broken tools?" -> [("Tool", ["Tool.status"])]. Not a kind
    whose noun the asked one only describes ("the student projects": projects)."""
    kind = reading.lexicon.label
    return [(label, own) for label in reading.targets() if label != target
            and not re.search(rf"(?:{kind(target)})\s+(?:{kind(label)})", reading.text)
            if (own := [f"{label}.{prop}" for prop in reading.schema.labels.get(label, [])
                        if filters(reading, f"{label}.{prop}", "k")])]


def generic(reading: Reading, target: str) -> list[str]:
    """Labels the question names with 'a', 'any', 'some' or 'koi': 'a club' means any club;
    so does the subject of a plural verb, named in general ("what subjects do students learn?",
    "what projects are the students building?": any students)."""
    article = reading.cue("generic")
    return [label for label in reading.targets() if label != target and re.search(
        rf"{article}( \w+)? (?:{reading.lexicon.label(label)})|\b(?:do|did|are|were|have) (?:the |all )?"
        rf"(?:{reading.lexicon.label(label)})", reading.text)]


def _steps_done(reading: Reading, done: set[str]) -> Reading:
    """"Which of §0's friends study §1?": once §0's hop followed the friend step, §1's hop
    does not take it again (§1 is linked to the friends, not to friends of its students)."""
    steps = chained(reading.text, reading.lexicon)
    if not done or not steps or not all(types & done for _, types in steps):
        return reading
    text = reading.text
    for word, _ in steps:
        text = re.sub(rf"(§\d+(?: ?'?s\b|'| ka| ki| ke)\s+){re.escape(word)}\b", r"\1", text)
    return replace(reading, text=text)


_LIST = r"§\d+(?:(?: ?,(?: and| aur| or| ya| &)?| and| aur| or| ya| &) §\d+)*"


def chosen_among(reading: Reading, target: str, entities: list[Entity]) -> list[Entity]:
    """The names of the asked label a choice is made among: listed right after "among" / "which
    of" ("who among §0 and §1 knows §2?") or right before "mein se" ("§0 aur §1 mein se kaun").

    >>> from course.llm.offline.prompt import Entity
    >>> named = [Entity("Person", "name", "Asha"), Entity("Person", "name", "Ben"),
    ...          Entity("Tool", "name", "Go")]
    >>> reading = Reading("who among §0 and §1 knows §2 ?", named, None)
    >>> [e.value for e in chosen_among(reading, "Person", named)]
    ['Asha', 'Ben']
    >>> chosen_among(Reading("which of §0's friends know §2 ?", named, None), "Person", named)
    []
    >>> again = Reading("who among §0 and §1 knows §1 ?", named, None)
    >>> [e.value for e in chosen_among(again, "Person", named)]
    ['Asha']
    """
    text = reading.text
    # not "which of §0's friends" (a possessive: the choice is among the friends) nor
    # "§0 aur §1 mein se har ek" (each of them)
    whole = r"(?!'s|'| s\b| ka\b| ki\b| ke\b)"
    spans = [m.span(1) for m in re.finditer(rf"(?:{reading.cue('among')}) (?:the )?({_LIST}){whole}", text)] + \
        [m.span(1) for m in re.finditer(rf"({_LIST}) (?:{reading.cue('among_after')})\b(?! har\b)", text)]
    numbers = {int(n) for a, b in spans for n in re.findall(r"§(\d+)", text[a:b])}
    # a name said again outside the list is what the choice is about, not among it ("which of
    # §0, §1 and §2 comes before §1?")
    outside = "".join(c if not any(a <= i < b for a, b in spans) else " " for i, c in enumerate(text))
    numbers -= {int(n) for n in re.findall(r"§(\d+)", outside)}
    return [e for i, e in enumerate(entities) if i in numbers and e.label == target]


def conditions(reading: Reading, target: str, entities: list[Entity]) -> tuple[str, list[str]] | None:
    """MATCH lines linking (t:target) to every entity, plus the value filters, as (text, WHERE).
    Names a choice is made among (`chosen_among`) filter t itself."""
    chosen = chosen_among(reading, target, entities)
    entities = [e for e in entities if e not in chosen]
    body = _linked(reading, target, entities)
    if body is None or not chosen:
        return body
    values = ", ".join(lit(v) for e in chosen for v in (e.value if isinstance(e.value, tuple) else (e.value,)))
    return body[0], body[1] + [f"t.{chosen[0].prop} IN [{values}]"]


def _way_through(reading: Reading, hop: Hop, e: Entity, others: list[Entity], looped: set[str]) -> str | None:
    """With other names, the direction of a link of one label to itself that `e` reaches through
    another link ("a subject §1 studies"): None when there is none, "unclear" when the words do
    not say, or when a name before went through it too (the link is named once: one of the names
    is the asked thing's own)."""
    loop = next((p for p in hop.patterns if p.start == p.end), None) if len(hop.patterns) == 2 else None
    if loop is None or not others:
        return None
    if loop.type in looped:
        return "unclear"
    looped.add(loop.type)
    number = reading.entities.index(e) if e in reading.entities else -1
    way = seen_from(reading, loop, number, {reading.entities.index(o) for o in others if o in reading.entities})
    return "unclear" if way is None else way


def _role_had_by_the_asked(reading: Reading, target: str, link: Pattern) -> bool:
    """"Which of §0's clubs have a president?": a value of the link's property the asked
    nodes are said to have is someone else's link to them, not the named one's."""
    noun = reading.lexicon.label(target)
    values = "|".join(f"(?:{w})" for p in link.props if (w := reading.lexicon.value_words.get(p)))
    return bool(values) and re.search(rf"\b(?:{noun})\s+(?:that\s+|which\s+)?(?:has|have|having|with)\s+"
                                      rf"(?:(?:a|an|any|some|the)\s+)?(?:{values})", reading.text) is not None


def _linked(reading: Reading, target: str, entities: list[Entity]) -> tuple[str, list[str]] | None:
    if re.search(r"§\d+[^§?]*\?\s*\S[^§]*§\d+", reading.text):
        return None     # "§0 kiske paas hai? aur §1 kisko aata hai?": two asks, not one of both
    either = reading.has("either") and len(entities) > 1 and len({e.label for e in entities}) == 1
    lines, conds = [], []
    groups = [entities] if either else [[e] for e in entities]
    done: set[str] = set()        # the links the names before followed
    looped: set[str] = set()      # the links of one label to itself they went through
    asked: set[str] = set()       # properties whose value words describe what is asked
    for i, group in enumerate(groups):
        e = group[0]
        if e.label == target and not reading.relations() and not direction(reading):
            return None
        hop = twice(reading, find_hop(_steps_done(reading, done), e.label, target,
                                      strict=len(groups) == 1))
        if hop is None or len(hop.patterns) == 2 and had_by_the_asked(reading, hop.patterns[1], target):
            return None     # ("subjects that §0 studies have a prerequisite": a condition, no step)
        t = f"t:{target}" if i == 0 else "t"
        if either:
            lines.append(f"MATCH {hop_match(reading, hop, f'x{i}:{e.label}', t, rel=f'r{i}')}")
            conds.append(f"x{i}.{e.prop} IN [{', '.join(lit(g.value) for g in group)}]")
            continue
        way = _way_through(reading, hop, e, [g[0] for g in groups if g is not group], looped)
        if way == "unclear":
            return None
        done |= {p.type for p in hop.patterns}
        x, c = node(f"x{i}", e, relaxed=reading.relaxed)
        lines.append(f"MATCH {hop_match(reading, hop, x[1:-1], t, rel=f'r{i}', way=way)}")
        conds += c
        if len(hop.patterns) == 1:
            if _role_had_by_the_asked(reading, target, hop.patterns[0]):
                return None
            conds += rel_filters(reading, hop.patterns[0], f"r{i}")
        else:    # "the friends of §0's president": the role is on the first link (and only
            # there when both links are of one type: "the club whose secretary is §0"), unless
            # its words describe what is asked ("the president of §0's club": the last link)
            first, second = hop.patterns
            if on_both_sides(reading):
                return None
            asked = said_of_the_asked(reading, set(first.props) & set(second.props)) if i == 0 else set()
            conds += rel_filters(reading, first, f"r{i}a", set(first.props) - asked)
            conds += rel_filters(reading, second, f"r{i}", set(second.props) if second.type != first.type
                                 else asked)
    if not entities:
        lines.append(f"MATCH (t:{target})")
        reached = " ".join(line for line, _ in rel_filter_hops(reading, target))
        for label in generic(reading, target):      # "who works on a project": any project
            if f":{label})" in reached:               # "who got a B in any subject": done below
                continue
            hop = find_hop(reading, target, label)
            if hop is None:
                return None
            lines.append(f"MATCH {hop_match(reading, hop, 't', f':{label}', rel='')}")
        for j, (label, own) in enumerate(valued_kinds(reading, target)):   # "completed projects"
            hop = find_hop(reading, target, label)
            if hop is None or f":{label})" in reached:
                return None
            lines.append(f"MATCH {hop_match(reading, hop, 't', f'k{j}:{label}', rel='')}")
            conds += [c for key in own for c in filters(reading, key, f"k{j}")]
    conds += node_filters(reading, target)
    # ("which students taking §0 have a skill at the Advanced level": a filter on a link no name
    # took, of a property none of those links has: "who leads §0" is the role on §0's link)
    taken = {q for p in reading.schema.patterns if p.type in done for q in p.props}
    for line, cond in rel_filter_hops(reading, target):
        if entities and (any(f":{t}]" in line for t in done) or set(re.findall(r"rf\.(\w+)", cond)) & taken):
            continue
        lines.append(line)
        conds.append(cond)
    if entities and any(e.label == target for e in entities) and not asked:
        # (not when a link's value describes what is asked: "the president of §0's club" may be §0)
        conds += [f"t <> x{i}" for i, e in enumerate(entities) if e.label == target and not either]
    conds += exclude("t", [e for e in reading.excluded if e.label == target])
    return "\n".join(lines), conds
