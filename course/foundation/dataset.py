"""Load the college graph from data/college/: CSV files in, parameterised UNWIND batches out.

Introduced in notebook 01. Values never go into the query text: each batch is one query
with a `$rows` parameter, and every node is MERGEd on its key, so loading twice changes
nothing. `synthetic_college(scale)` makes a larger look-alike graph for notebook 02.

>>> counts = load_college(db)          # db = course.connect()
>>> counts["nodes"], counts["relationships"]
(75, 132)
"""
from __future__ import annotations

import copy
import csv
import random
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import yaml

from course.foundation.config import PROJECT_ROOT
from course.foundation.db import Database, not_text_layer, version_key
from course.foundation.errors import DataFileError, QueryFailed, QueryTimedOut
from course.foundation.graphs import require_data_graph

DATA_DIR = PROJECT_ROOT / "data" / "college"
BATCH_SIZE = 500
CONCEPT_LABELS = ("Concept", "Note")  # the second part of the graph (notebook 01)
FULLTEXT_PROPERTY = {"Student": "name", "Subject": "name", "Club": "name", "Skill": "name",
                     "Project": "name", "Concept": "name"}
# Full-text over text (not names): the notes' explanations, searched by notebook 12's search_notes.
TEXT_PROPERTY = {"Note": "text"}
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# What notebook 15's write door adds beside each ingested document; a reload drops what such
# documents wrote unless asked to keep it (`load --keep-ingested`).
INGESTED_LABEL = "Document"


@dataclass
class RelationshipSet:
    type: str
    from_label: str
    to_label: str
    rows: list[dict[str, Any]]  # each: {"from": key, "to": key, "props": {...}}


@dataclass
class Dataset:
    """A graph as plain data: node rows per label, relationship rows per (from, type, to)."""

    keys: dict[str, str]                        # label -> key property
    nodes: dict[str, list[dict[str, Any]]]      # label -> property dicts
    relationships: list[RelationshipSet] = field(default_factory=list)

    def part(self, labels: Iterable[str]) -> "Dataset":
        """The sub-dataset on these labels (relationships with both ends among them)."""
        keep = set(labels)
        return Dataset(
            {k: v for k, v in self.keys.items() if k in keep},
            {k: v for k, v in self.nodes.items() if k in keep},
            [r for r in self.relationships if r.from_label in keep and r.to_label in keep],
        )


def load_schema(data_dir: Path = DATA_DIR) -> dict[str, Any]:
    """The data folder's schema.yaml, a copy of its own for each caller.

    The file is parsed again only when it changes (its modification time or size): every
    agent reads it when it starts, and parsing YAML takes longer than copying what it gave.
    """
    path = data_dir / "schema.yaml"
    try:
        stat = path.stat()
        stamp, name = (stat.st_mtime_ns, stat.st_size), str(path.resolve())
        if name not in _SCHEMAS or _SCHEMAS[name][0] != stamp:
            _SCHEMAS[name] = (stamp, yaml.safe_load(path.read_text(encoding="utf-8")))
        return copy.deepcopy(_SCHEMAS[name][1])
    except (OSError, yaml.YAMLError) as exc:
        raise DataFileError(f"{path.name}: cannot be read ({exc}).") from exc


_SCHEMAS: dict[str, tuple[tuple[int, int], Any]] = {}   # file -> ((modified, size), its content)


def _convert(value: str, kind: str, where: str) -> Any:
    if kind == "integer":
        try:
            return int(value)
        except ValueError:
            raise DataFileError(f"{where}: expected a whole number, got {value!r}.") from None
    return value


def _read_csv(path: Path, types: dict[str, str]) -> list[tuple[int, dict[str, Any]]]:
    """(line number, typed row) for each data line; a broken line names file and line."""
    rows = []
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if not header:
            raise DataFileError(f"{path.name}: the file is empty; it needs a header line.")
        for row in reader:
            where = f"{path.name}, line {reader.line_num}"
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise DataFileError(f"{where}: {len(row)} values for {len(header)} columns "
                                    f"({', '.join(header)}). Check for a missing comma or quote.")
            rows.append((reader.line_num, {
                name: _convert(cell, types.get(name, "string"), f"{where}, column {name}")
                for name, cell in zip(header, row)}))
    return rows


def read_dataset(data_dir: Path = DATA_DIR) -> Dataset:
    """Read schema.yaml and the CSV files into a Dataset, checking keys and endpoints."""
    schema = load_schema(data_dir)
    keys: dict[str, str] = {}
    nodes: dict[str, list[dict[str, Any]]] = {}
    known: dict[str, set[Any]] = {}
    for label, spec in schema["labels"].items():
        path = data_dir / "nodes" / f"{label}.csv"
        types = {name: p.get("type", "string") for name, p in spec["properties"].items()}
        lines = _read_csv(path, types)
        keys[label], nodes[label] = spec["key"], [row for _, row in lines]
        known[label] = set()
        for line, row in lines:
            key = row.get(spec["key"])
            if key in (None, "") or key in known[label]:
                raise DataFileError(f"{path.name}, line {line}: the key {spec['key']!r} is "
                                    f"missing or repeated ({key!r}).")
            known[label].add(key)
    rels = [_read_relationships(data_dir, spec, known) for spec in schema["relationships"]]
    return Dataset(keys, nodes, rels)


def _read_relationships(data_dir: Path, spec: dict, known: dict[str, set]) -> RelationshipSet:
    path = data_dir / "relationships" / f"{spec['from']}-{spec['type']}-{spec['to']}.csv"
    types = {name: p.get("type", "string") for name, p in (spec.get("properties") or {}).items()}
    rows = []
    for line, row in _read_csv(path, types):
        start, end = row.pop("from", None), row.pop("to", None)
        for label, key in ((spec["from"], start), (spec["to"], end)):
            if key not in known[label]:
                raise DataFileError(f"{path.name}, line {line}: no {label} with key {key!r}.")
        rows.append({"from": start, "to": end, "props": row})
    return RelationshipSet(spec["type"], spec["from"], spec["to"], rows)


def _batches(rows: list, size: int = BATCH_SIZE) -> Iterable[list]:
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


def write_dataset(db: Database, data: Dataset) -> None:
    """MERGE every node on its key and every relationship on its endpoints, in batches."""
    for label, key in data.keys.items():
        _check_names(label, key)
        if not _has_index(db, label, key):
            db.query(f"CREATE INDEX FOR (n:{label}) ON (n.{key})")
        for batch in _batches(data.nodes[label]):
            db.query(f"UNWIND $rows AS row MERGE (n:{label} {{{key}: row.{key}}}) SET n += row",
                     {"rows": batch})
    for rel in data.relationships:
        _check_names(rel.type, rel.from_label, rel.to_label)
        a_key, b_key = data.keys[rel.from_label], data.keys[rel.to_label]
        query = (f"UNWIND $rows AS row MATCH (a:{rel.from_label} {{{a_key}: row.from}}) "
                 f"MATCH (b:{rel.to_label} {{{b_key}: row.to}}) "
                 f"MERGE (a)-[r:{rel.type}]->(b) SET r += row.props")
        for batch in _batches(rel.rows):
            db.query(query, {"rows": batch})


def _check_names(*names: str) -> None:
    # Labels and types cannot be query parameters, so they must be plain identifiers.
    for name in names:
        if not _IDENTIFIER.match(name):
            raise DataFileError(f"{name!r} is not a valid label, type or property name.")


def _has_index(db: Database, label: str, prop: str, kind: str = "RANGE") -> bool:
    rows = db.query("CALL db.indexes() YIELD label, properties, types RETURN label, properties, types")
    for found_label, props, types in rows.result_set:
        if found_label == label and prop in props and kind in str(types.get(prop, [])):
            return True
    return False


def create_fulltext_indexes(db: Database, labels: Iterable[str]) -> None:
    """Full-text indexes on names, used by entity linking (notebook 02), and on note text."""
    for label in labels:
        prop = FULLTEXT_PROPERTY.get(label) or TEXT_PROPERTY.get(label)
        if prop and not _has_index(db, label, prop, "FULLTEXT"):
            db.query(f"CALL db.idx.fulltext.createNodeIndex('{label}', '{prop}')")


def reset(db: Database) -> None:
    """Delete the whole graph (data and indexes). The next load starts from nothing."""
    if db.graph_name in db.client.list_graphs():
        db.transaction(("GRAPH.DELETE", db.graph_name),
                       ("HINCRBY", version_key(db.graph_name), "writes", 1))


@contextmanager
def _loading(db: Database) -> Iterator[None]:
    """One loader at a time per graph, across processes (forty notebooks starting at once)."""
    with db.lock(f"loading:{db.graph_name}", timeout_s=300):
        yield


loading = _loading  # the same lock, for what else writes a graph (notebook 13's text layer)


def staging_name(graph_name: str) -> str:
    """Where a load is built before it replaces the graph: 'college' -> 'college__staging'."""
    return f"{graph_name}__staging"


def copy_graph(db: Database, source: str, target: str, *, wait_s: float = 60.0) -> None:
    """GRAPH.COPY `source` to `target` (which must not exist), waiting out a background save.

    FalkorDB copies a graph in a forked process, and the server cannot fork while it is already
    saving in the background (rewriting its append-only file): "could not fork". That lasts
    moments on an idle machine and many seconds on a busy one, so the copy is tried again,
    less often as time goes on, for up to `wait_s` seconds.

    The fork is FalkorDB's weak spot under reads: in FalkorDB 4.22 a copy made while queries
    read the same graph can hang for good (the child waits on a lock a reader held at the
    fork), and a DUMP/RESTORE copy made then can crash the server; `bench/bench_copy.py`
    shows both. A learner's graph is rarely read while it is being reloaded, so the loader
    keeps GRAPH.COPY, the one of the two that loses nothing when it fails.
    """
    waited, pause = 0.0, 0.05
    while True:
        try:
            db.command("GRAPH.COPY", source, target)
            return
        except QueryTimedOut:
            # A busy server answers late, but it still makes the copy: wait for it to appear.
            if not _appears(db, target, wait_s):
                raise
            return
        except QueryFailed as exc:
            if "could not fork" not in str(exc) or waited >= wait_s:
                raise
        time.sleep(pause)
        waited += pause
        pause = min(pause * 2, 1.0)


def _appears(db: Database, graph: str, wait_s: float) -> bool:
    """Does `graph` exist within `wait_s` seconds?"""
    waited = 0.0
    while graph not in db.client.list_graphs():
        if waited >= wait_s:
            return False
        time.sleep(0.5)
        waited += 0.5
    return True


def swap_in(db: Database, staging: Database) -> None:
    """Replace db's graph by the staging one at once (a key RENAME, atomic in Redis).

    A reader sees the old graph or the new one, never half of either. FalkorDB's GRAPH.COPY
    is not enough on its own: it refuses an existing destination, so the old graph would
    have to be deleted first, and a reader would find nothing in between.
    """
    # The write is counted in the same transaction (course.foundation.versioning): nobody sees
    # the new graph with the old graph's data version.
    db.transaction(("RENAME", staging.graph_name, db.graph_name),
                   ("HINCRBY", version_key(db.graph_name), "writes", 1),
                   ("DEL", version_key(staging.graph_name)))


def load_college(db: Database, *, reset_first: bool = False, part: str = "all",
                 data_dir: Path = DATA_DIR,
                 also: Callable[[Database], dict[str, Any]] | None = None,
                 keep_ingested: bool = False) -> dict[str, Any]:
    """Load the college graph (idempotent) and return its counts.

    part="people" loads only the first part (students, subjects, clubs, skills, projects).
    The load is built in a staging graph (from nothing with reset_first, else from a copy of
    the graph as it is) and swapped in when complete, so whoever reads the graph meanwhile
    gets the old one or the new one, never a half-loaded one. `also`, if given, runs on the
    staging graph before the swap and its counts are reported beside the graph's (the command
    line's `load` builds notebook 13's text layer that way). A graph holding
    ingested documents (notebook 15) is rebuilt from nothing too, unless `keep_ingested`.
    """
    require_data_graph(db.graph_name)   # never load over a user's stored conversation
    if part not in ("all", "people"):
        raise ValueError('part must be "all" or "people"')
    data = read_dataset(data_dir)  # a broken file fails before anything is written
    if part == "people":
        data = data.part(label for label in data.keys if label not in CONCEPT_LABELS)
    with _loading(db):
        staging = db.select(staging_name(db.graph_name))
        graphs = db.client.list_graphs()
        if staging.graph_name in graphs:   # left by a load that was interrupted
            db.command("GRAPH.DELETE", staging.graph_name)
        fresh = reset_first or (not keep_ingested and _has_ingested(db, graphs))
        if not fresh and db.graph_name in graphs:   # keep what is there, add what is not
            copy_graph(db, db.graph_name, staging.graph_name)
        write_dataset(staging, data)
        create_fulltext_indexes(staging, data.keys)
        layer = also(staging) if also else {}
        swap_in(db, staging)
    return {**graph_counts(db), **layer}


def _has_ingested(db: Database, graphs: list[str]) -> bool:
    return db.graph_name in graphs and bool(
        db.run(f"MATCH (d:{INGESTED_LABEL}) RETURN count(d) > 0").rows[0][0])


def ensure_college(db: Database) -> None:
    """Load the college graph unless it is there (the CLI's first run; an emptied graph)."""
    require_data_graph(db.graph_name)
    with _loading(db):
        present = db.graph_name in db.client.list_graphs() and db.counts()["nodes"] > 0
    if not present:
        load_college(db)
    elif not _has_index(db, "Note", TEXT_PROPERTY["Note"], "FULLTEXT"):  # loaded before it existed
        create_fulltext_indexes(db, TEXT_PROPERTY)


def graph_counts(db: Database) -> dict[str, Any]:
    """{"nodes": 75, "relationships": 132, "labels": {...}, "types": {...}}."""
    # The text layer (notebook 13) is reported beside these counts, never in them.
    labels = db.query(f"MATCH (n) WHERE {not_text_layer('n')} "
                      "RETURN labels(n)[0] AS label, count(*) ORDER BY label")
    types = db.query(f"MATCH (a)-[r]->(b) WHERE {not_text_layer('a', 'b')} "
                     "RETURN type(r) AS type, count(*) ORDER BY type")
    by_label = {label: n for label, n in labels.result_set}
    by_type = {kind: n for kind, n in types.result_set}
    return {"nodes": sum(by_label.values()), "relationships": sum(by_type.values()),
            "labels": by_label, "types": by_type, "graph": db.graph_name}


def synthetic_college(scale: int, *, seed: int = 7, data_dir: Path = DATA_DIR) -> Dataset:
    """A look-alike of the college graph `scale` times larger (same schema, made-up names).

    Used to show that a prompt listing every value grows with the graph (notebook 02).
    """
    base = read_dataset(data_dir)
    rng = random.Random(seed)
    nodes: dict[str, list[dict[str, Any]]] = {}
    for label, rows in base.nodes.items():
        key = base.keys[label]
        nodes[label] = [
            {**row, key: f"{row[key]}-{copy}" if copy else row[key],
             **({"name": f"{row['name']} {copy}"} if copy and "name" in row else {})}
            for copy in range(scale) for row in rows
        ]
    rels = []
    for rel in base.relationships:
        a_keys = [r[base.keys[rel.from_label]] for r in nodes[rel.from_label]]
        b_keys = [r[base.keys[rel.to_label]] for r in nodes[rel.to_label]]
        pairs = {(rng.choice(a_keys), rng.choice(b_keys)) for _ in range(len(rel.rows) * scale)}
        rows = [{"from": a, "to": b, "props": rng.choice(rel.rows)["props"]} for a, b in sorted(pairs)]
        rels.append(RelationshipSet(rel.type, rel.from_label, rel.to_label, rows))
    return Dataset(dict(base.keys), nodes, rels)


def write_synthetic_college(db: Database, scale: int) -> Database:
    """Write `synthetic_college(scale)` and its full-text indexes into db's (empty) graph.

    The larger graphs of notebook 02's prompt sizes and the benchmarks; no text layer.
    """
    data = synthetic_college(scale)
    write_dataset(db, data)
    create_fulltext_indexes(db, data.keys)
    return db
