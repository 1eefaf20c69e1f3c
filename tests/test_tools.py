"""Notebook 11's tool loop: the tools, the loop's bounds, cost, and the offline tool policy.

The model is a ScriptedLLM (tool calls on cue) or the offline provider; the graph is the
real college graph, so every query goes through the one guarded door to FalkorDB.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from course.agents.cost import cost_usd, load_prices
from course.llm.offline import OfflineToolLLM
from course.agents.tools import MAX_RESULT_CHARS, Step, TOOLS, ToolAgent, Toolbox, records_of
from course.foundation.config import PROJECT_ROOT
from course.foundation.db import Rows
from course.llm.base import ChatTurn, Message, ToolCall, Usage
from course.llm.errors import RateLimited
from course.llm.offline import OfflineLLM
from course.llm.router import LLMRouter
from course.llm.scripted import ScriptedLLM
from course.pipeline.evaluation import evaluate, load_questions
from course.pipeline.memory import ShortTermMemory
from course.ui.demo import FIVE_QUESTIONS, judge

YEAR = "MATCH (s:Student {name: 'Payal'}) RETURN s.year AS year"


def cypher(query: str) -> ToolCall:
    return ToolCall("execute_cypher", {"query": query})


def turn(*calls: ToolCall, text: str = "", tokens: tuple[int, int] = (0, 0),
         model: str = "scripted") -> ChatTurn:
    numbered = tuple(ToolCall(c.name, c.arguments, f"t{n}") for n, c in enumerate(calls, 1))
    return ChatTurn(text, numbered, "Scripted", model, Usage(*tokens))


# --- the tools ---------------------------------------------------------------------------

def test_execute_cypher_returns_records(college_db):
    box = Toolbox(college_db, "schema")
    assert box.execute_cypher(YEAR) == {"recordCount": 1, "records": [{"year": 2}], "truncated": False}
    assert box.last.cypher == YEAR and box.last.rows == [[2]]


def test_a_write_is_an_error_result_and_nothing_changes(college_db):
    result = Toolbox(college_db, "schema").execute_cypher("MATCH (n) DETACH DELETE n")
    assert result["refused"] is True and "DETACH DELETE" in result["error"]
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


def test_a_server_error_is_falkordbs_own_message(college_db):
    result = Toolbox(college_db, "schema").execute_cypher("MATCH (s:Student RETURN s")
    assert set(result) == {"error"}
    try:
        college_db.run("MATCH (s:Student RETURN s")
    except Exception as exc:  # the same words the database itself says
        assert result["error"] == exc.server_message


def test_a_fenced_query_runs(college_db):
    result = Toolbox(college_db, "schema").execute_cypher(f"```cypher\n{YEAR};\n```")
    assert result["records"] == [{"year": 2}]


def test_one_result_cannot_flood_the_context(college_db):
    result = Toolbox(college_db, "schema").execute_cypher("MATCH (n:Note) RETURN n.id AS id, n.text AS text")
    assert result["recordCount"] == 25 and result["truncated"] is True
    assert 0 < len(result["records"]) < 25 and "LIMIT" in result["note"]
    assert len(json.dumps(result)) <= MAX_RESULT_CHARS + 200


def test_long_values_are_cut():
    rows = Rows(["text"], [["x" * 5000]])
    [record] = records_of(rows)["records"]
    assert len(record["text"]) < 600


def test_get_schema_is_the_rendered_schema(college_db):
    agent = ToolAgent(college_db, ScriptedLLM([]))
    result = Toolbox(college_db, agent.schema.render()).call(ToolCall("get_schema"))
    assert result["schema"] == agent.schema.render()
    assert "Student" in result["schema"] and "PREREQUISITE_FOR" in result["schema"]


def test_the_tools_are_declared_with_json_schema():
    execute, schema = TOOLS
    assert execute.parameters["required"] == ["query"]
    assert schema.name == "get_schema" and not schema.parameters["properties"]


# --- the loop's bounds ---------------------------------------------------------------------

def test_who_refused_a_write_is_kept(college_db):
    """The model's own READ_ONLY and the guard's block are told apart, as for the pipeline."""
    by_model = ToolAgent(college_db, OfflineLLM()).answer("Delete all the students")
    assert by_model.status == "blocked" and by_model.attempts[-1].kind == "write_refused"
    by_guard = ToolAgent(college_db, ScriptedLLM([cypher("MATCH (n) DELETE n"), "No."])).answer("x y")
    assert by_guard.status == "blocked" and by_guard.attempts[-1].kind == "unsafe_blocked"


def test_a_delete_is_refused_inside_the_loop(college_db):
    llm = ScriptedLLM([cypher("MATCH (n) DETACH DELETE n"), "I cannot delete anything."])
    result = ToolAgent(college_db, llm).answer("clean up the old data")
    assert result.status == "blocked"
    assert "DETACH DELETE" in result.error and result.tool_calls()[0]["ok"] is False
    tool_message = llm.histories[1][-1]
    assert tool_message.role == "tool" and "read-only guard" in tool_message.content
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


def test_the_budget_stops_the_loop_with_one_final_call(college_db):
    llm = ScriptedLLM([turn(cypher(YEAR), tokens=(25_000, 100)),
                       turn(cypher("MATCH (c:Club) RETURN c.name AS club"), tokens=(26_000, 100)),
                       turn(text="Payal is in year 2.", tokens=(27_000, 50))])
    result = ToolAgent(college_db, llm, budget_tokens=40_000).answer("What year is Payal in?")
    assert result.stopped == "budget"
    assert [s.final for s in result.steps] == [False, False, True]
    assert llm.tool_lists[-1] == []                  # the final call offers no tools
    assert "token budget" in llm.histories[-1][-1].content
    assert (result.input_tokens, result.output_tokens) == (78_000, 250)
    assert result.status == "answered" and result.answer == "Payal is in year 2."


def test_the_step_cap_with_max_steps_one(college_db):
    llm = ScriptedLLM([cypher(YEAR), "Payal is in year 2."])
    result = ToolAgent(college_db, llm, max_steps=1).answer("What year is Payal in?")
    assert result.stopped == "max_steps" and len(result.steps) == 2
    assert result.rows == [[2]] and result.status == "answered"


def test_a_chain_of_two_queries(college_db):
    clubs = "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) RETURN c.name AS club"
    members = ("MATCH (s:Student)-[:MEMBER_OF]->(c:Club) WHERE c.name IN ['Coding Club', "
               "'Debate Society'] RETURN DISTINCT s.name AS student")
    llm = ScriptedLLM([cypher(clubs), cypher(members), "Aarav, Payal, Sneha ..."])
    result = ToolAgent(college_db, llm).answer("Who shares a club with Payal?")
    assert [c["row_count"] for c in result.tool_calls()] == [2, len(result.rows)]
    assert result.cypher == members and result.stopped == "answer"
    # the second call saw the first result in its history
    assert "Debate Society" in llm.histories[1][-1].content


def test_every_step_is_kept(college_db):
    llm = ScriptedLLM([turn(cypher(YEAR), text="Let me look.", tokens=(300, 20)), "Year 2."])
    result = ToolAgent(college_db, llm).answer("What year is Payal in?")
    first = result.steps[0]
    assert first.text == "Let me look." and first.calls[0].arguments == {"query": YEAR}
    assert first.calls[0].result_chars > 0 and first.calls[0].error is None
    assert first.llm_ms > 0 and first.tools_ms > 0 and first.input_tokens == 300


def test_a_sentinel_query_is_a_refusal(college_db):
    llm = ScriptedLLM([cypher("RETURN 'OUT_OF_SCOPE' AS status"), "No principal in this graph."])
    assert ToolAgent(college_db, llm).answer("Who is the principal?").status == "out_of_scope"


@pytest.mark.parametrize("reply, status", [("OUT_OF_SCOPE", "out_of_scope"),
                                           ("OUT_OF_SCOPE: no professors here.", "out_of_scope"),
                                           ("**READ_ONLY**", "blocked"),
                                           ("Professors are not in the graph.", "failed")])
def test_a_refusal_in_words(college_db, reply, status):
    result = ToolAgent(college_db, ScriptedLLM([reply])).answer("Who is the best professor?")
    assert result.status == status and result.llm_calls == 1
    assert result.answer != "" and (status != "failed" or "rests on nothing" in result.error)


def test_an_outage_is_a_failed_status_with_what_to_do(college_db):
    llm = LLMRouter([ScriptedLLM([cypher(YEAR), RateLimited(retry_after=60)], name="A")])
    result = ToolAgent(college_db, llm).answer("What year is Payal in?")
    assert result.status == "failed" and "--provider" in result.error


def test_a_bad_question_is_refused_before_any_call(college_db):
    llm = ScriptedLLM([])
    result = ToolAgent(college_db, llm).answer("   ")
    assert result.status == "failed" and "empty" in result.error and not llm.histories


def test_max_steps_must_be_positive(college_db):
    with pytest.raises(ValueError, match="max_steps"):
        ToolAgent(college_db, ScriptedLLM([]), max_steps=0)


# --- cost --------------------------------------------------------------------------------

def test_the_price_table_is_dated_and_names_its_sources():
    prices = load_prices()
    assert prices["as_of"]
    assert all(entry["source"].startswith("https://") for entry in prices["models"].values())


def test_cost_from_the_table(college_db):
    price = load_prices()["models"]["openai/gpt-oss-120b"]
    llm = ScriptedLLM([turn(cypher(YEAR), tokens=(1000, 100), model="openai/gpt-oss-120b"),
                       turn(text="Year 2.", tokens=(1200, 10), model="openai/gpt-oss-120b")])
    result = ToolAgent(college_db, llm).answer("What year is Payal in?")
    expected = (2200 * price["input"] + 110 * price["output"]) / 1e6
    assert result.cost_usd == pytest.approx(expected)


def test_cost_is_unknown_for_an_unlisted_model_and_offline(college_db):
    assert cost_usd([Step(1, "", [], "X", "some-new-model", 10, 10, 0, 0)]) is None
    result = ToolAgent(college_db, OfflineLLM()).answer("Who is Payal?")
    assert result.cost_usd is None and result.provider == "Offline"


# --- the offline tool policy ----------------------------------------------------------------

@pytest.mark.parametrize("item", FIVE_QUESTIONS, ids=lambda item: f"q{item.number}")
def test_offline_tool_loop_answers_the_five_demo_questions(college_db, item):
    result = ToolAgent(college_db, OfflineLLM()).answer(item.question)
    assert result.status == "answered" and result.stopped == "answer"
    assert judge(college_db, item, result.rows), (item.question, result.rows)
    assert result.llm_calls == 2 and [c["name"] for c in result.tool_calls()] == ["execute_cypher"]


def test_offline_policy_tries_again_after_an_empty_result(college_db):
    """The pipeline's empty-result hint, sent back through the loop, relaxes the match."""
    result = ToolAgent(college_db, OfflineLLM()).answer("What should I know before learning Paging?")
    first, second = (call["arguments"]["query"] for call in result.tool_calls())
    assert [c["row_count"] for c in result.tool_calls()] == [0, 0]
    assert "{name: 'Paging'}" in first and "toLower" in second
    assert result.status == "answered" and result.llm_calls == 3
    assert result.answer == "I found nothing in the graph for that."


def test_offline_policy_uses_only_complete(college_db):
    class OnlyComplete:  # a stand-in that has nothing but complete(): any other use fails
        name, model = "Offline", "rules"

        def __init__(self):
            self.inner, self.calls = OfflineLLM(), 0

        def complete(self, prompt, *, system=None):
            self.calls += 1
            return self.inner.complete(prompt, system=system)

    stand_in = OnlyComplete()
    result = ToolAgent(college_db, OfflineToolLLM(stand_in)).answer("Who is Payal?")
    assert result.status == "answered" and result.rows == [["Payal", 2, "CSE"]]
    assert stand_in.calls == 1     # the query; the answer it writes from the records itself


def test_offline_memory_carries_over(college_db):
    agent = ToolAgent(college_db, OfflineLLM(), memory=ShortTermMemory())
    agent.answer("Who is Payal?")
    result = agent.answer("uska year kya hai?")
    assert result.rows == [["Payal", 2]] or result.rows == [[2]]


def test_offline_without_the_query_tool_says_so():
    turn_ = OfflineToolLLM().chat("NODES:", [Message("user", "QUESTION: Who is Payal?")], ())
    assert not turn_.tool_calls and "no tool" in turn_.text


@pytest.mark.parametrize("name", ["questions", "paraphrases", "heldout", "heldout2"])
@pytest.mark.slow  # a whole question set per parameter
def test_offline_tool_loop_is_as_accurate_as_the_pipeline(college_db, name):
    questions = load_questions(PROJECT_ROOT / "data" / "eval" / f"{name}.jsonl")
    pipeline = evaluate(college_db, OfflineLLM(), questions)
    tools = evaluate(college_db, OfflineLLM(), questions,
                     make_agent=lambda db, llm, **options: ToolAgent(db, llm, **options))
    for score, (right, total) in pipeline.counts().items():
        assert tools.counts()[score][0] >= right, (name, score, tools.counts()[score], right, total)
    assert tools.graph_unchanged


# --- the command line -------------------------------------------------------------------------

def ask(db, *args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "COURSE_DB": db.location, "COURSE_GRAPH": db.graph_name,
                   "COURSE_LLM": "offline", **env}
    done = subprocess.run([sys.executable, "-m", "course", "ask", *args], capture_output=True,
                          text=True, env=environment, timeout=120)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.mark.slow
def test_cli_tools_agent_answers_the_five_demo_questions(college_db):
    done = ask(college_db, "--agent", "tools", "--json", "--fresh",
               *[item.question for item in FIVE_QUESTIONS])
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and len(records) == 5
    for item, record in zip(FIVE_QUESTIONS, records):
        assert record["status"] == "answered" and judge(college_db, item, record["rows"])
        assert record["agent"] == "tools" and record["stopped"] == "answer"
        assert record["tool_calls"][0]["name"] == "execute_cypher" and record["tool_calls"][0]["ok"]
        assert set(record["tool_calls"][0]) == {"name", "arguments", "ok", "error", "row_count"}
        for field in ("steps", "input_tokens", "output_tokens", "cost_usd", "question", "cypher",
                      "columns", "attempts", "provider", "llm_calls", "elapsed_ms", "error"):
            assert field in record
        assert record["cost_usd"] is None


@pytest.mark.slow
def test_cli_max_steps_and_the_agents(college_db):
    capped = ask(college_db, "--agent", "tools", "--max-steps", "1", "--json", "Who is Payal?")
    assert json.loads(capped.stdout)["status"] == "answered"
    bad = ask(college_db, "--agent", "tools", "--max-steps", "0", "Who is Payal?")
    assert bad.returncode == 1 and "--max-steps" in bad.stderr
    pipeline = ask(college_db, "--max-steps", "3", "Who is Payal?")
    assert pipeline.returncode == 1 and "--agent tools" in pipeline.stderr
    agentic = ask(college_db, "--agent", "agentic", "--json", "Who is Payal?")
    assert agentic.returncode == 0 and json.loads(agentic.stdout)["agent"] == "agentic"
    default = json.loads(ask(college_db, "--json", "Who is Payal?").stdout)
    assert "tool_calls" not in default and default["status"] == "answered"


def test_a_guard_refusal_is_read_from_the_result_not_from_its_wording():
    from course.agents.tools import _attempt
    from course.pipeline.results import CallRecord

    call = CallRecord("execute_cypher", {"query": "MATCH (n) DELETE n"}, False,
                      "Not allowed: DELETE changes the data.", None, 80, 1.0, refused=True)
    assert _attempt(1, call).kind == "unsafe_blocked" and _attempt(1, call).verdict == "refused"
