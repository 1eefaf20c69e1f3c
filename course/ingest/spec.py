"""What the graph may hold, read from data/college/schema.yaml: the contract every proposal is checked against.

Introduced in notebook 15. A `Spec` knows each label's key and typed properties, each
relationship type's ends and properties, and the scales (a grade is one of A+, A, B+, B, C).
`json_schema()` turns it into the JSON Schema a model's structured output must follow, so
the model is told the same rules the validator applies.

>>> spec = Spec.load()
>>> spec.key("Student"), spec.types_between("Student", "Skill")
('id', ['HAS_SKILL'])
>>> spec.check_value("STUDIES", "grade", "D")
"'D' is not on the scale of STUDIES.grade (A+, A, B+, B, C)"
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course.foundation.dataset import DATA_DIR, INGESTED_LABEL, load_schema

SOURCE_LABEL = INGESTED_LABEL  # the node that stands for an ingested document


@dataclass(frozen=True)
class Property:
    name: str
    type: str                        # "string" or "integer"
    description: str = ""
    scale: tuple[str, ...] = ()      # the only values allowed, when given


@dataclass(frozen=True)
class RelType:
    type: str
    start: str
    end: str
    description: str = ""
    properties: dict[str, Property] = field(default_factory=dict)


@dataclass(frozen=True)
class Spec:
    """The labels, keys and relationship types of the graph, with their properties."""

    keys: dict[str, str]
    properties: dict[str, dict[str, Property]]
    relationships: tuple[RelType, ...]
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def load(cls, data_dir: Path = DATA_DIR) -> Spec:
        """Read data/college/schema.yaml."""
        raw = load_schema(data_dir)
        props = {label: {name: _property(name, p) for name, p in spec["properties"].items()}
                 for label, spec in raw["labels"].items()}
        rels = tuple(RelType(r["type"], r["from"], r["to"], r.get("description", ""),
                             {n: _property(n, p) for n, p in (r.get("properties") or {}).items()})
                     for r in raw["relationships"])
        aliases = {str(k): tuple(map(str, v)) for k, v in (raw.get("aliases") or {}).items()}
        return cls({label: spec["key"] for label, spec in raw["labels"].items()}, props, rels,
                   aliases)

    def key(self, label: str) -> str:
        return self.keys[label]

    def name_property(self, label: str) -> str:
        """The property a reader names a node by: `name` where there is one, else the key."""
        return "name" if "name" in self.properties.get(label, {}) else self.keys[label]

    def types_between(self, start: str, end: str) -> list[str]:
        """The relationship types allowed from `start` to `end`, in the schema's order."""
        return [r.type for r in self.relationships if r.start == start and r.end == end]

    def relationship(self, kind: str, start: str, end: str) -> RelType | None:
        return next((r for r in self.relationships
                     if (r.type, r.start, r.end) == (kind, start, end)), None)

    def check_value(self, owner: str, name: str, value: Any) -> str | None:
        """Why a value cannot be stored as owner.name (None: it can). Owner: label or type."""
        prop = self._property_of(owner, name)
        if prop is None:
            return f"{owner} has no property {name!r}"
        if prop.type == "integer" and not (isinstance(value, int) and not isinstance(value, bool)):
            return f"{owner}.{name} must be a whole number, not {value!r}"
        if prop.type == "string" and not isinstance(value, str):
            return f"{owner}.{name} must be text, not {value!r}"
        if prop.scale and value not in prop.scale:
            return f"{value!r} is not on the scale of {owner}.{name} ({', '.join(prop.scale)})"
        return None

    def _property_of(self, owner: str, name: str) -> Property | None:
        if owner in self.properties:
            return self.properties[owner].get(name)
        found = [r.properties[name] for r in self.relationships
                 if r.type == owner and name in r.properties]
        return found[0] if found else None

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of a proposal: what a model's structured output must look like."""
        node = {"type": "object", "required": ["label", "properties", "sentence"],
                "properties": {"label": {"type": "string", "enum": sorted(self.keys)},
                               "properties": {"type": "object",
                                              "description": _describe_labels(self)},
                               "sentence": {"type": "string",
                                            "description": "the sentence it comes from, verbatim"}}}
        end = {"type": "object", "required": ["label", "name"],
               "properties": {"label": {"type": "string", "enum": sorted(self.keys)},
                              "name": {"type": "string"}}}
        relationship = {"type": "object", "required": ["type", "from", "to", "sentence"],
                        "properties": {"type": {"type": "string",
                                                "enum": sorted({r.type for r in self.relationships}),
                                                "description": _describe_types(self)},
                                       "from": end, "to": end,
                                       "properties": {"type": "object"},
                                       "sentence": {"type": "string"}}}
        return {"type": "object", "required": ["nodes", "relationships"],
                "properties": {"nodes": {"type": "array", "items": node},
                               "relationships": {"type": "array", "items": relationship}}}


def _property(name: str, raw: dict[str, Any]) -> Property:
    return Property(name, str(raw.get("type", "string")), str(raw.get("description", "")),
                    tuple(str(v) for v in raw.get("scale") or ()))


def _describe_labels(spec: Spec) -> str:
    return "; ".join(f"{label}: {', '.join(f'{p.name} ({p.type})' for p in props.values())}"
                     for label, props in spec.properties.items())


def _describe_types(spec: Spec) -> str:
    return "; ".join(f"(:{r.start})-[:{r.type}]->(:{r.end})" for r in spec.relationships)
