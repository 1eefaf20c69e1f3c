"""The database a benchmark runs on: COURSE_DB (or FALKORDB_URL) when set, as `make bench`
does; else a throw-away embedded one, stopped and deleted afterwards. Shared by the
benchmarks that measure on the college graph (`make bench` runs only bench_*.py).
"""
from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from course.foundation.config import get_setting
from course.foundation.connection import connect
from course.foundation.db import Database


@contextmanager
def bench_database() -> Iterator[Database]:
    """`with bench_database() as db:` the configured database, or a temporary one."""
    if get_setting("COURSE_DB") or get_setting("FALKORDB_URL"):
        yield connect()
        return
    with tempfile.TemporaryDirectory() as folder:
        db = connect(path=Path(folder) / "bench.db")
        try:
            yield db
        finally:
            if db.server is not None:
                db.server.stop()

