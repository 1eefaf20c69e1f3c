"""The docstring examples of course/ run as tests, beside tests/ and the notebooks.

Each example runs as a learner would type it, with `db` already connected to the loaded
college graph, on a throw-away embedded database, with no key, server or `.env` of yours.
Only the package's modules are read for examples (pytest's `--doctest-modules` would also
import every conftest.py and test file as a module, and their names collide).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.doctest import DoctestItem, DoctestModule

PACKAGE = Path(__file__).resolve().parent / "course"


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix == ".py" and PACKAGE in file_path.parents:
        return DoctestModule.from_parent(parent, path=file_path)
    return None

def pytest_configure(config: pytest.Config) -> None:
    """With workers (`-n`, as `make test` runs), each file goes whole to one worker.

    A notebook's cells share one kernel and run in order, and a module's fixtures are built
    once: pytest-xdist's default (`--dist load`) would share a file's tests out among the
    workers, so any mode but `loadfile` (or none) becomes `loadfile`.
    """
    if getattr(config.option, "dist", "no") not in ("no", "loadfile"):
        config.option.dist = "loadfile"
    # nbval is loaded only when asked (pyproject.toml's addopts): a notebook named without it
    # would be "not found", so say what to add instead.
    if not config.pluginmanager.has_plugin("nbval") and \
            any(str(arg).split("::")[0].endswith(".ipynb") for arg in config.args):
        raise pytest.UsageError("Notebooks run under nbval, which the quick loop leaves out: add "
                                "`-p nbval --nbval --nbval-current-env` (as `make test` does).")


COURSE_VARIABLES = ("FALKORDB_URL", "COURSE_DB", "COURSE_GRAPH", "COURSE_LLM", "GEMINI_API_KEY",
                    "GROQ_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY", "GOOGLE_API_KEY",
                    "OPENAI_API_KEY", "COURSE_EMBEDDER")


@pytest.fixture(scope="session")
def _doctest_db(tmp_path_factory):
    from course import connect, load_college

    db = connect(path=tmp_path_factory.mktemp("doctest") / "doctest.db")
    load_college(db)
    yield db
    if db.server is not None:
        db.server.stop()


@pytest.fixture(autouse=True)
def _doctest_setting(request, monkeypatch, tmp_path):
    """For docstring examples only: a clean environment and `db` in their namespace."""
    if not isinstance(request.node, DoctestItem):
        yield
        return
    db = request.getfixturevalue("_doctest_db")
    for name in COURSE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COURSE_DB", db.location)
    monkeypatch.setattr("course.foundation.config.dotenv_path", lambda: tmp_path / ".env")
    monkeypatch.chdir(tmp_path)
    request.node.dtest.globs.setdefault("db", db)
    yield
