"""Measuring a search: recall@1, recall@3 and MRR of a mode on questions with known notes.

Introduced in notebook 13 (section 9, modes x embedders). `data/eval/retrieval.jsonl` holds 30
questions that paraphrase a note without naming its concept, each with the notes that answer it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from course.foundation.config import PROJECT_ROOT
from course.foundation.db import Database
from course.foundation.errors import InvalidInput
from course.retrieval.search import search
from course.retrieval.text_layer import stored_embedder

EVAL_FILE = PROJECT_ROOT / "data" / "eval" / "retrieval.jsonl"


@dataclass(frozen=True)
class SearchQuestion:
    id: str
    question: str
    notes: tuple[str, ...]


def load_search_questions(path: Path = EVAL_FILE) -> list[SearchQuestion]:
    """data/eval/retrieval.jsonl: paraphrased questions, each with the notes that answer it.

    >>> questions = load_search_questions()
    >>> len(questions), questions[0].question, questions[0].notes
    (30, 'Why would I split one big table with repeated data into several smaller ones?', ('N01',))
    """
    questions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                row = json.loads(line)
                questions.append(SearchQuestion(row["id"], row["question"], tuple(row["notes"])))
            except (ValueError, KeyError, TypeError) as exc:
                raise InvalidInput(f"{path.name}, line {number}: not a question with notes ({exc}).") from exc
    return questions


def score_search(db: Database, questions: Sequence[SearchQuestion], *, mode: str,
                 embedder: str | None = None, depth: int = 10) -> dict[str, Any]:
    """recall@1, recall@3 and MRR (first right note within `depth`) of one mode."""
    ranks = []
    for q in questions:
        notes = list(dict.fromkeys(h.note for h in search(db, q.question, mode=mode, k=depth,
                                                          embedder=embedder)))
        ranks.append(next((i for i, note in enumerate(notes, 1) if note in q.notes), None))
    n = len(ranks) or 1
    return {"embedder": stored_embedder(db), "mode": mode, "questions": len(ranks),
            "recall@1": round(sum(r == 1 for r in ranks) / n, 3),
            "recall@3": round(sum(r is not None and r <= 3 for r in ranks) / n, 3),
            "mrr": round(sum(1 / r for r in ranks if r) / n, 3)}
