"""The data version of a graph: a fingerprint of its content, kept in one key beside it.

Introduced in notebook 02 (the schema and the names linking looks up are read once per data
version) and shown in notebook 10, where every remembered answer carries the version of the
data it came from. Computing a fingerprint reads the whole graph, so it is not done per question:
every writer counts its write in a Redis hash beside the graph, `course:version:<graph>`
(`Database.query` after a query that changed something; the loader's swap in the same
MULTI/EXEC as its RENAME, so nobody sees the new graph with the old count), and the first
reader after a write computes the fingerprint once and stores it there with the count it
was computed at. Every later reader gets it with one command (HMGET).

Why a key beside the graph rather than a property on a node inside it: a meta node would be
counted, drawn, introspected into the schema prompt and found by the model's queries, and a
RENAME swaps the graph's key, so whatever the loader copied into the staging graph would
have to be right before the swap. The key outlives a server restart (it is saved with the
graph), a reload updates it atomically, and a learner can read it:
`redis-cli HGETALL course:version:college`, or `db.command("HGETALL", version_key("college"))`.

The version is the content, not the count: change a property and change it back, and the
version comes back too. A write that goes around the course (redis-cli, another client
library) is not counted; the answer cache runs a stored query again before serving it
(`AnswerCache.stands_behind`), so even then it serves no rows the graph does not give.

>>> data_version(db)[:9]
'75n-132r-'
"""
from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from course.foundation.db import Database, not_text_layer, version_key
from course.foundation.errors import QueryFailed

PAGE = 5_000          # rows per read: below the server's 10,000-row limit (RESULTSET_SIZE)
CACHED_GRAPHS = 64    # what per_version keeps, per process, at most
T = TypeVar("T")

_NODES = (f"MATCH (n) WHERE {not_text_layer('n')} AND id(n) > $after "
          "RETURN id(n), labels(n), properties(n) ORDER BY id(n) LIMIT $page")
_RELATIONSHIPS = (f"MATCH (a)-[r]->(b) WHERE {not_text_layer('a', 'b')} AND id(r) > $after "
                  "RETURN id(r), id(a), type(r), id(b), properties(r) ORDER BY id(r) LIMIT $page")


# Inside `one_version`: (server, graph) -> the version read first, for the rest of the block.
_PINNED: ContextVar[dict[tuple[str, str], str] | None] = ContextVar("pinned_versions",
                                                                    default=None)


@contextmanager
def one_version() -> Iterator[None]:
    """Within this block each graph's version is read once: one question, one version.

    The agent answers a question inside one (its linking, memory and tools all ask for the
    version); nothing in it writes to the graph it reads.
    """
    if _PINNED.get() is not None:   # inside another: the outer block's versions hold
        yield
        return
    token = _PINNED.set({})
    try:
        yield
    finally:
        _PINNED.reset(token)


def data_version(db: Database) -> str:
    """The version of db's graph: '75n-132r-9c1f0a2b' (counts and a checksum of the content).

    One command while nothing has been written since it was last worked out.
    """
    pinned = _PINNED.get()
    if pinned is not None and (db.location, db.graph_name) in pinned:
        return pinned[(db.location, db.graph_name)]
    version = _read_version(db)
    if pinned is not None:
        pinned[(db.location, db.graph_name)] = version
    return version


def _read_version(db: Database) -> str:
    key = version_key(db.graph_name)
    writes, stored = db.command("HMGET", key, "writes", "version")
    writes = str(writes or 0)
    counted, _, version = str(stored or "").partition(" ")
    if version and counted == writes:
        return version
    version = fingerprint(db)
    # Stored with the count read before it was computed: a write meanwhile makes it stale.
    db.command("HSET", key, "version", f"{writes} {version}")
    return version


def fingerprint(db: Database) -> str:
    """Counts and a checksum of every node's and relationship's properties, read in pages.

    The course graph only: the text layer's chunks are derived from the notes.
    """
    nodes = every_row(db, _NODES)
    rels = [row[1:] for row in every_row(db, _RELATIONSHIPS)]   # the id was for paging
    digest = hashlib.sha1()
    for line in sorted(json.dumps(row, sort_keys=True, default=str) for row in nodes + rels):
        digest.update(line.encode())
    return f"{len(nodes)}n-{len(rels)}r-{digest.hexdigest()[:8]}"


def every_row(db: Database, cypher: str) -> list[list[Any]]:
    """Every row of a query ordered by its first column (an id), a page at a time.

    The query takes `$after` (the last id seen) and `$page`; a graph not there has no rows.
    """
    rows: list[list[Any]] = []
    while True:
        after = rows[-1][0] if rows else -1
        try:
            page = db.run(cypher, {"after": after, "page": PAGE}, max_rows=PAGE).rows
        except QueryFailed as exc:
            if "empty key" in exc.server_message:   # no such graph (yet)
                return []
            raise
        rows += page
        if len(page) < PAGE:
            return rows


_CACHE: OrderedDict[tuple[str, str, str], tuple[str, Any]] = OrderedDict()


def per_version(db: Database, what: str, build: Callable[[], T]) -> T:
    """`build()` worked out once per data version of db's graph, and kept in this process.

    What linking and the schema prompt read from the graph (its names, its schema) stays
    true until the graph changes; a write or a reload gives a new version, and `build` runs
    again. `what` names the thing kept (and whatever else it depends on).
    """
    version = data_version(db)
    key = (db.location, db.graph_name, what)
    kept = _CACHE.get(key)
    if kept is not None and kept[0] == version:
        _CACHE.move_to_end(key)
        return kept[1]
    value = build()
    _CACHE[key] = (version, value)
    while len(_CACHE) > CACHED_GRAPHS:
        _CACHE.popitem(last=False)
    return value
