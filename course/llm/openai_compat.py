"""Any OpenAI-style chat-completions service: Mistral, OpenRouter, Ollama on your own machine.

Introduced in notebook 07 (the router). `ChatCompletionsLLM` holds what Groq and the
OpenAI-style services share (same request, same reply, same kinds of exception);
`OpenAICompatLLM` runs it on the `openai` SDK. The SDK's own retries are off: when a
service is rate limited, the router moves on at once instead of the SDK sleeping.

Notebook 11's `chat()` speaks their function calling: `tools=[{"type": "function", ...}]`,
`tool_calls` whose `arguments` are a JSON string, results as `{"role": "tool",
"tool_call_id": ...}`. Groq answers a malformed call with HTTP 400 `tool_use_failed` (and
the model's `failed_generation`): that comes back as a turn the loop feeds back, not an error.

Endpoints come from MISTRAL_BASE_URL, OPENROUTER_BASE_URL and OLLAMA_HOST when they are
set (argument > environment > .env), and models from MISTRAL_MODEL, OPENROUTER_MODEL
and OLLAMA_MODEL.

>>> llm = OpenAICompatLLM.ollama()          # no key needed
>>> llm.name, llm.base_url
('Ollama', 'http://localhost:11434/v1')
"""
from __future__ import annotations

import json
import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

from course.foundation.config import get_key, get_setting
from course.llm.base import (LLM, ChatTurn, Completion, Message, ToolCall, ToolSpec, Usage,
                             chat_messages, default_timeout, elapsed_ms, parse_arguments)
from course.llm.errors import (BadResponse, LLMError, MissingKey, ModelNotFound, RateLimited, Unavailable,
                               not_json, parse_retry_after, redact, shorten)

MISTRAL_URL = "https://api.mistral.ai/v1"
OPENROUTER_URL = "https://openrouter.ai/api/v1"
OLLAMA_URL = "http://localhost:11434"
MISTRAL_MODEL = "mistral-small-latest"
OPENROUTER_MODEL = "openai/gpt-oss-20b:free"
OLLAMA_MODEL = "llama3.2"


class ChatCompletionsLLM(LLM):
    """What a chat-completions provider does; a subclass makes `self._client` and names `_sdk`."""

    _client: Any
    key_variable: str | None = None
    model_variable: str | None = None
    unreachable_hint: str = ""
    temperature: float | None = 0.0
    timeout: float = 30.0

    def _sdk(self) -> ModuleType:
        """The SDK module whose exception classes the client raises."""
        raise NotImplementedError

    def _sdk_error(self) -> type[Exception]:
        """The SDK's base exception class: every error it raises on purpose."""
        sdk = self._sdk()
        return getattr(sdk, "GroqError", None) or sdk.OpenAIError

    @property
    def base_url(self) -> str:
        """Where requests go (the SDK's own default when no endpoint variable is set)."""
        return str(self._client.base_url).rstrip("/")

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        """Ask once; map whatever the SDK raises to the course's LLM errors.

        >>> llm.complete("Who is Payal?").text        # doctest: +SKIP
        'Payal is a second-year CSE student.'
        """
        try:
            reply, ms = self._create(chat_messages(prompt, system))
        except self._sdk_error() as exc:
            raise self._error_for(exc) from None  # from None: the SDK's text may hold the key
        return self._completion(reply, ms)

    def chat(self, system: str | None, messages: Sequence[Message],
             tools: Sequence[ToolSpec] = ()) -> ChatTurn:
        """One step with tools; Groq's `tool_use_failed` comes back as `ChatTurn.failed`."""
        started = time.perf_counter()
        try:
            reply, ms = self._create(chat_history(system, messages), tools)
        except self._sdk_error() as exc:
            failed = self._tool_use_failed(exc)
            if failed is None:
                raise self._error_for(exc) from None
            return ChatTurn("", (), self.name, self.model, Usage(None, None, elapsed_ms(started)),
                            failed=failed)
        return self._turn(reply, ms)

    def _create(self, messages: list[dict[str, Any]],
                tools: Sequence[ToolSpec] = ()) -> tuple[Any, float]:
        """One chat-completions request: (reply, ms). The SDK's own exceptions pass through;
        a body that is not JSON is a BadResponse."""
        options: dict[str, Any] = {"model": self.model, "messages": messages}
        if tools:
            options["tools"] = [function_tool(spec) for spec in tools]
        if self.temperature is not None:
            options["temperature"] = self.temperature
        started = time.perf_counter()
        try:
            reply = self._client.chat.completions.create(**options)
        except json.JSONDecodeError as exc:  # a 200 whose body is not JSON, though it says so
            raise not_json(self._clean(str(exc)), provider=self.name) from None
        return reply, elapsed_ms(started)

    def _tool_use_failed(self, exc: Exception) -> str | None:
        """The service's words and the model's failed generation, for an HTTP 400 tool_use_failed."""
        body = getattr(exc, "body", None)
        inner = body.get("error", body) if isinstance(body, dict) else None
        if getattr(exc, "status_code", None) != 400 or not isinstance(inner, dict) \
                or inner.get("code") != "tool_use_failed":
            return None
        said = shorten(self._clean(str(inner.get("message") or "tool_use_failed")), 200)
        generated = shorten(self._clean(str(inner.get("failed_generation") or "")), 500)
        return f"{said} The model wrote: {generated}" if generated else said

    def _turn(self, reply: Any, latency_ms: float) -> ChatTurn:
        """Text and tool calls from a chat completion."""
        message, _ = self._message(reply)
        calls = tuple(_tool_call(raw, n) for n, raw in
                      enumerate(getattr(message, "tool_calls", None) or [], 1))
        text = (getattr(message, "content", None) or "").strip()
        if not text and not calls:
            raise BadResponse("the answer was empty (no text and no tool call)", provider=self.name)
        return ChatTurn(text, calls, self.name, self.model, _usage(reply, latency_ms))

    def _message(self, reply: Any) -> tuple[Any, Any]:
        """(message, finish_reason) of the first choice; BadResponse for a reply that has none."""
        if isinstance(reply, (str, bytes)):
            raise BadResponse(f"the reply was not JSON: {shorten(self._clean(str(reply)), 80)}",
                              provider=self.name)
        choices = getattr(reply, "choices", None) or []
        if not choices:
            raise BadResponse("the reply had no answer in it (no choices)", provider=self.name)
        finish = getattr(choices[0], "finish_reason", None)
        if finish == "length":
            raise BadResponse("the answer was cut off at the token limit (finish_reason=length)",
                              provider=self.name)
        return getattr(choices[0], "message", None), finish

    def _completion(self, reply: Any, latency_ms: float) -> Completion:
        """The answer text and usage from a chat completion; reasoning is not the answer."""
        message, finish = self._message(reply)
        text = (getattr(message, "content", None) or "").strip()
        if not text:
            had_reasoning = bool(getattr(message, "reasoning", None))
            detail = " (only reasoning, no answer)" if had_reasoning else f" (finish_reason={finish})"
            raise BadResponse("the answer was empty" + detail, provider=self.name)
        return Completion(text, self.name, self.model, _usage(reply, latency_ms))

    def _clean(self, text: str) -> str:
        """Text from the service with this provider's key (and anything key-shaped) removed."""
        return redact(text, [getattr(self._client, "api_key", None)])

    def _error_for(self, exc: Exception) -> LLMError:
        """The course's error for an SDK exception; the message never contains the key."""
        sdk = self._sdk()
        if isinstance(exc, sdk.APITimeoutError):
            return Unavailable(f"no answer within {self.timeout:g} s (timed out)", provider=self.name)
        if isinstance(exc, sdk.APIConnectionError):
            return Unavailable(f"could not connect to {self.base_url}{self.unreachable_hint}",
                               provider=self.name)
        if isinstance(exc, sdk.APIStatusError):
            return self._status_error(exc.status_code, self._server_message(exc), exc.response.headers)
        if isinstance(exc, sdk.APIResponseValidationError):
            detail = shorten(self._clean(str(exc)), 120)
            return BadResponse(f"the reply did not have the expected shape: {detail}", provider=self.name)
        return LLMError(shorten(self._clean(str(exc))), provider=self.name)

    def _status_error(self, status: int, message: str, headers: Any) -> LLMError:
        """Map an HTTP status (and the service's message) to an error class."""
        said = f"HTTP {status}: {message}"
        if status == 429:
            return RateLimited(said, retry_after=parse_retry_after(headers, message), provider=self.name)
        if status >= 500 or status == 408:
            return Unavailable(said, provider=self.name)
        if status in (401, 403) and self.key_variable:
            return LLMError(f"{said} (the service refused the key: check {self.key_variable} in .env)",
                            provider=self.name)
        if status == 404:
            return ModelNotFound(self.model, self._model_names(), variable=self.model_variable,
                                 provider=self.name)
        return LLMError(said, provider=self.name)

    def _model_names(self) -> list[str] | None:
        """The models this key can use, from the service's own list; None when it cannot be read."""
        try:
            listing = self._client.models.list()   # groq: a response with .data; openai: a page
            return [model.id for model in getattr(listing, "data", listing)]
        except Exception:  # noqa: BLE001 - the list is a courtesy; the 404 is the error
            return None

    def _server_message(self, exc: Any) -> str:
        """The service's own error message, redacted and on one line."""
        body = getattr(exc, "body", None)
        if isinstance(body, dict):
            inner = body.get("error", body)
            text = inner.get("message") if isinstance(inner, dict) else inner
        else:
            text = getattr(exc, "message", None) or str(exc)
        return shorten(self._clean(str(text or "")), 300)


def function_tool(spec: ToolSpec) -> dict[str, Any]:
    """A tool spec as chat completions take it.

    >>> function_tool(ToolSpec("get_schema", "The schema."))["function"]["name"]
    'get_schema'
    """
    return {"type": "function", "function": {"name": spec.name, "description": spec.description,
                                             "parameters": spec.parameters}}


def chat_history(system: str | None, messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The neutral history as chat-completions messages (a system message first).

    >>> chat_history(None, [Message("tool", '{"recordCount": 0}', tool_call_id="call_1")])
    [{'role': 'tool', 'tool_call_id': 'call_1', 'content': '{"recordCount": 0}'}]
    """
    out: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    for m in messages:
        if m.role == "tool":
            out.append({"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content})
        elif m.role == "assistant":
            entry: dict[str, Any] = {"role": "assistant", "content": m.content}  # a string, even ""
            if m.tool_calls:
                entry["tool_calls"] = [{"id": c.id, "type": "function", "function": {
                    "name": c.name, "arguments": c.arguments_json}} for c in m.tool_calls]
            out.append(entry)
        else:
            out.append({"role": "user", "content": m.content})
    return out


def _usage(reply: Any, latency_ms: float) -> Usage:
    """Tokens in and out as the service reported them (None when it did not)."""
    usage = getattr(reply, "usage", None)
    return Usage(getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None),
                 latency_ms)


def _tool_call(raw: Any, number: int) -> ToolCall:
    """One of a reply's `tool_calls`; arguments that are not a JSON object are a `problem`."""
    function = getattr(raw, "function", None)
    text = getattr(function, "arguments", None)
    arguments, problem = parse_arguments(text)
    return ToolCall(str(getattr(function, "name", "") or ""), arguments,
                    id=str(getattr(raw, "id", None) or f"call_{number}"), problem=problem,
                    raw_arguments=text if isinstance(text, str) else None)


def ollama_base_url(host: str | None) -> str:
    """The OpenAI-style endpoint of an Ollama server, from OLLAMA_HOST's forms.

    >>> ollama_base_url("127.0.0.1:11434"), ollama_base_url("http://gpu-box")
    ('http://127.0.0.1:11434/v1', 'http://gpu-box:11434/v1')
    """
    host = (host or OLLAMA_URL).strip().rstrip("/")
    if "://" not in host:
        host = "http://" + host
    parts = urlsplit(host)
    netloc = parts.netloc
    if parts.port is None and parts.scheme == "http":
        netloc += ":11434"
    path = parts.path.rstrip("/")
    if not path.endswith("/v1"):
        path += "/v1"
    return f"{parts.scheme}://{netloc}{path}"


class OpenAICompatLLM(ChatCompletionsLLM):
    """A chat-completions service reached with the `openai` SDK.

    Use the constructors `.mistral()`, `.openrouter()` and `.ollama()`, or pass
    `base_url`, `model` and a key yourself.
    """

    def __init__(self, *, base_url: str, model: str, api_key: str | None = None,
                 name: str = "OpenAI-compatible", key_variable: str | None = None,
                 model_variable: str | None = None, timeout: float | None = None,
                 temperature: float | None = 0.0, unreachable_hint: str = "") -> None:
        from openai import OpenAI

        key = get_key(key_variable, value=api_key) if key_variable else api_key
        if key_variable and not key:
            raise MissingKey(key_variable, provider=name)
        self.name, self.model = name, model
        self.key_variable, self.model_variable = key_variable, model_variable
        self.timeout, self.temperature = default_timeout(timeout), temperature
        self.unreachable_hint = unreachable_hint
        # A local server such as Ollama needs no key, but the SDK wants a non-empty one.
        self._client = OpenAI(api_key=key or "no-key-needed", base_url=base_url,
                              timeout=self.timeout, max_retries=0)

    def _sdk(self) -> ModuleType:
        import openai

        return openai

    @classmethod
    def mistral(cls, *, model: str | None = None, api_key: str | None = None,
                timeout: float | None = None) -> OpenAICompatLLM:
        """Mistral's API (MISTRAL_API_KEY; MISTRAL_BASE_URL and MISTRAL_MODEL if set)."""
        return cls(base_url=get_setting("MISTRAL_BASE_URL", default=MISTRAL_URL),
                   model=get_setting("MISTRAL_MODEL", value=model, default=MISTRAL_MODEL),
                   api_key=api_key, name="Mistral", key_variable="MISTRAL_API_KEY",
                   model_variable="MISTRAL_MODEL", timeout=timeout)

    @classmethod
    def openrouter(cls, *, model: str | None = None, api_key: str | None = None,
                   timeout: float | None = None) -> OpenAICompatLLM:
        """OpenRouter (OPENROUTER_API_KEY; OPENROUTER_BASE_URL and OPENROUTER_MODEL if set)."""
        return cls(base_url=get_setting("OPENROUTER_BASE_URL", default=OPENROUTER_URL),
                   model=get_setting("OPENROUTER_MODEL", value=model, default=OPENROUTER_MODEL),
                   api_key=api_key, name="OpenRouter", key_variable="OPENROUTER_API_KEY",
                   model_variable="OPENROUTER_MODEL", timeout=timeout)

    @classmethod
    def ollama(cls, *, model: str | None = None, timeout: float | None = None) -> OpenAICompatLLM:
        """A model served by Ollama on your own machine (OLLAMA_HOST, OLLAMA_MODEL); no key."""
        chosen = get_setting("OLLAMA_MODEL", value=model, default=OLLAMA_MODEL)
        hint = f": is Ollama running? Start it with `ollama serve`, then `ollama pull {chosen}`"
        return cls(base_url=ollama_base_url(get_setting("OLLAMA_HOST")), model=chosen,
                   name="Ollama", model_variable="OLLAMA_MODEL", timeout=timeout,
                   unreachable_hint=hint)
