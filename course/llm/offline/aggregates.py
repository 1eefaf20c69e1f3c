"""The intents that count or pick the most: builders that aggregate (notebooks 05, 09).

`count` (how many), `per_group` (how many each), `most` (who has the most), `extreme` (who
came first) and `common` (linked to more than one); best first by a VALUE SCALE is
`course.llm.offline.ranking`. The table that tries them in order is
`course.llm.offline.intents.INTENTS`.
"""
from __future__ import annotations

import re
from dataclasses import replace

from course.llm.offline.cypher import alias, arrow, count_column, lit, node, plural, where
from course.llm.offline.filters import conditions
from course.llm.offline.numbers import threshold
from course.llm.offline.hops import hop_match, other, find_hop
from course.llm.offline.lexicon import inside_longer
from course.llm.offline.prompt import Entity
from course.llm.offline.reading import Reading, each_of


def most(reading: Reading) -> str | None:
    """Who / which has the most (or fewest) of something, ties included."""
    if reading.entities:
        return None
    labels = reading.targets()
    if not labels:
        return None
    group = asked_label(reading, labels)
    numeric = [p for p in reading.asked_properties(group, reading.schema.labels.get(group, []))
               if f"{group}.{p}" in reading.schema.numbers]
    ranked = rf"(?:{reading.cue('most')}|{reading.cue('least')})\s+(?:{reading.lexicon.label(group)})"
    if numeric and len(labels) == 1:   # "the fewest students" (after "which year") counts them:
        return None if re.search(ranked, reading.text) else extreme_property(reading, group, numeric[0])
    loop = reading.self_loop(group)
    others = [t for t in labels if t != group]
    # "the most subtopics": a link of the group's label to itself counts its own kind
    counted = others[0] if others else (group if loop else reading.person if group != reading.person
                                         else None)
    if counted is None or (group == counted and not loop):
        return None
    hop = find_hop(reading, group, counted)
    if hop is None:
        return None
    pick = "min" if reading.has("least") else "max"
    pattern = hop_match(reading, hop, f"g:{group}", f"k:{counted}", rel="")
    name = reading.schema.display(group)
    noun = count_column(pattern, counted, group, loop)
    return (f"MATCH {pattern}\nWITH g, count(DISTINCT k) AS n\nWITH {pick}(n) AS top\n"
            f"MATCH {pattern}\nWITH g, count(DISTINCT k) AS n, top WHERE n = top\n"
            f"RETURN g.{name} AS {alias(group, name)}, n AS {noun}")


# "rank the clubs by how many members they have": a count per group, the most first
_RANKED_BY_COUNT = re.compile(r"\b(?:rank|sort|order|arrange)\w*\s+(?:the\s+|all\s+)?(\w+)\s+by\s+"
                              r"(?:how many|(?:the )?number of)\b")


def per_group(reading: Reading) -> str | None:
    """How many of one label each node of another has: 'How many students are in each club?',
    'skills per student', 'har club mein kitne log?', 'rank the clubs by how many members they
    have' (the most first). Every group is listed, with 0 too."""
    ranked = _RANKED_BY_COUNT.search(reading.text)
    m = ranked or re.search(reading.cue("group_by"), reading.text)
    if reading.entities or not reading.has("count") or not m:
        return None
    word = m[1] if ranked else m[2]
    group = next((label for label in reading.schema.labels
                  if re.fullmatch(reading.lexicon.label(label), word)), None)
    if group is None:
        return None if ranked else _per_value(reading, word)
    loop = reading.self_loop(group)
    counted = next((t for t in reading.targets() if t != group), group if loop else None)
    hop = find_hop(reading, group, counted) if counted else None
    if hop is None or counted is None:
        return None
    name = reading.schema.display(group)
    pattern = hop_match(reading, hop, "g", f"k:{counted}", rel="")
    column = count_column(pattern, counted, group, loop)
    return (f"MATCH (g:{group})\nOPTIONAL MATCH {pattern}\nRETURN g.{name} AS {alias(group, name)}, "
            f"count(DISTINCT k) AS {column}" + (f"\nORDER BY {column} DESC, g.{name}" if ranked else ""))


def _per_value(reading: Reading, word: str) -> str | None:
    """'How many students are in each branch?': counted per value of the asked label's property."""
    targets = reading.targets()
    if len(targets) != 1:
        return None
    label = targets[0]
    props = [p for p in reading.schema.labels.get(label, [])
             if p not in ("id", reading.schema.display(label))
             and re.fullmatch(reading.lexicon.prop(p), word)]
    if len(props) != 1:
        return None
    return (f"MATCH (t:{label})\nRETURN t.{props[0]} AS {props[0]}, "
            f"count(DISTINCT t) AS {plural(label)}")


def extreme_property(reading: Reading, label: str, prop: str, pick: str | None = None) -> str:
    """The node(s) with the largest (or smallest) value of a number: most credits."""
    pick = pick or ("min" if reading.has("least") else "max")
    name = reading.schema.display(label)
    return (f"MATCH (g:{label})\nWITH {pick}(g.{prop}) AS top\nMATCH (g:{label})\n"
            f"WHERE g.{prop} = top\nRETURN g.{name} AS {alias(label, name)}, g.{prop} AS {prop}")


def extreme_pick(reading: Reading) -> str | None:
    """'min' for "first", "earliest", 'max' for "latest" (an ordinal before a property's word,
    "first year", is a number instead); None when the question has no such word."""
    props = "|".join(reading.lexicon.properties.values()) or r"(?!)"
    # a word inside a link's longer words is the link's ("needs §0 first": a prerequisite)
    links = [m.span() for r in reading.lexicon.relationships.values() if r
             for m in re.finditer(r, reading.text)]
    for pick, regex in reading.lexicon.extremes.items():
        for m in re.finditer(regex, reading.text):
            if not inside_longer(m, links) and not re.match(rf"[\s-]+(?:{props})", reading.text[m.end():]):
                return pick
    return None


def dating(reading: Reading, label: str) -> str | None:
    """The number property of a label the question names, else the one a "when" asks for (a
    club's founding year dates it: "the oldest club"); None when neither is one alone."""
    schema = reading.schema
    named = [p for p in reading.asked_properties(label, schema.labels.get(label, []))
             if f"{label}.{p}" in schema.numbers]
    dated = [p for p in reading.lexicon.when if f"{label}.{p}" in schema.numbers]
    found = named or dated
    return found[0] if len(found) == 1 else None


def in_order(reading: Reading) -> str | None:
    """Every node of one label in the order of a number property: "List the clubs from
    oldest to newest" (the first age word says which end comes first)."""
    labels = reading.targets()
    if reading.entities or len(set(labels)) != 1:
        return None
    label = labels[0]
    prop = dating(reading, label)
    by = re.search(r"\bby\b", reading.text)
    if prop is None or by and not re.search(reading.lexicon.prop(prop), reading.text[by.end():]):
        return None     # "ordered by name": not by the year it dates them by
    ends = sorted((m.start(), pick) for pick, regex in reading.lexicon.extremes.items()
                  for m in re.finditer(regex, reading.text))
    down = " DESC" if ends and ends[0][1] == "max" or reading.has("descending") or reading.has("most") \
        else ""
    name = reading.schema.display(label)
    return (f"MATCH (g:{label})\nRETURN g.{name} AS {alias(label, name)}, g.{prop} AS {prop}\n"
            f"ORDER BY g.{prop}{down}, g.{name}")


def extreme(reading: Reading) -> str | None:
    """Who or what has the smallest or largest value of a number property of a node or of a
    link: 'Which club was founded first?', 'Who joined a club first?'."""
    pick = extreme_pick(reading)
    labels = reading.targets()
    if pick is None or len(reading.entities) > 1 or not labels or reading.has("order"):
        return None                                         # ("in order": a list, not one)
    group, schema = asked_label(reading, labels), reading.schema
    if reading.entities:
        return _extreme_of_one(reading, pick, group)
    numeric = [p for p in reading.asked_properties(group, schema.labels.get(group, []))
               if f"{group}.{p}" in schema.numbers]
    if numeric:
        return extreme_property(reading, group, numeric[0], pick) if len(set(labels)) == 1 else None
    links = [(p, q) for p in schema.touching(group) if p.start != p.end
             and (other(p, group) in labels or len(labels) == 1)
             for q in reading.asked_properties("", p.props) if f"{p.type}.{q}" in schema.numbers]
    if not links and len(set(labels)) == 1:     # "the oldest club": the property that dates it
        prop = dating(reading, group)
        return extreme_property(reading, group, prop, pick) if prop else None
    if len(links) != 1:
        return None
    p, prop = links[0]
    far = other(p, group)
    name, far_name = schema.display(group), schema.display(far)
    link = f"(t:{group}){arrow(p, group, 'r')}(x:{far})"
    return (f"MATCH {link}\nWITH {pick}(r.{prop}) AS top\nMATCH {link}\nWHERE r.{prop} = top\n"
            f"RETURN t.{name} AS {alias(group, name)}, x.{far_name} AS {alias(far, far_name)}, "
            f"r.{prop} AS {prop}")


def _extreme_of_one(reading: Reading, pick: str, group: str) -> str | None:
    """Which of one name's links has the smallest or largest number: "Which club did Payal
    join most recently?" (the link's number the words name; one link alone)."""
    e, schema = reading.entities[0], reading.schema
    links = [(p, q) for p in schema.touching(group) if p.start != p.end and other(p, group) == e.label
             for q in reading.asked_properties("", p.props) if f"{p.type}.{q}" in schema.numbers]
    if e.label == group or len(links) != 1:
        return None
    (p, prop), name = links[0], schema.display(group)
    x, conds = node("x0", e, relaxed=reading.relaxed)
    link = f"MATCH {x}{arrow(p, e.label, 'r')}(t:{group}){where(conds)}"
    return (f"{link}\nWITH {pick}(r.{prop}) AS top\n{link}\nWITH t, r, top WHERE r.{prop} = top\n"
            f"RETURN t.{name} AS {alias(group, name)}, r.{prop} AS {prop}")


def asked_label(reading: Reading, labels: list[str]) -> str:
    """The label a question asks about: "which subject ...", "club kaunsa", "... wala club" (Hindi
    puts "which" and a "wala"'s noun after), else who/kaun (the person label), else the first."""
    for label in labels:
        noun, which = reading.lexicon.label(label), reading.cue('which')
        if re.search(rf"{which} (\w+ )?(?:{noun})|\b(?:{noun}) (?:kaun|kon)s[aei]\b|\bwal[aei] (?:{noun})",
                     reading.text):
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
    asked = asked_label(reading, labels)
    person = reading.person
    if asked == person or not re.search(rf"(?:{reading.cue('which')}|{reading.cue('count')}) (\w+ )?"
                                        rf"(?:{reading.lexicon.label(asked)})", reading.text):
        asked = person                # "what is common in all the clubs": the people they share
    counted = next((t for t in labels if t != asked), person if asked != person else None)
    hop = find_hop(replace(reading, text=""), asked, counted) if counted else None
    if hop is None or counted is None or len(hop.patterns) != 1:
        return None
    name, shown = reading.schema.display(asked), reading.schema.display(counted)
    g = "s" if asked == person else asked.lower()       # (s:Person), (team:Team), ...
    many, (op, number) = plural(counted), limit
    link = f"({g}:{asked}){arrow(hop.patterns[0], asked)}(x:{counted})"
    if op in ("<", "<="):             # "fewer than 3 members": a club with none counts too
        link = f"({g}:{asked})\nOPTIONAL MATCH ({g}){arrow(hop.patterns[0], asked)}(x:{counted})"
    if re.match(rf"\s*(?:{reading.cue('count')})", reading.text):   # "how many students study more
        return (f"MATCH {link}\nWITH {g}, count(DISTINCT x) AS n\n"   # than one subject?": a number
                f"WHERE n {op} {number}\nRETURN count({g}) AS {plural(asked)}")
    return (f"MATCH {link}\nWITH {g}, collect(DISTINCT x.{shown}) AS {many}, count(DISTINCT x) AS n\n"
            f"WHERE n {op} {number}\nRETURN {g}.{name} AS {alias(asked, name)}, {many}")


def _in_common(reading: Reading, a: Entity, b: Entity) -> str | None:
    if not reading.has("in_common"):
        return None
    parts, asked = [], set(reading.targets()) - {a.label}    # "what subjects do they share?": subjects
    for p in reading.schema.patterns:
        if p.start == a.label and p.end != a.label and (not asked or p.end in asked):
            (na, ca), (nb, cb) = node("a", a, relaxed=reading.relaxed), node("b", b, relaxed=reading.relaxed)
            parts.append(f"MATCH {na}-[:{p.type}]->(x:{p.end})<-[:{p.type}]-{nb}{where(ca + cb)}\n"
                         f"RETURN x.{reading.schema.display(p.end)} AS shared, {lit(p.end)} AS kind")
    return "\nUNION\n".join(parts) or None


def count(reading: Reading) -> str | None:
    """How many students (in DBMS, in CSE, ...), how many concepts a subject covers; for each
    of several names, one count per name ("How many members does each of X and Y have?").

    >>> from course import Agent, OfflineLLM
    >>> Agent(db, OfflineLLM()).answer("How many students are in year 2?").rows
    [[2]]
    """
    grouped = each_of(reading)
    named = [f"x{i}.{e.prop} AS {alias(e.label, e.prop)}" for i, e in enumerate(grouped.entities)
             if isinstance(e.value, tuple)]
    if reading.has("each") and not named:   # per group: `per_group` answers it, or no one does
        return None
    reading = grouped
    targets = reading.targets()
    target = next((t for t in targets if all(t != e.label for e in reading.entities)), None)
    if target is None and reading.entities and targets:
        target = targets[0]
    if target is None or counted_noun(reading) not in (None, target):
        return None     # "how many people are in §0's club": people, not clubs
    for e in reading.entities:
        if reading.asked_properties(e.label, [p for p in reading.schema.labels.get(e.label, [])
                                              if p not in ("name", "id")]):
            return None
    body = conditions(reading, target, reading.entities)
    if body is None:
        return None
    match, conds = body
    noun = plural(target)
    return f"{match}{where(conds)}\nRETURN {', '.join(named + [f'count(DISTINCT t) AS {noun}'])}"


def counted_noun(reading: Reading) -> str | None:
    """The label whose noun comes right after the count word ("how many people": the person
    label), or None when no label's noun does."""
    for label in reading.schema.labels:
        if re.search(rf"(?:{reading.cue('count')})\s+(?:of\s+)?(?:the\s+)?(?:{reading.lexicon.label(label)})",
                     reading.text):
            return label
    return None


def _per_itself(reading: Reading, label: str) -> bool:
    """"The average number of credits per subject": "per" names the label whose number is
    averaged (one value each), not a group to average in."""
    groups = re.findall(reading.lexicon.cues.get("group_by", r"(?!)"), reading.text)
    return bool(groups) and all(g[0] == "per" and re.fullmatch(reading.lexicon.label(label), g[-1])
                                for g in groups)


def average(reading: Reading) -> str | None:
    """The average of a number property over the asked nodes: "the average year of students",
    "average credits of the subjects Aarav studies". One label, one number property asked."""
    return _of_numbers(reading, "avg", "average")


def total(reading: Reading) -> str | None:
    """The sum of a number property: "the total credits of the subjects Payal takes"; a total
    of no number property ("the total number of students") is a count's."""
    return _of_numbers(reading, "sum", "total")


def _of_numbers(reading: Reading, function: str, name: str) -> str | None:
    targets = reading.targets()
    label = next((t for t in targets if all(t != e.label for e in reading.entities)), None)
    if label is None or (reading.has("each") and not (function == "avg" and _per_itself(reading, label))):
        return None
    numeric = [p for p in reading.asked_properties(label, reading.schema.labels.get(label, []))
               if f"{label}.{p}" in reading.schema.numbers]
    if len(numeric) != 1:
        return None
    body = conditions(reading, label, reading.entities)
    if body is None:
        return None
    match, conds = body
    return f"{match}{where(conds)}\nRETURN {function}(t.{numeric[0]}) AS {name}_{numeric[0]}"
