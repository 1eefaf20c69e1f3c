"""Asks that go on from the last one: a step further along a chain ("..., and before that?",
"And after that?"), the same ask of a name said by its initials ("and CN?") (issue 23).

A teaching assistant's probe: "What must I learn before Virtual Memory, and before that?" was
read as one query two steps back, and said there was none (Paging comes before Virtual Memory);
"What comes after Operating Systems?" then "And after that?" answered "Computer Networks and
DSA": "that" was read as Operating Systems, with no way along the link, and DSA comes before it.
Each answer is judged by rows against a hand-written reference query.
"""
from __future__ import annotations

import pytest

from course.llm.offline import OfflineLLM
from course.pipeline.comparison import same_rows
from course.pipeline.memory import ShortTermMemory


@pytest.fixture
def learner(college_db):
    from course.planner.planner_tools import learner_agent

    return learner_agent(college_db, OfflineLLM(), memory=ShortTermMemory())


def before(label: str, name: str) -> str:
    return f"MATCH (x:{label})-[:PREREQUISITE_FOR]->(:{label} {{name: '{name}'}}) RETURN x.name"


@pytest.mark.parametrize("question, first, second", [
    ("What must I learn before Virtual Memory, and before that?", before("Concept", "Virtual Memory"),
     before("Concept", "Paging")),
    ("What do I need before Computer Networks, and before that?", before("Subject", "Computer Networks"),
     before("Subject", "Operating Systems")),
    ("Which concept must be learned before BCNF, and before that?", before("Concept", "BCNF"),
     before("Concept", "3NF")),
], ids=["none-before-the-step", "subjects", "concepts"])
def test_and_before_that_is_the_step_before_the_step(learner, college_db, question, first, second):
    learner.answer(question)
    parts = learner.last.sub_questions
    assert len(parts) == 2 and all(s.status == "answered" for s in parts), [s.answer for s in parts]
    assert same_rows(parts[0].rows, college_db.run(first).rows)
    assert same_rows(parts[1].rows, college_db.run(second).rows)


def test_and_after_that_in_the_next_turn_goes_on_from_the_answer(learner, college_db):
    learner.answer("what comes after DSA?")
    after = "MATCH (:Subject {name: $name})-[:PREREQUISITE_FOR]->(x:Subject) RETURN x.name"
    result = learner.answer("and after that?")
    found = college_db.run(after, {"name": "Operating Systems"}).rows
    assert result.status == "answered" and same_rows(result.rows, found)
    result = learner.answer("and after that?")
    assert college_db.run(after, {"name": "Computer Networks"}).rows == []
    assert result.status == "answered" and result.rows == []


def test_a_follow_up_after_a_name_said_by_its_initials_asks_the_same(learner, college_db):
    """A teaching assistant's probe: "How many concepts does OS cover?" then "and CN?" was
    refused: the last question named Operating Systems by its initials, and the follow-up
    found no name in it to put CN's in place of."""
    learner.answer("How many concepts does OS cover?")
    result = learner.answer("and CN?")
    reference = "MATCH (:Subject {name: 'Computer Networks'})-[:COVERS]->(c:Concept) RETURN count(c)"
    assert result.status == "answered" and same_rows(result.rows, college_db.run(reference).rows), result.answer


def test_maangta_is_what_a_project_needs(learner, college_db):
    """A fresh question at the end of the stop: "kaun sa project sabse zyada skills maangta hai?"
    dropped "maangta" (needs) as an unknown word and counted the skills of each project's members
    (Campus Chatbot, 3): the project's own needs are asked."""
    result = learner.answer("kaun sa project sabse zyada skills maangta hai?")
    needs = "MATCH (p:Project)-[:REQUIRES]->(k:Skill) WITH p, count(k) AS n"
    reference = f"{needs} WITH max(n) AS top {needs}, top WHERE n = top RETURN p.name, n"
    assert result.status == "answered" and same_rows(result.rows, college_db.run(reference).rows), result.answer
