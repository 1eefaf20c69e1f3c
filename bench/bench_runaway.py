"""Runaway queries, before and after the server's own limits (issue 13).

    python bench/bench_runaway.py [--before] [--after] [--dangerous] [--only TEXT]

Each mode starts its own throw-away embedded FalkorDB and loads the college graph:

- before: the server as it was started until now (no limits of its own: TIMEOUT_*,
  QUERY_MEM_CAPACITY, RESULTSET_SIZE unset, 2 threads), each query run by the plain
  executor `Database.run` with the agent's 5 s limit (every query here passed the guard
  as it was);
- after: the server started with `course.foundation.server.server_limits()`, each query through
  `course.pipeline.safety.run_guarded` (the guard, FalkorDB's plan, then the executor).

For each query of the battery it prints the wall time, how it ended (rows, or the
sentence the learner reads), the server's peak resident memory while it ran, and
whether the server still answers. The goal (issue 24): every query ends within 2 x the
5 s limit with a clear sentence, and the server stays up. Then four other processes send
a runaway in a loop (issue 24's regular expression, then the worst query the guard lets
through) while this one asks "Who is Payal?" five times: its worst latency, against its
latency on a quiet server; the goal is 2 s at most.

Issue 24's forms are single expressions the server cannot interrupt (its time limit is
checked between rows): a regular expression that backtracks, run in a list comprehension,
and a string grown by replace() inside replace(). The guard refuses them
(`course.pipeline.expressions`); on main before that they ran 17-20 s and more.

The queries that took the old server minutes, several GB or its life (marked
`dangerous`) run in the before mode only with --dangerous: on a shared machine they take
memory from everyone. Without it their row says what the hostile tester measured.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import falkordb  # noqa: E402

import course.foundation.server as course_server  # noqa: E402
from course.foundation.connection import connect  # noqa: E402
from course.foundation.dataset import load_college  # noqa: E402
from course.foundation.db import Database  # noqa: E402
from course.foundation.errors import CourseError  # noqa: E402
from course.llm.offline import OfflineLLM  # noqa: E402
from course.pipeline.agent import Agent  # noqa: E402
from course.pipeline.safety import run_guarded  # noqa: E402

LIMIT_MS = 5_000
PAD = "x" * 1_000
LIMITS = course_server.server_limits


@dataclass(frozen=True)
class Runaway:
    name: str
    cypher: str
    dangerous: str = ""   # what the hostile tester measured on the old server, if dangerous


BATTERY = [
    Runaway("string grown by reduce", "RETURN size(reduce(s='', x IN range(1, 200000) | s + 'xxxxxxxxxx'))",
            "48-96 s, the time limit never fired"),
    Runaway("a 500-million list", "RETURN size(range(1, 500000000))", "OUT OF MEMORY, server killed"),
    Runaway("count of range(1, 10^8)", "UNWIND range(1, 100000000) AS x RETURN count(x)", "14.7 s, 3.1 GB"),
    Runaway("4M rows with padding", "UNWIND range(1,4000000) AS x RETURN x, 'padding'",
            "20 s, 1.75 GB in the client"),
    Runaway("nested ranges", "UNWIND range(1, 3000) AS a UNWIND range(1, 3000) AS b RETURN count(*)"),
    Runaway("5-way cartesian count", "MATCH (a), (b), (c), (d), (e) RETURN count(*)"),
    Runaway("421,875-row result", "MATCH (a), (b), (c) RETURN a.name, b.name, c.name"),
    Runaway("collect of padded strings", f"MATCH (a), (b), (c) RETURN size(collect(a.name + '{PAD}'))"),
    Runaway("31M-node collect", "MATCH (a), (b), (c), (d) WITH collect(a) AS l RETURN size(l)"),
    Runaway("long bounded paths", "MATCH p = (a)-[*1..12]-(b) RETURN count(p)"),
    Runaway("all shortest paths, many", "MATCH (a:Concept), (b:Concept) CALL algo.SPpaths({sourceNode: a, "
            "targetNode: b, relTypes: ['PREREQUISITE_FOR', 'INCLUDES'], relDirection: 'both', "
            "pathCount: 1000000, maxLen: 30}) YIELD path RETURN count(path)"),
    Runaway("single-source paths", "MATCH (a:Concept) CALL algo.SSpaths({sourceNode: a, relTypes: "
            "['PREREQUISITE_FOR', 'INCLUDES'], relDirection: 'both', pathCount: 100000000, maxLen: 30}) "
            "YIELD path RETURN count(path)"),
    # Issue 24: one expression the server cannot interrupt (the time limit is checked between rows).
    Runaway("regex in a comprehension", "RETURN size([x IN range(1, 240) | "
            "string.matchRegEx('aaaaaaaaaaaaaaaaaaaaaa!', '(a+)+$')]) AS n"),
    Runaway("regex, many repeats", "RETURN size([x IN range(1, 10000) | "
            "string.matchRegEx('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', 'a*a*a*a*a*$')]) AS n"),
    Runaway("regex replace, alternation", "RETURN size([x IN range(1, 240) | "
            "string.replaceRegEx('aaaaaaaaaaaaaaaaaaaaaaaa!', '(a|a)*$', '')]) AS n"),
    Runaway("regex built by concatenation", "WITH '(a' + '+)+$' AS p RETURN size([x IN range(1, 240) "
            "| string.matchRegEx('aaaaaaaaaaaaaaaaaaaaaa!', p)]) AS n"),
    Runaway("string grown by replace()", "RETURN size(replace(replace(replace(replace(replace(replace("
            "replace(replace(replace('aaaaaaaaaa', 'a', 'aaaaaaaaaa'), 'a', 'aaaaaaaaaa'), 'a', 'aaaaaaaaaa'), "
            "'a', 'aaaaaaaaaa'), 'a', 'aaaaaaaaaa'), 'a', 'aaaaaaaaaa'), 'a', 'aaaaaaaaaa'), 'a', 'aaaaaaaaaa'), "
            "'a', 'aaaaaaaaaa')) AS n", "20 s (the client gave up), 2.3 GB"),
    Runaway("string grown by join", f"RETURN size(replace(string.join([x IN range(1, 10000) | '{PAD}'], ''), "
            "'x', 'xxxxxxxxxxxxxxxxxxxxxxxxx')) AS n", "4.6 s, 3.0 GB before the memory cap"),
    Runaway("comprehension of paths", "RETURN size([x IN range(1, 10000) | "
            "size([(a)-[*1..4]-(b) | b])]) AS n"),
    Runaway("nested comprehensions", "RETURN size([x IN range(1, 100) | "
            "[y IN range(1, 100) | [(a)--(b) | a.name + b.name]]]) AS n"),
]
# What the other processes run in a loop while this one asks about Payal: the worst form that
# passes the guard (each run ends at the 5 s limit), and issue 24's regular expression.
LOAD_QUERY = "MATCH (a), (b), (c), (d), (e) RETURN count(*)"
REGEX_QUERY = next(q.cypher for q in BATTERY if q.name == "regex in a comprehension")
RUNAWAY_PROCESSES = 4
GOAL_LIMITS = 2.0        # every form ends within 2 x the limit
GOAL_BUSY_MS = 2_000     # an ordinary question under four runaways


def rss_mb(pid: int) -> float:
    """The process's resident memory now, in MB (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class PeakMemory:
    """The largest RSS of a process while the `with` block runs, sampled every 20 ms."""

    def __init__(self, pid: int):
        self.pid, self.peak, self._stop = pid, 0.0, threading.Event()

    def __enter__(self) -> "PeakMemory":
        self.peak = rss_mb(self.pid)
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss_mb(self.pid))

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def start(mode: str, folder: Path) -> Database:
    """A throw-away embedded server for this mode, with the college graph loaded."""
    # The start command as it was (no limits of the server's own), or as it is now.
    course_server.server_limits = (lambda: []) if mode == "before" else LIMITS
    db = connect(path=folder / f"{mode}.db")
    assert db.server is not None   # embedded: this bench starts its own
    if mode == "before":  # the client as it was: no socket timeout (a minute, so the bench ends)
        client = falkordb.FalkorDB(unix_socket_path=str(db.server.socket), socket_timeout=60)
        db = Database(client, "college", mode="embedded", location=db.location, server=db.server)
    load_college(db)
    return db


def alive(db: Database) -> bool:
    try:
        return bool(db.client.connection.ping())
    except Exception:  # noqa: BLE001 - any failure means it does not answer
        return False


def run_one(db: Database, mode: str, query: Runaway) -> tuple[float, str, float]:
    """(seconds, how it ended, peak server MB)."""
    pid = db.server.pid() if db.server else None
    with PeakMemory(pid or 0) as memory:
        started = time.perf_counter()
        try:
            if mode == "before":
                rows = db.run(query.cypher, timeout_ms=LIMIT_MS, max_rows=1_000)
            else:
                rows = run_guarded(db, query.cypher, timeout_ms=LIMIT_MS, max_rows=1_000)
            how = f"{len(rows.rows)} rows{' (cut)' if rows.truncated else ''}: {str(rows.rows[:1])[:40]}"
        except CourseError as exc:
            how = f"{type(exc).__name__}: {str(exc)[:150]}"
        seconds = time.perf_counter() - started
    return seconds, how, memory.peak


# A runaway process: the query in a loop for 14 s, through the guarded door (after) or as the
# plain executor ran it (before).
LOADER = """
import sys, time
sys.path.insert(0, sys.argv[1])
import falkordb
from course.foundation.db import Database
from course.pipeline.safety import run_guarded
client = falkordb.FalkorDB(unix_socket_path=sys.argv[2], socket_timeout=60)
db = Database(client, 'college', mode='embedded', location=sys.argv[2])
end = time.time() + 14
while time.time() < end:
    try:
        if sys.argv[4] == 'after':
            run_guarded(db, sys.argv[3], timeout_ms=5000)
        else:
            db.run(sys.argv[3], timeout_ms=5000)
    except Exception:
        time.sleep(0.05)   # a refusal comes back at once: ask again, as a looping user would
"""


def payal_latency(db: Database, socket: Path, mode: str, load: str | None) -> float:
    """The worst of five "Who is Payal?" answers (ms), with RUNAWAY_PROCESSES processes running
    `load` in a loop (or none)."""
    agent = Agent(db, OfflineLLM(), max_attempts=1)
    agent.answer("Who is Payal?")   # warm up the schema and the plan cache
    loaders = []
    if load:
        loaders = [subprocess.Popen([sys.executable, "-c", LOADER, str(ROOT), str(socket), load, mode])
                   for _ in range(RUNAWAY_PROCESSES)]
        time.sleep(1.5)
    worst = 0.0
    for _ in range(5):
        started = time.perf_counter()
        result = agent.answer("Who is Payal?")
        worst = max(worst, (time.perf_counter() - started) * 1000)
        if result.status != "answered":
            print(f"  ({result.status}: {result.error})")
            worst = max(worst, 10 * GOAL_BUSY_MS)   # an unanswered question misses the goal
        time.sleep(1.5)
    for process in loaders:
        process.wait(timeout=90)
    return worst


def bench(mode: str, dangerous: bool, only: str = "", latency_only: bool = False) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = start(mode, Path(folder))
        server = db.server
        assert server is not None   # embedded: this bench starts its own
        try:
            print(f"\n== {mode}: " + ("no server limits, Database.run" if mode == "before" else
                                      f"server limits {course_server.SERVER_LIMITS}, run_guarded"))
            print(f"{'query':<28} {'seconds':>8} {'peak MB':>8}  alive  how it ended")
            worst = 0.0
            for query in BATTERY:
                if (only and only not in query.name) or latency_only:
                    continue
                if mode == "before" and query.dangerous and not dangerous:
                    print(f"{query.name:<28} {'-':>8} {'-':>8}  -      not run (the tester measured: "
                          f"{query.dangerous}; --dangerous runs it)")
                    continue
                seconds, how, peak = run_one(db, mode, query)
                worst = max(worst, seconds)
                up = alive(db)
                print(f"{query.name:<28} {seconds:8.2f} {peak:8.0f}  {'yes' if up else 'NO '}    {how}")
                if not up:
                    server.ensure_running()
            print(f"worst: {worst:.2f} s = {worst / (LIMIT_MS / 1000):.1f} x the {LIMIT_MS / 1000:g} s limit")
            if only:
                return
            if not latency_only:
                print(f"goal, every form within {GOAL_LIMITS:g} x the limit: "
                      f"{'met' if worst <= GOAL_LIMITS * LIMIT_MS / 1000 else 'NOT met'}")
            quiet = payal_latency(db, server.socket, mode, None)
            print(f'"Who is Payal?" on a quiet server: {quiet:.0f} ms (worst of 5)')
            for name, load in (("regular-expression", REGEX_QUERY), ("cartesian", LOAD_QUERY)):
                busy = payal_latency(db, server.socket, mode, load)
                goal = "met" if busy <= GOAL_BUSY_MS else "NOT met"
                print(f'"Who is Payal?" while {RUNAWAY_PROCESSES} processes send the {name} runaway '
                      f"in a loop: {busy:.0f} ms (worst of 5) = {busy / quiet:.1f} x quiet; goal "
                      f"<= {GOAL_BUSY_MS / 1000:g} s: {goal}")
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", action="store_true", help="only the server as it was")
    parser.add_argument("--after", action="store_true", help="only the server with its limits")
    parser.add_argument("--dangerous", action="store_true",
                        help="also run, before, the queries that took the old server's memory or life")
    parser.add_argument("--only", default="", metavar="TEXT",
                        help="only the queries whose name holds TEXT (and no latency test)")
    parser.add_argument("--latency", action="store_true", help="only the latency test")
    parser.add_argument("--threads", type=int, default=None, metavar="N",
                        help="the server's THREAD_COUNT (default course.foundation.server's)")
    args = parser.parse_args()
    if args.threads:
        course_server.SERVER_LIMITS["THREAD_COUNT"] = args.threads
    modes = [m for m, chosen in (("before", args.before), ("after", args.after)) if chosen] or ["before", "after"]
    for mode in modes:
        bench(mode, args.dangerous, args.only, args.latency)


if __name__ == "__main__":
    os.environ.pop("FALKORDB_URL", None)
    main()
