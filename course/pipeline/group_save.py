"""Writes that take turns under one lock, done in groups: what a room's conversations need.

Introduced in notebook 10, with the memory kept in the graph. A turn is saved under a lock on the server
(its number is worked out inside the write), one user's graph at a time. When forty browsers
finish an answer in the same instant, each would take that lock, write one turn and give it
back, while the others wait and ask again. Here the first writer to come takes the lock once
and writes every turn that is waiting by then, in the order they came, each with its own query;
the others wait for their own turn's outcome (its value, or its own error). Nothing else
changes: the same query, the same lock across processes, a turn saved before its answer is
given.

>>> together(("example",), nullcontext, lambda: 41 + 1)
42
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager, nullcontext  # noqa: F401 - nullcontext: the example
from typing import Any, TypeVar

T = TypeVar("T")


class _Write:
    """One write waiting for its group: what to do, and its outcome when done."""

    def __init__(self, write: Callable[[], Any]) -> None:
        self.write = write
        self.done = self.ran = False
        self.value: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        self.ran = True
        try:
            self.value = self.write()
        except BaseException as exc:   # noqa: BLE001 - handed to the thread that asked
            self.error = exc


class _Queue:
    """The writes waiting under one key, and whether a writer is at work on a group now."""

    def __init__(self) -> None:
        self.waiting: list[_Write] = []
        self.writing = False
        self.changed = threading.Condition()


_QUEUES: dict[Hashable, _Queue] = {}
_QUEUES_LOCK = threading.Lock()


def _queue(key: Hashable) -> _Queue:
    with _QUEUES_LOCK:
        return _QUEUES.setdefault(key, _Queue())


def waiting(key: Hashable) -> int:
    """How many writes under `key` wait for a writer now (0 when none)."""
    queue = _queue(key)
    with queue.changed:
        return len(queue.waiting)


def together(key: Hashable, lock: Callable[[], AbstractContextManager[Any]],
             write: Callable[[], T]) -> T:
    """`write()` done under `lock()`, in a group with the other writes under `key` waiting now.

    Returns what `write()` returned, or raises what it raised (or what taking the lock raised).
    """
    queue, mine = _queue(key), _Write(write)
    with queue.changed:
        queue.waiting.append(mine)
        while queue.writing and not mine.done:
            queue.changed.wait()
        if not mine.done:                        # nobody is writing: this thread writes the group
            queue.writing, group, queue.waiting = True, queue.waiting, []
    if not mine.done:
        try:
            _write_group(lock, group)
        finally:
            with queue.changed:
                for each in group:
                    each.done = True
                queue.writing = False
                queue.changed.notify_all()
    if mine.error is not None:
        raise mine.error
    return mine.value


def _write_group(lock: Callable[[], AbstractContextManager[Any]], group: list[_Write]) -> None:
    """Each write of the group under one holding of the lock; a lock not had fails them all."""
    try:
        with lock():
            for each in group:
                each.run()
    except BaseException as exc:  # noqa: BLE001 - the lock was not had (or was lost): say so to each
        for each in group:
            if not each.ran:
                each.error = exc
