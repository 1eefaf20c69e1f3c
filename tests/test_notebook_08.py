"""Notebook 08 (five questions): the facts its cells print, checked here rather than in the lesson.

The five answers themselves stay checked in the notebook (each `judge` cell); what is here are
the facts the explanations around them rest on.
"""
from __future__ import annotations

import pytest

from course import Agent, make_llm
from course.ui.demo import FIVE_QUESTIONS
from course.ui.viz import draw_result

WHY_NEXT = """
MATCH (s:Student {name: 'Aarav'})-[:STUDIES]->(sub:Subject)-[:COVERS]->(c:Concept)
MATCH path = (c)-[:PREREQUISITE_FOR*1..2]->(next:Concept)
WHERE NOT (sub)-[:COVERS]->(next)
OPTIONAL MATCH (s)-[:STUDIES]->(his:Subject)-[:COVERS]->(next)
RETURN next.name, sub.name, [n IN nodes(path) | n.name], his.name"""


def test_aaravs_next_topics_are_explained_by_paths_from_operating_systems_into_dbms(college_db):
    q4 = Agent(college_db, make_llm("offline")).answer(FIVE_QUESTIONS[3].question)
    assert sorted(college_db.run(FIVE_QUESTIONS[3].course_cypher).rows) == sorted(q4.rows)
    why = college_db.run(WHY_NEXT).rows
    assert {row[0] for row in why} == {row[0] for row in q4.rows}      # every answer explained
    assert {row[2][0] for row in why} == {"Paging", "Deadlocks", "Processes", "Threads"}
    assert {row[1] for row in why} == {"Operating Systems"}
    assert {row[3] for row in why} == {"DBMS"}


def test_ml_itself_is_not_in_the_graph(college_db):
    assert college_db.run("MATCH (k:Skill {name: 'ML'}) RETURN k").rows == []


def test_the_course_texts_query_ranks_levels_and_grades_as_text(college_db):
    as_text = college_db.run(FIVE_QUESTIONS[4].course_cypher)
    assert [row[0] for row in as_text.rows] == ["Karan", "Rahul"]
    assert college_db.run("RETURN 'Intermediate' > 'Advanced', 'B' > 'A+'").rows == [[True, True]]
    assert college_db.run(FIVE_QUESTIONS[0].course_cypher.replace("'dbms'", "'dsa'")).rows == [["Karan", "B"]]


def test_the_corrected_queries_rank_by_the_schemas_scale(college_db):
    by_scale = college_db.run(FIVE_QUESTIONS[4].corrected_cypher)
    assert [row[0] for row in by_scale.rows] == ["Rahul", "Karan"]
    dsa = college_db.run(FIVE_QUESTIONS[0].corrected_cypher.replace("'dbms'", "'dsa'"))
    assert dsa.rows == [["Payal", "A"], ["Rahul", "A"], ["Karan", "B"]]


def test_the_learning_path_is_lit_up_in_order(college_db, tmp_path):
    q3 = Agent(college_db, make_llm("offline")).answer(FIVE_QUESTIONS[2].question)
    picture = draw_result(college_db, q3, name="five_q3", directory=tmp_path)
    assert picture.highlighted == ["1NF", "2NF", "3NF", "BCNF"]


@pytest.mark.slow   # half a second or more
def test_the_chat_resolves_uska_to_payal_and_lights_her_up(college_db, tmp_path, monkeypatch):
    from course.ui.widgets import open_chat

    monkeypatch.chdir(tmp_path)   # the chat's picture is written under figures/ here
    chat = open_chat(college_db, llm=make_llm("offline"), background=False)
    chat.ask("Who is Payal?", wait=True)
    chat.ask("uska year kya hai?", wait=True)
    assert any(2 in row for row in chat.session.last_reply().rows)   # "uska" was Payal: year 2
    assert chat.picture.highlighted == ["Payal"]
