"""The offline provider's figures for data/eval/README.md: right, wrong and refused, and crashes.

    python bench/bench_offline.py [N_ODD]

For each question set in data/eval: execution accuracy (in scope), and of the in-scope
questions not answered right, how many came back wrong (an answer with other rows) and how
many were refused (the sentinel, or a failure). Then N_ODD odd questions (default 1,868),
generated from the real schema prompt's own names (label nouns, relationship words, property
names, linked values) and connectors ("for a", "per", "and", "aur", "ke"), are asked of the
agent one by one; a question whose answer raises out of the agent, or whose rules fail (the
provider logs the error and refuses), is a crash.
Figures from one run; the generated questions come from a fixed seed.
"""
from __future__ import annotations

import logging
import random
import sys
import tempfile
from pathlib import Path

from course.foundation.connection import connect
from course.foundation.dataset import load_college
from course.llm.offline import OfflineLLM
from course.pipeline.agent import Agent
from course.pipeline.evaluation import evaluate, load_questions
from course.pipeline.memory import ShortTermMemory
from course.pipeline.schema import introspect

SETS = ["questions.jsonl", "paraphrases.jsonl", "heldout.jsonl", "heldout2.jsonl"]
EVAL = Path(__file__).resolve().parent.parent / "data" / "eval"
CONNECTORS = ["for a", "per", "of", "and", "aur", "ke", "with", "in", "or", "by", "se", "ka",
              "which", "who", "how many", "kya", "kaun", "more than one", "at least 2", ">", "<",
              "first", "oldest", "that", "those", "the", "each", "every", "and what is"]
STARTS = ["Show", "List", "Show notes for a", "List skills per", "Which", "Who", "How many",
          "Tell me about", "kaun", "kya", "and", "what about", ""]


def odd_questions(db, n: int, seed: int = 7) -> list[str]:
    """Questions made of the schema's own words in random order: many make no sense."""
    schema = introspect(db)
    text = schema.render()
    labels = [line.split()[1] for line in text.splitlines() if line.startswith("- ") and "{" in line
              and not line.startswith("- (")]
    nouns = [w for label in labels for w in (label.lower(), label.lower() + "s")]
    types = [t for t in db.run("CALL db.relationshipTypes()").rows for t in t]
    relation = [w for t in types for w in t.lower().split("_")]
    props = sorted({p for line in text.splitlines() if "{" in line
                    for p in line[line.find("{") + 1:line.find("}")].split(", ") if p})
    values = [r[0] for r in db.run("MATCH (n) WHERE n.name IS NOT NULL RETURN n.name").rows]
    words = nouns + relation + props + values[:25] + CONNECTORS
    rng = random.Random(seed)
    found = []
    for i in range(n):
        start = rng.choice(STARTS)
        body = " ".join(rng.choice(words) for _ in range(rng.randint(1, 7)))
        found.append(f"{start} {body}".strip() + rng.choice(["", "?", "!"]))
    return found


class _Failures(logging.Handler):
    """The rules' own failures: the provider logs one and refuses, so no answer raises."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def crashes(db, questions: list[str]) -> list[tuple[str, str]]:
    """(question, error) for each question whose answer raised, or whose rules failed (logged,
    then refused); every third one in a conversation."""
    found, agent = [], Agent(db, OfflineLLM(), memory=ShortTermMemory())
    failures = _Failures()
    logging.getLogger("course.llm.offline").addHandler(failures)
    for i, question in enumerate(questions):
        if i % 3 == 0:
            agent = Agent(db, OfflineLLM(), memory=ShortTermMemory())
        try:
            agent.answer(question)
        except Exception as exc:  # noqa: BLE001 - counting them is the point
            found.append((question, f"{type(exc).__name__}: {exc}"))
        if failures.records:
            exc = failures.records[-1].exc_info
            found.append((question, f"rules failed: {exc[1]!r}" if exc else "rules failed"))
            failures.records.clear()
    logging.getLogger("course.llm.offline").removeHandler(failures)
    return found


def main(n_odd: int = 1868) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = connect(path=Path(folder) / "bench.db")
        load_college(db)
        print(f"{'set':<20}{'accuracy':>9}{'right':>7}{'wrong':>7}{'refused':>9}{'of':>5}")
        for name in SETS:
            report = evaluate(db, OfflineLLM(), load_questions(EVAL / name))
            inside = [o for o in report.outcomes if o.in_scope]
            right = sum(bool(o.correct) for o in inside)
            wrong = sum(not o.correct and o.status == "answered" for o in inside)
            refused = len(inside) - right - wrong
            outside = [o for o in report.outcomes if not o.in_scope]
            print(f"{name:<20}{report.scores()['execution_accuracy']:>9.3f}{right:>7}{wrong:>7}"
                  f"{refused:>9}{len(inside):>5}   out of scope/writes refused "
                  f"{sum(bool(o.correct) for o in outside)}/{len(outside)}")
        crashed = crashes(db, odd_questions(db, n_odd))
        print(f"odd generated questions: {n_odd}, crashed: {len(crashed)}")
        for question, error in crashed[:5]:
            print(f"  {question!r}: {error}")
        if db.server is not None:
            db.server.stop()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1868)
