"""The write door: a reviewed diff written as parameterised MERGE batches, whole or not at all; undo by source.

Introduced in notebook 15. The one module of the package that writes what a document said
into the graph (the CSV loader is the other writer, of the course's own data). What it
writes is a `Diff` that was shown first; the Cypher is its own, with every value a
parameter, and labels and types only from the schema. A model's text is never Cypher.

- **Whole or not at all**: the graph is copied (GRAPH.COPY) into a scratch graph, the diff
  written there, and the copy swapped in with the loader's atomic RENAME; a failure on the
  way deletes the copy and leaves the graph as it was. The swap counts the write beside the
  graph, so the data version changes and every cache and name index notices.
- **Sources**: a `(:Document {id, name, kind, record})` node, `-[:MENTIONS {sentence}]->`
  every node it created or changed; every relationship written carries `source` (the
  document's id), `sentence` and `confidence`.
- **Undo**: the record lists what the document created and the old value of every property
  it changed; `undo` deletes the one and restores the other, so the graph's fingerprint
  (`course.foundation.versioning.fingerprint`) is what it was before.
- One writer at a time per graph (the loader's lock): two `--apply` of one file at once give
  one result, the second finding the document already applied.

>>> doc_graph = db.select("college_write_door_example")
>>> copy_graph(db, db.graph_name, doc_graph.graph_name)
>>> before = fingerprint(doc_graph)
>>> done = apply(doc_graph, review(doc_graph, DATA_DIR.parent / "ingest" / "club_announcement.md"))
>>> done.written, fingerprint(doc_graph) != before
(3, True)
>>> undo(doc_graph, done.document).removed, fingerprint(doc_graph) == before
(3, True)
>>> _ = doc_graph.graph.delete()
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from course.foundation.dataset import DATA_DIR, _check_names, copy_graph, swap_in  # noqa: F401
from course.foundation.db import Database
from course.foundation.errors import CourseError, InvalidInput
from course.foundation.versioning import data_version, fingerprint  # noqa: F401 (the example)
from course.ingest.diff import SOURCE_PROPERTIES
from course.ingest.review import Review, review  # noqa: F401 (the example)
from course.ingest.spec import SOURCE_LABEL, Spec
from course.foundation.graphs import require_data_graph

MENTIONS = "MENTIONS"
LOCK_S = 300


@dataclass
class Applied:
    document: str
    written: int                 # the diff's nodes, relationships and changed properties written
    already: bool = False        # the document was applied before: nothing written
    removed: int = 0             # for an undo: nodes and relationships taken out


def _scratch(db: Database) -> Database:
    return db.select(f"{db.graph_name}__ingest")


def refuse_memory_graph(db: Database) -> None:
    # For the lead: a local call until branch 'hostile' brings the one check of course.foundation
    # for "this graph is a memory graph"; replace this call with that check when it lands.
    require_data_graph(db.graph_name)


def applied_record(db: Database, document: str) -> dict[str, Any] | None:
    """The record of an applied document, by its id or its file name (the latest such)."""
    rows = db.run(f"MATCH (d:{SOURCE_LABEL}) WHERE d.id = $doc OR d.name = $doc "
                  "RETURN d.id, d.record ORDER BY d.id", {"doc": document}).rows
    exact = [row for row in rows if row[0] == document]
    if len(rows) > 1 and not exact:
        raise InvalidInput(f"{len(rows)} versions of {document} are applied "
                           f"({', '.join(row[0] for row in rows)}): give the id of the one to undo.")
    found = (exact or rows)[:1]
    return {"id": found[0][0], **json.loads(found[0][1])} if found else None


def apply(db: Database, reviewed: Review) -> Applied:
    """Write a reviewed diff: all of it or, on any failure, none of it."""
    refuse_memory_graph(db)
    doc = reviewed.document
    with db.lock(f"loading:{db.graph_name}", timeout_s=LOCK_S):
        if applied_record(db, doc.id) is not None:
            return Applied(doc.id, 0, already=True)
        if data_version(db) != reviewed.version:
            raise InvalidInput(f"The graph changed since {doc.name} was reviewed: review it again "
                               "(run the command without --apply), then apply.")
        if reviewed.diff.questions:
            raise InvalidInput(f"{doc.name} has {len(reviewed.diff.questions)} open question(s) "
                               "in its diff: answer them in the document (write the name as the "
                               "graph has it), review again, then apply.")
        if reviewed.diff.size == 0:     # nothing to write: not even the Document node
            return Applied(doc.id, 0)
        written = _in_scratch(db, lambda scratch: _write(scratch, reviewed))
    reviewed.written = written
    return Applied(doc.id, written)


def undo(db: Database, document: str) -> Applied:
    """Remove what a document added and restore what it changed (by its id or file name)."""
    refuse_memory_graph(db)
    with db.lock(f"loading:{db.graph_name}", timeout_s=LOCK_S):
        record = applied_record(db, document)
        if record is None:
            raise InvalidInput(f"No document {document!r} has been applied to graph "
                               f"{db.graph_name!r}: give the id or file name printed by --apply.")
        later = built_on(db, record)
        if later:
            raise InvalidInput(f"{', '.join(later)} wrote to what {record['id']} added or changed: "
                               "undo those first, then this one.")
        removed = _in_scratch(db, lambda scratch: _unwrite(scratch, record))
    return Applied(record["id"], 0, removed=removed)


def built_on(db: Database, record: dict[str, Any]) -> list[str]:
    """The other applied documents that wrote to a node this one created or changed."""
    spec, found = Spec.load(), set()
    targets = record["nodes"] + [c["target"] for c in record["changes"] if "label" in c["target"]]
    for node in targets:
        rows = db.run(f"{_match('n', node, spec, 'key')} "
                      f"OPTIONAL MATCH (n)-[r]-() WHERE r.source <> $doc "
                      f"OPTIONAL MATCH (d:{SOURCE_LABEL})-[:{MENTIONS}]->(n) WHERE d.id <> $doc "
                      "RETURN collect(DISTINCT r.source) + collect(DISTINCT d.id)",
                      {"key": node["key"], "doc": record["id"]}).rows
        found |= {str(doc) for row in rows for doc in row[0] if doc}
    for change in (c for c in record["changes"] if "type" in c["target"]):
        target = change["target"]
        rows = db.run(f"{_match('a', target['from'], spec, 'a')} {_match('b', target['to'], spec, 'b')} "
                      f"MATCH (a)-[r:{target['type']}]->(b) WHERE r.source <> $doc RETURN r.source",
                      {"a": target["from"]["key"], "b": target["to"]["key"], "doc": record["id"]}).rows
        found |= {str(row[0]) for row in rows}
    return sorted(found)


def _in_scratch(db: Database, work: Any) -> int:
    """Run `work` on a copy of the graph and swap the copy in; on failure, drop the copy."""
    scratch = _scratch(db)
    if scratch.graph_name in db.client.list_graphs():   # left by a write that was interrupted
        db.command("GRAPH.DELETE", scratch.graph_name)
    copy_graph(db, db.graph_name, scratch.graph_name)
    try:
        done = int(work(scratch))
        _refresh_text_layer(scratch)
        swap_in(db, scratch)
    except BaseException:
        if scratch.graph_name in db.client.list_graphs():
            db.command("GRAPH.DELETE", scratch.graph_name)
        raise
    return done


def _match(var: str, ref: dict[str, Any], spec: Spec, param: str) -> str:
    _check_names(ref["label"], spec.key(ref["label"]))
    return f"MATCH ({var}:{ref['label']} {{{spec.key(ref['label'])}: ${param}}})"


def _write(db: Database, reviewed: Review) -> int:
    spec, diff, doc = Spec.load(), reviewed.diff, reviewed.document
    record: dict[str, list[Any]] = {"nodes": [], "relationships": [], "changes": []}
    db.query(f"CREATE (:{SOURCE_LABEL} {{id: $id, name: $name, kind: $kind, record: '{{}}'}})",
             {"id": doc.id, "name": doc.name, "kind": doc.kind})
    count = 0
    for node in diff.new_nodes:
        _check_names(node["label"], *node["properties"])
        key = spec.key(node["label"])
        db.query(f"MATCH (d:{SOURCE_LABEL} {{id: $doc}}) "
                 f"MERGE (n:{node['label']} {{{key}: $key}}) SET n += $props "
                 f"MERGE (d)-[:{MENTIONS} {{sentence: $sentence}}]->(n)",
                 {"doc": doc.id, "key": node["key"], "props": node["properties"],
                  "sentence": node["sentence"]})
        record["nodes"].append({"label": node["label"], "key": node["key"]})
        count += 1
    for rel in diff.new_relationships:
        _check_names(rel["type"], *rel["properties"])
        props = {**rel["properties"], "source": doc.id, "sentence": rel["sentence"],
                 "confidence": rel["confidence"]}
        db.query(f"{_match('a', rel['from'], spec, 'a')} {_match('b', rel['to'], spec, 'b')} "
                 f"MERGE (a)-[r:{rel['type']}]->(b) SET r += $props",
                 {"a": rel["from"]["key"], "b": rel["to"]["key"], "props": props})
        record["relationships"].append({k: rel[k] for k in ("type", "from", "to")})
        count += 1
    for change in diff.changed:
        count += _change(db, change, doc.id, spec, record)
    db.query(f"MATCH (d:{SOURCE_LABEL} {{id: $id}}) SET d.record = $record",
             {"id": doc.id, "record": json.dumps(record, sort_keys=True)})
    return count


def _change(db: Database, change: dict[str, Any], doc: str, spec: Spec,
            record: dict[str, list[Any]]) -> int:
    target, prop = change["target"], change["property"]
    _check_names(prop)
    if "label" in target:    # a node's property, and a MENTIONS from the document
        old = {prop: change["old"]}
        db.query(f"{_match('n', target, spec, 'key')} MATCH (d:{SOURCE_LABEL} {{id: $doc}}) "
                 f"SET n.{prop} = $new MERGE (d)-[:{MENTIONS} {{sentence: $sentence}}]->(n)",
                 {"key": target["key"], "new": change["new"], "doc": doc,
                  "sentence": change["sentence"]})
    else:                    # a relationship's property, with its source
        _check_names(target["type"])
        found = db.run(f"{_match('a', target['from'], spec, 'a')} {_match('b', target['to'], spec, 'b')} "
                       f"MATCH (a)-[r:{target['type']}]->(b) RETURN properties(r) LIMIT 1",
                       {"a": target["from"]["key"], "b": target["to"]["key"]}).rows
        before = found[0][0] if found else {}
        old = {p: before.get(p) for p in (prop, *SOURCE_PROPERTIES)}
        db.query(f"{_match('a', target['from'], spec, 'a')} {_match('b', target['to'], spec, 'b')} "
                 f"MATCH (a)-[r:{target['type']}]->(b) SET r.{prop} = $new, r.source = $doc, "
                 "r.sentence = $sentence, r.confidence = $confidence",
                 {"a": target["from"]["key"], "b": target["to"]["key"], "new": change["new"],
                  "doc": doc, "sentence": change["sentence"],
                  "confidence": change.get("confidence", 0.0)})
    record["changes"].append({"target": target, "old": old})
    return 1


def _unwrite(db: Database, record: dict[str, Any]) -> int:
    spec, removed = Spec.load(), 0
    for rel in record["relationships"]:
        _check_names(rel["type"])
        db.query(f"{_match('a', rel['from'], spec, 'a')} {_match('b', rel['to'], spec, 'b')} "
                 f"MATCH (a)-[r:{rel['type']}]->(b) DELETE r",
                 {"a": rel["from"]["key"], "b": rel["to"]["key"]})
        removed += 1
    for change in reversed(record["changes"]):
        target, old = change["target"], change["old"]
        _check_names(*old)
        sets = ", ".join(f"x.{p} = $old_{p}" for p in old)
        params = {f"old_{p}": v for p, v in old.items()}
        if "label" in target:
            db.query(f"{_match('x', target, spec, 'key')} SET {sets}", {"key": target["key"], **params})
        else:
            _check_names(target["type"])
            db.query(f"{_match('a', target['from'], spec, 'a')} {_match('b', target['to'], spec, 'b')} "
                     f"MATCH (a)-[x:{target['type']}]->(b) SET {sets}",
                     {"a": target["from"]["key"], "b": target["to"]["key"], **params})
    for node in record["nodes"]:
        _check_names(node["label"])
        db.query(f"{_match('n', node, spec, 'key')} OPTIONAL MATCH (c)-[:PART_OF]->(n) "
                 "DETACH DELETE c, n", {"key": node["key"]})
        removed += 1
    db.query(f"MATCH (d:{SOURCE_LABEL} {{id: $id}}) DETACH DELETE d", {"id": record["id"]})
    return removed


def _refresh_text_layer(db: Database) -> None:
    """New notes get their chunks (notebook 13's text layer), with the graph's own embedder."""
    from course.retrieval.embeddings import make_embedder
    from course.retrieval.text_layer import build_text_layer, stored_embedder

    try:
        name = stored_embedder(db)
    except CourseError:
        return
    if name is not None:
        build_text_layer(db, make_embedder(name))
