"""A provider that replays a script: the way notebooks make failures happen on cue.

Introduced in notebook 02 (a model that guesses a query), used by the tests of the agent and
by the notebooks that show a `<think>` block, a DELETE or a 429 happening. Each call takes the
next item: a string is the answer, an exception is raised. It keeps every prompt it
was given, so you can see exactly what the model saw.

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
from collections.abc import Iterable

from course.llm.base import LLM, Completion, Usage
from course.llm.errors import LLMError, RateLimited  # noqa: F401  (RateLimited: the doctest)


class ScriptExhausted(LLMError):
    """A ScriptedLLM was asked more often than it has outputs."""


class ScriptedLLM(LLM):
    """Replays `outputs` in order; an exception in the list is raised instead of answered."""

    def __init__(self, outputs: Iterable[str | BaseException], *, name: str = "Scripted",
                 model: str = "scripted") -> None:
        self.name, self.model = name, model
        self._queue: deque[str | BaseException] = deque(outputs)
        self._given = len(self._queue)
        self.prompts: list[str] = []
        self.systems: list[str | None] = []

    @property
    def remaining(self) -> int:
        """How many outputs are left."""
        return len(self._queue)

    def add(self, *outputs: str | BaseException) -> None:
        """Queue more outputs after the ones already there."""
        self._queue.extend(outputs)
        self._given += len(outputs)

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        """Record the prompt, then answer (or raise) the next scripted item."""
        self.prompts.append(prompt)
        self.systems.append(system)
        if not self._queue:
            raise ScriptExhausted(
                f"{self.name} has no scripted output left: it was given {self._given} and this is "
                f"call {len(self.prompts)}; add more with .add(...) or to the list you pass in.",
                provider=self.name)
        item = self._queue.popleft()
        if isinstance(item, BaseException):
            if isinstance(item, LLMError) and item.provider is None:
                item.provider = self.name
            raise item
        return Completion(item, self.name, self.model, Usage(None, None, 0.0))
