"""`python -m course ingest`, run as a learner runs it: the diff, --apply, --undo, --json (DESIGN.md)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from course.foundation.config import PROJECT_ROOT
from course.foundation.versioning import fingerprint

SAMPLES = sorted(str(p) for p in (PROJECT_ROOT / "data" / "ingest").iterdir())


def course(db, *args: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "COURSE_DB": db.location, "COURSE_GRAPH": db.graph_name,
                   "COURSE_LLM": "offline"}
    done = subprocess.run([sys.executable, "-m", "course", *args], capture_output=True, text=True,
                          env=environment, timeout=300)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.mark.slow
def test_the_diff_of_every_sample_writes_nothing(college_db):
    before = fingerprint(college_db)
    done = course(college_db, "ingest", *SAMPLES)
    assert done.returncode == 0
    assert "+ (Club Photography Club)" in done.stdout and "x (Student Karan)-[:MEMBER_OF]" in done.stdout
    assert fingerprint(college_db) == before


@pytest.mark.slow
def test_apply_json_then_undo_restores_the_graph(college_db):
    before = fingerprint(college_db)
    done = course(college_db, "ingest", "--apply", "--json", *SAMPLES)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and len(records) == 4
    for record in records:
        assert {"document", "proposed", "accepted", "rejected", "written", "diff"} <= set(record)
        assert all({"item", "reason"} <= set(r) for r in record["rejected"])
    assert [r["written"] for r in records] == [3, 4, 8, 6]
    assert college_db.run("MATCH (s:Student {name: 'Meera'})-[:FRIENDS_WITH]->(k) RETURN k.name").rows == [["Karan"]]
    for record in reversed(records):
        undone = course(college_db, "ingest", "--undo", record["document"], "--json")
        assert json.loads(undone.stdout)["restored"] is True
    assert fingerprint(college_db) == before


@pytest.mark.slow
def test_the_agentic_agent_answers_what_only_the_documents_say(college_db):
    course(college_db, "ingest", "--apply", *SAMPLES)
    environment = {**os.environ, "COURSE_DB": college_db.location, "COURSE_GRAPH": college_db.graph_name,
                   "COURSE_LLM": "offline"}
    done = subprocess.run([sys.executable, "-m", "course", "ask", "--agent", "agentic", "--json", "--fresh",
                           "Who is in the Photography Club?", "What skills does Meera have?",
                           "What does Concurrency Control include?"],
                          capture_output=True, text=True, env=environment, timeout=300)
    answers = [json.loads(line)["answer"] for line in done.stdout.splitlines()]
    assert answers == ["Aarav (Member), then Sneha (President).", "Docker and Python.", "Two-Phase Locking."]


@pytest.mark.slow
@pytest.mark.parametrize("args, says", [
    ((), "No document given"),
    (("--undo", "x.md", "notes.md"), "--undo DOCUMENT takes no FILE"),
    (("--undo", "never.md"), "No document 'never.md' has been applied"),
])
def test_misuse_is_one_sentence(college_db, args, says):
    done = course(college_db, "ingest", *args)
    assert done.returncode == 1 and says in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_a_bad_file_is_refused_and_the_others_go_on(college_db, tmp_path):
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    done = course(college_db, "ingest", "--json", str(tmp_path / "empty.txt"), SAMPLES[0])
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert done.returncode == 1 and "is empty" in first["error"] and second["proposed"] == 5


@pytest.mark.slow
def test_a_memory_graph_is_refused(college_db):
    environment = {**os.environ, "COURSE_DB": college_db.location, "COURSE_GRAPH": "memory_user_alice"}
    done = subprocess.run([sys.executable, "-m", "course", "ingest", "--apply", SAMPLES[0]],
                          capture_output=True, text=True, env=environment, timeout=300)
    assert done.returncode == 1 and "holds a user's stored conversation" in done.stderr
    assert "memory_user_alice" not in college_db.client.list_graphs()


@pytest.mark.slow
def test_two_applies_of_one_file_at_once_give_one_result(college_db):
    environment = {**os.environ, "COURSE_DB": college_db.location, "COURSE_GRAPH": college_db.graph_name,
                   "COURSE_LLM": "offline"}
    command = [sys.executable, "-m", "course", "ingest", "--apply", "--json", SAMPLES[3]]
    running = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=environment) for _ in range(2)]
    outputs = [process.communicate(timeout=300) for process in running]
    records = [json.loads(out) for out, _ in outputs]
    assert sorted(r["written"] for r in records) == [0, 6]
    assert college_db.run("MATCH (s:Student {name: 'Meera'}) RETURN count(s)").rows == [[1]]
    assert college_db.run("MATCH (d:Document) RETURN count(d)").rows == [[1]]
