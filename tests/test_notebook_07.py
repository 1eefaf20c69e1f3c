"""Notebook 07 (router): the chain broken on cue, minute by minute, as the notebook plays it.

The providers are `ScriptedLLM`s (mocks of models, replaying answers and errors) and the
clock is a `ManualClock`, so minutes of cool-down pass in no time.
"""
from __future__ import annotations

import pytest

from course.llm import AllProvidersFailed, BadResponse, LLMRouter, RateLimited, ScriptedLLM, Unavailable
from course.llm.router import ManualClock

GROQ_TPD = RateLimited(
    "Error code: 429 - Rate limit reached for model `openai/gpt-oss-120b` in organization ... "
    "tokens per day (TPD): Limit 200000, Used 198126, Requested 2838. Please try again in 6m56s.")


def test_the_chain_cools_down_moves_on_and_comes_back():
    gemini = ScriptedLLM(["payal", RateLimited("Quota exceeded for requests per minute.", retry_after=46),
                          "dbms", Unavailable("HTTP 503: The model is overloaded."),
                          RateLimited("Quota exceeded for requests per day.", retry_after=5 * 3600)],
                         name="Gemini")
    groq_120b = ScriptedLLM(["dbms", GROQ_TPD, "next"], name="Groq-120b")
    groq_20b = ScriptedLLM(["payal", "dbms", BadResponse("the answer was empty (only reasoning, no answer)")],
                           name="Groq-20b")
    mistral = ScriptedLLM([Unavailable("no answer within 30 s (timed out)")], name="Mistral")
    openrouter = ScriptedLLM([RateLimited("Rate limit exceeded: free-models-per-day.")], name="OpenRouter")
    clock = ManualClock()
    router = LLMRouter([gemini, groq_120b, groq_20b, mistral, openrouter], clock=clock)
    answered_by = []

    def ask(question):
        answered_by.append(router.complete(question).provider)

    ask("Who is Payal?")                                          # minute 0: Gemini answers
    clock.advance(minutes=1)
    ask("Who is the best person to teach me DBMS?")               # Gemini asks for 46 s
    assert router.exhausted == {"Gemini": 46.0}
    ask("Payal kis year mein hai?")                               # 6m56s read from the message
    assert router.exhausted["Groq-120b"] == 6 * 60 + 56
    assert gemini.prompts == ["Who is Payal?", "Who is the best person to teach me DBMS?"]
    clock.advance(minutes=1)
    ask("Who studies DBMS?")                                      # Gemini's wait is over
    assert answered_by[-1] == "Gemini" and "Groq-120b" in router.exhausted
    clock.advance(minutes=1)
    ask("Who studies DBMS?")                                      # a 503 is no cool-down
    assert "Gemini" not in router.exhausted
    clock.advance(minutes=1)
    with pytest.raises(AllProvidersFailed) as all_down:           # everything at once
        ask("Aarav ke next topics kya hain?")
    assert [name for name, _ in all_down.value.failures] == ["Gemini", "Groq-120b", "Groq-20b",
                                                             "Mistral", "OpenRouter"]
    assert router.exhausted["OpenRouter"] == router.default_cooldown == 60   # no wait given: 60 s
    clock.advance(minutes=7)
    ask("Aarav ke next topics kya hain?")                         # a cool-down, not a ban
    assert answered_by[-1] == "Groq-120b" and "Gemini" in router.exhausted
    answered_by.insert(5, "nobody")
    assert {p: answered_by.count(p) for p in set(answered_by)} == {
        "Gemini": 2, "Groq-20b": 2, "Groq-120b": 2, "nobody": 1}
    stats = {row["provider"]: row for row in router.stats_rows()}
    assert stats["Groq-120b"]["skipped"] == 2 and stats["Gemini"]["skipped"] == 2
    assert sum(row["outcome"] == "answered" for row in router.log_rows()) == 6
