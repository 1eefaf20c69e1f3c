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


@pytest.mark.parametrize("first, then, reference", [
    ("who got B or above in OS?", "which of them got below A?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'Operating Systems'}) WHERE r.grade IN ['B+', 'B', 'C'] "
     "RETURN s.name"),
    ("who studies DSA?", "which of them got an A?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DSA'}) WHERE r.grade = 'A' RETURN s.name"),
], ids=["a-range", "a-grade"])
def test_which_of_them_in_the_next_turn_keeps_what_the_last_was_narrowed_to(learner, college_db, first,
                                                                            then, reference):
    """"who got B or above in OS?" then "which of them got below A?" answered Karan, Sneha and
    Aarav: each got below A somewhere, but only Aarav in OS. A grade asked of those the last
    query found along a link is a grade on that link, at the end it named."""
    learner.answer(first)
    result = learner.answer(then)
    assert result.status == "answered", result.answer
    assert same_rows(result.rows, college_db.run(reference).rows)


def test_a_grade_asked_of_members_found_is_any_grade(learner, college_db):
    """The last query named a club, not a subject: the grade may be in any subject."""
    learner.answer("who is in the coding club?")
    result = learner.answer("which of them got an A?")
    assert same_rows(result.rows, college_db.run(
        "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Coding Club'}) MATCH (s)-[r:STUDIES]->() "
        "WHERE r.grade = 'A' RETURN DISTINCT s.name").rows)


@pytest.mark.parametrize("again", ["aur kaun?", "koi aur?", "who else?"])
def test_aur_kaun_is_who_else(learner, again):
    """"aur kaun?" after "who is in the coding club?" listed the same two again: it is
    Hinglish's "who else?", which leaves out those the last answer found."""
    learner.answer("who is in the coding club?")
    result = learner.answer(again)
    assert not {"Aarav", "Payal"} & {cell for row in result.rows for cell in row}, result.answer


def test_which_of_them_got_the_best_grade_chooses_among_those_found(learner, college_db):
    """A probe: "Which students study Operating Systems, and in which semester?" then "which of
    them got the best grade?" said it could not tell what "them" means: a choice among the
    group the last answer listed is a choice among each of them, in the subject it was about."""
    learner.answer("Which students study Operating Systems, and in which semester?")
    result = learner.answer("which of them got the best grade?")
    assert result.status == "answered", result.answer
    assert same_rows(result.rows, college_db.run(
        "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'Operating Systems'}) WHERE r.grade = 'A' "
        "RETURN s.name, r.grade").rows)


@pytest.mark.parametrize("first", [None, "Which students are in 2nd year?"])
def test_else_than_the_one_asking_leaves_no_one_out(learner, college_db, first):
    """A probe: "who else is in 2nd year like me?" answered "Aarav" after a list of Payal and
    Aarav (Payal, the last named, was left out as if she were asking), and was refused on its
    own: "else ... like me" sets apart the one asking, whom the graph does not hold."""
    if first:
        learner.answer(first)
    result = learner.answer("who else is in 2nd year like me?")
    assert result.status == "answered", result.answer
    assert same_rows(result.rows, college_db.run("MATCH (s:Student) WHERE s.year = 2 RETURN s.name").rows)


@pytest.mark.parametrize("first, then, reference", [
    ("who knows machine learning?", "which of them is better?",
     "MATCH (s:Student)-[r:HAS_SKILL]->(:Skill {name: 'Machine Learning'}) WHERE r.level = 'Advanced' "
     "RETURN s.name, r.level"),
    ("who studies Computer Networks?", "which of them did better?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'Computer Networks'}) WHERE r.grade = 'B+' "
     "RETURN s.name, r.grade"),
    ("machine learning kisko aata hai apne yaha", "un mein se kaun zyada acha hai",
     "MATCH (s:Student)-[r:HAS_SKILL]->(:Skill {name: 'Machine Learning'}) WHERE r.level = 'Advanced' "
     "RETURN s.name, r.level"),
    ("who studies DSA?", "un mein se kaun 4th year mein hai?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) WHERE s.year = 4 RETURN s.name"),
], ids=["better-skill", "did-better", "zyada-acha", "un-mein-se"])
def test_better_among_those_found_is_on_the_scale_of_the_last_link(learner, college_db, first, then, reference):
    """A probe: "who knows machine learning?" then "which of them is better?" answered "Karan
    and Rahul" ("better" unread: confidently wrong), and "un mein se kaun zyada acha hai" was
    refused: "better" among those the last query found is on the scale of the link it
    followed, at the end it named ("un mein se": among them; "zyada acha": better)."""
    learner.answer(first)
    result = learner.answer(then)
    assert result.status == "answered", result.answer
    assert same_rows(result.rows, college_db.run(reference).rows)


@pytest.mark.parametrize("first, then, reference", [
    ("who knows SQL?", "And which of those is the more skilled?",
     "MATCH (s:Student)-[r:HAS_SKILL]->(:Skill {name: 'SQL'}) WHERE r.level = 'Advanced' RETURN s.name, r.level"),
    ("who studies Computer Networks?", "which of them did worse?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'Computer Networks'}) WHERE r.grade = 'B' "
     "RETURN s.name, r.grade"),
], ids=["more-skilled", "did-worse"])
def test_more_skilled_or_worse_among_those_found(learner, college_db, first, then, reference):
    """A parent's probe: "who knows SQL?" then "And which of those is the more skilled?" was
    refused: "more skilled" is "better" on the scale of the link, not a count of skills."""
    learner.answer(first)
    result = learner.answer(then)
    assert result.status == "answered" and same_rows(result.rows, college_db.run(reference).rows), result.answer


def test_the_students_at_the_institution_are_all_of_them(learner, college_db):
    """A parent's probe: "Good afternoon. Could you tell me who the students at GraphTech
    Institute are ...?" was refused: the institution the graph is of names no one apart."""
    result = learner.answer("Good afternoon. Could you tell me who the students at GraphTech Institute are?")
    assert result.status == "answered" and same_rows(result.rows, college_db.run(
        "MATCH (s:Student) RETURN s.name").rows), result.answer


@pytest.mark.parametrize("first, then, reference", [
    ("which clubs is Payal in?", "when was each of those founded?",
     "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) RETURN c.name, c.founded"),
    ("which subjects does Rahul study?", "How many credits is each of those worth?",
     "MATCH (:Student {name: 'Rahul'})-[:STUDIES]->(s:Subject) RETURN s.name, s.credits"),
], ids=["founded", "worth"])
def test_each_of_those_before_a_verb_is_each_of_them(learner, college_db, first, then, reference):
    """A parent's probe: "How many credits is each of those worth?" was refused: "those"
    before a word that is no kind's noun ("worth", "founded") stands alone, as "them" does."""
    learner.answer(first)
    result = learner.answer(then)
    assert result.status == "answered" and same_rows(result.rows, college_db.run(reference).rows), result.answer
