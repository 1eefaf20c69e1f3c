"""Small Cypher writers and readers for the offline provider (notebooks 05 and 09).

>>> node("x", Entity("Course", "name", "It's Physics"))
("(x:Course {name: 'It\\\\'s Physics'})", [])
>>> cypher_entities("MATCH (s:Course {name: 'Physics'}) RETURN s.code")
[Entity(label='Course', prop='name', value='Physics')]
"""
from __future__ import annotations

import re
from typing import Any

from course.llm.offline.prompt import Entity, Pattern, Schema, literal_value


def lit(value: Any) -> str:
    """A Cypher literal: 'it\\'s', 42."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def node(var: str, entity: Entity | None = None, label: str | None = None, *,
         relaxed: bool = False) -> tuple[str, list[str]]:
    """`(var:Label {name: 'X'})` and no condition; relaxed: `(var:Label)` + toLower CONTAINS."""
    label = label or (entity.label if entity else "")
    if entity is None:
        return f"({var}:{label})", []
    if isinstance(entity.value, tuple):      # a group: "their" = everyone the last answer named
        return f"({var}:{label})", [f"{var}.{entity.prop} IN [{', '.join(map(lit, entity.value))}]"]
    if relaxed and isinstance(entity.value, str):
        return f"({var}:{label})", [f"toLower({var}.{entity.prop}) CONTAINS toLower({lit(entity.value)})"]
    return f"({var}:{label} {{{entity.prop}: {lit(entity.value)}}})", []


def arrow(pattern: Pattern, left_label: str, rel: str = "", *, direction: str = "") -> str:
    """The relationship between a node of `left_label` (on the left) and the other end."""
    body = f"[{rel}:{pattern.type}]"
    if pattern.start == pattern.end:
        return {"out": f"-{body}->", "in": f"<-{body}-"}.get(direction, f"-{body}-")
    return f"-{body}->" if pattern.start == left_label else f"<-{body}-"


def where(conditions: list[str]) -> str:
    return f"\nWHERE {' AND '.join(conditions)}" if conditions else ""


def alias(label: str, prop: str) -> str:
    """The column name for a property: the label's name for a naming property, else the property."""
    return label.lower() if prop in ("name", "title") else prop


def plural(label: str) -> str:
    return label.lower() + "s"


def rank_case(expr: str, scale: list[str]) -> str:
    """ORDER BY position in a VALUE SCALE: CASE r.grade WHEN 'A+' THEN 0 ... END."""
    whens = " ".join(f"WHEN {lit(v)} THEN {i}" for i, v in enumerate(scale))
    return f"CASE {expr} {whens} ELSE {len(scale)} END"


def exclude(var: str, entities: list[Entity]) -> list[str]:
    """`t.name <> 'X'` for each node "who else" leaves out."""
    return [f"{var}.{e.prop} <> {lit(v)}" for e in entities
            for v in (e.value if isinstance(e.value, tuple) else (e.value,))]


_INLINE = re.compile(r"\((\w*):(\w+) \{(\w+): ('(?:[^'\\\\]|\\\\.)*'|-?\d+)\}\)")
VAR_LABEL = re.compile(r"\((\w+):(\w+)")
_COMPARED = re.compile(r"(?:toLower\()?(\w+)\.(\w+)\)? *(?:=|CONTAINS) *(?:toLower\()?"
                       r"('(?:[^'\\\\]|\\\\.)*')")


def cypher_entities(cypher: str) -> list[Entity]:
    """The named values a Cypher query matches on, with their labels."""
    labels = dict(VAR_LABEL.findall(cypher))
    found = [Entity(m[2], m[3], literal_value(m[4])) for m in _INLINE.finditer(cypher)]
    found += [Entity(labels[m[1]], m[2], literal_value(m[3])) for m in _COMPARED.finditer(cypher)
              if m[1] in labels]
    return list(dict.fromkeys(found))


def valid(query: str, schema: Schema) -> bool:
    """Every label and relationship type the query names exists in the schema."""
    types = {p.type for p in schema.patterns}
    labels = set(schema.labels)
    named_types = set(re.findall(r"\[\w*:(\w+)", query))
    named_labels = set(re.findall(r"\(\w*:(\w+)", query))
    return (not labels or named_labels <= labels) and (not types or named_types <= types)


def returned(query: str) -> tuple[set[str], set[str], bool]:
    """(labels, properties, counts) the RETURN clauses give back: `RETURN t.name, r0.role`
    over (t:Team) -> ({'Team'}, {'name', 'role'}, False)."""
    labels = {v: label for v, label in VAR_LABEL.findall(query)}
    shown_labels, props, counts = set(), set(), False
    for clause in re.findall(r"\bRETURN (.*)", query):
        counts = counts or bool(re.search(r"\bcount\(", clause))
        for var, prop in re.findall(r"(?<![\w.])(\w+)\.(\w+)", clause):
            props.add(prop)
            if var in labels:
                shown_labels.add(labels[var])
        if "nodes(" in clause:                                  # [n IN nodes(path) | n.name]
            shown_labels.update(labels.values())
    return shown_labels, props, counts


def count_column(pattern: str, counted: str, group: str, loop: str | None) -> str:
    """The column name of a count of `counted` per `group`: the label's plural, or, for a link of
    a label to itself, the first word of the link's name, which names the nodes the link starts
    from ("requirements" of REQUIREMENT_FOR); counted where it leads ("->(k"), they are only nodes.

    >>> count_column("(g:Topic)-[:REQUIREMENT_FOR]->(k:Topic)", "Topic", "Topic", "REQUIREMENT_FOR")
    'topics'
    """
    toward = "->(k:" in pattern
    return plural(counted) if counted != group or toward else loop_noun(loop or "")


def loop_noun(rel_type: str) -> str:
    """A column name for what a same-label link counts.

    >>> loop_noun("KNOWS_ABOUT")
    'knows'
    """
    word = rel_type.split("_")[0].lower()
    return word if word.endswith("s") else word + "s"
