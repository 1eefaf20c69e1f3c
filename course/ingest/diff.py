"""The diff: what applying a document would change, shown before anything is written.

Introduced in notebook 15. New nodes, new relationships (each with its judge's confidence),
changed properties (old -> new), what is already there, the questions held back and the
rejected items, each with the sentence it came from. `apply` writes exactly this.

>>> d = Diff("notice.md@1", new_nodes=[{"label": "Club", "key": "Photography Club",
...          "properties": {"name": "Photography Club"}, "sentence": "..."}])
>>> d.size, d.lines()[1]
(1, '  + (Club Photography Club)')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from course.foundation.db import Database
from course.ingest.names import GraphNames
from course.ingest.resolution import NodeChange, Question, Ref, RelChange, Resolved
from course.ingest.spec import Spec
from course.ingest.validation import Rejection
from course.ingest.verification import VERIFIED_AT

SOURCE_PROPERTIES = ("source", "sentence", "confidence")   # what every written relationship carries


def ref_dict(ref: Ref) -> dict[str, Any]:
    return {"label": ref.label, "key": ref.key, "name": ref.name}


@dataclass
class Diff:
    document: str
    new_nodes: list[dict[str, Any]] = field(default_factory=list)
    new_relationships: list[dict[str, Any]] = field(default_factory=list)
    changed: list[dict[str, Any]] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)

    @property
    def size(self) -> int:
        """How many writes applying it makes (nodes, relationships, changed properties)."""
        return len(self.new_nodes) + len(self.new_relationships) + len(self.changed)

    def to_dict(self) -> dict[str, Any]:
        return {"new_nodes": self.new_nodes, "new_relationships": self.new_relationships,
                "changed": self.changed, "unchanged": self.unchanged,
                "conflicts": [q.to_dict() for q in self.questions]}

    def lines(self) -> list[str]:
        """The diff as text, one item a line: + new, ~ changed, = already there, ? asked, x rejected."""
        shown = [f"diff of {self.document}: {self.size} writes"]
        shown += [f"  + ({n['label']} {n['properties'].get('name') or n['key']})" for n in self.new_nodes]
        shown += [f"  + ({r['from']['name']})-[:{r['type']}{_props(r['properties'])}]->"
                  f"({r['to']['name']})  confidence {r['confidence']:.1f}" for r in self.new_relationships]
        shown += [f"  ~ {c['item']}.{c['property']}: {c['old']!r} -> {c['new']!r}" for c in self.changed]
        shown += [f"  = {item}" for item in self.unchanged]
        shown += [f"  ? {q.item}: {q.question}" for q in self.questions]
        shown += [f"  x {r.item}: {r.reason}" for r in self.rejected]
        return shown


def _props(props: dict[str, Any]) -> str:
    return " {" + ", ".join(f"{k}: {v}" for k, v in props.items()) + "}" if props else ""


def build_diff(db: Database, document: str, resolved: Resolved, names: GraphNames, spec: Spec, *,
               include_unverified: bool = False) -> Diff:
    """The diff of a resolved, judged proposal against the graph as it is."""
    diff = Diff(document, questions=list(resolved.questions), rejected=list(resolved.rejected))
    for node in resolved.nodes:
        _node(diff, node, names, spec)
    for rel in resolved.relationships:
        if (rel.confidence or 0.0) < VERIFIED_AT and not include_unverified:
            diff.rejected.append(Rejection(rel.fact.describe(), rel.fact.sentence,
                                           f"verification failed ({rel.confidence or 0.0:.1f}): "
                                           f"{rel.judged}; kept out unless you include unverified facts"))
            continue
        _relationship(db, diff, rel, spec)
    return diff


def _node(diff: Diff, node: NodeChange, names: GraphNames, spec: Spec) -> None:
    sentence = node.sentences[0] if node.sentences else ""
    if node.ref.new:
        diff.new_nodes.append({"label": node.ref.label, "key": node.ref.key,
                               "properties": node.properties, "sentence": sentence})
        return
    old = names.nodes[node.ref.label][node.ref.name]
    item = f"({node.ref.label} {node.ref.name})"
    changes = [(p, old.get(p), v) for p, v in node.properties.items() if old.get(p) != v]
    for prop, before, after in changes:
        diff.changed.append({"item": item, "target": ref_dict(node.ref), "property": prop,
                             "old": before, "new": after, "sentence": sentence})
    if not changes:
        diff.unchanged.append(item)


def _relationship(db: Database, diff: Diff, rel: RelChange, spec: Spec) -> None:
    props = dict(rel.fact.properties)
    record = {"type": rel.fact.type, "from": ref_dict(rel.start), "to": ref_dict(rel.end),
              "properties": props, "sentence": rel.fact.sentence,
              "confidence": rel.confidence or 0.0}
    old = None if rel.start.new or rel.end.new else existing(db, rel, spec)
    if old is None:
        if any(r["type"] == rel.fact.type and r["from"] == record["from"] and r["to"] == record["to"]
               for r in diff.new_relationships):
            return    # the document says it twice: written once
        diff.new_relationships.append(record)
        return
    item = f"({rel.start.name})-[:{rel.fact.type}]->({rel.end.name})"
    changes = [(p, old.get(p), v) for p, v in props.items() if old.get(p) != v]
    for prop, before, after in changes:
        diff.changed.append({"item": item, "target": {"type": rel.fact.type, "from": record["from"],
                                                      "to": record["to"]},
                             "property": prop, "old": before, "new": after,
                             "sentence": rel.fact.sentence, "confidence": rel.confidence or 0.0})
    if not changes:
        diff.unchanged.append(item)


def existing(db: Database, rel: RelChange, spec: Spec) -> dict[str, Any] | None:
    """The properties of the relationship already in the graph between the same two nodes."""
    a, b = rel.start, rel.end
    rows = db.run(f"MATCH (a:{a.label} {{{spec.key(a.label)}: $a}})-[r:{rel.fact.type}]->"
                  f"(b:{b.label} {{{spec.key(b.label)}: $b}}) RETURN properties(r) LIMIT 1",
                  {"a": a.key, "b": b.key}).rows
    return rows[0][0] if rows else None
