"""Every agent's intermediate steps in one shape: `Result.steps`, a list of `Step`.

A step is one model call: what kind of call it was (cypher, answer, tools, updater, router,
critic, text2cypher), what the model wrote, the queries it led to (`calls`), what went wrong
(`problem`), its provider, tokens and time. The pipeline, the tool loop and the agentic agent
fill the same list; `--json` shows it as `steps`, with the same keys for all three.
"""
from __future__ import annotations

import json
from dataclasses import fields

import pytest

from course.agents.agentic import AgenticAgent
from course.agents.tools import ToolAgent
from course.llm.base import ToolCall
from course.llm.errors import RateLimited
from course.llm.offline import OfflineLLM
from course.llm.scripted import ScriptedLLM
from course.pipeline.agent import Agent
from course.pipeline.results import Result, Step
from test_cli_ask import ask, records

PAYAL = "MATCH (s:Student {name: 'Payal'}) RETURN s.name AS name, s.year AS year"
STEP_KEYS = {f.name for f in fields(Step)}


def test_the_pipeline_keeps_a_step_per_model_call(college_db):
    result = Agent(college_db, OfflineLLM()).answer("Who is Payal?")
    assert [s.kind for s in result.steps] == ["cypher", "answer"]
    assert len(result.steps) == result.llm_calls and [s.number for s in result.steps] == [1, 2]
    query, answer = result.steps
    call, = query.calls
    assert call.name == "execute_cypher" and call.arguments == {"query": result.cypher}
    assert call.ok and call.row_count == 1 and call.error is None
    assert query.provider == "Offline" and query.llm_ms > 0 and query.tools_ms > 0
    assert answer.text == result.answer and answer.calls == []


def test_a_retry_is_two_steps_with_the_servers_error_in_the_first(college_db):
    llm = ScriptedLLM(["MATCH (s:Student RETURN s", PAYAL, "Payal, year 2."])
    result = Agent(college_db, llm).answer("Who is Payal?")
    first, second, _ = result.steps
    assert first.text == "MATCH (s:Student RETURN s" and not first.calls[0].ok
    assert first.calls[0].error == result.attempts[0].error
    assert second.calls[0].ok and second.calls[0].row_count == 1


def test_a_refused_query_is_a_step_whose_call_failed(college_db):
    llm = ScriptedLLM(["MATCH (n) DETACH DELETE n"] * 2)
    result = Agent(college_db, llm).answer("clean up the old data")
    assert result.status == "blocked" and len(result.steps) == 2
    assert all(not s.calls[0].ok and "DETACH DELETE" in s.calls[0].error for s in result.steps)


def test_a_failed_model_call_is_a_step_with_its_problem(college_db):
    llm = ScriptedLLM([RateLimited(retry_after=30), PAYAL, "Payal, year 2."])
    result = Agent(college_db, llm).answer("Who is Payal?")
    assert result.status == "answered" and len(result.steps) == 3 == result.llm_calls
    assert "rate limit" in result.steps[0].problem and result.steps[0].calls == []


def test_a_reply_with_no_query_is_a_step_without_calls(college_db):
    result = Agent(college_db, ScriptedLLM(["I am not sure.", PAYAL, "Year 2."])).answer("Who is Payal?")
    assert result.steps[0].calls == [] and result.steps[0].text == "I am not sure."
    assert result.steps[1].calls[0].ok


def test_the_tool_loop_and_the_agentic_agent_fill_the_same_list(college_db):
    tools = ToolAgent(college_db, OfflineLLM()).answer("Who is Payal?")
    assert [s.kind for s in tools.steps] == ["tools", "tools"]
    scripted = ScriptedLLM([ToolCall("execute_cypher", {"query": PAYAL}), "Year 2."])
    capped = ToolAgent(college_db, scripted, max_steps=1).answer("Who is Payal?")
    assert [s.kind for s in capped.steps] == ["tools", "answer"] and capped.steps[-1].final
    agentic = AgenticAgent(college_db, OfflineLLM()).answer(
        "Who is best at DBMS, and which clubs is she in?")
    kinds = [s.kind for s in agentic.steps]
    assert kinds[0] == "updater" and "router" in kinds and kinds[-1] == "critic"
    assert set(kinds) <= {"updater", "router", "critic", "text2cypher", "answer"}
    for result in (tools, capped, agentic):
        assert all(type(s) is Step for s in result.steps)


def test_json_shows_the_steps_with_the_same_keys_for_every_agent(college_db):
    for agent in (Agent(college_db, OfflineLLM()), ToolAgent(college_db, OfflineLLM()),
                  AgenticAgent(college_db, OfflineLLM())):
        record = json.loads(json.dumps(agent.answer("Who is Payal?").to_dict()))
        assert record["steps"] and all(set(s) == STEP_KEYS for s in record["steps"])
        assert record["attempts"] == len(record["attempt_log"])   # the count stays a count


def test_a_result_from_memory_has_no_steps():
    assert Result("Who is Payal?").steps == []


@pytest.mark.slow
def test_ask_json_has_the_pipelines_steps(college_db):
    record, = records(ask(college_db, "--json", "Who is Payal?"))
    assert [s["kind"] for s in record["steps"]] == ["cypher", "answer"]
    assert record["steps"][0]["calls"][0]["row_count"] == 1
