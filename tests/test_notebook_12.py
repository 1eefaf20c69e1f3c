"""Notebook 12 (agentic RAG): the facts its cells print, checked here rather than in the lesson.

The agents run offline (the rule roles), as in the committed notebook; where a model's calls
are shown, a `ScriptedLLM` (a mock of a model) replays them.
"""
from __future__ import annotations

import json

import pytest

from course import Agent, make_llm
from course.agents.agentic import AgenticAgent
from course.agents.agentic_eval import MULTIPART_SET, NOTES_SET, Meter, MeteredRules, compare, load_parts
from course.agents.agentic_tools import AGENTIC_TOOLS, AgenticToolbox
from course.llm.offline.roles.router import RuleRouter
from course.llm.offline.roles.updater import RuleUpdater
from course.llm import ScriptedLLM
from course.llm.base import ToolCall
from course.pipeline.evaluation import evaluate, load_questions
from course.pipeline.memory import ShortTermMemory


@pytest.fixture
def llm():
    return make_llm("offline")


def test_one_query_per_question_refuses_two_parts_and_a_notes_question(college_db, llm):
    pipeline = Agent(college_db, llm)
    assert pipeline.answer("Who is best at DBMS and which clubs is she in?").status == "out_of_scope"
    assert pipeline.answer("What is a race condition?").status == "out_of_scope"


def test_a_template_links_its_argument_and_a_hostile_one_fails_harmlessly(college_db, llm):
    box = AgenticToolbox(college_db, llm)
    out = box.run("best_in_subject", {"subject": "dbms"})
    assert out.arguments == {"subject": "DBMS"} and out.rows[0] == ["Payal", "A+"]
    hostile = box.run("club_members", {"club": "x'}) DETACH DELETE n //"})
    assert hostile.status == "failed" and college_db.counts() == {"nodes": 75, "relationships": 132}
    assert box.run("search_notes", {"query": "What is a race condition?"}).rows[0][0] == "N17"


def test_the_rule_router_picks_the_notebooks_tools(college_db, llm):
    router, agent, specs = RuleRouter(), AgenticAgent(college_db, llm), [t.spec() for t in AGENTIC_TOOLS]
    questions = ["Who is the best person to teach me DBMS?", "DBMS mein sabse acha kaun hai?",
                 "1NF se BCNF tak ka learning path batao", "What does COMMIT do?",
                 "What is BCNF?", "Which clubs is Payal in?", "How many members does Robotics Club have?"]
    assert [router.route(q, agent.link(q), specs).name for q in questions] == [
        "best_in_subject", "best_in_subject", "learning_path", "search_notes", "concept_notes",
        "text2cypher", "text2cypher"]


def _metered_agents(tools, meter):
    made: list[AgenticAgent] = []

    def make(db, llm, **options):
        made.append(AgenticAgent(db, meter, tools=tools, roles=MeteredRules(meter), **options))
        return made[-1]
    return make, made


@pytest.mark.slow   # the whole question set, twice
def test_where_a_template_fits_it_is_as_right_with_no_query_written_and_fewer_tokens(college_db, llm):
    router, agent, specs = RuleRouter(), AgenticAgent(college_db, llm), [t.spec() for t in AGENTIC_TOOLS]
    in_scope = [q for q in load_questions() if q.conversation is None and q.in_scope]
    fits = [q for q in in_scope if router.route(q.question, agent.link(q.question), specs).name
            not in ("text2cypher", "search_notes", "answer_given")]
    only_text2cypher = tuple(t for t in AGENTIC_TOOLS if t.name in ("text2cypher", "answer_given"))
    figures = {}
    for label, tools in (("templates", AGENTIC_TOOLS), ("text2cypher only", only_text2cypher)):
        meter = Meter(llm)
        make, made = _metered_agents(tools, meter)
        right, total = evaluate(college_db, meter, fits, make_agent=make).counts()["execution_accuracy"]
        figures[label] = (right, total, sum(s.tool == "text2cypher" for a in made for s in a.last.sub_questions),
                          meter.calls, meter.sent + meter.received)
    (right_t, total_t, written_t, calls_t, tokens_t) = figures["templates"]
    (right_c, total_c, written_c, calls_c, tokens_c) = figures["text2cypher only"]
    assert right_t == total_t == right_c == total_c == len(fits)
    assert written_t == 0 < written_c
    assert 1 - tokens_t / tokens_c > 0.1 and calls_t < calls_c


def test_the_updater_keeps_one_question_with_several_ands_whole():
    assert RuleUpdater().split("Who studies DBMS and is in the Debate Society?") == [
        "Who studies DBMS and is in the Debate Society?"]


def test_the_second_part_is_rewritten_with_payal_and_her_clubs_are_found(college_db, llm):
    result = AgenticAgent(college_db, llm).answer("Who is best at DBMS, and which clubs is that student in?")
    assert [s.rewritten for s in result.sub_questions] == ["Who is best at DBMS?", "which clubs is Payal in?"]
    assert result.critic[0].complete
    assert {"Coding Club", "Debate Society"} <= set(sum(result.sub_questions[1].rows, []))


def test_the_critic_asks_for_dsa_and_without_it_the_answer_stops_at_dbms(college_db, llm):
    both = AgenticAgent(college_db, llm).answer("Who is the best at DBMS and DSA?")
    without = AgenticAgent(college_db, llm, critic=False).answer("Who is the best at DBMS and DSA?")
    assert [c.complete for c in both.critic] == [False, True]
    assert [s.arguments["subject"] for s in both.sub_questions] == ["DBMS", "DSA"]
    assert [s.arguments["subject"] for s in without.sub_questions] == ["DBMS"]


def test_the_answer_says_which_part_it_could_not_answer(college_db, llm):
    partial = AgenticAgent(college_db, llm).answer("Who is best at DBMS, and what is the capital of France?")
    assert "could not answer this part: what is the capital of France?" in partial.answer
    assert len(partial.critic) <= 2


@pytest.mark.parametrize("question", ["What is a race condition?", "What does COMMIT do?", "What is thrashing?"])
def test_a_notes_answer_names_the_note(college_db, llm, question):
    noted = AgenticAgent(college_db, llm).answer(question)
    assert noted.status == "answered" and f"note {noted.rows[0][0]}" in noted.answer


def test_a_follow_up_to_a_two_part_answer_resolves_she(college_db, llm):
    talk = AgenticAgent(college_db, llm, memory=ShortTermMemory())
    first = talk.answer("Who is best at DBMS, and which clubs is she in?")
    second = talk.answer("What year is she in?")
    assert talk.last is not None and talk.last.question == "What year is she in?"
    assert [s.question for s in second.sub_questions] == ["What year is she in?"] and len(first.sub_questions) == 2
    assert 2 in second.values() and "Payal" in second.answer


def test_with_a_model_each_role_is_one_call_and_every_reply_is_used(college_db):
    model = ScriptedLLM([
        json.dumps({"questions": ["Who should I learn ML from?", "Which project is he on?"]}),
        ToolCall("learn_skill_from", {"skill": "machine learning"}),
        "Rahul (Advanced), then Karan (Intermediate).",
        json.dumps({"question": "Which project is Rahul on?"}),
        ToolCall("text2cypher", {"question": "Which project is Rahul on?"}),
        "MATCH (:Student {name: 'Rahul'})-[:WORKS_ON]->(p:Project) RETURN p.name AS project",
        "Rahul works on the Campus Chatbot.",
        json.dumps({"complete": True, "missing": []}),
    ])
    scripted = AgenticAgent(college_db, model).answer("Who should I learn ML from, and which project is he on?")
    assert scripted.sub_questions[1].rows == [["Campus Chatbot"]] and model.remaining == 0


@pytest.mark.slow
def test_side_by_side_only_the_agentic_agent_answers_every_part(college_db, llm):
    import pandas as pd

    multi = pd.DataFrame(compare(college_db, load_parts(MULTIPART_SET), llm)).set_index("agent")
    notes = pd.DataFrame(compare(college_db, load_parts(NOTES_SET), llm)).set_index("agent")
    assert multi.loc["agentic", "full"] == 22 and multi.loc["pipeline", "full"] == 0
    assert multi.loc["agentic, critic off", "half"] >= 1 and notes.loc["agentic", "full"] >= 27
    assert notes.loc["pipeline", "full"] == 0 and notes.loc["agentic", "wrong"] == 0
    calls = multi.loc["agentic", "llm_calls_per_question"] / multi.loc["pipeline", "llm_calls_per_question"]
    tokens = multi.loc["agentic", "tokens_per_question"] / multi.loc["pipeline", "tokens_per_question"]
    assert calls > 2 and tokens > 2     # the price of answering every part


@pytest.mark.slow
def test_the_command_line_runs_rahuls_two_parts_through_two_tools(college_db):
    import os
    import subprocess
    import sys

    env = {**os.environ, "COURSE_DB": college_db.location, "COURSE_GRAPH": college_db.graph_name}
    out = subprocess.run([sys.executable, "-m", "course", "ask", "--agent", "agentic", "--json",
                          "Who is Rahul and what does he study?"],
                         capture_output=True, text=True, timeout=300, env=env)
    record = json.loads(out.stdout)
    assert record["agent"] == "agentic"
    assert [p["tool"] for p in record["sub_questions"]] == ["student_profile", "text2cypher"]
