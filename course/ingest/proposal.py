"""A proposal: what an extractor says a document states, typed, each item with its sentence.

Introduced in notebook 15. Whoever extracts (the offline rules, or a model's structured
output) fills the same types: a `NodeFact` (a label and properties), a `RelFact` (a type and
its two ends, each named by label and name, with its properties), and a `Skip` for what was
read and not used, with the reason. Nothing here touches the graph: a proposal is data.

>>> fact = RelFact("MEMBER_OF", End("Student", "Aarav"), End("Club", "Photography Club"),
...                {"role": "Member"}, "Aarav joined the Photography Club as a Member.")
>>> fact.describe()
'(Student Aarav)-[:MEMBER_OF {role: Member}]->(Club Photography Club)'
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class End:
    """One end of a relationship, as the document names it."""

    label: str
    name: str

    def describe(self) -> str:
        return f"({self.label} {self.name})"


@dataclass
class NodeFact:
    """A node the document states: its label, its properties, the sentence it came from."""

    label: str
    properties: dict[str, Any]
    sentence: str
    how: str = ""           # which rule (or model) proposed it
    name: str = ""          # how the document names it ("" : its `name` property)

    @property
    def ref(self) -> str:
        """The name a relationship's end uses for this node."""
        return self.name or str(self.properties.get("name", ""))

    def describe(self) -> str:
        return f"({self.label} {_props(self.properties)})"


@dataclass
class RelFact:
    """A relationship the document states, from `start` to `end`."""

    type: str
    start: End
    end: End
    properties: dict[str, Any] = field(default_factory=dict)
    sentence: str = ""
    how: str = ""

    def describe(self) -> str:
        shown = f" {_props(self.properties)}" if self.properties else ""
        return f"{self.start.describe()}-[:{self.type}{shown}]->{self.end.describe()}"


@dataclass(frozen=True)
class Skip:
    """A sentence (or row) an extractor read and proposed nothing from, and why."""

    sentence: str
    reason: str


@dataclass
class Proposal:
    """Everything an extractor proposes for one document."""

    document: str
    extractor: str
    nodes: list[NodeFact] = field(default_factory=list)
    relationships: list[RelFact] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.nodes) + len(self.relationships)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _props(properties: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in properties.items()) + "}"
