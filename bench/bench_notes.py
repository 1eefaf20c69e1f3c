"""Note ranking per search mode: recall@1 and MRR on every set whose questions a note answers.

    python bench/bench_notes.py

Sets: retrieval.jsonl (the notes that answer each question), notes.jsonl, notes2.jsonl and the
note questions of unseen.jsonl and unseen2.jsonl (the note each names as its first row). The
right note's rank among the first 10 notes a mode returns; a note not there counts 0 in MRR.
The default embedder (minilm; COURSE_EMBEDDER=wordllama for the other). Then hybrid's keyword weight
(`course.retrieval.search.KEYWORD_WEIGHT`) per value: chosen on retrieval + notes (the
calibration split), the other sets reported beside it. One run.
"""
from __future__ import annotations

from _database import bench_database
from bench_evidence import note_questions
from course.foundation.dataset import load_college
import course.retrieval.search as searching
from course.retrieval.search import MODES, search

SETS = ("retrieval", "notes", "notes2", "unseen", "unseen2", "unseen3", "unseen4", "unseen5")
DEPTH = 10
WEIGHTS = (0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)


def rank(db, question: str, note: str, mode: str) -> int | None:   # type: ignore[no-untyped-def]
    notes = list(dict.fromkeys(h.note for h in search(db, question, mode=mode, k=DEPTH)))
    return notes.index(note) + 1 if note in notes else None


def row(db, questions, mode: str) -> list[str]:   # type: ignore[no-untyped-def]
    """recall@1 and MRR of one mode on every set."""
    cells = []
    for name in SETS:
        ranks = [rank(db, q, n, mode) for q, n in questions[name]]
        n = len(ranks) or 1
        cells.append(f"{sum(r == 1 for r in ranks):>3}/{len(ranks):<3} "
                     f"{sum(1 / r for r in ranks if r) / n:>5.3f}")
    return cells


def main() -> None:
    with bench_database() as db:
        load_college(db)
        questions = {name: list(note_questions(name)) for name in SETS}
        print(f"{'mode':<9} " + " ".join(f"{name + f' ({len(questions[name])})':>17}" for name in SETS))
        print(f"{'':<9} " + " ".join(f"{'r@1   MRR':>17}" for _ in SETS))
        for mode in MODES:
            cells = row(db, questions, mode)
            print(f"{mode:<9} " + " ".join(f"{c:>17}" for c in cells))
        print(f"\nhybrid by keyword weight (in the code: {searching.KEYWORD_WEIGHT})")
        chosen = searching.KEYWORD_WEIGHT
        for weight in WEIGHTS:
            searching.KEYWORD_WEIGHT = weight
            print(f"{weight:<9} " + " ".join(f"{c:>17}" for c in row(db, questions, "hybrid")))
        searching.KEYWORD_WEIGHT = chosen


if __name__ == "__main__":
    main()
