"""Choosing a provider: make_llm by name, COURSE_LLM, `auto` from the keys that are set."""
from __future__ import annotations

import pytest

from course.foundation.config import _dotenv
from course.llm import (LLM, Completion, GeminiLLM, GroqLLM, LLMError, LLMRouter, MissingKey,
                        NoProviderConfigured, OpenAICompatLLM, ScriptedLLM, UnknownProvider, Usage,
                        describe_llm, describe_providers, make_llm, provider_names)
from course.llm.offline import OfflineLLM
from course.llm.openai_compat import ollama_base_url
from fake_llm_server import FAKE_KEY, llm_settings_cleared  # noqa: F401

ALL_NAMES = ["auto", "gemini", "groq", "groq-small", "mistral", "openrouter", "ollama", "offline"]


@pytest.fixture(autouse=True)
def _clean(llm_settings_cleared):
    """No LLM settings from outside (conftest clears the keys; this clears models and timeouts)."""


def set_keys(monkeypatch, *variables):
    for variable in variables:
        monkeypatch.setenv(variable, FAKE_KEY)


def test_provider_names():
    assert provider_names() == ALL_NAMES


def test_unknown_name_lists_the_valid_ones():
    with pytest.raises(UnknownProvider) as caught:
        make_llm("watson")
    for name in ALL_NAMES:
        assert name in str(caught.value)


@pytest.mark.parametrize("name, cls, label", [
    ("gemini", GeminiLLM, "Gemini"), ("groq", GroqLLM, "Groq-120b"), ("groq-small", GroqLLM, "Groq-20b"),
    ("mistral", OpenAICompatLLM, "Mistral"), ("openrouter", OpenAICompatLLM, "OpenRouter"),
])
def test_each_name_makes_its_provider(monkeypatch, name, cls, label):
    set_keys(monkeypatch, "GEMINI_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY")
    llm = make_llm(name)
    assert isinstance(llm, cls) and llm.name == label
    assert FAKE_KEY not in repr(llm)


@pytest.mark.parametrize("name, variable", [("gemini", "GEMINI_API_KEY"), ("groq", "GROQ_API_KEY"),
                                            ("groq-small", "GROQ_API_KEY"), ("mistral", "MISTRAL_API_KEY"),
                                            ("openrouter", "OPENROUTER_API_KEY")])
def test_a_named_provider_without_its_key(name, variable):
    with pytest.raises(MissingKey, match=variable):
        make_llm(name)


def test_ollama_needs_no_key():
    llm = make_llm("ollama")
    assert (llm.name, llm.model, llm.base_url) == ("Ollama", "llama3.2", "http://localhost:11434/v1")


def test_course_llm_picks_and_the_argument_wins(monkeypatch):
    set_keys(monkeypatch, "GROQ_API_KEY", "GEMINI_API_KEY")
    monkeypatch.setenv("COURSE_LLM", "Groq")
    assert make_llm().name == "Groq-120b"
    assert make_llm("gemini").name == "Gemini"


def test_course_llm_from_dotenv(tmp_path):
    (tmp_path / ".env").write_text(f"COURSE_LLM=groq-small\nGROQ_API_KEY={FAKE_KEY}\n")
    _dotenv.cache_clear()
    assert make_llm().name == "Groq-20b"


def test_auto_chains_every_provider_with_a_key_in_the_course_order(monkeypatch):
    set_keys(monkeypatch, "OPENROUTER_API_KEY", "MISTRAL_API_KEY", "GROQ_API_KEY", "GEMINI_API_KEY")
    router = make_llm("auto")
    assert isinstance(router, LLMRouter)
    assert [p.name for p in router.providers] == ["Gemini", "Groq-120b", "Groq-20b", "Mistral", "OpenRouter"]
    assert describe_llm(router) == ("the router over Gemini -> Groq-120b -> Groq-20b -> Mistral -> "
                                    "OpenRouter, real LLM services called with your keys")


def test_auto_with_one_key(monkeypatch):
    set_keys(monkeypatch, "MISTRAL_API_KEY")
    assert [p.name for p in make_llm().providers] == ["Mistral"]


def test_auto_names_follow_the_groq_models(monkeypatch):
    set_keys(monkeypatch, "GROQ_API_KEY")
    monkeypatch.setenv("GROQ_SMALL_MODEL", "llama-3.1-8b-instant")
    assert [p.name for p in make_llm().providers] == ["Groq-120b", "Groq-8b"]


def test_auto_without_keys_uses_the_offline_provider():
    llm = make_llm()
    assert isinstance(llm, OfflineLLM)
    assert describe_llm(llm).startswith("the offline provider: rule-based")


def test_offline_by_name():
    assert isinstance(make_llm("offline"), OfflineLLM)


def test_describe_providers_masks_keys(monkeypatch):
    set_keys(monkeypatch, "GROQ_API_KEY")
    monkeypatch.setenv("MISTRAL_MODEL", "mistral-large-latest")
    rows = {row["name"]: row for row in describe_providers()}
    assert list(rows) == ALL_NAMES[1:]
    assert rows["groq"]["key"] == f"set ({len(FAKE_KEY)} characters)"
    assert rows["groq"]["in_auto"] and rows["groq-small"]["in_auto"]
    assert rows["gemini"]["key"] == "not set" and not rows["gemini"]["in_auto"]
    assert rows["ollama"]["key"] == "not needed" and not rows["ollama"]["in_auto"]
    assert rows["mistral"]["model"] == "mistral-large-latest"
    assert rows["groq"]["provider"] == "Groq-120b"
    assert FAKE_KEY not in str(rows)


def test_describe_providers_shows_endpoint_variables(monkeypatch):
    monkeypatch.setenv("OLLAMA_HOST", "gpu-box:9999")
    monkeypatch.setenv("GROQ_BASE_URL", "http://127.0.0.1:8080")
    rows = {row["name"]: row for row in describe_providers()}
    assert rows["ollama"]["endpoint"] == "http://gpu-box:9999/v1"
    assert rows["groq"]["endpoint"] == "http://127.0.0.1:8080"
    assert rows["mistral"]["endpoint"] == "https://api.mistral.ai/v1"


@pytest.mark.parametrize("host, url", [
    (None, "http://localhost:11434/v1"), ("127.0.0.1:11434", "http://127.0.0.1:11434/v1"),
    ("http://gpu-box", "http://gpu-box:11434/v1"), ("https://ollama.example.org", "https://ollama.example.org/v1"),
    ("http://localhost:11434/", "http://localhost:11434/v1"), ("http://h:1/v1", "http://h:1/v1"),
])
def test_ollama_base_url(host, url):
    assert ollama_base_url(host) == url


def test_describe_llm_for_a_single_provider(monkeypatch):
    assert describe_llm(ScriptedLLM([], name="Groq-120b", model="openai/gpt-oss-120b")) == \
        "Groq-120b (openai/gpt-oss-120b)"
    set_keys(monkeypatch, "GROQ_API_KEY")
    assert describe_llm(make_llm("groq")) == "Groq-120b (openai/gpt-oss-120b), a real LLM service"
    assert describe_llm(LLMRouter([ScriptedLLM([], name="A")])) == "the router over A"
