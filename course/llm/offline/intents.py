"""The intents: each builder returns a Cypher query for a reading, or None (notebooks 05 and 09).

`INTENTS` is the default table: (name, cue that must be present or None, builder). The first
query built wins. A provider takes its own table (`OfflineLLM(intents=...)`), so an exercise
adds an intent to one instance. Every label a builder writes comes from the schema, and every
word it reads from the lexicon; the person label ("who") is the lexicon's `person`.

>>> [name for name, _cue, _build in INTENTS][:4]
['write request', 'out of scope', 'learning path', 'next topics']
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from course.llm.offline.cypher import alias, arrow, lit, node, plural, rank_case, where
from course.llm.offline.filters import conditions, filters, threshold
from course.llm.offline.hops import Hop, direction, hop_match, other, resolve, twice
from course.llm.offline.prompt import Entity
from course.llm.offline.reading import Reading
from course.llm.sentinels import READ_ONLY_QUERY, SENTINEL_QUERY

Builder = Callable[[Reading], "str | None"]


def refuse(reading: Reading) -> str:
    """A question the rules must not answer: the out-of-scope sentinel."""
    return SENTINEL_QUERY


def read_only(reading: Reading) -> str:
    """A request to change the data: the read-only sentinel (the agent says it cannot)."""
    return READ_ONLY_QUERY


def path(reading: Reading) -> str | None:
    """A learning path / shortest path between two named nodes, with algo.SPpaths."""
    if len(reading.entities) < 2:
        return None
    a, b = reading.entities[:2]
    if reading.has("reversed_path"):
        a, b = b, a
    types = [p.type for p in reading.schema.patterns if p.start == p.end == a.label == b.label]
    if a.label == b.label and not types:
        return None
    rel_types = f"relTypes: [{', '.join(lit(t) for t in dict.fromkeys(types))}], " if types else ""
    (na, ca), (nb, cb) = (node("a", a, relaxed=reading.relaxed), node("b", b, relaxed=reading.relaxed))
    name = reading.schema.display(a.label)
    return (f"MATCH {na}, {nb}{where(ca + cb)}\n"
            f"CALL algo.SPpaths({{sourceNode: a, targetNode: b, {rel_types}"
            "relDirection: 'both', pathCount: 1})\nYIELD path\n"
            f"RETURN [n IN nodes(path) | n.{name}] AS route")


def next_topics(reading: Reading) -> str | None:
    """What comes next for someone: nodes 1-2 steps along a same-label link the words name
    ("next" -> a prerequisite link), beyond the ones their own links already reach.

    The shape comes from the schema: the named node's label reaches the asked label through a
    unique chain, and the asked label has a link to itself.
    """
    if len(reading.entities) != 1:
        return None
    e = reading.entities[0]
    if reading.self_loop(e.label):      # "what comes after OS": a link of its own kind
        return None
    wanted = [t for t in reading.targets() if t != e.label] or [reading.lexicon.next_label]
    loops = [p for p in reading.schema.patterns if p.start == p.end != e.label and p.start in wanted]
    named = [p for p in loops if p.type in reading.relations()]
    loops = named or [p for p in loops if re.search(reading.lexicon.relation(p.type) or r"(?!)", "next")]
    if len({(p.type, p.start) for p in loops}) != 1:
        return None
    loop, label = loops[0], loops[0].start
    hop = resolve(replace(reading, text=""), e.label, label)
    if hop is None:
        return None
    s, cond = node("s", e, relaxed=reading.relaxed)
    last = hop.patterns[-1]
    if len(hop.patterns) == 2:
        mid = hop.labels[1]
        reach = f"{s}{arrow(hop.patterns[0], e.label)}(sub:{mid}){arrow(last, mid)}(c:{label})"
        known = f"(sub){arrow(last, mid)}(next)"
    else:
        reach, known = f"{s}{arrow(last, e.label)}(c:{label})", f"(s){arrow(last, e.label)}(next)"
    step = f"-[:{loop.type}*1..2]->" if direction(reading) != "in" else f"<-[:{loop.type}*1..2]-"
    name = reading.schema.display(label)
    return (f"MATCH {reach}{where(cond)}\nMATCH (c:{label}){step}(next:{label})\n"
            f"WHERE NOT {known}\nRETURN DISTINCT next.{name} AS next_{alias(label, name)}")


def most(reading: Reading) -> str | None:
    """Who / which has the most (or fewest) of something, ties included."""
    if reading.entities:
        return None
    labels = reading.targets()
    if not labels:
        return None
    group = _asked_label(reading, labels)
    numeric = [p for p in reading.asked_properties(group, reading.schema.labels.get(group, []))
               if f"{group}.{p}" in reading.schema.numbers]
    if numeric and len(labels) == 1:
        return _extreme_property(reading, group, numeric[0])
    loop = reading.self_loop(group)
    others = [t for t in labels if t != group]
    counted = others[0] if others else (reading.person if group != reading.person or loop else None)
    if counted is None or (group == counted and not loop):
        return None
    hop = resolve(reading, group, counted)
    if hop is None:
        return None
    pick = "min" if reading.has("least") else "max"
    pattern = hop_match(reading, hop, f"g:{group}", f"k:{counted}", rel="")
    name = reading.schema.display(group)
    noun = plural(counted) if counted != group else loop_noun(loop or "")
    return (f"MATCH {pattern}\nWITH g, count(DISTINCT k) AS n\nWITH {pick}(n) AS top\n"
            f"MATCH {pattern}\nWITH g, count(DISTINCT k) AS n, top WHERE n = top\n"
            f"RETURN g.{name} AS {alias(group, name)}, n AS {noun}")


def per_group(reading: Reading) -> str | None:
    """How many of one label each node of another has: 'How many students are in each club?',
    'skills per student', 'har club mein kitne log?'. Every group is listed, with 0 too."""
    m = re.search(reading.cue("group_by"), reading.text)
    if reading.entities or not reading.has("count") or not m:
        return None
    group = next((label for label in reading.schema.labels
                  if re.fullmatch(reading.lexicon.label(label), m[2])), None)
    if group is None:
        return None
    loop = reading.self_loop(group)
    counted = next((t for t in reading.targets() if t != group), group if loop else None)
    hop = resolve(reading, group, counted) if counted else None
    if hop is None or counted is None:
        return None
    name = reading.schema.display(group)
    noun = plural(counted) if counted != group else loop_noun(loop or "")
    return (f"MATCH (g:{group})\nOPTIONAL MATCH {hop_match(reading, hop, 'g', f'k:{counted}', rel='')}\n"
            f"RETURN g.{name} AS {alias(group, name)}, count(DISTINCT k) AS {noun}")


def _extreme_property(reading: Reading, label: str, prop: str, pick: str | None = None) -> str:
    """The node(s) with the largest (or smallest) value of a number: most credits."""
    pick = pick or ("min" if reading.has("least") else "max")
    name = reading.schema.display(label)
    return (f"MATCH (g:{label})\nWITH {pick}(g.{prop}) AS top\nMATCH (g:{label})\n"
            f"WHERE g.{prop} = top\nRETURN g.{name} AS {alias(label, name)}, g.{prop} AS {prop}")


def extreme_pick(reading: Reading) -> str | None:
    """'min' for "first", "earliest", 'max' for "latest" (an ordinal before a property's word,
    "first year", is a number instead); None when the question has no such word."""
    props = "|".join(reading.lexicon.properties.values()) or r"(?!)"
    for pick, regex in reading.lexicon.extremes.items():
        for m in re.finditer(regex, reading.text):
            if not re.match(rf"[\s-]+(?:{props})", reading.text[m.end():]):
                return pick
    return None


def extreme(reading: Reading) -> str | None:
    """Who or what has the smallest or largest value of a number property of a node or of a
    link: 'Which club was founded first?', 'Who joined a club first?'."""
    pick = extreme_pick(reading)
    labels = reading.targets()
    if pick is None or reading.entities or not labels:
        return None
    group, schema = _asked_label(reading, labels), reading.schema
    numeric = [p for p in reading.asked_properties(group, schema.labels.get(group, []))
               if f"{group}.{p}" in schema.numbers]
    if numeric:
        return _extreme_property(reading, group, numeric[0], pick) if len(set(labels)) == 1 else None
    links = [(p, q) for p in schema.touching(group) if p.start != p.end
             and (other(p, group) in labels or len(labels) == 1)
             for q in reading.asked_properties("", p.props) if f"{p.type}.{q}" in schema.numbers]
    if len(links) != 1:
        return None
    p, prop = links[0]
    far = other(p, group)
    name, far_name = schema.display(group), schema.display(far)
    link = f"(t:{group}){arrow(p, group, 'r')}(x:{far})"
    return (f"MATCH {link}\nWITH {pick}(r.{prop}) AS top\nMATCH {link}\nWHERE r.{prop} = top\n"
            f"RETURN t.{name} AS {alias(group, name)}, x.{far_name} AS {alias(far, far_name)}, "
            f"r.{prop} AS {prop}")


def loop_noun(rel_type: str) -> str:
    """A column name for what a same-label link counts: KNOWS_ABOUT -> 'knows'."""
    word = rel_type.split("_")[0].lower()
    return word if word.endswith("s") else word + "s"


def _asked_label(reading: Reading, labels: list[str]) -> str:
    """The label a question asks about: "which subject ...", else who/kaun (the person label),
    else the first."""
    for label in labels:
        if re.search(rf"{reading.cue('which')} (\w+ )?(?:{reading.lexicon.label(label)})", reading.text):
            return label
    if reading.person in labels and reading.has("who"):
        return reading.person
    return labels[0]


def common(reading: Reading) -> str | None:
    """Nodes linked to more than one of another label, or what two students have in common.

    "What is common in all the clubs?" / "students in more than one club" -> students with
    several clubs; "Which clubs have more than one member?" -> clubs with several students.
    """
    people = [e for e in reading.entities if e.label == reading.person]
    if len(people) == 2 and len(reading.entities) == 2:
        return _in_common(reading, *people)
    limit = threshold(reading)
    labels = reading.targets()
    if reading.entities or limit is None or not labels:
        return None
    asked = _asked_label(reading, labels)
    person = reading.person
    if asked == person or not re.search(rf"{reading.cue('which')} (\w+ )?(?:{reading.lexicon.label(asked)})",
                                        reading.text):
        asked = person                # "what is common in all the clubs": the people they share
    counted = next((t for t in labels if t != asked), person if asked != person else None)
    hop = resolve(replace(reading, text=""), asked, counted) if counted else None
    if hop is None or counted is None or len(hop.patterns) != 1:
        return None
    name, shown = reading.schema.display(asked), reading.schema.display(counted)
    g = "s" if asked == person else asked.lower()       # (s:Person), (team:Team), ...
    many, (op, number) = plural(counted), limit
    link = f"({g}:{asked}){arrow(hop.patterns[0], asked)}(x:{counted})"
    if op in ("<", "<="):             # "fewer than 3 members": a club with none counts too
        link = f"({g}:{asked})\nOPTIONAL MATCH ({g}){arrow(hop.patterns[0], asked)}(x:{counted})"
    return (f"MATCH {link}\nWITH {g}, collect(DISTINCT x.{shown}) AS {many}, count(DISTINCT x) AS n\n"
            f"WHERE n {op} {number}\nRETURN {g}.{name} AS {alias(asked, name)}, {many}")


def _in_common(reading: Reading, a: Entity, b: Entity) -> str | None:
    if not reading.has("in_common"):
        return None
    parts = []
    for p in reading.schema.patterns:
        if p.start == a.label and p.end != a.label:
            na, ca = node("a", a, relaxed=reading.relaxed)
            nb, cb = node("b", b, relaxed=reading.relaxed)
            parts.append(f"MATCH {na}-[:{p.type}]->(x:{p.end})<-[:{p.type}]-{nb}{where(ca + cb)}\n"
                         f"RETURN x.{reading.schema.display(p.end)} AS shared, {lit(p.end)} AS kind")
    return "\nUNION\n".join(parts) or None


def count(reading: Reading) -> str | None:
    """How many students (in DBMS, in CSE, ...), how many concepts a subject covers."""
    if reading.has("each"):       # per group: `per_group` answers it, or no one does
        return None
    targets = reading.targets()
    target = next((t for t in targets if all(t != e.label for e in reading.entities)), None)
    if target is None and reading.entities and targets:
        target = targets[0]
    if target is None:
        return None
    for e in reading.entities:
        if reading.asked_properties(e.label, [p for p in reading.schema.labels.get(e.label, [])
                                              if p not in ("name", "id")]):
            return None
    body = conditions(reading, target, reading.entities)
    if body is None:
        return None
    match, conds = body
    noun = plural(target)
    return f"{match}{where(conds)}\nRETURN count(DISTINCT t) AS {noun}"


def ranking(reading: Reading) -> str | None:
    """Best first by a VALUE SCALE: 'best person to teach me DBMS', 'learn ML from'."""
    if len(reading.entities) > 1:
        return None
    for key, scale in reading.schema.scales.items():
        rel_type, prop = key.split(".")
        for p in reading.schema.patterns:
            if p.type != rel_type or p.start != reading.person:
                continue
            if reading.entities and reading.entities[0].label != p.end:
                continue
            if not reading.entities and not re.search(reading.lexicon.prop(prop), reading.text) \
                    and p.type not in reading.relations():
                continue
            x, cond = node("x", reading.entities[0] if reading.entities else None, p.end,
                           relaxed=reading.relaxed)
            order = rank_case(f"r.{prop}", scale) + (" DESC" if reading.has("worst") else "")
            extra = "" if reading.entities else f", x.{reading.schema.display(p.end)} AS {p.end.lower()}"
            name = reading.schema.display(p.start)
            return (f"MATCH (s:{p.start})-[r:{rel_type}]->{x}{where(cond)}\n"
                    f"RETURN s.{name} AS {alias(p.start, name)}{extra}, r.{prop} AS {prop}\n"
                    f"ORDER BY {order}, s.{name}")
    return None


def yes_no(reading: Reading) -> str | None:
    """'Does Aarav study DBMS?', 'Are Aarav and Payal friends?'."""
    if len(reading.entities) != 2:
        return None
    a, b = reading.entities
    hop = twice(reading, resolve(reading, a.label, b.label))
    if hop is None or len(hop.patterns) != 1:
        return None
    (na, ca), (nb, cb) = node("a", a, relaxed=reading.relaxed), node("b", b, relaxed=reading.relaxed)
    link = arrow(hop.patterns[0], a.label, "r", direction=direction(reading))
    return f"MATCH {na}, {nb}{where(ca + cb)}\nOPTIONAL MATCH (a){link}(b)\nRETURN count(r) > 0 AS answer"


def relationship_property(reading: Reading) -> str | None:
    """A property of the link between two named nodes: Payal's grade in DBMS, role in a club."""
    if len(reading.entities) != 2:
        return None
    a, b = reading.entities
    hop = resolve(replace(reading, text=""), a.label, b.label)
    if hop is None or len(hop.patterns) != 1 or not hop.patterns[0].props:
        return None
    asked = reading.asked_properties("", hop.patterns[0].props)
    if not asked:
        return None
    (na, ca), (nb, cb) = node("a", a, relaxed=reading.relaxed), node("b", b, relaxed=reading.relaxed)
    link = arrow(hop.patterns[0], a.label, "r")
    cols = ", ".join(f"r.{p} AS {p}" for p in asked)
    return f"MATCH {na}{link}{nb}{where(ca + cb)}\nRETURN {cols}"


def shared(reading: Reading) -> str | None:
    """Who studies the same subjects as Payal / is in the same club as Sneha / works with Rahul."""
    person = reading.person
    people = [e for e in reading.entities if e.label == person]
    others = [e for e in reading.entities if e.label != person]
    if len(people) != 1 or len(others) > 1 or not reading.has("shared") or reading.self_loop(person):
        return None
    thing = others[0].label if others else next(
        (t for t in reading.targets() if t != person), None)
    hop = resolve(reading, person, thing) if thing else None
    if hop is None and not thing:
        cues = [p for p in reading.schema.touching(person)
                if p.type in reading.relations() and p.start != p.end]
        hop = Hop((cues[0],), (person, other(cues[0], person))) if len(cues) == 1 else None
    if hop is None or len(hop.patterns) != 1:
        return None
    p, label = hop.patterns[0], hop.labels[1]
    me, c1 = node("me", people[0], relaxed=reading.relaxed)
    x, c2 = node("x", others[0] if others else None, label, relaxed=reading.relaxed)
    back = arrow(p, label)
    shown = "" if others else f", x.{reading.schema.display(label)} AS {alias(label, 'name')}"
    name = reading.schema.display(person)
    return (f"MATCH {me}{arrow(p, person)}{x}{back}(t:{person}){where(c1 + c2 + ['t <> me'])}\n"
            f"RETURN DISTINCT t.{name} AS {alias(person, name)}{shown}")


def explain(reading: Reading) -> str | None:
    """What a concept is: its properties and the note that explains it."""
    if len(reading.entities) != 1 or not reading.has("explain") or reading.targets() \
            or direction(reading):
        return None
    e = reading.entities[0]
    notes = [p for p in reading.schema.patterns
             if p.end == e.label and "text" in reading.schema.labels.get(p.start, [])]
    if len(notes) != 1 or set(reading.relations()) - {notes[0].type}:
        return None
    p = notes[0]
    c, cond = node("c", e, relaxed=reading.relaxed)
    cols = [f"c.{q} AS {alias(e.label, q)}" for q in reading.schema.labels[e.label] if q != "id"]
    return (f"MATCH {c}{where(cond)}\nOPTIONAL MATCH (n:{p.start})-[:{p.type}]->(c)\n"
            f"RETURN {', '.join(cols)}, n.text AS note")


def properties(reading: Reading) -> str | None:
    """A property of named nodes (Payal's year, DBMS credits), or their profile ('Who is Payal?')."""
    if not reading.entities:
        return None
    label = reading.entities[0].label
    if any(e.label != label for e in reading.entities):
        return None
    props = reading.schema.labels.get(label, [])
    name = reading.schema.display(label)
    asked = [p for p in reading.asked_properties(label, props) if p != name]
    if not asked and (not reading.has("profile") or reading.relations()
                      or any(t != label for t in reading.targets())):
        return None
    shown = [name] + (asked or [p for p in props if p not in ("id", name)])
    cols = ", ".join(f"e.{p} AS {p}" for p in shown)
    if len(reading.entities) == 1:
        e, cond = node("e", reading.entities[0], relaxed=reading.relaxed)
        return f"MATCH {e}{where(cond)}\nRETURN {cols}"
    values = ", ".join(lit(e.value) for e in reading.entities)
    return f"MATCH (e:{label})\nWHERE e.{name} IN [{values}]\nRETURN {cols}"


def related(reading: Reading) -> str | None:
    """Nodes linked to the named ones: who studies DBMS, Payal's clubs, dbms and debate dono."""
    if not reading.entities:
        return None
    targets = [t for t in reading.targets()]
    target = next((t for t in targets if all(t != e.label for e in reading.entities)
                   or reading.self_loop(t) or direction(reading)), None)
    if target is None and len(reading.entities) > 1 and reading.person in targets:
        target = reading.person
    if target is None and len(reading.entities) == 1:
        hop = resolve(reading, reading.entities[0].label, None)
        target = hop.labels[-1] if hop else None
    if target is None:
        return None
    body = conditions(reading, target, reading.entities)
    if body is None:
        return None
    match, conds = body
    cols = [f"t.{p} AS {alias(target, p)}" for p in _shown(reading, target)]
    rel_props = _asked_rel_props(reading, target) if len(reading.entities) == 1 else []
    cols += [f"r0.{p} AS {p}" for p in rel_props]
    # a group ("their skills" after "Karan and Rahul"): say whose each row is
    cols = [f"x{i}.{e.prop} AS {alias(e.label, e.prop)}" for i, e in enumerate(reading.entities)
            if isinstance(e.value, tuple)] + cols
    return f"{match}{where(conds)}\nRETURN DISTINCT {', '.join(cols)}"


def _shown(reading: Reading, label: str) -> list[str]:
    props = reading.schema.labels.get(label, [])
    if "name" not in props and "text" in props:
        return [p for p in ("id", "text") if p in props]
    return [reading.schema.display(label)]


def _asked_rel_props(reading: Reading, target: str) -> list[str]:
    e = reading.entities[0]
    hop = resolve(reading, e.label, target)
    if hop is None or len(hop.patterns) != 1:
        return []
    return [p for p in reading.asked_properties("", hop.patterns[0].props)
            if not filters(reading, f"{hop.patterns[0].type}.{p}", "r")]


def listing(reading: Reading) -> str | None:
    """All nodes of a label, optionally filtered: 'list the clubs', 'CSE students kaun hain'."""
    if reading.entities:
        return None
    targets = reading.targets()
    if not targets:
        return None
    body = conditions(reading, targets[0], [])
    if body is None:                  # "Show notes for a club": no link the words point to
        return None
    match, conds = body
    if targets[0] == reading.person and not conds and "\n" not in match and not reading.has("list_all"):
        return None
    label = targets[0]
    shown = _shown(reading, label)
    shown += [p for p in reading.asked_properties(label, reading.schema.labels.get(label, []))
              if p not in shown and not filters(reading, f"{label}.{p}", "t")]
    cols = ", ".join(f"t.{p} AS {alias(label, p)}" for p in shown)
    return f"{match}{where(conds)}\nRETURN DISTINCT {cols}"


# The table: (name, cue that must be present or None, builder). The first query built wins.
Intent = tuple[str, "str | None", Builder]
INTENTS: tuple[Intent, ...] = (
    ("write request", "write", read_only),
    ("out of scope", "out_of_scope", refuse),
    ("learning path", "path", path),
    ("next topics", "next", next_topics),
    ("count per group", "each", per_group),
    ("first / last", None, extreme),
    ("most / fewest", "most", most),
    ("most / fewest", "least", most),
    ("in common", "common", common),
    ("count", "count", count),
    ("ranking", "rank", ranking),
    ("yes or no", "yes_no", yes_no),
    ("property of a link", None, relationship_property),
    ("shared with someone", "shared", shared),
    ("what a concept is", "explain", explain),
    ("property or profile", None, properties),
    ("related nodes", None, related),
    ("list or filter", None, listing),
)
