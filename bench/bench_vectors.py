"""FalkorDB's HNSW vector index vs an exact scan, and what each embedder costs (notebook 13).

    python bench/bench_vectors.py [SIZES ...]      (default: 10000 100000)

For the course's own text layer (25 notes) and for synthetic text layers of SIZES chunks,
one run on one embedded database:
- the query time of `db.idx.vector.queryNodes` (the HNSW index) against an exact scan
  (`ORDER BY vec.cosineDistance(...)`), as a ratio;
- the index's recall@10 against the exact scan (HNSW is approximate), with FalkorDB's default
  efRuntime (10 candidates kept while searching) and with 100;
- the time each embedder takes per 1,000 chunks.
Synthetic chunks are the real chunks' vectors (the default embedder's) with noise added, so they
cluster by topic the way real notes do; the queries are the 30 questions of
data/eval/retrieval.jsonl, embedded by the same model.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from course.foundation.connection import connect
from course.foundation.dataset import load_college
from course.foundation.db import Database
from course.retrieval.embeddings import EMBEDDERS, EmbedderUnavailable, make_embedder
from course.retrieval.search_eval import load_search_questions
from course.retrieval.text_layer import EF_RUNTIME, build_text_layer, chunk_vectors

TOP = 10
NOISE = 0.08        # per-dimension noise on a unit vector: neighbours stay near their topic
INSERT_BATCH = 1_000
EF_RUNTIMES = (10, EF_RUNTIME)  # FalkorDB's default, and the text layer's

INDEXED = ("CALL db.idx.vector.queryNodes('Chunk', 'embedding', $k, vecf32($q)) YIELD node, score "
           "RETURN node.id ORDER BY score")
EXACT = ("MATCH (c:Chunk) WITH c, vec.cosineDistance(c.embedding, vecf32($q)) AS d "
         "RETURN c.id ORDER BY d LIMIT $k")


def synthetic_layer(db: Database, base: np.ndarray, size: int, *, ef_runtime: int = 10,
                    seed: int = 7) -> None:
    """`size` chunks near the real ones, in an indexed graph of their own."""
    rng = np.random.default_rng(seed)
    db.query(f"CREATE VECTOR INDEX FOR (c:Chunk) ON (c.embedding) "
             f"OPTIONS {{dimension: {base.shape[1]}, similarityFunction: 'cosine', "
             f"efRuntime: {ef_runtime}}}")
    for start in range(0, size, INSERT_BATCH):
        n = min(INSERT_BATCH, size - start)
        vectors = base[rng.integers(0, len(base), n)] + rng.normal(0, NOISE, (n, base.shape[1]))
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        rows = [{"id": f"S{start + i}", "embedding": v.tolist()} for i, v in enumerate(vectors)]
        db.query("UNWIND $rows AS row CREATE (:Chunk {id: row.id, embedding: vecf32(row.embedding)})",
                 {"rows": rows})


def compare(db: Database, queries: np.ndarray) -> dict[str, float]:
    """Median query time of index and exact scan, and the index's mean recall@10."""
    index_ms, exact_ms, recalls = [], [], []
    for q in queries:
        params = {"q": q.tolist(), "k": TOP}
        started = time.perf_counter()
        approx = db.run(INDEXED, params, timeout_ms=120_000).rows
        index_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        exact = db.run(EXACT, params, timeout_ms=120_000).rows
        exact_ms.append((time.perf_counter() - started) * 1000)
        recalls.append(len({r[0] for r in approx} & {r[0] for r in exact}) / len(exact))
    return {"index_ms": statistics.median(index_ms), "exact_ms": statistics.median(exact_ms),
            "recall": statistics.mean(recalls)}


def embedding_cost(texts: list[str]) -> dict[str, str]:
    """Milliseconds per 1,000 chunks for each embedder (a sentence when one cannot run here)."""
    # each one different: an embedder that keeps the vectors of texts it has seen (MiniLM) must
    # embed every one of them
    thousand = [f"{text} ({i})" for i, text in enumerate((texts * (1000 // len(texts) + 1))[:1000])]
    cost = {}
    for name in EMBEDDERS:
        try:
            embedder = make_embedder(name)
        except EmbedderUnavailable as exc:
            cost[name] = f"not run: {exc}"
            continue
        embedder.embed(["a warm-up text no chunk holds"])
        started = time.perf_counter()
        embedder.embed(thousand)
        cost[name] = f"{(time.perf_counter() - started) * 1000:8.1f} ms per 1,000 chunks"
    return cost


def main(sizes: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = connect(path=Path(folder) / "bench.db")
        try:
            college = db.select("bench_college")
            load_college(college)
            build_text_layer(college)   # notebook 13's text layer: loading the graph builds none
            _, base = chunk_vectors(college)
            embedder = make_embedder()    # the model the text layer was built with
            queries = embedder.embed([q.question for q in load_search_questions()])
            texts = [t for (t,) in college.run("MATCH (c:Chunk) RETURN c.text", max_rows=10**4).rows]
            results = {f"25 notes ({len(base)} chunks)": compare(college, queries)}
            for size in sizes:
                for ef in EF_RUNTIMES:
                    graph = db.select(f"bench_{size}_{ef}")
                    started = time.perf_counter()
                    synthetic_layer(graph, base, size, ef_runtime=ef)
                    built = time.perf_counter() - started
                    results[f"{size:,} synthetic chunks, efRuntime {ef} (built in {built:.0f} s)"] = \
                        compare(graph, queries)
                    graph.graph.delete()
            cost = embedding_cost(texts)
        finally:
            db.server.stop()
    print(f"HNSW index vs exact scan, {len(queries)} queries, top {TOP}, one run, same database")
    for name, r in results.items():
        print(f"  {name}")
        print(f"    index {r['index_ms']:7.2f} ms   exact {r['exact_ms']:8.2f} ms   "
              f"exact/index {r['exact_ms'] / r['index_ms']:6.1f}x   recall@{TOP} {r['recall']:.3f}")
    print("embedding time")
    for name, line in cost.items():
        print(f"  {name:<10} {line}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [10_000, 100_000])
