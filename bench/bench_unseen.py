"""Unseen questions (issue 23): right / wrong / refused per agent and per kind, offline.

    python bench/bench_unseen.py [SET.jsonl ...] [--misses] [--agent NAME]
        (default: data/eval/unseen.jsonl, every agent)

A set is in the multi-part format of data/eval/README.md: each line has `parts`, each part a
reference query (a note question's part: the note that answers it, `first_row`), or `null`
when the question must be refused (out of scope, or a write). Lines sharing a `conversation`
are asked in order of one agent with short-term memory (a follow-up); every other line is
asked of a fresh agent. Each agent is the one `course ask --agent NAME` gives: the pipeline
(notebook 05), the tool loop (11), the agentic agent with the planner's tools and notebook
13's search (14). A part is right when one of the agent's row sets equals its reference's
rows (`course.agents.agentic_eval.judge`, as bench_agentic.py scores).

Per agent and kind: right (every part right; a must-refuse question refused) / half (some
parts) / wrong (answered, no part right; a must-refuse question answered) / refused; a note
question is right only when the note its part names is the first row found. A half answer
with a found part that matches no reference is counted below the table and marked `half*`:
a wrong part, or a right one in another row shape (read it). Figures
from one run, on COURSE_DB (or FALKORDB_URL) when set, else a temporary database.
"""
from __future__ import annotations

import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from _database import bench_database
from course.agents.agentic_eval import Part, PartQuestion, judge
from course.agents.tools import ToolAgent
from course.foundation.config import PROJECT_ROOT
from course.foundation.db import Database
from course.llm.offline import OfflineLLM
from course.pipeline.agent import Agent
from course.pipeline.evaluation import REFUSED, json_lines
from course.pipeline.memory import ShortTermMemory
from course.planner.planner_tools import learner_agent

DEFAULT_SET = PROJECT_ROOT / "data" / "eval" / "unseen.jsonl"
VERDICTS = ("right", "half", "wrong", "refused", "failed")
AGENTS: dict[str, Callable[[Database], Any]] = {
    "pipeline": lambda db: Agent(db, OfflineLLM(), memory=ShortTermMemory()),
    "tools": lambda db: ToolAgent(db, OfflineLLM(), memory=ShortTermMemory()),
    "agentic": lambda db: learner_agent(db, OfflineLLM(), memory=ShortTermMemory()),
}


def load(path: Path) -> list[dict[str, Any]]:
    """The set's lines, as written (a null reference: the question must be refused)."""
    return [line for _, line in json_lines(path, what="unseen set", example=DEFAULT_SET.name)]


def conversations(lines: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """The lines in groups asked of one agent: a conversation's lines together, in order."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        key = line.get("conversation") or f"alone:{line['id']}"
        groups.setdefault(key, []).append(line)
    yield from groups.values()


def verdict(db: Database, line: dict[str, Any], result: Any) -> str:
    """right / half / wrong / refused / failed for one line's result."""
    parts = line["parts"]
    if any(p.get("reference") is None for p in parts):    # must be refused: a refusal is right
        return "right" if result.status in REFUSED else "wrong"
    question = PartQuestion(line["id"], line["question"], line["kind"], tuple(
        Part(p.get("question", ""), p["reference"], bool(p.get("ordered")), bool(p.get("first_row")))
        for p in parts))
    found = judge(db, question, result).verdict
    return "right" if found == "full" else found


def unmatched(db: Database, line: dict[str, Any], result: Any) -> int:
    """Parts the agent answered beyond those that match a reference: in a half answer, a part
    answered wrongly (or in another row shape: read it). 0 when it cannot tell."""
    if result.status != "answered" or any(p.get("reference") is None for p in line["parts"]):
        return 0
    question = PartQuestion(line["id"], line["question"], line["kind"], tuple(
        Part(p.get("question", ""), p["reference"], bool(p.get("ordered")), bool(p.get("first_row")))
        for p in line["parts"]))
    answered = len({s.part for s in getattr(result, "sub_questions", []) if s.found})
    return max(0, answered - judge(db, question, result).right)


def score(db: Database, lines: list[dict[str, Any]], make: Callable[[Database], Any]
          ) -> list[tuple[dict[str, Any], str, Any]]:
    """(line, verdict, result) for every line, conversations asked in order."""
    out = []
    for group in conversations(lines):
        agent = make(db)
        for line in group:
            result = agent.answer(line["question"])
            out.append((line, verdict(db, line, result), result))
    return out


def table(name: str, scored: list[tuple[dict[str, Any], str, Any]]) -> None:
    by_kind: dict[str, Counter[str]] = defaultdict(Counter)
    for line, found, _ in scored:
        by_kind[line["kind"]][found] += 1
        by_kind["ALL"][found] += 1
    for kind in sorted(by_kind, key=lambda k: (k == "ALL", k)):
        counts = by_kind[kind]
        print(f"{name:<9} {kind:<13} " + " ".join(f"{counts[v]:>7}" for v in VERDICTS)
              + f" {sum(counts.values()):>6}")


def main(args: list[str]) -> None:
    misses = "--misses" in args
    chosen = args[args.index("--agent") + 1] if "--agent" in args[:-1] else None
    if "--agent" in args and chosen not in AGENTS:
        sys.exit(f"--agent takes one of {', '.join(AGENTS)}")
    args = [a for a in args if a != chosen]
    paths = [Path(a) for a in args if not a.startswith("--")] or [DEFAULT_SET]
    with bench_database() as db:
        from course.foundation.dataset import load_college

        load_college(db)
        for path in paths:
            lines = load(path)
            print(f"\n{path.name}: {len(lines)} questions, offline; a half answer is not right\n")
            print(f"{'agent':<9} {'kind':<13} " + " ".join(f"{v:>7}" for v in VERDICTS)
                  + f" {'of':>6}")
            for name, make in AGENTS.items():
                if chosen not in (None, name):
                    continue
                scored = score(db, lines, make)
                table(name, scored)
                extra = {line["id"]: unmatched(db, line, result) for line, found, result in scored
                         if found == "half"}
                if any(extra.values()):
                    print(f"{name:<9} half answers with a found part that matches no reference "
                          f"(a wrong part, or another row shape): {sum(1 for n in extra.values() if n)}")
                if misses:
                    for line, found, result in scored:
                        if found != "right":
                            mark = "*" if extra.get(line["id"]) else ""
                            print(f"    {found + mark:<7} {line['id']} {line['question']!r} -> "
                                  f"{result.status}: {(result.answer or '')[:90]!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
