"""What the notes do not cover: a question closer to another topic than to its best note.

Introduced in notebook 13, for notebook 12's note search. A sentence encoder puts "What does a
compiler do before my program runs?" nearest the note on depth-first search: nothing in the
notes is about compilers, and the nearest note is only the least far. A similarity bar cannot
tell that apart from a learner's own words for a note's topic (a learner's scenario is often no
closer to its note than that). So the search also holds one sentence for each of some sixty
topics of computer science the notes do not explain (data/retrieval/other_topics.txt): when the
question is closer to one of them than to every chunk of its best note, that note is not its
answer. A topic one of the graph's notes explains is left out, so a note a learner adds on it
(by ingestion) is never shadowed by it. The margin is per model, like the evidence bar
(bench/bench_evidence.py); a model with none is not checked.

A topic next door to a note can be the closer one for a single encoder: MiniLM puts "which
graph search gives the shortest route when edges don't have weights?" nearer the sentence on
Dijkstra's algorithm than the note on BFS, which answers it. So, as with the second opinion on
the best note (`course.retrieval.second_opinion`), the second encoder is asked too: a note is
set aside only when both find some topic of the list closer than it, the second by a margin
(`MARGINS`: any lead for MiniLM, more than 0.07 of cosine similarity for WordLlama, calibrated
in bench/bench_evidence.py). A topic's sentence only a little closer shares the question's
words, not its subject: "which graph traversal gives the shortest path when edges have no
weights?" is a hair nearer the sentence on Dijkstra's algorithm than the BFS note, in both. On
that bench's report split (the fresh sets to unseen35) the margin answered 181 note questions
from the right note, not 174, and none wrongly; on the development sets 12 more, none wrongly.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from course.foundation.config import PROJECT_ROOT
from course.foundation.db import Database
from course.foundation.versioning import per_version
from course.retrieval.embeddings import Embedder, make_embedder
from course.retrieval.named_topics import names as named
from course.retrieval.second_opinion import SECOND_ENCODER
from course.retrieval.short_forms import short_forms_written_out
from course.retrieval.text_layer import CHUNK_LABEL, CHUNK_LINK, chunk_vectors, stored_embedder

OTHER_TOPICS_FILE = PROJECT_ROOT / "data" / "retrieval" / "other_topics.txt"
COVERED_AT = 0.75            # a topic this similar to a chunk of the notes is theirs to answer
# Closer to a topic than to every chunk of the note by more than this, in each encoder: not its
# answer. Calibrated in bench/bench_evidence.py; a graph's model with none is not checked.
MARGINS = {"minilm": 0.0, "wordllama": 0.07}

_CHUNK_TEXTS = f"MATCH (c:{CHUNK_LABEL})-[:{CHUNK_LINK}]->(n:Note) RETURN n.id, c.text"
_NOTE_CHUNKS = f"MATCH (c:{CHUNK_LABEL})-[:{CHUNK_LINK}]->(:Note {{id: $note}}) RETURN c.embedding"


@lru_cache(maxsize=1)
def other_topics() -> tuple[str, ...]:
    """The sentences of data/retrieval/other_topics.txt (its comment lines left out).

    >>> other_topics()[0].startswith("A compiler")
    True
    """
    lines = OTHER_TOPICS_FILE.read_text(encoding="utf-8").splitlines()
    return tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def uncovered(db: Database, embedder: Embedder) -> tuple[list[str], np.ndarray]:
    """The topics none of the graph's chunks explains, and their vectors (once per data
    version: a note ingested on a topic takes it off the list)."""
    def build() -> tuple[list[str], np.ndarray]:
        topics = list(other_topics())
        vectors = embedder.embed(topics)
        _, chunks = chunk_vectors(db)
        if len(chunks):
            kept = (vectors @ np.asarray(chunks, dtype=np.float32).T).max(axis=1) < COVERED_AT
            topics, vectors = [t for t, k in zip(topics, kept) if k], vectors[kept]
        return topics, vectors
    return per_version(db, f"other topics {embedder.name}", build)


def closer_topic(db: Database, query: str, note: str) -> str | None:
    """The topic the query is closer to than to every chunk of `note`, by each encoder's
    margin (`MARGINS`), or None.

    >>> from course.retrieval.text_layer import ensure_text_layer
    >>> _ = ensure_text_layer(db)   # the notes' chunks, as the first search builds them
    >>> closer_topic(db, "What does a compiler do before my program runs?", "N14")[:10]
    'A compiler'
    >>> closer_topic(db, "Why does my program get slower when it uses more threads?", "N17") is None
    True
    """
    name = stored_embedder(db) or ""
    found = topic_leads(db, query, note)
    if found is None or name not in MARGINS:
        return None
    topic, lead, second_lead = found
    # (a topic the graph itself holds apart, with no note of its own: "CPU scheduling" of the
    # graph's Scheduling; then any lead of the second encoder is enough)
    second_margin = 0.0 if _a_topic_without_a_note(db, topic) else MARGINS.get(SECOND_ENCODER.get(name, ""), 0.0)
    return topic if lead > MARGINS[name] and second_lead > second_margin else None


_NOTELESS = "MATCH (c:Concept) WHERE NOT (c)<-[:EXPLAINS]-(:Note) RETURN c.name"


def _a_topic_without_a_note(db: Database, sentence: str) -> bool:
    """Does the sentence name a concept of the graph that no note explains?

    >>> _a_topic_without_a_note(db, "CPU scheduling algorithms decide which process runs next.")
    True
    """
    names = per_version(db, "concepts without a note", lambda: [str(r[0]) for r in db.run(_NOTELESS).rows])
    return any(named(sentence, n) for n in names)


def topic_leads(db: Database, query: str, note: str) -> tuple[str, float, float] | None:
    """The uncovered topic nearest the query, how much closer to the query it is than every
    chunk of `note` (a negative lead: farther), and the same lead of the nearest topic by the
    second encoder (`SECOND_ENCODER`; infinite when the graph's model has none). None when the
    graph has no embedded notes, the note no chunks, or every topic is covered.

    >>> from course.retrieval.text_layer import ensure_text_layer
    >>> _ = ensure_text_layer(db)
    >>> topic, lead, second = topic_leads(db, "What does a compiler do before my program runs?", "N14")
    >>> topic[:10], lead > 0.1, second > 0.1
    ('A compiler', True, True)
    """
    name = stored_embedder(db)
    if name is None:
        return None
    embedder = make_embedder(name)
    asked = embedder.embed([short_forms_written_out(db, query)])[0]
    rows = db.run(_NOTE_CHUNKS, {"note": note}).rows
    topics, vectors = uncovered(db, embedder)
    if not rows or not topics:
        return None
    to_note = float(np.max(np.asarray([r[0] for r in rows], dtype=np.float32) @ asked))
    similarity = vectors @ asked
    best = int(np.argmax(similarity))
    return topics[best], float(similarity[best]) - to_note, _second_lead(db, query, note, topics, name)


def _second_lead(db: Database, query: str, note: str, topics: list[str], name: str) -> float:
    """How much closer the second encoder finds the nearest of `topics` to the query than every
    chunk of `note`; infinite when the graph's model has no second (it is taken at its word)."""
    second = SECOND_ENCODER.get(name)
    if second is None:
        return float("inf")
    embedder = make_embedder(second)

    def build() -> tuple[dict[str, np.ndarray], np.ndarray]:
        rows = db.run(_CHUNK_TEXTS, max_rows=10**6).rows
        by_note: dict[str, list[str]] = {}
        for note_id, text in rows:
            by_note.setdefault(str(note_id), []).append(str(text))
        return {n: embedder.embed(texts) for n, texts in by_note.items()}, embedder.embed(topics)
    chunks, topic_vectors = per_version(db, f"other topics, second opinion {embedder.name}", build)
    if note not in chunks:
        return float("inf")
    asked = embedder.embed([short_forms_written_out(db, query)])[0]
    return float(np.max(topic_vectors @ asked)) - float(np.max(chunks[note] @ asked))
