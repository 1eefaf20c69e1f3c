"""The intents: each builder returns a Cypher query for a reading, or None (notebooks 05 and 09).

The builders that count, rank or pick the most are in `course.llm.offline.aggregates`, the
ones that answer yes or no in `course.llm.offline.yes_no`; the ones here find a path, follow
links, check a fact or list what the question names.

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

from course.foundation.language import WORDS
from course.llm.offline.aggregates import average, common, count, extreme, in_order, most, per_group, total
from course.llm.offline.changes import asks_when_done, change_verb
from course.llm.offline.comparisons import compared, compared_yes_no, end_of_number, than_one_named
from course.llm.offline.cypher import alias, arrow, lit, node, where
from course.llm.offline.filters import chosen_among, conditions, filters
from course.llm.offline.hops import Hop, direction, other, find_hop
from course.llm.offline.ranking import ranking
from course.llm.offline.reading import Reading, each_of
from course.llm.offline.rereadings import without_own_kinds
from course.llm.offline.yes_no import yes_no, yes_no_of_one
from course.llm.sentinels import READ_ONLY_QUERY, SENTINEL_QUERY

Builder = Callable[[Reading], "str | None"]


def refuse(reading: Reading) -> str:
    """A question the rules must not answer: the out-of-scope sentinel."""
    return SENTINEL_QUERY


def read_only(reading: Reading) -> str | None:
    """A request to change the data: the read-only sentinel (the agent says it cannot); none
    for a question of when a change was made ("When was the club set up?"), nor for a word of
    change used as no verb ("put in plain words", "clear hona": `change_verb`)."""
    return None if asks_when_done(reading.text) or change_verb(reading.text) is None else READ_ONLY_QUERY


def path(reading: Reading) -> str | None:
    """A learning path / shortest path between two named nodes, with algo.SPpaths."""
    if len(reading.entities) < 2:
        return None
    if reading.has("which") and re.search(rf"§\d+ (?:{reading.cue('versus')}) §\d+", reading.text):
        return None   # "BFS vs DFS, which one for the shortest path?": a choice, no route between
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
    hop = find_hop(replace(reading, text=""), e.label, label)
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


def relationship_property(reading: Reading) -> str | None:
    """A property of the link between two named nodes: Payal's grade in DBMS, role in a club;
    or between one and each of several ("When did Payal join each of X and Y?")."""
    if len(reading.entities) > 2:
        return _link_property_each(reading)
    if len(reading.entities) != 2:
        return None
    a, b = reading.entities
    hop = find_hop(replace(reading, text=""), a.label, b.label)
    if hop is None or len(hop.patterns) != 1 or not hop.patterns[0].props:
        return None
    asked = reading.asked_properties("", hop.patterns[0].props)
    if not asked:
        return None
    (na, ca), (nb, cb) = node("a", a, relaxed=reading.relaxed), node("b", b, relaxed=reading.relaxed)
    link = arrow(hop.patterns[0], a.label, "r")
    whose = [f"{v}.{e.prop} AS {alias(e.label, e.prop)}" for v, e in (("a", a), ("b", b))
             if isinstance(e.value, tuple)]     # "what grades did they get": say whose each is
    cols = ", ".join(whose + [f"r.{p} AS {p}" for p in asked])
    return f"MATCH {na}{link}{nb}{where(ca + cb)}\nRETURN {cols}"


def _link_property_each(reading: Reading) -> str | None:
    """The property of the link from one named node to each of several of one other label,
    one row per node, with its name."""
    labels = [e.label for e in reading.entities]
    ones = [e for e in reading.entities if labels.count(e.label) == 1]
    many = [e for e in reading.entities if labels.count(e.label) > 1]
    if len(ones) != 1 or len({e.label for e in many}) != 1 \
            or any(isinstance(e.value, tuple) for e in reading.entities):
        return None
    a, label = ones[0], many[0].label
    hop = find_hop(replace(reading, text=""), a.label, label)
    if hop is None or len(hop.patterns) != 1 or not hop.patterns[0].props:
        return None
    asked = reading.asked_properties("", hop.patterns[0].props)
    if not asked:
        return None
    na, ca = node("a", a, relaxed=reading.relaxed)
    name = reading.schema.display(label)
    values = ", ".join(lit(e.value) for e in many)
    cols = ", ".join([f"b.{name} AS {alias(label, name)}"] + [f"r.{p} AS {p}" for p in asked])
    # "which of §1 and §2 got an A+ in §0?": a value of the property named filters them
    named = [c for p in hop.patterns[0].props for c in filters(reading, f"{hop.patterns[0].type}.{p}", "r")]
    return (f"MATCH {na}{arrow(hop.patterns[0], a.label, 'r')}(b:{label})"
            f"{where(ca + [f'b.{name} IN [{values}]'] + named)}\nRETURN {cols}")


def shared(reading: Reading) -> str | None:
    """Who studies the same subjects as Payal / is in the same club as Sneha / works with Rahul."""
    person = reading.person
    people = [e for e in reading.entities if e.label == person]
    others = [e for e in reading.entities if e.label != person]
    if len(people) != 1 or len(others) > 1 or not reading.has("shared") or reading.self_loop(person):
        return None
    thing = others[0].label if others else next(
        (t for t in reading.targets() if t != person), None)
    hop = find_hop(reading, person, thing) if thing else None
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
    """What a concept is: the note that explains it (its id first), and the concept's properties."""
    itself = without_own_kinds(reading)    # "the concept of §0", "§0 ka concept": §0 itself
    if len(reading.entities) != 1 or not reading.has("explain") or itself.targets() \
            or direction(reading):
        return None
    e = reading.entities[0]
    notes = [p for p in reading.schema.patterns
             if p.end == e.label and "text" in reading.schema.labels.get(p.start, [])]
    if len(notes) != 1 or set(itself.relations()) - {notes[0].type}:
        return None
    p = notes[0]
    c, cond = node("c", e, relaxed=reading.relaxed)
    cols = [f"c.{q} AS {alias(e.label, q)}" for q in reading.schema.labels[e.label] if q != "id"]
    # the note named first, as a search names it: the answer says where its text came from
    named = "n.id AS note, " if "id" in reading.schema.labels.get(p.start, []) else ""
    return (f"MATCH {c}{where(cond)}\nOPTIONAL MATCH (n:{p.start})-[:{p.type}]->(c)\n"
            f"RETURN {named}{', '.join(cols)}, n.text AS text")


def _owned_by_kind(reading: Reading, label: str) -> bool:
    """Does the question speak of a name's own kind by a link ("§0's friend", "friends of §0",
    "§0 ke dost")? Then a property asked is theirs, not the name's."""
    loop = reading.self_loop(label)
    words = reading.lexicon.relation(loop) if loop else None
    return bool(words) and re.search(rf"§\d+(?: ?'?s)?(?: \w+)? (?:{words})|(?:{words}) of §\d+|§\d+ ke (?:{words})",
                                     reading.text) is not None


def properties(reading: Reading) -> str | None:
    """A property of named nodes (Payal's year, DBMS credits), or their profile ('Who is Payal?')."""
    if not reading.entities:
        return None
    label = reading.entities[0].label
    if any(e.label != label for e in reading.entities) or chosen_among(reading, label, reading.entities) \
            or _owned_by_kind(reading, label):
        return None     # ("who among §0 and §1 is in year 3?" asks which, not their years; "§0's
        #                 friends' year" is their friends')
    if reading.has("who") and label != reading.person and not reading.has("profile"):
        return None     # "who is in §0, and since when?": people, with a link's property; no club's year
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
    reading = each_of(reading)
    # "§0 ke dost kaun se clubs mein hain?": the noun after a "which" word is the one asked,
    # wherever it stands; "dost" before it is a step of the chain
    asked = [t for t in reading.targets() if re.search(
        rf"(?:{reading.cue('which')})\s+(?:{reading.lexicon.label(t)})", reading.text)]
    targets = asked[:1] + [t for t in reading.targets() if t not in asked[:1]]
    # "which of §0 and §1 is in §2?": the answer is some of those named, so it is of their label
    among = [label for label in dict.fromkeys(e.label for e in reading.entities)
             if chosen_among(reading, label, reading.entities)]
    target = among[0] if len(among) == 1 else next(
        (t for t in targets if all(t != e.label for e in reading.entities)
         or reading.self_loop(t) or direction(reading)), None)
    if target is None and len(reading.entities) > 1 and reading.person in targets:
        target = reading.person
    if target is None and not targets and reading.has("who") \
            and all(e.label != reading.person for e in reading.entities):
        target = reading.person    # "§0 kisko aata hai?": someone who knows it, or no one
    if target is None and len(reading.entities) == 1 and not asks_how(reading.text) \
            and without_own_kinds(reading).relations():   # "What does the Debate Society do?"
        # names no link; nor does "§0 ka concept", the concept §0 itself
        hop = find_hop(reading, reading.entities[0].label, None)
        # (to a kind the words name, if they name one: "§0 ke concepts" are no subject)
        target = hop.labels[-1] if hop and (hop.labels[-1] in targets or not targets) else None
    if target is None:
        return None
    if target != reading.person and (_asks_for_people(reading) or asked[:1] == [reading.person]
                                     and len(reading.entities) == 1):
        # "Who is in §0's club?", "which students are in §0's clubs?" ask for people: along a
        # chain back to them, or not at all
        hop = find_hop(reading, reading.entities[0].label, reading.person)
        if hop is None or len(hop.patterns) != 2:
            return None
        target = reading.person
    body = conditions(reading, target, reading.entities)
    if body is None:
        return None
    match, conds = body
    shown = reading.schema.shown(target)   # "which project is §0 on and its status": its status too
    shown += [p for p in reading.asked_properties("", reading.schema.labels.get(target, []))
              if p not in shown and not filters(reading, f"{target}.{p}", "t")]
    cols = [f"t.{p} AS {alias(target, p)}" for p in shown]
    rel_props = _asked_rel_props(reading, target) if len(reading.entities) == 1 else []
    if rel_props is None:   # "the president's subjects with grades": whose grade, a chain says
        return None
    cols += [f"r0.{p} AS {p}" for p in rel_props]
    # a group ("their skills" after "Karan and Rahul"): say whose each row is
    chosen = chosen_among(reading, target, reading.entities)   # "which of them": t itself,
    linked = [e for e in reading.entities if e not in chosen]   # the others x0, x1, ...
    whose = [f"x{i}.{e.prop} AS {alias(e.label, e.prop)}" for i, e in enumerate(linked)
             if isinstance(e.value, tuple)]
    if any(w.split(" AS ")[1] == c.split(" AS ")[1] for w in whose for c in cols):
        # "who are each of §0 and §1 friends with?": two columns of one name cannot be returned
        whose = [w + "_named" for w in whose]
    return f"{match}{where(conds)}\nRETURN DISTINCT {', '.join(whose + cols)}"


def asks_how(text: str) -> bool:
    """Does the question open by asking how or why ("how is §0 doing?"), not how many or how
    much? Its answer is no list of the things linked to what it names.

    >>> asks_how("how is the §0 ?"), asks_how("how many students are in §0 ?")
    (True, False)
    >>> asks_how("what does §0 know how to do ?")
    False
    """
    words = [w for w in text.split() if w not in ("and", "aur", "but", "so")] + ["", ""]
    return words[0] in WORDS.manner_words and words[1] not in WORDS.counting


def _asks_for_people(reading: Reading) -> bool:
    """Does a question about one person open with "who" ("Who is in §0's club?"), not with
    "which" ("kaun se clubs")?"""
    if len(reading.entities) != 1 or reading.entities[0].label != reading.person:
        return False
    opening = re.match(rf"\s*(?:{reading.cue('who')})\b", reading.text)
    return opening is not None and not re.match(rf"\s*(?:{reading.cue('which')})", reading.text)


def _asked_rel_props(reading: Reading, target: str) -> list[str] | None:
    """The asked properties of the one link from the name to the target; None when they are
    asked of the last link of a longer chain, whose rows this builder cannot say whose they are."""
    e = reading.entities[0]
    hop = find_hop(reading, e.label, target)
    if hop is None:
        return []
    last = hop.patterns[-1]
    asked = [p for p in reading.asked_properties("", last.props) if not filters(reading, f"{last.type}.{p}", "r")]
    return asked if len(hop.patterns) == 1 else (None if asked else [])


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
    shown = reading.schema.shown(label)
    shown += [p for p in reading.asked_properties(label, reading.schema.labels.get(label, []))
              if p not in shown and not filters(reading, f"{label}.{p}", "t")]
    cols = ", ".join(f"t.{p} AS {alias(label, p)}" for p in shown)
    if far := re.search(r"\(o:(\w+)\)", match):   # "... and in which subject?": the other end too
        cols += "".join(f", o.{p} AS {alias(far[1], p)}" for p in reading.schema.shown(far[1])[:1])
    return f"{match}{where(conds)}\nRETURN DISTINCT {cols}"


# The table: (name, cue that must be present or None, builder). The first query built wins.
Intent = tuple[str, "str | None", Builder]
INTENTS: tuple[Intent, ...] = (
    ("write request", "write", read_only),
    ("out of scope", "out_of_scope", refuse),
    ("learning path", "path", path),
    ("next topics", "next", next_topics),
    ("count per group", "count", per_group),
    ("in order", "order", in_order),
    ("which of them", None, compared),
    ("first / last", None, extreme),
    ("most / fewest", "most", most),
    ("most / fewest", "least", most),
    ("largest / smallest", None, end_of_number),
    ("in common", "common", common),
    ("average", "average", average),
    ("total", "total", total),
    ("count", "count", count),
    ("ranking", "rank", ranking),
    ("yes or no, compared", "yes_no", compared_yes_no),
    ("past one named", None, than_one_named),
    ("yes or no", "yes_no", yes_no),
    ("yes or no, of one", "yes_no", yes_no_of_one),
    ("property of a link", None, relationship_property),
    ("shared with someone", "shared", shared),
    ("what a concept is", "explain", explain),
    ("property or profile", None, properties),
    ("related nodes", None, related),
    ("list or filter", None, listing),
)
