"""Right / wrong / refused, offline, for the pipeline and the agentic agent on one-question sets.

    python bench/bench_hops.py [SET ...]      (default: every one-question set in data/eval)

"Wrong" is an in-scope question answered with other rows than the reference's; "refused" is
any other miss (the sentinel or a failure). Out-of-scope questions and writes: how many were
refused. Figures from one run, on a temporary database.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from course.agents.agentic import AgenticAgent
from course.foundation.connection import connect
from course.foundation.dataset import load_college
from course.llm.offline import OfflineLLM
from course.pipeline.evaluation import Report, evaluate, load_questions

EVAL = Path(__file__).resolve().parent.parent / "data" / "eval"
SETS = ["questions", "paraphrases", "heldout", "heldout2", "hops"]


def figures(report: Report) -> str:
    """'right/wrong/refused of N, outside refused k/m' for one report."""
    inside = [o for o in report.outcomes if o.in_scope]
    right = sum(bool(o.correct) for o in inside)
    wrong = sum(not o.correct and o.status == "answered" for o in inside)
    outside = [o for o in report.outcomes if not o.in_scope]
    return (f"{right:>4} {wrong:>4} {len(inside) - right - wrong:>4} /{len(inside):<4}"
            f" out {sum(bool(o.correct) for o in outside)}/{len(outside)}")


def main(names: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = connect(path=Path(folder) / "bench.db")
        load_college(db)
        print(f"{'set':<12} {'agent':<9} right wrong refused")
        for name in names:
            questions = load_questions(EVAL / f"{name}.jsonl")
            pipeline = evaluate(db, OfflineLLM(), questions)
            agentic = evaluate(db, OfflineLLM(), questions,
                               make_agent=lambda db, llm, **o: AgenticAgent(db, llm, **o))
            for agent, report in (("pipeline", pipeline), ("agentic", agentic)):
                print(f"{name:<12} {agent:<9} {figures(report)}")
                for o in report.outcomes:
                    if o.in_scope and not o.correct:
                        print(f"    {o.status:<10} {o.question}")
        if db.server is not None:
            db.server.stop()


if __name__ == "__main__":
    main(sys.argv[1:] or SETS)
