"""The fallback router: an ordered chain of providers that is itself an LLM.

Introduced in notebook 07. The course text's lesson: free tiers run out mid-workshop
("Error code: 429 - Rate limit reached ... Please try again in 6m56s"), so never depend
on one provider. The router asks each provider in turn:

- a rate limit marks that provider exhausted until its wait is over (a cool-down, not
  forever; 60 s when the service does not say) and moves on at once, without sleeping;
- an outage or a bad response moves on without marking;
- when every provider has failed, one `AllProvidersFailed` lists each one and why.

It keeps a log of every attempt, totals per provider, and `last_route`, a sentence such
as "answered by Groq-120b after Gemini hit its rate limit (retry in 6m56s)".
`chat()` (notebook 11's tool loop) follows the same rules: a 429 at step 2 hands the same
history to the next provider, which goes on from there.

>>> from course.llm.scripted import ScriptedLLM
>>> from course.llm.errors import RateLimited
>>> router = LLMRouter([ScriptedLLM([RateLimited(retry_after=416)], name="Gemini"),
...                     ScriptedLLM(["MATCH (n:Student) RETURN n.name"], name="Groq-120b")])
>>> router.complete("Who is Payal?").provider
'Groq-120b'
>>> router.last_route
'answered by Groq-120b after Gemini hit its rate limit (retry in 6m56s)'
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from course.llm.base import LLM, ChatTurn, Completion, Message, ToolSpec
from course.llm.errors import (AllProvidersFailed, BadResponse, CoolingDown, LLMError, RateLimited,
                               Unavailable, format_wait)

DEFAULT_COOLDOWN_S = 60.0
Answer = TypeVar("Answer", Completion, ChatTurn)


@dataclass(frozen=True)
class ProviderTry:
    """One try of one provider during call number `call`."""

    call: int
    provider: str
    outcome: str  # answered, or the error's label: rate limited, skipped, unavailable, bad response...
    detail: str
    input_tokens: int | None
    output_tokens: int | None
    ms: float


@dataclass
class ProviderStats:
    """Totals for one provider: attempts made, failures, skips while cooling down, tokens, time."""

    calls: int = 0
    answered: int = 0
    failures: int = 0
    skipped: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    total_ms: float = 0.0


class ManualClock:
    """A clock you move by hand, for cool-downs in tests and notebooks without waiting.

    >>> clock = ManualClock()
    >>> clock.advance(minutes=7); clock()
    420.0
    """

    def __init__(self, start: float = 0.0) -> None:
        self.now = float(start)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float = 0.0, *, minutes: float = 0.0) -> None:
        """Move the clock forward."""
        self.now += seconds + minutes * 60


class LLMRouter(LLM):
    """Ask providers in order until one answers; see the module docstring for the rules."""

    name = "Router"

    def __init__(self, providers: Sequence[LLM], *, clock: Callable[[], float] = time.monotonic,
                 default_cooldown: float = DEFAULT_COOLDOWN_S) -> None:
        names = [p.name for p in providers]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"Two providers share the name {duplicates[0]!r}: give each a "
                             "different name (most providers take name=...).")
        self.providers = list(providers)
        self.clock = clock
        self.default_cooldown = default_cooldown
        self.log: list[ProviderTry] = []
        self.stats: dict[str, ProviderStats] = {p.name: ProviderStats() for p in self.providers}
        self.last_route = "no call yet"
        self._until: dict[str, float] = {}
        self._calls = 0
        self._last_model = self.providers[0].model if self.providers else ""

    @property
    def model(self) -> str:  # type: ignore[override]
        """The model that answered last (before any answer: the first provider's)."""
        return self._last_model

    @property
    def exhausted(self) -> dict[str, float]:
        """Providers cooling down after a rate limit -> seconds left."""
        now = self.clock()
        return {name: until - now for name, until in self._until.items() if until > now}

    def reset(self) -> None:
        """Forget every cool-down (the log and the totals stay)."""
        self._until.clear()

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        """Ask each provider in order; return the first answer or raise AllProvidersFailed."""
        return self._route(lambda provider: provider.complete(prompt, system=system))

    def chat(self, system: str | None, messages: Sequence[Message],
             tools: Sequence[ToolSpec] = ()) -> ChatTurn:
        """One step of the tool loop, by the first provider that answers, with the same history."""
        return self._route(lambda provider: provider.chat(system, messages, tools))

    def _route(self, ask: Callable[[LLM], Answer]) -> Answer:
        self._calls += 1
        failures: list[tuple[str, LLMError]] = []
        for provider in self.providers:
            waiting = self._until.get(provider.name, 0.0) - self.clock()
            if waiting > 0:
                failures.append((provider.name, self._skip(provider, waiting)))
                continue
            completion = self._try(provider, ask, failures)
            if completion is not None:
                self.last_route = route_sentence(provider.name, failures)
                self._last_model = completion.model
                return completion
        self.last_route = route_sentence(None, failures)
        raise AllProvidersFailed(failures)

    def _try(self, provider: LLM, ask: Callable[[LLM], Answer],
             failures: list[tuple[str, LLMError]]) -> Answer | None:
        """One attempt: the answer, or None after recording why it failed."""
        started = time.perf_counter()
        try:
            completion = ask(provider)
        except LLMError as error:
            ms = (time.perf_counter() - started) * 1000
            if isinstance(error, RateLimited):
                wait = self.default_cooldown if error.retry_after is None else error.retry_after
                self._until[provider.name] = self.clock() + wait
            self._record(provider.name, error.label, error.reason, None, None, ms)
            failures.append((provider.name, error))
            return None
        ms = (time.perf_counter() - started) * 1000
        usage = completion.usage
        self._record(provider.name, "answered", completion.model, usage.input_tokens,
                     usage.output_tokens, ms)
        return completion

    def _skip(self, provider: LLM, waiting: float) -> RateLimited:
        """Record a provider passed over while cooling down; the reason for the final error."""
        reason = f"rate limited earlier, cooling down (retry in {format_wait(waiting)})"
        self._record(provider.name, "skipped", reason, None, None, 0.0)
        return CoolingDown(reason, retry_after=waiting, provider=provider.name)

    def _record(self, name: str, outcome: str, detail: str, tokens_in: int | None,
                tokens_out: int | None, ms: float) -> None:
        self.log.append(ProviderTry(self._calls, name, outcome, detail, tokens_in, tokens_out, ms))
        stats = self.stats[name]
        if outcome == "skipped":
            stats.skipped += 1
            return
        stats.calls += 1
        stats.total_ms += ms
        stats.input_tokens += tokens_in or 0
        stats.output_tokens += tokens_out or 0
        if outcome == "answered":
            stats.answered += 1
        else:
            stats.failures += 1

    def log_rows(self) -> list[dict[str, Any]]:
        """The attempt log as plain dicts (for `pandas.DataFrame(router.log_rows())`)."""
        return [asdict(attempt) for attempt in self.log]

    def stats_rows(self) -> list[dict[str, Any]]:
        """The per-provider totals as plain dicts, in chain order."""
        return [{"provider": name, **asdict(stats)} for name, stats in self.stats.items()]

    def __repr__(self) -> str:
        chain = ", ".join(p.name for p in self.providers)
        return f"LLMRouter([{chain}])"


def _why(name: str, error: LLMError) -> str:
    """'Gemini hit its rate limit (retry in 6m56s)' and the like."""
    if isinstance(error, RateLimited):
        if isinstance(error, CoolingDown):
            wait = format_wait(error.retry_after or 0)
            return f"{name} was cooling down after a rate limit (retry in {wait})"
        wait = "" if error.retry_after is None else f" (retry in {format_wait(error.retry_after)})"
        return f"{name} hit its rate limit{wait}"
    if isinstance(error, Unavailable):
        return f"{name} was unavailable ({error.reason})"
    if isinstance(error, BadResponse):
        return f"{name} gave a bad response ({error.reason})"
    return f"{name} failed ({error.reason})"


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def route_sentence(answered_by: str | None, failures: list[tuple[str, LLMError]]) -> str:
    """One line saying who answered and what happened before.

    >>> route_sentence("Groq-120b", [("Gemini", RateLimited(retry_after=416))])
    'answered by Groq-120b after Gemini hit its rate limit (retry in 6m56s)'
    """
    reasons = [_why(name, error) for name, error in failures]
    if answered_by is None:
        return "no provider answered: " + _join(reasons) if reasons else "no provider to ask"
    return f"answered by {answered_by}" + (f" after {_join(reasons)}" if reasons else "")
