"""A small HTTP server on 127.0.0.1 that speaks three LLM APIs, for the tests of course.llm.

It answers Groq's `/openai/v1/chat/completions`, the OpenAI-style `/v1/chat/completions`
(Mistral, OpenRouter, Ollama) and Gemini's `/v1beta/models/{model}:generateContent`,
including each API's function calling (`chat_tool_calls`, `groq_tool_use_failed`,
`gemini_function_calls`) for the tool loop of notebook 11.
Each API has its own queue of scripted replies, so one test can make Gemini hit its
rate limit while Groq answers. The real SDK clients are pointed at it through their
endpoint variables (GROQ_BASE_URL, GOOGLE_GEMINI_BASE_URL, MISTRAL_BASE_URL ...).

>>> with FakeLLMServer() as server:
...     server.script("groq", chat_answer("MATCH (s:Student) RETURN s.name"))
...     # GROQ_BASE_URL=server.url -> GroqLLM().complete("...") gets that text
"""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

APIS = ("groq", "openai", "gemini")

# A distinctive key: the tests check it never appears in anything shown.
FAKE_KEY = "gsk_FAKE_KEY_DO_NOT_LEAK_1234"
KEY_VARIABLES = ("GEMINI_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY")
# Settings of course.llm beyond the ones tests/conftest.py already clears.
LLM_SETTINGS = ("GEMINI_MODEL", "GROQ_MODEL", "GROQ_SMALL_MODEL", "MISTRAL_MODEL",
                "OPENROUTER_MODEL", "OLLAMA_MODEL", "COURSE_LLM_TIMEOUT", "COURSE_LLM",
                "GROQ_BASE_URL", "GOOGLE_GEMINI_BASE_URL", "MISTRAL_BASE_URL",
                "OPENROUTER_BASE_URL", "OLLAMA_HOST", "GOOGLE_GENAI_USE_VERTEXAI",
                "GOOGLE_API_KEY", "GROQ_CUSTOM_HEADERS") + KEY_VARIABLES


@dataclass
class Reply:
    """One scripted HTTP reply: a status, a body (dict -> JSON), headers, a delay in seconds."""

    status: int = 200
    body: dict[str, Any] | str | bytes = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0

    def encoded(self) -> tuple[bytes, str]:
        """The body as bytes and its content type."""
        if isinstance(self.body, dict):
            return json.dumps(self.body).encode(), "application/json"
        data = self.body.encode() if isinstance(self.body, str) else self.body
        return data, self.headers.get("Content-Type", "text/html; charset=utf-8")


@dataclass
class Received:
    """A request the server received: which API, its path, headers and JSON body."""

    api: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def api_of(path: str) -> str | None:
    """Which API a request path belongs to.

    >>> api_of("/openai/v1/chat/completions"), api_of("/v1beta/models/gemini-2.5-flash:generateContent")
    ('groq', 'gemini')
    """
    path = path.split("?", 1)[0]
    if path.endswith("/openai/v1/chat/completions"):
        return "groq"
    if path.endswith("/chat/completions"):
        return "openai"
    if path.endswith(":generateContent"):
        return "gemini"
    return None


class FakeLLMServer:
    """A threaded loopback server; use as a context manager, script replies per API."""

    def __init__(self) -> None:
        self.queues: dict[str, deque[Reply]] = {api: deque() for api in APIS}
        self.received: list[Received] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL, e.g. http://127.0.0.1:54321."""
        assert self._httpd is not None, "start the server first"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def script(self, api: str, *replies: Reply) -> None:
        """Queue replies for one API ('groq', 'openai' or 'gemini'), answered in order."""
        if api not in self.queues:
            raise ValueError(f"unknown API {api!r}: use one of {APIS}")
        with self._lock:
            self.queues[api].extend(replies)

    def calls(self, api: str) -> list[Received]:
        """The requests one API received, in order."""
        return [r for r in self.received if r.api == api]

    def next_reply(self, received: Received) -> Reply:
        with self._lock:
            self.received.append(received)
            queue = self.queues[received.api]
            if queue:
                return queue.popleft()
        message = f"fake server: no scripted reply left for {received.api}"
        return Reply(status=500, body={"error": {"message": message, "code": 500}})

    def start(self) -> FakeLLMServer:
        server = self
        handler = type("Handler", (_Handler,), {"server_state": server})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02},
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Handler(BaseHTTPRequestHandler):
    server_state: FakeLLMServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def do_POST(self) -> None:
        api = api_of(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if api is None:
            self._send(Reply(status=404, body={"error": {"message": f"no route {self.path}"}}))
            return
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"unparsed": raw.decode(errors="replace")}
        received = Received(api, self.path, dict(self.headers.items()), body)
        reply = self.server_state.next_reply(received)
        if reply.delay:
            time.sleep(reply.delay)
        self._send(reply)

    def _send(self, reply: Reply) -> None:
        data, content_type = reply.encoded()
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in reply.headers.items():
                if name.lower() != "content-type":
                    self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up first (a timeout test)


# --- pytest fixtures (import them into a test module to use them) -------------------


@pytest.fixture
def llm_settings_cleared(monkeypatch: pytest.MonkeyPatch) -> None:
    """No LLM key, model, endpoint or timeout from the developer's environment."""
    for name in LLM_SETTINGS:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def fake_server(monkeypatch: pytest.MonkeyPatch, llm_settings_cleared: None):
    """A running FakeLLMServer; every provider's endpoint variable points at it, keys are fake."""
    with FakeLLMServer() as server:
        monkeypatch.setenv("GROQ_BASE_URL", server.url)
        monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", server.url)
        monkeypatch.setenv("MISTRAL_BASE_URL", server.url + "/v1")
        monkeypatch.setenv("OPENROUTER_BASE_URL", server.url + "/v1")
        monkeypatch.setenv("OLLAMA_HOST", server.url)
        for name in KEY_VARIABLES:
            monkeypatch.setenv(name, FAKE_KEY)
        yield server


# --- replies in each API's own shape -------------------------------------------------


def chat_answer(
    text: str | None,
    *,
    reasoning: str | None = None,
    prompt_tokens: int = 120,
    completion_tokens: int = 14,
    finish_reason: str = "stop",
    model: str = "fake-model",
) -> Reply:
    """A chat-completions answer (Groq and OpenAI style), with usage and optional reasoning."""
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if reasoning is not None:
        message["reasoning"] = reasoning
    return Reply(body={
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1700000000,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    })


def chat_rate_limited(*, retry_after: str | None = None, message: str | None = None) -> Reply:
    """Groq's 429, worded as the course text quotes it; `retry_after` becomes a header."""
    message = message or (
        "Rate limit reached for model `openai/gpt-oss-120b` in organization `org_fake` "
        "service tier `on_demand` on tokens per day (TPD): Limit 200000, Used 198126, "
        "Requested 2838. Please try again in 6m56s."
    )
    headers = {"retry-after": retry_after} if retry_after is not None else {}
    body = {"error": {"message": message, "type": "tokens", "code": "rate_limit_exceeded"}}
    return Reply(status=429, body=body, headers=headers)


def gemini_answer(
    text: str | None,
    *,
    thought: str | None = None,
    prompt_tokens: int = 130,
    output_tokens: int = 16,
    thought_tokens: int | None = None,
    finish_reason: str = "STOP",
) -> Reply:
    """A generateContent answer; `thought` adds a thought part before the answer."""
    parts: list[dict[str, Any]] = []
    if thought is not None:
        parts.append({"text": thought, "thought": True})
    if text is not None:
        parts.append({"text": text})
    usage: dict[str, Any] = {"promptTokenCount": prompt_tokens,
                             "candidatesTokenCount": output_tokens,
                             "totalTokenCount": prompt_tokens + output_tokens}
    if thought_tokens is not None:
        usage["thoughtsTokenCount"] = thought_tokens
    return Reply(body={
        "candidates": [{"content": {"role": "model", "parts": parts},
                        "finishReason": finish_reason, "index": 0}],
        "usageMetadata": usage,
        "modelVersion": "gemini-2.5-flash",
    })


def gemini_rate_limited(*, retry_delay: str | None = "46s") -> Reply:
    """Gemini's 429 RESOURCE_EXHAUSTED, with a RetryInfo detail when `retry_delay` is given."""
    details: list[dict[str, Any]] = []
    message = "You exceeded your current quota, please check your plan and billing details."
    if retry_delay is not None:
        details.append({"@type": "type.googleapis.com/google.rpc.RetryInfo",
                        "retryDelay": retry_delay})
        message += f" Please retry in {retry_delay}."
    body = {"error": {"code": 429, "message": message, "status": "RESOURCE_EXHAUSTED",
                      "details": details}}
    return Reply(status=429, body=body)


def server_error(status: int = 500, *, api: str = "openai") -> Reply:
    """A 5xx in the API's own error shape."""
    if api == "gemini":
        body = {"error": {"code": status, "message": "Internal error encountered.",
                          "status": "INTERNAL"}}
    else:
        body = {"error": {"message": "Internal Server Error", "type": "internal_server_error"}}
    return Reply(status=status, body=body)


def auth_error(message: str, *, api: str = "openai") -> Reply:
    """A 401 whose message is whatever the test passes (say, one that echoes the key)."""
    if api == "gemini":
        body = {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}
        return Reply(status=400, body=body)
    return Reply(status=401, body={"error": {"message": message, "type": "invalid_request_error",
                                              "code": "invalid_api_key"}})


def not_json() -> Reply:
    """A 200 whose body is an HTML page, as a captive portal or proxy sends."""
    return Reply(body="<html><body>Welcome to the conference wifi</body></html>")


def slow(reply: Reply, seconds: float) -> Reply:
    """The same reply, sent only after `seconds` (longer than the client's timeout)."""
    return Reply(status=reply.status, body=reply.body, headers=reply.headers, delay=seconds)


# --- function calling, in each API's own shape (notebook 11) --------------------------------


def chat_tool_calls(*calls: tuple[str, Any], content: str | None = None, prompt_tokens: int = 300,
                    completion_tokens: int = 25, first_id: int = 1) -> Reply:
    """A chat-completions turn that calls tools: (name, arguments) pairs; a str argument is sent
    as written (so a test can send arguments that are not JSON), anything else as JSON."""
    tool_calls = [{"id": f"call_{first_id + n}", "type": "function",
                   "function": {"name": name, "arguments": args if isinstance(args, str)
                                else json.dumps(args)}} for n, (name, args) in enumerate(calls)]
    return Reply(body={
        "id": "chatcmpl-fake-tools", "object": "chat.completion", "created": 1700000000,
        "model": "fake-model",
        "choices": [{"index": 0, "finish_reason": "tool_calls",
                     "message": {"role": "assistant", "content": content, "tool_calls": tool_calls}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    })


def groq_tool_use_failed(failed_generation: str) -> Reply:
    """Groq's HTTP 400 for a tool call its parser could not read, with the model's own text."""
    return Reply(status=400, body={"error": {
        "message": "Failed to call a function. Please adjust your prompt. See 'failed_generation' "
                   "for more details.",
        "type": "invalid_request_error", "code": "tool_use_failed",
        "failed_generation": failed_generation}})


# A thought signature as Gemini sends it (base64); the tests check it comes back unchanged.
THOUGHT_SIGNATURE = "c2lnbmF0dXJlLW9mLXRoZS1tb2RlbHMtdGhvdWdodA=="


def gemini_function_calls(*calls: tuple[str, dict[str, Any]], text: str | None = None,
                          prompt_tokens: int = 310, output_tokens: int = 20,
                          with_ids: bool = False) -> Reply:
    """A generateContent turn with functionCall parts; the first carries a thought signature.
    finishReason stays STOP, as Gemini sends it: a call is told apart by its parts."""
    parts: list[dict[str, Any]] = [{"text": text}] if text is not None else []
    for n, (name, args) in enumerate(calls):
        call: dict[str, Any] = {"name": name, "args": args}
        if with_ids:
            call["id"] = f"gem-{n + 1}"
        part: dict[str, Any] = {"functionCall": call}
        if n == 0:
            part["thoughtSignature"] = THOUGHT_SIGNATURE
        parts.append(part)
    return Reply(body={
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP",
                        "index": 0}],
        "usageMetadata": {"promptTokenCount": prompt_tokens, "candidatesTokenCount": output_tokens,
                          "totalTokenCount": prompt_tokens + output_tokens},
        "modelVersion": "gemini-2.5-flash",
    })


def gemini_malformed_call() -> Reply:
    """Gemini's own word for a call it could not form: finishReason MALFORMED_FUNCTION_CALL."""
    return Reply(body={
        "candidates": [{"content": {"role": "model", "parts": []},
                        "finishReason": "MALFORMED_FUNCTION_CALL",
                        "finishMessage": "Malformed function call: execute_cypher(query=MATCH",
                        "index": 0}],
        "usageMetadata": {"promptTokenCount": 300, "candidatesTokenCount": 0, "totalTokenCount": 300},
    })
