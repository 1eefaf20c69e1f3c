"""A check that many ask for at once, run once for all who asked before it began.

Introduced in notebook 10, with the answer cache: before a remembered answer is served, its
query is run again, so no rows the graph does not give are ever served. When a room is
served the same cached answer in the same instant, each would run that same query. Here the
askers of one check (the same query, parameters and rows, on the same graph) join a round:
the first to come runs it, and everyone who came before the run began gets its outcome. One
who comes while a round is running joins the next one, which starts when this one ends, so
every outcome handed out comes from a run that began after its asker asked: a write made
before someone asked is always seen by their check.

>>> joined(("example",), lambda: 41 + 1)
42
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


class _Round:
    """One run of a check, and its outcome for everyone who joined it."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None
        self.joined = 1                  # the calls that wait for this round's outcome


class _Key:
    """The round of one check that people join now (not begun), and the turn to run one."""

    def __init__(self) -> None:
        self.next: _Round | None = None
        self.turn = threading.Lock()     # one round of a check runs at a time


_KEYS: dict[Hashable, _Key] = {}
_LOCK = threading.Lock()


def joined(key: Hashable, check: Callable[[], T]) -> T:
    """`check()`'s outcome, from a run that began after this call: shared by the calls under
    `key` that came before that run began. Raises what `check()` raised."""
    with _LOCK:
        state = _KEYS.setdefault(key, _Key())
        mine, leads = state.next, state.next is None
        if mine is None:
            mine = state.next = _Round()
        else:
            mine.joined += 1
    if leads:
        _run(key, state, mine, check)
    mine.done.wait()
    if mine.error is not None:
        raise mine.error
    return mine.value


def _run(key: Hashable, state: _Key, round_: _Round, check: Callable[[], Any]) -> None:
    """Wait for the round before to end, close this one to newcomers, run the check."""
    with state.turn:
        with _LOCK:
            state.next = None          # who comes from now on joins the round after this one
        try:
            round_.value = check()
        except BaseException as exc:   # noqa: BLE001 - handed to everyone who joined
            round_.error = exc
        finally:
            round_.done.set()
            with _LOCK:
                if state.next is None and _KEYS.get(key) is state:
                    del _KEYS[key]     # nobody waits for another round: forget the key


def waiting(key: Hashable) -> int:
    """How many calls under `key` have joined the round not begun yet (0 when none)."""
    with _LOCK:
        state = _KEYS.get(key)
        return state.next.joined if state is not None and state.next is not None else 0
