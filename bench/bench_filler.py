"""Filler or meaning: how alike a question stays without one word (course.retrieval.filler).

    python bench/bench_filler.py

data/eval/filler_words.jsonl holds questions, each with one word marked filler ("Any idea which
clubs Karan is in?": "idea") or meaning-bearing ("What is Sneha's date of birth?": "date"),
written before any threshold was chosen. For each: is the word the one word the rules' reading
does not know (only such a word is ever dropped), and how alike MiniLM finds the question with
and without it.
Prints each line, the meaning-bearing word most alike, and what `FILLER_SIMILARITY` keeps:
fillers dropped, meaning-bearing words dropped (a question asked as another: the error that
counts). One run; the similarities do not depend on the machine.
"""
from __future__ import annotations

import json

from _database import bench_database
from course.foundation.config import PROJECT_ROOT
from course.foundation.dataset import load_college
from course.retrieval.embeddings import make_embedder
from course.retrieval.filler import FILLER_SIMILARITY, unknown_to_the_rules, without

SET = PROJECT_ROOT / "data" / "eval" / "filler_words.jsonl"


def main() -> None:
    lines = [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines() if line.strip()]
    model = make_embedder("minilm")
    rows = []
    with bench_database() as db:
        load_college(db)
        for line in lines:
            unknown = unknown_to_the_rules(db, line["question"]) == [line["word"]]
            first, second = model.embed([line["question"], without(line["question"], line["word"])])
            rows.append((line["filler"], unknown, float(first @ second), line["question"]))
    for filler, unknown, similarity, question in sorted(rows, key=lambda r: r[2]):
        print(f"{'filler ' if filler else 'meaning'} {similarity:.3f} "
              f"{'unknown' if unknown else 'not one'} {question}")
    meaning = [s for f, u, s, _ in rows if not f and u]
    fillers = [s for f, u, s, _ in rows if f and u]
    print(f"\nunknown words: {len(fillers)} filler, {len(meaning)} meaning-bearing")
    print(f"meaning-bearing, most alike: {max(meaning):.3f}; fillers above it: "
          f"{sum(s > max(meaning) for s in fillers)} of {len(fillers)}")
    kept = sum(s >= FILLER_SIMILARITY for s in fillers)
    wrong = sum(s >= FILLER_SIMILARITY for s in meaning)
    print(f"at FILLER_SIMILARITY {FILLER_SIMILARITY}: fillers dropped {kept} of {len(fillers)}, "
          f"meaning-bearing words dropped {wrong} of {len(meaning)}")


if __name__ == "__main__":
    main()
