"""A question being answered now, that others asking it wait for: the answer cache's in-flight part.

Introduced in notebook 10, with the answer cache. When a room asks the same stand-alone question
in the same instant, the cache is empty for all of them until the first answer is stored, so
each would ask the model itself: forty calls (and forty rate-limit hits) for one answer. Here
the first asker of a question whose prompt holds no conversation (the only answers the cache
stores) says it is answering (`take_off`), under the same key as the cache's; the others who
would take a cached answer wait for it to land, then read the cache as usual (its query is
run again before it is served). Nothing else is shared: an answer whose prompt had a
conversation is never handed to anyone, and a waiter whose answer did not come (refused, not
stored, or later than `WAIT_S`) answers for itself.

>>> take_off("example-key"), take_off("example-key")
(True, False)
>>> land("example-key"), wait_for("example-key", timeout_s=0.1)
(None, False)
"""
from __future__ import annotations

import threading

WAIT_S = 30.0        # the longest a question waits for another's answer to the same one

_FLYING: dict[str, threading.Event] = {}
_WAITING: dict[str, int] = {}
_LOCK = threading.Lock()


def take_off(key: str) -> bool:
    """True when nobody in this process answers `key` now: the caller does, and must `land`."""
    with _LOCK:
        if key in _FLYING:
            return False
        _FLYING[key] = threading.Event()
        return True


def land(key: str) -> None:
    """The answer to `key` is stored (or will not be): the ones waiting for it go on."""
    with _LOCK:
        flight = _FLYING.pop(key, None)
    if flight is not None:
        flight.set()


def wait_for(key: str, *, timeout_s: float = WAIT_S) -> bool:
    """Wait while another answers `key`; True when it landed (False: nobody was answering it,
    or it took longer than `timeout_s`)."""
    with _LOCK:
        flight = _FLYING.get(key)
        if flight is None:
            return False
        _WAITING[key] = _WAITING.get(key, 0) + 1
    try:
        return flight.wait(timeout_s)
    finally:
        with _LOCK:
            _WAITING[key] -= 1
            if not _WAITING[key]:
                del _WAITING[key]


def waiting(key: str) -> int:
    """How many wait for `key` to land now."""
    with _LOCK:
        return _WAITING.get(key, 0)
