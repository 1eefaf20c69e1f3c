"""A slow run of a notebook prints what a fast one does.

nbval compares each cell's output with the committed one after its sanitizers; the committed
outputs come from an ordinary run. These tests check the two things that make a busy machine
print the same: the sanitizers treat a time the same whatever its digits and padding, and every
nbval kernel really runs on the slowed clock (notebooks/conftest.py), so a cell whose text
depends on a measured time fails every run instead of on a busy day.
"""
from __future__ import annotations

import configparser
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _notebook_conftest():
    spec = importlib.util.spec_from_file_location("notebook_conftest", ROOT / "notebooks" / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sanitize(text: str) -> str:
    """The notebooks' sanitizers applied as nbval applies them: each regex in turn."""
    parser = configparser.ConfigParser()
    parser.read(ROOT / "tests" / "nbval_sanitize.cfg", encoding="utf-8")
    for section in parser.sections():
        text = re.sub(parser[section]["regex"], parser[section]["replace"], text)
    return text


@pytest.mark.parametrize("fast, slow", [
    ("|     1.0 ms|", "| 12345.6 ms|"),              # a padded table cell
    ("<td >   0.4 ms</td>", "<td >2000.0 ms</td>"),  # the same in HTML
    ("stopped after 1001.5 ms", "stopped after 15000.0 ms"),
    ("  time   1.1 s (7.0 ms per question)", "  time   310.0 s (1987.2 ms per question)"),
    ("data version computed in 3.1 ms", "data version computed in 3100.0 ms"),
])
def test_a_time_sanitizes_the_same_whatever_its_width(fast, slow):
    assert sanitize(fast) == sanitize(slow)


@pytest.mark.parametrize("one, other", [
    ("Payal (A+), then Aarav (A).", "Aarav (A), then Payal (A+)."),
    ("75 nodes, 132 relationships", "75 nodes, 133 relationships"),
    ("3 attempts", "4 attempts"),
])
def test_a_changed_answer_still_differs(one, other):
    assert sanitize(one) != sanitize(other)


@pytest.mark.slow
def test_the_notebook_kernels_run_on_the_slow_clock(tmp_path):
    jupyter_client = pytest.importorskip("jupyter_client")
    conftest = _notebook_conftest()
    folder = conftest.slow_clock_ipython_dir(tmp_path / "ipython")
    manager, client = jupyter_client.manager.start_new_kernel(
        kernel_name="python3", env={**__import__("os").environ, "IPYTHONDIR": str(folder)})
    try:
        printed: list[str] = []
        client.execute_interactive(
            "import time\nstarted = time.perf_counter()\ntime.sleep(0.05)\n"
            "print(time.perf_counter() - started)",
            output_hook=lambda msg: printed.append(msg["content"].get("text", "")), timeout=60)
        measured = float("".join(printed))
        assert measured >= 0.05 * conftest.CLOCK_FACTOR * 0.9   # a 50 ms sleep measures as ~50 s
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


# --- a parallel run (`make test` runs pytest-xdist workers) ---------------------------------

def test_each_parallel_worker_runs_its_notebooks_on_a_database_of_its_own(monkeypatch):
    from course.foundation.connection import throwaway_database

    conftest = _notebook_conftest()
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    assert conftest.worker_database() is None          # one process: .course/test.db, as before
    found = []
    for worker in ("gw0", "gw1"):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        found.append(conftest.worker_database())
    assert found == [throwaway_database("gw0"), throwaway_database("gw1")]
    assert len({throwaway_database(), *found}) == 3 and found[0].parent == throwaway_database().parent


@pytest.mark.parametrize("name, refused", [("test.db", False), ("test-gw0.db", False),
                                           ("test-gw12.db", False), ("college.db", True),
                                           ("test-gw.db", True), ("test-other.db", True)])
def test_a_run_takes_the_throwaway_database_or_a_workers_and_no_other(monkeypatch, name, refused):
    from course.foundation.connection import throwaway_database, throwaway_problem

    monkeypatch.setenv("COURSE_DB", str(throwaway_database().parent / name))
    monkeypatch.setenv("FALKORDB_URL", "")
    problem = throwaway_problem()
    assert (problem is not None) == refused
    assert problem is None or "use only their own throw-away database" in problem


def test_a_worker_name_that_is_not_xdists_is_refused_in_a_sentence():
    from course.foundation.connection import throwaway_database

    with pytest.raises(ValueError, match="gw0, gw1"):
        throwaway_database("../college")


@pytest.mark.slow   # starts a server of its own
def test_a_workers_database_starts_each_run_from_nothing():
    # A worker's notebooks differ from run to run: one that is not 01 (which resets the graph)
    # found what another run's notebook 15 left in the file, and notebook 13 failed.
    from course.foundation.connection import connect, throwaway_database

    conftest = _notebook_conftest()
    database = throwaway_database("gw97")
    try:
        connect(path=database).query("CREATE (:Left {by: 'an earlier run'})")
        conftest.start_afresh(database)
        again = connect(path=database)
        assert again.graph_name not in again.client.list_graphs()
    finally:
        conftest.start_afresh(database)
        for lock in database.parent.glob(database.name + "*.lock"):
            lock.unlink()


def test_a_project_in_the_temp_folder_still_refuses_the_learners_database(monkeypatch):
    # A clone in /tmp put the learner's .course/college.db inside the temp folder, which is
    # otherwise a throw-away place: the project's own folder has its own rule.
    import tempfile

    from course.foundation.connection import throwaway_database, throwaway_problem

    folder = throwaway_database().parent
    monkeypatch.setattr(tempfile, "tempdir", str(folder.parent.parent))
    monkeypatch.setenv("FALKORDB_URL", "")
    monkeypatch.setenv("COURSE_DB", str(folder / "college.db"))
    assert throwaway_problem() is not None
    monkeypatch.setenv("COURSE_DB", str(folder / "test-gw1.db"))
    assert throwaway_problem() is None
