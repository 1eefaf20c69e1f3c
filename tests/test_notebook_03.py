"""Notebook 03 (safety): the facts its cells print, checked here rather than in the lesson."""
from __future__ import annotations

import pytest

from course.foundation.db import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT_MS
from course.foundation.errors import QueryFailed, QueryTimedOut
from course.foundation.server import SERVER_LIMITS
from course.pipeline.guard import check
from course.pipeline.safety import explain_check, naive_is_safe, procedure_modes

LOAD_CSV = "LOAD CSV FROM 'file:///no/such/students.csv' AS row RETURN row"
UNBOUNDED = "MATCH (a:Concept)-[*]->(b:Concept) RETURN a.name, b.name"
DEMO = "MATCH (s:Student)-[r:STUDIES]->(sub:Subject {code: 'CS201'}) RETURN s.name, r.grade"
WRITES = ["MATCH (n) DETACH DELETE n", "MATCH (s:Student) SET\ts.year = 1",
          "MATCH (s:Student) SET/**/s.year = 1", "ＭＡＴＣＨ (n) ＤＥＴＡＣＨ ＤＥＬＥＴＥ n"]
# The notebook's table: the course text's check gets these six dangerous ones wrong...
LET_THROUGH = WRITES[1:] + [LOAD_CSV, UNBOUNDED,
                            "MATCH (s:Student) RETURN s.name; MATCH (n) RETURN count(n)"]
# ...and refuses these six plain reads (PLAIN_READS adds the demo question, which it allows).
REFUSED_READS = [
    "MATCH (p:Project) RETURN p.name, p.created_at",
    "MATCH (s:Student) WHERE s.is_deleted IS NULL RETURN s.name",
    "MATCH (t:Student) RETURN t.name, t.offset AS o",
    "MATCH (c:Club) WHERE c.name <> 'Create Your Own' RETURN c.name",
    "MATCH (n:Note) WHERE n.text CONTAINS 'delete anomalies' RETURN n.id",
    "MATCH (s:Student) RETURN s.name // never DELETE anything",
]
PLAIN_READS = REFUSED_READS + [DEMO]


def test_the_cleanup_query_is_refused_naming_detach_delete():
    verdict = check("MATCH (n) DETACH DELETE n")
    assert not verdict and verdict.clause == "DETACH DELETE"


def test_a_harmless_query_full_of_dangerous_words_is_allowed():
    assert check("MATCH (c:Club) // DELETE the old clubs later\nWHERE c.name <> 'Create Your Own'\n"
                 "RETURN c.name, c.created_at, c.`set`").allowed


def test_a_variable_called_as_does_not_switch_the_guard_off():
    assert not any(check(q) for q in ["MATCH (n:Student) WITH n AS as SET as.year = 9",
                                      "UNWIND [1] AS as CREATE (:Student {name: 'Mallory'})"])
    assert check("MATCH (n:Student) RETURN n.name AS create")


@pytest.mark.parametrize("query", LET_THROUGH)
def test_the_keyword_list_lets_through_what_the_guard_refuses(query):
    assert naive_is_safe(query)[0] and not check(query)


@pytest.mark.parametrize("query", REFUSED_READS)
def test_the_keyword_list_refuses_plain_reads_the_guard_allows(query):
    assert not naive_is_safe(query)[0] and check(query)


def test_the_guard_allows_exactly_the_plain_reads():
    assert all(check(q) for q in PLAIN_READS)
    assert not any(check(q) for q in WRITES + LET_THROUGH)
    assert check(LOAD_CSV).clause == "LOAD CSV"


def test_read_only_mode_runs_no_write_but_runs_load_csv_and_the_unbounded_path(college_db):
    for query in WRITES:
        with pytest.raises(QueryFailed):                   # refused, or not even parsed
            college_db.run(query)
    with pytest.raises(QueryFailed, match="CSV"):          # it tried to open the file
        college_db.run(LOAD_CSV)
    assert college_db.run(UNBOUNDED, timeout_ms=2000).rows   # ran it
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


def test_the_plan_names_load_csv_and_an_unbounded_traverse(college_db):
    assert "Load CSV" in "\n".join(college_db.explain(LOAD_CSV))
    assert "*1..INF" in "\n".join(college_db.explain(UNBOUNDED))
    assert not explain_check(college_db, LOAD_CSV)
    assert explain_check(college_db, DEMO)


def test_the_server_says_the_index_drop_writes(college_db):
    drop = "WITH 1 AS as CALL db.idx.fulltext.drop('Student')"
    assert procedure_modes(college_db)["db.idx.fulltext.drop"] == "WRITE"
    assert not explain_check(college_db, drop)


@pytest.mark.slow   # half a second or more
def test_a_read_that_runs_too_long_is_allowed_by_the_guard_and_stopped_by_the_time_limit(college_db):
    runaway = "MATCH (a), (b), (c), (d), (e) RETURN count(*)"
    assert check(runaway) and DEFAULT_TIMEOUT_MS == 5000
    with pytest.raises(QueryTimedOut):
        college_db.run(runaway, timeout_ms=1000)


def test_the_row_cap_keeps_100_or_the_default_1000_rows_and_says_so(college_db):
    pairs = college_db.run("MATCH (a:Concept), (b:Concept) RETURN a.name, b.name", max_rows=100)
    assert len(pairs.rows) == 100 and pairs.truncated
    everything = college_db.run("MATCH (a:Concept), (b:Concept), (s:Student) RETURN a.name, b.name, s.name")
    assert len(everything.rows) == DEFAULT_MAX_ROWS == 1000 and everything.truncated


def test_the_server_runs_with_the_courses_limits(college_db):
    config = dict(college_db.client.connection.execute_command("GRAPH.CONFIG", "GET", "*"))
    assert {name: config[name] for name in SERVER_LIMITS} == SERVER_LIMITS


def test_a_memory_hungry_query_is_stopped_and_a_huge_result_is_cut_by_the_server(college_db):
    with pytest.raises(QueryFailed, match="more memory"):
        college_db.run(f"MATCH (a), (b), (c) RETURN size(collect(a.name + '{'x' * 2000}')) AS n",
                       timeout_ms=5000)
    assert college_db.run("MATCH (s:Student {name: 'Payal'}) RETURN s.year").rows == [[2]]
    many = college_db.run("MATCH (a), (b), (c) RETURN a.name", max_rows=10**6)
    assert len(many.rows) == SERVER_LIMITS["RESULTSET_SIZE"] and many.truncated


def test_the_guard_refuses_a_huge_range_and_allows_a_small_one():
    assert check("RETURN size(range(1, 500000000))").clause == "range()"
    assert check("RETURN [x IN range(1, 10) | x * x] AS squares")


def test_load_csv_is_refused_in_every_door_read_only_mode_would_run(college_db):
    """Read-only mode alone runs LOAD CSV (above); the guard refuses it in the one guarded door,
    so in the pipeline and the tool loop alike (the agentic agent's text2cypher is the pipeline)."""
    from course import Agent, ScriptedLLM
    from course.agents.tools import ToolAgent
    from course.foundation.errors import UnsafeQuery
    from course.llm.base import ToolCall
    from course.pipeline.safety import run_guarded

    with pytest.raises(UnsafeQuery, match="LOAD CSV"):
        run_guarded(college_db, LOAD_CSV)
    pipeline = Agent(college_db, ScriptedLLM([LOAD_CSV, LOAD_CSV])).answer("Load the students file")
    assert pipeline.status == "blocked" and "LOAD CSV" in (pipeline.error or "")
    model = ScriptedLLM([ToolCall("execute_cypher", {"query": LOAD_CSV}), "I may only read the graph."])
    loop = ToolAgent(college_db, model).answer("Load the students file")
    assert [c["ok"] for c in loop.tool_calls()] == [False] and "LOAD CSV" in model.histories[1][-1].content
