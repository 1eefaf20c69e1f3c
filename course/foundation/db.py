"""One graph on a FalkorDB server: the read-only executor, and the loader's write path.

Introduced in notebook 01. A `Database` runs a read with `ro_query`, a time limit and a row
cap (`run`), and gives the course's errors in the course's words; only the loader and the
memory write (`query`). It knows nothing of the guard: a model's query reaches it only
through `course.pipeline.safety.run_guarded`. `course.foundation.connection.connect()` makes
one.

>>> db.run("MATCH (s:Student) RETURN count(s) AS n").rows
[[5]]
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import falkordb
import redis

from course.foundation.errors import DatabaseUnavailable, QueryFailed, QueryTimedOut
from course.foundation.locks import ServerLock
from course.foundation.server import LOCK_PREFIX, SERVER_LIMITS, SOCKET_TIMEOUT_S, EmbeddedServer

DEFAULT_GRAPH = "college"
DEFAULT_TIMEOUT_MS = 5_000
DEFAULT_MAX_ROWS = 1_000


# Beside each graph, one key counts the writes to it and keeps its data version (a fingerprint
# of its content, with the count it was worked out at): see course.foundation.versioning.
VERSION_PREFIX = "course:version:"
# What a write query's statistics say when it changed the graph (falkordb's QueryResult names).
_CHANGE_STATISTICS = ("nodes_created", "nodes_deleted", "relationships_created",
                      "relationships_deleted", "properties_set", "properties_removed",
                      "labels_added", "labels_removed", "indices_created", "indices_deleted")


def version_key(graph_name: str) -> str:
    """The key beside a graph that holds its write count and data version.

    >>> version_key("college")
    'course:version:college'
    """
    return VERSION_PREFIX + graph_name


# Notebook 13's text layer (note chunks and their embeddings) lives in the college graph
# beside the course's labels, and is never counted as part of the course graph.
TEXT_LAYER_LABELS = ("Chunk",)


def not_text_layer(*variables: str) -> str:
    """A WHERE condition keeping these node variables out of the text layer.

    >>> not_text_layer("a", "b")
    'NOT a:Chunk AND NOT b:Chunk'
    """
    return " AND ".join(f"NOT {v}:{label}" for v in variables for label in TEXT_LAYER_LABELS)


@dataclass
class Rows:
    """What a read query returned: column names, rows, and whether the cap cut it short."""

    columns: list[str]
    rows: list[list[Any]]
    truncated: bool = False
    elapsed_ms: float = 0.0
    cypher: str = field(default="", repr=False)

    def records(self) -> list[dict[str, Any]]:
        """Rows as dicts: `[{'name': 'Payal', 'grade': 'A+'}, ...]`."""
        return [dict(zip(self.columns, row)) for row in self.rows]

    def values(self) -> list[Any]:
        """Every value in the rows, lists flattened, in order, once each."""
        return cell_values(self.rows)

    def to_dataframe(self) -> Any:
        """The rows as a pandas table."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=self.columns)


def cell_values(rows: Iterable[Iterable[Any]]) -> list[Any]:
    """Every value in query rows, lists flattened, in order, once each (None left out).

    >>> cell_values([["Payal", "A+"], [["1NF", "2NF"], 3], ["Payal", None]])
    ['Payal', 'A+', '1NF', '2NF', 3]
    """
    seen: list[Any] = []

    def walk(value: Any) -> None:
        if isinstance(value, (list, tuple)):
            for item in value:
                walk(item)
        elif value is not None and not (isinstance(value, str) and not value.strip()) \
                and value not in seen:
            seen.append(value)

    for row in rows:
        walk(list(row))
    return seen


class Database:
    """One graph on a FalkorDB server (embedded or remote): a read-only executor and a loader's write path."""

    def __init__(self, client: falkordb.FalkorDB, graph_name: str, *, mode: str, location: str,
                 server: EmbeddedServer | None = None, versioned: bool = True):
        self.client = client
        self.graph_name = graph_name
        self.graph = client.select_graph(graph_name)
        self.mode = mode
        self.location = location
        self.server = server
        self.versioned = versioned   # are writes counted in the key beside the graph?

    def __repr__(self) -> str:
        return f"<Database {self.mode} graph={self.graph_name!r}>"

    def select(self, graph_name: str, *, versioned: bool = True) -> "Database":
        """Another graph on the same server (the memory graphs live beside the college one).

        `versioned=False` for a graph nobody asks the data version of (a user's stored
        conversation): its writes are not counted, which saves a command per write.
        """
        return Database(self.client, graph_name, mode=self.mode, location=self.location,
                        server=self.server, versioned=versioned)

    def info(self) -> dict[str, str]:
        key = "file" if self.mode == "embedded" else "url"
        return {"mode": self.mode, key: self.location, "graph": self.graph_name}

    def query(self, cypher: str, params: dict[str, Any] | None = None):
        """Run a query with write access. Only the loader and memory use this.

        A query that changed the graph is counted in the key beside it (`count_write`), so
        what was worked out from the old data (its data version, the names linking looks up,
        the schema) is worked out again: see `course.foundation.versioning`.
        """
        result = self._call(self.graph.query, cypher, params)
        if self.versioned and any(getattr(result, stat, 0) for stat in _CHANGE_STATISTICS):
            self.count_write()
        return result

    def count_write(self) -> None:
        """Count one more write to this graph, in the key beside it (`version_key`)."""
        self.command("HINCRBY", version_key(self.graph_name), "writes", 1)

    def transaction(self, *commands: tuple[Any, ...]) -> list[Any]:
        """Raw commands run as one (MULTI ... EXEC): no other client sees them half done."""
        def run(_cypher: str, _params: Any) -> list[Any]:
            pipe = self.client.connection.pipeline(transaction=True)
            for args in commands:
                pipe.execute_command(*args)
            return pipe.execute()

        # Named by each command's first two words: a RESTORE's payload can be megabytes.
        return self._call(run, "; ".join(" ".join(map(str, args[:2])) for args in commands), None)

    def run(self, cypher: str, params: dict[str, Any] | None = None, *,
            timeout_ms: int = DEFAULT_TIMEOUT_MS, max_rows: int = DEFAULT_MAX_ROWS) -> Rows:
        """The read-only executor: `ro_query` with a time limit and a row cap.

        It knows nothing of the guard: Cypher a model wrote goes through
        `course.pipeline.safety.run_guarded` (notebook 03), which checks it and then calls this.
        """
        started = time.perf_counter()
        timeout_ms = min(timeout_ms, SERVER_LIMITS["TIMEOUT_MAX"])  # the server refuses more
        result = self._call(self.graph.ro_query, cypher, params, timeout=timeout_ms)
        elapsed = (time.perf_counter() - started) * 1000
        columns = [str(c[1]) if isinstance(c, (list, tuple)) else str(c) for c in result.header]
        rows = [list(row) for row in result.result_set]
        # The server itself sends at most RESULTSET_SIZE rows: that many means cut short too.
        truncated = len(rows) > max_rows or len(rows) >= SERVER_LIMITS["RESULTSET_SIZE"]
        return Rows(columns, rows[:max_rows], truncated, elapsed, cypher)

    def explain(self, cypher: str, params: dict[str, Any] | None = None) -> list[str]:
        """FalkorDB's plan for a query, without running it: one line per operation."""
        plan = self._call(self.graph.explain, cypher, params)
        return [line.rstrip() for line in str(plan).splitlines() if line.strip()]

    def lock(self, name: str, *, timeout_s: int) -> Any:
        """A Redis lock shared by every process on this server (waits up to `timeout_s`).

        Locks live under one prefix, so a freshly started embedded server drops the ones a
        crashed server left behind (its holders are gone with it). A lock's lease is short and
        renewed by its holder, and a lock whose holder has ended is broken
        (`course.foundation.locks`): no failure leaves one behind for long.
        """
        return ServerLock(self.client.connection, LOCK_PREFIX + name, timeout_s=timeout_s)

    def command(self, *args: Any) -> Any:
        """A raw command (GRAPH.COPY, RENAME, ...) with the same error handling as a query."""
        return self._call(lambda _cypher, _params: self.client.connection.execute_command(*args),
                          " ".join(map(str, args)), None)

    def counts(self) -> dict[str, int]:
        """Nodes and relationships of the course graph (the text layer is not counted)."""
        nodes = self.run(f"MATCH (n) WHERE {not_text_layer('n')} RETURN count(n)").rows[0][0]
        rels = self.run(f"MATCH (a)-[r]->(b) WHERE {not_text_layer('a', 'b')} "
                        "RETURN count(r)").rows[0][0]
        return {"nodes": nodes, "relationships": rels}

    def _call(self, method, cypher: str, params: dict[str, Any] | None, **kwargs):
        """Send one query, once, without asking first whether the server answers.

        A PING before every query would double the round trips, so a connection is checked
        when it fails. A query that could not be sent (no connection could be made to the
        embedded server: it was stopped, or it is still loading) is sent once the server has
        been started again. A query that was sent is never sent twice: one that took the
        server down would take it down again.
        """
        try:
            return self._send(method, cypher, params, **kwargs)
        except (_NotSent, redis.BusyLoadingError) as exc:
            if self.server is None:
                raise DatabaseUnavailable(
                    loading_message(self.location) if isinstance(exc, redis.BusyLoadingError)
                    else unavailable_message(self.mode, self.location)) from exc
            self.server.ensure_running()   # stopped between two queries: start it again
        try:
            return self._send(method, cypher, params, **kwargs)
        except (_NotSent, redis.BusyLoadingError) as exc:
            raise DatabaseUnavailable(unavailable_message(self.mode, self.location)) from exc

    def _send(self, method, cypher: str, params: dict[str, Any] | None, **kwargs):
        """One query sent; the server's failures in the course's words."""
        try:
            return method(cypher, params, **kwargs)
        except (_NotSent, redis.BusyLoadingError):
            raise   # nothing ran: _call decides what happens next
        except redis.AuthenticationError as exc:
            raise DatabaseUnavailable(password_message(self.location, exc)) from exc
        except redis.TimeoutError as exc:  # the socket timeout: the server did not answer at all
            raise QueryTimedOut(
                f"FalkorDB gave no answer within {SOCKET_TIMEOUT_S:g} s, so the query was "
                "abandoned. Ask for less, or add a LIMIT.", cypher=cypher) from exc
        except redis.ConnectionError as exc:
            if _never_read(exc):
                raise _NotSent(str(exc)) from exc
            if self.server is None:
                raise DatabaseUnavailable(unavailable_message(self.mode, self.location)) from exc
            self.server.ensure_running()  # it died while running this query: start it again
            raise DatabaseUnavailable(
                "The embedded FalkorDB stopped while running this query (it may have needed more "
                "memory than there is). It has been started again and your data is safe, but "
                "the query was not run again: ask for less, or add a LIMIT.") from exc
        except redis.ResponseError as exc:
            message = str(exc)
            if message.startswith("MISCONF"):
                raise DatabaseUnavailable(self._cannot_save()) from exc
            if "mem consumption exceeded" in message:
                raise QueryFailed(
                    f"The query needed more memory than one query may use "
                    f"({SERVER_LIMITS['QUERY_MEM_CAPACITY'] // 2**20} MB) and was stopped "
                    f"({message}). Ask for less, or add a LIMIT.", server_message=message,
                    cypher=cypher) from exc
            if "timed out" in message.lower():
                raise QueryTimedOut(
                    f"The query ran longer than its time limit and was stopped ({message}). "
                    "Ask for less, or add a LIMIT.", server_message=message, cypher=cypher,
                ) from exc
            raise QueryFailed(f"FalkorDB refused the query: {message}", server_message=message,
                              cypher=cypher) from exc
        except redis.RedisError as exc:  # a garbled reply: whatever answers is not FalkorDB
            raise DatabaseUnavailable(f"FalkorDB at {self.location} gave a reply that is not "
                                      f"FalkorDB's ({exc}).") from exc

    def _cannot_save(self) -> str:
        if self.server is not None:
            return self.server.cannot_save_message()
        return (f"FalkorDB at {self.location} cannot save to its disk (MISCONF): the server's disk "
                "is probably full; free space there, and nothing is lost while it keeps running.")


class _NotSent(redis.ConnectionError):
    """No connection could be made, so the command was not sent (the server is not there)."""


class CheckedPool(redis.ConnectionPool):
    """redis-py's pool, telling "could not connect" apart from "failed while running".

    Before it hands out a connection, the pool checks it without a round trip (a socket the
    server closed reads as closed) and connects again if need be; a failure there means
    nothing was sent, so the query may be sent once the server is back.
    """

    def get_connection(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().get_connection(*args, **kwargs)
        except redis.ConnectionError as exc:
            raise _NotSent(str(exc)) from exc


def _never_read(exc: BaseException) -> bool:
    """Did the server go away without reading the command? Then it did not run it.

    A socket closed with a command still unread in it resets the connection (ECONNRESET);
    writing to one already closed breaks the pipe (EPIPE). A server that read the command
    and then died just closes (end of file): that query may be what took it down.
    """
    seen: BaseException | None = exc
    for _ in range(5):   # redis-py's error, the OSError it was raised from
        if isinstance(seen, (ConnectionResetError, BrokenPipeError)):
            return True
        if seen is None:
            return False
        seen = seen.__cause__ or seen.__context__
    return False


def loading_message(location: str) -> str:
    return (f"FalkorDB at {location} is still loading its data: try again in a moment.")


def unavailable_message(mode: str, location: str) -> str:
    if mode == "server":
        return (f"FalkorDB is not running at {location}: start it with `docker compose up -d`, "
                "or unset FALKORDB_URL to use the embedded database.")
    return (f"The embedded FalkorDB at {Path(location).name} stopped answering: run the command "
            "again; if it keeps happening, run `python -m course stop` first.")


def password_message(location: str, exc: Exception) -> str:
    return (f"FalkorDB is running at {location} but refused the password ({exc}): put the "
            "right one in FALKORDB_URL, as redis://:PASSWORD@HOST:6379 (or "
            "redis://USER:PASSWORD@HOST:6379).")
