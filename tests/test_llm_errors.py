"""The LLM error hierarchy: waits read from headers and messages, messages that say what to do."""
from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from course.foundation.errors import CourseError
from course.llm.errors import (AllProvidersFailed, BadResponse, LLMError, MissingKey,
                               NoProviderConfigured, RateLimited, Unavailable, UnknownProvider,
                               format_wait, parse_duration, parse_retry_after, redact, shorten)


@pytest.mark.parametrize("text, seconds", [
    ("6m56s", 416.0), ("46s", 46.0), ("46.73s", 46.73), ("1h2m3s", 3723.0), ("2m", 120.0),
    ("250ms", 0.25), ("1m30.5s", 90.5), ("7.2s.", 7.2),
])
def test_parse_duration(text, seconds):
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["", "soon", "6 minutes", "m", "-3s"])
def test_parse_duration_refuses_what_is_not_a_duration(text):
    assert parse_duration(text) is None


@pytest.mark.parametrize("headers, message, expected", [
    ({"retry-after": "30"}, "", 30.0),
    ({"Retry-After": "2.5"}, "try again in 9s", 2.5),                  # the header wins
    ({"retry-after-ms": "1500"}, "", 1.5),
    ({}, "Limit 200000, Used 198126, Requested 2838. Please try again in 6m56s.", 416.0),
    ({}, "Quota exceeded. Please retry in 46.73s.", 46.73),
    ({}, "Rate limit reached for requests per minute.", None),
    ({"retry-after": "whenever"}, "", None),
])
def test_parse_retry_after(headers, message, expected):
    assert parse_retry_after(headers, message) == (None if expected is None else pytest.approx(expected))


def test_parse_retry_after_http_date():
    later = datetime.now(timezone.utc) + timedelta(seconds=120)
    wait = parse_retry_after({"Retry-After": format_datetime(later, usegmt=True)})
    assert 115 <= wait <= 120


def test_parse_retry_after_gemini_retry_delay():
    assert parse_retry_after({}, "quota", retry_delay="17s") == 17.0


@pytest.mark.parametrize("seconds, text", [(416, "6m56s"), (60, "1m"), (3600, "1h"), (0.2, "1s"),
                                           (46.2, "47s"), (3723, "1h2m3s")])
def test_format_wait(seconds, text):
    assert format_wait(seconds) == text


@given(st.floats(min_value=0.001, max_value=10**6))
def test_format_wait_round_trips_to_whole_seconds(seconds):
    assert parse_duration(format_wait(seconds)) == max(1, math.ceil(seconds))


def test_rate_limited_reads_the_wait_from_its_message():
    error = RateLimited("Error code: 429 - Rate limit reached ... Please try again in 6m56s.")
    assert error.retry_after == 416.0
    assert RateLimited("Too many requests").retry_after is None
    assert str(RateLimited(retry_after=90)) == "rate limit reached (retry in 1m30s)"


def test_missing_key_names_the_variable_and_where_to_put_it():
    error = MissingKey("MISTRAL_API_KEY", provider="Mistral")
    assert error.variable == "MISTRAL_API_KEY" and error.provider == "Mistral"
    assert str(error) == ("MISTRAL_API_KEY is not set: put it in .env (see .env.example) "
                          "or export it in your shell.")


def test_no_provider_configured_says_what_to_set():
    message = str(NoProviderConfigured())
    for variable in ("GEMINI_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY",
                     "COURSE_LLM", ".env.example"):
        assert variable in message


def test_all_providers_failed_lists_each_one_per_line():
    error = AllProvidersFailed([("Gemini", RateLimited(retry_after=416)),
                                ("Groq-120b", Unavailable("HTTP 503: Service Unavailable")),
                                ("Mistral", BadResponse("the answer was empty\n(details)"))])
    assert str(error).splitlines() == ["All 3 LLM providers failed:",
                                       "  Gemini: rate limit reached (retry in 6m56s)",
                                       "  Groq-120b: HTTP 503: Service Unavailable",
                                       "  Mistral: the answer was empty"]
    assert str(AllProvidersFailed([("Ollama", Unavailable("refused"))])).startswith(
        "The only LLM provider failed:")


def test_a_rate_limit_line_says_when_to_retry():
    error = AllProvidersFailed([("Gemini", RateLimited("Quota exceeded for requests per day.", retry_after=3600)),
                                ("Groq-120b", RateLimited("Limit 200000. Please try again in 6m56s.")),
                                ("Mistral", RateLimited("Too many requests"))])
    assert str(error).splitlines()[1:] == [
        "  Gemini: Quota exceeded for requests per day. (retry in 1h)",
        "  Groq-120b: Limit 200000. Please try again in 6m56s.",
        "  Mistral: Too many requests"]


def test_unknown_provider_lists_the_valid_names():
    message = str(UnknownProvider("watson", ["auto", "gemini", "groq"]))
    assert "'watson'" in message and "auto, gemini, groq" in message and "COURSE_LLM" in message


@pytest.mark.parametrize("cls", [LLMError, RateLimited, Unavailable, BadResponse, MissingKey,
                                 NoProviderConfigured, AllProvidersFailed, UnknownProvider])
def test_every_llm_error_is_a_course_error(cls):
    assert issubclass(cls, LLMError) and issubclass(cls, CourseError)


@pytest.mark.parametrize("text, expected", [
    ("Invalid API Key gsk_FAKE_KEY_DO_NOT_LEAK_1234!", "Invalid API Key [redacted]!"),
    ("Incorrect API key provided: sk-proj-abc123**********wxyz.", "Incorrect API key provided: [redacted]."),
    ("API key not valid: AIzaSyA1234567890abcdef", "API key not valid: [redacted]"),
    ("the secret hunter2-long is here", "the secret [redacted] is here"),
    ("Rate limit reached for model `openai/gpt-oss-120b`", "Rate limit reached for model `openai/gpt-oss-120b`"),
])
def test_redact(text, expected):
    assert redact(text, ["hunter2-long"]) == expected


def test_shorten_keeps_one_line():
    assert shorten("line one\nline two") == "line one line two"
    assert len(shorten("x" * 1000, 50)) == 50
