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
set aside only when both find some topic of the list closer than it. On the development sets
this answered 13 more note questions from the right note, and one more wrong ("How do I balance
a binary search tree with rotations?" from the note on binary search trees).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from course.foundation.config import PROJECT_ROOT
from course.foundation.db import Database
from course.foundation.versioning import per_version
from course.retrieval.embeddings import Embedder, make_embedder
from course.retrieval.second_opinion import SECOND_ENCODER
from course.retrieval.text_layer import CHUNK_LABEL, CHUNK_LINK, chunk_vectors, stored_embedder

OTHER_TOPICS_FILE = PROJECT_ROOT / "data" / "retrieval" / "other_topics.txt"
COVERED_AT = 0.75            # a topic this similar to a chunk of the notes is theirs to answer
MARGINS = {"minilm": 0.0}    # closer to a topic than to the note by more than this: not its answer

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
    """The topic the query is closer to than to every chunk of `note`, or None.

    >>> from course.retrieval.text_layer import ensure_text_layer
    >>> _ = ensure_text_layer(db)   # the notes' chunks, as the first search builds them
    >>> closer_topic(db, "What does a compiler do before my program runs?", "N14")[:10]
    'A compiler'
    >>> closer_topic(db, "Why does my program get slower when it uses more threads?", "N17") is None
    True
    """
    name = stored_embedder(db)
    margin = MARGINS.get(name or "")
    if name is None or margin is None:
        return None
    embedder = make_embedder(name)
    asked = embedder.embed([query])[0]
    rows = db.run(_NOTE_CHUNKS, {"note": note}).rows
    if not rows:
        return None
    to_note = float(np.max(np.asarray([r[0] for r in rows], dtype=np.float32) @ asked))
    topics, vectors = uncovered(db, embedder)
    if not topics:
        return None
    similarity = vectors @ asked
    best = int(np.argmax(similarity))
    if float(similarity[best]) - to_note <= margin:
        return None
    return topics[best] if _second_agrees(db, query, note, topics, name) else None


def _second_agrees(db: Database, query: str, note: str, topics: list[str], name: str) -> bool:
    """Does the second encoder (`SECOND_ENCODER`) also find one of `topics` closer to the
    query than every chunk of `note`? A graph's model with no second is taken at its word."""
    second = SECOND_ENCODER.get(name)
    if second is None:
        return True
    embedder = make_embedder(second)

    def build() -> tuple[dict[str, np.ndarray], np.ndarray]:
        rows = db.run(_CHUNK_TEXTS, max_rows=10**6).rows
        by_note: dict[str, list[str]] = {}
        for note_id, text in rows:
            by_note.setdefault(str(note_id), []).append(str(text))
        return {n: embedder.embed(texts) for n, texts in by_note.items()}, embedder.embed(topics)
    chunks, topic_vectors = per_version(db, f"other topics, second opinion {embedder.name}", build)
    if note not in chunks:
        return True
    asked = embedder.embed([query])[0]
    return float(np.max(topic_vectors @ asked)) > float(np.max(chunks[note] @ asked))
