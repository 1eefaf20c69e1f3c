"""The study plan's order: Python's `course.planner.order.order()` vs the one Cypher query, as chains deepen.

    python bench/bench_planner.py [--layers 4 8 12 16 20]

Each graph is a layered prerequisite graph of its own (width 3; each concept needs two of the
layer before), covered by one subject that one student does not study, so every concept is
planned. Both orders are computed on the same graph in the same run and compared; the ratio
is what to read. The Cypher query enumerates every path to find the longest chain, so it
grows with the number of paths (about 2^layers), while Python reads the edges once: the
query is the notebook's check, `order()` is the one to use. A Cypher run that hits the
5-second limit is reported as such. Python's time is the best of 3, Cypher's of one run. The graphs live in their own database file, deleted after.
"""
from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from course.foundation.connection import connect
from course.foundation.errors import QueryTimedOut
from course.planner.order import cypher_order
from course.planner.plans import plan

WIDTH = 3


def layered(db, layers: int, *, seed: int = 7) -> int:
    """A subject S covering `layers` x WIDTH concepts; each needs two of the previous layer."""
    rng = random.Random(seed)
    ids = [[f"L{layer}-{i}" for i in range(WIDTH)] for layer in range(layers)]
    db.query("CREATE (:Student {id: 'B1', name: 'Bench'}), (:Subject {code: 'S', name: 'Bench subject'})")
    db.query("UNWIND $ids AS id MATCH (s:Subject {code: 'S'}) "
             "CREATE (s)-[:COVERS]->(:Concept {id: id, name: id})",
             {"ids": [c for layer in ids for c in layer]})
    pairs = [[a, b] for before, after in zip(ids, ids[1:]) for b in after
             for a in rng.sample(before, 2)]
    db.query("UNWIND $p AS p MATCH (a:Concept {id: p[0]}), (b:Concept {id: p[1]}) "
             "CREATE (a)-[:PREREQUISITE_FOR]->(b)", {"p": pairs})
    return layers * WIDTH


def timed(fn, repeat: int = 1) -> tuple[float, object]:
    """Best of `repeat` runs, in milliseconds, and the value."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        value = fn()
        best = min(best, (time.perf_counter() - started) * 1000)
    return best, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, nargs="+", default=[4, 8, 12, 16, 20])
    args = parser.parse_args()
    print(f"{'layers':>6} {'concepts':>9} {'python ms':>10} {'cypher ms':>10} {'ratio':>7}  same order")
    with tempfile.TemporaryDirectory() as folder:
        server = connect(path=Path(folder) / "bench.db")
        try:
            for layers in args.layers:
                db = server.select(f"bench_planner_{layers}")
                n = layered(db, layers)
                python_ms, p = timed(lambda: plan(db, "B1", "S", 365), repeat=3)
                try:
                    cypher_ms, order = timed(lambda: cypher_order(db, "B1", "S"))
                    ratio, same = f"{cypher_ms / python_ms:7.1f}", order == p.order()
                    shown = f"{cypher_ms:10.1f}"
                except QueryTimedOut:
                    shown, ratio, same = f"{'> 5000':>10}", f"{'-':>7}", "timed out"
                print(f"{layers:>6} {n:>9} {python_ms:10.1f} {shown} {ratio}  {same}")
                db.graph.delete()
        finally:
            server.server.stop()


if __name__ == "__main__":
    main()
