"""Google's Gemini, on the `google-genai` SDK (default model gemini-2.5-flash).

Introduced in notebook 07 (the router): Gemini is first in the course text's chain.
The key comes from GEMINI_API_KEY, the model from GEMINI_MODEL, and the endpoint from
GOOGLE_GEMINI_BASE_URL (the SDK's own variable) when it is set. The SDK's retries are
off (one attempt) and every call has a timeout. "Thought" parts are the model's
reasoning, not its answer, and are left out of the text.

Notebook 11's `chat()` declares the tools as FunctionDeclarations with automatic function
calling explicitly off (the course's loop runs the tools, not the SDK); a reply with no
function call is the answer. Results go back as function_response parts, and the model's
own content (with its thought signature) goes back into the history unchanged.

>>> GeminiLLM(api_key="AIza-example").model
'gemini-2.5-flash'
"""
from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from course.foundation.config import get_key, get_setting
from course.llm.base import (LLM, ChatTurn, Completion, Message, ToolCall, ToolSpec, Usage,
                             default_timeout, elapsed_ms)
from course.llm.errors import (BadResponse, LLMError, MissingKey, ModelNotFound, RateLimited,
                               Unavailable, parse_retry_after, redact, shorten)

GEMINI_MODEL = "gemini-2.5-flash"
# Ids this module made up for calls Gemini sent without one: never sent back as ids.
LOCAL_ID = "gemini-local-"
# Google's documented stand-in signature for a function call Gemini did not write (a turn
# from another provider after a fallback): Gemini 3 refuses unsigned calls in the history.
SKIP_SIGNATURE = b"skip_thought_signature_validator"


def _transport_errors() -> tuple[tuple[type[Exception], ...], tuple[type[Exception], ...]]:
    """(timeout classes, transport classes) of whichever httpx packages are installed."""
    timeouts: list[type[Exception]] = []
    transports: list[type[Exception]] = []
    for module_name in ("httpx", "httpx2"):
        try:
            module = __import__(module_name)
        except ImportError:
            continue
        timeouts.append(module.TimeoutException)
        transports.append(module.TransportError)
    return tuple(timeouts), tuple(transports)


def _declaration(spec: ToolSpec) -> Any:
    """A tool spec as a FunctionDeclaration (no parameters when it takes none)."""
    from google.genai import types

    takes = bool(spec.parameters.get("properties"))
    return types.FunctionDeclaration(name=spec.name, description=spec.description,
                                     parameters_json_schema=spec.parameters if takes else None)


def _response(content: str) -> dict[str, Any]:
    """A tool result as the dict a function_response holds.

    >>> _response('{"recordCount": 1}'), _response("plain text")
    ({'recordCount': 1}, {'result': 'plain text'})
    """
    try:
        value = json.loads(content)
    except ValueError:
        return {"result": content}
    return value if isinstance(value, dict) else {"result": value}


def retry_delay_of(details: Any) -> str | None:
    """The `retryDelay` of a Gemini error body's RetryInfo detail, e.g. '46s'.

    >>> retry_delay_of({"error": {"details": [{"retryDelay": "46s"}]}})
    '46s'
    """
    error = details.get("error", details) if isinstance(details, dict) else {}
    for item in (error.get("details") or []) if isinstance(error, dict) else []:
        if isinstance(item, dict) and item.get("retryDelay"):
            return str(item["retryDelay"])
    return None


class GeminiLLM(LLM):
    """A Gemini model reached with google-genai."""

    key_variable = "GEMINI_API_KEY"

    def __init__(self, *, model: str | None = None, api_key: str | None = None,
                 name: str = "Gemini", timeout: float | None = None,
                 temperature: float | None = 0.0) -> None:
        from google import genai
        from google.genai import types

        self.name = name
        self.model = get_setting("GEMINI_MODEL", value=model, default=GEMINI_MODEL) or GEMINI_MODEL
        key = get_key(self.key_variable, value=api_key)
        if not key:
            raise MissingKey(self.key_variable, provider=name)
        self.timeout, self.temperature = default_timeout(timeout), temperature
        options = types.HttpOptions(
            base_url=get_setting("GOOGLE_GEMINI_BASE_URL"),  # None: the SDK's own default
            timeout=int(self.timeout * 1000),  # milliseconds
            retry_options=types.HttpRetryOptions(attempts=1),
        )
        self._client = genai.Client(api_key=key, vertexai=False, http_options=options)

    @property
    def base_url(self) -> str:
        """Where requests go (GOOGLE_GEMINI_BASE_URL, or the SDK's own default)."""
        return str(self._client._api_client._http_options.base_url or "").rstrip("/")

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        """Ask once; map whatever the SDK raises to the course's LLM errors."""
        from google.genai import types

        config = types.GenerateContentConfig(system_instruction=system, temperature=self.temperature)
        started = time.perf_counter()
        try:
            reply = self._client.models.generate_content(model=self.model, contents=prompt, config=config)
        except Exception as exc:  # narrowed in _error_for; anything else is re-raised there
            raise self._error_for(exc) from None  # from None: the SDK's text may hold the key
        return self._completion(reply, elapsed_ms(started))

    def chat(self, system: str | None, messages: Sequence[Message],
             tools: Sequence[ToolSpec] = ()) -> ChatTurn:
        """One step with tools; the SDK never calls a function by itself."""
        from google.genai import types

        config = types.GenerateContentConfig(
            system_instruction=system, temperature=self.temperature,
            tools=[types.Tool(function_declarations=[_declaration(t) for t in tools])] if tools else None,
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
        started = time.perf_counter()
        try:
            reply = self._client.models.generate_content(
                model=self.model, contents=self._contents(messages), config=config)
        except Exception as exc:  # narrowed in _error_for; anything else is re-raised there
            raise self._error_for(exc) from None
        return self._turn(reply, elapsed_ms(started))

    def _contents(self, messages: Sequence[Message]) -> list[Any]:
        """The neutral history as Gemini contents; consecutive tool results share one content."""
        from google.genai import types

        contents: list[Any] = []
        for m in messages:
            if m.role == "tool":
                part = types.Part.from_function_response(name=m.name, response=_response(m.content))
                if m.tool_call_id and not m.tool_call_id.startswith(LOCAL_ID):
                    part.function_response.id = m.tool_call_id  # type: ignore[union-attr]
                last = contents[-1] if contents else None
                if last is not None and last.role == "user" and last.parts and \
                        all(p.function_response for p in last.parts):
                    last.parts.append(part)
                else:
                    contents.append(types.Content(role="user", parts=[part]))
            elif m.role == "assistant" and m.native is not None and m.provider == self.name:
                contents.append(m.native)   # unchanged: its thought signature goes back as it came
            elif m.role == "assistant":
                parts = [types.Part(text=m.content)] if m.content else []
                parts += [types.Part(function_call=types.FunctionCall(
                    name=c.name, args=c.arguments,
                    id=None if c.id.startswith(LOCAL_ID) or not c.id else c.id),
                    thought_signature=SKIP_SIGNATURE) for c in m.tool_calls]
                contents.append(types.Content(role="model", parts=parts))
            else:
                contents.append(types.Content(role="user", parts=[types.Part(text=m.content)]))
        return contents

    def _turn(self, reply: Any, latency_ms: float) -> ChatTurn:
        """Text (no thoughts) and function calls; a malformed call is `failed`, fed back."""
        candidates = getattr(reply, "candidates", None) or []
        if not candidates:
            return ChatTurn(self._completion(reply, latency_ms).text, (), self.name, self.model,
                            self._usage(reply, latency_ms))  # raises: blocked or empty
        candidate = candidates[0]
        content = getattr(candidate, "content", None)
        parts = getattr(content, "parts", None) or []
        finish = getattr(candidate.finish_reason, "name", candidate.finish_reason)
        usage = self._usage(reply, latency_ms)
        if finish == "MALFORMED_FUNCTION_CALL":
            said = getattr(candidate, "finish_message", None) or "the model wrote a malformed function call"
            return ChatTurn("", (), self.name, self.model, usage,
                            failed=f"MALFORMED_FUNCTION_CALL: {shorten(self._clean(str(said)), 300)}")
        if finish == "MAX_TOKENS":
            raise BadResponse("the answer was cut off at the token limit (MAX_TOKENS)", provider=self.name)
        calls = tuple(ToolCall(p.function_call.name or "", dict(p.function_call.args or {}),
                               id=p.function_call.id or f"{LOCAL_ID}{n}")
                      for n, p in enumerate((p for p in parts if p.function_call), 1))
        text = "".join(p.text for p in parts if getattr(p, "text", None) and not getattr(p, "thought", False))
        if not text.strip() and not calls:
            raise BadResponse(f"the answer was empty (finish reason {finish})", provider=self.name)
        return ChatTurn(text.strip(), calls, self.name, self.model, usage, native=content)

    def _completion(self, reply: Any, latency_ms: float) -> Completion:
        """The answer (thought parts left out) and usage from a generateContent reply."""
        candidates = getattr(reply, "candidates", None) or []
        if not candidates:
            feedback = getattr(reply, "prompt_feedback", None)
            blocked = getattr(feedback, "block_reason", None)
            why = f" (blocked: {getattr(blocked, 'name', blocked)})" if blocked else ""
            raise BadResponse(f"the reply had no answer in it{why}", provider=self.name)
        candidate = candidates[0]
        parts = getattr(getattr(candidate, "content", None), "parts", None) or []
        text = "".join(p.text for p in parts if getattr(p, "text", None) and not getattr(p, "thought", False))
        finish = getattr(candidate.finish_reason, "name", candidate.finish_reason)
        if finish == "MAX_TOKENS":
            raise BadResponse("the answer was cut off at the token limit (MAX_TOKENS)", provider=self.name)
        if not text.strip():
            raise BadResponse(f"the answer was empty (finish reason {finish})", provider=self.name)
        return Completion(text.strip(), self.name, self.model, self._usage(reply, latency_ms))

    @staticmethod
    def _usage(reply: Any, latency_ms: float) -> Usage:
        """Tokens in, and tokens out including thinking (which counts against the quota)."""
        meta = getattr(reply, "usage_metadata", None)
        if meta is None:
            return Usage(None, None, latency_ms)
        out = meta.candidates_token_count
        if out is not None and meta.thoughts_token_count:
            out += meta.thoughts_token_count
        return Usage(meta.prompt_token_count, out, latency_ms)

    def _clean(self, text: str) -> str:
        return redact(text, [getattr(getattr(self._client, "_api_client", None), "api_key", None)])

    def _error_for(self, exc: Exception) -> LLMError:
        """The course's error for what google-genai raised; the message never contains the key."""
        from google.genai import errors
        from pydantic import ValidationError

        timeouts, transports = _transport_errors()
        if isinstance(exc, errors.APIError):
            return self._status_error(exc)
        if isinstance(exc, timeouts):
            return Unavailable(f"no answer within {self.timeout:g} s (timed out)", provider=self.name)
        if isinstance(exc, transports):
            return Unavailable(f"could not connect: {shorten(self._clean(str(exc)), 120)}",
                               provider=self.name)
        if isinstance(exc, (ValueError, ValidationError)):  # json.JSONDecodeError is a ValueError
            return BadResponse(f"the reply was not JSON: {shorten(self._clean(str(exc)), 120)}",
                               provider=self.name)
        raise exc  # not the SDK's: a bug to see, not to route around

    def _status_error(self, exc: Any) -> LLMError:
        """Map a Gemini API error (HTTP code + status + message) to an error class."""
        code = int(exc.code or 0)
        message = shorten(self._clean(str(exc.message or exc.status or "")), 300)
        said = f"HTTP {code} {exc.status or ''}".rstrip() + f": {message}"
        if code == 429:
            wait = parse_retry_after({}, message, retry_delay=retry_delay_of(exc.details))
            return RateLimited(said, retry_after=wait, provider=self.name)
        if code >= 500 or code == 408:
            return Unavailable(said, provider=self.name)
        if code in (401, 403) or "api key" in message.lower():
            return LLMError(f"{said} (the service refused the key: check {self.key_variable} in .env)",
                            provider=self.name)
        if code == 404:
            return ModelNotFound(self.model, self._model_names(), variable="GEMINI_MODEL",
                                 provider=self.name)
        return LLMError(said, provider=self.name)

    def _model_names(self) -> list[str] | None:
        """The models this key can generate with, from Gemini's own list; None when unreadable."""
        try:
            return [str(model.name).removeprefix("models/") for model in self._client.models.list()
                    if "generateContent" in (model.supported_actions or ["generateContent"])]
        except Exception:  # noqa: BLE001 - the list is a courtesy; the 404 is the error
            return None
