"""Keyword scores: BM25, the ranking full-text engines use, over the notes' own words.

Introduced in notebook 13. FalkorDB's full-text index finds the notes that hold a word; BM25
also weighs how rare each word is (inverse document frequency) and how long each note is, so a
note that says "subnet" twice in three lines beats one that says it once in a page. Hybrid
search adds it to the parent similarity (`course.retrieval.search.hybrid_search`).

>>> scores = bm25(["subnet", "mask"], ["A subnet mask splits an address.", "Routers forward packets.",
...                                    "DNS turns names into addresses."])
>>> [round(s, 2) for s in scores]
[1.76, 0.0, 0.0]
>>> round(bm25(["subnet", "firewall"], ["A subnet mask.", "Routers.", "DNS."], scaled=True)[0], 2)
0.24
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from course.foundation.db import Database

K1, B = 1.2, 0.75        # the usual BM25 constants: term saturation, length normalisation
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    """The lower-case words of a text (letters and digits)."""
    return _WORD.findall(text.lower())


def bm25(terms: Sequence[str], documents: Sequence[str], *, scaled: bool = False) -> list[float]:
    """One BM25 score per document for the query's terms (higher is better, 0: no term).

    `scaled`: each score over the query's own weight (the sum of its terms' IDF, a word no
    document holds weighing most), at most 1: how much of what the question asks a note covers.
    A question whose rare word no note has ("firewall") gets little from a common one it shares.
    """
    docs = [Counter(words(d)) for d in documents]
    if not docs:
        return []
    lengths = [sum(d.values()) for d in docs]
    average = sum(lengths) / len(docs) or 1.0
    wanted = list(dict.fromkeys(terms))
    df = {t: sum(t in d for d in docs) for t in wanted}
    idf = {t: math.log(1 + (len(docs) - df[t] + 0.5) / (df[t] + 0.5)) for t in wanted}
    scores = []
    for doc, length in zip(docs, lengths):
        score = 0.0
        for term in wanted:
            tf = doc.get(term, 0)
            if tf:
                score += idf[term] * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average))
        scores.append(score)
    if scaled:
        weight = sum(idf.values())
        return [min(1.0, s / weight) if weight else 0.0 for s in scores]
    return scores


_NOTES = """
MATCH (n:Note)
OPTIONAL MATCH (n)-[:EXPLAINS]->(c:Concept)
RETURN n.id, collect(c.name)[0], n.text ORDER BY n.id
"""


def note_keywords(db: Database, terms: Sequence[str]) -> list[tuple[str, str | None, float, str]]:
    """(note, concept, scaled BM25, text) of the notes that hold a term, best first; a note's
    concept name counts as its words too."""
    notes = db.run(_NOTES, max_rows=10**6).rows
    scores = bm25(terms, [f"{concept or ''} {text}" for _, concept, text in notes], scaled=True)
    ranked = sorted(zip(scores, notes), key=lambda s: (-s[0], s[1][0]))
    return [(note, concept, score, text) for score, (note, concept, text) in ranked if score > 0]
