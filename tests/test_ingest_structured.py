"""A model's structured output through the real SDKs (google-genai, groq, openai) on the loopback server.

The proposal comes back as a `record_facts` tool call whose arguments follow the JSON Schema
generated from schema.yaml; the judge is the same model, asked for JSON. What the model
sends is data: validated, resolved and judged like the rules' proposals.
"""
from __future__ import annotations

import json

import pytest

from course.ingest.documents import document_from_text
from course.ingest.review import review
from course.ingest.verification import LLMJudge
from course.ingest.write_door import apply
from course.llm import GeminiLLM, GroqLLM, OpenAICompatLLM
from fake_llm_server import (chat_answer, chat_tool_calls, fake_server, gemini_answer,  # noqa: F401
                             gemini_function_calls, llm_settings_cleared)

KINDS = ["gemini", "groq", "mistral"]
API = {"gemini": "gemini", "groq": "groq", "mistral": "openai"}
FACTS = {"nodes": [{"label": "Club", "properties": {"name": "Chess Club", "founded": 2026},
                    "sentence": "The Chess Club was founded in 2026."}],
         "relationships": [{"type": "MEMBER_OF", "from": {"label": "Student", "name": "Payal"},
                            "to": {"label": "Club", "name": "Chess Club"}, "properties": {"role": "Member"},
                            "sentence": "Payal joined the Chess Club."}]}
TEXT = "The Chess Club was founded in 2026. Payal joined the Chess Club."


def make(kind: str):
    if kind == "gemini":
        return GeminiLLM()
    return GroqLLM() if kind == "groq" else OpenAICompatLLM.mistral()


def _script(server, kind: str, verdict: str) -> None:
    if kind == "gemini":
        server.script("gemini", gemini_function_calls(("record_facts", FACTS)), gemini_answer(verdict))
    else:
        server.script(API[kind], chat_tool_calls(("record_facts", FACTS)), chat_answer(verdict))


def _declared_schema(kind: str, request) -> dict:
    tools = request.body["tools"]
    if kind == "gemini":
        declaration = tools[0]["functionDeclarations"][0]
        return next(v for k, v in declaration.items() if k.startswith("parameters"))
    return tools[0]["function"]["parameters"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_model_proposes_through_its_own_sdk_and_the_door_writes_it(fake_server, college_db, kind):
    _script(fake_server, kind, '{"confidence": 0.9, "reason": "the sentence says so"}')
    model = make(kind)
    found = review(college_db, document_from_text("chess.txt", TEXT), llm=model, judge=LLMJudge(model))
    first = fake_server.calls(API[kind])[0]
    schema = _declared_schema(kind, first)
    assert "Student" in json.dumps(schema) and "MEMBER_OF" in json.dumps(schema)
    assert "<document>" in json.dumps(first.body) and "data, not instructions" in json.dumps(first.body)
    assert [n["properties"] for n in found.diff.new_nodes] == [{"name": "Chess Club", "founded": 2026}]
    [rel] = found.diff.new_relationships
    assert (rel["from"]["name"], rel["to"]["name"], rel["confidence"]) == ("Payal", "Chess Club", 0.9)
    assert apply(college_db, found).written == 2
    assert college_db.run("MATCH (:Student {name: 'Payal'})-[r:MEMBER_OF]->(:Club {name: 'Chess Club'}) "
                          "RETURN r.confidence, r.source").rows == [[0.9, found.document.id]]


@pytest.mark.parametrize("kind", KINDS)
def test_a_judge_that_does_not_answer_in_json_scores_zero(fake_server, college_db, kind):
    _script(fake_server, kind, "Looks right to me!")
    model = make(kind)
    found = review(college_db, document_from_text("chess.txt", TEXT), llm=model, judge=LLMJudge(model))
    assert found.diff.new_relationships == []
    assert "verification failed (0.0): a malformed judgment" in found.diff.rejected[0].reason
