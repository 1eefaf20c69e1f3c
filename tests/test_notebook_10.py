"""Notebook 10 (graph memory): the facts its cells print, checked here rather than in the lesson.

Each test has users and a cache namespace of its own (the memory graphs live beside the test's
college graph on the shared test server) and forgets them afterwards.
"""
from __future__ import annotations

import itertools
import time

import pytest

from course import Agent, AnswerCache, GraphMemory, make_llm
from course.foundation.errors import InvalidInput
from course.foundation.versioning import data_version
from course.pipeline.agent import provider_config
from course.pipeline.memory import depends_on_context

_ids = itertools.count(1)


@pytest.fixture
def users(college_db):
    """users(name) -> a user id of this test's own, forgotten afterwards."""
    made: list[str] = []

    def user(name: str) -> str:
        made.append(f"{name}{next(_ids)}")
        return made[-1]
    yield user
    for name in made:
        GraphMemory.forget_user(college_db, name)


@pytest.fixture
def cache(college_db):
    answers = AnswerCache(college_db, ttl_s=3600, namespace=f"nb10-{next(_ids)}")
    yield answers
    answers.clear()


def test_a_stored_session_is_read_back_and_uska_is_still_payal(college_db, users, cache):
    learner, llm = users("learner"), make_llm("offline")
    Agent(college_db, llm, memory=GraphMemory(college_db, session="demo", user=learner, cache=cache)
          ).answer("Who is Payal?")
    resumed = GraphMemory(college_db, session="demo", user=learner, cache=cache)
    year = Agent(college_db, llm, memory=resumed).answer("uska year kya hai?")
    assert year.status == "answered" and "Payal" in year.cypher and 2 in year.values()
    assert [t["n"] for t in GraphMemory(college_db, session="demo", user=learner).history()] == [1, 2]
    assert resumed.last("Student") == "Payal"


@pytest.mark.slow
def test_another_process_continues_the_session(college_db, users):
    import json
    import os
    import subprocess
    import sys

    learner = users("learner")
    Agent(college_db, make_llm("offline"), memory=GraphMemory(college_db, session="demo", user=learner)
          ).answer("Who is Payal?")
    env = {**os.environ, "COURSE_DB": college_db.location, "COURSE_GRAPH": college_db.graph_name}
    cli = subprocess.run([sys.executable, "-m", "course", "ask", "--session", "demo", "--user", learner,
                          "--json", "uska year kya hai?"], capture_output=True, text=True, timeout=300, env=env)
    record = json.loads(cli.stdout)
    assert cli.returncode == 0 and record["status"] == "answered"
    assert "Payal" in record["cypher"] and 2 in {v for row in record["rows"] for v in row}


def test_a_change_to_the_graph_changes_its_version_and_the_answer_is_asked_again(college_db, users, cache):
    llm = make_llm("offline")
    agent = Agent(college_db, llm, memory=GraphMemory(college_db, session="v", user=users("learner"), cache=cache))
    agent.answer("Who is Payal?")
    before = data_version(college_db)
    college_db.query("MATCH (s:Student {name: 'Payal'}) SET s.year = 3")
    changed = data_version(college_db)
    after_change = agent.answer("Who is Payal?")
    college_db.query("MATCH (s:Student {name: 'Payal'}) SET s.year = 2")
    assert changed != before and data_version(college_db) == before
    assert after_change.llm_calls > 0 and not after_change.from_memory and 3 in after_change.values()


def test_another_session_is_served_from_the_cache_for_about_an_hour(college_db, users, cache):
    llm = make_llm("offline")
    first = Agent(college_db, llm, memory=GraphMemory(college_db, session="one", user=users("learner"),
                                                      cache=cache)).answer("Who is Payal?")
    second = Agent(college_db, llm, memory=GraphMemory(college_db, session="two", user=users("learner"),
                                                       cache=cache))
    hit = second.answer("Who is Payal?")
    assert hit.llm_calls == 0 and hit.provider == "answer cache" and hit.rows == first.rows
    left = cache.ttl("Who is Payal?", version=data_version(college_db), provider=provider_config(llm))
    assert 3500 < left <= 3600
    size = cache.size()
    second.answer("uska year kya hai?")
    assert cache.size() == size   # the follow-up was answered, and not cached


@pytest.mark.parametrize("question, expected", [
    ("Who is Payal?", False), ("uska year kya hai?", True), ("uske projects?", True),
    ("and Computer Networks?", True), ("aur DSA?", True), ("when was it founded?", True),
    ("year?", True), ("Who is the best person to teach me DBMS?", False)])
def test_which_questions_depend_on_the_conversation(college_db, question, expected):
    agent = Agent(college_db, make_llm("offline"))
    assert depends_on_context(question, agent.link(question)) == expected


@pytest.mark.slow   # half a second or more
def test_an_answer_expires_with_its_time_to_live(college_db):
    hit = Agent(college_db, make_llm("offline")).answer("Who is Payal?")
    short = AnswerCache(college_db, ttl_s=1, namespace=f"expiry-{next(_ids)}")
    short.put(hit, version="v1", provider="Offline")
    assert short.get("Who is Payal?", version="v1", provider="Offline") is not None
    time.sleep(1.5)
    assert short.get("Who is Payal?", version="v1", provider="Offline") is None
    assert short.stats() == {"hits": 1, "misses": 1, "hit_rate": 0.5}


def test_one_namespace_per_user_bob_never_sees_alices_rahul(college_db, users):
    llm, alice_id, bob_id = make_llm("offline"), users("alice"), users("bob")
    alice = Agent(college_db, llm, memory=GraphMemory(college_db, session="chat", user=alice_id))
    bob = Agent(college_db, llm, memory=GraphMemory(college_db, session="chat", user=bob_id))
    alice.answer("Who is Rahul?")
    bobs = bob.answer("what skills does he have?")
    alices = alice.answer("what skills does he have?")
    students = {row[0] for row in college_db.run("MATCH (s:Student) RETURN s.name").rows}
    bob_said = f"{bobs.cypher} {bobs.answer} {bobs.rows}"
    assert bobs.status == "out_of_scope" and not [name for name in students if name in bob_said]
    assert alices.status == "answered" and "Rahul" in alices.cypher
    assert bob.memory.last("Student") is None


def test_a_hostile_session_id_is_refused(college_db):
    nodes = college_db.counts()["nodes"]
    with pytest.raises(InvalidInput):
        GraphMemory(college_db, session="x') DETACH DELETE (n", user="learner")
    assert college_db.counts()["nodes"] == nodes


@pytest.mark.slow
def test_the_command_line_refuses_a_hostile_session_in_a_sentence(college_db):
    import os
    import subprocess
    import sys

    env = {**os.environ, "COURSE_DB": college_db.location, "COURSE_GRAPH": college_db.graph_name}
    cli = subprocess.run([sys.executable, "-m", "course", "ask", "--session", "x') DETACH DELETE (n",
                          "Who is Payal?"], capture_output=True, text=True, timeout=300, env=env)
    assert cli.returncode == 1 and "cannot be used" in cli.stderr and "Traceback" not in cli.stderr
    assert college_db.counts()["nodes"] == 75
