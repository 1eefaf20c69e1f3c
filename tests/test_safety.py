"""The read-only guard (course/pipeline/safety.py): a battery of queries, property tests, and the
server's own verdict on the cases a keyword list gets wrong."""
from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course.foundation.errors import CourseError, QueryFailed
from course.pipeline.cypher_tokens import tokenize
from course.pipeline.guard import ALLOWED_PROCEDURES, check
from course.pipeline.safety import (UnsafeQuery, ensure_safe, explain_check, naive_is_safe,
                                    run_guarded)

# --- the battery: (query, the clause the refusal must name) ------------------------------

WRITES = [
    ("MATCH (n) DETACH DELETE n", "DETACH DELETE"),
    ("match (n) detach delete n", "DETACH DELETE"),
    ("MATCH (n) Detach Delete n", "DETACH DELETE"),
    ("MATCH (n) DETACH\tDELETE n", "DETACH DELETE"),
    ("MATCH (n) DETACH\nDELETE n", "DETACH DELETE"),
    ("MATCH (n) DETACH/**/DELETE n", "DETACH DELETE"),
    ("MATCH (n) DETACH /* keep calm */ DELETE n", "DETACH DELETE"),
    ("MATCH (n) DETACH // tidy up\nDELETE n", "DETACH DELETE"),
    ("MATCH (n) DELETE n", "DELETE"),
    ("MATCH (n)DELETE(n)", "DELETE"),
    ("MATCH (n) WITH n DELETE n", "DELETE"),
    ("MATCH ()-[r:FRIENDS_WITH]->() DELETE r", "DELETE"),
    ("MATCH (n) dElEtE n", "DELETE"),
    ("MATCH (n) SET n.year = 1", "SET"),
    ("MATCH (n) SET\tn.year = 1", "SET"),
    ("MATCH (n) SET\nn.year = 1", "SET"),
    ("MATCH (n) SET/**/n.year = 1", "SET"),
    ("MATCH (n) set n.year = 1", "SET"),
    ("MATCH (n:Student) SET n:Admin", "SET"),
    ("MATCH (n) SET n += {year: 1}", "SET"),
    ("MATCH (s:Student {name: 'Payal'}) SET s.year = 4 RETURN s.year", "SET"),
    ("MATCH (n) WHERE n.name = 'x' SET n.name = 'SET '", "SET"),
    ("CREATE (:Student {name: 'Mallory'})", "CREATE"),
    ("create (n)", "CREATE"),
    ("  CREATE (n)  ", "CREATE"),
    ("CREATE/**/(n)", "CREATE"),
    ("MATCH (a:Student) CREATE (a)-[:FRIENDS_WITH]->(a)", "CREATE"),
    ("CREATE INDEX FOR (s:Student) ON (s.year)", "CREATE"),
    ("MERGE (c:Club {name: 'Chess Club'})", "MERGE"),
    ("merge (n:X)", "MERGE"),
    ("MATCH (a:Student) MERGE (a)-[:MEMBER_OF]->(:Club {name: 'X'})", "MERGE"),
    ("MERGE (n:X) ON CREATE SET n.x = 1", "MERGE"),
    ("MATCH (n) REMOVE n.name", "REMOVE"),
    ("MATCH (n:Student) REMOVE n:Student", "REMOVE"),
    ("match (n) remove n.year", "REMOVE"),
    ("DROP INDEX ON :Student(name)", "DROP"),
    ("drop constraint on (s:Student) assert s.id is unique", "DROP"),
    ("FOREACH (x IN [1, 2] | CREATE (:Y))", "FOREACH"),
    ("MATCH p = (a)-[*1..2]->(b) FOREACH (n IN nodes(p) | SET n.seen = true)", "FOREACH"),
    ("foreach (x in [1] | merge (:Y))", "FOREACH"),
    ("MATCH (n) RETURN n.name; MATCH (n) DETACH DELETE n", "DETACH DELETE"),
]
FULLWIDTH = [
    ("ＭＡＴＣＨ (n) ＤＥＴＡＣＨ ＤＥＬＥＴＥ n", "DETACH DELETE"),
    ("MATCH (n) ＳＥＴ n.x = 1", "SET"),
    ("ｃｒｅａｔｅ (n)", "CREATE"),
    ("MATCH (n) ＲＥＭＯＶＥ n.x", "REMOVE"),
    ("ＬＯＡＤ ＣＳＶ FROM 'file:///x.csv' AS r RETURN r", "LOAD CSV"),
]
LOAD_CSV = [
    ("LOAD CSV FROM 'file:///nonexistent.csv' AS row RETURN row", "LOAD CSV"),
    ("LOAD CSV WITH HEADERS FROM 'https://example.invalid/students.csv' AS row RETURN row",
     "LOAD CSV"),
    ("load csv from 'file:///x.csv' as r return r", "LOAD CSV"),
    ("LOAD/**/CSV FROM 'file:///x.csv' AS r RETURN r", "LOAD CSV"),
    ("LOAD\nCSV FROM 'file:///x.csv' AS r RETURN r", "LOAD CSV"),
    ("MATCH (s:Student) LOAD CSV FROM 'file:///x.csv' AS r RETURN s.name, r", "LOAD CSV"),
    ("WITH 'file:///x.csv' AS u LOAD CSV FROM u AS r RETURN r", "LOAD CSV"),
    ("LOAD CSV FROM $url AS r RETURN r", "LOAD CSV"),
    # `﹨` becomes a backslash under NFKC: the guard must not think the string goes on.
    ("RETURN 'x﹨' AS a LOAD CSV FROM 'file:///x.csv' AS r RETURN r", "LOAD CSV"),
]
CALLS = [
    ("MATCH (n) CALL { WITH n RETURN n.name AS m } RETURN m", "CALL { }"),
    ("CALL { MATCH (n) DETACH DELETE n }", "CALL { }"),
    ("MATCH (n) CALL (n) { RETURN n.name AS m } RETURN m", "CALL { }"),
    ("CALL db.idx.fulltext.createNodeIndex('Student', 'name')",
     "CALL db.idx.fulltext.createNodeIndex"),
    ("CALL db.idx.fulltext.drop('Student')", "CALL db.idx.fulltext.drop"),
    ("CALL dbms.procedures()", "CALL dbms.procedures"),
    ("CALL dbms.functions()", "CALL dbms.functions"),
    ("CALL db.meta.stats()", "CALL db.meta.stats"),
    ("CALL algo.pageRank('Student', 'FRIENDS_WITH')", "CALL algo.pageRank"),
    ("CALL `db.idx.fulltext.createNodeIndex`('Student', 'name')",
     "CALL db.idx.fulltext.createNodeIndex"),
    ("call DB.IDX.FULLTEXT.CREATENODEINDEX('Student', 'name')",
     "CALL DB.IDX.FULLTEXT.CREATENODEINDEX"),
    ("CALL db . idx . fulltext . drop('Student')", "CALL db.idx.fulltext.drop"),
    ("CALL 'db.labels'()", "CALL"),
]
STATEMENTS = [
    ("MATCH (n) RETURN n.name; MATCH (m) RETURN m.name", "several statements"),
    ("RETURN 1; RETURN 2", "several statements"),
    ("MATCH (s:Student) RETURN s.name;\nMATCH (n) RETURN count(n)", "several statements"),
    ("RETURN 1;;RETURN 2", "several statements"),
]
UNBOUNDED = [
    ("MATCH (a)-[*]->(b) RETURN b.name", "[*]"),
    ("MATCH (a)-[:PREREQUISITE_FOR*]->(b) RETURN b.name", "[:PREREQUISITE_FOR*]"),
    ("MATCH (a)-[*2..]->(b) RETURN b.name", "[*2..]"),
    ("MATCH (a)-[*..]->(b) RETURN b.name", "[*..]"),
    ("MATCH (a)<-[r:INCLUDES*0..]-(b) RETURN b.name", "[r:INCLUDES*0..]"),
    ("MATCH p = (a)-[* ]-(b) RETURN length(p)", "[* ]"),
    ("MATCH (a:Student) WHERE (a)-[*]->(:Concept) RETURN a.name", "[*]"),
    ("MATCH (a:Student) RETURN [(a)-[:FRIENDS_WITH*]->(f) | f.name] AS friends",
     "[:FRIENDS_WITH*]"),
    ("MATCH (a)-[:INCLUDES|PREREQUISITE_FOR*]-(b) RETURN b.name",
     "[:INCLUDES|PREREQUISITE_FOR*]"),
    ("MATCH (a)-/**/[*]->(b) RETURN b.name", "[*]"),
    ("MATCH (a)-[r* {since: 2023}]->(b) RETURN b.name", "[r* {since: 2023}]"),
]
EMPTY_OR_UNREADABLE = [
    ("", "empty query"),
    ("   \n\t", "empty query"),
    ("// nothing here", "empty query"),
    ("/* */", "empty query"),
    ("MATCH (n) RETURN 'abc", "unclosed string"),
    ("MATCH (n) RETURN n.name /* DETACH DELETE n", "unclosed comment"),
    ("MATCH (n) RETURN n.`name", "unclosed backticked name"),
]
REFUSED = WRITES + FULLWIDTH + LOAD_CSV + CALLS + STATEMENTS + UNBOUNDED + EMPTY_OR_UNREADABLE

# The five demo questions' Cypher from the course text, and other plain reads.
DEMO_QUERIES = [
    "MATCH (sub:Subject) WHERE toLower(sub.name) CONTAINS toLower('dbms')\n"
    "MATCH (s:Student)-[r:STUDIES]->(sub)\nRETURN s.name AS name, r.grade AS grade\n"
    "ORDER BY r.grade DESC\nLIMIT 1",
    "MATCH (s:Student)-[:MEMBER_OF]->(c:Club)\n"
    "WITH s, COLLECT(DISTINCT c.name) AS clubs, COUNT(DISTINCT c) AS club_count\n"
    "WHERE club_count > 1\nRETURN s.name, clubs",
    "MATCH (a:Concept {name: '1NF'}), (b:Concept {name: 'BCNF'})\nCALL algo.SPpaths({\n"
    "sourceNode: a, targetNode: b,\nrelTypes: ['PREREQUISITE_FOR', 'INCLUDES'],\n"
    "relDirection: 'both', pathCount: 1\n}) YIELD path\n"
    "RETURN [n IN nodes(path) | n.name] AS nodes,\n"
    "[r IN relationships(path) | type(r)] AS rel_types",
    "MATCH (s:Student {name: 'Aarav'})-[:STUDIES]->(sub:Subject)-[:COVERS]->(c:Concept)\n"
    "MATCH (c)-[:PREREQUISITE_FOR*1..2]->(next:Concept)\nWHERE NOT (sub)-[:COVERS]->(next)\n"
    "RETURN DISTINCT next.name AS next_topic",
    "MATCH (s:Student)-[h:HAS_SKILL]->(sk:Skill)\n"
    "WHERE toLower(sk.name) CONTAINS 'machine learning'\n"
    "RETURN s.name, h.level\nORDER BY h.level DESC",
]
ALLOWED = DEMO_QUERIES + [
    "MATCH (p:Project) RETURN p.created_at",
    "MATCH (c:Club) WHERE c.name = 'Create Your Own' RETURN c.name",
    "MATCH (t:Student) RETURN t.offset",
    "MATCH (t:Student) RETURN t.offset AS o",
    "MATCH (u:Student) WHERE u.is_deleted = false RETURN u.name",
    "MATCH (n:Student) RETURN n.`set`",
    "MATCH (n:Student) RETURN n.name AS `delete`",
    "MATCH (n:Student) RETURN n.name // DELETE everything later",
    "MATCH (n:Student) /* DETACH DELETE n */ RETURN n.name",
    "RETURN 'MATCH (n) DETACH DELETE n' AS text",
    'RETURN "LOAD CSV FROM x" AS text',
    "RETURN 'it\\'s; DROP' AS s",
    "RETURN \"a \\\" CREATE\" AS s",
    "MATCH (n:Student) WHERE n.name CONTAINS 'set' RETURN n.name",
    "MATCH (n:Student) RETURN n.settings, n.dataset, n.reset, n.merged, n.creator, n.removed",
    "MATCH (n:Deleted) RETURN count(n)",
    "MATCH (a)-[:CREATED]->(b) RETURN b.name",
    "RETURN {set: 1, delete: 2} AS m",
    "RETURN 1 AS create",
    "MATCH (n:Student) RETURN n.name ORDER BY n.name SKIP 1 LIMIT 2",
    "MATCH (a)-[*1..3]->(b) RETURN count(b)",
    "MATCH (a)-[*..3]->(b) RETURN count(b)",
    "MATCH (a)-[:PREREQUISITE_FOR*1..2]->(b) RETURN b.name",
    "MATCH (a)-[*2]->(b) RETURN count(b)",
    "MATCH (a:Concept)-[r:INCLUDES * 1 .. 2]->(b) RETURN b.name",
    "RETURN [x IN range(1, 3) | x * 2] AS doubled",
    "MATCH (s:Student) RETURN count(*)",
    "CALL db.labels()",
    "CALL db.labels() YIELD label RETURN label",
    "CALL db.relationshipTypes()",
    "CALL db.propertyKeys()",
    "CALL DB.LABELS()",
    "CALL db.idx.fulltext.queryNodes('Student', 'Payl~1') YIELD node RETURN node.name",
    "RETURN 'OUT_OF_SCOPE' AS status",
    "MATCH (s:Student) RETURN s.name;",
    "MATCH (s:Student) RETURN s.name AS name UNION MATCH (c:Club) RETURN c.name AS name",
    "OPTIONAL MATCH (s:Student)-[:WORKS_ON]->(p:Project) RETURN s.name, p.name",
    "MATCH (n:Student) WITH n, size(n.name) AS len RETURN n.name, len",
    "MATCH (s:Student) WHERE s.name STARTS WITH 'P' RETURN s.name",
    "MATCH (s:Student) RETURN s.name AS name, s.year AS offset",
    "UNWIND [1, 2, 3] AS x RETURN x",
    "MATCH (s:Student) RETURN CASE WHEN s.year > 2 THEN 'senior' ELSE 'junior' END AS level",
    "MATCH (s:Student) RETURN s.createdAt, s.deletedBy, s.setting",
    "MATCH (s:Student) RETURN s.name AS `LOAD CSV`",
    "MATCH (s:Student) RETURN s.name // the end; DROP it",
    "MATCH (n:Student) RETURN n.name AS name, n.year AS year\n// LOAD CSV is not used",
]


def test_the_battery_is_large_enough():
    assert len(REFUSED) + len(ALLOWED) >= 100
    assert len({q for q, _ in REFUSED}) == len(REFUSED)  # no query counted twice
    assert len(set(ALLOWED)) == len(ALLOWED)


@pytest.mark.parametrize(("query", "clause"), REFUSED)
def test_refused_with_the_clause_named(query, clause):
    verdict = check(query)
    assert not verdict.allowed and not verdict
    assert verdict.clause == clause
    assert verdict.reason and verdict.reason.endswith(".")


@pytest.mark.parametrize("query", ALLOWED)
def test_allowed(query):
    verdict = check(query)
    assert verdict.allowed, verdict.reason
    assert verdict.reason is None and verdict.clause is None


@pytest.mark.parametrize(("query", "clause"), WRITES[:14] + FULLWIDTH[:4])
def test_write_reason_is_a_sentence_for_the_learner(query, clause):
    assert check(query).reason == f"{clause} would change the graph; the agent may only read."


def test_reasons_say_what_was_refused():
    assert "LOAD CSV" in check(LOAD_CSV[0][0]).reason
    assert "db.idx.fulltext.createNodeIndex" in check(CALLS[3][0]).reason
    assert "algo.SPpaths" in check(CALLS[3][0]).reason  # and what may be called instead
    assert "[:PREREQUISITE_FOR*]" in check(UNBOUNDED[1][0]).reason
    assert "[*1..3]" in check(UNBOUNDED[0][0]).reason
    assert "more than one statement" in check(STATEMENTS[0][0]).reason
    assert "empty" in check("").reason


def test_ensure_safe_raises_a_course_error_with_reason_and_clause():
    with pytest.raises(UnsafeQuery) as caught:
        ensure_safe("MATCH (n) DETACH DELETE n")
    assert isinstance(caught.value, CourseError)
    assert caught.value.clause == "DETACH DELETE"
    assert str(caught.value) == caught.value.reason
    assert ensure_safe("MATCH (s:Student) RETURN s.name") is None


def test_allowlist_holds_the_read_only_procedures_the_course_uses():
    for name in ("algo.SPpaths", "algo.SSpaths", "algo.BFS", "db.labels", "db.relationshipTypes",
                 "db.propertyKeys", "db.idx.fulltext.queryNodes"):
        assert name in ALLOWED_PROCEDURES
        assert check(f"CALL {name}('x')")
    assert not any(name.startswith("dbms.") or "create" in name.lower() or "drop" in name
                   for name in ALLOWED_PROCEDURES)


# --- the lexer -------------------------------------------------------------------------

def test_tokens_of_each_kind():
    tokens = tokenize("MATCH (n:`My Label`) WHERE n.x = 'a\\'b' /* c */ RETURN $p, 1.5 // d")
    kinds = [(t.kind, t.text) for t in tokens]
    assert ("quoted_name", "`My Label`") in kinds
    assert ("string", "'a\\'b'") in kinds
    assert ("comment", "/* c */") in kinds and ("comment", "// d") in kinds
    assert ("parameter", "$p") in kinds and ("number", "1.5") in kinds
    assert [t.text for t in tokenize("[*1..3]")] == ["[", "*", "1", "..", "3", "]"]


def test_line_comment_ends_only_at_a_newline_as_in_falkordb():
    # FalkorDB keeps `// ...` going past \r (checked against the server in
    # test_comment_and_string_rules_match_the_server); so must the guard.
    assert tokenize("RETURN 1 // c\rDELETE n")[-1].kind == "comment"
    assert check("RETURN 1 // c\nDELETE n").clause == "DELETE"


def test_fullwidth_letters_read_as_their_ascii_keyword():
    assert tokenize("ＤＥＬＥＴＥ")[0].word == "DELETE"


_IDENT_TAIL = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789", max_size=6)
_KEYWORDS = ["CREATE", "MERGE", "DELETE", "SET", "REMOVE", "DROP", "FOREACH", "DETACH", "LOAD",
             "CALL", "CSV"]
_GAPS = st.sampled_from([" ", "\t", "\n", "  ", "/**/", " /* note */ ", " // note\n", "\r\n"])


@st.composite
def _casing(draw, word: str) -> str:
    flips = draw(st.lists(st.booleans(), min_size=len(word), max_size=len(word)))
    return "".join(ch.lower() if flip else ch for ch, flip in zip(word, flips))


_WRITE_FORMS = {
    "CREATE": "(m:X)", "MERGE": "(m:X)", "DELETE": "n", "SET": "n.x = 1", "REMOVE": "n.x",
    "DROP": "INDEX ON :Student(name)", "FOREACH": "(x IN [1] | CREATE (:Y))",
}


@pytest.mark.slow   # half a second or more
@settings(max_examples=300, deadline=None)
@given(keyword=st.sampled_from(sorted(_WRITE_FORMS) + ["DETACH DELETE", "LOAD CSV"]),
       data=st.data(), before=_GAPS, after=_GAPS,
       prefix=st.sampled_from(["MATCH (n:Student)", "MATCH (n) WHERE n.year > 1 WITH n",
                               "MATCH (n)-[:STUDIES]->(s:Subject)", "UNWIND [1] AS x MATCH (n)"]))
def test_any_write_clause_is_refused_however_it_is_written(keyword, data, before, after, prefix):
    words = [data.draw(_casing(w)) for w in keyword.split()]
    written = data.draw(_GAPS).join(words)
    tail = {"DETACH DELETE": "n", "LOAD CSV": "FROM 'file:///x.csv' AS r RETURN r"}.get(
        keyword, _WRITE_FORMS.get(keyword))
    query = f"{prefix}{before}{written}{after}{tail}"
    assert check(query).clause == keyword, query


@pytest.mark.slow   # half a second or more
@settings(max_examples=300, deadline=None)
@given(keyword=st.sampled_from(_KEYWORDS), data=st.data(), head=_IDENT_TAIL, tail=_IDENT_TAIL)
def test_names_that_contain_a_keyword_pass(keyword, data, head, tail):
    word = data.draw(_casing(keyword))
    name = f"{head}{word}{tail}"
    if not (head or tail) or name[0].isdigit():
        name = f"x_{name}"
    for query in (f"MATCH (n:Student) RETURN n.{name}",
                  f"MATCH (n:Student) RETURN n.name AS {name}",
                  f"MATCH (n:Student) RETURN n.`{word}`",
                  f"MATCH (n:Student {{{name}: 1}}) RETURN n.name",
                  f"MATCH (n:{name}) RETURN count(n)"):
        assert check(query), query


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60))
def test_any_text_in_a_string_or_comment_passes(text):
    escaped = text.replace("\\", "\\\\").replace("'", "\\'")
    assert check(f"MATCH (n:Student) WHERE n.name = '{escaped}' RETURN n.name")
    assert check(f"MATCH (n:Student) /* {text.replace('*/', '')} */ RETURN n.name")
    first_line = text.splitlines()[0] if text.strip() else ""
    assert check(f"MATCH (n:Student) RETURN n.name // {first_line}\n")


@pytest.mark.slow   # half a second or more
@settings(max_examples=300, deadline=None)
@given(var=st.sampled_from(["", "r", "rel"]),
       types=st.sampled_from(["", ":PREREQUISITE_FOR", ":INCLUDES|PREREQUISITE_FOR"]),
       low=st.none() | st.integers(0, 5), dots=st.booleans(), high=st.none() | st.integers(1, 9),
       gap=st.sampled_from(["", " ", "/**/"]))
def test_variable_length_patterns_need_an_upper_bound(var, types, low, dots, high, gap):
    if not dots:
        high = None  # `*2` is exactly two hops; there is no `*2 3`
    spec = "*" + gap + ("" if low is None else str(low)) + gap + (".." if dots else "") + gap + (
        "" if high is None else str(high))
    query = f"MATCH (a:Concept)-[{var}{types}{spec}]->(b:Concept) RETURN b.name"
    bounded = (high is not None) or (low is not None and not dots)
    assert bool(check(query)) == bounded, query


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=80))
def test_tokens_cover_the_text_in_order(text):
    position = 0
    for token in tokenize(text):
        assert token.start >= position
        assert text[token.start:token.start + len(token.text)] == token.text
        assert text[position:token.start].strip() == ""  # only whitespace between tokens
        position = token.start + len(token.text)
    assert text[position:].strip() == ""


# --- the course text's check, and the server's own verdict ------------------------------

NAIVE_MISSES = ["MATCH (n) SET\tn.year = 1", "MATCH (n) SET/**/n.year = 1",
                "MATCH (n) SET\nn.year = 1"]
NAIVE_REFUSES_READS = ["MATCH (p:Project) RETURN p.created_at",
                       "MATCH (c:Club) WHERE c.name = 'Create Your Own' RETURN c.name",
                       "MATCH (t:Student) RETURN t.offset AS o",
                       "MATCH (u:Student) WHERE u.is_deleted = false RETURN u.name"]


def test_the_keyword_list_fails_in_both_directions():
    for query in NAIVE_MISSES + [LOAD_CSV[0][0], UNBOUNDED[0][0], STATEMENTS[0][0]]:
        assert naive_is_safe(query) == (True, None) and not check(query), query
    for query in NAIVE_REFUSES_READS:
        assert naive_is_safe(query)[0] is False and check(query), query
    assert naive_is_safe("MATCH (n) DETACH DELETE n") == (False, "Write operation detected: DELETE")


def _fingerprint(db) -> tuple[int, int, str]:
    """Node count, relationship count and a checksum over every property."""
    nodes = db.query("MATCH (n) RETURN labels(n), properties(n)").result_set
    rels = db.query("MATCH (a)-[r]->(b) RETURN properties(a), type(r), properties(r), "
                    "properties(b)").result_set
    rows = sorted(json.dumps(row, sort_keys=True, default=str) for row in nodes + rels)
    return len(nodes), len(rels), hashlib.sha256("\n".join(rows).encode()).hexdigest()


def test_whole_battery_through_the_guarded_executor_leaves_the_data_unchanged(college_db):
    before = _fingerprint(college_db)   # the whole graph, the text layer's chunks included
    assert college_db.counts() == {"nodes": 75, "relationships": 132}
    for query, clause in REFUSED:
        with pytest.raises(UnsafeQuery) as caught:
            run_guarded(college_db, query)
        assert caught.value.clause == clause
    ran = 0
    for query in ALLOWED:
        try:
            run_guarded(college_db, query, timeout_ms=2000)
            ran += 1
        except QueryFailed:
            pass  # e.g. a property or procedure argument the graph does not have
    assert ran >= len(ALLOWED) - 3
    assert _fingerprint(college_db) == before


def test_server_refuses_writes_the_keyword_list_misses(college_db):
    for query in NAIVE_MISSES:
        with pytest.raises(QueryFailed) as caught:
            college_db.run(query)
        assert "read-only" in caught.value.server_message  # graph.RO_QUERY ... read-only queries
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


def test_server_lets_load_csv_through_so_the_guard_must_refuse_it(college_db):
    query = "LOAD CSV FROM 'file:///nonexistent/students.csv' AS row RETURN row"
    with pytest.raises(QueryFailed) as caught:
        college_db.run(query)
    message = caught.value.server_message
    assert "CSV" in message and "read-only" not in message  # it tried to open the file
    assert any("Load CSV" in line for line in college_db.explain(query))
    assert explain_check(college_db, query).clause == "Load CSV"
    assert check(query).clause == "LOAD CSV"


def test_server_runs_unbounded_paths_and_refuses_several_statements(college_db):
    query = "MATCH (a:Concept)-[*]->(b:Concept) RETURN count(*) AS paths"
    assert college_db.run(query).rows[0][0] > 0
    assert any("..INF" in line for line in college_db.explain(query))
    with pytest.raises(QueryFailed, match="more than one statement"):
        college_db.run(STATEMENTS[0][0])


def test_explain_check_agrees_with_the_guard_on_the_battery(college_db):
    """FalkorDB's own parser as the reference: no allowed query has a write in its plan,
    and every write the server can parse has one."""
    for query in ALLOWED:   # the server parses every one of them (none is skipped)
        assert explain_check(college_db, query), query
    parsed = 0
    for query, _ in WRITES + LOAD_CSV + CALLS[1:2]:
        try:
            verdict = explain_check(college_db, query)
        except QueryFailed:
            continue  # a syntax error (e.g. old DROP INDEX form): the server runs nothing
        parsed += 1
        assert not verdict, query
    assert parsed >= 30
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


def test_comment_and_string_rules_match_the_server(college_db):
    """The guard's lexer and FalkorDB's agree on where comments and strings end."""
    rows = college_db.run("RETURN 1 // c\r AS y")
    assert rows.columns != ["y"]  # \r does not end a // comment
    assert college_db.run("RETURN 1 // c\n AS y").columns == ["y"]
    assert college_db.run("RETURN 'a\\'b' AS x").rows == [["a'b"]]
    assert college_db.run("RETURN 1 /*/ AS y */ AS x").columns == ["x"]


# --- differential: FalkorDB's own parser as the reference -------------------------------

_STARTS = ["MATCH (n:Student)", "MATCH (n)", "OPTIONAL MATCH (n:Club)", "MATCH (n:Student) WITH n",
           "MATCH (n:Student) WHERE n.name = 'x﹨'", "MATCH (n) WHERE n.name = 'SET '",
           "MATCH (n:Student) WITH n, 'a\\'' AS q"]
_CLAUSES = ["SET n.x = 1", "SET n:X", "DELETE n", "DETACH DELETE n", "CREATE (m)",
            "CREATE (n)-[:R]->(n)", "MERGE (m:X)", "REMOVE n.x", "FOREACH (x IN [1] | CREATE (:Y))",
            "LOAD CSV FROM 'file:///nonexistent.csv' AS r", "WITH n", "MATCH (n)-[*]->(m)",
            "MATCH (n)-[*1..2]->(m)", "MATCH (n)-[:R*2..]->(m)", "CALL { WITH n CREATE (:Z) }",
            "CALL db.labels() YIELD label", "WITH n AS set", "WITH n.name AS create"]
_ENDS = ["RETURN n.name", "RETURN 1", "", "RETURN count(*)"]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.sampled_from(_STARTS), clauses=st.lists(st.sampled_from(_CLAUSES), min_size=1,
                                                         max_size=3),
       end=st.sampled_from(_ENDS), gaps=st.lists(_GAPS, min_size=5, max_size=5))
def test_whatever_falkordb_plans_as_a_write_the_guard_refuses(college_db, start, clauses, end,
                                                               gaps):
    parts = [start, *clauses, end]
    query = parts[0] + "".join(gap + part for gap, part in zip(gaps, parts[1:]) if part)
    try:
        server = explain_check(college_db, query)  # nothing runs: EXPLAIN only
    except QueryFailed:
        return  # not valid Cypher: the server would run nothing either
    if not server:
        assert not check(query), (query, server.reason)


@pytest.mark.slow   # half a second or more
def test_the_lexer_reads_names_spaces_and_digits_with_the_characters_of_str_methods():
    """The tokenizer reads a run of name characters with `\\w`, of spaces with `\\s`, and
    tries its number pattern only at a `\\d` (or a dot): the same characters as
    `str.isalnum() or "_"`, `str.isspace()` and `str.isdecimal()`, every one of them."""
    import re
    import sys

    name, space, digit = re.compile(r"\w"), re.compile(r"\s"), re.compile(r"\d")
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        assert bool(name.match(ch)) == (ch.isalnum() or ch == "_"), hex(code)
        assert bool(space.match(ch)) == ch.isspace(), hex(code)
        assert bool(digit.match(ch)) == ch.isdecimal(), hex(code)


def _one_character_at_a_time(cypher: str) -> list:
    """The lexer without its regular expression: `_next_token` at each character that is not
    a space (the reference the fast path is compared with)."""
    from course.pipeline.cypher_tokens import _next_token

    tokens, i = [], 0
    while i < len(cypher):
        if cypher[i].isspace():
            i += 1
            continue
        tokens.append(_next_token(cypher, i))
        i = tokens[-1].start + len(tokens[-1].text)
    return tokens


_PIECES = st.sampled_from(["MATCH", "n", "1", "1.5e3", ".5", "0x1F", "..", ".", "$p", "$", "'",
                           '"', "`", "//", "/*", "*/", "/", "\\", "\n", " ", "\t", "\u00a0",
                           "²", "١", "é", "ｄ", "_", "(", ")", "[", "]", "{", "}", ",", ";",
                           ":", "-", "+", "*", "=", "<", ">", "!", "?", "&", "~", "%", "^", "|",
                           "#", "@"])


@pytest.mark.slow   # half a second or more
@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join) | st.text(max_size=40))
def test_the_fast_lexer_reads_the_tokens_one_character_at_a_time_would(text):
    from course.pipeline.cypher_tokens import tokenize

    assert tokenize(text) == _one_character_at_a_time(text)
