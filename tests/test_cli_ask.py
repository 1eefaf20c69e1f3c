"""`python -m course ask`, run as a learner runs it: a new process, no key, the offline provider.

The contract (DESIGN.md): the questions are one conversation (`--fresh` forgets between
them), `--json` prints one object per question with a fixed set of fields, no QUESTION
means one question per line on standard input, and nothing the learner can do or meet
(a bad question, a stopped server, a missing key, a provider that is down) ends in a
traceback: it ends in status "failed" with a sentence that says what to do.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

FIELDS = ("question", "cypher", "columns", "rows", "answer", "status", "error", "attempts",
          "provider", "llm_calls", "elapsed_ms")
FAKE_KEY = "gsk_cli_test_key_not_real_987654"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ask(db, *args: str | bytes, stdin: bytes | None = None, **env: str) -> subprocess.CompletedProcess:
    """Run `python -m course ask ARGS` against this test's graph; stdout/stderr as text."""
    environment = {**os.environ, "COURSE_DB": db.location, "COURSE_GRAPH": db.graph_name, **env}
    done = subprocess.run([sys.executable, "-m", "course", "ask", *args], input=stdin,
                          capture_output=True, env=environment, timeout=120)
    done.stdout = done.stdout.decode("utf-8", errors="replace")
    done.stderr = done.stderr.decode("utf-8", errors="replace")
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def records(done: subprocess.CompletedProcess) -> list[dict]:
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


# --- the conversation -----------------------------------------------------------------------

@pytest.mark.slow
def test_several_questions_are_one_conversation(college_db):
    done = ask(college_db, "--json", "Who is Payal?", "uska year kya hai?")
    first, second = records(done)
    assert done.returncode == 0
    assert first["status"] == "answered" and first["rows"][0][0] == "Payal"
    # "uska" is resolved from the first turn: the second query is about Payal, and she is in year 2.
    assert second["status"] == "answered"
    assert "Payal" in second["cypher"] and 2 in second["rows"][0]
    assert first["provider"] == second["provider"] == "Offline"


@pytest.mark.slow
def test_fresh_forgets_between_questions(college_db):
    first, second = records(ask(college_db, "--json", "--fresh", "Who is Payal?", "uska year kya hai?"))
    assert first["status"] == "answered"
    assert "Payal" not in (second["cypher"] or "")
    assert not (second["status"] == "answered" and second["rows"] == [["Payal", 2]])


@pytest.mark.slow
def test_json_has_every_field_of_the_contract(college_db):
    (record,) = records(ask(college_db, "--json", "Who should I learn ML from?"))
    assert set(FIELDS) <= set(record)
    assert record["question"] == "Who should I learn ML from?"
    assert record["status"] == "answered" and record["error"] is None
    assert record["rows"] == [["Rahul", "Advanced"], ["Karan", "Intermediate"]]
    assert len(record["columns"]) == 2 and "Machine Learning" in record["cypher"]
    assert isinstance(record["attempts"], int) and record["attempts"] >= 1
    assert isinstance(record["llm_calls"], int) and record["llm_calls"] >= 1
    assert isinstance(record["elapsed_ms"], (int, float)) and record["elapsed_ms"] > 0
    assert "Rahul" in record["answer"]


@pytest.mark.slow
def test_questions_from_standard_input_one_per_line(college_db):
    done = ask(college_db, "--json", stdin=b"Who is Payal?\n\nWho should I learn ML from?\n")
    got = records(done)
    assert [r["question"] for r in got] == ["Who is Payal?", "Who should I learn ML from?"]
    assert [r["status"] for r in got] == ["answered", "answered"]


@pytest.mark.slow
def test_plain_output_shows_question_query_and_answer(college_db):
    done = ask(college_db, "What is common in all the clubs?")
    assert done.returncode == 0
    assert done.stdout.startswith("Q: What is common in all the clubs?\n")
    assert "MATCH" in done.stdout and "\nA: " in done.stdout and "Payal" in done.stdout
    assert "[answered; Offline;" in done.stdout


@pytest.mark.slow
def test_out_of_scope_and_a_write_request_are_not_failures(college_db):
    done = ask(college_db, "--json", "Should I do a Masters in CSE or Electronics?", "clean up the old data")
    assert done.returncode == 0
    assert [r["status"] for r in records(done)] in (["out_of_scope", "out_of_scope"],
                                                    ["out_of_scope", "blocked"])
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


# --- questions that cannot be asked ----------------------------------------------------------

@pytest.mark.parametrize("how, says", [
    ("empty", "empty"),
    ("long", "10,000 characters"),
    ("binary-stdin", "binary"),
    ("binary-argument", "binary"),
])
@pytest.mark.slow
def test_a_bad_question_gets_a_clear_error(college_db, how, says):
    if how == "empty":
        done = ask(college_db, "--json", "")
    elif how == "long":
        done = ask(college_db, "--json", "x" * 10_000)
    elif how == "binary-stdin":
        done = ask(college_db, "--json", stdin=b"\x00\xff\xfe\x01\x02\x03\x89PNG\x1a\x00\n")
    else:
        done = ask(college_db, "--json", b"\xff\xfe\xfd\x01\x02\x03\x04binary")
    (record,) = records(done)
    assert record["status"] == "failed" and says in record["error"]
    assert record["llm_calls"] == 0
    assert done.returncode == 1


@pytest.mark.slow
def test_one_bad_question_does_not_stop_the_others(college_db):
    done = ask(college_db, "--json", "", "Who is Payal?")
    assert [r["status"] for r in records(done)] == ["failed", "answered"]
    assert done.returncode == 0


# --- what the learner meets: a stopped server, no key, a provider down --------------------------

def _only_failure(done: subprocess.CompletedProcess, question: str) -> dict:
    (record,) = records(done)
    assert record["question"] == question
    assert record["status"] == "failed" and record["error"]
    assert done.returncode == 1
    assert FAKE_KEY not in done.stdout + done.stderr
    return record


@pytest.mark.slow
def test_a_stopped_server_fails_with_what_to_do(college_db):
    url = f"redis://127.0.0.1:{_free_port()}"
    record = _only_failure(ask(college_db, "--json", "Who is Payal?", FALKORDB_URL=url), "Who is Payal?")
    assert "not running" in record["error"] and url in record["error"]
    assert "docker compose up -d" in record["error"]


@pytest.mark.slow
def test_a_stopped_server_in_plain_mode_is_one_sentence(college_db):
    url = f"redis://127.0.0.1:{_free_port()}"
    done = ask(college_db, "Who is Payal?", FALKORDB_URL=url)
    assert done.returncode == 1
    assert "docker compose up -d" in done.stdout + done.stderr


@pytest.mark.slow
def test_a_missing_key_fails_with_what_to_do(college_db):
    record = _only_failure(ask(college_db, "--json", "--provider", "groq", "Who is Payal?"), "Who is Payal?")
    assert "GROQ_API_KEY" in record["error"] and ".env" in record["error"]


@pytest.mark.slow
def test_a_provider_outage_fails_with_what_to_do(college_db):
    port = _free_port()
    done = ask(college_db, "--json", "--provider", "groq", "Who is Payal?",
               GROQ_API_KEY=FAKE_KEY, GROQ_BASE_URL=f"http://127.0.0.1:{port}", COURSE_LLM_TIMEOUT="5")
    record = _only_failure(done, "Who is Payal?")
    assert f"127.0.0.1:{port}" in record["error"]
    assert "--provider" in record["error"] or "COURSE_LLM" in record["error"]
