"""Pick a provider by name: `make_llm("groq")`, or `auto` for the router over every key you set.

Introduced in notebook 07 (the router); notebook 05's agent and `python -m course ask
--provider NAME` use it from the start. The name comes from the argument, else COURSE_LLM, else "auto":

- auto: an `LLMRouter` over every provider whose key is set, in the course text's order
  (Gemini, Groq-120b, the smaller Groq model, Mistral, OpenRouter); with no key at all,
  the offline provider (rule-based, no LLM service).
- gemini, groq, groq-small, mistral, openrouter, ollama, offline: that one provider.

>>> provider_names()
['auto', 'gemini', 'groq', 'groq-small', 'mistral', 'openrouter', 'ollama', 'offline']
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from course.foundation.config import get_key, get_setting, mask
from course.llm.base import LLM
from course.llm.errors import UnknownProvider
from course.llm.gemini import GEMINI_MODEL, GeminiLLM
from course.llm.groq import GROQ_MODEL, GROQ_SMALL_MODEL, GroqLLM, groq_name
from course.llm.offline import OfflineLLM
from course.llm.openai_compat import (MISTRAL_MODEL, MISTRAL_URL, OLLAMA_MODEL, OPENROUTER_MODEL,
                                      OPENROUTER_URL, ChatCompletionsLLM, OpenAICompatLLM,
                                      ollama_base_url)
from course.llm.router import LLMRouter


@dataclass(frozen=True)
class ProviderSpec:
    """How to make one named provider, and what it needs."""

    name: str
    label: str                      # the provider's own name in the router, e.g. "Gemini"
    make: Callable[[], LLM]
    key_variable: str | None        # None: no key needed
    model_variable: str | None
    default_model: str
    endpoint_variable: str | None
    default_endpoint: str
    in_auto: bool


def _specs() -> list[ProviderSpec]:
    groq_model = get_setting("GROQ_MODEL", default=GROQ_MODEL) or GROQ_MODEL
    small_model = get_setting("GROQ_SMALL_MODEL", default=GROQ_SMALL_MODEL) or GROQ_SMALL_MODEL
    return [
        ProviderSpec("gemini", "Gemini", GeminiLLM, "GEMINI_API_KEY", "GEMINI_MODEL",
                     GEMINI_MODEL, "GOOGLE_GEMINI_BASE_URL", "Google's default", True),
        ProviderSpec("groq", groq_name(groq_model), GroqLLM, "GROQ_API_KEY", "GROQ_MODEL",
                     GROQ_MODEL, "GROQ_BASE_URL", "Groq's default", True),
        ProviderSpec("groq-small", groq_name(small_model), GroqLLM.small, "GROQ_API_KEY",
                     "GROQ_SMALL_MODEL", GROQ_SMALL_MODEL, "GROQ_BASE_URL", "Groq's default", True),
        ProviderSpec("mistral", "Mistral", OpenAICompatLLM.mistral, "MISTRAL_API_KEY",
                     "MISTRAL_MODEL", MISTRAL_MODEL, "MISTRAL_BASE_URL", MISTRAL_URL, True),
        ProviderSpec("openrouter", "OpenRouter", OpenAICompatLLM.openrouter, "OPENROUTER_API_KEY",
                     "OPENROUTER_MODEL", OPENROUTER_MODEL, "OPENROUTER_BASE_URL", OPENROUTER_URL, True),
        ProviderSpec("ollama", "Ollama", OpenAICompatLLM.ollama, None, "OLLAMA_MODEL",
                     OLLAMA_MODEL, "OLLAMA_HOST", ollama_base_url(None), False),
        ProviderSpec("offline", "Offline", OfflineLLM, None, None, "rules", None, "", False),
    ]


def provider_names() -> list[str]:
    """Every name `make_llm` accepts, "auto" first."""
    return ["auto"] + [spec.name for spec in _specs()]


def chosen_name(name: str | None = None) -> str:
    """The provider name in force: the argument, else COURSE_LLM, else "auto" (lower case)."""
    return (get_setting("COURSE_LLM", value=name, default="auto") or "auto").strip().lower()


def make_llm(name: str | None = None) -> LLM:
    """The provider called `name` (argument > COURSE_LLM > "auto"), ready to `.complete()`.

    >>> make_llm("offline").name
    'Offline'
    """
    chosen = chosen_name(name)
    specs = {spec.name: spec for spec in _specs()}
    if chosen == "auto":
        return _auto(list(specs.values()))
    if chosen not in specs:
        raise UnknownProvider(chosen, provider_names())
    return specs[chosen].make()


def _auto(specs: list[ProviderSpec]) -> LLM:
    """The router over every provider with a key; the offline provider when there is none."""
    providers = [spec.make() for spec in specs
                 if spec.in_auto and spec.key_variable and get_key(spec.key_variable)]
    return LLMRouter(providers) if providers else OfflineLLM()


def describe_providers() -> list[dict[str, Any]]:
    """One row per named provider: its key (masked), model and endpoint, and whether auto uses it."""
    rows = []
    for spec in _specs():
        key = get_key(spec.key_variable) if spec.key_variable else None
        rows.append({
            "name": spec.name,
            "provider": spec.label,
            "key_variable": spec.key_variable or "-",
            "key": mask(key) if spec.key_variable else "not needed",
            "model": get_setting(spec.model_variable, default=spec.default_model)
            if spec.model_variable else spec.default_model,
            "endpoint": _endpoint(spec),
            "in_auto": bool(spec.in_auto and key),
        })
    return rows


def _endpoint(spec: ProviderSpec) -> str:
    if spec.endpoint_variable is None:
        return "this machine" if spec.name == "offline" else ""
    value = get_setting(spec.endpoint_variable)
    if spec.name == "ollama":
        return ollama_base_url(value)
    return value or spec.default_endpoint


def describe_llm(llm: LLM) -> str:
    """One sentence on what `make_llm()` gave you: real services, or the offline provider.

    >>> from course.llm.scripted import ScriptedLLM
    >>> describe_llm(LLMRouter([ScriptedLLM([], name="Gemini"), ScriptedLLM([], name="Groq-120b")]))
    'the router over Gemini -> Groq-120b'
    """
    if isinstance(llm, OfflineLLM):
        return "the offline provider: rule-based, no LLM service is called (set a key to use one)"
    real = (GeminiLLM, ChatCompletionsLLM)
    if isinstance(llm, LLMRouter):
        chain = "the router over " + " -> ".join(p.name for p in llm.providers)
        live = llm.providers and all(isinstance(p, real) for p in llm.providers)
        return chain + (", real LLM services called with your keys" if live else "")
    return f"{llm.name} ({llm.model})" + (", a real LLM service" if isinstance(llm, real) else "")
