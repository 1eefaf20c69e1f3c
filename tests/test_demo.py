"""The five demo questions, end to end through the agent, judged on the rows they return.

Each answer is judged by the facts of DESIGN.md, checked here by hand-written conditions
on the rows (not by comparing the agent with itself), with ScriptedLLM (the course text's
Cypher, corrected where it is wrong) and with the offline provider.
"""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from course.foundation.config import PROJECT_ROOT
from course.foundation.dataset import load_schema
from course.foundation.server import EmbeddedServer
from course.llm.scripted import ScriptedLLM
from course.pipeline.agent import Agent
from course.ui.demo import FIVE_QUESTIONS, GRADE_RANK, LEVEL_RANK, judge, run_demo

STUDENTS = {"Aarav", "Payal", "Rahul", "Sneha", "Karan"}


def texts(rows) -> list[str]:
    """Every text value in the rows, lists flattened, in order."""
    found = []
    for row in rows:
        for value in row:
            found += [v for v in value if isinstance(v, str)] if isinstance(value, list) \
                else [value] if isinstance(value, str) else []
    return found


def students_in(rows) -> list[str]:
    return [v for v in texts(rows) if v in STUDENTS]


def judge_q1(rows) -> bool:   # Payal (A+); Aarav (A) next
    names = students_in(rows)
    return bool(names) and names[0] == "Payal" and names[1:] in ([], ["Aarav"])


def judge_q2(rows) -> bool:   # Payal, in Coding Club and Debate Society
    return students_in(rows) == ["Payal"] and \
        {"Coding Club", "Debate Society"} <= set(texts(rows)) and "Robotics Club" not in texts(rows)


def judge_q3(rows) -> bool:   # 1NF -> 2NF -> 3NF -> BCNF
    concepts = [v for v in texts(rows) if v.endswith("NF")]
    return concepts == ["1NF", "2NF", "3NF", "BCNF"]


def judge_q4(rows) -> bool:   # Indexing, Query Optimization, Transactions
    return sorted(texts(rows)) == ["Indexing", "Query Optimization", "Transactions"]


def judge_q5(rows) -> bool:   # Rahul before Karan
    return students_in(rows) == ["Rahul", "Karan"]


JUDGES = {1: judge_q1, 2: judge_q2, 3: judge_q3, 4: judge_q4, 5: judge_q5}
ANSWERS = {1: "Payal (A+), then Aarav (A).", 2: "Payal: Coding Club and Debate Society.",
           3: "1NF → 2NF → 3NF → BCNF.", 4: "Indexing, Query Optimization, Transactions.",
           5: "Rahul (Advanced), then Karan (Intermediate)."}


def scripted_five() -> ScriptedLLM:
    """Cypher then answer for each question: the course text's query, corrected where wrong."""
    script = []
    for item in FIVE_QUESTIONS:
        script += [item.corrected_cypher or item.course_cypher, ANSWERS[item.number]]
    return ScriptedLLM(script)


def test_the_judges_tell_right_rows_from_wrong_ones():
    assert judge_q1([["Payal", "A+"], ["Aarav", "A"]]) and not judge_q1([["Aarav", "A"], ["Payal", "A+"]])
    assert judge_q2([["Payal", ["Debate Society", "Coding Club"]]])
    assert not judge_q2([["Payal", ["Coding Club"]], ["Sneha", ["Debate Society"]]])
    assert judge_q3([[["1NF", "2NF", "3NF", "BCNF"]]]) and not judge_q3([[["1NF", "BCNF"]]])
    assert not judge_q4([["Indexing"], ["Routing"]])
    assert judge_q5([["Rahul", "Advanced"], ["Karan", "Intermediate"]])
    assert not judge_q5([["Karan", "Intermediate"], ["Rahul", "Advanced"]])


def test_five_questions_through_the_agent_with_scripted_cypher(college_db):
    llm = scripted_five()
    agent = Agent(college_db, llm)
    for item in FIVE_QUESTIONS:
        result = agent.answer(item.question)
        assert result.status == "answered", (item.number, result.error)
        assert JUDGES[item.number](result.rows), (item.number, result.rows)
        assert result.answer == ANSWERS[item.number] and result.provider == "Scripted"
        assert len(result.attempts) == 1
    assert llm.remaining == 0
    # The agent gave the LLM the question and, for the answer, the rows fenced as data.
    assert "QUESTION: Who should I learn ML from?" in llm.prompts[-2]
    assert "<<<DATA" in llm.prompts[-1] and '["Rahul", "Advanced"]' in llm.prompts[-1]


def test_five_questions_through_the_agent_with_the_offline_provider(college_db):
    from course.llm.offline import OfflineLLM

    agent = Agent(college_db, OfflineLLM())
    for item in FIVE_QUESTIONS:
        result = agent.answer(item.question)
        assert result.status == "answered", (item.number, result.error)
        assert JUDGES[item.number](result.rows), (item.number, result.cypher, result.rows)
        assert result.provider == "Offline"


@pytest.mark.parametrize("item", FIVE_QUESTIONS, ids=lambda q: f"q{q.number}")
def test_course_text_and_corrected_queries(college_db, item):
    """The course text's queries give the DESIGN answers, except Q5's string ordering."""
    course_rows = college_db.run(item.course_cypher).rows
    if item.number == 5:
        assert students_in(course_rows) == ["Karan", "Rahul"]   # "Intermediate" > "Advanced"
    else:
        assert JUDGES[item.number](course_rows), course_rows
    if item.corrected_cypher:
        assert JUDGES[item.number](college_db.run(item.corrected_cypher).rows)


def test_grade_order_as_text_is_wrong_in_general(college_db):
    """On DSA the course text's Q1 query picks Karan (B) over Payal and Rahul (A)."""
    q1 = FIVE_QUESTIONS[0]
    as_text = college_db.run(q1.course_cypher.replace("'dbms'", "'dsa'")).rows
    by_scale = college_db.run(q1.corrected_cypher.replace("'dbms'", "'dsa'")).rows
    assert as_text == [["Karan", "B"]]
    assert [r[1] for r in by_scale] == ["A", "A", "B"] and by_scale[-1][0] == "Karan"


def test_the_rank_cases_follow_the_schema_scales():
    scales = {rel["type"]: rel.get("properties") or {} for rel in load_schema()["relationships"]}
    grade = scales["STUDIES"]["grade"]["scale"]
    level = scales["HAS_SKILL"]["level"]["scale"]
    assert GRADE_RANK == "CASE r.grade " + " ".join(
        f"WHEN '{v}' THEN {i}" for i, v in enumerate(grade)) + " END"
    assert LEVEL_RANK == "CASE h.level " + " ".join(
        f"WHEN '{v}' THEN {i}" for i, v in enumerate(level)) + " END"


def test_run_demo_prints_question_cypher_answer_and_provider(college_db):
    out = io.StringIO()
    results = run_demo(college_db, llm=scripted_five(), out=out)
    text = out.getvalue()
    assert [r.question for r in results] == [q.question for q in FIVE_QUESTIONS]
    for item in FIVE_QUESTIONS:
        assert f"{item.number}. {item.question}" in text
        assert (item.corrected_cypher or item.course_cypher).splitlines()[-1].strip() in text
        assert f"Answer: {ANSWERS[item.number]}" in text
    assert text.count("[answered; Scripted; 1 attempt; 2 model calls]") == 5
    assert text.count("(the rows agree)") == 5
    assert "75 nodes, 132 relationships" in text


def test_run_demo_loads_the_graph_when_it_is_missing(empty_db):
    out = io.StringIO()
    results = run_demo(empty_db, llm=scripted_five(), out=out)
    assert all(JUDGES[i + 1](r.rows) for i, r in enumerate(results))


@pytest.fixture
def cli_db(tmp_path):
    """COURSE_DB for a `python -m course` process; its embedded server stopped afterwards."""
    path = tmp_path / "cli" / "college.db"
    yield path
    EmbeddedServer(path).stop()


@pytest.mark.slow
def test_course_demo_command_offline(cli_db):
    env = {**os.environ, "COURSE_DB": str(cli_db), "PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run([sys.executable, "-m", "course", "demo", "--provider", "offline"],
                          capture_output=True, text=True, env=env, timeout=120, cwd=cli_db.parent.parent)
    assert done.returncode == 0, done.stderr
    assert "offline provider" in done.stdout
    for item in FIVE_QUESTIONS:
        assert f"{item.number}. {item.question}" in done.stdout
    assert done.stdout.count("[answered; Offline; 1 attempt; 2 model calls]") == 5
    for answer in ("Payal (A+)", "Coding Club", "1NF → 2NF → 3NF → BCNF", "Transactions", "Rahul (Advanced)"):
        assert answer in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_course_demo_with_an_unknown_provider_says_so_in_one_line(cli_db):
    env = {**os.environ, "COURSE_DB": str(cli_db), "PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run([sys.executable, "-m", "course", "demo", "--provider", "nosuch"],
                          capture_output=True, text=True, env=env, timeout=120, cwd=cli_db.parent.parent)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: Unknown LLM provider 'nosuch'")


def test_judge_compares_with_the_reference_query(college_db):
    q1, q2, q3, q4, q5 = FIVE_QUESTIONS
    assert judge(college_db, q1, [["Payal", "A+"]])                   # the course text's LIMIT 1
    assert not judge(college_db, q1, [["Aarav", "A"], ["Payal", "A+"]])
    assert judge(college_db, q2, [["Payal", ["Coding Club", "Debate Society"]]])
    assert not judge(college_db, q2, [["Payal", ["Coding Club"]]])
    assert judge(college_db, q3, [[["1NF", "2NF", "3NF", "BCNF"]]])
    assert not judge(college_db, q3, [[["1NF", "BCNF"]]])
    assert judge(college_db, q4, [["Transactions"], ["Indexing"], ["Query Optimization"]])
    assert not judge(college_db, q4, [["Indexing"], ["Query Optimization"], ["Transactions"], ["Routing"]])
    assert not judge(college_db, q5, college_db.run(q5.course_cypher).rows)
    assert not judge(college_db, q5, [])
