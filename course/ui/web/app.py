"""The web app's routes (Starlette): the page, a question's stages as they happen, the memory.

`GET /` the page (and the session cookie); `/static/...` its script and style; `POST /api/ask`
streams a question's stages as server-sent events, with a keep-alive comment whenever nothing
else was sent for `keepalive_s`, so a proxy does not cut a slow answer; `GET /api/history` the
stored conversation (a reload resumes it) and its picture; `POST /api/new` a new chat.
Each question runs in a worker thread; the agent's observer hands its stages to the stream.

>>> sorted(route.path for route in create_app(None, None).routes)   # doctest: +NORMALIZE_WHITESPACE
['/', '/api/ask', '/api/history', '/api/new', '/static']
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from course.foundation.errors import CourseError, InvalidInput
from course.foundation.versioning import one_version
from course.llm.errors import configured_secrets
from course.pipeline.questions import check_question
from course.pipeline.results import json_line
from course.ui.viz import text_values
from course.ui.web.access import Gate, GateMiddleware, page_text
from course.ui.web.picture import GraphSource
from course.ui.web.sessions import BrowserSession, Sessions, new_session_id, valid_session_id
from course.ui.web.stages import answer_event, error_event, stage_event

STATIC = Path(__file__).parent / "static"
SESSION_COOKIE = "course_session"
KEEPALIVE_S = 15.0
MAX_BODY = 64_000            # bytes of a question's request; the question's own limit is 2,000
WORKERS = 32                 # questions answered at once (each in a thread)
PICTURES_SENT = 256          # pictures kept written out
BUSY = "This chat is still answering its last question: wait for its answer, then ask again."
UNEXPECTED = ("Something unexpected went wrong on the server (its console has the details). "
              "Ask again, or start a New chat.")
log = logging.getLogger("course.serve")
Tell = Callable[[dict[str, Any] | None], None]


class EventStream(StreamingResponse):
    """Server-sent events written as they come, with no listener for the browser leaving.

    Starlette runs a stream beside such a listener, in a task group of their own, per request
    (a tenth of the server's time in a room). Here the answer is worked out to its end whether
    the browser stays or not (its turn is saved), and the writes to a browser gone go nowhere
    (uvicorn drops them), so the stream is simply written.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.stream_response(send)


class PageFile:
    """The page's bytes, read again only when the file has changed (its time or size): every
    browser opens the page first, a room forty at once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._kept: tuple[tuple[int, int], bytes] | None = None

    def read(self) -> bytes:
        found = os.stat(self.path)
        stamp, kept = (found.st_mtime_ns, found.st_size), self._kept
        if kept is None or kept[0] != stamp:
            with open(self.path, "rb") as file:
                kept = self._kept = (stamp, file.read())
        return kept[1]


class Chat:
    """What the routes share: the sessions, the graph's pictures, the worker threads."""

    def __init__(self, sessions: Sessions, pictures: GraphSource, about: dict[str, str],
                 keepalive_s: float = KEEPALIVE_S) -> None:
        self.sessions, self.pictures, self.about = sessions, pictures, about
        self.keepalive_s = keepalive_s
        self.workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="course-answer")
        self._pictures_sent: dict[int, tuple[dict[str, Any], tuple[str, ...], str]] = {}
        self._lock = threading.Lock()

    async def stream(self, session_id: str, question: str,
                     address: str | None = None) -> AsyncIterator[str]:
        """The question's events as server-sent events, as the worker thread reports them."""
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def tell(event: dict[str, Any] | None) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, event)

        done = loop.run_in_executor(self.workers, self.work, session_id, question, tell, address)
        ended = False
        while not ended:
            try:
                events = [await asyncio.wait_for(queue.get(), self.keepalive_s)]
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            while not queue.empty():        # what queued up meanwhile goes out in one piece
                events.append(queue.get_nowait())
            ended = None in events
            lines = [self._line(e) for e in events if e is not None]   # None: the last one
            if lines:
                yield "".join(lines)
        await done

    def _line(self, event: dict[str, Any]) -> str:
        """One server-sent event; a picture's is written out once (a room shares its pictures),
        and again when the configured keys it is cleaned of have changed."""
        view = event.get("view") if event.get("type") == "graph" else None
        if view is None:
            return f"data: {json_line(event)}\n\n"
        keys = configured_secrets()
        with self._lock:
            found = self._pictures_sent.get(id(view))
        if found is None or found[0] is not view or found[1] != keys:
            found = (view, keys, f"data: {json_line({'type': 'graph', **view})}\n\n")
            with self._lock:
                if len(self._pictures_sent) >= PICTURES_SENT:
                    self._pictures_sent.clear()
                self._pictures_sent[id(view)] = found
        return found[2]

    def work(self, session_id: str, question: str, tell: Tell, address: str | None = None) -> None:
        """In a worker thread: check the question and the limits, answer, tell every stage."""
        try:
            session = self.sessions.get(session_id)
            refusal = self._refusal(session, question) or self.sessions.address_wait(address)
            if refusal:
                tell(error_event(refusal))
            elif not session.busy.acquire(blocking=False):
                tell(error_event(BUSY))
            else:
                try:
                    self._answer(session, question, tell)
                finally:
                    session.busy.release()
        except CourseError as exc:      # no provider, the database stopped: its own sentence
            tell(error_event(str(exc)))
        except Exception:               # noqa: BLE001 - a bug must not end the server
            log.exception("answering %r", question[:200])
            tell(error_event(UNEXPECTED))
        finally:
            tell(None)

    @staticmethod
    def _refusal(session: BrowserSession, question: str) -> str | None:
        """Why the question is not passed on (too long, empty, too many), else None."""
        try:
            check_question(question)
        except InvalidInput as exc:     # the command line's own sentence
            return str(exc)
        wait = session.limit.wait()
        return session.limit.message(wait) if wait else None

    def _answer(self, session: BrowserSession, question: str, tell: Tell) -> None:
        with one_version():   # the graph's version read once: for the agent, its answer, the picture
            self._answer_in_one_version(session, question, tell)

    def _answer_in_one_version(self, session: BrowserSession, question: str, tell: Tell) -> None:
        agent = session.agent

        def observe(what: str, record: Any) -> None:
            event = stage_event(what, record)
            if event is not None:
                tell(event)

        agent.on_step = observe
        try:
            result = agent.answer(question)
        finally:
            agent.on_step = None
        tell(answer_event(result))
        lit = text_values(result.rows) if result.status == "answered" else []
        session.last_view = self.pictures.view(lit, [m.value for m in result.mentions])
        tell({"type": "graph", "view": session.last_view})     # written out by `_line`

    def history(self, session_id: str) -> dict[str, Any]:
        """The session's stored turns and the picture of its last answer."""
        session = self.sessions.get(session_id)
        turns = [{"question": page_text(t.get("question"), limit=2_000),
                  "answer": page_text(t.get("answer"), limit=4_000),
                  "status": page_text(t.get("status"))} for t in session.history()]
        view = session.last_view
        if view is None:       # a reopened session: its last turn's names, else the whole graph
            about = session.history()[-1].get("about", []) if turns else []
            view = self.pictures.view([str(a).split(": ", 1)[-1] for a in about], [])
        return {"about": self.about, "turns": turns, "graph": view}


def _session_cookie(response: Response, session_id: str) -> Response:
    response.set_cookie(SESSION_COOKIE, session_id, httponly=True, samesite="strict", path="/",
                        max_age=30 * 24 * 3600)
    return response


async def _question(request: Request) -> str | None:
    """The question of a POST /api/ask body ({"question": "..."}); None when there is none."""
    body = await request.body()
    if len(body) > MAX_BODY:
        return "x" * (MAX_BODY + 1)     # refused by check_question with its length sentence
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    question = data.get("question") if isinstance(data, dict) else None
    return question if isinstance(question, str) else None


def create_app(chat: Chat | None, gate: Gate | None) -> Starlette:
    """The app: the routes over `chat`, behind `gate` (the host check or the token)."""

    def session_of(request: Request) -> str | None:
        found = request.cookies.get(SESSION_COOKIE)
        return found if valid_session_id(found) else None

    page_file = PageFile(STATIC / "index.html")

    async def page(request: Request) -> Response:
        response = Response(page_file.read(), media_type="text/html",
                            headers={"Cache-Control": "no-store"})
        return response if session_of(request) else _session_cookie(response, new_session_id())

    async def ask(request: Request) -> Response:
        session_id, question = session_of(request), await _question(request)
        if session_id is None or chat is None:
            return JSONResponse({"error": "Open the page first: this browser has no chat yet."},
                                status_code=400)
        if question is None:
            return JSONResponse({"error": 'Send {"question": "..."} as JSON.'}, status_code=400)
        address = request.client.host if request.client else None
        return EventStream(chat.stream(session_id, question, address), media_type="text/event-stream",
                           headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    def history(request: Request) -> Response:       # a plain function: Starlette runs it in a thread
        session_id = session_of(request)
        if session_id is None or chat is None:
            return JSONResponse({"error": "Open the page first: this browser has no chat yet."},
                                status_code=400)
        try:
            return JSONResponse(chat.history(session_id), headers={"Cache-Control": "no-store"})
        except CourseError as exc:    # the database stopped: its own sentence, no traceback
            return JSONResponse({"error": page_text(str(exc))}, status_code=503)

    async def new_chat(request: Request) -> Response:
        return _session_cookie(JSONResponse({"ok": True}), new_session_id())

    app = Starlette(routes=[
        Route("/", page), Route("/api/ask", ask, methods=["POST"]),
        Route("/api/history", history), Route("/api/new", new_chat, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    if gate is not None:
        app.add_middleware(GateMiddleware, gate=gate)
    return app
