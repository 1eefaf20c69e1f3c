"""Ingestion of the sample documents, offline: proposed / right / wrong / rejected, the diff, undo.

    python bench/bench_ingest.py [--heldout]

For each document of data/ingest/, the offline rules' proposal is compared with the facts
written down for it in data/eval/ingest_facts.yaml before any rule was written:

- relationships: proposed (by the rules; names as resolution reads them, "Snehaa" as Sneha),
  right (a written-down fact), wrong (not one), and of
  the wrong ones how many validation or the judge kept out of the diff; recall = written-down
  facts that reach the diff (new, changed or already there) / written-down facts;
- node properties: each property a node of the facts file states, found in the diff or not
  (recall of the properties, the name included);
- the reviewed diff's size (writes), and whether applying every document then undoing each
  restores the graph's exact fingerprint.

Apply and undo are timed against one load of the college graph in the same run (a ratio).
Everything runs on a copy of the college graph, deleted after. The rules were written while
reading the samples, so their figures are in-sample; `--heldout` measures the two documents
of data/eval/ingest_heldout/, written (with their facts) after the rules were finished.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _database import bench_database  # noqa: E402

from course.foundation.config import PROJECT_ROOT  # noqa: E402
from course.foundation.dataset import copy_graph, load_college  # noqa: E402
from course.foundation.versioning import fingerprint  # noqa: E402
from course.ingest.review import Review, review  # noqa: E402
from course.ingest.write_door import apply, undo  # noqa: E402

SAMPLES = PROJECT_ROOT / "data" / "ingest"
FACTS = yaml.safe_load((PROJECT_ROOT / "data" / "eval" / "ingest_facts.yaml").read_text(encoding="utf-8"))


def _key(a: str, kind: str, b: str) -> tuple[str, str, str]:
    return (a.replace("Note on ", "Note: "), kind, b)


def reached(found: Review) -> set[tuple[str, str, str]]:
    """(from, TYPE, to) of every relationship the diff writes, changes or finds already there."""
    diff = found.diff
    rels = {(r["from"]["name"], r["type"], r["to"]["name"]) for r in diff.new_relationships}
    rels |= {(c["target"]["from"]["name"], c["target"]["type"], c["target"]["to"]["name"])
             for c in diff.changed if "type" in c["target"]}
    rels |= {tuple(i.strip("()").replace(")-[:", "|").replace("]->(", "|").split("|"))  # type: ignore[misc]
             for i in diff.unchanged if "-[:" in i}
    return rels


def _same(key: str, stated: object, found: object) -> bool:
    """A note's text is written down by its opening words ("... a growing phase ...")."""
    if key == "text":
        return str(found or "").startswith(str(stated).split(" ...")[0])
    return found == stated


def node_properties(found: Review, facts: list[dict]) -> tuple[int, int]:
    """(found, stated): each property a written-down node states, found in the diff's nodes."""
    nodes = [n["properties"] for n in found.diff.new_nodes]
    hits = total = 0
    for fact in facts:
        stated = {k: v for k, v in fact.items() if k != "label"}
        by = "name" if "name" in stated else "text"
        match: dict[str, Any] = next((n for n in nodes if _same(by, stated[by], n.get(by))), {})
        total += len(stated)
        hits += sum(1 for k, v in stated.items() if _same(k, v, match.get(k)))
    return hits, total


def measure(db, samples: Path, facts: dict) -> None:
    print(f"{'document':<22}{'proposed':>9}{'right':>6}{'wrong':>6}{'kept out':>9}"
          f"{'rejected':>9}{'recall':>8}{'props':>7}{'diff':>6}")
    totals = [0, 0, 0]
    for name in sorted(facts):
        found = review(db, samples / name)
        expected = {_key(*r[:3]) for r in facts[name]["relationships"]}
        meant = {m.name: m.found for m in found.resolved.matches if m.found}   # "Snehaa" -> Sneha
        proposed = {(meant.get(r.start.name, r.start.name), r.type, meant.get(r.end.name, r.end.name))
                    for r in found.proposal.relationships}
        right, wrong = proposed & expected, proposed - expected
        kept_out = wrong - reached(found)
        recall = len(expected & reached(found)) / len(expected)
        hits, stated = node_properties(found, facts[name]["nodes"])
        props = f"{hits}/{stated}" if stated else "-"
        print(f"{name:<22}{len(proposed):>9}{len(right):>6}{len(wrong):>6}{len(kept_out):>9}"
              f"{len(found.diff.rejected):>9}{recall:>8.2f}{props:>7}{found.diff.size:>6}")
        totals = [totals[0] + len(expected & reached(found)), totals[1] + len(expected), totals[2] + found.diff.size]
    print(f"relationships recall over all documents: {totals[0]}/{totals[1]}; reviewed diff: {totals[2]} writes")


def apply_and_undo(db, samples: Path, facts: dict) -> None:
    before = fingerprint(db)
    started = time.perf_counter()
    done = [apply(db, review(db, samples / name)) for name in sorted(facts)]
    applied = time.perf_counter() - started
    started = time.perf_counter()
    for d in reversed(done):
        undo(db, d.document)
    undone = time.perf_counter() - started
    started = time.perf_counter()
    load_college(db.select(db.graph_name + "_load"))
    loading = time.perf_counter() - started
    db.select(db.graph_name + "_load").graph.delete()
    print(f"applied {len(done)} documents ({sum(d.written for d in done)} writes), undid them: "
          f"fingerprint restored exactly: {fingerprint(db) == before}")
    print(f"review+apply of all {len(done)} / one college load: {applied / loading:.2f}x; "
          f"undo of all {len(done)} / one load: {undone / loading:.2f}x")


def main() -> None:
    heldout = "--heldout" in sys.argv[1:]
    samples = PROJECT_ROOT / "data" / "eval" / "ingest_heldout" if heldout else SAMPLES
    facts = yaml.safe_load((samples / "facts.yaml").read_text(encoding="utf-8")) if heldout else FACTS
    with bench_database() as base:
        load_college(base)
        db = base.select("college_bench_ingest")
        if db.graph_name in base.client.list_graphs():
            db.graph.delete()
        copy_graph(base, base.graph_name, db.graph_name)
        try:
            measure(db, samples, facts)
            apply_and_undo(db, samples, facts)
        finally:
            db.graph.delete()


if __name__ == "__main__":
    main()
