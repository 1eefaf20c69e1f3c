"""The real SDKs (google-genai, groq, openai) against a local server that speaks their APIs.

Every fault the router has to survive, as the provider reports it: a good answer with
usage, 429 with and without a wait, 500, a timeout, a body that is not JSON, an empty or
cut-off answer, a refused connection, and reasoning that must not become the answer.
"""
from __future__ import annotations

import socket
import time

import pytest

from course.foundation.config import _dotenv
from course.llm import (BadResponse, GeminiLLM, GroqLLM, LLMError, MissingKey, OpenAICompatLLM,
                        RateLimited, Unavailable)
from fake_llm_server import (FAKE_KEY, auth_error, chat_answer, chat_rate_limited,  # noqa: F401
                             fake_server, gemini_answer, gemini_rate_limited, llm_settings_cleared,
                             model_not_found, not_json, server_error, slow)

KINDS = ["gemini", "groq", "mistral"]
API = {"gemini": "gemini", "groq": "groq", "mistral": "openai"}
TOKENS = {"gemini": (130, 16), "groq": (120, 14), "mistral": (120, 14)}


def make(kind: str, **options):
    """The provider of one kind, built the way a learner builds it."""
    if kind == "gemini":
        return GeminiLLM(**options)
    if kind == "groq":
        return GroqLLM(**options)
    return OpenAICompatLLM.mistral(**options)


def answer(kind: str, text: str | None, **options):
    return gemini_answer(text, **options) if kind == "gemini" else chat_answer(text, **options)


def rate_limited(kind: str, wait: str | None):
    """A 429 in the kind's own shape; `wait` in seconds as text, or None for no wait at all."""
    if kind == "gemini":
        return gemini_rate_limited(retry_delay=None if wait is None else f"{wait}s")
    if wait is None:
        return chat_rate_limited(message="Rate limit reached for requests per minute.")
    return chat_rate_limited(retry_after=wait)


@pytest.mark.parametrize("kind", KINDS)
def test_good_answer_with_usage(fake_server, kind):
    fake_server.script(API[kind], answer(kind, "MATCH (s:Student) RETURN s.name"))
    llm = make(kind)
    completion = llm.complete("Who studies DBMS?", system="Return only Cypher.")
    assert completion.text == "MATCH (s:Student) RETURN s.name"
    assert completion.provider == llm.name
    assert completion.model == llm.model
    assert (completion.usage.input_tokens, completion.usage.output_tokens) == TOKENS[kind]
    assert completion.usage.latency_ms > 0
    [request] = fake_server.calls(API[kind])
    assert llm.model in request.path or request.body.get("model") == llm.model
    assert "Who studies DBMS?" in str(request.body)
    assert "Return only Cypher." in str(request.body)


@pytest.mark.parametrize("kind", KINDS)
def test_default_models_and_names(fake_server, kind):
    llm = make(kind)
    expected = {"gemini": ("Gemini", "gemini-2.5-flash"), "groq": ("Groq-120b", "openai/gpt-oss-120b"),
                "mistral": ("Mistral", "mistral-small-latest")}
    assert (llm.name, llm.model) == expected[kind]


@pytest.mark.parametrize("kind, variable", [("gemini", "GEMINI_MODEL"), ("groq", "GROQ_MODEL"),
                                            ("mistral", "MISTRAL_MODEL")])
def test_model_from_environment_and_argument(fake_server, monkeypatch, kind, variable):
    monkeypatch.setenv(variable, "from-env-7b")
    assert make(kind).model == "from-env-7b"
    assert make(kind, model="from-arg").model == "from-arg"
    fake_server.script(API[kind], answer(kind, "RETURN 1"))
    make(kind).complete("hi")
    request = fake_server.calls(API[kind])[0]
    assert "from-env-7b" in request.path or request.body["model"] == "from-env-7b"


def test_groq_small_is_its_own_entry(fake_server):
    small = GroqLLM.small()
    assert (small.name, small.model) == ("Groq-20b", "openai/gpt-oss-20b")
    fake_server.script("groq", chat_answer("RETURN 2"))
    assert small.complete("hi").provider == "Groq-20b"
    assert fake_server.calls("groq")[0].body["model"] == "openai/gpt-oss-20b"


def test_reasoning_field_is_not_the_answer(fake_server):
    fake_server.script("groq", chat_answer("RETURN 1", reasoning="Let me think... DELETE everything?"))
    fake_server.script("openai", chat_answer("RETURN 1", reasoning="5. **Check against Rules:**"))
    assert GroqLLM().complete("q").text == "RETURN 1"
    assert OpenAICompatLLM.mistral().complete("q").text == "RETURN 1"


def test_gemini_thought_parts_are_not_the_answer(fake_server):
    fake_server.script("gemini", gemini_answer("RETURN 1", thought="Let me think...", thought_tokens=40))
    completion = GeminiLLM().complete("q")
    assert completion.text == "RETURN 1"
    assert completion.usage.output_tokens == 16 + 40  # thinking counts against the quota


@pytest.mark.parametrize("kind", KINDS)
def test_rate_limit_carries_the_wait(fake_server, kind):
    fake_server.script(API[kind], rate_limited(kind, "416"))
    with pytest.raises(RateLimited) as caught:
        make(kind).complete("q")
    assert caught.value.retry_after == 416
    assert "429" in str(caught.value)
    assert len(fake_server.calls(API[kind])) == 1  # the SDK did not retry by itself


def test_groq_wait_read_from_the_message(fake_server):
    """The course text's own 429: no header, the wait is in the sentence."""
    fake_server.script("groq", chat_rate_limited())
    with pytest.raises(RateLimited) as caught:
        GroqLLM().complete("q")
    assert caught.value.retry_after == 6 * 60 + 56
    assert "tokens per day (TPD): Limit 200000, Used 198126" in str(caught.value)


@pytest.mark.parametrize("kind", KINDS)
def test_rate_limit_without_a_wait(fake_server, kind):
    fake_server.script(API[kind], rate_limited(kind, None))
    with pytest.raises(RateLimited) as caught:
        make(kind).complete("q")
    assert caught.value.retry_after is None


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("status", [500, 503])
def test_server_error_is_unavailable(fake_server, kind, status):
    fake_server.script(API[kind], server_error(status, api=API[kind]))
    with pytest.raises(Unavailable, match=str(status)):
        make(kind).complete("q")
    assert len(fake_server.calls(API[kind])) == 1


@pytest.mark.parametrize("kind", KINDS)
def test_timeout_is_unavailable_and_quick(fake_server, kind):
    fake_server.script(API[kind], slow(answer(kind, "too late"), 1.2))
    started = time.perf_counter()
    with pytest.raises(Unavailable, match="timed out"):
        make(kind, timeout=0.3).complete("q")
    assert time.perf_counter() - started < 1.0


def test_timeout_from_environment(fake_server, monkeypatch):
    monkeypatch.setenv("COURSE_LLM_TIMEOUT", "0.3")
    assert GroqLLM().timeout == 0.3
    monkeypatch.setenv("COURSE_LLM_TIMEOUT", "soon")
    with pytest.raises(LLMError, match="COURSE_LLM_TIMEOUT"):
        GroqLLM()


@pytest.mark.parametrize("kind", KINDS)
def test_body_not_json_is_bad_response(fake_server, kind):
    fake_server.script(API[kind], not_json())
    with pytest.raises(BadResponse, match="not JSON"):
        make(kind).complete("q")


@pytest.mark.parametrize("kind", KINDS)
def test_empty_answer_is_bad_response(fake_server, kind):
    fake_server.script(API[kind], answer(kind, ""))
    with pytest.raises(BadResponse, match="empty"):
        make(kind).complete("q")


def test_only_reasoning_is_an_empty_answer(fake_server):
    fake_server.script("groq", chat_answer(None, reasoning="thinking and thinking"))
    with pytest.raises(BadResponse, match="only reasoning"):
        GroqLLM().complete("q")


@pytest.mark.parametrize("kind", KINDS)
def test_cut_off_answer_is_bad_response(fake_server, kind):
    reason = {"finish_reason": "MAX_TOKENS"} if kind == "gemini" else {"finish_reason": "length"}
    fake_server.script(API[kind], answer(kind, "MATCH (s:Student) WHERE s.na", **reason))
    with pytest.raises(BadResponse, match="cut off"):
        make(kind).complete("q")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("kind", KINDS)
def test_connection_refused_is_unavailable(fake_server, monkeypatch, kind):
    dead = f"http://127.0.0.1:{_closed_port()}"
    variable = {"gemini": "GOOGLE_GEMINI_BASE_URL", "groq": "GROQ_BASE_URL", "mistral": "MISTRAL_BASE_URL"}
    monkeypatch.setenv(variable[kind], dead + ("/v1" if kind == "mistral" else ""))
    with pytest.raises(Unavailable):
        make(kind, timeout=2).complete("q")


def test_ollama_needs_no_key_and_says_how_to_start_it(fake_server, monkeypatch):
    fake_server.script("openai", chat_answer("RETURN 3"))
    llm = OpenAICompatLLM.ollama()
    assert llm.complete("q").text == "RETURN 3"
    assert fake_server.calls("openai")[0].path == "/v1/chat/completions"
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{_closed_port()}")
    with pytest.raises(Unavailable, match="ollama serve"):
        OpenAICompatLLM.ollama(timeout=2).complete("q")


def test_openrouter_uses_its_endpoint_variable(fake_server):
    fake_server.script("openai", chat_answer("RETURN 4"))
    completion = OpenAICompatLLM.openrouter().complete("q")
    assert (completion.text, completion.provider) == ("RETURN 4", "OpenRouter")


@pytest.mark.parametrize("kind, variable", [("gemini", "GEMINI_API_KEY"), ("groq", "GROQ_API_KEY"),
                                            ("mistral", "MISTRAL_API_KEY")])
def test_missing_key_names_the_variable(fake_server, monkeypatch, kind, variable):
    monkeypatch.delenv(variable)
    with pytest.raises(MissingKey) as caught:
        make(kind)
    assert caught.value.variable == variable
    assert variable in str(caught.value) and ".env.example" in str(caught.value)


def test_key_and_endpoint_from_dotenv(fake_server, monkeypatch, tmp_path):
    monkeypatch.delenv("GROQ_API_KEY")
    endpoint = fake_server.url
    monkeypatch.delenv("GROQ_BASE_URL")
    (tmp_path / ".env").write_text(f"GROQ_API_KEY={FAKE_KEY}\nGROQ_BASE_URL={endpoint}\n")
    _dotenv.cache_clear()
    fake_server.script("groq", chat_answer("RETURN 5"))
    assert GroqLLM().complete("q").text == "RETURN 5"
    assert fake_server.calls("groq")[0].headers["Authorization"] == f"Bearer {FAKE_KEY}"


def test_key_argument_beats_environment(fake_server):
    fake_server.script("groq", chat_answer("RETURN 6"))
    GroqLLM(api_key="gsk_from_argument_000").complete("q")
    assert fake_server.calls("groq")[0].headers["Authorization"] == "Bearer gsk_from_argument_000"


@pytest.mark.parametrize("kind", KINDS)
def test_refused_key_message_is_redacted(fake_server, kind):
    fake_server.script(API[kind], auth_error(f"Invalid API Key: {FAKE_KEY}", api=API[kind]))
    with pytest.raises(LLMError) as caught:
        make(kind).complete("q")
    assert FAKE_KEY not in str(caught.value)
    assert "check" in str(caught.value) and "_API_KEY" in str(caught.value)


# --- a model the key cannot use (seed 001's "model name mystery") ----------------------------

MODEL_VARIABLE = {"gemini": "GEMINI_MODEL", "groq": "GROQ_MODEL", "mistral": "MISTRAL_MODEL"}


@pytest.mark.parametrize("kind", KINDS)
def test_a_model_the_key_cannot_use_names_the_models_it_can(fake_server, kind):
    from course.llm import ModelNotFound

    fake_server.models[API[kind]] = ["model-a", "model-b"]
    fake_server.script(API[kind], model_not_found(API[kind], "no-such-model"))
    with pytest.raises(ModelNotFound) as caught:
        make(kind, model="no-such-model").complete("Who is Payal?")
    message = str(caught.value)
    assert "no-such-model" in message and "model-a" in message and "model-b" in message
    assert MODEL_VARIABLE[kind] in message and "try again" not in message
    assert FAKE_KEY not in message


def test_the_agent_does_not_advise_waiting_for_a_missing_model(fake_server, college_db):
    from course.pipeline.agent import Agent

    fake_server.models["groq"] = ["llama-3.3-70b-versatile"]
    fake_server.script("groq", model_not_found("groq", "no-such-model"))
    result = Agent(college_db, GroqLLM(model="no-such-model")).answer("Who is Payal?")
    assert result.status == "failed" and "llama-3.3-70b-versatile" in result.error
    assert "try again in a minute" not in result.answer


def test_the_router_moves_on_past_a_missing_model(fake_server):
    from course.llm import LLMRouter

    fake_server.models["groq"] = ["llama-3.3-70b-versatile"]
    fake_server.script("groq", model_not_found("groq", "no-such-model"))
    fake_server.script("openai", chat_answer("RETURN 1"))
    router = LLMRouter([GroqLLM(model="no-such-model"), OpenAICompatLLM.mistral()])
    assert router.complete("Who is Payal?").text == "RETURN 1"
    assert router.log[0].outcome == "model not found"
