"""A lock on the server that outlives no holder: `ServerLock`, behind `Database.lock`.

Introduced in notebook 01 (forty notebooks loading the graph at once take turns). The lock
is one Redis key whose value names its holder (host, process id, a token) and whose lease
is short; the holder renews the lease while it works. So a failure on any path frees it:

- the holder releases it on the way out, and a release that fails (a full disk makes the
  server refuse every write: MISCONF) raises nothing: the lease ends within LEASE_S;
- a lock whose holder is gone (its process ended, or it gave the lock up without being able
  to delete it) is broken at once by the next process, with a sentence on standard error.

Waiting longer than `timeout_s` for a living holder is a `DatabaseUnavailable` that says who.

>>> with db.lock("example", timeout_s=5) as held:
...     held.holder()["pid"] == os.getpid()
True
"""
from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
import uuid
from typing import Any

import redis

from course.foundation.errors import DatabaseUnavailable

LEASE_S = 15.0   # a lock not renewed for this long ends by itself
_ABANDONED: set[str] = set()   # tokens of locks this process gave up but could not delete
# Delete / renew the key only while it still holds our value (another may hold it by now).
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
_RENEW = ("if redis.call('get', KEYS[1]) == ARGV[1] then "
          "return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0")


def _alive(pid: int) -> bool:
    """Is a process with this id running on this machine?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:   # it runs, as another user
        return True
    return True


class ServerLock:
    """A lock named `key` on `connection`, held with a `with` block (see the module's doc)."""

    def __init__(self, connection: Any, key: str, *, timeout_s: float, lease_s: float = LEASE_S):
        self.connection, self.key = connection, key
        self.timeout_s, self.lease_s = timeout_s, lease_s
        self.value = json.dumps({"host": socket.gethostname(), "pid": os.getpid(),
                                 "token": uuid.uuid4().hex})
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None

    def holder(self) -> dict[str, Any] | None:
        """Who holds the lock now ({host, pid, token}), None when nobody."""
        return self._read()[1]

    def _read(self) -> tuple[Any, dict[str, Any] | None]:
        """(the key's raw value, its holder); a value this module did not write reads as {}."""
        raw = self.connection.get(self.key)
        if raw is None:
            return None, None
        try:
            found = json.loads(raw)
        except (ValueError, TypeError):
            found = None
        return raw, found if isinstance(found, dict) else {}   # {}: its lease tells when it ends

    def _gone(self, holder: dict[str, Any]) -> bool:
        """Is the holder's life over: its process ended here, or it gave the lock up?"""
        if holder.get("token") in _ABANDONED:
            return True
        pid = holder.get("pid")
        return (holder.get("host") == socket.gethostname() and isinstance(pid, int)
                and not _alive(pid))

    def _break(self, raw: Any, holder: dict[str, Any]) -> None:
        """Delete the lock of a holder that is gone (unless someone else took it meanwhile)."""
        if self.connection.eval(_RELEASE, 1, self.key, raw):
            print(f"note: the lock {self.key!r} was left by process {holder.get('pid')}, which has "
                  "ended (or gave it up); it has been broken.", file=sys.stderr)

    def __enter__(self) -> "ServerLock":
        try:
            self._acquire()
        except redis.ResponseError as exc:   # the server takes no write: MISCONF, a full disk
            raise DatabaseUnavailable(
                f"FalkorDB refused to take the lock {self.key!r} because it refuses every write now "
                f"({str(exc).split('.')[0]}); if its disk is full, free space there, then run this "
                "again.") from exc
        self._renewer = threading.Thread(target=self._renew, daemon=True)
        self._renewer.start()
        return self

    def _acquire(self) -> None:
        """Take the lock, breaking it if its holder is gone; wait up to timeout_s for a live one."""
        deadline = time.monotonic() + self.timeout_s
        while not self.connection.set(self.key, self.value, nx=True, px=int(self.lease_s * 1000)):
            raw, holder = self._read()
            if holder and self._gone(holder):
                self._break(raw, holder)
                continue
            if time.monotonic() > deadline:
                who = f"process {holder.get('pid')} on {holder.get('host')}" if holder else "another process"
                raise DatabaseUnavailable(
                    f"{who.capitalize()} has held the lock {self.key!r} for more than "
                    f"{self.timeout_s:g} s (it is loading or saving): wait for it to finish, or "
                    "stop it, then run this again.")
            time.sleep(0.1)

    def _renew(self) -> None:
        """Keep the lease while the `with` block runs."""
        while not self._stop.wait(self.lease_s / 3):
            try:
                self.connection.eval(_RENEW, 1, self.key, self.value, int(self.lease_s * 1000))
            except redis.RedisError:
                pass   # the server refuses writes (a full disk): the lease runs out, as it should

    def __exit__(self, *exc: object) -> None:
        """Release; never raise from here (the error that ended the block is the one to tell)."""
        self._stop.set()
        if self._renewer is not None:
            self._renewer.join()
        try:
            self.connection.eval(_RELEASE, 1, self.key, self.value)
        except redis.RedisError:
            _ABANDONED.add(json.loads(self.value)["token"])   # ours to break; for others, the lease ends
