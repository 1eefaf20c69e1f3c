"""The text layer: each note split into small chunks, embedded, indexed.

Introduced in notebook 13:

    (:Chunk {id, text, embedding, embedder})-[:PART_OF]->(:Note)

with a vector index on Chunk.embedding (cosine) and a full-text index on Chunk.text. It sits
beside the course's 75 nodes and 132 relationships, never counted in them
(`course.foundation.db.TEXT_LAYER_LABELS`). Loading the graph does not build it: notebook 13
does (`build_text_layer`), `python -m course load` does, and a search builds it on first use
when it is missing (`ensure_text_layer`). Building is idempotent: chunks that already match
the notes and the embedder are left alone; a change to either rebuilds them.

The embedder's name is stored on every chunk, and `stored_embedder(db)` reads it back, so
retrieval refuses to query vectors of one model with a question embedded by another.

>>> split_into_chunks("Paging maps pages of a process to frames of RAM. A TLB caches recent "
...                   "translations of page numbers. It is fast.")
['Paging maps pages of a process to frames of RAM.', 'A TLB caches recent translations of page numbers. It is fast.']
>>> layer = ensure_text_layer(db)     # built here if the graph has none yet
>>> layer["embedder"], layer["dimension"], layer["chunk_links"] == layer["chunks"]
('minilm', 384, True)
"""
from __future__ import annotations

import re
import sys
from typing import Any, Callable

import numpy as np

from course.foundation.dataset import loading
from course.foundation.db import Database
from course.foundation.errors import CourseError
from course.retrieval.embeddings import Embedder, make_embedder

CHUNK_LABEL, CHUNK_LINK = "Chunk", "PART_OF"
MIN_CHUNK_CHARS = 40  # a shorter sentence joins its neighbour: too little to embed alone
EMBED_BATCH = 64
SLOW_CHUNKS = 2_000  # more chunks than this, on a terminal: a progress bar while embedding
# HNSW keeps this many candidates while searching. FalkorDB's default, 10, found 78% of the
# true top 10 among 10,000 chunks; 100 found 99.7% for a third more time (bench_vectors.py).
EF_RUNTIME = 100
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")

Progress = Callable[[int, int], None]


def split_into_chunks(text: str) -> list[str]:
    """One chunk per sentence; a sentence under 40 characters joins the one before it."""
    chunks: list[str] = []
    for sentence in (s.strip() for s in _SENTENCE_END.split(text.strip())):
        if not sentence:
            continue
        if chunks and (len(sentence) < MIN_CHUNK_CHARS or len(chunks[-1]) < MIN_CHUNK_CHARS):
            chunks[-1] = f"{chunks[-1]} {sentence}"
        else:
            chunks.append(sentence)
    return chunks


def _planned_chunks(db: Database) -> list[dict[str, Any]]:
    """The chunks the notes now in the graph should have: id, note, position, text."""
    notes = db.run("MATCH (n:Note) RETURN n.id, n.text ORDER BY n.id", max_rows=10**6).rows
    return [{"id": f"{note_id}-{i}", "note": note_id, "position": i, "text": text}
            for note_id, body in notes for i, text in enumerate(split_into_chunks(body or ""), 1)]


def _stored_chunks(db: Database) -> list[tuple[str, str, str, str]]:
    rows = db.run(f"MATCH (c:{CHUNK_LABEL})-[:{CHUNK_LINK}]->(n:Note) "
                  "RETURN c.id, n.id, c.text, c.embedder ORDER BY c.id", max_rows=10**6).rows
    return [(row[0], row[1], row[2], row[3]) for row in rows]


def text_layer_builder(embedder: str | None = None) -> Callable[[Database], dict[str, Any]]:
    """`build_text_layer` with its embedder made now: the loader calls this before it writes
    anything, so an embedder that cannot run (fastembed offline) stops the load first."""
    model = make_embedder(embedder)
    return lambda db: build_text_layer(db, model)


def build_text_layer(db: Database, embedder: Embedder | None = None, *,
                     progress: Progress | None = None) -> dict[str, Any]:
    """Chunk, embed and index the notes of the graph `db` (and only there); return the counts."""
    embedder = embedder or make_embedder()
    planned = _planned_chunks(db)
    if progress is None and len(planned) > SLOW_CHUNKS and sys.stderr.isatty():
        progress = _progress_bar
    wanted = [(c["id"], c["note"], c["text"], embedder.name) for c in planned]
    if _stored_chunks(db) != wanted or _vector_dimension(db) != embedder.dimension:
        db.query(f"MATCH (c:{CHUNK_LABEL}) DETACH DELETE c")
        _ensure_indexes(db, embedder.dimension)
        _write_chunks(db, planned, embedder, progress)
    return text_layer_counts(db)


def ensure_text_layer(db: Database, embedder: str | None = None) -> dict[str, Any]:
    """The text layer's counts, building it first if the graph has none (a search's first use).

    The same chunks as `python -m course load` makes: `embedder` (default COURSE_EMBEDDER, else
    minilm) is used only when there is nothing yet. One builder at a time per graph.
    """
    if stored_embedder(db) is None:
        with loading(db):
            if stored_embedder(db) is None:   # another process may have built it meanwhile
                return build_text_layer(db, make_embedder(embedder))
    return text_layer_counts(db)


def _progress_bar(done: int, total: int, width: int = 30) -> None:
    """`embedding chunks [######........] 640/2000` on standard error, redrawn in place."""
    filled = width * done // max(total, 1)
    end = "\n" if done >= total else ""
    sys.stderr.write(f"\rembedding chunks [{'#' * filled}{'.' * (width - filled)}] {done}/{total}{end}")
    sys.stderr.flush()


def _write_chunks(db: Database, planned: list[dict[str, Any]], embedder: Embedder,
                  progress: Progress | None) -> None:
    for start in range(0, len(planned), EMBED_BATCH):
        batch = planned[start:start + EMBED_BATCH]
        vectors = embedder.embed([c["text"] for c in batch])
        rows = [{**c, "embedding": [float(x) for x in vec]} for c, vec in zip(batch, vectors)]
        db.query(f"UNWIND $rows AS row MATCH (n:Note {{id: row.note}}) "
                 f"CREATE (c:{CHUNK_LABEL} {{id: row.id, position: row.position, text: row.text, "
                 "embedding: vecf32(row.embedding), embedder: $embedder})"
                 f"-[:{CHUNK_LINK}]->(n)", {"rows": rows, "embedder": embedder.name})
        if progress:
            progress(min(start + EMBED_BATCH, len(planned)), len(planned))


def _indexes(db: Database) -> dict[str, Any]:
    """{property: (types, options)} of the indexes on Chunk."""
    rows = db.run("CALL db.indexes() YIELD label, properties, types, options "
                  "RETURN label, types, options").rows
    found: dict[str, Any] = {}
    for label, types, options in rows:
        if label == CHUNK_LABEL:
            found.update({prop: (kinds, (options or {}).get(prop) or {})
                          for prop, kinds in types.items()})
    return found


def _vector_dimension(db: Database) -> int | None:
    kinds, options = _indexes(db).get("embedding", ([], {}))
    return options.get("dimension") if "VECTOR" in kinds else None


def _ensure_indexes(db: Database, dimension: int) -> None:
    """A cosine vector index of this dimension on Chunk.embedding; full-text on Chunk.text."""
    found = _vector_dimension(db)
    if found is not None and found != dimension:
        # A vector of another length is silently left out of an index: rebuild the index.
        db.query(f"DROP VECTOR INDEX FOR (c:{CHUNK_LABEL}) ON (c.embedding)")
        found = None
    if found is None:
        db.query(f"CREATE VECTOR INDEX FOR (c:{CHUNK_LABEL}) ON (c.embedding) "
                 f"OPTIONS {{dimension: {int(dimension)}, similarityFunction: 'cosine', "
                 f"efRuntime: {EF_RUNTIME}}}")
    if "FULLTEXT" not in _indexes(db).get("text", ([], {}))[0]:
        db.query(f"CALL db.idx.fulltext.createNodeIndex('{CHUNK_LABEL}', 'text')")


def text_layer_counts(db: Database) -> dict[str, Any]:
    """{"chunks": 76, "chunk_links": 76, "embedder": "minilm", "dimension": 384}."""
    chunks = db.run(f"MATCH (c:{CHUNK_LABEL}) RETURN count(c)").rows[0][0]
    links = db.run(f"MATCH (:{CHUNK_LABEL})-[r:{CHUNK_LINK}]->(:Note) RETURN count(r)").rows[0][0]
    return {"chunks": chunks, "chunk_links": links, "embedder": stored_embedder(db),
            "dimension": _vector_dimension(db)}


def stored_embedder(db: Database) -> str | None:
    """The embedder the graph's chunks were made with (None: no text layer)."""
    rows = db.run(f"MATCH (c:{CHUNK_LABEL}) RETURN DISTINCT c.embedder LIMIT 2").rows
    if len(rows) > 1:
        raise CourseError("The chunks in this graph were embedded with more than one model: "
                          "reload it with `python -m course load` to embed them again.")
    return rows[0][0] if rows else None


def chunk_vectors(db: Database) -> tuple[list[str], np.ndarray]:
    """Every chunk's id and embedding, for an exact scan in numpy (notebook 13, the bench)."""
    rows = db.run(f"MATCH (c:{CHUNK_LABEL}) RETURN c.id, c.embedding ORDER BY c.id",
                  max_rows=10**7).rows
    return [r[0] for r in rows], np.array([r[1] for r in rows], dtype=np.float32)
