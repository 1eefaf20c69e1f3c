"""Validation: a proposal checked against the schema, each rejection with its sentence and reason.

Introduced in notebook 15. Whatever an extractor proposes is data, and the schema says what
data the graph may hold: a known label or relationship type, in the schema's direction,
with known properties of the right type and on the scale where there is one, and text of a
sane length. What fails is not dropped silently: it is a `Rejection` the diff shows.

>>> spec = Spec.load()
>>> wrong = RelFact("STUDIES", End("Subject", "DBMS"), End("Student", "Payal"), {}, "DBMS is studied by Payal.")
>>> kept, rejected = validate(Proposal("d", "example", relationships=[wrong]), spec)
>>> rejected[0].reason
'wrong direction: the schema has (Student)-[:STUDIES]->(Subject), not from Subject to Student'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from course.ingest.proposal import End, NodeFact, Proposal, RelFact  # noqa: F401 (End: the example)
from course.ingest.spec import SOURCE_LABEL, Spec

MAX_VALUE = 5_000          # characters in one text value (a note is a paragraph)
MAX_NAME = 120             # characters in a name


@dataclass(frozen=True)
class Rejection:
    """One proposed item that will not be written: what it was, where it came from, why."""

    item: str
    sentence: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"item": self.item, "sentence": self.sentence, "reason": self.reason}


def validate(proposal: Proposal, spec: Spec) -> tuple[Proposal, list[Rejection]]:
    """The proposal's valid items, and a Rejection for each of the others."""
    kept = Proposal(proposal.document, proposal.extractor, skipped=list(proposal.skipped))
    rejected: list[Rejection] = []
    for node in proposal.nodes:
        reason = node_problem(node, spec)
        if reason:
            rejected.append(Rejection(node.describe(), node.sentence, reason))
        else:
            kept.nodes.append(node)
    for rel in proposal.relationships:
        reason = relationship_problem(rel, spec)
        if reason:
            rejected.append(Rejection(rel.describe(), rel.sentence, reason))
        else:
            kept.relationships.append(rel)
    return kept, rejected


def node_problem(node: NodeFact, spec: Spec) -> str | None:
    """Why a proposed node cannot be written (None: it can)."""
    if node.label == SOURCE_LABEL:
        return f"{SOURCE_LABEL} nodes are written by the write door only, never proposed"
    if node.label not in spec.keys:
        return f"unknown label {node.label!r}: the schema has {', '.join(spec.keys)}"
    if not node.ref.strip():
        return f"a {node.label} needs a name (or its {spec.key(node.label)})"
    return _properties_problem(node.label, node.properties, spec) or _length_problem(node.ref, MAX_NAME)


def relationship_problem(rel: RelFact, spec: Spec) -> str | None:
    """Why a proposed relationship cannot be written (None: it can)."""
    kinds = {r.type for r in spec.relationships}
    if rel.type not in kinds:
        return f"unknown relationship type {rel.type!r}: the schema has {', '.join(sorted(kinds))}"
    for end in (rel.start, rel.end):
        if end.label not in spec.keys:
            return f"unknown label {end.label!r} at an end of {rel.type}"
        problem = _length_problem(end.name, MAX_NAME) if end.name.strip() else "an end has no name"
        if problem:
            return problem
    if spec.relationship(rel.type, rel.start.label, rel.end.label) is None:
        back = spec.relationship(rel.type, rel.end.label, rel.start.label)
        if back is not None:
            return (f"wrong direction: the schema has (:{back.start})-[:{rel.type}]->(:{back.end}), "
                    f"not from {rel.start.label} to {rel.end.label}").replace("(:", "(")
        allowed = [f"({r.start})-[:{r.type}]->({r.end})" for r in spec.relationships if r.type == rel.type]
        return f"{rel.type} does not join {rel.start.label} to {rel.end.label}: the schema has {', '.join(allowed)}"
    return _properties_problem(rel.type, rel.properties, spec)


def _properties_problem(owner: str, properties: dict[str, Any], spec: Spec) -> str | None:
    for name, value in properties.items():
        problem = spec.check_value(owner, name, value)
        if problem is None and isinstance(value, str):
            problem = _length_problem(value, MAX_VALUE)
        if problem:
            return problem
    return None


def _length_problem(text: str, most: int) -> str | None:
    if len(text) > most:
        return f"a value of {len(text):,} characters (at most {most:,}): not a fact of this graph"
    if any(ord(ch) < 32 and ch not in "\n\t" for ch in text):
        return "a value holding control characters: not text a document states"
    return None
