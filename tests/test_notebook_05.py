"""Notebook 05 (retry): the facts its cells print, checked here rather than in the lesson.

The model is a `ScriptedLLM` (a mock of a model: it replays the outputs queued for it), as in
the notebook, so each failure happens on cue.
"""
from __future__ import annotations

import pytest

from course import Agent, ScriptedLLM, make_llm
from course.llm import Unavailable
from course.pipeline import prompts

BARE = """MATCH (s {name: 'Aarav'})-[:STUDIES]->(:Subject)-[:COVERS]->(c)
MATCH (c)-[:PREREQUISITE_FOR*1..2]->(next)
WHERE next.area <> sub.name
RETURN DISTINCT next.name AS next_topic"""
LABELLED = """MATCH (s:Student {name: 'Aarav'})-[:STUDIES]->(sub:Subject)-[:COVERS]->(c:Concept)
MATCH (c)-[:PREREQUISITE_FOR*1..2]->(next:Concept)
WHERE NOT (sub)-[:COVERS]->(next)
RETURN DISTINCT next.name AS next_topic"""
LITERAL = """MATCH (s:Student)-[:STUDIES]->(sub:Subject {name: 'dbms'})
MATCH (s)-[:MEMBER_OF]->(c:Club {name: 'debate-ye'})
RETURN s.id, s.name"""
FUZZY = """MATCH (s:Student)-[:STUDIES]->(sub:Subject)
WHERE toLower(sub.name) CONTAINS 'dbms'
MATCH (s)-[:MEMBER_OF]->(c:Club)
WHERE toLower(c.name) CONTAINS 'debate'
RETURN s.name"""
PROGRAM = "MATCH (p:Program) WHERE p.type = 'Masters' RETURN p.name, p.field, p.duration"
ML = """MATCH (s:Student)-[h:HAS_SKILL]->(sk:Skill)
WHERE toLower(sk.name) CONTAINS 'machine learning'
RETURN s.name AS student, h.level AS level
ORDER BY CASE h.level WHEN 'Advanced' THEN 0 WHEN 'Intermediate' THEN 1 ELSE 2 END"""


class Replay:
    """The notebook's `replay`: one agent, its mock model given each question's outputs in turn."""

    def __init__(self, db):
        self.scripted = ScriptedLLM([], name="replay")
        self.agent = Agent(db, self.scripted)

    def __call__(self, question, outputs):
        first = len(self.scripted.prompts)
        self.scripted.add(*outputs)
        result = self.agent.answer(question)
        assert self.scripted.remaining == 0
        return result, self.scripted.prompts[first:]


@pytest.fixture
def replay(college_db):
    return Replay(college_db)


def test_the_bare_variable_is_fixed_on_the_second_attempt_from_falkordbs_message(replay):
    result, seen = replay("Aarav ke next topics kya hain?", [BARE, LABELLED, "Indexing, ..."])
    assert "'sub' not defined" in seen[1]
    assert result.status == "answered" and len(result.attempts) == 2
    assert sorted(r[0] for r in result.rows) == ["Indexing", "Query Optimization", "Transactions"]


def test_the_fuzzy_miss_finds_payal_on_the_retry(replay):
    result, _ = replay("dbms and debate-ye dono ke students kaun hain?", [LITERAL, FUZZY, "Payal."])
    assert [a.row_count for a in result.attempts] == [0, 1]
    assert result.rows == [["Payal"]]


def test_the_hallucinated_program_ends_out_of_scope_with_no_answer_call(replay):
    result, seen = replay("Should I do a Masters in CSE or Electronics?", [PROGRAM, prompts.SENTINEL_QUERY])
    assert result.status == "out_of_scope" and result.answer == prompts.OUT_OF_SCOPE_ANSWER["en"]
    assert result.llm_calls == 2      # two attempts; the sentinel needs no answer call
    assert "OUT_OF_SCOPE" in seen[1]   # the hint named the way out


def test_the_delete_is_blocked_and_the_graph_keeps_its_counts(replay, college_db):
    result, _ = replay("clean up the old data", ["MATCH (n) DETACH DELETE n"] * 2)
    assert result.status == "blocked"
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


def test_a_provider_that_fails_once_is_asked_again(replay):
    result, _ = replay("Who should I learn ML from?",
                       [Unavailable("HTTP 503: the service is overloaded"), ML, "Rahul, then Karan."])
    assert result.rows == [["Rahul", "Advanced"], ["Karan", "Intermediate"]]


def test_the_replayed_errors_fill_every_category(replay):
    replay("Aarav ke next topics kya hain?", [BARE, LABELLED, "..."])
    replay("dbms and debate-ye dono ke students kaun hain?", [LITERAL, FUZZY, "..."])
    replay("Should I do a Masters in CSE or Electronics?", [PROGRAM, prompts.SENTINEL_QUERY])
    replay("clean up the old data", ["MATCH (n) DETACH DELETE n"] * 2)
    replay("Who should I learn ML from?", [Unavailable("HTTP 503"), ML, "..."])
    stats = replay.agent.stats
    assert all(stats[c] >= 1 for c in ["generation_error", "syntax_error", "empty_result",
                                       "out_of_scope", "unsafe_blocked"])
    assert stats["unsafe_blocked"] == 2 and stats["empty_result"] == 2


def test_the_offline_provider_finds_payal_refuses_the_masters_and_never_writes(college_db):
    default = Agent(college_db, make_llm("offline"))
    assert "Payal" in set(default.answer("dbms and debate-ye dono ke students kaun hain?").values())
    assert default.answer("Should I do a Masters in CSE or Electronics?").status == "out_of_scope"
    assert default.answer("clean up the old data").status in ("out_of_scope", "blocked")
    assert college_db.counts() == {"nodes": 75, "relationships": 132}
