"""Agentic RAG (notebook 12) against the pipeline and the tool loop, offline, on data/eval's sets.

    python bench/bench_agentic.py

1. The multi-part and note sets (multipart, notes, and the held-out multipart2, notes2):
   full / half / wrong / refused / failed, LLM calls and tokens per question, for the
   pipeline, the tool loop, and the agentic agent with the critic on and off. A half answer
   counts as wrong. Tokens: words+punct of what a chat-completions service would be sent and
   send back (`course.agents.agentic_eval.Meter`; offline, the router, updater and critic count the
   prompts they would send a model), the same way for every agent.
2. search_notes on the note sets (notes, notes2) and the multi-part sets: notebook 12's
   full-text search vs notebook 13's course search (hybrid, parent, vector), each with the
   tool's grounding rule (a note must hold every term asked) and without it.
3. The one-question sets (questions, paraphrases, heldout, heldout2): execution accuracy and
   LLM calls per question, pipeline vs agentic, so a gain on multi-part questions is not paid
   for with losses on single ones.

Uses COURSE_DB (or FALKORDB_URL) when set, as `make bench` does; else a temporary database.
"""
from __future__ import annotations

import time
from unittest import mock

import course.agents.agentic_tools

from _database import bench_database
from course.agents.agentic import AgenticAgent
from course.agents.agentic_eval import compare, evaluate_parts, load_parts
from course.foundation.config import PROJECT_ROOT
from course.foundation.dataset import load_college
from course.foundation.db import Database
from course.llm.offline import OfflineLLM
from course.pipeline.evaluation import evaluate, load_questions
from course.retrieval.search import note_search

EVAL = PROJECT_ROOT / "data" / "eval"
PART_SETS = ("multipart", "notes", "multipart2", "notes2")
ONE_QUESTION_SETS = ("questions", "paraphrases", "heldout", "heldout2")
COLUMNS = ("full", "half", "wrong", "refused", "failed")


def parts(db: Database) -> None:
    print(f"{'set':<11} {'agent':<20} " + " ".join(f"{c:>7}" for c in COLUMNS)
          + f" {'calls/q':>8} {'tokens/q':>9}")
    for name in PART_SETS:
        for row in compare(db, load_parts(EVAL / f"{name}.jsonl"), OfflineLLM()):
            print(f"{name:<11} {row['agent']:<20} " + " ".join(f"{row[c]:>7}" for c in COLUMNS)
                  + f" {row['llm_calls_per_question']:>8.2f} {row['tokens_per_question']:>9.0f}")


def searches(db: Database) -> None:
    """search_notes behind the agent: full-text vs course search, grounding rule on and off."""
    backends = {"fulltext (nb 12)": course.agents.agentic_tools.search_notes,
                **{f"{mode} (nb 13)": note_search(mode=mode) for mode in ("hybrid", "parent", "vector")}}
    print(f"{'set':<11} {'search_notes':<17} {'grounded':<9} " + " ".join(f"{c:>7}" for c in COLUMNS)
          + f" {'named':>6}")
    for ground in (True, False):
        # Without the rule: every row the search returns counts (patched for this measurement only).
        rule = (course.agents.agentic_tools.grounded if ground
                else (lambda q, c, rows: [list(r) for r in rows]))
        with mock.patch.object(course.agents.agentic_tools, "grounded", rule):
            for name in ("notes", "notes2", "multipart", "multipart2"):
                questions = load_parts(EVAL / f"{name}.jsonl")
                for label, search in backends.items():
                    report = evaluate_parts(db, lambda db, schema, search=search: AgenticAgent(
                        db, OfflineLLM(), schema=schema, search=search), questions, agent=label)
                    row = report.row()
                    print(f"{name:<11} {label:<17} {str(ground):<9} "
                          + " ".join(f"{row[c]:>7}" for c in COLUMNS)
                          + f" {row.get('full_and_note_named', ''):>6}", flush=True)


def one_question(db: Database) -> None:
    llm = OfflineLLM()
    print(f"{'set':<12} {'pipeline':>12} {'agentic':>12} {'calls/q':>15}")
    for name in ONE_QUESTION_SETS:
        questions = load_questions(EVAL / f"{name}.jsonl")
        pipeline = evaluate(db, llm, questions)
        agentic = evaluate(db, llm, questions,
                           make_agent=lambda db, llm, **o: AgenticAgent(db, llm, **o))
        p, a = (r.counts()["execution_accuracy"] for r in (pipeline, agentic))
        calls = [r.scores()["llm_calls_per_question"] for r in (pipeline, agentic)]
        print(f"{name:<12} {p[0]:>7}/{p[1]:<4} {a[0]:>7}/{a[1]:<4} {calls[0]:>7.2f} {calls[1]:>7.2f}")


def main() -> None:
    started = time.perf_counter()
    with bench_database() as db:
        load_college(db)
        print("offline provider; a question counts only when every part is right\n")
        parts(db)
        print()
        searches(db)
        print()
        one_question(db)
        assert db.counts() == {"nodes": 75, "relationships": 132}
    print(f"({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
