"""The data version (issue 21): one key beside the graph, stamped by every writer.

Reading it is one command; it is worked out again after a write through the course
(`Database.query`, the loader's swap), and it is still the content, not a count. A write
that goes around the course is not counted, and a remembered answer is still never served
unless the graph gives its rows again.
"""
from __future__ import annotations

import shutil

import pytest

from course.foundation.config import PROJECT_ROOT
from course.foundation.dataset import load_college, staging_name, synthetic_college, write_dataset
from course.foundation.db import version_key
from course.foundation.versioning import data_version, fingerprint
from course.llm.scripted import ScriptedLLM
from course.pipeline.agent import Agent
from course.pipeline.answer_cache import AnswerCache
from course.pipeline.graph_memory import GraphMemory

PAYAL = "MATCH (s:Student {name: 'Payal'}) RETURN s.name, s.year, s.branch"


@pytest.mark.slow   # writes a graph 100 times the college one: seconds
def test_a_change_past_the_servers_row_limit_changes_the_version(empty_db):
    write_dataset(empty_db, synthetic_college(100))    # 13,200 relationships: more than 10,000
    before = data_version(empty_db)
    assert before.startswith("7500n-13")                # every row counted, none cut off
    last = empty_db.run("MATCH ()-[r]->() RETURN max(id(r))").rows[0][0]
    empty_db.query("MATCH ()-[r]->() WHERE id(r) = $id SET r.note = 'changed'", {"id": last})
    assert data_version(empty_db) != before


def test_a_reload_of_the_same_data_keeps_the_version_and_other_data_changes_it(college_db,
                                                                              tmp_path):
    before = data_version(college_db)
    writes = college_db.command("HGET", version_key(college_db.graph_name), "writes")
    load_college(college_db)
    assert college_db.command("HGET", version_key(college_db.graph_name), "writes") != writes
    assert college_db.command("EXISTS", version_key(staging_name(college_db.graph_name))) == 0
    assert data_version(college_db) == before          # the content, not the count
    data = tmp_path / "college"
    shutil.copytree(PROJECT_ROOT / "data" / "college", data)
    students = data / "nodes" / "Student.csv"
    students.write_text(students.read_text(encoding="utf-8").replace("CSE", "ECE", 1),
                        encoding="utf-8")
    load_college(college_db, reset_first=True, data_dir=data)
    assert data_version(college_db) != before


def test_the_stored_version_is_the_fingerprint_of_the_graph(college_db):
    college_db.query("MATCH (s:Student {name: 'Rahul'}) SET s.year = 4")
    assert data_version(college_db) == fingerprint(college_db)
    stored = college_db.command("HGET", version_key(college_db.graph_name), "version")
    assert stored.endswith(" " + fingerprint(college_db))


def test_a_write_around_the_course_is_never_answered_from_memory(college_db):
    """FalkorDB's own client (as its browser or redis-cli would) changes Payal: no count, so
    the same version; the stored rows are no longer given, so no remembered answer."""
    for user in ("around1", "around2"):
        GraphMemory.forget_user(college_db, user)
    cache = AnswerCache(college_db, namespace="around")
    cache.clear()
    first = Agent(college_db, ScriptedLLM([PAYAL, "Payal, year 2."]),
                  memory=GraphMemory(college_db, session="s", user="around1", cache=cache))
    assert first.answer("Who is Payal?").rows == [["Payal", 2, "CSE"]]
    version = data_version(college_db)
    college_db.graph.query("MATCH (s:Student {name: 'Payal'}) SET s.year = 3")
    assert data_version(college_db) == version          # not counted: it went around the course
    other = Agent(college_db, ScriptedLLM([PAYAL, "Payal, year 3."]),
                  memory=GraphMemory(college_db, session="t", user="around2", cache=cache))
    fresh = other.answer("Who is Payal?")                # the cache's copy is not served
    assert (fresh.from_memory, fresh.rows) == (False, [["Payal", 3, "CSE"]])
    again = first.answer("Who is Payal?")               # nor the session's repeat of year 2
    assert again.provider != "memory" and again.rows == [["Payal", 3, "CSE"]]
