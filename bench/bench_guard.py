"""The guard's time per query: `course.pipeline.guard.check` vs the course text's keyword list.

    python bench/bench_guard.py [--server]

Both checks run over the same battery (the refused and allowed queries of
tests/test_safety.py), in the same run, so the ratio holds on a noisy machine. Each query
is checked many times and the mean taken; the figure printed is the median over the
battery. `--server` also times `explain_check` (FalkorDB's own parser, one round trip to
an embedded database) for scale.
"""
from __future__ import annotations

import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from course.pipeline.guard import check
from course.pipeline.safety import explain_check, naive_is_safe

BATTERY_FILE = Path(__file__).resolve().parent.parent / "tests" / "test_safety.py"


def battery() -> list[str]:
    """The guard's test battery, read from the test module itself."""
    spec = importlib.util.spec_from_file_location("guard_battery", BATTERY_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [query for query, _ in module.REFUSED] + list(module.ALLOWED)


def per_call_us(fn: Callable[[str], object], query: str, *, budget_s: float = 0.01) -> float:
    """Mean microseconds per call, looping until `budget_s` has passed (best of 3)."""
    best = float("inf")
    for _ in range(3):
        calls, started = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - started) < budget_s:
            fn(query)
            calls += 1
        best = min(best, elapsed / calls * 1e6)
    return best


def median_us(fn: Callable[[str], object], queries: list[str],
              **kwargs) -> tuple[float, float, float]:
    """Median, fastest and slowest per-query time over the battery."""
    times = [per_call_us(fn, q, **kwargs) for q in queries]
    return statistics.median(times), min(times), max(times)


def server_median_us(queries: list[str]) -> float:
    from course.foundation.connection import connect
    from course.foundation.dataset import load_college

    with tempfile.TemporaryDirectory() as folder:
        db = connect(path=Path(folder) / "bench.db")
        try:
            load_college(db)

            def ask_server(query: str) -> None:
                try:
                    explain_check(db, query)
                except Exception:  # a syntax error is an answer too; it took a round trip
                    pass

            return median_us(ask_server, queries, budget_s=0.02)[0]
        finally:
            db.server.stop()


def main(with_server: bool = False) -> None:
    queries = battery()
    guard = median_us(check, queries)
    naive = median_us(naive_is_safe, queries)
    print(f"guard time per query, median over the {len(queries)} queries of the test battery")
    for name, (median, fastest, slowest) in (("course.pipeline.guard.check", guard),
                                             ("naive keyword check", naive)):
        print(f"  {name:<22}: {median:7.1f} µs  (fastest {fastest:.1f}, slowest {slowest:.1f})")
    print(f"  ratio (guard / naive) : {guard[0] / naive[0]:7.1f}x")
    if with_server:
        server = server_median_us(queries)
        print(f"  explain_check (server): {server:7.1f} µs  (one EXPLAIN round trip, embedded)")


if __name__ == "__main__":
    main(with_server="--server" in sys.argv[1:])
