"""Hostile input against the guarded door (issue 13): no write in any disguise, and
runaway queries bounded by the server, each refusal or stop a sentence.

Each test here failed on the code before the fix: an alias named `as` switched the guard
off for the next clause, FalkorDB's plan was never consulted, a write only the server's
read-only mode caught ended `failed` with the server's words, and nothing bounded a
single expression, a result set or a query's memory on the server.
"""
from __future__ import annotations

import itertools

import falkordb
import pytest

from course.foundation.db import Database
from course.foundation.errors import QueryFailed, QueryTimedOut, UnsafeQuery
from course.foundation.server import SERVER_LIMITS, SOCKET_TIMEOUT_S
from course.llm.scripted import ScriptedLLM
from course.pipeline import safety
from course.pipeline.agent import Agent
from course.pipeline.guard import check
from course.pipeline.prompts import BLOCKED_ANSWER
from course.pipeline.safety import explain_check, procedure_modes, run_guarded

# --- the `AS as` bypass, and every one like it ------------------------------------------

# The hostile tester's thirteen: each was allowed by the guard.
AS_AS = [
    "MATCH (n:Student) WITH n AS as SET as.year = 9",
    "MATCH (n:Student) WITH n AS as SET as:Admin",
    "MATCH (n:Student) WITH n AS as REMOVE as.year",
    "MATCH (n:Student) WITH n AS as DELETE as",
    "MATCH (n:Student) WITH n AS as DETACH DELETE as",
    "MATCH (n:Student) WITH n AS as WITH as DELETE as",
    "MATCH (n:Student) WITH n AS as WITH as SET as.year = 9",
    "UNWIND [1] AS as CREATE (:Student {name: 'Mallory'})",
    "UNWIND [1] AS as MERGE (:Student {name: 'Mallory'})",
    "UNWIND [1] AS as FOREACH (x IN [1] | CREATE (:Y))",
    "WITH 1 AS as CALL db.idx.fulltext.drop('Student')",
    "WITH 1 AS as CALL { CREATE (:Y) }",
    "WITH 1 AS as CALL dbms.procedures()",
]

# Every word that is also a keyword, as an alias or a variable, before every write clause.
KEYWORDS = ["as", "AS", "As", "set", "delete", "create", "merge", "remove", "detach", "call",
            "foreach", "with", "return", "match", "where", "unwind", "load", "yield", "order",
            "limit", "skip", "union", "optional", "case", "end", "in", "is", "not", "and", "or",
            "distinct", "on", "drop", "exists", "all", "any", "none", "null", "true", "count"]
WRITES = ["SET {v}.year = 9", "SET {v}:Admin", "SET {v} += {{year: 9}}", "REMOVE {v}.year",
          "DELETE {v}", "DETACH DELETE {v}", "CREATE (:Y)", "MERGE (:Y)",
          "FOREACH (x IN [1] | CREATE (:Y))", "CALL db.idx.fulltext.drop('Student')",
          "CALL {{ CREATE (:Y) }}", "LOAD CSV FROM 'file:///x.csv' AS r"]
TEMPLATES = ["MATCH (n:Student) WITH n AS {v} {write}",
             "MATCH (n:Student) WITH n AS {v} WITH {v} {write}",
             "MATCH (n:Student) WITH n AS {v}, 1 AS x WITH {v}, x {write}",
             "UNWIND [1] AS {v} {write}",
             "MATCH (n:Student) RETURN n.name AS {v} UNION MATCH (n:Student) WITH n AS {v} {write}"]


def disguised_writes() -> list[str]:
    return [template.format(v=v, write=write.format(v=v))
            for template, v, write in itertools.product(TEMPLATES, KEYWORDS, WRITES)]


@pytest.mark.parametrize("query", AS_AS)
def test_an_alias_named_as_does_not_switch_the_guard_off(query):
    verdict = check(query)
    assert not verdict, query
    assert verdict.reason and verdict.clause


def test_no_write_clause_hides_behind_an_alias_named_like_a_keyword():
    allowed = [query for query in disguised_writes() if check(query)]
    assert not allowed, allowed[:5]
    assert len(disguised_writes()) == 5 * 40 * 12


def test_aliases_named_like_keywords_still_read():
    for query in ["MATCH (n:Student) RETURN n.name AS as", "RETURN 1 AS create",
                  "MATCH (n:Student) RETURN n.name AS as ORDER BY as",
                  "MATCH (n:Student) RETURN n.name AS delete, n.year AS set",
                  "MATCH (n:Student) WITH n.name AS create RETURN count(*)"]:
        assert check(query), query
    # Using a write keyword as a variable later is refused: from the tokens alone, `set` there
    # could be the clause. A refusal, never a write: the model is told to rename it.
    assert not check("MATCH (n:Student) RETURN n.name AS set ORDER BY set")


def test_the_disguised_writes_change_nothing_through_the_door(college_db):
    before = college_db.counts()
    for query in AS_AS:
        with pytest.raises(UnsafeQuery):
            run_guarded(college_db, query)
    assert college_db.counts() == before


# --- FalkorDB's plan: a real second layer -----------------------------------------------

@pytest.fixture
def guard_off(monkeypatch):
    """A mock of the first layer: a guard that allows everything, so only the layers behind it
    (FalkorDB's plan, the procedure modes, the server's read-only mode) are left."""
    monkeypatch.setattr(safety, "check", lambda cypher: safety.ALLOWED)


def test_write_procedures_are_refused_by_their_mode_on_the_server(college_db):
    modes = procedure_modes(college_db)
    assert modes["db.idx.fulltext.drop"] == "WRITE" and modes["algo.sppaths"] == "READ"
    for query in ["CALL db.idx.fulltext.drop('Student')",
                  "CALL db.idx.fulltext.createNodeIndex('Student', 'name')",
                  "WITH 1 AS x CALL DB.IDX.FULLTEXT.DROP('Student')"]:
        verdict = explain_check(college_db, query)
        assert not verdict and verdict.clause.startswith("CALL "), query
        assert "writes to the graph" in verdict.reason
    assert explain_check(college_db, "CALL db.labels() YIELD label RETURN label")


def test_the_plan_is_a_layer_of_the_door(college_db, guard_off):
    before = college_db.counts()
    for query, clause in [("MATCH (n:Student) SET n.year = 9", "Update"),
                          ("CREATE (:Student {name: 'Mallory'})", "Create"),
                          ("CALL db.idx.fulltext.drop('Student')", "CALL db.idx.fulltext.drop"),
                          ("MATCH (a)-[*]->(b) RETURN count(b)", "Conditional Variable Length Traverse")]:
        with pytest.raises(UnsafeQuery) as caught:
            run_guarded(college_db, query)
        assert caught.value.clause is not None and caught.value.clause.startswith(clause.split()[0])
    assert college_db.counts() == before


def test_procedure_modes_are_read_once_per_database(college_db, monkeypatch):
    safety._MODES.clear()
    calls = []
    real = Database.run

    def counting(self, cypher, *args, **kwargs):
        calls.append(cypher)
        return real(self, cypher, *args, **kwargs)

    monkeypatch.setattr(Database, "run", counting)
    for _ in range(3):
        run_guarded(college_db, "CALL db.labels() YIELD label RETURN label")
    assert sum("dbms.procedures" in c for c in calls) == 1


def test_a_write_the_servers_read_only_mode_refused_is_blocked_in_the_courses_words(
        college_db, guard_off, monkeypatch):
    monkeypatch.setattr(safety, "explain_check", lambda db, cypher, params=None: safety.ALLOWED)
    write = "MATCH (s:Student) SET s.year = 9"
    agent = Agent(college_db, ScriptedLLM([write, write]))
    result = agent.answer("Make everyone a ninth-year student")
    assert result.status == "blocked", result.error
    assert result.answer == BLOCKED_ANSWER["en"]
    assert result.error == f"Unsafe query: {safety.SERVER_REFUSED_WRITE}"
    assert "RO_QUERY" not in (result.error or "") + result.answer
    assert college_db.run("MATCH (s:Student) WHERE s.year = 9 RETURN count(s)").rows == [[0]]


# --- runaway queries: the guard refuses only what the server cannot bound ---------------

UNBOUNDABLE = [
    ("RETURN size(reduce(s='', x IN range(1, 200000) | s + 'xxxxxxxxxx'))", "reduce()"),
    ("RETURN size(range(1, 500000000))", "range()"),
    ("UNWIND range(1,1e8) AS x RETURN count(x)", "range()"),
    ("UNWIND range(1,4000000) AS x RETURN x, 'padding'", "range()"),
    ("UNWIND range(1, 1000) AS a UNWIND range(1, 1000) AS b RETURN count(*)", "range()"),
    ("WITH 100000000 AS n RETURN size(range(1, n))", "range()"),
    ("RETURN size(range(1, 10^9))", "range()"),
    ("RETURN reduce(s = 0, x IN [1, 2] | toString(s) + toString(s))", "reduce()"),
]


@pytest.mark.parametrize("query, clause", UNBOUNDABLE)
def test_what_the_server_cannot_stop_is_refused_with_a_sentence(query, clause):
    verdict = check(query)
    assert not verdict and verdict.clause == clause
    assert "server" in verdict.reason or "expression" in verdict.reason or "known" in verdict.reason


def test_small_ranges_still_read(college_db):
    assert run_guarded(college_db, "RETURN [x IN range(1, 3) | x * 2] AS d").rows == [[[2, 4, 6]]]
    query = ("MATCH p = (:Concept {name: '1NF'})-[:INCLUDES*1..3]-(:Concept) "
             "RETURN [i IN range(0, size(nodes(p)) - 1) | i] AS steps LIMIT 1")
    assert run_guarded(college_db, query).rows


def test_the_embedded_server_runs_with_the_courses_limits(college_db):
    config = dict(college_db.client.connection.execute_command("GRAPH.CONFIG", "GET", "*"))
    assert {name: config[name] for name in SERVER_LIMITS} == SERVER_LIMITS


def test_the_server_sends_at_most_its_result_set_size(college_db):
    many = "MATCH (a), (b), (c) RETURN a.name"   # 421,875 rows
    raw = college_db.graph.ro_query(many)
    assert len(raw.result_set) == SERVER_LIMITS["RESULTSET_SIZE"]
    rows = college_db.run(many, max_rows=10**7)
    assert rows.truncated   # cut by the server, and it says so


@pytest.mark.slow   # half a second or more
def test_a_query_over_its_memory_cap_is_stopped_with_a_sentence(college_db):
    pad = "x" * 2_000
    hungry = f"MATCH (a), (b), (c) RETURN size(collect(a.name + '{pad}')) AS n"
    with pytest.raises(QueryFailed) as caught:
        college_db.run(hungry, timeout_ms=15_000)
    assert "more memory than one query may use" in str(caught.value)
    assert college_db.run("MATCH (s:Student {name: 'Payal'}) RETURN s.year").rows == [[2]]


@pytest.mark.slow   # half a second or more
def test_the_client_gives_up_on_a_server_that_never_answers(college_db):
    """CLIENT PAUSE holds every command for a second: a client with a 0.3 s socket timeout
    says so in a sentence instead of waiting forever."""
    impatient = falkordb.FalkorDB(unix_socket_path=str(college_db.server.socket), socket_timeout=0.3)
    db = Database(impatient, college_db.graph_name, mode="embedded", location=college_db.location)
    assert db.run("RETURN 1").rows == [[1]]
    college_db.client.connection.execute_command("CLIENT", "PAUSE", 1000, "ALL")
    try:
        with pytest.raises(QueryTimedOut, match="no answer within"):
            db.run("RETURN 1")
    finally:
        college_db.client.connection.execute_command("CLIENT", "UNPAUSE")
    assert SOCKET_TIMEOUT_S > SERVER_LIMITS["TIMEOUT_MAX"] / 1000
    pool = college_db.client.connection.connection_pool
    assert pool.connection_kwargs["socket_timeout"] == SOCKET_TIMEOUT_S


def test_broken_text_from_a_model_is_refused_not_raised():
    verdict = check("MATCH (s:Student) WHERE s.name = 'Pay\ud800al' RETURN s.name")
    assert not verdict and verdict.clause == "broken text"


def test_the_docker_server_is_documented_with_the_same_limits():
    import yaml

    from course.foundation.config import PROJECT_ROOT

    compose = yaml.safe_load((PROJECT_ROOT / "docker-compose.yml").read_text())
    words = compose["services"]["falkordb"]["environment"]["FALKORDB_ARGS"].split()
    assert dict(zip(words[::2], map(int, words[1::2]))) == SERVER_LIMITS
    readme = (PROJECT_ROOT / "README.md").read_text()
    assert all(f"`{name}`" in readme for name in SERVER_LIMITS)
    assert "no authentication" in readme.lower()
