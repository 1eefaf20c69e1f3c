"""A provider that replays a script: the way notebooks make failures happen on cue.

Introduced in notebook 02 (a model that guesses a query), used by the tests of the agent and
by the notebooks that show a `<think>` block, a DELETE or a 429 happening. Each call takes the
next item: a string is the answer, an exception is raised. It keeps every prompt it
was given, so you can see exactly what the model saw.

For the tool loop (notebook 11), `chat()` takes the next item the same way: a `ToolCall`
(or a list of them, called in parallel) is a turn that calls tools, a `ChatTurn` is given
back as it is, a string is a final answer. `histories` keeps the history of every call.

>>> llm = ScriptedLLM([RateLimited(retry_after=416), "MATCH (s:Student) RETURN s.name"])
>>> llm.complete("Who studies DBMS?")
Traceback (most recent call last):
...
course.llm.errors.RateLimited: rate limit reached (retry in 6m56s)
>>> llm.complete("Who studies DBMS?").text
'MATCH (s:Student) RETURN s.name'
>>> len(llm.prompts)
2
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any, Union

from course.llm.base import LLM, ChatTurn, Completion, Message, ToolCall, ToolSpec, Usage
from course.llm.errors import LLMError, RateLimited  # noqa: F401  (RateLimited: the doctest)


Item = Union[str, BaseException, ToolCall, list[ToolCall], ChatTurn]


class ScriptExhausted(LLMError):
    """A ScriptedLLM was asked more often than it has outputs."""


class ScriptedLLM(LLM):
    """Replays `outputs` in order; an exception in the list is raised instead of answered."""

    def __init__(self, outputs: Iterable[Item], *, name: str = "Scripted",
                 model: str = "scripted") -> None:
        self.name, self.model = name, model
        self._queue: deque[Item] = deque(outputs)
        self._given = len(self._queue)
        self.prompts: list[str] = []
        self.systems: list[str | None] = []
        self.histories: list[list[Message]] = []
        self.tool_lists: list[list[str]] = []

    @property
    def remaining(self) -> int:
        """How many outputs are left."""
        return len(self._queue)

    def add(self, *outputs: Item) -> None:
        """Queue more outputs after the ones already there."""
        self._queue.extend(outputs)
        self._given += len(outputs)

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        """Record the prompt, then answer (or raise) the next scripted item."""
        self.prompts.append(prompt)
        self.systems.append(system)
        item = self._next()
        if not isinstance(item, str):
            raise TypeError(f"{self.name}.complete() was scripted a {type(item).__name__}; "
                            "tool calls are for chat().")
        return Completion(item, self.name, self.model, Usage(None, None, 0.0))

    def chat(self, system: str | None, messages: Sequence[Message],
             tools: Sequence[ToolSpec] = ()) -> ChatTurn:
        """Record the history, then give the next scripted turn (or raise it)."""
        self.systems.append(system)
        self.histories.append(list(messages))
        self.tool_lists.append([t.name for t in tools])
        item = self._next()
        if isinstance(item, ChatTurn):
            return item
        if isinstance(item, str):
            return ChatTurn(item, (), self.name, self.model, Usage(None, None, 0.0))
        calls = [item] if isinstance(item, ToolCall) else list(item)
        step = len(self.histories)
        numbered = tuple(c if c.id else ToolCall(c.name, c.arguments, f"call_{step}_{n}", c.problem,
                                                 c.raw_arguments)
                         for n, c in enumerate(calls, 1))
        return ChatTurn("", numbered, self.name, self.model, Usage(None, None, 0.0))

    def _next(self) -> Any:
        if not self._queue:
            calls = len(self.prompts) + len(self.histories)
            raise ScriptExhausted(
                f"{self.name} has no scripted output left: it was given {self._given} and this is "
                f"call {calls}; add more with .add(...) or to the list you pass in.",
                provider=self.name)
        item = self._queue.popleft()
        if isinstance(item, BaseException):
            if isinstance(item, LLMError) and item.provider is None:
                item.provider = self.name
            raise item
        return item
