"""Notebook 06 (memory): the facts its cells print, checked here rather than in the lesson."""
from __future__ import annotations

import pytest

from course import Agent, ScriptedLLM, ShortTermMemory, make_llm

FOLLOW_UPS = [
    # (first question, follow-up, whom the follow-up is about, reference query)
    ("Who is Rahul?", "what skills does he have?", "Rahul",
     "MATCH (:Student {name: 'Rahul'})-[:HAS_SKILL]->(k:Skill) RETURN k.name"),
    ("Which club is Rahul in?", "When was it founded?", "Robotics Club",
     "MATCH (c:Club {name: 'Robotics Club'}) RETURN c.founded"),
    ("Who studies DBMS?", "and Computer Networks?", "Computer Networks",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'Computer Networks'}) RETURN s.name"),
    ("Karan kaun hai?", "uske projects?", "Karan",
     "MATCH (:Student {name: 'Karan'})-[:WORKS_ON]->(p:Project) RETURN p.name"),
]


def test_without_memory_uska_points_at_nobody(college_db):
    forgetful = Agent(college_db, make_llm("offline"))
    first, second = forgetful.answer("Who is Payal?"), forgetful.answer("uska year kya hai?")
    assert first.status == "answered" and "Payal" in first.answer
    assert second.mentions == [] and "Payal" not in (second.cypher or "")


def test_with_memory_uska_is_payal(college_db):
    memory = ShortTermMemory(max_turns=5)
    agent = Agent(college_db, make_llm("offline"), memory=memory)
    agent.answer("Who is Payal?")
    year = agent.answer("uska year kya hai?")
    assert year.status == "answered" and "Payal" in year.cypher and 2 in year.values()
    assert memory.last("Student") == "Payal"


@pytest.mark.parametrize("opener, follow_up, about, reference", FOLLOW_UPS)
def test_a_follow_up_is_about_what_the_opener_named(college_db, opener, follow_up, about, reference):
    agent = Agent(college_db, make_llm("offline"), memory=ShortTermMemory())
    agent.answer(opener)
    result = agent.answer(follow_up)
    assert result.status == "answered" and about in result.cypher
    assert set(college_db.run(reference).values()) <= set(result.values())


def test_five_turns_are_kept_and_each_kind_keeps_its_last_entity(college_db):
    memory = ShortTermMemory(max_turns=5)
    agent = Agent(college_db, make_llm("offline"), memory=memory)
    agent.answer("Who is Payal?")
    agent.answer("uska year kya hai?")
    for opener, follow_up, _, _ in FOLLOW_UPS:
        agent.answer(opener)
        agent.answer(follow_up)
    assert [turn.n for turn in memory.turns] == [6, 7, 8, 9, 10]
    assert memory.last("Student") == "Karan" and memory.last("Club") == "Robotics Club"


def test_the_answer_makes_payal_the_last_student_and_uski_skills_are_hers(college_db):
    memory = ShortTermMemory()
    agent = Agent(college_db, make_llm("offline"), memory=memory)
    agent.answer("Who is the best person to teach me DBMS?")
    skills = agent.answer("uski skills kya hain?")
    assert memory.last("Student") == "Payal"
    payal = college_db.run("MATCH (:Student {name: 'Payal'})-[:HAS_SKILL]->(k:Skill) RETURN k.name")
    assert set(payal.values()) <= set(skills.values())


def test_the_model_reads_the_remembered_names_fenced_as_data(college_db):
    scripted = ScriptedLLM([   # a mock of a model, replaying its outputs
        "MATCH (s:Student) WHERE toLower(s.name) CONTAINS 'payal' RETURN s.name, s.year, s.branch",
        "Payal is a second-year CSE student.",
        "```cypher\nMATCH (s:Student {name: 'Payal'}) RETURN s.year\n```",
        "Payal is in her second year.",
    ])
    chat = Agent(college_db, scripted, memory=ShortTermMemory())
    chat.answer("Who is Payal?")
    year = chat.answer("uska year kya hai?")
    assert "RECENTLY MENTIONED (most recent first):\n<<<DATA" in scripted.prompts[2]
    assert "- Student: Payal\nDATA>>>" in scripted.prompts[2]
    assert year.rows == [[2]]   # the query ran on the graph: the year is the graph's
