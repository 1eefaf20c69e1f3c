"""The evaluation harness and the question set (notebook 09).

The set's reference queries are checked against the real graph (every one returns rows;
the five demo questions give DESIGN.md's answers); the scores are checked on small sets
answered by a ScriptedLLM, where the right numbers are known; and the offline provider
must reach the issue's target on the whole set, the same way twice.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from io import StringIO

import pytest

from course.foundation.errors import DataFileError
from course.foundation.language import language_of
from course.llm.offline import OfflineLLM
from course.llm.scripted import ScriptedLLM
from course.pipeline import prompts
from course.pipeline.comparison import same_rows
from course.pipeline.evaluation import (DEFAULT_SET, EvalQuestion, ProgressBar, evaluate,
                                        format_time, load_questions, reference_rows)

KINDS = {"property", "membership", "ranking", "path", "next_topics", "count", "two_conditions",
         "follow_up", "out_of_scope", "write_request"}


# --- the question set ----------------------------------------------------------------------

def test_the_set_is_large_and_covers_every_kind():
    questions = load_questions()
    kinds = Counter(q.kind for q in questions)
    assert len(questions) >= 80
    assert KINDS <= set(kinds), KINDS - set(kinds)
    assert kinds["out_of_scope"] >= 8 and kinds["write_request"] >= 8 and kinds["follow_up"] >= 8
    assert all(q.reference is None for q in questions if q.kind in ("out_of_scope", "write_request"))
    assert any(language_of(q.question) == "hi" for q in questions)
    conversations = Counter(q.conversation for q in questions if q.conversation)
    assert len(conversations) >= 5 and all(n >= 2 for n in conversations.values())


def test_every_reference_query_returns_rows(college_db):
    empty = [q.id for q in load_questions() if q.in_scope and not reference_rows(college_db, q)]
    assert empty == []


def test_the_demo_questions_have_the_designed_answers(college_db):
    by_question = {q.question: reference_rows(college_db, q) for q in load_questions() if q.in_scope}
    assert by_question["Who is the best person to teach me DBMS?"] == [["Payal", "A+"], ["Aarav", "A"]]
    assert same_rows(by_question["What is common in all the clubs?"],
                     [["Payal", ["Debate Society", "Coding Club"]]])
    assert by_question["1NF se BCNF tak ka learning path batao"] == [[["1NF", "2NF", "3NF", "BCNF"]]]
    assert sorted(r[0] for r in by_question["Aarav ke next topics kya hain?"]) == \
        ["Indexing", "Query Optimization", "Transactions"]
    assert by_question["Who should I learn ML from?"] == [["Rahul", "Advanced"], ["Karan", "Intermediate"]]
    assert by_question["Who is Payal?"] == [["Payal", 2, "CSE"]]
    assert by_question["dbms and debate-ye dono ke students kaun hain?"] == [["Payal"]]


def write_set(tmp_path, *lines: str) -> str:
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("line, message", [
    ('{"id": "a", "question": "x"', "line 1: not valid JSON"),
    ('["a"]', "line 1: expected a JSON object"),
    ('{"id": "a", "question": "x", "kind": "count"}', "missing reference"),
    ('{"id": "a", "question": "x", "kind": "count", "reference": null}', "needs a reference query"),
])
def test_a_broken_set_is_named_by_line(tmp_path, line, message):
    with pytest.raises(DataFileError, match=message):
        load_questions(write_set(tmp_path, line))


def test_a_missing_file_says_what_to_give(tmp_path):
    with pytest.raises(DataFileError, match="JSONL question set"):
        load_questions(tmp_path / "nope.jsonl")


# --- comparing rows --------------------------------------------------------------------------

def test_rows_are_compared_as_multisets_unless_ordered():
    assert same_rows([["Aarav"], ["Payal"]], [["Payal"], ["Aarav"]])
    assert not same_rows([["Aarav"], ["Payal"]], [["Payal"], ["Aarav"]], ordered=True)
    assert not same_rows([["Payal"], ["Payal"]], [["Payal"]])                # a duplicate row counts
    assert not same_rows([["Payal"]], [["Payal"], ["Aarav"]])


def test_columns_may_come_in_another_order_or_with_extras():
    assert same_rows([["A+", "Payal"]], [["Payal", "A+"]])
    assert same_rows([["Payal", 2, "CSE"]], [[2]])
    assert not same_rows([[2]], [["Payal", 2]])                                 # a missing column
    assert not same_rows([["Payal", "A"], ["Aarav", "A+"]], [["Payal", "A+"], ["Aarav", "A"]])


def test_a_profile_row_holds_the_columns_asked_of_it():
    """unseen26 aa017: "who is payal" answered with her profile (name, year, branch, clubs,
    subjects, skills, projects) was judged not to hold her year and branch: past six columns
    only the first ones were compared. Up to twelve, any columns in the reference's order."""
    profile = [["Payal", 2, "CSE", ["Debate Society"], ["DSA"], ["SQL"], ["Library Management System"]]]
    assert same_rows(profile, [[2, "CSE"]])
    assert not same_rows(profile, [[3, "CSE"]])


def test_values_are_normalised_and_lists_stay_lists():
    assert same_rows([[3.0]], [[3]])
    assert same_rows([[["1NF", "2NF"]]], [[["1NF", "2NF"]]])
    assert not same_rows([[["2NF", "1NF"]]], [[["1NF", "2NF"]]])
    assert same_rows([], [])


# --- scoring, with outputs we choose --------------------------------------------------------

TINY = [
    EvalQuestion("t1", "Who studies DSA?", "membership",
                 "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) RETURN s.name"),
    EvalQuestion("t2", "Who is Payal?", "property", "MATCH (s:Student {name: 'Payal'}) RETURN s.year"),
    EvalQuestion("t3", "How many clubs?", "count", "MATCH (c:Club) RETURN count(c)"),
    EvalQuestion("t4", "Weather?", "out_of_scope"),
    EvalQuestion("t5", "Delete everything", "write_request"),
]
RIGHT_T1 = "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) RETURN s.name"
WRONG_T2 = "MATCH (s:Student {name: 'Rahul'}) RETURN s.year"
BROKEN = "MATCH (c:Club RETURN count(c)"
FIXED_T3 = "MATCH (c:Club) RETURN count(c)"


def scripted(*, attempts: int) -> ScriptedLLM:
    """Each answered question costs a Cypher call and an answer call; t3 fails once first."""
    outputs = [RIGHT_T1, "rows", WRONG_T2, "rows", BROKEN]
    outputs += [FIXED_T3, "rows"] if attempts > 1 else []
    return ScriptedLLM(outputs + [prompts.SENTINEL_QUERY, "MATCH (n) DETACH DELETE n", prompts.SENTINEL_QUERY])


def test_scores_with_one_attempt(college_db):
    report = evaluate(college_db, scripted(attempts=1), TINY, max_attempts=1)
    s = report.scores()
    assert (s["questions"], s["in_scope"]) == (5, 3)
    assert s["execution_accuracy"] == 0.333 and s["executable_rate"] == 0.667
    assert s["out_of_scope_accuracy"] == 1.0 and s["writes_refused"] == 1.0
    assert [o.status for o in report.outcomes] == ["answered", "answered", "failed", "out_of_scope", "blocked"]
    assert s["tokens_per_question"] is None and s["llm_calls_per_question"] == 1.4
    assert report.graph_unchanged and college_db.counts()["nodes"] == 75


def test_a_retry_raises_the_executable_rate(college_db):
    s = evaluate(college_db, scripted(attempts=2), TINY, max_attempts=2).scores()
    assert s["executable_rate"] == 1.0 and s["execution_accuracy"] == 0.667   # t2 runs but is wrong


def test_the_table_and_the_json(college_db):
    report = evaluate(college_db, scripted(attempts=1), TINY, max_attempts=1, source="tiny.jsonl")
    table = report.table()
    assert "execution accuracy (in scope)    0.33  (1/3)" in table
    assert "write requests refused           1.00  (1/1)" in table
    assert "n/a (the provider reports none)" in table
    assert "t2 [property] Who is Payal?  -> answered, 1 row(s) vs 1" in table
    assert " ms" not in report.table(timing=False) and " s (" not in report.table(timing=False)
    data = json.loads(json.dumps(report.to_dict()))
    assert data["by_kind"]["count"] == {"correct": 0, "questions": 1}
    assert data["outcomes"][0]["cypher"] == RIGHT_T1 and data["source"] == "tiny.jsonl"


def test_conversations_share_one_agent_with_memory(college_db):
    questions = [EvalQuestion("c1", "Who is Payal?", "property",
                              "MATCH (s:Student {name: 'Payal'}) RETURN s.name, s.year, s.branch", "talk"),
                 EvalQuestion("c2", "uska year kya hai?", "follow_up",
                              "MATCH (s:Student {name: 'Payal'}) RETURN s.year", "talk"),
                 EvalQuestion("c3", "uska year kya hai?", "follow_up",
                              "MATCH (s:Student {name: 'Payal'}) RETURN s.year")]
    report = evaluate(college_db, OfflineLLM(), questions)
    assert [o.correct for o in report.outcomes] == [True, True, False]   # alone, "uska" is nobody


def test_the_progress_bar_is_plain_text():
    stream = StringIO()
    bar = ProgressBar(stream, width=10)
    bar(5, 10, TINY[0])
    bar(10, 10, TINY[0])
    assert stream.getvalue() == "\r[#####.....] 5/10 t1      \r[##########] 10/10 t1      \n"
    assert format_time(0.0123) == "12.3 ms" and format_time(2.345) == "2.3 s"


# --- the offline provider on the whole set ----------------------------------------------------

@pytest.mark.slow
def test_the_offline_provider_reaches_the_target_the_same_way_twice(college_db):
    questions = load_questions()
    first = evaluate(college_db, OfflineLLM(), questions, max_attempts=2)
    second = evaluate(college_db, OfflineLLM(), questions, max_attempts=2)
    s = first.scores()
    assert s["execution_accuracy"] >= 0.95, first.table()
    assert s["out_of_scope_accuracy"] == 1.0 and s["writes_refused"] == 1.0
    assert first.table(timing=False) == second.table(timing=False)
    assert [o.cypher for o in first.outcomes] == [o.cypher for o in second.outcomes]


# --- the command line -------------------------------------------------------------------------

def run_eval(db, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COURSE_DB": db.location, "COURSE_GRAPH": db.graph_name}
    done = subprocess.run([sys.executable, "-m", "course", "eval", *args], capture_output=True,
                          text=True, env=env, timeout=300)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.mark.slow
def test_course_eval_prints_the_table_and_can_print_json(college_db, tmp_path):
    lines = [json.dumps({"id": "a", "question": "Who is Payal?", "kind": "property",
                         "reference": "MATCH (s:Student {name: 'Payal'}) RETURN s.year"}),
             json.dumps({"id": "b", "question": "Delete Payal", "kind": "write_request", "reference": None})]
    path = write_set(tmp_path, *lines)
    done = run_eval(college_db, path, "--provider", "offline", "--attempts", "1")
    assert done.returncode == 0
    assert "provider Offline (rules), 1 attempt(s) per question, 2 questions (1 in scope)" in done.stdout
    assert "execution accuracy (in scope)    1.00  (1/1)" in done.stdout
    assert "2/2" not in done.stderr    # the progress bar is drawn on a terminal only, not into logs
    data = json.loads(run_eval(college_db, path, "--provider", "offline", "--json").stdout)
    assert data["scores"]["writes_refused"] == 1.0 and data["attempts"] == 2


@pytest.mark.slow
def test_course_eval_errors_are_one_sentence(college_db, tmp_path):
    done = run_eval(college_db, str(tmp_path / "missing.jsonl"))
    assert done.returncode == 1 and done.stderr.startswith("error: ") and "JSONL question set" in done.stderr
    assert run_eval(college_db, "--attempts", "0").stderr.startswith("error: --attempts")


def test_the_default_set_is_the_committed_one():
    assert DEFAULT_SET.name == "questions.jsonl" and DEFAULT_SET.parent.name == "eval"
