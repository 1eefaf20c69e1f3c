"""The chat without a browser: send, answer, memory, errors, and the widget's own flow."""
from __future__ import annotations

import threading
import time

import pytest

from course.llm.base import LLM, Completion, Usage
from course.llm.errors import Unavailable
from course.llm.scripted import ScriptedLLM
from course.pipeline.agent import Agent
from course.pipeline.memory import ShortTermMemory
from course.pipeline.results import rows_table
from course.ui.widgets import ENTER_SETTLES_S, ChatSession, ChatWidget, Message

WHO_IS_PAYAL = "MATCH (s:Student {name: 'Payal'}) RETURN s.name AS name, s.year AS year, s.branch AS branch"
PAYAL_YEAR = "MATCH (s:Student {name: 'Payal'}) RETURN s.year AS year"


def session(db, outputs) -> ChatSession:
    return ChatSession(Agent(db, ScriptedLLM(outputs), memory=ShortTermMemory()))


def test_send_returns_the_question_and_the_reply_with_its_cypher(college_db):
    chat = session(college_db, [WHO_IS_PAYAL, "Payal is a second-year CSE student."])
    asked, reply = chat.send("Who is Payal?")
    assert (asked.role, asked.text) == ("user", "Who is Payal?")
    assert (reply.role, reply.text) == ("assistant", "Payal is a second-year CSE student.")
    assert reply.cypher == WHO_IS_PAYAL and reply.rows == [["Payal", 2, "CSE"]]
    assert (reply.provider, reply.attempts, reply.status) == ("Scripted", 1, "answered")
    assert reply.highlight == ["Payal", "CSE"] and reply.mentioned == ["Payal"]
    assert chat.messages == [asked, reply] and chat.last_reply() is reply


def test_the_conversation_is_remembered_between_questions(college_db):
    llm = ScriptedLLM([WHO_IS_PAYAL, "Payal is a second-year CSE student.", PAYAL_YEAR, "Year 2."])
    chat = ChatSession(Agent(college_db, llm, memory=ShortTermMemory()))
    chat.send("Who is Payal?")
    chat.send("uska year kya hai?")
    follow_up = llm.prompts[2]
    assert "CONVERSATION SO FAR:" in follow_up and "Who is Payal?" in follow_up
    assert "Payal" in follow_up.split("RECENTLY MENTIONED")[1]
    chat.reset()
    assert chat.messages == [] and chat.agent.memory.context() == ""


def test_the_reply_html_folds_the_cypher_away_and_escapes_everything(college_db):
    chat = session(college_db, [WHO_IS_PAYAL, "<script>alert('x')</script> Payal"])
    chat.send("Who is <b>Payal</b>?")
    page = chat.to_html()
    assert "<details><summary>Cypher and rows</summary>" in page
    assert "MATCH (s:Student {name: &#x27;Payal&#x27;})" in page
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<b>Payal</b>" not in page and "&lt;b&gt;Payal&lt;/b&gt;" in page
    assert "Scripted · 1 attempt · answered" in page


def test_a_provider_that_is_down_becomes_an_error_message(college_db):
    chat = session(college_db, [Unavailable("the service is down"), Unavailable("the service is down")])
    _, reply = chat.send("Who is Payal?")
    assert reply.role == "error" and reply.status == "failed"
    assert reply.text.startswith("Sorry, I couldn't answer that.") and "down" in reply.text
    assert "Traceback" not in chat.to_html() and "#b00020" in chat.to_html()


def test_an_empty_question_is_an_error_message_not_an_exception(college_db):
    chat = session(college_db, [])
    _, reply = chat.send("   ")
    assert reply.role == "error" and "empty" in reply.text


def test_an_unexpected_failure_is_still_a_message(college_db):
    class Broken:
        memory, db = None, college_db

        def answer(self, question):
            raise RuntimeError("disk full")

    _, reply = ChatSession(Broken()).send("Who is Payal?")
    assert reply.role == "error" and "RuntimeError: disk full" in reply.text


def test_rows_table_caps_and_escapes():
    table = rows_table(["n"], [[f"<{i}>"] for i in range(25)], limit=3)
    assert table.count("<tr>") == 5 and "&lt;0&gt;" in table and "… 22 more" in table
    assert rows_table([], []) == ""


def test_message_footer_has_no_time():
    assert Message("assistant", "x", provider="Offline", attempts=2, status="answered",
                   elapsed_ms=123.4).footer() == "Offline · 2 attempts · answered"


# --- the widget -------------------------------------------------------------------------

@pytest.fixture
def widget(college_db, tmp_path):
    def make(outputs, **options):
        return ChatWidget(session(college_db, outputs), directory=str(tmp_path / "figures"),
                          name="chat", **options)
    return make


@pytest.mark.slow   # half a second or more
def test_the_widget_answers_and_lights_up_the_answer(widget, tmp_path):
    chat = widget([WHO_IS_PAYAL, "Payal is a second-year CSE student."], background=False)
    assert chat.picture.nodes == 75 and "Ask a question" in chat.conversation.value
    _enter(chat, "Who is Payal?")                  # Enter in the text box
    assert chat.question.value == ""
    assert "Payal is a second-year CSE student." in chat.conversation.value
    assert chat.picture.highlighted == ["Payal"] and chat.picture.nodes < 75
    shown = chat.graph.outputs[0]["data"]
    assert "<iframe" in shown["text/html"] and 'src="figures/chat-' in shown["text/html"]
    assert str(tmp_path) not in shown["text/html"] + shown["text/plain"]
    assert len(list((tmp_path / "figures").iterdir())) == 1     # the previous picture removed
    assert chat.status.value.endswith("Ready.</span>") and not chat.send_button.disabled


@pytest.mark.slow   # half a second or more
def test_the_send_button_and_new_chat(widget):
    chat = widget([WHO_IS_PAYAL, "Payal."], background=False)
    chat.question.value = ""
    chat.send_button.click()
    assert "Type a question first." in chat.status.value and chat.session.messages == []
    chat.ask("Who is Payal?")
    assert len(chat.session.messages) == 2
    chat.new_button.click()
    assert chat.session.messages == [] and chat.picture.highlighted == []
    assert "memory cleared" in chat.status.value


class SlowLLM(LLM):
    """Answers only when released: a long LLM call."""

    name, model = "Slow", "slow"

    def __init__(self):
        self.release, self.started = threading.Event(), threading.Event()

    def complete(self, prompt, *, system=None):
        self.started.set()
        self.release.wait(10)
        text = "Payal." if "\nROWS (" in prompt else WHO_IS_PAYAL   # the answer call
        return Completion(text, self.name, self.model, Usage(None, None, 0.0))


@pytest.mark.slow   # half a second or more
def test_a_long_call_shows_thinking_and_the_notebook_stays_responsive(college_db, tmp_path):
    llm = SlowLLM()
    chat = ChatWidget(ChatSession(Agent(college_db, llm, memory=ShortTermMemory())),
                      directory=str(tmp_path))
    worker = chat.ask("Who is Payal?")
    assert worker is not None and llm.started.wait(5)   # ask() returned while the LLM works
    assert "thinking…" in chat.status.value and chat.send_button.disabled
    assert "<i>thinking…</i>" in chat.conversation.value
    assert chat.ask("And Rahul?") is None and "Still thinking" in chat.status.value
    llm.release.set()
    worker.join(10)
    assert not worker.is_alive() and not chat.send_button.disabled
    assert "Payal." in chat.conversation.value and "thinking" not in chat.conversation.value
    assert len(chat.session.messages) == 2


@pytest.mark.slow   # half a second or more
def test_the_widget_shows_errors_as_messages(widget):
    chat = widget([Unavailable("down"), Unavailable("down")], background=False)
    chat.ask("Who is Payal?")
    assert "Sorry, I couldn&#x27;t answer that." in chat.conversation.value
    assert "failed" in chat.status.value and not chat.send_button.disabled
    assert chat.picture.highlighted == [] and chat.picture.mentioned == ["Payal"]


@pytest.mark.slow   # half a second or more
def test_the_widget_displays_as_a_widget_with_a_plain_summary(widget):
    chat = widget([WHO_IS_PAYAL, "Payal."], background=False)
    bundle = chat._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("Chat with the college graph: 0 questions asked; the "
                                           "pipeline of notebook 05 answers, with Scripted (scripted).")


@pytest.mark.slow   # half a second or more
def test_the_chat_on_the_offline_provider(college_db, tmp_path):
    from course.llm.offline import OfflineLLM

    chat = ChatWidget(ChatSession.start(college_db, llm=OfflineLLM()), background=False,
                      directory=str(tmp_path))
    chat.ask("Who should I learn ML from?")
    reply = chat.session.last_reply()
    assert reply.role == "assistant" and reply.provider == "Offline"
    assert [v for v in reply.highlight if v in ("Rahul", "Karan")] == ["Rahul", "Karan"]
    assert chat.picture.highlighted[:2] == ["Rahul", "Karan"]
    assert "offline provider" in chat.summary()


def test_the_transcript_is_plain_text(college_db):
    chat = session(college_db, [WHO_IS_PAYAL, "Payal is a second-year CSE student."])
    chat.send("Who is Payal?")
    assert chat.transcript() == ("You: Who is Payal?\n"
                                 "Graph: Payal is a second-year CSE student.  [Scripted · 1 attempt · answered]")


@pytest.mark.slow
def test_two_chats_draw_into_their_own_files(college_db, tmp_path):
    first = ChatWidget(session(college_db, []), directory=str(tmp_path), background=False)
    second = ChatWidget(session(college_db, []), directory=str(tmp_path), background=False)
    assert first.picture.path != second.picture.path
    assert first.picture.path.is_file() and second.picture.path.is_file()


# --- what sends, and what does not (issue: the chat sent on blur) ------------------------

def _enter(chat, text: str | None = None) -> None:
    """What the browser sends when the learner presses Enter: the submit event, then the text."""
    chat.question._handle_custom_msg({"event": "submit"}, [])
    if text is not None:
        chat.question.value = text


@pytest.mark.slow   # half a second or more
def test_typing_and_leaving_the_box_sends_nothing(widget):
    chat = widget([WHO_IS_PAYAL, "Payal."], background=False)
    chat.question.value = "Who is Aar"           # typed, then the box lost focus
    assert chat.session.messages == [] and chat.question.value == "Who is Aar"


@pytest.mark.slow  # waits out the Enter timer on the real clock
def test_enter_sends_the_text_once(widget):
    chat = widget([WHO_IS_PAYAL, "Payal."], background=False)
    _enter(chat, "Who is Payal?")
    assert [m.text for m in chat.session.messages] == ["Who is Payal?", "Payal."]
    assert chat.question.value == ""
    time.sleep(ENTER_SETTLES_S + 0.3)               # the fallback timer finds nothing to send
    assert len(chat.session.messages) == 2


@pytest.mark.slow  # waits out the Enter timer on the real clock
def test_enter_on_text_already_sent_sends_it_after_a_moment(widget):
    chat = widget([WHO_IS_PAYAL, "Payal."], background=False)
    chat.question.value = "Who is Payal?"           # the box lost focus earlier: text known
    _enter(chat)                                    # Enter: no new text follows
    assert chat.session.messages == []
    time.sleep(ENTER_SETTLES_S + 0.5)
    assert [m.text for m in chat.session.messages] == ["Who is Payal?", "Payal."]


@pytest.mark.slow   # half a second or more
def test_typing_then_clicking_send_sends_the_text(widget):
    chat = widget([WHO_IS_PAYAL, "Payal."], background=False)
    chat.question.value = "Who is Payal?"        # the blur that comes with the click
    chat.send_button.click()
    assert [m.text for m in chat.session.messages][:1] == ["Who is Payal?"]
    assert "Type a question first." not in chat.status.value


@pytest.mark.slow   # half a second or more
def test_the_conversation_keeps_the_newest_answer_in_view(widget):
    chat = widget([WHO_IS_PAYAL, "Payal."], background=False)
    chat.ask("Who is Payal?")
    # A column laid out bottom-up keeps its scroll position at the newest message.
    assert "flex-direction:column-reverse" in chat.conversation.value.replace(" ", "")


@pytest.mark.slow   # half a second or more
def test_two_kernels_draw_into_different_files(college_db, tmp_path, monkeypatch):
    import course.ui.widgets as widgets

    first = ChatWidget(session(college_db, []), directory=str(tmp_path), background=False)
    monkeypatch.setattr(widgets.os, "getpid", lambda: 424242)   # another kernel's process
    second = ChatWidget(session(college_db, []), directory=str(tmp_path), background=False)
    assert first.picture.path.name != second.picture.path.name
    assert "424242" in second.picture.path.name


@pytest.mark.slow   # half a second or more
def test_pictures_go_to_one_ignored_place_whatever_the_working_directory(college_db, tmp_path):
    from course.foundation.config import PROJECT_ROOT
    from course.ui.viz import figures_dir

    chat = ChatWidget(session(college_db, []), background=False)   # cwd: an empty temp folder
    assert not (tmp_path / "figures").exists()
    assert chat.picture.path.parent == figures_dir()
    assert figures_dir() == PROJECT_ROOT / "notebooks" / "figures"
    chat.picture.path.unlink()


@pytest.mark.slow   # half a second or more
def test_the_title_has_no_nested_parentheses(college_db):
    from course.llm.offline import OfflineLLM

    chat = ChatWidget(ChatSession.start(college_db, llm=OfflineLLM()), background=False)
    title = chat.title.value
    assert title.count("(") <= 1 and "offline" in title.lower()
    chat.picture.path.unlink()


@pytest.mark.slow   # half a second or more
def test_a_dead_widget_says_what_to_do(widget):
    chat = widget([], background=False)
    assert "run this cell again" in chat._repr_mimebundle_()["text/plain"]
