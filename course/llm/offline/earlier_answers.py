"""What the conversation found before: the last answer's nodes, a value, the two just named.

Introduced in notebook 05, with the offline provider (its follow-ups are read in notebook 06,
with short-term memory): "their tools" after "Who uses the lathe?" are Asha's and Ravi's (the
nodes the last answer listed); "that one" after a count is what the question named; "dono ke
tools" are the tools of the two just named.

>>> turn = ("Who uses the lathe?", "MATCH (t:Person) RETURN t.name", '[["Asha"], ["Ravi"]]')
>>> last_answer(Prompt("their tools?", [], [], [turn], None, Schema()), Schema({"Person": ["name"]}))
Entity(label='Person', prop='name', value=('Asha', 'Ravi'))
"""
from __future__ import annotations

import json
import re

from course.llm.offline.cypher import VAR_LABEL, cypher_entities
from course.llm.offline.prompt import Entity, Prompt, Schema
from course.llm.sentinels import OUT_OF_SCOPE


# "dono", "both of them", "the two of them" in a question that names no one
BOTH = re.compile(r"\b(?:dono|both(?: of them)?|the two of them|th(?:ose|ese) two)\b")   # ("those two")


def the_two_named(prompt: Prompt) -> Entity | None:
    """The two things of one kind the conversation named last, as one group, or None."""
    for label in dict.fromkeys(e.label for e in prompt.recent):
        kind = [e for e in prompt.recent if e.label == label and not isinstance(e.value, tuple)]
        if len(kind) >= 2:
            return Entity(label, kind[0].prop, (kind[0].value, kind[1].value))
    return None


def found_a_value(prompt: Prompt) -> bool:
    """Did the last answer find rows (a count, a value), not nothing nor a refusal?"""
    try:
        rows = json.loads(prompt.turns[-1][2]) if prompt.turns else []
    except json.JSONDecodeError:
        return False
    return isinstance(rows, list) and bool(rows) and OUT_OF_SCOPE not in str(rows)


def last_answer(prompt: Prompt, schema: Schema, back: int = 1) -> Entity | None:
    """The nodes the last answer (or the one `back` turns ago) listed, as one entity whose
    value is a tuple of names.

    "Who works on it?" -> Karan, Rahul: RETURN t.name over (t:Person) gives
    Entity('Person', 'name', ('Karan', 'Rahul')). None when the rows are not names.
    """
    if len(prompt.turns) < back:
        return None
    _, cypher, result = prompt.turns[-back]
    m = re.search(r"\bRETURN (?:DISTINCT )?(\w+)\.(\w+)\b", cypher)
    label = dict(VAR_LABEL.findall(cypher)).get(m[1]) if m else None
    try:
        rows = json.loads(result)
    except json.JSONDecodeError:
        return None
    if not m or not label or m[2] != schema.display(label) or not isinstance(rows, list):
        return None
    names = tuple(dict.fromkeys(r[0] for r in rows if isinstance(r, list) and r
                                and isinstance(r[0], (str, int)) and r[0] != OUT_OF_SCOPE))
    if not names:
        return None
    return Entity(label, m[2], names if len(names) > 1 else names[0])


def narrowed_by(prompt: Prompt, group: Entity) -> tuple[tuple[str, Entity], ...]:
    """When `group` is what the last answer listed, the last query's links with the names it
    matched at their other ends ("who got B or above in Physics?": the grade's link, to Physics)."""
    if not isinstance(group.value, tuple) or not prompt.turns:
        return ()
    cypher = prompt.turns[-1][1]
    return tuple((link, named) for link in dict.fromkeys(re.findall(r"\[\w*:(\w+)", cypher))
                 for named in cypher_entities(cypher) if named.label != group.label)
