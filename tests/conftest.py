"""Shared fixtures: every test gets its own environment and, when it asks, its own database."""
from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from course.foundation.config import KEY_VARIABLES, _dotenv
from course.foundation.connection import connect, throwaway_problem
from course.foundation.dataset import copy_graph, load_college
from course.retrieval.text_layer import text_layer_builder

# Variables the course reads: no test sees the developer's keys, server or choices.
COURSE_VARIABLES = KEY_VARIABLES + (
    "FALKORDB_URL", "COURSE_DB", "COURSE_GRAPH", "COURSE_LLM",
    "GROQ_BASE_URL", "GOOGLE_GEMINI_BASE_URL", "MISTRAL_BASE_URL", "OPENROUTER_BASE_URL",
    "OLLAMA_HOST", "GOOGLE_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL",
    "GEMINI_MODEL", "GROQ_MODEL", "GROQ_SMALL_MODEL", "MISTRAL_MODEL", "OPENROUTER_MODEL",
    "OLLAMA_MODEL", "COURSE_LLM_TIMEOUT", "GOOGLE_GENAI_USE_VERTEXAI", "GROQ_CUSTOM_HEADERS",
    "COURSE_EMBEDDER", "FASTEMBED_CACHE_PATH",
)


def pytest_configure(config):
    """Refuse, in one sentence, to run against anything but the run's own throw-away database.

    The notebooks nbval runs connect as a learner would (environment, then `.env`), so a
    FALKORDB_URL in `.env` or a learner's COURSE_DB would have them reset a real graph.
    """
    problem = throwaway_problem()
    if problem:
        pytest.exit(problem, returncode=2)


@pytest.fixture(autouse=True)
def isolated_environment(tmp_path, monkeypatch):
    """No keys, no server URL, no .env: the working directory is an empty temp folder.

    FALKORDB_URL is set empty rather than removed, so that a `python -m course` process a
    test starts does not read one from the project's `.env` either.
    """
    for name in COURSE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("FALKORDB_URL", "")
    monkeypatch.chdir(tmp_path)
    # The project's own .env (if a developer has one) must not leak into tests either.
    monkeypatch.setattr("course.foundation.config.dotenv_path", lambda: tmp_path / ".env")
    _dotenv.cache_clear()
    yield
    _dotenv.cache_clear()


@pytest.fixture(scope="session")
def _shared_server(tmp_path_factory):
    """One embedded FalkorDB for the whole run; each test gets a graph of its own on it."""
    db = connect(path=tmp_path_factory.mktemp("falkordb") / "tests.db")
    yield db
    db.server.stop()


_numbers = itertools.count(1)


@pytest.fixture
def empty_db(_shared_server):
    """A graph of this test's own, empty, deleted afterwards."""
    db = _shared_server.select(f"college_test_{next(_numbers)}")
    yield db
    if db.graph_name in db.client.list_graphs():
        db.graph.delete()


@pytest.fixture(scope="session")
def _college_template(_shared_server, tmp_path_factory):
    """The college graph loaded once, as `python -m course load` loads it (notebook 13's text
    layer built beside it), with no keys, server or choices."""
    with pytest.MonkeyPatch.context() as patch:
        for name in COURSE_VARIABLES:
            patch.delenv(name, raising=False)
        patch.setattr("course.foundation.config.dotenv_path",
                      lambda: tmp_path_factory.mktemp("env") / ".env")
        _dotenv.cache_clear()
        template = _shared_server.select("college_template")
        load_college(template, also=text_layer_builder())
    _dotenv.cache_clear()
    return template


@pytest.fixture
def college_db(empty_db, _college_template):
    """A graph of this test's own with the college graph loaded: a copy of one loaded graph,
    indexes and all (a third of the time a load takes)."""
    copy_graph(empty_db, _college_template.graph_name, empty_db.graph_name)
    return empty_db


@pytest.fixture(autouse=True)
def _python_processes_are_slow(request, monkeypatch):
    """A test that starts a Python process (`python -m course ...`, a kernel) takes seconds: it
    must be marked `slow`, so that `pytest -m "not slow"` stays the quick loop. Unmarked, it
    fails here with that sentence."""
    if request.node.get_closest_marker("slow"):
        return
    popen = subprocess.Popen

    class QuickPopen(popen):  # type: ignore[misc, valid-type]
        def __init__(self, args, *rest, **kwargs):
            program = args[0] if isinstance(args, (list, tuple)) else str(args).split()[0]
            if Path(str(program)).name.startswith("python") or str(program) == sys.executable:
                pytest.fail("This test starts a Python process: mark it @pytest.mark.slow "
                            "(the quick loop, -m 'not slow', skips those).", pytrace=False)
            super().__init__(args, *rest, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", QuickPopen)
