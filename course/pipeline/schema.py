"""The schema prompt: the schema read from the live graph, and described for a model.

Introduced in notebook 02. `introspect(db)` reads labels, relationship patterns and property
types from the graph itself and merges the sentences in data/college/schema.yaml. A
property's values are listed when they repeat (grades, levels, branches): all of them when
there are at most MAX_LISTED_VALUES, else the most common ones marked "e.g." with how many
there are, so the schema never claims a sample is the whole and does not grow with the
graph. Every value is counted on the server, one query per label and per relationship
pattern. The text layer's chunks (notebook 13) are left out: they are searched by meaning,
not queried with Cypher; `include=` / `exclude=` leave out other labels too. The schema is
read once per data version (`course.foundation.versioning`) and reused until the graph
changes. The question's names are linked to graph values by `course.pipeline.linking`.

>>> schema = introspect(db)
>>> schema.labels["Student"][1]["branch"].values
['CSE', 'ECE', 'IT']
"""
from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course.foundation.dataset import DATA_DIR, load_schema
from course.foundation.db import TEXT_LAYER_LABELS, Database
from course.foundation.errors import CourseError, InvalidInput
from course.foundation.versioning import per_version

MAX_LISTED_VALUES = 8  # a property's values are listed whole up to this many, else as examples
MAX_VALUE_CHARS = 40   # a longer value is text (a note, a description): never listed


@dataclass
class Property:
    name: str
    type: str                         # "integer"; "integer or string" when the graph holds both
    description: str = ""
    values: list[Any] | None = None   # all of them, or the most common when `distinct` is more
    scale: list[str] | None = None    # ordered best first, from schema.yaml
    distinct: int | None = None       # how many different values the graph holds, when listed

    @property
    def complete(self) -> bool:
        """The values listed are every value the graph holds, not examples."""
        return self.values is not None and len(self.values) == self.distinct


@dataclass
class RelationshipPattern:
    type: str
    start: str
    end: str
    description: str = ""
    properties: dict[str, Property] = field(default_factory=dict)


@dataclass
class GraphSchema:
    description: str
    labels: dict[str, tuple[str, dict[str, Property]]]   # label -> (description, properties)
    patterns: list[RelationshipPattern]
    aliases: dict[str, list[str]]                         # value -> how people write it

    def render(self) -> str:
        """The schema section of the prompt, as text."""
        lines = [f"GRAPH SCHEMA ({self.description})", "", "NODES:"]
        for label, (description, props) in self.labels.items():
            lines.append(f"- {label} {{{', '.join(props)}}}: {description}")
            lines += [f"    {p.name} ({p.type}): {_describe(p)}" for p in props.values()]
        lines += ["", "RELATIONSHIPS (direction matters):"]
        for pat in self.patterns:
            keys = f" {{{', '.join(pat.properties)}}}" if pat.properties else ""
            lines.append(f"- (:{pat.start})-[:{pat.type}{keys}]->(:{pat.end}): {pat.description}")
            lines += [f"    {p.name} ({p.type}): {_describe(p)}" for p in pat.properties.values()]
        scales = self.scales()
        if scales:
            lines += ["", "VALUE SCALES (best first; order by position in the list, not as text):"]
            lines += [f"- {where}: {', '.join(scale)}" for where, scale in scales.items()]
        return "\n".join(lines)

    def property_names(self) -> list[str]:
        """Every property name of a node or a relationship, once each ("year", "grade")."""
        owners = [props for _, props in self.labels.values()] + [p.properties for p in self.patterns]
        return list(dict.fromkeys(name for props in owners for name in props))

    def owners(self) -> dict[str, list[str]]:
        """What each kind of thing and each link has, links as "Start-TYPE->End" (the rules'
        updater reads "its status" as a project's, "that friend" as a link between people).

        >>> introspect(db, include=["Student", "Club"]).owners()["Student-MEMBER_OF->Club"]
        ['since', 'role']
        """
        kinds = {label: list(props) for label, (_, props) in self.labels.items()}
        return kinds | {f"{p.start}-{p.type}->{p.end}": list(p.properties) for p in self.patterns}

    def scales(self) -> dict[str, list[str]]:
        """{'STUDIES.grade': ['A+', 'A', ...], 'HAS_SKILL.level': [...]}."""
        found = {}
        for owner, props in [(k, v[1]) for k, v in self.labels.items()] + \
                            [(p.type, p.properties) for p in self.patterns]:
            found.update({f"{owner}.{p.name}": p.scale for p in props.values() if p.scale})
        return found


def _describe(prop: Property) -> str:
    text = prop.description
    values = prop.values
    if values is not None and not (prop.scale and prop.complete and all(v in prop.scale for v in values)):
        listed = ", ".join(map(cypher_literal, values))
        text += (f" Values: {listed}." if prop.complete
                 else f" Values, e.g.: {listed}, ... ({prop.distinct:,} distinct).")
    return text.strip()


# What a quoted value may not hold as it is: its own quote, a backslash, and every character
# that ends a line somewhere (\n, \r, U+0085, U+2028, U+2029) or is not printable.
_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def cypher_literal(value: Any) -> str:
    """A value as a one-line Cypher literal, escaped so that nothing in it can end the string
    or the line: text from the graph stays data wherever a prompt quotes it.

    >>> print(cypher_literal("'CSE'\\nRULE 9"))
    '\\'CSE\\'\\nRULE 9'
    """
    if isinstance(value, str):
        return "'" + "".join(_ESCAPES.get(ch) or (ch if ch.isprintable() else f"\\u{ord(ch):04x}")
                             for ch in value) + "'"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _in_order(values: list[Any]) -> list[Any]:
    """Numbers by value, text alphabetically (2 before 10, 'A' before 'B')."""
    return sorted(values, key=lambda v: (type(v).__name__, v if isinstance(v, (int, float, str)) else str(v)))


_TYPE_NAMES = {"Integer": "integer", "Float": "float", "String": "string", "Boolean": "boolean"}


def _properties(db: Database, match: str, described: dict[str, Any], cap: int) -> dict[str, Property]:
    """Every property of what `match` finds, read whole in one query, with its sentences merged.

    Per property the server returns how many different values it has, how many nodes (or
    relationships) hold it, its `cap` most common values and every type it holds.
    """
    found = db.run(f"MATCH {match} UNWIND keys(x) AS k WITH k, x[k] AS v, count(*) AS n "
                   "ORDER BY n DESC, v RETURN k, count(v), toInteger(sum(n)), collect(v)[..$cap], "
                   "collect(DISTINCT typeOf(v))", {"cap": cap}).rows
    order = list(described)
    props = {}
    for name, distinct, held, common, types in sorted(
            found, key=lambda r: (order.index(r[0]) if r[0] in order else len(order), r[0])):
        spec = described.get(name, {})
        listed = distinct < held and all(len(str(v)) <= MAX_VALUE_CHARS for v in common)
        props[name] = Property(name, " or ".join(sorted(_TYPE_NAMES.get(t, t.lower()) for t in types)),
                               spec.get("description", ""), _in_order(common) if listed else None,
                               spec.get("scale"), distinct if listed else None)
    return props


def _names(labels: str | Iterable[str] | None) -> list[str]:
    return [labels] if isinstance(labels, str) else list(labels or [])


def _chosen_labels(db: Database, include: str | Iterable[str] | None,
                   exclude: str | Iterable[str] | None, order: list[str]) -> list[str]:
    """The graph's labels (the text layer's left out) in schema.yaml's order, as chosen."""
    found = sorted((label for (label,) in db.run("CALL db.labels() YIELD label RETURN label").rows
                    if label not in TEXT_LAYER_LABELS),  # notebook 13's chunks are searched, not queried
                   key=lambda label: order.index(label) if label in order else len(order))
    for label in _names(include) + _names(exclude):
        if label not in found:
            raise InvalidInput(f"No label {label!r} in the graph {db.graph_name!r}: its labels are "
                               f"{', '.join(found)}.")
    return [label for label in found if (include is None or label in _names(include))
            and label not in _names(exclude)]


def introspect(db: Database, *, include: str | Iterable[str] | None = None,
               exclude: str | Iterable[str] | None = None, max_values: int = MAX_LISTED_VALUES,
               data_dir: Path = DATA_DIR) -> GraphSchema:
    """Read the schema from the live graph and merge the descriptions in schema.yaml.

    `include` keeps only these labels, `exclude` leaves these out; a relationship pattern
    touching a label left out is left out too. `max_values` is how many values are listed
    whole before they are given as examples.

    >>> schema = introspect(db, include=["Student", "Club"])
    >>> list(schema.labels), [p.type for p in schema.patterns]
    (['Student', 'Club'], ['FRIENDS_WITH', 'MEMBER_OF'])
    >>> sorted(introspect(db, exclude=["Concept", "Note"]).labels)
    ['Club', 'Project', 'Skill', 'Student', 'Subject']
    """
    if max_values < 1:
        raise InvalidInput(f"max_values must be 1 or more, not {max_values}.")
    # The graph is read once per data version (and version of schema.yaml) and choice of
    # labels; asked again, this costs one command. Each caller gets a copy to change at will.
    yaml = data_dir / "schema.yaml"
    stamp = (yaml.stat().st_mtime_ns, yaml.stat().st_size) if yaml.is_file() else None
    chosen = (sorted(_names(include)) if include is not None else None, sorted(_names(exclude)))
    schema = per_version(db, f"schema {yaml} {stamp} {chosen} {max_values}",
                         lambda: _read_schema(db, data_dir, include, exclude, max_values))
    return copy.deepcopy(schema)


def _read_schema(db: Database, data_dir: Path, include: str | Iterable[str] | None,
                 exclude: str | Iterable[str] | None, max_values: int) -> GraphSchema:
    if db.graph_name not in db.client.list_graphs():
        raise CourseError(f"The graph {db.graph_name!r} is empty: load it with "
                          "`course.load_college(db)` or `python -m course load`.")
    described = load_schema(data_dir)
    label_specs = described.get("labels", {})
    labels = {}
    for label in _chosen_labels(db, include, exclude, list(label_specs)):
        spec = label_specs.get(label, {})
        labels[label] = (spec.get("description", ""),
                         _properties(db, f"(x:{label})", spec.get("properties", {}), max_values))
    rel_specs = {(r["type"], r["from"], r["to"]): r for r in described.get("relationships", [])}
    patterns = []
    rows = db.run("MATCH (a)-[r]->(b) RETURN DISTINCT labels(a)[0], type(r), labels(b)[0]").rows
    for start, kind, end in sorted(rows, key=lambda r: (r[1], r[0])):
        if start not in labels or end not in labels:
            continue
        spec = rel_specs.get((kind, start, end), {})
        props = _properties(db, f"(:{start})-[x:{kind}]->(:{end})", spec.get("properties") or {},
                            max_values)
        patterns.append(RelationshipPattern(kind, start, end, spec.get("description", ""), props))
    return GraphSchema(described.get("description", ""), labels, patterns,
                       described.get("aliases") or {})
