"""Loading 5,000 rows: parameterised UNWIND batches vs one query per row (the course text's way).

    python bench/bench_loader.py [ROWS]

Then the college graph itself: loaded alone (notebook 01, `course.load_college(db)`) and
loaded with notebook 13's text layer built in the staging graph (`python -m course load`).

Both load the same Student-like rows into fresh graphs on one embedded database, in the
same run, so the ratio holds on a noisy machine. The per-row loader formats each value into
the query text with an f-string, as the course text's loader does (which also breaks on a
name with an apostrophe, and is an injection risk: the reason the course never does it).
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from course.foundation.connection import connect
from course.foundation.dataset import _batches, load_college
from course.retrieval.text_layer import text_layer_builder


def rows(n: int) -> list[dict]:
    return [{"id": f"S{i:05d}", "name": f"Student {i}", "year": 1 + i % 4,
             "branch": ("CSE", "IT", "ECE")[i % 3]} for i in range(n)]


def load_unwind(graph, data: list[dict]) -> None:
    graph.query("CREATE INDEX FOR (s:Student) ON (s.id)")
    for batch in _batches(data):
        graph.query("UNWIND $rows AS row MERGE (s:Student {id: row.id}) SET s += row", {"rows": batch})


def load_per_row(graph, data: list[dict]) -> None:
    graph.query("CREATE INDEX FOR (s:Student) ON (s.id)")
    for r in data:
        graph.query(f"MERGE (s:Student {{id: '{r['id']}'}}) "
                    f"SET s.name = '{r['name']}', s.year = {r['year']}, s.branch = '{r['branch']}'")


def timed(fn, graph, data) -> float:
    started = time.perf_counter()
    fn(graph, data)
    return time.perf_counter() - started


def college_loads(db) -> tuple[float, float]:
    """Seconds to load the college graph from nothing: alone, and with its text layer."""
    builder = text_layer_builder()   # the embedding model is loaded before either is timed
    started = time.perf_counter()
    alone = load_college(db.select("bench_college_alone"), reset_first=True)
    graph_only = time.perf_counter() - started
    started = time.perf_counter()
    layered = load_college(db.select("bench_college_layer"), reset_first=True, also=builder)
    with_layer = time.perf_counter() - started
    assert "chunks" not in alone and layered["chunks"] > 0
    return graph_only, with_layer


def main(n: int = 5_000) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = connect(path=Path(folder) / "bench.db")
        data = rows(n)
        try:
            unwind = timed(load_unwind, db.select("bench_unwind").graph, data)
            per_row = timed(load_per_row, db.select("bench_per_row").graph, data)
            for name in ("bench_unwind", "bench_per_row"):
                count = db.select(name).run("MATCH (s:Student) RETURN count(s)").rows[0][0]
                assert count == n, (name, count)
            graph_only, with_layer = college_loads(db)
        finally:
            db.server.stop()
    print(f"loading {n:,} rows, one run, same database")
    print(f"  UNWIND batches of 500 : {unwind * 1000:8.1f} ms")
    print(f"  one query per row     : {per_row * 1000:8.1f} ms")
    print(f"  ratio (per-row / UNWIND): {per_row / unwind:.1f}x")
    print("the college graph, loaded from nothing, one run, same database")
    print(f"  ratio (with the text layer / the graph alone): {with_layer / graph_only:.1f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5_000)
