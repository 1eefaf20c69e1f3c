"""Notebook 14 (study planner): the facts its cells print, checked here rather than in the lesson."""
from __future__ import annotations

import pytest

from course import Agent, GraphMemory, ScriptedLLM, ShortTermMemory, make_llm
from course.planner.order import CYPHER_CYCLES, CYPHER_ORDER, cypher_order
from course.planner.peers import peers
from course.planner.plans import plan
from course.planner.planner_tools import learner_agent
from course.planner.weak_spots import weak_spots
from course.planner.writeup import OFFLINE_WRITER, write_offline, write_up

STUDENTS = ["Aarav", "Payal", "Rahul", "Sneha", "Karan"]
SUBJECTS = ["DBMS", "DSA", "Operating Systems", "Computer Networks"]


def test_snehas_plan_pulls_in_arrays_linked_lists_and_trees_before_indexing(college_db):
    sneha = plan(college_db, "Sneha", "DBMS", days=10)
    order = sneha.order()
    assert {"Trees", "Linked Lists", "Arrays"} <= set(order)
    assert order.index("Arrays") < order.index("Linked Lists") < order.index("Trees") < order.index("Indexing")
    assert [k.concept for k in sneha.known] == ["Deadlocks", "Paging"]
    assert len(order) == 11 and len(sneha.days) == 10 and sneha.without_note() == ["Linked Lists"]


def test_cypher_gives_the_same_order_as_python_for_sneha(college_db):
    rows = college_db.run(CYPHER_ORDER, {"student": "S04", "subject": "CS201"}).rows
    assert [name for name, _ in rows] == plan(college_db, "Sneha", "DBMS", days=10).order()


@pytest.mark.parametrize("student", STUDENTS)
def test_python_and_cypher_agree_for_every_subject(college_db, student):
    for subject in SUBJECTS:
        assert plan(college_db, student, subject, days=30).order() == cypher_order(college_db, student, subject)


def test_a_loop_is_scheduled_around_and_named(college_db, _shared_server):
    assert college_db.run(CYPHER_CYCLES).rows == []
    toy = _shared_server.select(college_db.graph_name + "_cycle")
    toy.query("""
    CREATE (x:Subject {code: 'X1', name: 'Xology'}), (:Student {id: 'T1', name: 'Tara'}),
           (a:Concept {id: 'A', name: 'A'}), (b:Concept {id: 'B', name: 'B'}), (c:Concept {id: 'C', name: 'C'}),
           (d:Concept {id: 'D', name: 'D'}), (e:Concept {id: 'E', name: 'E'}), (f:Concept {id: 'F', name: 'F'}),
           (x)-[:COVERS]->(a), (x)-[:COVERS]->(b), (x)-[:COVERS]->(c), (x)-[:COVERS]->(d),
           (x)-[:COVERS]->(e), (x)-[:COVERS]->(f),
           (a)-[:PREREQUISITE_FOR]->(b), (b)-[:PREREQUISITE_FOR]->(c), (c)-[:PREREQUISITE_FOR]->(a),
           (b)-[:PREREQUISITE_FOR]->(d), (e)-[:PREREQUISITE_FOR]->(f)""")
    try:
        looped = plan(toy, "Tara", "Xology", days=2)
        assert looped.order() == ["E", "F"] and looped.cycles == [["A", "B", "C", "A"]]
        assert [u.concept for u in looped.unscheduled] == ["A", "B", "C", "D"]
        assert [row[0] for row in toy.run(CYPHER_CYCLES).rows] == ["A", "B", "C"]
    finally:
        toy.graph.delete()


def test_the_plan_picture_has_a_box_per_concept_and_marks_the_one_without_a_note(college_db):
    picture = plan(college_db, "Sneha", "DBMS", days=5).picture()
    assert picture.svg.count("<rect") == 11 and "Linked Lists *" in picture.svg


def test_snehas_weak_spot_is_computer_networks_and_payal_has_none(college_db):
    spots = weak_spots(college_db, "Sneha")
    assert [(g.subject, g.grade) for g in spots.weak] == [("Computer Networks", "B")]
    assert spots.hardest == ["Firewalls"] and spots.revision_path[-2:] == ["Routing", "Firewalls"]
    assert "Graphs" in spots.revision_path    # Routing needs Graphs, from DSA
    assert weak_spots(college_db, "Payal").weak == []


def test_two_failed_turns_on_bcnf_make_a_struggle_with_what_to_revise_first(college_db):
    GraphMemory.forget_user(college_db, "S04")   # the memory of Sneha (S04) on the test server
    try:
        chat = Agent(college_db, make_llm("offline"), memory=GraphMemory(college_db, session="revision", user="S04"))
        for question in ["Why is BCNF stricter than 3NF, with a story?", "BCNF kyun zaroori hai, ek example do",
                         "How does Subnetting save addresses?"]:
            chat.answer(question)
        struggles = weak_spots(college_db, "Sneha").struggles
        assert [(s.concept, s.failures) for s in struggles] == [("BCNF", 2)]
        assert struggles[0].revise_first == ["1NF", "2NF", "3NF"]
    finally:
        GraphMemory.forget_user(college_db, "S04")


def test_partners_and_mentors(college_db):
    assert peers(college_db, "Sneha").to_dict()["peers"] == [
        {"student": "Rahul", "kind": "partner", "subject": "Computer Networks",
         "reason": "Rahul: B+ in Computer Networks, like your B"}]
    karan = peers(college_db, "Karan").peers
    assert [(p.student, p.kind) for p in karan] == [("Payal", "mentor"), ("Rahul", "mentor")]
    assert "already friends" in karan[1].reason


def test_the_offline_writer_names_every_concept_and_a_forgetful_model_is_replaced(college_db):
    sneha = plan(college_db, "Sneha", "DBMS", days=10)
    written = write_up(sneha, make_llm("offline"))
    assert written.writer == OFFLINE_WRITER and all(name in written.text for name in sneha.order())
    forgetful = ScriptedLLM(["Sneha, start with Normalization and work up to Query Optimization."])
    checked = write_up(sneha, forgetful)
    assert checked.missing and "BCNF" in checked.missing and checked.text == write_offline(sneha)


def test_the_plan_asked_for_in_the_chat_is_the_planners_plan(college_db):
    chat = learner_agent(college_db, make_llm("offline"), memory=ShortTermMemory())
    asked = chat.answer("Sneha has 10 days to learn DBMS, make her a plan")
    assert [row[1] for row in asked.sub_questions[0].rows] == [
        d.names() for d in plan(college_db, "Sneha", "DBMS", days=10).days]


@pytest.mark.slow
def test_the_command_line_plan_is_the_same_plan_and_bad_input_is_a_sentence(college_db):
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "COURSE_DB": college_db.location, "COURSE_GRAPH": college_db.graph_name}

    def run(*args):
        done = subprocess.run([sys.executable, "-m", "course", *args], capture_output=True, text=True,
                              timeout=300, env=env)
        assert "Traceback" not in done.stdout + done.stderr
        return done
    record = json.loads(run("plan", "--student", "s04", "--subject", "dbms", "--days", "10", "--json").stdout)
    assert record == plan(college_db, "Sneha", "DBMS", days=10).to_dict()
    for args in (["plan", "--student", "Zed", "--subject", "DBMS"],
                 ["plan", "--student", "Sneha", "--subject", "DBMS", "--days", "0"],
                 ["plan", "--student", "Sneha", "--subject", "DBMS", "--days", "400"],
                 ["plan", "--student", "Aarav", "--subject", "CS201"]):
        assert run(*args).returncode == (0 if args[2] == "Aarav" else 1)
