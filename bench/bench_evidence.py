"""When is the best note an answer? The note search's evidence threshold, calibrated and reported.

    python bench/bench_evidence.py

The agent answers a question from a note only when the best note is similar enough to it and
clearly ahead of the second (`course.retrieval.search.NOTE_MIN_SCORE`, `NOTE_MIN_MARGIN`, on
the parent search's 1 - cosine distance). A note question whose best note is the right one is
a right answer; one whose best note is another note, or a question no note answers (out of
scope), that clears the threshold is a wrong one, and a wrong answer counts three refusals.

Calibration split: notes.jsonl and retrieval.jsonl (the notes that answer them), and the
out-of-scope questions of questions.jsonl and paraphrases.jsonl. Report split, never used to
choose: notes2.jsonl, the note questions of unseen.jsonl, and the out-of-scope questions of
heldout.jsonl, heldout2.jsonl and unseen.jsonl. Prints the best threshold on the calibration
split, the one the code uses, and right / wrong / of for both splits. One run.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from _database import bench_database
from course.foundation.config import PROJECT_ROOT
from course.foundation.dataset import load_college
from course.foundation.db import Database
from course.retrieval.search import (BEST_MODE, NOTE_MIN_MARGIN, NOTE_MIN_SCORE, Hit, clears,
                                     search)

EVAL = PROJECT_ROOT / "data" / "eval"
WRONG_COST = 3


def lines(name: str) -> Iterator[dict]:
    with open(EVAL / f"{name}.jsonl", encoding="utf-8") as f:
        yield from (json.loads(line) for line in f if line.strip())


def note_questions(name: str) -> Iterator[tuple[str, str]]:
    """(question, the note that answers it) of a set."""
    for d in lines(name):
        if "notes" in d:
            yield d["question"], d["notes"][0]
        elif d.get("kind") in ("note", "note_text") or name.startswith("notes"):
            for p in d.get("parts", []):
                if p.get("first_row") and "Note" in (p.get("reference") or ""):
                    yield d["question"], p["reference"].split("'")[1]


def outside(name: str) -> Iterator[str]:
    """The questions of a set that nothing in the graph answers (not the writes)."""
    for d in lines(name):
        refs = [d.get("reference", "")] if "parts" not in d else [p.get("reference") for p in d["parts"]]
        if None in refs and d.get("kind") not in ("write", "write_request"):
            yield d["question"]


def split(db: Database, notes: list[str], others: list[str]) -> tuple[list, list]:
    """The top hits of every note question (with its note) and every outside question."""
    top = lambda q: search(db, q, mode=BEST_MODE, k=2)   # noqa: E731
    return ([(top(q), n) for name in notes for q, n in note_questions(name)],
            [top(q) for name in others for q in outside(name)])


def tally(found: tuple[list, list], score: float, margin: float) -> tuple[int, int, int]:
    """right, wrong, questions: at this threshold."""
    notes, others = found
    ok = [(clears(h, min_score=score, min_margin=margin), h[0].note == n) for h, n in notes]
    right = sum(c and r for c, r in ok)
    wrong = sum(c and not r for c, r in ok) + sum(clears(h, min_score=score, min_margin=margin)
                                                  for h in others)
    return right, wrong, len(notes) + len(others)


def calibrate(found: tuple[list, list]) -> tuple[float, float]:
    """The (score, margin) that maximises right - WRONG_COST * wrong (the higher, on a tie)."""
    grid = [(s / 100, m / 1000) for s in range(20, 100) for m in range(0, 300, 5)]
    return max(grid, key=lambda t: (tally(found, *t)[0] - WRONG_COST * tally(found, *t)[1], t))


def main() -> None:
    with bench_database() as db:
        load_college(db)
        calibration = split(db, ["notes", "retrieval"], ["questions", "paraphrases"])
        report = split(db, ["notes2", "unseen", "unseen2"], ["heldout", "heldout2", "unseen", "unseen2"])
        best = calibrate(calibration)
        print(f"search mode {BEST_MODE}; a wrong answer costs {WRONG_COST} refusals")
        print(f"best on the calibration split: score >= {best[0]:.2f}, margin >= {best[1]:.3f}")
        print(f"in the code: score >= {NOTE_MIN_SCORE:.2f}, margin >= {NOTE_MIN_MARGIN:.3f}\n")
        print(f"{'split':<12} {'threshold':<10} {'right':>6} {'wrong':>6} {'of':>5}")
        for name, found in (("calibration", calibration), ("report", report)):
            for label, t in (("best", best), ("code", (NOTE_MIN_SCORE, NOTE_MIN_MARGIN))):
                right, wrong, n = tally(found, *t)
                print(f"{name:<12} {label:<10} {right:>6} {wrong:>6} {n:>5}")


if __name__ == "__main__":
    main()
