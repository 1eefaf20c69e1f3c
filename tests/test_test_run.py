"""How `make test` runs: in parallel, each notebook whole on one worker, mypy from its cache.

The run's own speed is measured in bench/, not here; these tests keep the settings it rests on.
"""
from __future__ import annotations

import re
import tomllib

from course.foundation.config import PROJECT_ROOT

SETTINGS = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _make_test_command() -> str:
    makefile = (PROJECT_ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    return next(line for line in recipe.splitlines() if "-m pytest" in line)


def test_make_test_runs_one_worker_per_core():
    assert re.search(r"-m pytest -n auto\b", _make_test_command())


def test_a_notebooks_cells_stay_together_on_one_worker_whoever_asks_for_workers():
    addopts = SETTINGS["tool"]["pytest"]["ini_options"]["addopts"].split()
    assert addopts[addopts.index("--dist") + 1] == "loadfile"


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
