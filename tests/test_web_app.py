"""The web app over HTTP (no browser): the stream of stages, memory per browser, the limits,
who may use it, and what text may reach the page. tests/test_web_browser.py drives the page.
"""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from course.cli_doors import web_chat
from course.foundation.db import Database
from course.llm.base import Completion, Usage
from course.llm.offline import OfflineLLM
from course.pipeline.agent import MAX_QUESTION_CHARS, Agent, check_question
from course.pipeline.memory import ShortTermMemory
from course.ui.web.access import Gate, page_text
from course.ui.web.app import BUSY, SESSION_COOKIE, STATIC, Chat, create_app
from course.ui.web.picture import GraphSource
from course.ui.web.sessions import Sessions

BASE = "http://127.0.0.1:8000"


def client_for(chat: Chat, *, token: str | None = None, port: int = 8000) -> TestClient:
    client = TestClient(create_app(chat, Gate(token, port)), base_url=BASE)
    client.get("/" + (f"?token={token}" if token else ""))   # the page gives the session cookie
    return client


def events(client: TestClient, question: str) -> list[dict]:
    response = client.post("/api/ask", json={"question": question})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    return [json.loads(line[6:]) for line in response.text.splitlines() if line.startswith("data: ")]


def of(found: list[dict], kind: str) -> list[dict]:
    return [e for e in found if e["type"] == kind]


@pytest.fixture
def chat(college_db):
    return web_chat(college_db)


def test_a_question_streams_its_stages_then_the_answer_and_the_lit_graph(chat):
    found = events(client_for(chat), "Who is the best person to teach me DBMS?")
    assert [e["type"] for e in found] == ["linked", "step", "call", "rows", "step", "answer",
                                          "graph"]
    linked, cypher, call, rows, _, answer, graph = found
    assert linked["mentions"] == [{"label": "Subject", "value": "DBMS"}]
    assert cypher["kind"] == "cypher" and call["verdict"] == "allowed" and call["row_count"] == 2
    assert rows["rows"][:2] == [["Payal", "A+"], ["Aarav", "A"]]
    assert answer["status"] == "answered" and "Payal" in answer["answer"]
    assert answer["attempts"] == 1 and answer["llm_calls"] == 2 and answer["provider"] == "Offline"
    lit = {n["name"] for n in graph["nodes"] if n["lit"]}
    named = {n["name"] for n in graph["nodes"] if n["named"]}
    assert {"Payal", "Aarav"} <= lit and named == {"DBMS"}
    assert graph["legend"][0] == {"label": "Student", "colour": "#4e79a7"}   # the notebook's colours


def test_a_follow_up_resolves_and_a_new_chat_forgets(chat):
    client = client_for(chat)
    events(client, "Who is Payal?")
    answer, = of(events(client, "uska year kya hai?"), "answer")
    assert answer["status"] == "answered" and "2" in answer["answer"]
    assert client.post("/api/new", json={}).status_code == 200
    assert client.get("/api/history").json()["turns"] == []
    answer, = of(events(client, "uska year kya hai?"), "answer")
    assert "Payal" not in answer["answer"]


def test_each_browser_has_its_own_conversation(chat):
    first, second = client_for(chat), client_for(chat)
    assert first.cookies[SESSION_COOKIE] != second.cookies[SESSION_COOKIE]
    events(first, "Who is Payal?")
    assert second.get("/api/history").json()["turns"] == []


def test_a_reload_or_a_restarted_server_resumes_the_conversation(college_db):
    client = client_for(web_chat(college_db))
    events(client, "Who is Payal?")
    history = client.get("/api/history").json()
    assert [t["question"] for t in history["turns"]] == ["Who is Payal?"]
    restarted = TestClient(create_app(web_chat(college_db), Gate(None, 8000)), base_url=BASE)
    restarted.cookies.set(SESSION_COOKIE, client.cookies[SESSION_COOKIE])
    turns = restarted.get("/api/history").json()
    assert [t["question"] for t in turns["turns"]] == ["Who is Payal?"]
    assert "Payal" in {n["name"] for n in turns["graph"]["nodes"] if n["lit"]}
    answer, = of(events(restarted, "uska year kya hai?"), "answer")
    assert "2" in answer["answer"]


def test_a_question_over_the_limit_gets_the_command_lines_sentence(chat):
    question = "Who is Payal? " * (MAX_QUESTION_CHARS // 10)
    found = events(client_for(chat), question)
    with pytest.raises(Exception) as raised:
        check_question(question)
    assert found == [{"type": "error", "message": str(raised.value)}]
    assert "the limit is 2,000" in found[0]["message"]


def test_a_huge_body_is_refused_with_the_same_sentence(chat):
    found = events(client_for(chat), "x" * 200_000)
    assert "the limit is 2,000" in found[0]["message"]


def test_a_session_asking_too_fast_is_told_to_wait(college_db):
    now = [0.0]
    client = client_for(web_chat(college_db, per_minute=2, clock=lambda: now[0]))
    assert of(events(client, "Who is Payal?"), "answer")
    assert of(events(client, "Who is Rahul?"), "answer")
    refused = events(client, "Who is Sneha?")
    assert refused == [{"type": "error", "message": "Too many questions: this chat takes 2 a "
                                                     "minute. Wait 30 s, then ask again."}]
    now[0] += 30
    assert of(events(client, "Who is Sneha?"), "answer")


def test_a_session_answers_one_question_at_a_time(chat):
    client = client_for(chat)
    session = chat.sessions.get(client.cookies[SESSION_COOKIE])
    with session.busy:
        assert events(client, "Who is Payal?") == [{"type": "error", "message": BUSY}]


class SlowLLM(OfflineLLM):
    """A mock provider: the offline one, a quarter of a second slower per call."""

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        time.sleep(0.25)
        return super().complete(prompt, system=system)


@pytest.mark.slow   # half a second or more
def test_a_slow_answer_gets_keep_alive_comments(college_db):
    def make_agent(memory):
        return Agent(college_db, SlowLLM(), memory=memory)

    sessions = Sessions(lambda session: ShortTermMemory(), make_agent)
    chat = Chat(sessions, GraphSource(college_db), {"agent": "pipeline", "provider": "slow"},
                keepalive_s=0.1)
    response = client_for(chat).post("/api/ask", json={"question": "Who is Payal?"})
    assert ": keep-alive" in response.text
    assert '"type": "answer"' in response.text


def test_a_stage_never_shows_a_configured_key(college_db, monkeypatch):
    monkeypatch.setenv("GROQ_API_KEY", "gsk_" + "k" * 40)

    class Leaky(OfflineLLM):   # a mock provider that writes the key into its Cypher
        def complete(self, prompt: str, *, system: str | None = None) -> Completion:
            return Completion("MATCH (s:Student) RETURN 'gsk_" + "k" * 40 + "' AS leak",
                              "Leaky", "rules", Usage())

    sessions = Sessions(lambda session: ShortTermMemory(),
                        lambda memory: Agent(college_db, Leaky(), memory=memory))
    chat = Chat(sessions, GraphSource(college_db), {"agent": "pipeline", "provider": "leaky"})
    text = client_for(chat).post("/api/ask", json={"question": "Who is Payal?"}).text
    assert "kkkkkkkkkk" not in text


def test_page_text_hides_passwords_and_paths():
    shown = page_text("FalkorDB at redis://:hunter2@db:6379 failed; see /home/ana/course/.course/"
                      f"course.log and {Path.home()}")
    assert "hunter2" not in shown and "/home/ana" not in shown and str(Path.home()) not in shown
    assert "course.log" in shown
    assert page_text("MATCH (a) RETURN a.x / 2") == "MATCH (a) RETURN a.x / 2"


def test_an_error_from_the_server_reaches_the_page_without_its_path(college_db):
    def broken(memory):
        raise RuntimeError(f"cannot open {Path.cwd() / 'secret' / 'course.db'}")

    chat = Chat(Sessions(lambda s: ShortTermMemory(), broken), GraphSource(college_db),
                {"agent": "pipeline", "provider": "offline"})
    text = client_for(chat).post("/api/ask", json={"question": "Who is Payal?"}).text
    assert "went wrong" in text and str(Path.cwd()) not in text and "secret" not in text


# --- who may use it ------------------------------------------------------------------------

def test_a_loopback_server_refuses_a_request_for_another_host(chat):
    app = TestClient(create_app(chat, Gate(None, 8000)), base_url="http://evil.example:8000")
    refused = app.get("/")
    assert refused.status_code == 403 and "127.0.0.1:8000" in refused.text
    assert TestClient(create_app(chat, Gate(None, 8000)), base_url="http://localhost:8000") \
        .get("/").status_code == 200


def test_a_server_on_another_host_needs_its_token(chat):
    app = create_app(chat, Gate("s3cret-token", 8000))
    stranger = TestClient(app, base_url="http://10.0.0.5:8000")
    assert stranger.get("/").status_code == 403
    assert "token" in stranger.get("/api/history").text
    assert stranger.post("/api/ask", json={"question": "Who is Payal?"}).status_code == 403
    friend = TestClient(app, base_url="http://10.0.0.5:8000", follow_redirects=False)
    first = friend.get("/?token=s3cret-token")
    assert first.status_code == 303 and first.headers["location"] == "/"   # out of the address
    assert friend.get("/").status_code == 200
    assert of(events(friend, "Who is Payal?"), "answer")


def test_a_question_must_come_as_json_from_the_page_itself(chat):
    client = client_for(chat)
    assert client.post("/api/ask", content="question=x",
                       headers={"content-type": "application/x-www-form-urlencoded"}
                       ).status_code == 415
    assert client.post("/api/ask", json={"question": "Who is Payal?"},
                       headers={"origin": "http://evil.example"}).status_code == 403
    assert client.post("/api/ask", json={"nothing": 1}).status_code == 400


def test_every_response_forbids_scripts_from_elsewhere(chat):
    page = client_for(chat).get("/")
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert page.headers["referrer-policy"] == "no-referrer"


# --- the page itself -----------------------------------------------------------------------

def test_the_page_loads_nothing_from_the_internet():
    for asset in STATIC.iterdir():
        text = asset.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)=[\"']?(https?:)?//", text), asset.name
        assert "@import" not in text and "cdn" not in text.lower(), asset.name


def test_the_script_sets_text_never_markup():
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "new Function"):
        assert sink not in script, sink


def test_the_page_and_its_assets_are_served_by_the_app(chat):
    client = client_for(chat)
    for name in ("app.js", "app.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../app.py").status_code == 404


def test_serve_refuses_a_memory_graph_before_touching_it(monkeypatch, capsys,
                                                           _shared_server: Database):
    from course.__main__ import main

    monkeypatch.setenv("COURSE_DB", str(_shared_server.location))
    monkeypatch.setenv("COURSE_GRAPH", "memory_user_web")
    assert main(["serve", "--port", "0"]) == 1
    assert "holds a user's stored conversation" in capsys.readouterr().err


def test_serve_checks_its_port():
    from course.__main__ import build_parser

    with pytest.raises(Exception, match="--port must be a number from 0 to 65535"):
        build_parser().parse_args(["serve", "--port", "99999"])


# --- the browser tests' own rule: skip where there is no browser, fail under CI -----------

def test_no_browser_skips_the_browser_tests_with_a_sentence(monkeypatch, tmp_path):
    from test_web_browser import need_browser

    monkeypatch.setenv("COURSE_CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("COURSE_REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="No chromium here"):
        need_browser()
    monkeypatch.setenv("COURSE_REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match="COURSE_REQUIRE_BROWSER=1 but no chromium"):
        need_browser()


def test_ci_installs_the_browser_and_requires_it():
    script = (Path(__file__).parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "install -y -qq chromium" in script
    assert "DPkg::Lock::Timeout" in script    # (another apt on a shared machine: waited for)
    assert script.index("export COURSE_REQUIRE_BROWSER=1") < script.index("make test")


@pytest.mark.parametrize("agent", ["tools", "agentic"])
def test_the_other_agents_stream_their_steps_too(college_db, agent):
    found = events(client_for(web_chat(college_db, agent=agent)), "Who is Rahul and what does he study?"
                   if agent == "agentic" else "Who is Payal?")
    kinds = [e["type"] for e in found]
    assert kinds[0] == "linked" and kinds[-2:] == ["answer", "graph"]
    steps = of(found, "step")
    assert steps and of(found, "answer")[0]["status"] == "answered"
    if agent == "tools":
        assert [s["kind"] for s in steps][0] == "tools" and of(found, "call")[0]["name"]
    else:
        assert {"updater", "router"} <= {s["kind"] for s in steps}
        calls = [c for s in steps for c in s["calls"]]
        assert calls and all(isinstance(json.loads(c["arguments"]), dict) for c in calls)


def test_a_retry_streams_with_its_error(college_db):
    from course.llm.scripted import ScriptedLLM

    script = ["MATCH (s:Student {name: 'Nobody'}) RETURN s.name AS name",
              "MATCH (s:Student {name: 'Payal'}) RETURN s.name AS name", "Payal."]
    sessions = Sessions(lambda session: ShortTermMemory(),
                        lambda memory: Agent(college_db, ScriptedLLM(list(script)), memory=memory))
    chat = Chat(sessions, GraphSource(college_db), {"agent": "pipeline", "provider": "scripted"})
    found = events(client_for(chat), "Who is Payal?")
    retry, = of(found, "retry")
    assert retry == {"type": "retry", "number": 1, "kind": "empty_result",
                     "error": "The query returned no rows."}
    kinds = [e["type"] for e in found]
    assert kinds.index("retry") < kinds.index("answer") and of(found, "answer")[0]["attempts"] == 2


@pytest.mark.slow
def test_serve_prints_a_token_for_another_host_and_refuses_without_it(college_db):
    import os
    import subprocess
    import sys

    import httpx

    environment = {**os.environ, "COURSE_DB": college_db.location,
                   "COURSE_GRAPH": college_db.graph_name}
    server = subprocess.Popen([sys.executable, "-m", "course", "serve", "--host", "0.0.0.0",
                               "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, env=environment)
    try:
        lines = [server.stdout.readline() for _ in range(4)]
        address = next(line.strip() for line in lines if "127.0.0.1" in line)
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{48}", address), lines
        bare = address.split("?")[0]
        assert httpx.get(bare, timeout=30).status_code == 403
        assert httpx.get(address, timeout=30, follow_redirects=True).status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_stopped_database_is_a_sentence_on_the_page_not_a_traceback(college_db):
    from course.foundation.errors import DatabaseUnavailable

    def stopped(session):
        raise DatabaseUnavailable("FalkorDB is not running at redis://:hunter2@db:6379: start it.")

    chat = Chat(Sessions(stopped, lambda memory: None), GraphSource(college_db),
                {"agent": "pipeline", "provider": "offline"})
    client = client_for(chat)
    history = client.get("/api/history")
    assert history.status_code == 503 and "not running" in history.json()["error"]
    assert "hunter2" not in history.text
    found = events(client, "Who is Payal?")
    assert found[0]["type"] == "error" and "hunter2" not in found[0]["message"]
