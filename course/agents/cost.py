"""What a question cost: its steps' tokens priced from a dated table (data/llm/prices.yaml).

Introduced in notebook 11, where a paid provider's tool loop reports `cost_usd`; a model
missing from the table, or one that reports no tokens (the offline provider), costs None:
unknown, not free.

>>> load_prices()["models"]["openai/gpt-oss-120b"]["input"]
0.15
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from course.foundation.config import PROJECT_ROOT
from course.pipeline.results import Step

PRICES_FILE = PROJECT_ROOT / "data" / "llm" / "prices.yaml"


@lru_cache(maxsize=4)
def load_prices(path: Path = PRICES_FILE) -> dict[str, Any]:
    """The dated price table: {as_of, models: {model: {input, output, source}}}."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def add_up(result: Any, steps: Sequence[Step]) -> None:
    """A result's steps, provider (the last step's), tokens and cost from its steps: the one
    place the tool loop and the agentic agent total what a question cost.

    >>> from course.pipeline.results import Result
    >>> result = Result("Who is Payal?")
    >>> add_up(result, [Step(1, "", [], "Groq-120b", "openai/gpt-oss-120b", 1_000_000, 0, 0.0, 0.0)])
    >>> result.provider, result.input_tokens, result.cost_usd
    ('Groq-120b', 1000000, 0.15)
    """
    result.steps = list(steps)
    result.provider = steps[-1].provider if steps else None
    result.input_tokens = sum(s.input_tokens or 0 for s in steps)
    result.output_tokens = sum(s.output_tokens or 0 for s in steps)
    result.cost_usd = cost_usd(steps)


def cost_usd(steps: Sequence[Step], prices: dict[str, Any] | None = None) -> float | None:
    """Dollars for the steps' tokens; None when a model is not in the table or reported no tokens.

    >>> step = Step(1, "", [], "Groq-120b", "openai/gpt-oss-120b", 1_000_000, 0, 0.0, 0.0)
    >>> cost_usd([step])
    0.15
    """
    table = (prices or load_prices())["models"]
    total = 0.0
    for step in steps:
        price = table.get(step.model)
        if price is None or step.input_tokens is None or step.output_tokens is None:
            return None
        total += (step.input_tokens * price["input"] + step.output_tokens * price["output"]) / 1e6
    return round(total, 8)
