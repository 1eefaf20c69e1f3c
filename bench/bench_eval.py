"""Where the time of an offline evaluation goes: the rules themselves vs the agent's round trip.

    python bench/bench_eval.py [REPEATS]

Runs the committed question set through the agent with the offline provider, then times
the offline provider alone on the very prompts the agent built (no database). The rules
should be a small share; the rest is the agent's own work (linking, cleaning, the guard) and
its round trips to FalkorDB (the plan, the query).
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from course.foundation.connection import connect
from course.foundation.dataset import load_college
from course.llm.offline import OfflineLLM
from course.pipeline.evaluation import evaluate, load_questions


class Recording(OfflineLLM):
    """The offline provider, keeping every (prompt, system) it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str | None]] = []

    def complete(self, prompt, *, system=None):
        self.calls.append((prompt, system))
        return super().complete(prompt, system=system)


def main(repeats: int = 3) -> None:
    questions = load_questions()
    with tempfile.TemporaryDirectory() as folder:
        db = connect(path=Path(folder) / "bench.db")
        load_college(db)
        llm = Recording()
        agent_ms = []
        for _ in range(repeats):
            report = evaluate(db, llm, questions)
            agent_ms.append(1000 * report.elapsed_s / len(questions))
        calls = llm.calls[: len(llm.calls) // repeats]
        rules_ms = []
        for _ in range(repeats):
            started = time.perf_counter()
            for prompt, system in calls:
                OfflineLLM().complete(prompt, system=system)
            rules_ms.append(1000 * (time.perf_counter() - started) / len(questions))
        if db.server is not None:
            db.server.stop()
    agent, rules = statistics.median(agent_ms), statistics.median(rules_ms)
    print(f"{len(questions)} questions, {len(calls)} provider calls per run, median of {repeats} runs")
    print(f"  agent, end to end     {agent:7.1f} ms per question")
    print(f"  offline rules alone   {rules:7.1f} ms per question ({100 * rules / agent:.0f}%)")
    print(f"  score                 {report.scores()['execution_accuracy']:.2f} execution accuracy")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
