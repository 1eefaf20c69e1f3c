"""How `make test` runs: in parallel, each notebook whole on one worker, mypy from its cache.

The run's own speed is measured in bench/, not here; these tests keep the settings it rests on.
"""
from __future__ import annotations

import importlib.util
import re
import tomllib
from types import SimpleNamespace

import pytest
from jupyter_client import launcher   # imported before any test's guard, as in a whole run

from course.foundation.config import PROJECT_ROOT
from course.foundation.versioning import data_version, fingerprint

SETTINGS = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _make_test_command() -> str:
    makefile = (PROJECT_ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    return next(line for line in recipe.splitlines() if "-m pytest" in line)


def test_make_test_runs_one_worker_per_core():
    assert re.search(r"-m pytest -n auto\b", _make_test_command())


@pytest.mark.parametrize("asked, run", [("load", "loadfile"), ("worksteal", "loadfile"),
                                        ("loadfile", "loadfile"), ("no", "no")])
def test_a_notebooks_cells_stay_together_on_one_worker_whoever_asks_for_workers(asked, run):
    spec = importlib.util.spec_from_file_location("root_conftest", PROJECT_ROOT / "conftest.py")
    assert spec is not None and spec.loader is not None
    root_conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(root_conftest)
    config = SimpleNamespace(option=SimpleNamespace(dist=asked),   # what `-n 2` leaves: "load"
                             pluginmanager=SimpleNamespace(has_plugin=lambda name: True), args=[])
    root_conftest.pytest_configure(config)
    assert config.option.dist == run


def test_the_parallel_runner_is_in_the_test_extra_and_pinned_with_what_it_needs():
    assert any(spec.startswith("pytest-xdist") for spec in SETTINGS["project"]["optional-dependencies"]["test"])
    pins = dict(line.split("==") for line in
                (PROJECT_ROOT / "requirements.lock").read_text(encoding="utf-8").split())
    assert {"pytest-xdist", "execnet"} <= pins.keys()


def test_mypy_runs_from_the_projects_own_cache_which_git_ignores():
    from test_types import MYPY_CACHE, MYPY_COMMAND

    assert MYPY_COMMAND[MYPY_COMMAND.index("--cache-dir") + 1] == str(MYPY_CACHE)
    assert MYPY_CACHE.parent == PROJECT_ROOT
    assert ".mypy_cache/" in (PROJECT_ROOT / ".gitignore").read_text(encoding="utf-8").split()


# --- the test server: a fork of it can hang a test's setup ----------------------------------

def test_the_test_server_saves_nothing_in_the_background(_shared_server):
    """A background save or append-only rewrite forks the server; a throw-away one needs neither."""
    assert _shared_server.command("CONFIG", "GET", "appendonly") == {"appendonly": "no"}
    assert _shared_server.command("CONFIG", "GET", "save") == {"save": ""}


def test_a_college_copy_forks_nothing_and_is_the_whole_template(_spare_copy):
    """A CI run's setup waited 80 s for a GRAPH.COPY (a fork) that never came: the copies are
    made by DUMP and RESTORE, the same graph, indexes and name, without a fork."""
    spare = type(_spare_copy)(_spare_copy.server, _spare_copy.template)   # one of this test's own
    forks = spare.server.command("INFO", "stats")["total_forks"]
    db, keys = spare.take()
    try:
        assert spare.server.command("INFO", "stats")["total_forks"] == forks
        assert db.graph_name in db.client.list_graphs()          # named as its key in FalkorDB
        template = spare.server.select(spare.template)
        assert fingerprint(db) == fingerprint(template)
        indexes = ("CALL db.indexes() YIELD label, properties, types, status "
                   "RETURN label, properties, types, status ORDER BY label")
        assert db.run(indexes).rows == template.run(indexes).rows
        assert db.run("CALL db.idx.fulltext.queryNodes('Student', 'Rahul') YIELD node "
                      "RETURN node.name").rows == [["Rahul"]]
        assert not [key for key in db.command("KEYS", "*") if key.endswith(":restoring")]
    finally:
        db.graph.delete()


# --- the quick loop: a college copy per test only when the last one changed it -------------

def test_a_copy_read_unchanged_goes_to_the_next_test_and_a_changed_one_is_deleted(_spare_copy):
    spare = type(_spare_copy)(_spare_copy.server, _spare_copy.template)   # one of this test's own
    graphs = _spare_copy.server.client.list_graphs
    first, keys = spare.take()
    assert first.counts() == {"nodes": 75, "relationships": 132}
    spare.give_back(first, keys)
    again, keys = spare.take()
    assert again.graph_name == first.graph_name                           # only read: kept
    again.graph.query("MATCH (s:Student {name: 'Payal'}) SET s.year = 9")  # a write no count sees
    spare.give_back(again, keys)
    assert first.graph_name not in graphs()
    third, keys = spare.take()
    assert third.graph_name != first.graph_name and third.run(
        "MATCH (s:Student {name: 'Payal'}) RETURN s.year").rows != [[9]]
    beside = third.select(third.graph_name + "_beside")
    beside.query("CREATE (:Turn)")                                        # a key come on the server
    spare.give_back(third, keys)
    assert third.graph_name not in graphs()
    beside.graph.delete()
    fourth, keys = spare.take()
    fourth.query("DROP INDEX ON :Student(id)")                            # counted, and an index gone
    spare.give_back(fourth, keys)
    assert fourth.graph_name not in graphs()


def _reads_of_whole_graphs(server) -> int:
    """How many read-only graph queries the server has run (its own count)."""
    stats = server.client.connection.execute_command("INFO", "commandstats")
    return sum(entry["calls"] for name, entry in stats.items() if name.lower() == "cmdstat_graph.ro_query")


def test_a_copy_only_read_is_given_back_without_reading_it_whole(_spare_copy):
    """Only reads (and the data version a reader stamps) since the copy was handed out, by the
    server's own count of commands: the copy goes to the next test without the four queries
    that read every node again."""
    spare = type(_spare_copy)(_spare_copy.server, _spare_copy.template)
    first, keys = spare.take()
    assert first.run("MATCH (s:Student) RETURN count(s)").rows == [[5]]
    data_version(first)                                   # a reader stamps the version it read
    reads = _reads_of_whole_graphs(spare.server)
    spare.give_back(first, keys)
    assert _reads_of_whole_graphs(spare.server) == reads
    again, keys = spare.take()
    assert again.graph_name == first.graph_name
    again.graph.query("MATCH (s:Student {name: 'Payal'}) SET s.year = 2")   # the value it had
    spare.give_back(again, keys)                                          # read whole, kept
    third, keys = spare.take()
    assert third.graph_name == first.graph_name
    third.graph.delete()


def test_what_was_worked_out_from_a_copy_only_read_goes_with_it_and_is_never_stale(_spare_copy):
    """The next test of a copy only read finds its names kept (one command: the version), a
    version stamped that is not the content's is dropped with what was kept under it, and a
    write through the course hands no cache on: the next test's linking sees the graph as
    loaded."""
    from test_server_commands import commands_of

    from course.foundation.db import version_key
    from course.foundation.versioning import per_version
    from course.pipeline.linking import link_entities, name_index

    spare = type(_spare_copy)(_spare_copy.server, _spare_copy.template)
    first, keys = spare.take()
    names = name_index(first).warm()
    spare.give_back(first, keys)
    again, keys = spare.take()
    assert again.graph_name == first.graph_name
    sent = commands_of(again, lambda: name_index(again))
    assert name_index(again) is names and sum(sent.values()) == 1, sent   # kept: not read again
    again.command("HSET", version_key(again.graph_name), "version", "0 not-its-content")
    per_version(again, "names", lambda: "stale")
    spare.give_back(again, keys)
    third, keys = spare.take()
    assert third.graph_name == first.graph_name                          # the content is the same
    assert data_version(third) == fingerprint(third) and name_index(third) is not names
    assert isinstance(name_index(third), type(names))                    # not what the stamp kept
    third.query("MATCH (s:Student {name: 'Payal'}) SET s.name = 'Zara'")  # counted
    assert [m.value for m in link_entities(third, "Who is Zara?")] == ["Zara"]
    spare.give_back(third, keys)
    fourth, keys = spare.take()
    assert fourth.graph_name != first.graph_name
    assert [m.value for m in link_entities(fourth, "Who is Payal?")] == ["Payal"]
    assert link_entities(fourth, "Who is Zara?") == []
    spare.give_back(fourth, keys)


def test_an_unmarked_test_that_writes_a_hundred_times_graph_fails_saying_mark_it_slow(empty_db):
    from course.foundation.dataset import synthetic_college, write_dataset

    with pytest.raises(pytest.fail.Exception, match=r"over 10,000 rows: mark it @pytest.mark.slow"):
        write_dataset(empty_db, synthetic_college(50))                    # 10,350 rows


def test_no_worker_imports_a_pytest_plugin_the_tests_never_use():
    """LangSmith's plugin (it comes with the peers extra) took most of a second per worker."""
    import sys

    assert "langsmith.pytest_plugin" not in sys.modules


# --- nbval only where notebooks run ----------------------------------------------------------

def _pytest(*arguments: str) -> "subprocess.CompletedProcess[str]":
    import os
    import subprocess
    import sys
    environment = {**os.environ, "COURSE_DB": str(PROJECT_ROOT / ".course" / "test.db")}
    return subprocess.run([sys.executable, *arguments], cwd=PROJECT_ROOT, capture_output=True,
                          text=True, timeout=300, env=environment)


@pytest.mark.slow
def test_the_quick_loop_never_imports_nbval():
    """Importing nbval (nbformat, jsonschema's format checkers) cost every quick-loop process
    seconds of CPU; `-X importtime` lists every module a process imports."""
    done = _pytest("-X", "importtime", "-m", "pytest", "-s", "--collect-only", "-q", "-m", "not slow",
                   "course/foundation/db.py")
    assert done.returncode == 0, done.stdout + done.stderr
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert "course.foundation.db" in imported and not any(m.startswith("nbval") for m in imported)


@pytest.mark.slow
def test_make_test_still_runs_every_notebook_under_nbval():
    command = _make_test_command()
    assert "$(NBVAL)" in command
    nbval = re.search(r"^NBVAL := (.+)$", (PROJECT_ROOT / "Makefile").read_text(), re.M)[1].split()
    done = _pytest("-m", "pytest", "--collect-only", "-q", *nbval, "notebooks/01_load_graph.ipynb")
    assert "notebooks/01_load_graph.ipynb::Cell 0" in done.stdout, done.stdout + done.stderr


@pytest.mark.slow
def test_a_notebook_named_without_nbval_gets_a_sentence_saying_what_to_add():
    done = _pytest("-m", "pytest", "-q", "notebooks/01_load_graph.ipynb")
    assert done.returncode != 0 and "-p nbval --nbval" in done.stderr + done.stdout
    assert "not found" not in done.stderr + done.stdout


def test_a_quick_test_cannot_start_a_kernel_unmarked_either():
    """jupyter_client starts kernels with the `Popen` it imported by name: the guard is where
    every Popen starts its process, so that one is caught too."""
    import subprocess

    assert launcher.Popen is subprocess.Popen   # the same class, whose start is guarded
    with pytest.raises(pytest.fail.Exception, match="mark it @pytest.mark.slow"):
        launcher.Popen(["python", "-c", "pass"])


def test_an_unmarked_test_that_starts_a_database_server_fails_saying_mark_it_slow(tmp_path):
    """The slow marker's definition covers any process a test starts, a FalkorDB server of the
    test's own too (the quick loop's tests share the run's one server), not only Python."""
    from course.foundation.server import EmbeddedServer

    server = EmbeddedServer(tmp_path / "own.db")
    try:
        with pytest.raises(pytest.fail.Exception, match=r"starts a process .*: mark it"):
            server.ensure_running()
    finally:
        server.stop()


@pytest.mark.slow   # starts pytest
def test_a_quick_test_whose_sdk_names_the_platform_passes_the_guard_in_a_process_of_its_own():
    """The SDKs name the platform in a request, and Python runs `uname -p` once a process to
    find the processor: run alone, the first such test was failed by the process guard."""
    done = _pytest("-m", "pytest", "-q", "-p", "no:xdist", "-m", "not slow",
                   "tests/test_tool_calling.py", "-k", "key_is_never_shown")
    assert done.returncode == 0 and "passed" in done.stdout, done.stdout[-1500:]
