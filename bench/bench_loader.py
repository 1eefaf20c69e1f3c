"""Loading 5,000 rows: parameterised UNWIND batches vs one query per row (the course text's way).

    python bench/bench_loader.py [ROWS]

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
from course.foundation.dataset import _batches


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
        finally:
            db.server.stop()
    print(f"loading {n:,} rows, one run, same database")
    print(f"  UNWIND batches of 500 : {unwind * 1000:8.1f} ms")
    print(f"  one query per row     : {per_row * 1000:8.1f} ms")
    print(f"  ratio (per-row / UNWIND): {per_row / unwind:.1f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5_000)
