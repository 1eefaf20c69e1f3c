"""The agent's own cost beside a peer's: the course's pipeline against LangChain's FalkorDB chain.

    python bench/bench_peers.py [REPEATS]

Both answer the five demo questions on the same graph, in one process, with the same
scripted model replies (the course text's Cypher, then a one-line answer): the course's
`ScriptedLLM` for the pipeline, LangChain's `FakeListLLM` for the chain. A stopwatch
around each model call takes the model's time away, so what is left is what the system
itself costs per question: for the pipeline, linking, prompts, cleaning, the guard,
FalkorDB's plan, the read-only query, the retry loop; for the chain, its prompt
templates, its runnables and one query. Beside the time, the server commands each sends
per question, counted by the server itself (INFO commandstats, before and after).

Then the tool loop (notebook 11) and the agentic agent (notebook 12), offline, per step
(a model call, or a role of the agentic agent that a model would play), the same way.

The chain is an optional extra, not a course dependency: `pip install -e ".[peers]"`.
Without it, the bench says so and stops (exit 0). Each question is asked REPEATS times
(default 30) after one warm-up; the figures are medians (and p95) of those runs, and the
ratios come from this one run. Uses COURSE_DB (or FALKORDB_URL) when set; else a
temporary database.
"""
from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from _database import bench_database
from bench_agent import Stopwatch
from bench_tools import Meter
from course.agents.agentic import AgenticAgent
from course.agents.agentic_roles import RuleRoles
from course.agents.tools import ToolAgent
from course.foundation.dataset import load_college
from course.foundation.db import Database
from course.llm.offline import OfflineLLM, OfflineToolLLM
from course.llm.scripted import ScriptedLLM
from course.pipeline.agent import Agent
from course.ui.demo import FIVE_QUESTIONS, judge, node_names

# What the scripted model replies, question by question: the course text's Cypher, fenced as
# a model writes it, then the answer's text. Both systems get exactly these strings.
REPLIES = {q.question: [f"```cypher\n{q.reference}\n```", f"{q.expected}."] for q in FIVE_QUESTIONS}
GOAL_RATIO, GOAL_COMMANDS = 1.5, 4


class ServerCommands:
    """Commands the server has run, by name, from INFO commandstats (the server's own count)."""

    def __init__(self, db: Database):
        self.redis = db.client.connection

    def snapshot(self) -> Counter[str]:
        stats = self.redis.info("commandstats")
        return Counter({name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()})

    def since(self, before: Counter[str]) -> Counter[str]:
        """What ran since `before`, less the two INFO calls that measured it."""
        delta = self.snapshot() - before
        delta["info"] -= 1
        return +delta


class System:
    """One system under measure: how to ask it, the seconds its model has spent so far, and
    what it gave."""

    def __init__(self, name: str, ask: Callable[[str], Any], model_seconds: Callable[[], float],
                 rows: Callable[[Any], list[list[Any]]]):
        self.name, self.ask, self.model_seconds, self.rows = name, ask, model_seconds, rows
        self.own: list[float] = []
        self.sent: list[Counter[str]] = []
        self.results: dict[str, Any] = {}

    def question(self, question: str, commands: ServerCommands, *, counted: bool) -> None:
        before_model, before = self.model_seconds(), commands.snapshot()
        started = time.perf_counter()
        self.results[question] = self.ask(question)
        elapsed = time.perf_counter() - started
        sent = commands.since(before)
        if counted:
            self.sent.append(sent)
            self.own.append((elapsed - (self.model_seconds() - before_model)) * 1000)

    def commands(self) -> dict[str, float]:
        total = sum(self.sent, Counter())
        return {name: n / len(self.sent) for name, n in total.items()}


def measure(systems: list[System], commands: ServerCommands, repeats: int) -> None:
    """Each question to each system in turn, round after round, so that whatever else the
    machine is doing falls on all of them alike; the first round warms up and is not counted."""
    for i in range(repeats + 1):
        for item in FIVE_QUESTIONS:
            for system in systems:
                system.question(item.question, commands, counted=i > 0)


def course_pipeline(db: Database) -> System:
    """The notebook-05 agent, every safety layer on, no memory (the chain has none)."""
    scripted = ScriptedLLM([])
    watch = Stopwatch(scripted)
    agent = Agent(db, watch)

    def ask(question: str) -> Any:
        scripted.add(*REPLIES[question])
        return agent.answer(question)

    return System("course pipeline", ask, lambda: watch.seconds, lambda result: result.rows)


def langchain_chain(db: Database) -> System:
    """LangChain's FalkorDBQAChain over FalkorDBGraph on the same graph, the same replies."""
    from langchain_core.language_models import FakeListLLM
    from langchain_falkordb import FalkorDBGraph, FalkorDBQAChain

    spent = [0.0]

    class TimedFake(FakeListLLM):
        def _call(self, *args: Any, **kwargs: Any) -> str:
            started = time.perf_counter()
            try:
                return super()._call(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - started

    where = db.client.connection.connection_pool.connection_kwargs
    graph = FalkorDBGraph(db.graph_name, host=where.get("host", "localhost"),
                          port=where.get("port", 6379), unix_socket_path=where.get("path"),
                          password=where.get("password"))
    chains = {q.question: FalkorDBQAChain.from_llm(TimedFake(responses=REPLIES[q.question]),
                                                   graph=graph, allow_dangerous_requests=True,
                                                   return_intermediate_steps=True)
              for q in FIVE_QUESTIONS}
    return System("LangChain chain", lambda question: chains[question].invoke({"query": question}),
                  lambda: spent[0], lambda out: out["intermediate_steps"][1]["context"])


class TimedRoles(RuleRoles):
    """The agentic agent's offline roles (rules standing in for model calls), timed like a model."""

    def __init__(self) -> None:
        super().__init__()
        self.seconds = 0.0
        for role in ("split", "rewrite", "route", "review"):
            setattr(self, role, self._timed(getattr(self, role)))

    def _timed(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started
        return timed


def per_step(db: Database, repeats: int) -> None:
    """The tool loop's and the agentic agent's own ms and server commands per step, offline.

    A step is one model call (the tool loop's chat turns; the agentic agent's router, updater,
    critic and text2cypher steps, which the offline rules or provider play): the time inside
    the model, or the rules in its place, is taken away, as for the pipeline's calls above.
    """
    commands = ServerCommands(db)
    pipeline_meter, tools_meter = Meter(OfflineLLM()), Meter(OfflineToolLLM())
    agentic_meter, roles = Meter(OfflineLLM()), TimedRoles()
    agents = [("pipeline", Agent(db, pipeline_meter), lambda: pipeline_meter.seconds),
              ("tool loop", ToolAgent(db, tools_meter), lambda: tools_meter.seconds),
              ("agentic", AgenticAgent(db, agentic_meter, roles=roles),
               lambda: agentic_meter.seconds + roles.seconds)]
    print(f"\nper step, offline ({len(FIVE_QUESTIONS)} demo questions x {repeats} runs): "
          "ms outside the model (or the rules playing it) and server commands")
    print(f"{'agent':<10} {'steps/q':>8} {'ms/step':>8} {'ms/q':>7} {'commands/step':>14}  by name")
    for name, agent, model_seconds in agents:
        own, steps, sent = [], 0, Counter[str]()
        for i in range(repeats + 1):
            for item in FIVE_QUESTIONS:
                before_model, before = model_seconds(), commands.snapshot()
                started = time.perf_counter()
                result = agent.answer(item.question)
                elapsed = time.perf_counter() - started
                if i:
                    sent += commands.since(before)
                    own.append((elapsed - (model_seconds() - before_model)) * 1000)
                    steps += len(getattr(result, "steps", ())) or result.llm_calls
        per = {k: v / steps for k, v in sent.items()}
        print(f"{name:<10} {steps / len(own):>8.1f} {sum(own) / steps:>8.2f} "
              f"{statistics.median(own):>7.2f} {sum(per.values()):>14.1f}  {shown(per)}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def shown(commands: dict[str, float]) -> str:
    return ", ".join(f"{n:.1f} {name}" for name, n in sorted(commands.items(), key=lambda kv: -kv[1]))


def compare(db: Database, repeats: int) -> bool:
    commands = ServerCommands(db)
    systems = [course_pipeline(db), langchain_chain(db)]
    measure(systems, commands, repeats)
    names = node_names(db)
    print(f"{len(FIVE_QUESTIONS)} demo questions x {repeats} runs each, asked in turn, scripted "
          "replies, model time taken away; ms per question outside the model")
    print(f"{'system':<16} {'p50':>6} {'p95':>6} {'right':>6} {'commands/q':>11}  by name")
    for system in systems:
        right = sum(judge(db, q, system.rows(system.results[q.question]), names=names)
                    for q in FIVE_QUESTIONS)
        sent = system.commands()
        print(f"{system.name:<16} {statistics.median(system.own):>6.2f} "
              f"{percentile(system.own, .95):>6.2f} {right:>4}/{len(FIVE_QUESTIONS)} "
              f"{sum(sent.values()):>11.1f}  {shown(sent)}")
    course, peer = systems
    ratio = statistics.median(course.own) / statistics.median(peer.own)
    sent = course.commands()
    print(f"pipeline / chain, own time per question (p50): {ratio:.2f}x (goal <= {GOAL_RATIO}x); "
          f"pipeline's server commands per question: {sum(sent.values()):.1f} "
          f"(goal <= {GOAL_COMMANDS}), PINGs {sent.get('ping', 0):.1f}")
    return ratio <= GOAL_RATIO and sum(sent.values()) <= GOAL_COMMANDS


def main(repeats: int = 30) -> int:
    try:
        import langchain_falkordb  # noqa: F401
    except ImportError:
        print("LangChain's FalkorDB chain is not installed, so there is nothing to compare with: "
              "install the optional extra with `pip install -e \".[peers]\"` and run this again.")
        return 0
    started = time.perf_counter()
    with bench_database() as db:
        load_college(db)
        met = compare(db, repeats)
        per_step(db, max(repeats // 3, 3))
        assert db.counts() == {"nodes": 75, "relationships": 132}
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 30))
