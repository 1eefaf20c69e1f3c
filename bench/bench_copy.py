"""Copying a graph while it is read: GRAPH.COPY (the loader's) against DUMP and RESTORE.

    python bench/bench_copy.py [COPIES] [READERS]

The loader and the write door build their change in a copy of the graph and swap it in
(`course.foundation.dataset.copy_graph`: FalkorDB's GRAPH.COPY, which forks the server); the
tests copy the loaded college graph for each test by DUMP and RESTORE (tests/conftest.py),
which does not fork. This shows what each does when the graph copied is being read, on the
FalkorDB that falkordblite ships (4.22): a forked child can hang for good on a lock a reader
held at the fork, so the copy never comes and the server forks no more; a DUMP can be
refused by RESTORE ("Bad data format"), and a RESTORE can crash the server. With nobody reading the graph copied, both made thousands of copies here
without a fault.

On a throw-away embedded server with the college graph, READERS threads (default 3) read
it without a pause while each way copies it COPIES times (default 1,000), each copy deleted
after. Reported per way: copies made, copies that never came (no answer within the socket's
time limit: the server's hung child is then killed, so the run goes on), copies refused,
server crashes (the embedded server starts again by itself), and the median time per copy,
with the ratio of the medians from this one run. Never run on the learner's database.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import redis

from course.foundation.connection import connect
from course.foundation.dataset import copy_graph, load_college
from course.foundation.db import Database
from course.foundation.errors import DatabaseUnavailable, QueryFailed, QueryTimedOut


def dump_restore(db: Database, source: str, target: str) -> None:
    """As tests/conftest.py's copy: RESTORE under a scratch key, renamed in one transaction."""
    raw = db.client.connection
    with raw.pipeline(transaction=True) as pipe:
        pipe.restore(target + ":restoring", 0, raw.dump(source))
        pipe.rename(target + ":restoring", target)
        pipe.execute()


def measure(db: Database, copy: Callable[[Database, str, str], None], copies: int,
            ) -> tuple[list[float], int, int, int]:
    """Seconds per copy made; how many never came, failed, and crashed the server."""
    times, hung, failed, crashed = [], 0, 0, 0
    for number in range(copies):
        target = f"bench_copy_{number}"
        started = time.perf_counter()
        try:
            copy(db, db.graph_name, target)
        except (QueryTimedOut, redis.TimeoutError):   # the course's words, or the raw client's
            hung += 1
            kill_forked_children(db)
            continue
        except (DatabaseUnavailable, redis.ConnectionError):
            crashed += 1
            assert db.server is not None
            db.server.ensure_running()
            continue
        except (QueryFailed, redis.ResponseError):   # e.g. RESTORE's "Bad data format"
            failed += 1
            continue
        times.append(time.perf_counter() - started)
        db.command("GRAPH.DELETE", target)
    return times, hung, failed, crashed


def kill_forked_children(db: Database) -> None:
    """Kill the embedded server's forked children (a hung copy's), so that it forks again."""
    assert db.server is not None
    pid = db.server.pid()
    for child in psutil.Process(pid).children() if pid else []:
        child.kill()
    time.sleep(1.0)   # the server notices its child's end on its next cron tick


def main(copies: int = 1000, readers: int = 3) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = connect(path=Path(folder) / "bench.db")
        try:
            load_college(db)
            stop = threading.Event()

            def read() -> None:
                reader = db.select(db.graph_name)
                while not stop.is_set():
                    try:
                        reader.run("MATCH (a)-[r]->(b) RETURN count(*)")
                    except (DatabaseUnavailable, QueryFailed):
                        time.sleep(0.5)   # a crashed server starting again, or its queue full

            threads = [threading.Thread(target=read, daemon=True) for _ in range(readers)]
            for thread in threads:
                thread.start()
            results = {}
            for name, copy in (("GRAPH.COPY (copy_graph)", copy_graph),
                               ("DUMP + RESTORE (the tests')", dump_restore)):
                results[name] = measure(db, copy, copies)
            stop.set()
            for thread in threads:
                thread.join()
        finally:
            assert db.server is not None
            kill_forked_children(db)
            try:
                db.server.stop()
            except DatabaseUnavailable as exc:   # a server a fault left stuck: said, then killed
                print(exc)
                if (pid := db.server.pid()) is not None:
                    psutil.Process(pid).kill()
    print(f"{copies} copies of the college graph each way, {readers} readers reading it throughout\n")
    print(f"{'way':30} {'made':>6} {'never came':>11} {'failed':>7} {'crashed':>8} {'median ms':>10}")
    for name, (times, hung, failed, crashed) in results.items():
        median = f"{statistics.median(times) * 1000:10.1f}" if times else f"{'-':>10}"
        print(f"{name:30} {len(times):6d} {hung:11d} {failed:7d} {crashed:8d} {median}")
    fork, restore = (results[name][0] for name in results)
    if fork and restore:
        print(f"\nDUMP + RESTORE's median is {statistics.median(restore) / statistics.median(fork):.2f}x "
              "GRAPH.COPY's (this run)")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
