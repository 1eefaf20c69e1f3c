"""The agent's round trips (issue 21): counted by the server itself, per question.

A peer's chain sends one command per question. The pipeline sends what its safety needs
(FalkorDB's plan, then the read-only query) and one key for the data version: no PING before
each query, and no full-text query per name in the question (the names are looked up in an
index read once per data version). The count comes from the server's own INFO commandstats.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from course.foundation.db import Database
from course.foundation.versioning import data_version
from course.llm.registry import make_llm
from course.pipeline.agent import Agent
from course.pipeline.linking import link_entities
from course.pipeline.schema import introspect
from course.ui.demo import FIVE_QUESTIONS


def commands_of(db: Database, action: Callable[[], Any]) -> Counter[str]:
    """The commands the server ran during `action`, by name (the INFO calls measuring it left out)."""
    def snapshot() -> Counter[str]:
        stats = db.client.connection.info("commandstats")
        return Counter({name.removeprefix("cmdstat_").lower(): int(v["calls"])
                        for name, v in stats.items()})

    before = snapshot()
    action()
    sent = snapshot() - before
    sent["info"] -= 1
    return +sent


def test_a_demo_question_costs_at_most_four_server_commands_and_no_ping(college_db):
    agent = Agent(college_db, make_llm("offline"))
    for item in FIVE_QUESTIONS:
        results = []
        sent = commands_of(college_db, lambda: results.append(agent.answer(item.question)))
        assert results[0].status == "answered", item.question
        assert sent["ping"] == 0, (item.question, sent)
        assert sum(sent.values()) <= 4, (item.question, sent)


def test_linking_a_question_reads_one_key_not_the_full_text_indexes(college_db):
    schema = introspect(college_db)
    link_entities(college_db, "Who is Payal?", schema=schema)      # the names, read once
    found: list[Any] = []
    sent = commands_of(college_db, lambda: found.extend(
        link_entities(college_db, "dbms and debate-ye dono ke students kaun hain?", schema=schema)))
    assert [m.value for m in found] == ["DBMS", "Debate Society"]
    assert sent == Counter({"hmget": 1}), sent


def test_the_data_version_is_one_key_once_it_is_known(college_db):
    first = data_version(college_db)
    sent = commands_of(college_db, lambda: data_version(college_db))
    assert sent == Counter({"hmget": 1}), sent
    assert data_version(college_db) == first


def test_the_schema_is_read_once_per_data_version(college_db):
    first = introspect(college_db)
    sent = commands_of(college_db, lambda: introspect(college_db))
    assert sum(sent.values()) <= 1, sent
    college_db.query("CREATE (:Student {id: 'S99', name: 'Zara', year: 9, branch: 'ME'})")
    again = introspect(college_db)
    assert 9 in again.labels["Student"][1]["year"].values and first is not again


@pytest.mark.parametrize("write", [
    "CREATE (:Student {id: 'S99', name: 'Zara', year: 1, branch: 'CSE'})",
    "MATCH (s:Student {name: 'Payal'}) SET s.name = 'Payal Sharma'",
])
def test_a_write_through_the_course_changes_what_linking_finds(college_db, write):
    schema = introspect(college_db)
    before = {m.value for m in link_entities(college_db, "Who is Zara? Who is Payal Sharma?",
                                             schema=schema)}
    college_db.query(write)
    after = {m.value for m in link_entities(college_db, "Who is Zara? Who is Payal Sharma?",
                                            schema=schema)}
    assert after != before and ({"Zara"} <= after or {"Payal Sharma"} <= after)


def test_one_question_reads_the_data_version_once_whatever_the_agent(college_db):
    from course.agents.agentic import AgenticAgent
    from course.pipeline.graph_memory import GraphMemory

    GraphMemory.forget_user(college_db, "once")
    agents = [AgenticAgent(college_db, make_llm("offline")),
              Agent(college_db, make_llm("offline"),
                    memory=GraphMemory(college_db, session="s", user="once"))]
    for agent in agents:
        for question in ("Who is best at DBMS and which clubs is she in?", "Who is Payal?"):
            results = []
            sent = commands_of(college_db, lambda: results.append(agent.answer(question)))
            assert results[0].status != "failed", (type(agent).__name__, question)
            assert sent["hmget"] == 1, (type(agent).__name__, question, sent)
            assert sent["hincrby"] == 0, sent     # a conversation's writes are not counted
