"""A learner's texting shorthand and short forms (issue 23's unseen questions, unseen72).

A student typing on a phone writes "wt", "wts", "wen", "n" and the course's short forms
("dp", "os"). Each was a refusal: a shorthand the rules did not read, a short form the note
search's encoder never learned, "add" inside a question about what a normal form adds read
as a request to change the data. Each answer here is judged against the note or a
hand-written reference query.
"""
from __future__ import annotations

import pytest

from course.llm.offline import OfflineLLM
from course.llm.offline.roles.updater import RuleUpdater
from course.pipeline.comparison import same_rows
from course.pipeline.memory import ShortTermMemory
from course.retrieval.short_forms import short_forms_written_out


@pytest.fixture
def learner(college_db):
    from course.planner.planner_tools import learner_agent

    return learner_agent(college_db, OfflineLLM(), memory=ShortTermMemory())


@pytest.mark.parametrize("question, note", [
    ("wt extra condition does 3nf add on top of 2nf, i keep mixing them up", "N04"),
    ("wt does tcp add on top of ip", "N21"),
])
def test_what_a_thing_adds_is_no_request_to_change_the_data(learner, question, note):
    """"what extra condition does 3NF add": the thing asked ("extra condition") stands between
    the question word and the verb; it asks what 3NF does, as "what does TCP add" does."""
    result = learner.answer(question)
    assert result.status == "answered", result.answer
    assert learner.last.sub_questions[0].rows[0][0] == note


def test_a_short_form_is_searched_with_the_name_it_stands_for(learner, college_db):
    """"when do you actually use dp" found the note on TCP/IP first: the encoder never learned
    that "dp" is Dynamic Programming, which the schema's aliases say. A subject's short form
    ("OS") stays as it is: the whole subject's name adds nothing its notes do not all share."""
    assert short_forms_written_out(college_db, "when is DP used? and ACID? in OS?") == \
        "when is DP (Dynamic Programming) used? and ACID (Transactions)? in OS?"
    result = learner.answer("when do you actually use dp")
    assert result.status == "answered", result.answer
    assert learner.last.sub_questions[0].rows[0][0] == "N15"


def test_wen_asks_when(learner, college_db):
    result = learner.answer("wen was debate society started")
    assert result.status == "answered", result.answer
    assert 2012 in [cell for row in result.rows for cell in row]


def test_his_thing_before_a_comma_is_an_ask_of_its_own(learner, college_db):
    """"rahul's skills and his level in each, also which club is he in": "his level in each"
    asks as "Rahul's level" would; ", also" then opens the third ask."""
    result = learner.answer("rahul's skills and his level in each, also which club is he in")
    parts = learner.last.sub_questions
    assert result.status == "answered" and len(parts) == 3, result.answer
    assert same_rows(parts[2].rows, college_db.run(
        "MATCH (:Student {name: 'Rahul'})-[:MEMBER_OF]->(c:Club) RETURN c.name").rows)


def test_an_n_opening_a_sentence_is_and():
    """"who got A in dsa? n wt did karan get": the "n" is the "and" a texter writes."""
    assert RuleUpdater().split("who got A in dsa? n wt did karan get") == \
        ["who got A in dsa?", "wt did karan get?"]


def test_things_described_before_a_comma_are_an_ask_of_their_own(learner, college_db):
    """unseen74 by041: "the topics we need before indexing, which subjects teach those?" was
    one ask no query answered: "the topics we need ..." asks for them as "which topics" would."""
    result = learner.answer("the topics we need before indexing, which subjects teach those?")
    parts = learner.last.sub_questions
    assert result.status == "answered" and len(parts) == 2, result.answer
    assert same_rows([row[-1:] for row in parts[1].rows], college_db.run(
        "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Indexing'}) "
        "MATCH (s:Subject)-[:COVERS]->(c) RETURN s.name").rows)


def test_x_explain_karo_is_a_definition(learner):
    """unseen74 by028: "HTTP explain karo plz, and which topic shud be learnt before HTTP" was
    one ask: "X explain karo" asks what X is, as "explain X" does."""
    result = learner.answer("HTTP explain karo plz, and which topic shud be learnt before HTTP")
    parts = learner.last.sub_questions
    assert result.status == "answered" and len(parts) == 2, result.answer
    assert parts[0].rows[0][0] == "N22" and parts[1].rows == [["DNS"]]


def test_operations_run_together_are_no_request_to_change_the_data(learner):
    """unseen74 by005: "BST mein search insert delete kitna time lete hai?" was refused as a
    write: "insert" and "delete" name operations side by side, as "search, insert and delete" do."""
    result = learner.answer("BST mein search insert delete kitna time lete hai?")
    assert result.status == "answered", result.answer
    assert learner.last.sub_questions[0].rows[0][0] == "N11"


@pytest.mark.parametrize("question, reference", [
    ("who works on attendance tracker n as wt",
     "MATCH (s:Student)-[r:WORKS_ON]->(:Project {name: 'Attendance Tracker'}) RETURN s.name, r.role"),
    ("rahul is in which club and as what?",
     "MATCH (:Student {name: 'Rahul'})-[r:MEMBER_OF]->(c:Club) RETURN c.name, r.role"),
])
def test_as_what_asks_the_role(learner, college_db, question, reference):
    """unseen72 bw024: "... who works on it n as wt" left "as what" unread: "as what" asks in
    which role, as "in what role" does."""
    result = learner.answer(question)
    assert result.status == "answered" and same_rows(result.rows, college_db.run(reference).rows), result.answer


@pytest.mark.parametrize("question, second", [
    ("first what is a deadlock, then what do I need to learn before deadlocks",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Deadlocks'}) RETURN c.name"),
    ("skills needed for the attendance tracker, plus which students have that skill and at what level",
     "MATCH (:Project {name: 'Attendance Tracker'})-[:REQUIRES]->(k)<-[r:HAS_SKILL]-(s) RETURN s.name, r.level"),
], ids=["first-then", "kind-noun-first"])
def test_asks_listed_with_first_then_or_a_kind_first(learner, college_db, question, second):
    """A multi-part probe: "first what is a deadlock, then what do I need ..." and "skills
    needed for the attendance tracker, plus which students ..." were one ask each: "first"
    orders the asks and asks nothing; a kind's noun opening a clause asks for those things."""
    result = learner.answer(question)
    parts = learner.last.sub_questions
    assert result.status == "answered" and len(parts) == 2, result.answer
    assert same_rows(parts[1].rows, college_db.run(second).rows)


def test_and_in_which_semester_after_a_scope_the_updater_added(learner, college_db):
    """A multi-part probe: "Which students study DBMS and what grade did each get, also in
    which semester" refused its second part: the "in DBMS" the scope put after "in which
    semester" hid that the last ask asks only a property of the link."""
    result = learner.answer("Which students study DBMS and what grade did each get, also in which semester")
    parts = learner.last.sub_questions
    assert result.status == "answered" and len(parts) == 2, result.answer
    assert same_rows(parts[1].rows, college_db.run(
        "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DBMS'}) RETURN s.name, r.semester, r.grade").rows)
