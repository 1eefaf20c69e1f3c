"""nbval settings for the notebooks, wherever pytest is started from.

The sanitizers replace what is inherently unstable between runs (timings, object
addresses) and nothing else: a changed answer still fails.

Every notebook is checked as a slow run: its kernel's `time.perf_counter` runs a thousand
times fast, so each measured time is a thousand times longer than in the committed (fast)
run. A cell whose text depends on how long something took (a padded number, a column that
widens, "under a second") then fails on every run, not only on a busy machine.
"""
import os
import shutil
from pathlib import Path

import pytest

from course.foundation.connection import throwaway_database, throwaway_problem
from course.foundation.server import EmbeddedServer

SANITIZERS = Path(__file__).resolve().parent.parent / "tests" / "nbval_sanitize.cfg"
CLOCK_FACTOR = 1000

# Runs in each kernel before the notebook's first cell (an IPython startup file).
SLOW_CLOCK = f"""\
import time as _time
_real_perf_counter = _time.perf_counter
_time.perf_counter = lambda: _real_perf_counter() * {CLOCK_FACTOR}
del _time
"""


def slow_clock_ipython_dir(folder: Path) -> Path:
    """An IPython folder whose startup file slows the kernel's measuring clock."""
    startup = folder / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    (startup / "00_slow_clock.py").write_text(SLOW_CLOCK)
    return folder


def warm_font_cache() -> None:
    """Build matplotlib's font cache now: on a busy machine, building it inside a notebook
    takes over 5 s, and matplotlib then writes a warning to the cell's output."""
    import matplotlib.font_manager  # noqa: F401  (importing it builds the cache once)


def worker_database() -> Path | None:
    """The database file of this pytest-xdist worker's notebooks (None outside a parallel run).

    Every notebook loads or resets the `college` graph of COURSE_DB: two of them running at
    once on one file would change each other's graph, so each worker runs its own.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return throwaway_database(worker) if worker else None


def start_afresh(database: Path) -> None:
    """Stop the server of a worker's database and remove its files: each run starts from
    nothing, as on a fresh clone. (The files outlive a run, and a worker's notebooks are a
    different set each time: one that is not 01, which resets the graph, would find what
    another run's notebooks left.)"""
    EmbeddedServer(database).stop()
    for leftover in database.parent.glob(database.name + "*"):
        if leftover.suffix == ".lock":   # the server's own locks stay: only data goes
            continue
        if leftover.is_dir():
            shutil.rmtree(leftover)      # the append-only file's folder
        else:
            leftover.unlink()


def pytest_configure(config):
    problem = throwaway_problem()  # the notebooks reset graphs: only on a throw-away database
    if problem:
        pytest.exit(problem, returncode=2)
    if getattr(config.option, "nbval_sanitize_with", None) is None and hasattr(config.option, "nbval"):
        config.option.nbval_sanitize_with = str(SANITIZERS)
    if getattr(config.option, "nbval", False):
        warm_font_cache()
        # The kernels nbval starts inherit this process's environment.
        own = worker_database()
        folder = Path(config.rootpath) / ".course" / ("ipython" + (f"-{own.stem}" if own else ""))
        config._notebook_env = pytest.MonkeyPatch()
        config._notebook_env.setenv("IPYTHONDIR", str(slow_clock_ipython_dir(folder)))
        if own is not None:
            start_afresh(own)
            config._notebook_env.setenv("COURSE_DB", str(own))


def pytest_unconfigure(config):
    if hasattr(config, "_notebook_env"):
        config._notebook_env.undo()
    own = worker_database()
    if own is not None:   # `make test` stops the server of .course/test.db; a worker, its own
        EmbeddedServer(own).stop()
