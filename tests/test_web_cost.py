"""What the web app does per request, counted: each shown text, each answer, each stream.

A room's stampede is served by one process; what each request costs is paid forty times at
once. These tests count the work itself (system calls, reads, writes), not the time it takes.
"""
from __future__ import annotations

import os

from course.llm.errors import configured_secrets


def test_the_keys_look_stats_each_place_of_dotenv_once(tmp_path, monkeypatch):
    """Every shown text asks which keys to hide (`configured_secrets`): is .env here, and has it
    changed? One stat per place looked at answers both (a stat is a system call; a text shown
    dozens of times an answer, forty answers at once)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("MISTRAL_API_KEY=mistral-" + "m" * 30 + "\n")
    for name in ("GEMINI_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert configured_secrets() == ("mistral-" + "m" * 30,)
    looked: list[str] = []
    real_stat = os.stat

    def counted(path, *args, **kwargs):
        looked.append(os.fspath(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", counted)
    assert configured_secrets() == ("mistral-" + "m" * 30,)
    assert looked == [str(tmp_path / ".env")]
    (tmp_path / ".env").unlink()            # gone: the project's place is looked at too
    looked.clear()
    configured_secrets()
    assert len(looked) == 2 and looked[0] == str(tmp_path / ".env")


def test_the_page_is_read_from_disk_once_while_it_is_unchanged(college_db, monkeypatch):
    """Every browser opens the page first: a room, forty at once. Its bytes are kept, and read
    again only when the file has changed."""
    import builtins

    from starlette.testclient import TestClient

    from course.cli_doors import web_chat
    from course.ui.web.access import Gate
    from course.ui.web.app import STATIC, create_app

    page = STATIC / "index.html"
    opened: list[str] = []
    real_open = builtins.open

    def counted(file, *args, **kwargs):
        if os.fspath(file) == os.fspath(page):
            opened.append("page")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counted)
    client = TestClient(create_app(web_chat(college_db), Gate(None, 8000)),
                        base_url="http://127.0.0.1:8000")
    bodies = [client.get("/") for _ in range(3)]
    assert all(b.status_code == 200 and b.content == page.read_bytes() for b in bodies)
    assert bodies[0].headers["content-type"].startswith("text/html")
    assert bodies[0].headers["cache-control"] == "no-store"
    assert "course_session" in bodies[0].cookies
    assert len(opened) == 1          # (the test's own reads are Path.read_bytes: not counted)


def test_a_stream_is_written_without_a_task_group_per_request(college_db, monkeypatch):
    """Starlette's StreamingResponse runs each stream beside a listener for the browser leaving,
    in a task group of their own (anyio: a tenth of the server's time per request in a room).
    The answer is worked out to its end whether the browser stays or not (its turn is saved);
    a browser gone only makes its writes go nowhere (uvicorn drops them): no listener needed."""
    import starlette.responses
    from starlette.testclient import TestClient

    from course.cli_doors import web_chat
    from course.ui.web.access import Gate
    from course.ui.web.app import create_app

    groups: list[int] = []
    real = starlette.responses.create_collapsing_task_group

    def counted(*args, **kwargs):
        groups.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(starlette.responses, "create_collapsing_task_group", counted)
    client = TestClient(create_app(web_chat(college_db), Gate(None, 8000)),
                        base_url="http://127.0.0.1:8000")
    client.get("/")
    response = client.post("/api/ask", json={"question": "Who is Payal?"})
    assert response.status_code == 200 and response.headers["content-type"].startswith(
        "text/event-stream")
    assert '"type": "answer"' in response.text and groups == []


def test_the_machines_folders_are_worked_out_once_per_home(tmp_path, monkeypatch):
    """Every shown text is cleared of this machine's folders (the project, the home, Python's,
    the temp folder): worked out once, and again when HOME changes, not for every text."""
    from pathlib import Path

    from course.ui.web.access import page_text

    asked: list[int] = []
    real_home = Path.home

    def counted() -> Path:
        asked.append(1)
        return real_home()

    monkeypatch.setenv("HOME", str(tmp_path / "first"))
    page_text("warm up")
    monkeypatch.setattr(Path, "home", staticmethod(counted))
    shown = [page_text(f"see {tmp_path}/first/notes/a{i}.txt and more") for i in range(3)]
    assert asked == [] and all(str(tmp_path) not in s for s in shown)
    monkeypatch.setenv("HOME", str(tmp_path / "second"))
    assert str(tmp_path / "second") not in page_text(f"in {tmp_path}/second/x ok")
    assert asked == [1]
