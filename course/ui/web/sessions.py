"""One conversation per browser, and how often it may ask.

Each browser gets a session id in a cookie; its conversation is a memory made by the
`make_memory` the server was given (`course serve` gives notebook 10's memory kept in the
graph, as `ask --session` does, so a reload or a restarted server resumes it). "New chat" is a
new id. A session answers one question at a time, and at most `per_minute` questions a
minute (a token bucket: a burst of that many, then one every 60/per_minute seconds). A browser
that drops its cookie gets a new session, so each client address has a limit of its own too
(`per_address`, larger: a room behind one address shares it). `limit_key` says which address
counts: by default every address but this machine's own (on 127.0.0.1 the one user is the
machine's owner).

>>> clock = iter([0.0, 0.0, 0.0, 3.0]).__next__
>>> limit = RateLimit(per_minute=2, clock=clock)
>>> limit.wait(), limit.wait(), limit.wait()
(0.0, 0.0, 27.0)
"""
from __future__ import annotations

import math
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from course.pipeline.agent import Agent, Memory

PER_MINUTE = 10        # questions a session may ask in a minute (a burst of this many)
PER_ADDRESS = 60       # questions one client address may ask in a minute, over all its sessions
KEPT = 500             # sessions held open at once; an older one is reopened from its memory
_SESSION_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_session_id() -> str:
    """A fresh session id: 22 letters, digits, _ and -, unguessable."""
    return secrets.token_urlsafe(16)


def valid_session_id(value: Any) -> bool:
    """Is `value` a session id this app could have given?

    >>> valid_session_id(new_session_id()), valid_session_id("../../etc"), valid_session_id(None)
    (True, False, False)
    """
    return isinstance(value, str) and _SESSION_ID.fullmatch(value) is not None


class RateLimit:
    """A token bucket: `per_minute` questions at once, then one each 60/per_minute seconds."""

    def __init__(self, *, per_minute: int = PER_MINUTE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute, self.clock = per_minute, clock
        self.tokens, self.at = float(per_minute), clock()

    def wait(self) -> float:
        """0.0 when a question may be asked now (and counts it), else the seconds to wait."""
        now = self.clock()
        self.tokens = min(float(self.per_minute),
                          self.tokens + (now - self.at) * self.per_minute / 60)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return round((1 - self.tokens) * 60 / self.per_minute, 1)

    def message(self, wait: float, *, whose: str = "this chat") -> str:
        """What the page says when the limit is reached."""
        return (f"Too many questions: {whose} takes {self.per_minute} a minute. "
                f"Wait {math.ceil(wait)} s, then ask again.")


def address_key(host: str | None) -> str | None:
    """The key of a client address's limit: the address; None (no limit) for this machine's own.

    >>> address_key("10.0.0.5"), address_key("127.0.0.1")
    ('10.0.0.5', None)
    """
    from course.ui.web.access import is_loopback

    return None if not host or is_loopback(host) else host


class BrowserSession:
    """One browser's conversation: its memory, its agent (made on the first question, and again
    when `version()`, the data's version, has changed: the schema it is told is the graph's
    own), its limit."""

    def __init__(self, session_id: str, memory: Memory, make_agent: Callable[[Memory], Agent],
                 limit: RateLimit, version: Callable[[], str] = lambda: "") -> None:
        self.id, self.memory, self.limit = session_id, memory, limit
        self._make_agent, self._version = make_agent, version
        self._agent: Agent | None = None
        self._made_at = ""
        self.busy = threading.Lock()     # one question at a time
        self.last_view: dict[str, Any] | None = None   # the picture of the last answer

    @property
    def agent(self) -> Agent:
        now = self._version()
        if self._agent is None or self._made_at != now:
            self._agent, self._made_at = self._make_agent(self.memory), now
        return self._agent

    def history(self) -> list[dict[str, Any]]:
        """The stored turns, oldest first (a memory without `history()` has none to show)."""
        stored = getattr(self.memory, "history", None)
        return list(stored()) if callable(stored) else []


class Sessions:
    """The open sessions by id: made on first use (a known id resumes its stored memory)."""

    def __init__(self, make_memory: Callable[[str], Memory], make_agent: Callable[[Memory], Agent],
                 *, per_minute: int = PER_MINUTE, clock: Callable[[], float] = time.monotonic,
                 kept: int = KEPT, per_address: int = PER_ADDRESS,
                 limit_key: Callable[[str | None], str | None] = address_key,
                 version: Callable[[], str] = lambda: "") -> None:
        self.make_memory, self.make_agent, self.version = make_memory, make_agent, version
        self.per_minute, self.clock, self.kept = per_minute, clock, kept
        self.per_address, self.limit_key = per_address, limit_key
        self._open: OrderedDict[str, BrowserSession] = OrderedDict()
        self._addresses: OrderedDict[str, RateLimit] = OrderedDict()
        self._lock = threading.Lock()

    def address_wait(self, host: str | None) -> str | None:
        """The sentence for a client address over its limit (and counts the question), else None."""
        key = self.limit_key(host)
        if key is None:
            return None
        with self._lock:
            limit = self._addresses.pop(key, None) or RateLimit(per_minute=self.per_address,
                                                                clock=self.clock)
            self._addresses[key] = limit          # the newest last; the oldest are forgotten
            while len(self._addresses) > self.kept:
                self._addresses.popitem(last=False)
            wait = limit.wait()
        return limit.message(wait, whose="this server, from one address,") if wait else None

    def get(self, session_id: str) -> BrowserSession:
        """The session `session_id`, opened (its memory read) if it is not open yet."""
        if not valid_session_id(session_id):
            raise ValueError("not a session id this app gives")
        with self._lock:
            session = self._open.get(session_id)
            if session is not None:
                self._open.move_to_end(session_id)
                return session
        session = BrowserSession(session_id, self.make_memory(session_id), self.make_agent,
                              RateLimit(per_minute=self.per_minute, clock=self.clock),
                              self.version)
        with self._lock:
            session = self._open.setdefault(session_id, session)
            while len(self._open) > self.kept:
                self._open.popitem(last=False)
        return session

    def __len__(self) -> int:
        return len(self._open)
