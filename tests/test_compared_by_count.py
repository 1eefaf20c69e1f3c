"""Two named things compared by how many of something each has (issue 23's unseen questions).

"Who has more skills, Rahul or Aarav?" names two students and compares a count, not a number
property of theirs: it was refused, and in Hinglish ("kiske paas zyada skills hai, Rahul ya
Aarav?") answered with every skill of both, confidently wrong. Each answer here is judged by
rows against a hand-written reference query.
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


def answered_with(result, db, reference: str) -> bool:
    return result.status == "answered" and same_rows(result.rows, db.run(reference).rows)


def _most(names: str, pattern: str, pick: str = "max") -> str:
    """The reference: of the nodes named, the ones with the most (`pick` "min": fewest) links of
    `pattern`, ties kept."""
    counts = f"MATCH (t) WHERE t.name IN [{names}] OPTIONAL MATCH {pattern} WITH t, count(DISTINCT k) AS n"
    return f"{counts} WITH {pick}(n) AS top {counts}, top WHERE n = top RETURN t.name, n"


@pytest.mark.parametrize("question, reference", [
    ("who has more skills, Rahul or Aarav?", _most("'Rahul', 'Aarav'", "(t)-[:HAS_SKILL]->(k)")),
    ("kiske paas zyada skills hai, Rahul ya Aarav?", _most("'Rahul', 'Aarav'", "(t)-[:HAS_SKILL]->(k)")),
    ("Which club has more members, Coding Club or Robotics Club?",
     _most("'Coding Club', 'Robotics Club'", "(t)<-[:MEMBER_OF]-(k)")),
    ("Who has more friends, Payal or Karan?", _most("'Payal', 'Karan'", "(t)-[:FRIENDS_WITH]-(k)")),
    ("Which project needs more skills, Campus Chatbot or Attendance Tracker?",
     _most("'Campus Chatbot', 'Attendance Tracker'", "(t)-[:REQUIRES]->(k)")),
], ids=["skills", "hinglish", "members", "friends", "project-skills"])
def test_which_named_has_more_of_a_count(learner, college_db, question, reference):
    result = learner.answer(question)
    assert answered_with(result, college_db, reference), (result.answer, result.rows)


@pytest.mark.parametrize("question, expected", [
    ("Does Rahul have more skills than Aarav?", True),
    ("Does Sneha have more friends than Aarav?", False),       # one each: not more
    ("Does the Coding Club have fewer members than the Robotics Club?", False),
    ("Karan ke paas Sneha se zyada skills hain kya?", True),
])
def test_more_of_a_count_than_another_asked_yes_or_no(learner, question, expected):
    result = learner.answer(question)
    assert result.status == "answered" and result.rows == [[expected]], (result.answer, result.rows)


def test_a_name_before_se_zyada_is_not_a_number(learner):
    """"Payal se zyada" is "more than Payal": the threshold rule read the "1" of the name's
    placeholder (§1) as the number 1, and the critic refused the query for leaving out "> 1"."""
    result = learner.answer("kya Rahul ka year Payal se zyada hai?")
    assert result.status == "answered" and result.rows == [[True]], result.answer


def test_a_comparison_nothing_counts_is_still_refused(learner):
    """Nothing dates a student: "older" of two students has no number to compare."""
    assert learner.answer("Is Karan older than Sneha?").status != "answered"


def test_been_in_a_club_longer_compares_when_each_joined(learner, college_db):
    """A council member's probe: "Who has been in the Debate Society longer, Sneha or Payal?"
    was refused for "longer": a membership held longer began earlier."""
    result = learner.answer("Who has been in the Debate Society longer, Sneha or Payal?")
    reference = ("MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Debate Society'}) "
                 "WHERE s.name IN ['Sneha', 'Payal'] WITH s, r ORDER BY r.since LIMIT 1 RETURN s.name, r.since")
    assert answered_with(result, college_db, reference), (result.answer, result.rows)


@pytest.mark.parametrize("question, reference", [
    ("who has fewer skills than Rahul?",
     "MATCH (b:Student {name: 'Rahul'})-[:HAS_SKILL]->(x) WITH b, count(x) AS nb "
     "MATCH (t:Student)-[:HAS_SKILL]->(k) WITH t, nb, count(k) AS n WHERE n < nb RETURN t.name, n"),
    ("who is in more clubs than Rahul?",
     "MATCH (b:Student {name: 'Rahul'})-[:MEMBER_OF]->(x) WITH b, count(x) AS nb "
     "MATCH (t:Student)-[:MEMBER_OF]->(k) WITH t, nb, count(k) AS n WHERE n > nb RETURN t.name, n"),
    ("who is in a higher year than Aarav?",
     "MATCH (b:Student {name: 'Aarav'}), (t:Student) WHERE t.year > b.year RETURN t.name, t.year"),
    ("which club is older than the coding club?",
     "MATCH (b:Club {name: 'Coding Club'}), (t:Club) WHERE t.founded < b.founded RETURN t.name, t.founded"),
], ids=["fewer-skills", "more-clubs", "higher-year", "older-club"])
def test_the_others_past_one_named(learner, college_db, question, reference):
    """A probe: "who has fewer skills than Karan?", "who is in a higher year than Aarav?" were
    refused: one name after "than" is the mark the others are compared with, by a number of
    theirs or by how many of something each has."""
    result = learner.answer(question)
    assert answered_with(result, college_db, reference), (result.answer, result.rows)


def test_none_past_the_most(learner):
    """Karan has two skills, as many as anyone: no one has more, and "none" is the answer."""
    result = learner.answer("who has more skills than Karan?")
    assert result.status == "answered" and result.rows == [], result.answer


@pytest.mark.parametrize("question", ["which of Karan, Rahul and Payal has the most skills?",
                                      "which of Karan, Rahul and Payal has the fewest skills?"])
def test_the_most_of_a_count_among_the_named(learner, college_db, question):
    """A probe: "who studies DSA?" then "which of them has the most skills?" was refused: "the
    most skills" among the named counts each one's skills as "more skills" does (a tie: all)."""
    pick = "max" if "most" in question else "min"
    result = learner.answer(question)
    reference = _most("'Karan', 'Rahul', 'Payal'", "(t)-[:HAS_SKILL]->(k)", pick)
    assert answered_with(result, college_db, reference), result.answer
