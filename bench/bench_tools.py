"""The tool loop (notebook 11) against the notebook-05 pipeline, offline, on data/eval's sets.

    python bench/bench_tools.py [REPEATS]

1. Accuracy, LLM calls and tokens per question, pipeline vs tool loop, on every set in
   data/eval, from one run, with the ratio tool loop / pipeline. The offline provider
   reports no tokens, so both are counted the same way, as "words+punct"
   (course.pipeline.prompt_size) of what a chat-completions service would be sent and would send back: the pipeline's
   system and user text; the loop's system text, whole history and tool specs, as JSON.
2. The agent's own time per step, the LLM's time taken away (median over the main set's
   questions, REPEATS runs each, default 3), for the loop per LLM call and for the pipeline
   per LLM call, and their ratio.

Uses COURSE_DB (or FALKORDB_URL) when set, as `make bench` does; else a temporary database.
"""
from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from course.agents.tools import ToolAgent
from course.foundation.config import PROJECT_ROOT, get_setting
from course.foundation.connection import connect
from course.foundation.dataset import load_college
from course.foundation.db import Database
from course.llm.base import LLM, ChatTurn, Completion, Message, ToolSpec
from course.llm.offline import OfflineLLM, OfflineToolLLM
from course.llm.openai_compat import chat_history, function_tool
from course.pipeline.agent import Agent
from course.pipeline.evaluation import evaluate, load_questions
from course.pipeline.prompt_size import size

SETS = ("questions", "paraphrases", "heldout", "heldout2")


def tokens(text: str) -> int:
    return size(text)["words+punct"]


class Meter(LLM):
    """Any LLM, with its calls, its time and the tokens it was sent and sent back added up."""

    def __init__(self, inner: LLM) -> None:
        self.inner, self.name, self.model = inner, inner.name, inner.model
        self.seconds, self.calls, self.sent, self.received = 0.0, 0, 0, 0

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        started = time.perf_counter()
        completion = self.inner.complete(prompt, system=system)
        self.seconds += time.perf_counter() - started
        self.calls += 1
        self.sent += tokens((system or "") + "\n" + prompt)
        self.received += tokens(completion.text)
        return completion

    def chat(self, system: str | None, messages: Sequence[Message],
             tools: Sequence[ToolSpec] = ()) -> ChatTurn:
        started = time.perf_counter()
        turn = self.inner.chat(system, messages, tools)
        self.seconds += time.perf_counter() - started
        self.calls += 1
        wire = {"messages": chat_history(system, messages), "tools": [function_tool(t) for t in tools]}
        self.sent += tokens(json.dumps(wire, ensure_ascii=False))
        self.received += tokens(turn.text + "".join(c.arguments_json for c in turn.tool_calls))
        return turn


def _pipeline(db: Database, llm: LLM, **options: Any) -> Agent:
    return Agent(db, llm, **options)


def _tools(db: Database, llm: LLM, **options: Any) -> ToolAgent:
    return ToolAgent(db, llm, **options)


def compare(db: Database) -> None:
    """Accuracy, calls and tokens per question on every set, pipeline vs tool loop."""
    print(f"{'set':<12} {'agent':<9} {'in scope':>9} {'refused':>8} {'calls/q':>8} "
          f"{'sent/q':>8} {'back/q':>7}")
    for name in SETS:
        questions = load_questions(PROJECT_ROOT / "data" / "eval" / f"{name}.jsonl")
        figures = {}
        for label, make, inner in (("pipeline", _pipeline, OfflineLLM()),
                                   ("tools", _tools, OfflineToolLLM())):
            meter = Meter(inner)
            report = evaluate(db, meter, questions, make_agent=make)
            counts, n = report.counts(), len(questions)
            refused = [counts[k] for k in ("out_of_scope_accuracy", "writes_refused")]
            figures[label] = (meter.calls / n, meter.sent / n, meter.received / n)
            right, total = counts["execution_accuracy"]
            print(f"{name:<12} {label:<9} {right:>4}/{total:<4} "
                  f"{sum(r for r, _ in refused):>3}/{sum(t for _, t in refused):<4} "
                  f"{figures[label][0]:>8.2f} {figures[label][1]:>8.0f} {figures[label][2]:>7.0f}")
        ratios = [t / p if p else float("nan") for t, p in zip(figures["tools"], figures["pipeline"])]
        print(f"{'':<12} {'ratio':<9} {'':>9} {'':>8} {ratios[0]:>7.2f}x {ratios[1]:>7.2f}x "
              f"{ratios[2]:>6.2f}x")


def own_time(db: Database, repeats: int) -> None:
    """The agents' own ms per LLM call (total minus the LLM's time), median over questions."""
    questions = [q.question for q in load_questions(PROJECT_ROOT / "data" / "eval" / "questions.jsonl")
                 if q.conversation is None]
    medians = {}
    for label, make, inner in (("pipeline", _pipeline, OfflineLLM()),
                               ("tools", _tools, OfflineToolLLM())):
        meter = Meter(inner)
        agent = make(db, meter)
        per_call = []
        for i in range(repeats + 1):            # the first run warms up and is not counted
            for question in questions:
                meter.seconds, meter.calls = 0.0, 0
                result = agent.answer(question)
                if i and meter.calls:
                    per_call.append((result.elapsed_ms - meter.seconds * 1000) / meter.calls)
        medians[label] = statistics.median(per_call)
        print(f"{label:<9} own time per step (LLM call), median of {len(per_call)}: "
              f"{medians[label]:.2f} ms")
    print(f"ratio tools / pipeline: {medians['tools'] / medians['pipeline']:.2f}x")


@contextmanager
def database() -> Iterator[Database]:
    """COURSE_DB's (or FALKORDB_URL's) database, else a temporary one, with the graph loaded."""
    if get_setting("COURSE_DB") or get_setting("FALKORDB_URL"):
        db = connect()
        load_college(db)
        yield db
        return
    with tempfile.TemporaryDirectory() as folder:
        db = connect(path=Path(folder) / "bench.db")
        try:
            load_college(db)
            yield db
        finally:
            if db.server is not None:
                db.server.stop()


def main(repeats: int = 3) -> None:
    started = time.perf_counter()
    with database() as db:
        print("offline provider; tokens counted as words+punct of what each call sends and gets back\n")
        compare(db)
        print()
        own_time(db, repeats)
        assert db.counts() == {"nodes": 75, "relationships": 132}
    print(f"({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
