"""The tool loop through the real SDKs (google-genai, groq, openai) against the loopback server.

Each API's own function-calling format, both ways: what the server sends (tool_calls with
JSON-string arguments, functionCall parts with a thought signature) and what the provider
sends back (role "tool" with tool_call_id, function_response parts, the model's content
unchanged). Every case runs on the real college graph through the one guarded door.
"""
from __future__ import annotations

import base64
import json

import pytest

from course.agents.tools import ToolAgent
from course.llm import GeminiLLM, GroqLLM, LLMRouter, OpenAICompatLLM
from fake_llm_server import (FAKE_KEY, THOUGHT_SIGNATURE, auth_error, chat_answer,  # noqa: F401
                             chat_rate_limited, chat_tool_calls, fake_server, gemini_answer,
                             gemini_function_calls, gemini_malformed_call, gemini_rate_limited,
                             groq_tool_use_failed, llm_settings_cleared)

KINDS = ["gemini", "groq", "mistral"]
API = {"gemini": "gemini", "groq": "groq", "mistral": "openai"}
YEAR = "MATCH (s:Student {name: 'Payal'}) RETURN s.year AS year"
BROKEN = "MATCH (s:Student {name: 'Payal'} RETURN s.year AS year"


def make(kind: str):
    if kind == "gemini":
        return GeminiLLM()
    return GroqLLM() if kind == "groq" else OpenAICompatLLM.mistral()


def calls(kind: str, *pairs, first_id: int = 1):
    """A turn calling tools, in the kind's own format."""
    if kind == "gemini":
        return gemini_function_calls(*pairs)
    return chat_tool_calls(*pairs, first_id=first_id)


def answer(kind: str, text: str):
    return gemini_answer(text) if kind == "gemini" else chat_answer(text)


def tool_results(kind: str, request) -> list[dict]:
    """The tool results a request sent back, as (name or id, parsed content) dicts."""
    if kind == "gemini":
        last = request.body["contents"][-1]
        return [{"name": p["functionResponse"]["name"], "content": p["functionResponse"]["response"]}
                for p in last["parts"] if "functionResponse" in p]
    results = []
    for m in request.body["messages"]:
        if m["role"] == "tool":
            results.append({"id": m["tool_call_id"], "content": json.loads(m["content"])})
    return results


@pytest.mark.parametrize("kind", KINDS)
def test_a_tool_call_then_an_answer(fake_server, college_db, kind):
    fake_server.script(API[kind], calls(kind, ("execute_cypher", {"query": YEAR})),
                       answer(kind, "Payal is in year 2."))
    result = ToolAgent(college_db, make(kind)).answer("What year is Payal in?")
    assert (result.status, result.stopped, result.rows) == ("answered", "answer", [[2]])
    assert result.answer == "Payal is in year 2."
    assert result.tool_calls() == [{"name": "execute_cypher", "arguments": {"query": YEAR},
                                    "ok": True, "error": None, "row_count": 1}]
    first, second = fake_server.calls(API[kind])
    if kind == "gemini":
        declared = first.body["tools"][0]["functionDeclarations"]
        assert [d["name"] for d in declared] == ["execute_cypher", "get_schema"]
        # the model's own content goes back unchanged, thought signature included
        model_turn = second.body["contents"][1]
        assert model_turn["role"] == "model"
        assert model_turn["parts"][0]["thoughtSignature"] == THOUGHT_SIGNATURE
        assert model_turn["parts"][0]["functionCall"] == {"name": "execute_cypher", "args": {"query": YEAR}}
        [sent] = tool_results(kind, second)
        assert sent == {"name": "execute_cypher",
                        "content": {"recordCount": 1, "records": [{"year": 2}], "truncated": False}}
    else:
        assert [t["function"]["name"] for t in first.body["tools"]] == ["execute_cypher", "get_schema"]
        assert first.body["tools"][0]["type"] == "function"
        assistant = second.body["messages"][-2]
        assert assistant["tool_calls"][0]["function"]["arguments"] == json.dumps({"query": YEAR})
        [sent] = tool_results(kind, second)
        assert sent == {"id": "call_1", "content": {"recordCount": 1, "records": [{"year": 2}],
                                                    "truncated": False}}
    assert result.input_tokens > 0 and result.output_tokens > 0


@pytest.mark.parametrize("kind", KINDS)
def test_a_failing_query_is_fed_back_and_fixed(fake_server, college_db, kind):
    fake_server.script(API[kind], calls(kind, ("execute_cypher", {"query": BROKEN})),
                       calls(kind, ("execute_cypher", {"query": YEAR}), first_id=2),
                       answer(kind, "Year 2."))
    result = ToolAgent(college_db, make(kind)).answer("What year is Payal in?")
    assert (result.status, result.rows) == ("answered", [[2]])
    failed, fixed = result.tool_calls()
    assert not failed["ok"] and fixed["ok"]
    [sent] = tool_results(kind, fake_server.calls(API[kind])[1])
    # FalkorDB's own words reach the model, not a summary of them
    assert sent["content"]["error"] == failed["error"]
    assert "error" in failed["error"].lower() or "invalid" in failed["error"].lower()
    assert [a.kind for a in result.attempts] == ["syntax_error", None]


@pytest.mark.parametrize("kind", KINDS)
def test_two_parallel_calls_both_run(fake_server, college_db, kind):
    count = "MATCH (c:Club) RETURN count(c) AS clubs"
    fake_server.script(API[kind], calls(kind, ("execute_cypher", {"query": YEAR}),
                                        ("execute_cypher", {"query": count})),
                       answer(kind, "Payal is in year 2; there are 3 clubs."))
    result = ToolAgent(college_db, make(kind)).answer("Payal's year, and how many clubs?")
    assert [c["row_count"] for c in result.tool_calls()] == [1, 1]
    assert len(result.steps) == 2 and len(result.steps[0].calls) == 2
    sent = tool_results(kind, fake_server.calls(API[kind])[1])
    assert [s["content"]["records"] for s in sent] == [[{"year": 2}], [{"clubs": 3}]]
    if kind != "gemini":
        assert [s["id"] for s in sent] == ["call_1", "call_2"]
    assert result.rows == [[3]]   # the answer's rows are the last successful query's


def test_groq_400_tool_use_failed_is_fed_back(fake_server, college_db):
    generation = '<function=execute_cypher>{"query": "MATCH (s:Student) RETURN s.name"'
    fake_server.script("groq", groq_tool_use_failed(generation),
                       chat_tool_calls(("execute_cypher", {"query": YEAR})), chat_answer("Year 2."))
    result = ToolAgent(college_db, GroqLLM()).answer("What year is Payal in?")
    assert (result.status, result.rows) == ("answered", [[2]])
    assert "tool_use_failed" not in (result.error or "")
    assert "Failed to call a function" in result.steps[0].problem
    assert generation in result.steps[0].problem
    retry = fake_server.calls("groq")[1].body["messages"][-1]
    assert retry["role"] == "user" and generation in retry["content"]


def test_gemini_malformed_call_is_fed_back(fake_server, college_db):
    fake_server.script("gemini", gemini_malformed_call(),
                       gemini_function_calls(("execute_cypher", {"query": YEAR})),
                       gemini_answer("Year 2."))
    result = ToolAgent(college_db, GeminiLLM()).answer("What year is Payal in?")
    assert (result.status, result.rows) == ("answered", [[2]])
    assert result.steps[0].problem.startswith("MALFORMED_FUNCTION_CALL")


@pytest.mark.parametrize("kind", ["groq", "mistral"])
def test_arguments_that_are_not_json_get_an_error_result(fake_server, college_db, kind):
    fake_server.script(API[kind], chat_tool_calls(("execute_cypher", "{query: MATCH (s) RETURN s")),
                       chat_tool_calls(("execute_cypher", {"query": YEAR}), first_id=2),
                       chat_answer("Year 2."))
    result = ToolAgent(college_db, make(kind)).answer("What year is Payal in?")
    bad, good = result.tool_calls()
    assert not bad["ok"] and "not valid JSON" in bad["error"]
    assert good["ok"] and result.rows == [[2]]
    second = fake_server.calls(API[kind])[1].body["messages"]
    # the history stays valid JSON for the service; the error result quotes what the model wrote
    assert second[-2]["tool_calls"][0]["function"]["arguments"] == "{}"
    error = json.loads(second[-1]["content"])["error"]
    assert "not valid JSON" in error and "{query: MATCH (s) RETURN s" in error


@pytest.mark.parametrize("kind", KINDS)
def test_an_unknown_tool_and_missing_arguments_get_error_results(fake_server, college_db, kind):
    fake_server.script(API[kind], calls(kind, ("drop_database", {}), ("execute_cypher", {})),
                       calls(kind, ("execute_cypher", {"query": YEAR}), first_id=3),
                       answer(kind, "Year 2."))
    result = ToolAgent(college_db, make(kind)).answer("What year is Payal in?")
    unknown, missing, good = result.tool_calls()
    assert "no tool named 'drop_database'" in unknown["error"] and "execute_cypher" in unknown["error"]
    assert "needs the argument 'query'" in missing["error"]
    assert good["ok"] and result.status == "answered"
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


@pytest.mark.parametrize("kind", KINDS)
def test_a_runaway_model_ends_at_the_cap(fake_server, college_db, kind):
    looping = [calls(kind, ("execute_cypher", {"query": f"RETURN {n} AS n"}), first_id=n)
               for n in range(1, 4)]
    fake_server.script(API[kind], *looping, answer(kind, "I could not settle on an answer."))
    result = ToolAgent(college_db, make(kind), max_steps=3).answer("What year is Payal in?")
    assert result.stopped == "max_steps"
    assert len(result.steps) == 4 and result.steps[-1].final
    requests = fake_server.calls(API[kind])
    assert len(requests) == 4
    assert all("tools" in r.body for r in requests[:3])
    assert "tools" not in requests[3].body       # the last call asks for an answer, with no tools
    assert "Stop calling tools" in json.dumps(requests[3].body)
    assert result.answer == "I could not settle on an answer."


def test_a_repeated_call_is_answered_from_its_last_result(fake_server, college_db):
    fake_server.script("groq", chat_tool_calls(("execute_cypher", {"query": YEAR})),
                       chat_tool_calls(("execute_cypher", {"query": YEAR}), first_id=2),
                       chat_answer("Year 2."))
    result = ToolAgent(college_db, GroqLLM()).answer("What year is Payal in?")
    first, second = (step.calls[0] for step in result.steps[:2])
    assert (first.repeated, second.repeated) == (False, True)
    sent = json.loads(fake_server.calls("groq")[2].body["messages"][-1]["content"])
    assert sent["records"] == [{"year": 2}] and "already made this exact call" in sent["note"]


def test_a_429_mid_loop_moves_the_same_history_to_the_next_provider(fake_server, college_db):
    fake_server.script("gemini", gemini_function_calls(("execute_cypher", {"query": YEAR})),
                       gemini_rate_limited(retry_delay="46s"))
    fake_server.script("groq", chat_answer("Payal is in year 2."))
    router = LLMRouter([GeminiLLM(), GroqLLM()])
    result = ToolAgent(college_db, router).answer("What year is Payal in?")
    assert (result.status, result.rows) == ("answered", [[2]])
    assert [s.provider for s in result.steps] == ["Gemini", "Groq-120b"]
    assert "Gemini hit its rate limit" in router.last_route
    [groq_request] = fake_server.calls("groq")
    messages = groq_request.body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool"]
    call_id = messages[2]["tool_calls"][0]["id"]
    assert messages[3]["tool_call_id"] == call_id
    assert json.loads(messages[3]["content"])["records"] == [{"year": 2}]


def test_groq_history_goes_to_gemini_with_a_stand_in_signature(fake_server, college_db):
    fake_server.script("groq", chat_tool_calls(("execute_cypher", {"query": YEAR})),
                       chat_rate_limited(retry_after="60"))
    fake_server.script("gemini", gemini_answer("Year 2."))
    result = ToolAgent(college_db, LLMRouter([GroqLLM(), GeminiLLM()])).answer("What year is Payal in?")
    assert result.status == "answered"
    [request] = fake_server.calls("gemini")
    model_turn = request.body["contents"][1]
    signature = base64.b64decode(model_turn["parts"][0]["thoughtSignature"])
    assert signature == b"skip_thought_signature_validator"
    assert request.body["contents"][2]["parts"][0]["functionResponse"]["name"] == "execute_cypher"


@pytest.mark.parametrize("kind", KINDS)
def test_the_key_is_never_shown(fake_server, college_db, kind):
    fake_server.script(API[kind], calls(kind, ("execute_cypher", {"query": YEAR})),
                       auth_error(f"Invalid API Key: {FAKE_KEY}", api=API[kind]))
    result = ToolAgent(college_db, make(kind)).answer("What year is Payal in?")
    assert result.status == "failed"
    shown = json.dumps(result.to_dict(), default=str) + result.summary() + repr(result)
    assert FAKE_KEY not in shown and "[redacted]" in result.error


@pytest.mark.parametrize("kind", KINDS)
def test_each_sdk_makes_one_request_per_step(fake_server, college_db, kind):
    """Automatic function calling is off: the SDK never answers a call by itself."""
    fake_server.script(API[kind], calls(kind, ("get_schema", {})), answer(kind, "It has 7 labels."))
    result = ToolAgent(college_db, make(kind)).answer("What is in the graph?")
    assert len(fake_server.calls(API[kind])) == 2 == len(result.steps)
    [sent] = tool_results(kind, fake_server.calls(API[kind])[1])
    assert "Student" in sent["content"]["schema"]
    assert result.status == "failed"   # no query ran: the answer rests on nothing in the graph


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.slow
def test_cli_tools_agent_through_each_sdk_answers_the_five_demo_questions(fake_server, college_db,
                                                                           kind):
    import os
    import subprocess
    import sys

    from course.ui.demo import FIVE_QUESTIONS, judge

    for item in FIVE_QUESTIONS:
        fake_server.script(API[kind], calls(kind, ("execute_cypher", {"query": item.reference})),
                           answer(kind, item.expected))
    environment = {**os.environ, "COURSE_DB": college_db.location,
                   "COURSE_GRAPH": college_db.graph_name}
    done = subprocess.run([sys.executable, "-m", "course", "ask", "--agent", "tools", "--json",
                           "--fresh", "--provider", kind, *[i.question for i in FIVE_QUESTIONS]],
                          capture_output=True, text=True, env=environment, timeout=120)
    assert "Traceback" not in done.stderr and done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    for item, record in zip(FIVE_QUESTIONS, records):
        assert record["status"] == "answered" and judge(college_db, item, record["rows"])
        assert record["answer"] == item.expected and record["llm_calls"] == 2
        assert record["input_tokens"] > 0
    assert FAKE_KEY not in done.stdout + done.stderr
    assert len(fake_server.calls(API[kind])) == 10
