"""The docstring examples of course/ run as tests (`--doctest-modules`).

Each example runs as a learner would type it, with `db` already connected to the loaded
college graph, on a throw-away embedded database, with no key, server or `.env` of yours.
"""
from __future__ import annotations

import pytest
from _pytest.doctest import DoctestItem

COURSE_VARIABLES = ("FALKORDB_URL", "COURSE_DB", "COURSE_GRAPH", "COURSE_LLM", "GEMINI_API_KEY",
                    "GROQ_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY", "GOOGLE_API_KEY",
                    "OPENAI_API_KEY")


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
    monkeypatch.setattr("course.config.dotenv_path", lambda: tmp_path / ".env")
    monkeypatch.chdir(tmp_path)
    request.node.dtest.globs.setdefault("db", db)
    yield
