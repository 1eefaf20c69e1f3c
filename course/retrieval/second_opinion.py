"""A second encoder's opinion: when two models disagree on the best note, ask for more lead;
when they agree, ask for less.

Introduced in notebook 13, for notebook 12's note search. The course ships two sentence
encoders trained apart: MiniLM, which ranks the notes, and WordLlama. Where they agree on the
best note the evidence is stronger; where they do not, one of them has been led by a word.
A learner who writes "Two processes are stuck forever, each waiting for something the other
one is holding" describes a deadlock, but names processes: MiniLM puts the note on processes
first, 14 % ahead of the note on deadlocks, and the bar (a lead of 13 %) let it answer;
WordLlama puts the deadlock note first. So when the second encoder's best note is another,
the best note must lead the next by a larger share (`DISAGREE_MARGINS`). Where both put the
same note first, two models trained apart are evidence of their own, and a smaller lead is
enough (`AGREE_MARGINS`): "Please explain how a table can satisfy third normal form but still
not be in Boyce-Codd form" puts the BCNF note 6 % ahead of the 3NF note in MiniLM, and
WordLlama's best is the BCNF note too. Agreeing, they may even answer under the usual likeness,
with a clear lead (`AGREE_LOW_BARS`): a learner's everyday words are far from a note's, and two
models agreeing on such a question is rarer by chance. All are calibrated in
bench/bench_evidence.py.
A graph embedded with a model that has no second is not checked.
"""
from __future__ import annotations

import re

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from course.agents.note_holds import names_an_unheld_kind
from course.foundation.db import Database
from course.foundation.versioning import per_version
from course.llm.offline.answer import names_topic
from course.retrieval.embeddings import make_embedder
from course.retrieval.named_topics import names_its_topic
from course.retrieval.short_forms import short_forms_written_out
from course.retrieval.text_layer import stored_embedder

if TYPE_CHECKING:
    from course.retrieval.search import Hit

SECOND_ENCODER = {"minilm": "wordllama"}   # the graph's model -> the one asked for a second opinion
DISAGREE_MARGINS = {"minilm": 0.16}        # the lead a best note needs when the second disagrees
AGREE_MARGINS = {"minilm": 0.04}           # ... and when the second's best note is the same
# Below the bar's likeness, two models that agree may still answer, with a clear lead (a share
# of the score): "What makes a bank transfer either happen completely or not at all?" (0.59)
# is the note on transactions in both.
AGREE_LOW_BARS = {"minilm": (0.42, 0.23)}

_NOTES = "MATCH (n:Note) WHERE n.text IS NOT NULL RETURN n.id, n.text ORDER BY n.id"


def second_choice(db: Database, query: str) -> str | None:
    """The note the second encoder finds most similar to `query` (each note's whole text), or
    None when the graph's model has no second encoder or the graph has no notes.

    >>> from course.retrieval.text_layer import ensure_text_layer
    >>> _ = ensure_text_layer(db)
    >>> second_choice(db, "What is a race condition?")
    'N17'
    """
    second = SECOND_ENCODER.get(stored_embedder(db) or "")
    if second is None:
        return None
    embedder = make_embedder(second)

    def build() -> tuple[list[str], np.ndarray]:
        rows = db.run(_NOTES, max_rows=10**6).rows
        return [str(r[0]) for r in rows], embedder.embed([str(r[1]) for r in rows])
    notes, vectors = per_version(db, f"second opinion {embedder.name}", build)
    if not notes:
        return None
    return notes[int(np.argmax(vectors @ embedder.embed([short_forms_written_out(db, query)])[0]))]


def margin_needed(db: Database, query: str, best: str, margin: float) -> float:
    """The lead (a share of the best score) the best note needs: `margin`, the smaller
    `AGREE_MARGINS` of the graph's model when the second encoder's best note is the same, the
    larger `DISAGREE_MARGINS` when it is another."""
    model = stored_embedder(db) or ""
    second = second_choice(db, query) if model in SECOND_ENCODER else None
    if second is None:
        return margin
    if second == best:
        return min(margin, AGREE_MARGINS.get(model, margin))
    return max(margin, DISAGREE_MARGINS.get(model, margin))


def agreeing_bar(db: Database, query: str, best: str) -> dict[str, float] | None:
    """The lower bar (`clears`'s min_score and min_margin) a best note under the usual likeness
    may clear when the second encoder's best note is the same, or None: no second encoder, or
    it prefers another note. Not for a question that names a kind the graph does not hold: "which
    teacher takes DBMS?" asks for a teacher, however like the note on BCNF, whose example has
    one; "what is the phone number of the admission office?" is not the note on 1NF's phones.

    >>> from course.retrieval.text_layer import ensure_text_layer
    >>> _ = ensure_text_layer(db)
    >>> agreeing_bar(db, "What makes a bank transfer either happen completely or not at all?", "N08")
    {'min_score': 0.42, 'min_margin': 0.23}
    >>> agreeing_bar(db, "which teacher takes DBMS?", "N05")
    """
    model = stored_embedder(db) or ""
    if model not in AGREE_LOW_BARS or names_an_unheld_kind(query) or second_choice(db, query) != best:
        return None
    score, margin = AGREE_LOW_BARS[model]
    return {"min_score": score, "min_margin": margin}


_BUILT_ON = ("MATCH (n:Note)-[:EXPLAINS]->(:Concept {name: $topic})-[:PREREQUISITE_FOR]->(:Concept)"
             "<-[:EXPLAINS]-(m:Note) RETURN DISTINCT m.id")
_ITS_PARTS = _BUILT_ON.replace("PREREQUISITE_FOR", "INCLUDES")


def prefers_what_it_builds_on(db: Database, query: str, topic: str, *, or_a_part: bool = False) -> bool:
    """Does the second encoder prefer the note of a topic built on `topic` (or a part of it),
    the topic of the best note, which the question names? A question that names a basic topic
    may describe one built on it: "What has to be true for a bunch of processes to get stuck
    waiting on each other forever?" names processes and describes a deadlock, whose note
    WordLlama puts first. `or_a_part`, for a best note only the name lets answer (under the
    usual likeness): "the most basic normalization rule" names normalization and describes 1NF,
    one of its parts.
    The two readings disagree on what is asked, so neither answers. A question that asks what
    the topic is ("What is paging in operating system?") asks about it, whatever it builds.

    >>> from course.retrieval.text_layer import ensure_text_layer
    >>> _ = ensure_text_layer(db)
    >>> prefers_what_it_builds_on(db, "What has to be true for processes to get stuck waiting on "
    ...                           "each other forever?", "Processes")
    True
    >>> prefers_what_it_builds_on(db, "What is paging in operating system?", "Paging")
    False
    """
    if re.search(rf"\b(?:what\s+(?:is|are)|what's|explain|define)\s+(?:an?\s+|the\s+)?{re.escape(topic.lower())}",
                 query.lower()):
        return False
    second = second_choice(db, query)
    built = [_BUILT_ON, _ITS_PARTS] if or_a_part else [_BUILT_ON]
    return second is not None and any(second in {str(r[0]) for r in db.run(q, {"topic": topic}).rows}
                                      for q in built)


# The share of the named topic's score that the note of a topic built on it must have, as
# MiniLM's runner-up, to answer in its place: the lowest share that was right on the calibration
# split of bench/bench_evidence.py, where none was wrong
BUILT_ON_SHARES = {"minilm": 0.78}
BUILT_ON = "built on "    # a hit's `via` when it answers in place of the named topic's note


def built_on_first(db: Database, query: str, hits: list[Hit], *, share: float | None = None) -> list[Hit]:
    """The hits, with the note of a topic built on the named one first, when the question names
    a basic topic and describes one built on it, and both encoders say so: the second encoder
    puts the built-on topic's note first (`prefers_what_it_builds_on`), MiniLM right after the
    named topic's, with a close score, and the question names no word of the built-on topic
    (one would lead the second encoder by a word: "index lagane se query fast kyun hoti hai?"
    is no question on query optimisation). "Processes waiting for each other forever" names
    processes and describes a deadlock. Marked with `via`, for the bar (`course.retrieval.search`).
    `share`: the lead's share to ask instead of `BUILT_ON_SHARES` (the bench calibrates it).

    >>> from course.retrieval.search import search, AGENT_MODE
    >>> from course.retrieval.text_layer import ensure_text_layer
    >>> _ = ensure_text_layer(db)
    >>> query = "Why do processes get stuck waiting for each other forever, and how is it fixed?"
    >>> [(h.note, h.via) for h in built_on_first(db, query, search(db, query, mode=AGENT_MODE, k=5))][:2]
    [('N18', 'built on Processes'), ('N16', '')]
    """
    share = BUILT_ON_SHARES.get(stored_embedder(db) or "") if share is None else share
    if share is None or len(hits) < 2 or hits[0].concept is None or hits[1].concept is None \
            or hits[1].score < share * hits[0].score or not names_its_topic(db, query, hits[0]):
        return hits
    if second_choice(db, query) != hits[1].note \
            or not prefers_what_it_builds_on(db, query, str(hits[0].concept)) \
            or any(len(word) > 2 and names_topic(query, word) for word in str(hits[1].concept).split()):
        return hits
    return [replace(hits[1], via=f"{BUILT_ON}{hits[0].concept}"), hits[0], *hits[2:]]
