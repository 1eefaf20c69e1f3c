"""The study planner (notebook 14): plans, weak spots, partners, and `course plan` / `course peers`.

The order property is checked on EVERY student x subject pair, with reference queries written
here (not the planner's own), and the Python order is compared with the one computed in Cypher.
A prerequisite cycle is tried on a small graph of the test's own.
"""
from __future__ import annotations

import doctest
import importlib
import itertools
import json
import os
import pkgutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from course.foundation.dataset import load_college
from course.foundation.errors import InvalidInput
from course.llm import RateLimited, ScriptedLLM
from course.llm.offline import OfflineLLM
from course.pipeline.graph_memory import GraphMemory
from course.pipeline.linking import Mention
from course.pipeline.results import Result
from course.planner.lookup import Named
from course.planner.order import CYPHER_CYCLES, cypher_order
from course.planner.peers import peers
from course.planner.plans import plan
from course.planner.weak_spots import grade_scale, weak_spots
from course.planner.writeup import OFFLINE_WRITER, write_offline, write_up

STUDENTS = ["S01", "S02", "S03", "S04", "S05"]
SUBJECTS = ["CS201", "CS202", "CS301", "CS302"]
PAIRS = list(itertools.product(STUDENTS, SUBJECTS))


@pytest.fixture(scope="module")
def college(_shared_server):
    """The college graph, loaded once for this module's read-only tests."""
    db = _shared_server.select("planner_college")
    load_college(db)
    yield db
    db.graph.delete()


# --- reference facts, queried here in their own way -------------------------------------------

def _known(db, student: str) -> set[str]:
    return {r[0] for r in db.run("MATCH (s:Student)-[:STUDIES]->(:Subject)-[:COVERS]->(c:Concept) "
                                 "WHERE s.id = $s RETURN c.name", {"s": student}).rows}


def _covers(db, subject: str) -> set[str]:
    return {r[0] for r in db.run("MATCH (x:Subject)-[:COVERS]->(c:Concept) WHERE x.code = $x "
                                 "RETURN c.name", {"x": subject}).rows}


def _direct(db, kind: str) -> set[tuple[str, str]]:
    return {(a, b) for a, b in db.run(f"MATCH (a:Concept)-[:{kind}]->(b:Concept) "
                                      "RETURN a.name, b.name").rows}


def _closure(edges: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """Every (a, c) with a chain a -> ... -> c, by repeated joining (a reference, not the planner's walk)."""
    closed = set(edges)
    while True:
        more = {(a, d) for a, b in closed for c, d in closed if b == c} - closed
        if not more:
            return closed
        closed |= more


@pytest.mark.parametrize("student,subject", PAIRS)
@pytest.mark.parametrize("days", [1, 3, 30])
def test_every_plan_puts_prerequisites_first(college, student, subject, days):
    p = plan(college, student, subject, days)
    order = p.order()
    position = {name: i for i, name in enumerate(order)}
    day_of = {c.name: d.day for d in p.days for c in d.concepts}
    known, covers = _known(college, student), _covers(college, subject)
    needs = _direct(college, "PREREQUISITE_FOR")
    before = _closure(needs)

    # what is in it: the subject's unknown concepts and what they need, minus what is known
    assert len(order) == len(set(order))
    assert covers - known <= set(order)
    assert not set(order) & known
    for a, c in needs:
        if c in position:
            assert a in position or a in known, f"{c} needs {a}, which is neither planned nor known"
    for name in order:   # nothing extra: each concept is the subject's, or needed by a planned one
        assert name in covers or any((name, c) in needs for c in order), name
    # the order: every prerequisite, followed transitively, comes first (earlier day or earlier that day)
    for a, c in before:
        if a in position and c in position:
            assert position[a] < position[c] and day_of[a] <= day_of[c], f"{a} must come before {c}"
    # a parent before its parts, unless a prerequisite chain says otherwise
    for parent, part in _direct(college, "INCLUDES"):
        if parent in position and part in position and (part, parent) not in before:
            assert position[parent] < position[part], f"{parent} before its part {part}"
    # spread evenly over at most `days` days, every concept with its note or flagged
    sizes = [len(d.concepts) for d in p.days]
    assert len(sizes) <= days and (not sizes or max(sizes) - min(sizes) <= 1)
    assert [d.day for d in p.days] == list(range(1, len(p.days) + 1))
    notes = dict(college.run("MATCH (n:Note)-[:EXPLAINS]->(c:Concept) RETURN c.name, n.text").rows)
    for c in p.concepts():
        assert c.text == notes.get(c.name)
    assert p.without_note() == [name for name in order if name not in notes]
    assert not p.unscheduled and not p.cycles


@pytest.mark.parametrize("student,subject", PAIRS)
def test_the_python_order_is_the_cypher_order(college, student, subject):
    assert plan(college, student, subject, 30).order() == \
        cypher_order(college, student, subject)


def test_the_issues_example_pulls_in_dsa(college):
    p = plan(college, "Sneha", "DBMS", 10)
    order = p.order()
    assert {"Trees", "Linked Lists", "Arrays"} <= set(order)
    assert order.index("Arrays") < order.index("Linked Lists") < order.index("Trees") < order.index("Indexing")
    assert {(k.concept, k.subject) for k in p.known} == {("Paging", "Operating Systems"),
                                                         ("Deadlocks", "Operating Systems")}
    assert len(p.days) == 10 and p.without_note() == ["Linked Lists"]


def test_a_subject_already_studied_has_nothing_to_plan(college):
    p = plan(college, "aarav", "dbms", 30)
    assert p.days == [] and p.unscheduled == []
    assert {k.concept for k in p.known} == _covers(college, "CS201")
    assert "already studies DBMS" in p.headline() and "known" in p.headline()


def test_more_days_than_concepts_is_one_a_day(college):
    p = plan(college, "Karan", "DBMS", 30)
    assert [len(d.concepts) for d in p.days] == [1] * 8
    assert "22 of the 30 days left free" in p.headline()


def test_the_json_shape_is_the_contract(college):
    record = plan(college, "S04", "CS201", 5).to_dict()
    assert list(record) == ["student", "subject", "days", "known", "unscheduled"]
    assert set(record["days"][0]) == {"day", "concepts", "notes"}
    assert record["student"] == "Sneha" and record["subject"] == "DBMS"
    linked = next(n for d in record["days"] for n in d["notes"] if n["concept"] == "Linked Lists")
    assert linked["note"] is None and linked["text"] is None


@pytest.mark.parametrize("student,subject", [("aarav", "DBMS"), ("S01", "cs201"), ("AARAV", "Cs201"),
                                             (" Aarav ", "databases")])
def test_names_ids_and_codes_in_any_case(college, student, subject):
    p = plan(college, student, subject, 3)
    assert (p.student.key, p.subject.key) == ("S01", "CS201")


@pytest.mark.parametrize("days", [0, -1, 366, 400, True, 2.5, "3", None])
def test_a_bad_number_of_days_is_a_sentence(college, days):
    with pytest.raises(InvalidInput, match="from 1 to 365"):
        plan(college, "Sneha", "DBMS", days)


@pytest.mark.parametrize("student,subject,what", [("Zed", "DBMS", "student"), ("S09", "DBMS", "student"),
                                                  ("Sneha", "Chemistry", "subject"), ("Sneha", "", "subject"),
                                                  (None, "DBMS", "student")])
def test_an_unknown_name_is_a_sentence_that_lists_the_right_ones(college, student, subject, what):
    with pytest.raises(InvalidInput) as caught:
        plan(college, student, subject, 3)
    message = str(caught.value)
    assert f"no {what}" in message
    assert ("Aarav (S01)" in message) if what == "student" else ("DBMS (CS201)" in message)


# --- a graph of the test's own: cycles, what cannot be honoured, where the walk stops ----------

def _small_graph(db, needs: list[tuple[str, str]], includes: list[tuple[str, str]] = (),
                 studies: list[str] = ()):
    """Subject X covers A..F; subject K (which student T1 may study) covers K1 and K2."""
    db.query("UNWIND $c AS c CREATE (:Concept {id: c, name: c})", {"c": list("ABCDEF") + ["K1", "K2", "Q1"]})
    db.query("CREATE (:Subject {code: 'X1', name: 'Xology'}), (:Subject {code: 'K', name: 'Kology'}), "
             "(:Subject {code: 'Q', name: 'Qology'}), (:Student {id: 'T1', name: 'Tara'})")
    db.query("MATCH (x:Subject {code: 'X1'}), (c:Concept) WHERE c.id IN ['A','B','C','D','E','F'] "
             "CREATE (x)-[:COVERS]->(c)")
    db.query("MATCH (x:Subject {code: 'K'}), (c:Concept) WHERE c.id IN ['K1','K2'] CREATE (x)-[:COVERS]->(c)")
    db.query("MATCH (x:Subject {code: 'Q'}), (c:Concept {id: 'Q1'}) CREATE (x)-[:COVERS]->(c)")
    for kind, pairs in (("PREREQUISITE_FOR", needs), ("INCLUDES", includes)):
        db.query(f"UNWIND $p AS p MATCH (a:Concept {{id: p[0]}}), (b:Concept {{id: p[1]}}) "
                 f"CREATE (a)-[:{kind}]->(b)", {"p": [list(p) for p in pairs]})
    db.query("MATCH (t:Student {id: 'T1'}), (s:Subject) WHERE s.code IN $codes "
             "CREATE (t)-[:STUDIES {grade: 'B'}]->(s)", {"codes": list(studies)})
    return db


@pytest.mark.timeout(60)
def test_a_cycle_is_reported_not_looped_on(empty_db):
    # A -> B -> C -> A is a loop; D needs B; E -> F is fine.
    db = _small_graph(empty_db, [("A", "B"), ("B", "C"), ("C", "A"), ("B", "D"), ("E", "F")])
    p = plan(db, "Tara", "Xology", 5)
    assert p.order() == ["E", "F"]
    assert p.cycles == [["A", "B", "C", "A"]]
    why = {u.concept: u.reason for u in p.unscheduled}
    assert set(why) == {"A", "B", "C", "D"}
    assert why["A"].startswith("in the prerequisite cycle A -> B -> C -> A")
    assert why["D"] == "needs B, which is in the prerequisite cycle A -> B -> C -> A"
    assert "Prerequisite cycle found: A -> B -> C -> A." in p.summary()
    # the database sees the same loop
    assert db.run(CYPHER_CYCLES).rows == [["A", 3], ["B", 3], ["C", 3]]
    assert college_has_no_cycle(db) is False


def college_has_no_cycle(db) -> bool:
    return db.run(CYPHER_CYCLES).rows == []


def test_the_college_graph_has_no_prerequisite_cycle(college):
    assert college_has_no_cycle(college)


@pytest.mark.timeout(60)
def test_a_concept_that_needs_itself_is_a_cycle(empty_db):
    db = _small_graph(empty_db, [("A", "A"), ("B", "C")])
    p = plan(db, "T1", "X1", 2)
    assert p.cycles == [["A", "A"]] and [u.concept for u in p.unscheduled] == ["A"]
    assert sorted(p.order()) == list("BCDEF") and p.order().index("B") < p.order().index("C")


def test_a_parent_comes_first_unless_a_prerequisite_says_otherwise(empty_db):
    # A includes B and C; but C is a prerequisite of A, so C must come first anyway.
    db = _small_graph(empty_db, [("C", "A")], includes=[("A", "B"), ("A", "C")])
    order = plan(db, "T1", "X1", 6).order()
    assert order.index("C") < order.index("A") < order.index("B")


def test_what_a_known_concept_rests_on_is_known_too(empty_db):
    # A needs K1 (known: Tara studies Kology); K1 needs Q1 (Qology, which she does not study).
    db = _small_graph(empty_db, [("K1", "A"), ("Q1", "K1")], studies=["K"])
    p = plan(db, "T1", "X1", 6)
    assert "Q1" not in p.order() and [k.concept for k in p.known] == ["K1"]
    # without Kology, K1 and Q1 are both planned, Q1 first
    db.query("MATCH (:Student {id: 'T1'})-[r:STUDIES]->() DELETE r")
    other = plan(db, "T1", "X1", 6).order()
    assert other.index("Q1") < other.index("K1") < other.index("A")


# --- the picture -------------------------------------------------------------------------------

def test_the_picture_has_a_column_per_day_and_an_arrow_per_prerequisite(college):
    p = plan(college, "Sneha", "DBMS", 4)
    svg = ET.fromstring(p.picture().svg)
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in svg.iter(f"{ns}text")]
    assert [t for t in texts if t.startswith("Day ")] == ["Day 1", "Day 2", "Day 3", "Day 4"]
    assert len(list(svg.iter(f"{ns}rect"))) == len(p.concepts())
    arrows = [e for e in svg.iter(f"{ns}path") if e.get("marker-end")]
    needs = _direct(college, "PREREQUISITE_FOR")
    planned = set(p.order())
    assert len(arrows) == len({(a, b) for a, b in needs if a in planned and b in planned}) > 0
    assert "Linked Lists *" in texts


# --- weak spots and peers ----------------------------------------------------------------------

def test_grades_come_from_the_schemas_scale(college):
    assert grade_scale() == ["A+", "A", "B+", "B", "C"]
    spots = weak_spots(college, "Karan")
    assert [(g.subject, g.grade) for g in spots.grades] == [("DSA", "B"), ("Operating Systems", "A")]
    assert [g.subject for g in spots.weak] == ["DSA"]
    assert weak_spots(college, "Payal").weak == []


@pytest.mark.parametrize("student", STUDENTS)
def test_the_revision_path_leads_to_the_hardest_concepts(college, student):
    spots = weak_spots(college, student)
    if not spots.weak:
        assert spots.revision_subject is None and spots.revision_path == []
        return
    path = spots.revision_path
    assert spots.revision_subject == spots.weak[0]
    assert set(spots.hardest) <= _covers(college, spots.revision_subject.code)
    chain = _closure(_direct(college, "PREREQUISITE_FOR") | _direct(college, "INCLUDES"))
    for hard in spots.hardest:   # everything above the hardest concepts is on the path, before them
        for a, c in chain:
            if c == hard:
                assert a in path and path.index(a) < path.index(hard)


def test_concepts_the_conversations_kept_failing_on(college):
    GraphMemory.forget_user(college, "S04")
    memory = GraphMemory(college, session="study", user="S04")
    bcnf = Mention("bcnf", "Concept", "name", "BCNF", 1.0)
    for question, status, about in [("why BCNF and not 3NF?", "out_of_scope", bcnf),
                                    ("BCNF example with a story", "failed", bcnf),
                                    ("what is BCNF?", "answered", bcnf),
                                    ("explain Paging like I am five", "failed",
                                     Mention("paging", "Concept", "name", "Paging", 1.0))]:
        memory.remember(Result(question, status=status, answer="..."), [about])
    try:
        spots = weak_spots(college, "Sneha")
        assert [(s.concept, s.failures) for s in spots.struggles] == [("BCNF", 2)]
        assert spots.struggles[0].revise_first == ["1NF", "2NF", "3NF"]
        everything = weak_spots(college, "Sneha", at_least=1).struggles
        assert [s.concept for s in everything] == ["BCNF", "Paging"]
        assert weak_spots(college, "Rahul").struggles == []   # no memory graph: none
    finally:
        GraphMemory.forget_user(college, "S04")


def _grade(db, student: str, code: str) -> str | None:
    rows = db.run("MATCH (s:Student {name: $s})-[r:STUDIES]->(:Subject {code: $c}) RETURN r.grade",
                  {"s": student, "c": code}).rows
    return rows[0][0] if rows else None


@pytest.mark.parametrize("student", STUDENTS)
def test_every_peer_comes_with_the_fact_and_none_is_missed(college, student):
    scale = grade_scale()
    found = peers(college, student)
    me = found.student.name
    codes = dict(college.run("MATCH (s:Subject) RETURN s.name, s.code").rows)
    others = [r[0] for r in college.run("MATCH (s:Student) WHERE s.id <> $id RETURN s.name",
                                        {"id": student}).rows]
    expected = set()
    for subject, code in codes.items():
        mine = _grade(college, me, code)
        if mine is None or scale.index(mine) < 2:    # B+ and below are weak on this scale
            continue
        for other in others:
            theirs = _grade(college, other, code)
            if theirs is not None:
                kind = "partner" if scale.index(theirs) >= 2 else "mentor"
                expected.add((other, kind, subject))
                peer = next(p for p in found.peers if (p.student, p.subject) == (other, subject))
                assert peer.kind == kind
                assert peer.reason.startswith(f"{other}: {theirs} in {subject}")
                assert mine in peer.reason
    assert {(p.student, p.kind, p.subject) for p in found.peers} == expected


def test_the_issues_example_of_a_partner(college):
    assert peers(college, "Sneha").to_dict() == {"student": "Sneha", "peers": [
        {"student": "Rahul", "kind": "partner", "subject": "Computer Networks",
         "reason": "Rahul: B+ in Computer Networks, like your B"}]}
    mentors = peers(college, "Karan").peers
    assert [p.student for p in mentors] == ["Payal", "Rahul"] and "already friends" in mentors[1].reason
    assert "no weak subject" in peers(college, "Payal").summary()


# --- the plan in words -------------------------------------------------------------------------

def test_offline_the_plan_is_written_by_a_named_template(college):
    p = plan(college, "Sneha", "DBMS", 3)
    for llm in (None, OfflineLLM()):
        written = write_up(p, llm)
        assert written.writer == OFFLINE_WRITER and "no LLM" in written.writer
        assert all(name in written.text for name in p.order())
        assert "No note explains Linked Lists yet" in written.text
    assert write_up(p).text == write_up(p).text


def test_a_model_words_the_plan_and_is_checked(college):
    p = plan(college, "Karan", "DBMS", 2)
    good = "Karan, here is your plan. " + ", ".join(p.order()) + "."
    llm = ScriptedLLM([good], name="Gemini", model="m")
    written = write_up(p, llm)
    assert written.text == good and written.writer == "Gemini (m)"
    assert "<<<DATA" in llm.prompts[0] and "Query Optimization" in llm.prompts[0]
    dropped = write_up(p, ScriptedLLM([good.replace("BCNF", "Boyce")], name="Gemini"))
    assert dropped.missing == ["BCNF"] and "left out BCNF" in dropped.writer
    assert dropped.text == write_offline(p)
    down = write_up(p, ScriptedLLM([RateLimited(retry_after=5)], name="Groq"))
    assert "Groq failed" in down.writer and down.text == write_offline(p)


# --- the command line --------------------------------------------------------------------------

def course(db, *args: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "COURSE_DB": db.location, "COURSE_GRAPH": db.graph_name}
    done = subprocess.run([sys.executable, "-m", "course", *args], capture_output=True, text=True,
                          env=environment, timeout=120)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.mark.slow
def test_course_plan_json_is_the_plan(college):
    done = course(college, "plan", "--student", "sneha", "--subject", "CS201", "--days", "10", "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout) == plan(college, "Sneha", "DBMS", 10).to_dict()


@pytest.mark.slow
def test_course_plan_and_peers_in_text(college):
    done = course(college, "plan", "--student", "S01", "--subject", "networks", "--days", "3")
    assert done.returncode == 0 and done.stdout.startswith("Aarav's plan for Computer Networks")
    assert "Day 3:" in done.stdout and "Day 4:" not in done.stdout
    done = course(college, "peers", "--student", "Rahul")
    assert done.returncode == 0 and "Sneha: B in Computer Networks, like your B+" in done.stdout
    record = json.loads(course(college, "peers", "--student", "karan", "--json").stdout)
    assert record["student"] == "Karan" and {p["kind"] for p in record["peers"]} == {"mentor"}


@pytest.mark.parametrize("args,says", [
    (["plan", "--student", "Zed", "--subject", "DBMS"], "no student 'Zed'"),
    (["plan", "--student", "Sneha", "--subject", "Chemistry"], "no subject 'Chemistry'"),
    (["plan", "--student", "Sneha", "--subject", "DBMS", "--days", "0"], "from 1 to 365"),
    (["plan", "--student", "Sneha", "--subject", "DBMS", "--days", "400"], "from 1 to 365"),
    (["peers", "--student", "Zed"], "no student 'Zed'"),
])
@pytest.mark.slow
def test_bad_input_is_one_sentence_and_exit_1(college, args, says):
    done = course(college, *args)
    assert done.returncode == 1 and says in done.stderr and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_subject_already_covered_is_a_sentence_not_an_error(college):
    done = course(college, "plan", "--student", "Aarav", "--subject", "DBMS")
    assert done.returncode == 0 and "already studies DBMS" in done.stdout
    done = course(college, "plan", "--student", "Aarav", "--subject", "DBMS", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["days"] == []
    assert "already studies DBMS" in done.stderr


# --- the docstrings are true -------------------------------------------------------------------

def test_the_docstring_examples_run(college):
    import course.planner

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    modules = [importlib.import_module(m.name)
               for m in pkgutil.iter_modules(course.planner.__path__, "course.planner.")]
    for module in [course.planner, *modules]:
        for test in finder.find(module, globs={**vars(module), "db": college}):
            runner.run(test)
    assert runner.failures == 0 and runner.tries > 10


def test_nothing_to_plan_says_why(empty_db):
    db = _small_graph(empty_db, [], studies=["K"])
    db.query("CREATE (:Subject {code: 'Z', name: 'Zilch'})")
    assert plan(db, "Tara", "Zilch", 3).headline() == \
        "Zilch covers no concept in the graph, so there is nothing to plan."
    # Kology is known because Tara studies it; Xology's concepts all covered by Kology too
    db.query("MATCH (k:Subject {code: 'K'}), (c:Concept) WHERE c.id IN ['A','B','C','D','E','F'] "
             "CREATE (k)-[:COVERS]->(c)")
    p = plan(db, "Tara", "Xology", 3)
    assert p.days == [] and "Every concept Xology covers is known to Tara already" in p.headline()
    assert "Kology" in p.headline()


def test_two_students_of_one_name_are_told_apart_by_id(empty_db):
    db = _small_graph(empty_db, [])
    db.query("CREATE (:Student {id: 'T2', name: 'Tara'})")
    with pytest.raises(InvalidInput, match=r"could be Tara \(T1\) or Tara \(T2\): give the id"):
        plan(db, "tara", "Xology", 3)
    assert plan(db, "t2", "Xology", 3).student == Named("T2", "Tara")


# --- the planner in the chat (issue 17): course ask --agent agentic ---------------------------

def _ask(db, *questions: str) -> list[dict]:
    done = course(db, "ask", "--agent", "agentic", "--provider", "offline", "--json", *questions)
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def _plan_days(answer: dict) -> list[list[str]]:
    part = answer["sub_questions"][0]
    assert part["tool"] == "study_plan", part
    return [row[1] for row in part["rows"]]


@pytest.mark.parametrize("question, days", [
    ("Sneha has 10 days to learn DBMS, make her a plan", 10),
    ("Make Sneha a 4 day plan for DBMS", 4),
    ("Sneha ke liye 6 din ka DBMS plan banao", 6),   # "plan banao" asks for a plan, not a write
])
@pytest.mark.slow
def test_the_chat_makes_the_planners_plan(college, question, days):
    [answer] = _ask(college, question)
    expected = plan(college, "Sneha", "DBMS", days)
    assert answer["status"] == "answered"
    assert _plan_days(answer) == [d.names() for d in expected.days]
    assert all(f"Day {d.day}:" in answer["answer"] for d in expected.days)


@pytest.mark.parametrize("who, follow_up, days", [
    ("Karan", "make him a 5 day plan for DBMS", 5),
    ("Sneha", "make her a 10 day plan for DBMS", 10),     # "her a": an object, not "her plan"
    ("Rahul", "uske liye 3 din ka Operating Systems plan banao", 3),
])
@pytest.mark.slow
def test_the_plans_student_comes_from_the_conversation(college, who, follow_up, days):
    profile, plan_ = _ask(college, f"Who is {who}?", follow_up)
    assert profile["status"] == "answered"
    assert plan_["sub_questions"][0]["arguments"]["student"] == who
    subject = plan_["sub_questions"][0]["arguments"]["subject"]
    assert _plan_days(plan_) == [d.names() for d in plan(college, who, subject, days).days]


@pytest.mark.slow
def test_study_partners_in_english_and_hinglish(college):
    expected = [[p.student, p.kind, p.subject, p.reason] for p in peers(college, "Sneha").peers]
    for answer in _ask(college, "Find a study partner for Sneha", "Sneha ke study partners kaun hain?"):
        assert answer["sub_questions"][0]["tool"] == "study_partners", answer
        assert answer["sub_questions"][0]["rows"] == expected and "Rahul" in answer["answer"]


@pytest.mark.slow
def test_mujhe_is_the_student_who_said_who_they_are(college):
    _, partners = _ask(college, "I am Aarav", "mujhe DSA ke liye study partner chahiye")
    part = partners["sub_questions"][0]
    assert part["tool"] == "study_partners" and part["arguments"] == {"student": "Aarav", "subject": "DSA"}
    assert [r[0] for r in part["rows"]] == [p.student for p in peers(college, "Aarav", "DSA").peers]


@pytest.mark.slow
def test_mujhe_with_nobody_introduced_is_refused_not_guessed(college):
    # "Who is Payal?" names a person, but the speaker never said who they are.
    _, answer = _ask(college, "Who is Payal?", "mujhe DBMS ke liye study partner chahiye")
    assert answer["status"] in ("out_of_scope", "failed")
    assert not any(s["tool"] == "study_partners" and s["rows"] for s in answer["sub_questions"])


@pytest.mark.parametrize("question", ["What salary will Sneha get after her DBMS plan?",
                                      "Sneha has 10 days to learn cooking, make her a plan"])
@pytest.mark.slow
def test_what_the_tools_cannot_answer_is_refused(college, question):
    [answer] = _ask(college, question)
    assert answer["status"] in ("out_of_scope", "failed", "blocked")
    assert "Day 1" not in answer["answer"]


def test_peers_for_one_subject(college):
    found = peers(college, "Aarav", "DSA")
    assert {(p.student, p.kind) for p in found.peers} == {("Karan", "partner"), ("Payal", "mentor"),
                                                          ("Rahul", "mentor")}
    assert peers(college, "Payal", "DBMS").peers == []   # strong in it: nobody suggested
    assert "strong in DBMS (A+)" in peers(college, "Payal", "DBMS").summary()


@pytest.mark.slow
def test_nothing_to_plan_is_said_and_a_bad_number_of_days_is_refused(college):
    nothing, partners, zero, many = _ask(college, "Make Payal a plan for DBMS",
                                         "Payal ke study partners kaun hain?",
                                         "Rahul ko 0 din mein DBMS seekhna hai, plan banao",
                                         "Make a 400 day plan for Sneha to learn DBMS")
    assert nothing["status"] == "answered" and "nothing to plan" in nothing["answer"]
    assert nothing["answer"] == write_offline(plan(college, "Payal", "DBMS"))
    assert partners["status"] == "answered" and "no weak subject" in partners["answer"]
    for refused in (zero, many):   # never a plan for 30 days instead of the 0 or 400 asked
        assert refused["status"] != "answered" and "Day 1" not in refused["answer"]
