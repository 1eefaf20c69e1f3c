"""Groq, on the `groq` SDK: openai/gpt-oss-120b by default, and a smaller model as its own entry.

Introduced in notebook 07 (the router). The course text's chain has two Groq entries,
"Groq-120b" and a smaller model, because each model has its own daily token budget:
when the big one says "Please try again in 6m56s", the small one may still answer.

The key comes from GROQ_API_KEY, the models from GROQ_MODEL and GROQ_SMALL_MODEL, and the
endpoint from GROQ_BASE_URL (the SDK's own variable) when it is set.

>>> GroqLLM(api_key="gsk_example").name
'Groq-120b'
"""
from __future__ import annotations

import re
from types import ModuleType

from course.foundation.config import get_key, get_setting
from course.llm.base import default_timeout
from course.llm.errors import MissingKey
from course.llm.openai_compat import ChatCompletionsLLM

GROQ_MODEL = "openai/gpt-oss-120b"
GROQ_SMALL_MODEL = "openai/gpt-oss-20b"


def groq_name(model: str) -> str:
    """A short router name from the model's size, as the course text writes it.

    >>> groq_name("openai/gpt-oss-120b"), groq_name("llama-3.1-8b-instant"), groq_name("whisper")
    ('Groq-120b', 'Groq-8b', 'Groq-whisper')
    """
    sizes = re.findall(r"(?<![a-z0-9.])(\d+(?:\.\d+)?b)\b", model.lower())
    return f"Groq-{sizes[-1]}" if sizes else f"Groq-{model.rsplit('/', 1)[-1]}"


class GroqLLM(ChatCompletionsLLM):
    """A Groq model. The SDK's retries are off and every call has a timeout."""

    key_variable = "GROQ_API_KEY"

    def __init__(self, *, model: str | None = None, api_key: str | None = None,
                 name: str | None = None, timeout: float | None = None,
                 temperature: float | None = 0.0, model_variable: str = "GROQ_MODEL",
                 default_model: str = GROQ_MODEL) -> None:
        from groq import Groq

        self.model = get_setting(model_variable, value=model, default=default_model) or default_model
        self.name = name or groq_name(self.model)
        key = get_key(self.key_variable, value=api_key)
        if not key:
            raise MissingKey(self.key_variable, provider=self.name)
        self.model_variable = model_variable
        self.timeout, self.temperature = default_timeout(timeout), temperature
        # base_url None lets the SDK use GROQ_BASE_URL or its own default.
        self._client = Groq(api_key=key, base_url=get_setting("GROQ_BASE_URL"),
                            timeout=self.timeout, max_retries=0)

    @classmethod
    def small(cls, *, model: str | None = None, api_key: str | None = None,
              name: str | None = None, timeout: float | None = None) -> GroqLLM:
        """The second, smaller Groq model (GROQ_SMALL_MODEL, default openai/gpt-oss-20b)."""
        return cls(model=model, api_key=api_key, name=name, timeout=timeout,
                   model_variable="GROQ_SMALL_MODEL", default_model=GROQ_SMALL_MODEL)

    def _sdk(self) -> ModuleType:
        import groq

        return groq
