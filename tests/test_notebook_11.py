"""Notebook 11 (tool loop): the facts its cells print, checked here rather than in the lesson.

Where a model's behaviour is the point, a `ScriptedLLM` (a mock of a model) replays it, as in
the notebook.
"""
from __future__ import annotations

import ast
import inspect
import json

import pytest

import course.agents.tools as tools_module
from course import Agent, make_llm
from course.agents.cost import load_prices
from course.agents.tools import ToolAgent, Toolbox
from course.llm import ScriptedLLM
from course.llm.base import ChatTurn, ToolCall, Usage
from course.pipeline.evaluation import evaluate, load_questions
from course.ui.demo import FIVE_QUESTIONS, judge

YEAR = "MATCH (s:Student {name: 'Payal'}) RETURN s.year AS year"
CLUBS = "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) RETURN c.name AS club"


def step(*calls, text="", tokens=(0, 0), model="openai/gpt-oss-120b"):
    return ChatTurn(text, tuple(calls), "Groq-120b", model, Usage(*tokens))


def test_a_refused_write_is_a_result_the_model_reads_and_nothing_changes(college_db):
    toolbox = Toolbox(college_db, ToolAgent(college_db, make_llm("offline")).schema_text)
    assert toolbox.execute_cypher("MATCH (n) DETACH DELETE n")["refused"] is True
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


def test_a_long_result_is_cut_and_says_how_many_records_there_were(college_db):
    toolbox = Toolbox(college_db, ToolAgent(college_db, make_llm("offline")).schema_text)
    notes = toolbox.execute_cypher("MATCH (n:Note) RETURN n.id AS id, n.text AS text")
    assert notes["recordCount"] == 25 and len(notes["records"]) < 25 and notes["truncated"]


def test_the_loop_and_its_tools_are_under_150_lines():
    parts = ["run_loop", "_timed_chat", "_step", "_run_call", "records_of", "Toolbox"]
    tree = ast.parse(inspect.getsource(tools_module))
    lines = sum(node.end_lineno - node.lineno + 1 for node in tree.body
                if getattr(node, "name", None) in parts)
    assert lines < 150


def test_the_dbms_question_takes_two_steps_and_names_payal(college_db):
    result = ToolAgent(college_db, make_llm("offline")).answer("Who is the best person to teach me DBMS?")
    assert result.status == "answered" and result.stopped == "answer" and result.rows[0][0] == "Payal"
    assert len(result.steps) == 2 and result.llm_calls == 2


@pytest.mark.parametrize("item", FIVE_QUESTIONS, ids=lambda item: item.question)
def test_the_pipeline_and_the_loop_agree_on_the_five_questions_and_are_right(college_db, item):
    llm = make_llm("offline")
    p, t = Agent(college_db, llm).answer(item.question), ToolAgent(college_db, llm).answer(item.question)
    assert p.rows == t.rows and judge(college_db, item, t.rows)


@pytest.mark.slow
def test_the_loop_scores_what_the_pipeline_scores_on_the_question_set(college_db):
    llm, questions = make_llm("offline"), load_questions()
    by_pipeline = evaluate(college_db, llm, questions)
    by_loop = evaluate(college_db, llm, questions, make_agent=lambda db, llm, **o: ToolAgent(db, llm, **o))
    assert by_loop.counts() == by_pipeline.counts()


def test_the_cost_is_the_tokens_times_the_dated_price(college_db):
    price = load_prices()["models"]["openai/gpt-oss-120b"]
    replay = ScriptedLLM([step(ToolCall("execute_cypher", {"query": YEAR}, id="c1"), tokens=(2100, 40)),
                          step(text="Payal is in her second year.", tokens=(2200, 12))])
    paid = ToolAgent(college_db, replay).answer("What year is Payal in?")
    assert paid.cost_usd == round((4300 * price["input"] + 52 * price["output"]) / 1e6, 8)


def test_the_model_chains_two_queries_reading_the_first_ones_records(college_db):
    members = ("MATCH (s:Student)-[:MEMBER_OF]->(c:Club) WHERE c.name IN ['Coding Club', 'Debate Society'] "
               "AND s.name <> 'Payal' RETURN DISTINCT s.name AS student, c.name AS club")
    chain = ScriptedLLM([ToolCall("execute_cypher", {"query": CLUBS}),
                         ToolCall("execute_cypher", {"query": members}), "Aarav and Sneha."])
    shared = ToolAgent(college_db, chain).answer("Who shares a club with Payal?")
    assert [c["row_count"] for c in shared.tool_calls()] == [2, len(shared.rows)]


def test_an_error_goes_back_as_a_tool_result_and_the_model_fixes_its_query(college_db):
    broken = "MATCH (s:Student)-[r:STUDIES]->(sub:Subject {name: 'DBMS'} RETURN s.name, r.grade"
    fixed_query = ("MATCH (s:Student)-[r:STUDIES]->(sub:Subject {name: 'DBMS'}) "
                   "RETURN s.name AS name, r.grade AS grade")
    fixer = ScriptedLLM([ToolCall("execute_cypher", {"query": broken}),
                         ToolCall("execute_cypher", {"query": fixed_query}), "Payal (A+) and Aarav (A)."])
    fixed = ToolAgent(college_db, fixer).answer("Who studies DBMS, with grades?")
    assert [c["ok"] for c in fixed.tool_calls()] == [False, True] and fixed.status == "answered"


def test_the_step_cap_ends_with_one_call_offered_no_tools(college_db):
    runaway = ScriptedLLM([ToolCall("execute_cypher", {"query": f"RETURN {n} AS n"}) for n in range(1, 4)]
                          + ["From what I found I cannot say."])
    capped = ToolAgent(college_db, runaway, max_steps=3).answer("What year is Payal in?")
    assert capped.stopped == "max_steps" and runaway.tool_lists[-1] == []


def test_a_repeated_call_is_answered_from_its_last_result(college_db):
    again = ScriptedLLM([ToolCall("execute_cypher", {"query": YEAR}),
                         ToolCall("execute_cypher", {"query": YEAR}), "Year 2."])
    repeat = ToolAgent(college_db, again).answer("What year is Payal in?")
    assert [c.repeated for s in repeat.steps for c in s.calls] == [False, True]
    assert json.loads(again.histories[2][-1].content)["note"]


def test_the_token_budget_stops_the_loop(college_db):
    greedy = ScriptedLLM([step(ToolCall("execute_cypher", {"query": YEAR}, id="b1"), tokens=(25_000, 200)),
                          step(ToolCall("execute_cypher", {"query": CLUBS}, id="b2"), tokens=(26_000, 200)),
                          step(text="Payal is in year 2.", tokens=(27_000, 30))])
    budget = ToolAgent(college_db, greedy, budget_tokens=40_000).answer("What year is Payal in?")
    assert budget.stopped == "budget" and len(budget.steps) == 3


@pytest.mark.slow
def test_the_command_line_runs_the_tool_loop(college_db):
    import os
    import subprocess
    import sys

    env = {**os.environ, "COURSE_DB": college_db.location, "COURSE_GRAPH": college_db.graph_name}
    out = subprocess.run([sys.executable, "-m", "course", "ask", "--agent", "tools", "--json",
                          "Aarav ke next topics kya hain?"], capture_output=True, text=True,
                         timeout=300, env=env)
    record = json.loads(out.stdout)
    assert record["agent"] == "tools" and record["status"] == "answered"
