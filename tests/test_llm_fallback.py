"""The router over the real SDKs, against the local server: fallback under each fault, no leaks."""
from __future__ import annotations

import logging
import time
import traceback

import pytest

from course.llm import (AllProvidersFailed, GeminiLLM, GroqLLM, LLMRouter, OpenAICompatLLM,
                        describe_providers, make_llm)
from course.llm.router import ManualClock as Clock
from fake_llm_server import (FAKE_KEY, auth_error, chat_answer, chat_rate_limited,  # noqa: F401
                             fake_server, gemini_answer, gemini_rate_limited, llm_settings_cleared,
                             not_json, server_error, slow)


def real_chain(clock, *, timeout: float = 5.0) -> LLMRouter:
    return LLMRouter([GeminiLLM(timeout=timeout), GroqLLM(timeout=timeout),
                      OpenAICompatLLM.mistral(timeout=timeout)], clock=clock)


def test_long_rate_limit_moves_on_at_once(fake_server):
    """Gemini says wait 6m56s: the router asks Groq straight away instead of waiting."""
    clock = Clock()
    router = real_chain(clock)
    fake_server.script("gemini", gemini_rate_limited(retry_delay="416s"))
    fake_server.script("groq", chat_answer("MATCH (s:Student) RETURN s.name"),
                       chat_answer("RETURN 2"))
    started = time.perf_counter()
    completion = router.complete("Who studies DBMS?")
    assert time.perf_counter() - started < 5.0  # nowhere near the 416 s asked for
    assert completion.provider == "Groq-120b"
    assert completion.usage.input_tokens == 120
    assert router.last_route == "answered by Groq-120b after Gemini hit its rate limit (retry in 6m56s)"
    clock.advance(minutes=1)
    assert router.complete("again").provider == "Groq-120b"
    assert len(fake_server.calls("gemini")) == 1  # still cooling down: not asked


def test_groq_long_retry_after_header(fake_server):
    router = LLMRouter([GroqLLM(), GroqLLM.small(), OpenAICompatLLM.mistral()], clock=Clock())
    fake_server.script("groq", chat_rate_limited(retry_after="416"), chat_answer("from the small model"))
    started = time.perf_counter()
    completion = router.complete("q")
    assert time.perf_counter() - started < 5.0  # nowhere near the 416 s asked for
    assert completion.provider == "Groq-20b"
    assert router.exhausted == {"Groq-120b": 416.0}


def test_rate_limit_without_wait_cools_down_for_the_default(fake_server):
    clock = Clock()
    router = real_chain(clock)
    fake_server.script("gemini", gemini_rate_limited(retry_delay=None), gemini_answer("gemini is back"))
    fake_server.script("groq", chat_answer("groq answers"))
    assert router.complete("q1").provider == "Groq-120b"
    assert router.exhausted == {"Gemini": 60.0}
    clock.advance(61)
    assert router.complete("q2").text == "gemini is back"


def test_outage_and_bad_body_move_on(fake_server):
    router = real_chain(Clock())
    fake_server.script("gemini", server_error(503, api="gemini"))
    fake_server.script("groq", not_json())
    fake_server.script("openai", chat_answer("mistral answers"))
    completion = router.complete("q")
    assert completion.provider == "Mistral"
    assert router.last_route.startswith("answered by Mistral after Gemini was unavailable (HTTP 503")
    assert "Groq-120b gave a bad response (the reply was not JSON" in router.last_route
    assert router.exhausted == {}


def test_every_provider_down_gives_one_clear_error(fake_server):
    router = real_chain(Clock(), timeout=0.3)
    fake_server.script("gemini", server_error(500, api="gemini"))
    fake_server.script("groq", slow(chat_answer("too late"), 1.2))
    fake_server.script("openai", chat_answer(""))
    with pytest.raises(AllProvidersFailed) as caught:
        router.complete("q")
    lines = str(caught.value).splitlines()
    assert lines[0] == "All 3 LLM providers failed:"
    assert lines[1].startswith("  Gemini: HTTP 500 INTERNAL")
    assert lines[2] == "  Groq-120b: no answer within 0.3 s (timed out)"
    assert lines[3].startswith("  Mistral: the answer was empty")


def test_auto_builds_the_chain_from_the_keys_and_answers(fake_server, monkeypatch):
    monkeypatch.delenv("OPENROUTER_API_KEY")
    router = make_llm()
    assert [p.name for p in router.providers] == ["Gemini", "Groq-120b", "Groq-20b", "Mistral"]
    fake_server.script("gemini", gemini_answer("RETURN 'auto'"))
    assert router.complete("q").text == "RETURN 'auto'"


def test_the_fake_key_never_leaks(fake_server, caplog, capsys):
    """Through every fault, the key is in no message, repr, log line, traceback or table."""
    caplog.set_level(logging.DEBUG)
    router = real_chain(Clock(), timeout=0.3)
    shown: list[str] = [repr(router), *map(repr, router.providers), str(describe_providers())]
    echo = f"Incorrect API key provided: {FAKE_KEY}. You can find your API key at ..."
    fake_server.script("gemini", auth_error(echo, api="gemini"), gemini_rate_limited(retry_delay="5s"))
    fake_server.script("groq", chat_rate_limited(message=f"limit for key {FAKE_KEY}, try again in 2s"),
                       slow(chat_answer("late"), 1.0))
    fake_server.script("openai", auth_error(echo), not_json(), server_error(502))
    for _ in range(3):
        try:
            router.complete("q")
        except AllProvidersFailed as exc:
            shown += [str(exc), repr(exc), "".join(traceback.format_exception(exc))]
            shown += [f"{name}: {error!r} {error.args}" for name, error in exc.failures]
        shown.append(router.last_route)
    shown += [str(router.log_rows()), str(router.stats_rows())]
    print(router.last_route, router.log_rows())
    captured = capsys.readouterr()
    shown += [captured.out, captured.err, caplog.text]
    assert len(fake_server.received) >= 6  # the faults really happened
    assert all(r.headers.get("Authorization", r.headers.get("x-goog-api-key", "")).endswith(FAKE_KEY)
               or r.headers.get("authorization", "").endswith(FAKE_KEY) for r in fake_server.received)
    for text in shown:
        assert FAKE_KEY not in text
        assert "FAKE_KEY_DO_NOT_LEAK" not in text
