"""A chat with the college graph for JupyterLab: ask, read the answer, see it lit up in the graph.

Introduced in notebook 08. Two parts, so the logic is testable without a browser:

- `ChatSession`: the conversation. `send(question)` asks the agent (with short-term memory,
  so "uska year?" follows "Who is Payal?") and returns the new messages: the question and
  the reply, with its Cypher, rows, provider and attempts. It never raises: an error is a
  message in the chat.
- `ChatWidget`: the ipywidgets layout around a session: the conversation (each answer's
  Cypher folded away in a <details>), a text box, Send and New chat buttons, a status line
  that says "thinking…" while the agent works (in a background thread, so the notebook
  stays responsive), and beside it the graph with the answer's nodes lit up (course.ui.viz).

>>> from course import Agent, ScriptedLLM
>>> chat = ChatSession(Agent(db, ScriptedLLM(["MATCH (s:Student) RETURN s.name", "Five."])))
>>> [m.role for m in chat.send("Who are the students?")]
['user', 'assistant']
"""
from __future__ import annotations

import html
import itertools
import os
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course.pipeline.results import Status, printable, rows_table
from course.ui.viz import GraphData, Picture, draw_graph, figures_dir, read_graph, text_values


def _esc(value: Any) -> str:
    """Text for the widget's HTML: `printable()` first (no escape codes, no keys), then escaped.

    >>> _esc("<b>Payal\\x1b]0;T\\x07</b>")
    '&lt;b&gt;Payal?]0;T?&lt;/b&gt;'
    """
    return html.escape(printable(value))

# Each chat draws into files of its own: chat-<kernel pid>-<chat>-<turn>.html, so two
# kernels (two notebooks open at once) never overwrite each other's pictures.
_CHATS = itertools.count(1)
ENTER_SETTLES_S = 0.5   # the longest a browser takes to send the text after an Enter


@dataclass
class Message:
    """One entry of the conversation: the learner's question, an answer, or an error."""

    role: str                         # "user" | "assistant" | "error"
    text: str
    cypher: str | None = None
    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    status: Status | None = None      # the agent's
    provider: str | None = None
    attempts: int = 0
    highlight: list[str] = field(default_factory=list)   # values of the answer's nodes
    mentioned: list[str] = field(default_factory=list)   # values the question named
    elapsed_ms: float = 0.0

    @classmethod
    def from_result(cls, result: Any) -> "Message":
        """The reply for an agent Result; a failed one is an error message."""
        answered = result.status == "answered"
        return cls(
            role="assistant" if result.status != "failed" else "error", text=result.answer or "",
            cypher=result.cypher, columns=list(result.columns), rows=[list(r) for r in result.rows],
            status=result.status, provider=result.provider, attempts=len(result.attempts),
            highlight=text_values(result.rows) if answered else [],
            mentioned=[m.value for m in result.mentions], elapsed_ms=result.elapsed_ms)

    def footer(self) -> str:
        """How the reply came about, with no time (it differs from run to run).

        >>> Message("assistant", "Payal.", provider="Offline", attempts=1, status="answered").footer()
        'Offline · 1 attempt · answered'
        """
        if self.role == "user":
            return ""
        tries = f"{self.attempts} attempt{'s' if self.attempts != 1 else ''}"
        return " · ".join(p for p in (self.provider or "no provider", tries, self.status) if p)

    def to_html(self) -> str:
        """This message as HTML; every value from the agent or the learner is escaped."""
        text = _esc(self.text)
        if self.role == "user":
            return f'<div style="margin:6px 0"><b>You:</b> {text}</div>'
        colour = "#b00020" if self.role == "error" else "#1a1a1a"
        parts = [f'<div style="margin:6px 0 10px 0;color:{colour}"><b>Graph:</b> {text}',
                 f'<div style="color:#666;font-size:11px">{_esc(self.footer())}</div>']
        if self.cypher:
            parts.append(f"<details><summary>Cypher and rows</summary>"
                         f"<pre style=\"white-space:pre-wrap\">{_esc(self.cypher)}</pre>"
                         f"{rows_table(self.columns, self.rows)}</details>")
        return "".join(parts) + "</div>"


class ChatSession:
    """A conversation with the agent: the messages so far, memory carried between questions."""

    def __init__(self, agent: Any):
        self.agent = agent
        self.messages: list[Message] = []

    @classmethod
    def start(cls, db: Any = None, *, llm: Any = None, memory: Any = None,
              agent: str = "pipeline", context_for: Any = None) -> "ChatSession":
        """A session on `db` (default: `course.connect()`) with short-term memory.

        `llm` defaults to the provider COURSE_LLM or your keys choose (offline without a key);
        `agent` is "pipeline" (notebook 05), "tools" (11) or "agentic" (12-14); `context_for`
        adds what a question brings to its prompt (notebook 15's `facts_context`).
        """
        from course.foundation.connection import connect
        from course.pipeline.memory import ShortTermMemory
        from course.planner.planner_tools import make_agent

        db = db if db is not None else connect()
        return cls(make_agent(agent, db, llm, context_for=context_for,
                              memory=memory if memory is not None else ShortTermMemory()))

    @property
    def agent_name(self) -> str:
        """Which agent answers, in words: "the agentic agent of notebooks 12-14"."""
        from course.planner.planner_tools import AGENTS, agent_kind

        return AGENTS[agent_kind(self.agent)]

    @property
    def provider(self) -> str:
        """Which provider answers, in one phrase (the offline one says so)."""
        from course.llm.registry import describe_llm

        return describe_llm(self.agent.llm)

    @property
    def provider_name(self) -> str:
        """Which provider answers, in a word or two: "the offline provider", "Groq-120b"."""
        from course.llm.offline import OfflineLLM

        llm = self.agent.llm
        return "the offline provider (rules, not an LLM)" if isinstance(llm, OfflineLLM) else llm.name

    def send(self, question: Any) -> list[Message]:
        """Ask one question; returns the new messages [question, reply]. Never raises."""
        asked = Message("user", question.strip() if isinstance(question, str) else repr(question))
        try:
            reply = Message.from_result(self.agent.answer(question))
        except Exception as exc:  # noqa: BLE001 - the chat shows every failure as a message
            reply = Message("error", f"Sorry, something went wrong: {type(exc).__name__}: {exc}",
                            status="failed")
        self.messages += [asked, reply]
        return [asked, reply]

    def reset(self) -> None:
        """Forget the conversation (and the agent's memory of it)."""
        self.messages.clear()
        clear = getattr(self.agent.memory, "clear", None)
        if callable(clear):
            clear()

    def last_reply(self) -> Message | None:
        replies = [m for m in self.messages if m.role != "user"]
        return replies[-1] if replies else None

    def transcript(self) -> str:
        """The conversation as plain text: what a notebook prints under the widget.

        >>> print(chat.transcript())                       # doctest: +SKIP
        You: Who is Payal?
        Graph: Payal is a second-year CSE student.  [Offline · 1 attempt · answered]
        """
        return "\n".join(f"You: {printable(m.text)}" if m.role == "user"
                         else f"Graph: {printable(m.text)}  [{printable(m.footer())}]"
                         for m in self.messages)

    def to_html(self) -> str:
        """The whole conversation as HTML, oldest first."""
        if not self.messages:
            return '<div style="color:#666">Ask a question below, e.g. "Who is Payal?"</div>'
        return "".join(m.to_html() for m in self.messages)


# A column laid out bottom-up starts scrolled to its end: the newest message stays in view.
_NEWEST_IN_VIEW = ('<div style="display:flex;flex-direction:column-reverse;max-height:420px;'
                   'overflow-y:auto"><div>{}</div></div>')


class ChatWidget:
    """The chat in JupyterLab: conversation and input on the left, the graph on the right.

    `background=True` answers in a thread, so the notebook stays responsive while an LLM
    call runs; the status line says "thinking…" and the Send button is disabled meanwhile.
    """

    def __init__(self, session: ChatSession, *, background: bool = True, name: str | None = None,
                 directory: str | os.PathLike[str] | None = None, graph_height: int = 460):
        import ipywidgets as w

        self.session, self.background = session, background
        self.name = name or f"chat-{os.getpid()}-{next(_CHATS)}"
        self.directory = Path(directory) if directory is not None else figures_dir()
        self.graph_height = graph_height
        self._lock, self._busy, self._turn = threading.Lock(), False, 0
        self._graph_data: GraphData | None = None
        self.picture: Picture | None = None
        self.conversation = w.HTML()
        # Only Enter or Send asks: leaving the box must not send half a question. The box
        # sends its text when Enter is pressed or the box loses focus, and Enter also sends
        # a "submit" event, which ipywidgets marks deprecated but is the only event that
        # means Enter (ipywidgets issue 2446). The browser sends that event *before* the
        # text, so Enter is remembered and answered when the text arrives.
        self.question = w.Text(placeholder='Ask about the college, e.g. "Who is Payal?"',
                               continuous_update=False, layout=w.Layout(flex="1 1 auto"))
        self._enter_pressed = False
        self.send_button = w.Button(description="Send", button_style="primary")
        self.new_button = w.Button(description="New chat")
        self.status = w.HTML()
        self.graph = w.Output(layout=w.Layout(width="56%", border="1px solid #ddd"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.question.on_submit(self._on_enter)
        self.question.observe(self._on_text, names="value")
        self.send_button.on_click(lambda _: self.ask(self.question.value))
        self.new_button.on_click(lambda _: self.new_chat())
        self.title = w.HTML(f"<b>Ask the college graph</b> <small>· {_esc(session.agent_name)} · "
                            f"answers from {_esc(session.provider_name)}</small>")
        left = w.VBox([self.title, self.conversation,
                       w.HBox([self.question, self.send_button, self.new_button]), self.status],
                      layout=w.Layout(width="44%", padding="0 8px 0 0"))
        self.box = w.HBox([left, self.graph])
        self._refresh("Ready.")
        self._draw(None)

    # --- what the learner does ------------------------------------------------------------

    def ask(self, question: str, *, wait: bool | None = None) -> threading.Thread | None:
        """Send a question; returns the worker thread when answering in the background."""
        if not isinstance(question, str) or not question.strip():
            self._set_status("Type a question first.")
            return None
        with self._lock:
            if self._busy:
                self._set_status("Still thinking about the last question…")
                return None
            self._busy = True
        self.question.value = ""
        self._set_busy(True)
        self._refresh(f"thinking… ({question.strip()[:60]})", pending=question)
        if self.background if wait is None else not wait:
            worker = threading.Thread(target=self._work, args=(question,), daemon=True)
            worker.start()
            return worker
        self._work(question)
        return None

    def new_chat(self) -> None:
        """Forget the conversation and show the whole graph again."""
        if self._busy:
            self._set_status("Wait for the answer before starting a new chat.")
            return
        self.session.reset()
        self._refresh("New chat: memory cleared.")
        self._draw(None)

    # --- inside ---------------------------------------------------------------------------

    def _on_enter(self, _box: Any) -> None:
        """Enter: ask when the text arrives, or after a moment if it is the same as before."""
        self._enter_pressed = True
        threading.Timer(ENTER_SETTLES_S, self._ask_after_enter).start()

    def _on_text(self, change: dict[str, Any]) -> None:
        """The box's text arrived (Enter or leaving the box): ask only after an Enter."""
        if self._enter_pressed and change.get("new"):
            self._ask_after_enter()

    def _ask_after_enter(self) -> None:
        with self._lock:
            if not self._enter_pressed:
                return
            self._enter_pressed = False
        self.ask(self.question.value)

    def _work(self, question: str) -> None:
        try:
            self.session.send(question)      # never raises
            reply = self.session.last_reply()
            failed = reply is not None and reply.role == "error"
            status = "The last question failed; see the message." if failed else "Ready."
            try:
                self._draw(reply)
            except Exception as exc:  # noqa: BLE001 - a picture problem must not break the chat
                status = f"The answer is above; the graph could not be drawn ({exc})."
        finally:
            self._busy = False
            self._set_busy(False)
        self._refresh(status)

    def _set_busy(self, busy: bool) -> None:
        self.send_button.disabled = busy
        self.new_button.disabled = busy
        self.send_button.description = "…" if busy else "Send"

    def _set_status(self, text: str) -> None:
        self.status.value = f'<span style="color:#555">{_esc(text)}</span>'

    def _refresh(self, status: str, *, pending: str | None = None) -> None:
        waiting = (f'<div style="margin:6px 0"><b>You:</b> {_esc(pending.strip())}</div>'
                   '<div style="color:#888"><i>thinking…</i></div>') if pending else ""
        self.conversation.value = _NEWEST_IN_VIEW.format(self.session.to_html() + waiting)
        self._set_status(status)

    def _draw(self, reply: Message | None) -> None:
        """Draw the graph (the reply's nodes lit up) into a new file and show it on the right."""
        if self._graph_data is None:
            self._graph_data = read_graph(self.session.agent.db)
        previous = self.picture
        self.picture = draw_graph(
            graph=self._graph_data, highlight=reply.highlight if reply else (),
            mentioned=reply.mentioned if reply else (), name=f"{self.name}-{self._turn}",
            directory=self.directory, height=self.graph_height)
        self._turn += 1  # a new file each time, so the browser never shows a cached one
        self.graph.outputs = ({"output_type": "display_data", "metadata": {},
                               "data": {"text/html": self.picture._repr_html_(),
                                        "text/plain": self.picture.summary()}},)
        if previous is not None and previous.path != self.picture.path:
            previous.path.unlink(missing_ok=True)

    # --- display --------------------------------------------------------------------------

    def summary(self) -> str:
        asked = sum(m.role == "user" for m in self.session.messages)
        return (f"Chat with the college graph: {asked} question{'s' if asked != 1 else ''} "
                f"asked; {self.session.agent_name} answers, with {self.session.provider}.")

    def __repr__(self) -> str:
        return f"<ChatWidget: {self.summary()}>"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The widget view for JupyterLab, and a text for everything else (nbval, a saved
        notebook whose kernel has stopped)."""
        bundle = self.box._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = (f"{self.summary()} The chat is live only while its kernel runs: "
                                "after a restart (or in a saved copy), run this cell again.")
        return bundle


def open_chat(db: Any = None, *, llm: Any = None, agent: str = "pipeline",
              background: bool = True, context_for: Any = None) -> ChatWidget:
    """The chat, ready to show: `open_chat(db)` as the last line of a notebook cell;
    `agent="agentic"` chats with notebook 12-14's agent, `"tools"` with notebook 11's;
    `context_for=facts_context` shows it the verified facts of notebook 15's documents."""
    return ChatWidget(ChatSession.start(db, llm=llm, agent=agent, context_for=context_for),
                      background=background)
