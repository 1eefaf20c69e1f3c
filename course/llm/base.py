"""The one interface every LLM provider implements: a prompt in, a `Completion` out.

Introduced in notebook 02 (a model that knows nothing of the graph); the agent (notebook 05)
and the router (notebook 07) build on it.
A provider is anything with a `name`, a `model` and `complete(prompt, *, system=None)`.
Notebook 11 adds the provider-neutral chat with tools: `chat(system, messages, tools)`
takes the history as `Message`s and the tools as `ToolSpec`s, and returns a `ChatTurn`
(text and/or `ToolCall`s, with usage); each provider translates to its own API.

>>> class Echo(LLM):
...     name, model = "Echo", "echo-1"
...     def complete(self, prompt, *, system=None):
...         return Completion(prompt.upper(), self.name, self.model, Usage(None, None, 0.0))
>>> Echo().complete("match").text
'MATCH'
"""
from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Usage:
    """What one call cost: tokens in and out when the service reports them, and the time taken."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    latency_ms: float = 0.0


@dataclass(frozen=True)
class Completion:
    """One answer: its text, which provider and model gave it, and what it cost."""

    text: str
    provider: str
    model: str
    usage: Usage


@dataclass(frozen=True)
class ToolSpec:
    """A tool the model may call: its name, what it does, and its arguments as JSON Schema."""

    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})


@dataclass(frozen=True)
class ToolCall:
    """One call the model asked for. `problem` says why its arguments could not be read.

    >>> ToolCall("execute_cypher", {"query": "RETURN 1"}).arguments_json
    '{"query": "RETURN 1"}'
    """

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    id: str = ""
    problem: str | None = None        # arguments not JSON, or not an object
    raw_arguments: str | None = None  # as the model wrote them (chat completions send a string)

    @property
    def arguments_json(self) -> str:
        """The arguments as JSON, as the model wrote them when they were valid; "{}" when they
        were not (a service may refuse a history holding broken JSON; the tool result quotes it)."""
        if self.problem:
            return "{}"
        if self.raw_arguments is not None:
            return self.raw_arguments
        return json.dumps(self.arguments, ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class Message:
    """One entry of a chat history, in no provider's format.

    role "user" (content), "assistant" (content and tool_calls; `native` is the provider's
    own message, such as Gemini's content with its thought signature, sent back unchanged to
    the provider that wrote it) or "tool" (the result of one call, as JSON text).
    """

    role: str
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str = ""
    name: str = ""                     # the tool's name, on a tool result
    native: Any = field(default=None, repr=False, compare=False)
    provider: str = ""                 # who wrote `native`


@dataclass(frozen=True)
class ChatTurn:
    """What one chat call gave: text and/or tool calls, and what it cost.

    `failed` is the service's own account of a tool call it could not read (Groq's
    `tool_use_failed`, Gemini's MALFORMED_FUNCTION_CALL): the loop feeds it back.
    """

    text: str
    tool_calls: tuple[ToolCall, ...]
    provider: str
    model: str
    usage: Usage
    native: Any = field(default=None, repr=False, compare=False)
    failed: str | None = None

    def message(self) -> Message:
        """This turn as an assistant entry of the history."""
        return Message("assistant", self.text, self.tool_calls, native=self.native,
                       provider=self.provider)


class LLM(ABC):
    """A language model the course can ask. Subclasses set `name` and `model`.

    A subclass needs no constructor arguments of its own; the repr shows the name and
    the model, never a key.
    """

    name: str = "LLM"
    model: str = ""

    @abstractmethod
    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        """Ask once. Raises a `course.llm.errors.LLMError` subclass when no answer comes."""

    def chat(self, system: str | None, messages: Sequence[Message],
             tools: Sequence[ToolSpec] = ()) -> ChatTurn:
        """One step of a conversation with tools (notebook 11); raises an LLMError subclass."""
        from course.llm.errors import LLMError

        raise LLMError(f"{self.name} cannot call tools: use a provider with chat(), or the "
                       "offline provider.", provider=self.name)

    def generate(self, prompt: str, *, system: str | None = None) -> str:
        """Just the text of `complete()`, as the course text's `llm.generate(prompt)`."""
        return self.complete(prompt, system=system).text

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, model={self.model!r})"


DEFAULT_TIMEOUT_S = 30.0


def default_timeout(timeout: float | None = None) -> float:
    """Seconds one call may take: the argument, else COURSE_LLM_TIMEOUT, else 30.

    >>> default_timeout(5)
    5.0
    """
    from course.foundation.config import get_setting
    from course.llm.errors import LLMError

    value = get_setting("COURSE_LLM_TIMEOUT", value=None if timeout is None else str(timeout))
    if value is None:
        return DEFAULT_TIMEOUT_S
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise LLMError("COURSE_LLM_TIMEOUT must be a number of seconds above 0, such as 30; "
                       f"it is {value!r}.")
    return seconds


def elapsed_ms(started: float) -> float:
    """Milliseconds since `started` (a `time.perf_counter()` reading)."""
    return (time.perf_counter() - started) * 1000


def chat_messages(prompt: str, system: str | None) -> list[dict[str, str]]:
    """The chat-completions message list for a prompt and an optional system text.

    >>> chat_messages("Who is Payal?", "Answer briefly.")[0]["role"]
    'system'
    """
    messages = [{"role": "system", "content": system}] if system else []
    return messages + [{"role": "user", "content": prompt}]


def parse_arguments(raw: Any) -> tuple[dict[str, Any], str | None]:
    """A tool call's arguments from what the model wrote: (arguments, problem or None).

    >>> parse_arguments('{"query": "RETURN 1"}'), parse_arguments("{query: RETURN 1}")[1]
    (({'query': 'RETURN 1'}, None), 'the arguments are not valid JSON: {query: RETURN 1}')
    """
    if raw is None or raw == "":
        return {}, None
    if isinstance(raw, dict):
        return dict(raw), None
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        return {}, f"the arguments are not valid JSON: {str(raw)[:200]}"
    if not isinstance(value, dict):
        return {}, f"the arguments must be a JSON object, not {type(value).__name__}"
    return value, None
