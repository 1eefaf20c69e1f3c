"""What the graph already holds, read once per review: every node by its name, and the values seen.

Introduced in notebook 15. The offline rules find names the graph knows in a sentence; entity
resolution matches a proposal's names against them; the diff compares properties. All three
read this one snapshot (plain reads through the read-only executor).

>>> names = read_names(db, Spec.load())
>>> names.nodes["Student"]["Payal"]["id"], sorted(names.values[("Student", "branch")])
('S02', ['CSE', 'ECE', 'IT'])
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from course.foundation.db import Database
from course.ingest.spec import Spec

MAX_NODES = 5_000      # per label: the course graph has 30 at most


@dataclass
class GraphNames:
    """label -> name -> properties; (label or type, property) -> the string values seen."""

    nodes: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    values: dict[tuple[str, str], set[str]] = field(default_factory=dict)

    def key_shapes(self, spec: Spec) -> dict[str, re.Pattern[str]]:
        """label -> the shape its keys share ("S01".."S05" -> S\\d\\d), for labels keyed by ids."""
        shapes: dict[str, re.Pattern[str]] = {}
        for label, found in self.nodes.items():
            keys = {str(p.get(spec.key(label), "")) for p in found.values()}
            forms = {re.sub(r"\d", r"\\d", k) for k in keys}
            if len(forms) == 1 and (form := forms.pop()).count(r"\d") >= 2 and form[0].isalpha():
                shapes[label] = re.compile(rf"^{form}$")
        return shapes

    def next_key(self, spec: Spec, label: str, taken: set[str]) -> str | None:
        """The next free id of a label keyed by ids ('C31' after C01..C30); None otherwise."""
        shape = self.key_shapes(spec).get(label)
        if shape is None:
            return None
        keys = [str(p[spec.key(label)]) for p in self.nodes[label].values()]
        prefix = re.match(r"^\D+", keys[0]).group(0)  # type: ignore[union-attr]
        width = len(keys[0]) - len(prefix)
        number = max(int(k[len(prefix):]) for k in keys) + 1
        while f"{prefix}{number:0{width}d}" in taken:
            number += 1
        return f"{prefix}{number:0{width}d}"


def read_names(db: Database, spec: Spec) -> GraphNames:
    """Every node of the schema's labels by its name, and every string value seen."""
    names = GraphNames()
    for label in spec.keys:
        rows = db.run(f"MATCH (n:{label}) RETURN properties(n)", max_rows=MAX_NODES).rows
        by_name = spec.name_property(label)
        names.nodes[label] = {str(p.get(by_name)): p for (p,) in rows if p.get(by_name) is not None}
        for prop in spec.properties[label].values():
            if prop.type == "string" and prop.name not in ("name", "text", spec.key(label)):
                names.values[(label, prop.name)] = {str(p[prop.name]) for (p,) in rows
                                                    if isinstance(p.get(prop.name), str)}
    for rel in spec.relationships:
        for prop in rel.properties.values():
            if prop.type == "string":
                rows = db.run(f"MATCH ()-[r:{rel.type}]->() WHERE r.{prop.name} IS NOT NULL "
                              f"RETURN DISTINCT r.{prop.name}", max_rows=MAX_NODES).rows
                names.values.setdefault((rel.type, prop.name), set()).update(str(v) for (v,) in rows)
    return names
