"""Filler or meaning: how alike a question stays without its unknown words (course.retrieval.filler).

    python bench/bench_filler.py

data/eval/filler_words.jsonl holds questions, each with one word (or several) marked filler
("Any idea which clubs Karan is in?": "idea") or meaning-bearing ("What is Sneha's date of
birth?": "date"), written before any threshold was chosen. For each: are they the words the
rules' reading does not know (only those are ever dropped), how alike MiniLM finds the question
with and without them, and whether `filler_dropper` drops them.
Prints each line, then for one word and for several: the meaning-bearing line most alike, the
fillers dropped and the meaning-bearing words dropped (a question asked as another: the error
that counts). One run; the similarities do not depend on the machine.
"""
from __future__ import annotations

import json

from _database import bench_database
from course.foundation.config import PROJECT_ROOT
from course.foundation.dataset import load_college
from course.retrieval.embeddings import make_embedder
from course.retrieval.filler import FILLER_SIMILARITY, filler_dropper, unknown_to_the_rules, without

SET = PROJECT_ROOT / "data" / "eval" / "filler_words.jsonl"


def main() -> None:
    lines = [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines() if line.strip()]
    model = make_embedder("minilm")
    rows = []
    with bench_database() as db:
        load_college(db)
        drop = filler_dropper(db, model)
        for line in lines:
            words = line["word"].split()      # one word, or several the rules do not know
            shorter = line["question"]
            for word in words:
                shorter = without(shorter, word)
            first, second = model.embed([line["question"], shorter])
            rows.append({"filler": line["filler"], "several": len(words) > 1, "question": line["question"],
                         "unknown": unknown_to_the_rules(db, line["question"]) == words,
                         "similarity": float(first @ second), "dropped": drop(line["question"]) is not None})
    for row in sorted(rows, key=lambda r: r["similarity"]):
        print(f"{'filler ' if row['filler'] else 'meaning'} {row['similarity']:.3f} "
              f"{'unknown' if row['unknown'] else 'not all'} {'dropped' if row['dropped'] else 'kept   '} "
              f"{row['question']}")
    for several in (False, True):
        chosen = [r for r in rows if r["unknown"] and r["several"] == several]
        fillers = [r for r in chosen if r["filler"]]
        meaning = [r for r in chosen if not r["filler"]]
        print(f"\n{'several words' if several else 'one word'} the rules do not know: {len(fillers)} "
              f"filler, {len(meaning)} meaning-bearing (most alike without: "
              f"{max(r['similarity'] for r in meaning):.3f})")
        print(f"filler_dropper (FILLER_SIMILARITY {FILLER_SIMILARITY} and its guards) drops the fillers of "
              f"{sum(r['dropped'] for r in fillers)} of {len(fillers)}, the meaning-bearing words of "
              f"{sum(r['dropped'] for r in meaning)} of {len(meaning)}")


if __name__ == "__main__":
    main()
