"""LLM providers and the fallback router (notebook 07).

One interface (`LLM.complete(prompt, *, system=None) -> Completion`), one provider per
service, a replaying `ScriptedLLM` for failures on cue, and `LLMRouter`, which falls back
across providers when one is rate limited. `make_llm()` picks by name or COURSE_LLM.

>>> from course.llm import ScriptedLLM
>>> ScriptedLLM(["RETURN 1"]).complete("anything").text
'RETURN 1'
"""
from course.llm.base import LLM, Completion, Usage
from course.llm.errors import (AllProvidersFailed, BadResponse, LLMError, MissingKey, ModelNotFound,
                               NoProviderConfigured, RateLimited, Unavailable, UnknownProvider)
from course.llm.gemini import GeminiLLM
from course.llm.groq import GroqLLM
from course.llm.openai_compat import OpenAICompatLLM
from course.llm.registry import describe_llm, describe_providers, make_llm, provider_names
from course.llm.router import LLMRouter
from course.llm.scripted import ScriptedLLM

__all__ = [
    "LLM", "Completion", "Usage",
    "LLMError", "RateLimited", "Unavailable", "BadResponse", "MissingKey", "ModelNotFound",
    "NoProviderConfigured", "AllProvidersFailed", "UnknownProvider",
    "GeminiLLM", "GroqLLM", "OpenAICompatLLM", "LLMRouter", "ScriptedLLM",
    "make_llm", "provider_names", "describe_providers", "describe_llm",
]
