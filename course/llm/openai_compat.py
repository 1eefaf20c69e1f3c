"""Any OpenAI-style chat-completions service: Mistral, OpenRouter, Ollama on your own machine.

Introduced in notebook 07 (the router). `ChatCompletionsLLM` holds what Groq and the
OpenAI-style services share (same request, same reply, same kinds of exception);
`OpenAICompatLLM` runs it on the `openai` SDK. The SDK's own retries are off: when a
service is rate limited, the router moves on at once instead of the SDK sleeping.

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
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

from course.config import get_key, get_setting
from course.llm.base import LLM, Completion, Usage, chat_messages, default_timeout, elapsed_ms
from course.llm.errors import (BadResponse, LLMError, MissingKey, RateLimited, Unavailable,
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
        options: dict[str, Any] = {"model": self.model, "messages": chat_messages(prompt, system)}
        if self.temperature is not None:
            options["temperature"] = self.temperature
        started = time.perf_counter()
        try:
            reply = self._client.chat.completions.create(**options)
        except self._sdk_error() as exc:
            raise self._error_for(exc) from None  # from None: the SDK's text may hold the key
        except json.JSONDecodeError as exc:  # a 200 whose body is not JSON, though it says so
            raise not_json(self._clean(str(exc)), provider=self.name) from None
        return self._completion(reply, elapsed_ms(started))

    def _completion(self, reply: Any, latency_ms: float) -> Completion:
        """The answer text and usage from a chat completion; reasoning is not the answer."""
        if isinstance(reply, (str, bytes)):
            raise BadResponse(f"the reply was not JSON: {shorten(self._clean(str(reply)), 80)}",
                              provider=self.name)
        choices = getattr(reply, "choices", None) or []
        if not choices:
            raise BadResponse("the reply had no answer in it (no choices)", provider=self.name)
        choice = choices[0]
        message = getattr(choice, "message", None)
        text = (getattr(message, "content", None) or "").strip()
        finish = getattr(choice, "finish_reason", None)
        if finish == "length":
            raise BadResponse("the answer was cut off at the token limit (finish_reason=length)",
                              provider=self.name)
        if not text:
            had_reasoning = bool(getattr(message, "reasoning", None))
            detail = " (only reasoning, no answer)" if had_reasoning else f" (finish_reason={finish})"
            raise BadResponse("the answer was empty" + detail, provider=self.name)
        usage = getattr(reply, "usage", None)
        return Completion(text, self.name, self.model, Usage(
            getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None), latency_ms))

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
            where = f" (set {self.model_variable} to a model this service has)" if self.model_variable else ""
            return LLMError(f"{said}; model {self.model!r} not found here{where}", provider=self.name)
        return LLMError(said, provider=self.name)

    def _server_message(self, exc: Any) -> str:
        """The service's own error message, redacted and on one line."""
        body = getattr(exc, "body", None)
        if isinstance(body, dict):
            inner = body.get("error", body)
            text = inner.get("message") if isinstance(inner, dict) else inner
        else:
            text = getattr(exc, "message", None) or str(exc)
        return shorten(self._clean(str(text or "")), 300)


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
