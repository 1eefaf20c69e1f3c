"""The one interface every LLM provider implements: a prompt in, a `Completion` out.

Introduced in notebook 02 (a model that knows nothing of the graph); the agent (notebook 05)
and the router (notebook 07) build on it.
A provider is anything with a `name`, a `model` and `complete(prompt, *, system=None)`.

>>> class Echo(LLM):
...     name, model = "Echo", "echo-1"
...     def complete(self, prompt, *, system=None):
...         return Completion(prompt.upper(), self.name, self.model, Usage(None, None, 0.0))
>>> Echo().complete("match").text
'MATCH'
"""
from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass


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
    from course.config import get_setting
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
