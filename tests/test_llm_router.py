"""LLMRouter's rules and ScriptedLLM's replay, with scripted providers and an injected clock."""
from __future__ import annotations

import time

import pytest

from course.foundation.errors import CourseError
from course.llm import (LLM, AllProvidersFailed, BadResponse, Completion, LLMError, LLMRouter,
                        RateLimited, ScriptedLLM, Unavailable, Usage)
from course.llm.scripted import ScriptExhausted


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Counted(LLM):
    """Always answers, reporting a fixed token usage."""

    def __init__(self, name: str, tokens: tuple[int, int]) -> None:
        self.name, self.model, self.tokens = name, f"{name.lower()}-model", tokens

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        return Completion(f"answer from {self.name}", self.name, self.model, Usage(*self.tokens, 12.5))


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture(autouse=True)
def no_sleeping(monkeypatch):
    """The router never sleeps: a call to time.sleep fails the test."""
    def forbidden(seconds):
        raise AssertionError(f"time.sleep({seconds}) was called")
    monkeypatch.setattr(time, "sleep", forbidden)


def chain(*providers, clock=None):
    return LLMRouter(list(providers), clock=clock or Clock())


# --- ScriptedLLM ----------------------------------------------------------------------

def test_scripted_replays_in_order_and_records_prompts():
    llm = ScriptedLLM(["first", Unavailable("HTTP 503"), "third"], name="Gemini")
    assert llm.complete("q1", system="rules").text == "first"
    with pytest.raises(Unavailable) as caught:
        llm.complete("q2")
    assert caught.value.provider == "Gemini"
    assert llm.complete("q3").provider == "Gemini"
    assert llm.prompts == ["q1", "q2", "q3"]
    assert llm.systems == ["rules", None, None]
    assert llm.remaining == 0


def test_scripted_says_clearly_when_it_runs_out():
    llm = ScriptedLLM(["only one"])
    llm.complete("q1")
    with pytest.raises(ScriptExhausted, match=r"given 1 and this is call 2.*\.add\("):
        llm.complete("q2")
    llm.add("another")
    assert llm.complete("q3").text == "another"


def test_scripted_generate_returns_the_text():
    assert ScriptedLLM(["RETURN 1"]).generate("q") == "RETURN 1"


# --- the chain ------------------------------------------------------------------------

def test_first_provider_answers_and_the_rest_are_not_asked():
    gemini, groq = ScriptedLLM(["from gemini"], name="Gemini"), ScriptedLLM([], name="Groq-120b")
    router = chain(gemini, groq)
    completion = router.complete("Who is Payal?", system="schema")
    assert (completion.text, completion.provider) == ("from gemini", "Gemini")
    assert router.last_route == "answered by Gemini"
    assert groq.prompts == []
    assert gemini.systems == ["schema"]


def test_router_is_an_llm():
    router = chain(ScriptedLLM(["x"], name="A"))
    assert isinstance(router, LLM) and router.name == "Router"
    assert router.generate("q") == "x"
    assert repr(router) == "LLMRouter([A])"


def test_rate_limit_moves_on_and_marks_the_provider(clock):
    gemini = ScriptedLLM([RateLimited("429 ... Please try again in 6m56s.")], name="Gemini")
    groq = ScriptedLLM(["one", "two"], name="Groq-120b")
    router = chain(gemini, groq, clock=clock)
    assert router.complete("q1").provider == "Groq-120b"
    assert router.last_route == "answered by Groq-120b after Gemini hit its rate limit (retry in 6m56s)"
    assert router.exhausted == {"Gemini": 416.0}
    clock.now += 100
    assert router.complete("q2").provider == "Groq-120b"
    assert gemini.prompts == ["q1"]  # not asked again while cooling down
    assert router.last_route == ("answered by Groq-120b after Gemini was cooling down "
                                 "after a rate limit (retry in 5m16s)")
    assert [a.outcome for a in router.log] == ["rate limited", "answered", "skipped", "answered"]


def test_cool_down_ends_when_the_wait_is_over(clock):
    gemini = ScriptedLLM([RateLimited(retry_after=30), "back again"], name="Gemini")
    router = chain(gemini, ScriptedLLM(["fallback", "fallback"], name="Mistral"), clock=clock)
    router.complete("q1")
    clock.now += 29.9
    assert router.complete("q2").provider == "Mistral"
    clock.now += 0.2
    assert router.complete("q3").provider == "Gemini"
    assert router.exhausted == {}


def test_rate_limit_without_a_wait_uses_the_default_cool_down(clock):
    gemini = ScriptedLLM([RateLimited(), "recovered"], name="Gemini")
    router = chain(gemini, ScriptedLLM(["x", "x"], name="Groq-120b"), clock=clock)
    router.complete("q1")
    assert router.last_route == "answered by Groq-120b after Gemini hit its rate limit"
    clock.now += 59
    assert router.complete("q2").provider == "Groq-120b"
    clock.now += 2
    assert router.complete("q3").provider == "Gemini"


def test_custom_default_cool_down(clock):
    router = LLMRouter([ScriptedLLM([RateLimited(), "ok"], name="A"), ScriptedLLM(["b"], name="B")],
                       clock=clock, default_cooldown=5)
    router.complete("q1")
    clock.now += 5.1
    assert router.complete("q2").provider == "A"


@pytest.mark.parametrize("error", [Unavailable("HTTP 503"), BadResponse("the answer was empty")])
def test_outage_or_bad_response_moves_on_without_marking(clock, error):
    gemini = ScriptedLLM([error, "gemini again"], name="Gemini")
    router = chain(gemini, ScriptedLLM(["groq"], name="Groq-120b"), clock=clock)
    assert router.complete("q1").provider == "Groq-120b"
    assert router.exhausted == {}
    assert router.complete("q2").provider == "Gemini"  # asked again at once


def test_reset_forgets_cool_downs(clock):
    router = chain(ScriptedLLM([RateLimited(retry_after=600), "ok"], name="A"),
                   ScriptedLLM(["b"], name="B"), clock=clock)
    router.complete("q1")
    router.reset()
    assert router.complete("q2").provider == "A"


def test_all_down_gives_one_error_listing_each_provider(clock):
    router = chain(ScriptedLLM([RateLimited(retry_after=416)], name="Gemini"),
                   ScriptedLLM([Unavailable("no answer within 30 s (timed out)")], name="Groq-120b"),
                   ScriptedLLM([BadResponse("the reply was not JSON: <html>")], name="Mistral"),
                   clock=clock)
    with pytest.raises(AllProvidersFailed) as caught:
        router.complete("q")
    message = str(caught.value)
    assert message.splitlines() == [
        "All 3 LLM providers failed:",
        "  Gemini: rate limit reached (retry in 6m56s)",
        "  Groq-120b: no answer within 30 s (timed out)",
        "  Mistral: the reply was not JSON: <html>",
    ]
    assert [name for name, _ in caught.value.failures] == ["Gemini", "Groq-120b", "Mistral"]
    assert isinstance(caught.value, CourseError)
    assert router.last_route.startswith("no provider answered: Gemini hit its rate limit")


def test_all_down_includes_providers_still_cooling_down(clock):
    router = chain(ScriptedLLM([RateLimited(retry_after=60)], name="A"),
                   ScriptedLLM(["b", Unavailable("HTTP 500")], name="B"), clock=clock)
    router.complete("q1")
    with pytest.raises(AllProvidersFailed) as caught:
        router.complete("q2")
    assert "A: rate limited earlier, cooling down (retry in 1m)" in str(caught.value)
    assert "B: HTTP 500" in str(caught.value)


def test_an_empty_chain_says_so():
    with pytest.raises(AllProvidersFailed, match="chain is empty"):
        LLMRouter([]).complete("q")


def test_a_bug_in_a_provider_is_not_swallowed():
    router = chain(ScriptedLLM([ZeroDivisionError("bug")], name="A"), ScriptedLLM(["b"], name="B"))
    with pytest.raises(ZeroDivisionError):
        router.complete("q")


def test_duplicate_names_are_refused():
    with pytest.raises(ValueError, match="'Groq-120b'"):
        LLMRouter([ScriptedLLM([], name="Groq-120b"), ScriptedLLM([], name="Groq-120b")])


def test_stats_and_log_count_calls_tokens_and_time(clock, monkeypatch):
    ticks = iter(range(0, 10_000, 250))   # a mock timer: each reading is 250 ms after the last
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) / 1000)
    flaky = ScriptedLLM([Unavailable("HTTP 502")], name="Flaky")
    router = chain(flaky, Counted("Steady", (100, 20)), clock=clock)
    router.complete("q1")
    router.complete("q2")  # Flaky has run out now: ScriptExhausted is an LLMError, so it moves on
    steady = router.stats["Steady"]
    assert (steady.calls, steady.answered, steady.failures) == (2, 2, 0)
    assert (steady.input_tokens, steady.output_tokens) == (200, 40)
    assert steady.total_ms == 500   # two calls, each timed from one reading to the next
    assert (router.stats["Flaky"].calls, router.stats["Flaky"].failures) == (2, 2)
    rows = router.log_rows()
    assert [(r["call"], r["provider"], r["outcome"]) for r in rows] == [
        (1, "Flaky", "unavailable"), (1, "Steady", "answered"),
        (2, "Flaky", "failed"), (2, "Steady", "answered")]
    assert rows[1]["input_tokens"] == 100 and rows[1]["detail"] == "steady-model"
    assert [r["provider"] for r in router.stats_rows()] == ["Flaky", "Steady"]
    assert router.model == "steady-model"


def test_errors_are_course_errors():
    for error in (RateLimited(), Unavailable("x"), BadResponse("x"), LLMError("x")):
        assert isinstance(error, CourseError)
