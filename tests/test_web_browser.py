"""The web app in a real browser (Debian's chromium, driven by playwright), as a learner uses it:
type a question, press Enter, watch the stages come in, read the answer, see the graph lit up.

Where no browser can be had these tests skip, saying so; under CI (`.ci/run` sets
COURSE_REQUIRE_BROWSER=1) a missing browser fails them instead. Each test saves a screenshot
in its temporary folder (and in COURSE_SCREENSHOTS, when set, for a person to look at).
"""
from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from course.cli_doors import web_chat
from course.llm.base import Completion
from course.llm.offline import OfflineLLM
from course.pipeline.agent import Agent
from course.pipeline.memory import ShortTermMemory
from course.ui.web.access import Gate
from course.ui.web.app import Chat, create_app
from course.ui.web.picture import GraphSource
from course.ui.web.serve import open_socket
from course.ui.web.sessions import Sessions

pytestmark = pytest.mark.slow     # each starts a browser process
HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'


def chromium() -> Path | None:
    """Debian's chromium (or COURSE_CHROMIUM), if this machine has it."""
    named = Path(os.environ.get("COURSE_CHROMIUM", "/usr/bin/chromium"))
    found = named if named.exists() else shutil.which("chromium")
    return Path(found) if found else None


def need_browser() -> Path:
    """The browser to drive; else skip with one sentence, or fail under CI
    (COURSE_REQUIRE_BROWSER=1), where a missing browser must not pass unnoticed."""
    try:
        import playwright.sync_api  # noqa: F401
        problem = None if chromium() else ("no chromium here (apt-get install chromium, or set "
                                           "COURSE_CHROMIUM): the browser tests are skipped.")
    except ImportError:
        problem = "playwright is not installed (pip install playwright): the browser tests are skipped."
    if problem is None:
        return chromium() or Path()
    if os.environ.get("COURSE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"COURSE_REQUIRE_BROWSER=1 but {problem}", pytrace=False)
    pytest.skip(problem[0].upper() + problem[1:])


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(executable),
                                          args=["--no-sandbox"])
        yield launched
        launched.close()


def run_server(chat: Chat) -> Iterator[str]:
    """The app on a free loopback port, in a thread of this process; its address."""
    import uvicorn

    sock = open_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(chat, Gate(None, port)), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def served(college_db) -> Iterator[str]:
    yield from run_server(web_chat(college_db))


@pytest.fixture
def page(browser, tmp_path, request) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 860})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.errors = errors
    yield opened
    shot = tmp_path / f"{request.node.name}.png"
    opened.screenshot(path=str(shot))
    if os.environ.get("COURSE_SCREENSHOTS"):
        target = Path(os.environ["COURSE_SCREENSHOTS"])
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, target / shot.name)
    context.close()


def ask(page: Any, question: str) -> Any:
    """Type the question, press Enter, wait for its answer (or its error); the turn."""
    page.locator("#send:enabled").wait_for()     # the stored conversation is shown first
    before = page.locator(".turn").count()
    page.fill("#question", question)
    page.press("#question", "Enter")
    turn = page.locator(".turn").nth(before)
    turn.locator(".answer, .error").wait_for(timeout=30_000)
    page.locator("#send:enabled").wait_for()
    return turn


def test_a_question_streams_its_stages_and_lights_up_the_answer(page, served):
    page.goto(served)
    page.locator("#picture circle").first.wait_for()
    turn = ask(page, "Who is the best person to teach me DBMS?")
    stages = turn.locator(".stages li").all_text_contents()
    assert stages[0] == "Linked: Subject DBMS"
    assert any(s.startswith("Guard: allowed; ran read-only · 2 rows") for s in stages)
    assert "Payal" in turn.locator(".answer").text_content()
    assert "answered · Offline · 1 attempt · 2 model calls" in turn.locator(".footer").text_content()
    assert page.locator('#picture g.node.lit[data-name="Payal"]').count() == 1
    assert page.locator('#picture g.node.named[data-name="DBMS"]').count() == 1
    turn.locator("summary", has_text="Rows").click()
    assert turn.locator("td", has_text="A+").count() == 1
    assert not page.errors


# The first node each demo question's answer must light up (DESIGN.md's five answers).
FIRST_LIT = {1: "Payal", 2: "Payal", 3: "1NF", 4: "Indexing", 5: "Rahul"}


def test_the_five_questions_are_answered_with_the_graph_lit(page, served):
    from course.ui.demo import FIVE_QUESTIONS

    page.goto(served)
    for item in FIVE_QUESTIONS:
        turn = ask(page, item.question)
        assert "answered ·" in turn.locator(".footer").text_content(), item.question
        lit = page.locator("#picture g.node.lit")
        assert page.locator(f'#picture g.node.lit[data-name="{FIRST_LIT[item.number]}"]').count() == 1
        assert lit.count() >= 2, item.question
    assert not page.errors


class SlowLLM(OfflineLLM):
    """A mock provider: the offline one, slower by `delay_s` per call."""

    delay_s = 0.8

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        time.sleep(self.delay_s)
        return super().complete(prompt, system=system)


def test_the_stages_show_before_the_answer_is_written(page, college_db):
    sessions = Sessions(lambda session: ShortTermMemory(),
                        lambda memory: Agent(college_db, SlowLLM(), memory=memory))
    chat = Chat(sessions, GraphSource(college_db), {"agent": "pipeline", "provider": "slow"})
    for address in run_server(chat):
        page.goto(address)
        page.locator("#send:enabled").wait_for()
        page.fill("#question", "Who is Payal?")
        page.press("#question", "Enter")
        page.locator(".stages li", has_text="Guard: allowed").wait_for(timeout=10_000)
        assert page.locator(".answer").count() == 0          # the answer call is still running
        page.fill("#question", "Who is Rahul?")               # typed while it answers: kept
        page.press("#question", "Enter")
        assert page.locator(".turn").count() == 1
        page.locator(".answer").wait_for(timeout=10_000)
        assert page.input_value("#question") == "Who is Rahul?"


def test_a_follow_up_is_resolved_and_a_reload_keeps_the_conversation(page, served):
    page.goto(served)
    ask(page, "Who is Payal?")
    page.press("#question", "Shift+Enter")                 # a new line, not a question
    assert page.locator(".turn").count() == 1 and page.input_value("#question") == "\n"
    turn = ask(page, "uska year kya hai?")
    assert "2" in turn.locator(".answer").text_content()
    page.reload()
    page.locator(".turn").nth(1).wait_for()
    assert page.locator(".turn .question").all_text_contents() == ["Who is Payal?",
                                                                   "uska year kya hai?"]
    assert page.locator('#picture g.node.lit[data-name="Payal"]').count() == 1
    page.click("#new-chat")
    page.locator(".turn").first.wait_for(state="detached")
    turn = ask(page, "uska year kya hai?")
    assert "Payal" not in turn.locator(".answer").text_content()


class SlowFirstPicture(GraphSource):
    """A mock picture source: the page's first picture (nothing lit) takes 1.5 s to draw."""

    def view(self, lit: Any, named: Any) -> dict[str, Any]:
        if not lit and not named:
            time.sleep(1.5)
        return super().view(lit, named)


def test_a_question_asked_while_the_page_loads_is_not_overwritten(page, college_db):
    sessions = Sessions(lambda session: ShortTermMemory(),
                        lambda memory: Agent(college_db, OfflineLLM(), memory=memory))
    chat = Chat(sessions, SlowFirstPicture(college_db), {"agent": "pipeline", "provider": "offline"})
    for address in run_server(chat):
        page.goto(address)
        page.fill("#question", "Who is Payal?")
        page.press("#question", "Enter")            # before the conversation has loaded
        page.locator("#send:enabled").wait_for()
        page.wait_for_timeout(2_000)
        if page.locator(".turn").count() == 0:      # kept in the box until the page was ready
            assert page.input_value("#question") == "Who is Payal?"
            page.press("#question", "Enter")
            page.locator(".answer").wait_for()
            page.locator("#send:enabled").wait_for()
        assert page.locator('#picture g.node.lit[data-name="Payal"]').count() == 1


def test_a_hostile_note_shows_as_text(page, college_db):
    college_db.query("MATCH (n:Note {id: 'N05'}) SET n.text = $text, n.id = $id",
                     {"text": HOSTILE + " BCNF is stricter than 3NF.",
                      "id": '<img src=x onerror="window.__pwned = 3">'})
    for address in run_server(web_chat(college_db)):
        page.goto(address)
        turn = ask(page, "Which note explains BCNF?")
        assert "<script>window.__pwned = 1</script>" in turn.locator(".answer").text_content()
        turn.locator("summary", has_text="Rows").click()
        assert turn.locator("td", has_text="<img src=x").count() == 2   # the id and the text
        assert page.locator("#picture text", has_text='<img src=x onerror').count() == 1
        assert page.locator("#log script, #log img, #picture img, #picture script").count() == 0
        assert page.evaluate("() => window.__pwned") is None
        assert not page.errors


def test_a_question_over_the_limit_gets_the_sentence(page, served):
    page.goto(served)
    turn = ask(page, "Who is Payal? " * 150)
    assert "the limit is 2,000. Ask one short question at a time." in \
        turn.locator(".error").text_content()


OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('#picture g.node text')].map((t) => {
    const b = t.getBoundingClientRect();
    return { name: t.textContent, left: b.left, top: b.top, right: b.right, bottom: b.bottom };
  });
  const pairs = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      pairs.push([a.name, b.name]);
  }));
  return { shown: boxes.map((b) => b.name), pairs };
}"""


def test_the_whole_graphs_labels_do_not_overlap(page, served):
    page.goto(served)
    page.locator("#picture g.node").nth(74).wait_for()       # all 75 nodes: nothing asked yet
    found = page.evaluate(OVERLAPS)
    assert found["pairs"] == []
    assert len(found["shown"]) >= 40        # of 50 named nodes (the notes' names are on hover)
    turn = ask(page, "1NF se BCNF tak ka learning path batao")
    assert "answered ·" in turn.locator(".footer").text_content()
    found = page.evaluate(OVERLAPS)
    assert found["pairs"] == [] and {"1NF", "2NF", "3NF", "BCNF"} <= set(found["shown"])
    assert not page.errors
