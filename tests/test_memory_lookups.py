"""A question's reads and writes of the memory graph find its session through an index.

Every browser of a room, every `ask --session`, keeps its turns in one user's memory graph, so
the graph grows with every question anyone asked. A lookup that starts from every Turn (or
every Session) costs more with each question asked before it; one that starts from the
session's id, through an index, costs the same on the first day and the last.
"""
from __future__ import annotations

import re
import time

import pytest

from course.llm.scripted import ScriptedLLM
from course.pipeline import graph_memory
from course.pipeline.agent import Agent
from course.pipeline.graph_memory import GraphMemory

PAYAL = "MATCH (s:Student) WHERE s.name = 'Payal' RETURN s.name, s.year, s.branch"
LOOKUPS = {"the repeat looked up": graph_memory._FIND_REPEAT,
           "the turns read": graph_memory._LOAD_TURNS, "the turn saved": graph_memory._SAVE_TURN}


@pytest.fixture
def memory(college_db):
    yield GraphMemory(college_db, session="first", user="lookups")
    GraphMemory.forget_user(college_db, "lookups")


def built(store, seconds: float = 30.0) -> list[str]:
    """The memory graph's index states, once none is still being built (FalkorDB builds an
    index in the background: on a busy machine the plan of a query made right after
    `CREATE INDEX` may not use it yet)."""
    deadline = time.monotonic() + seconds
    while True:
        states = [row[0] for row in store.run("CALL db.indexes() YIELD status RETURN status").rows]
        if all(s == "OPERATIONAL" for s in states) or time.monotonic() > deadline:
            return states
        time.sleep(0.05)


def starts(plan: list[str]) -> list[str]:
    """The plan's scans: the operations that find nodes with no node given."""
    return [line.strip() for line in plan if re.search(r"Node By (Label|Index) Scan", line)]


def test_the_session_is_found_by_its_index_not_by_scanning_every_turn(college_db, memory):
    agent = Agent(college_db, ScriptedLLM([PAYAL, "Payal is a second-year CSE student."]),
                  memory=memory)
    assert agent.answer("Who is Payal?").status == "answered"   # the memory graph now exists
    params = {"session": "first", "norm": "who is payal", "version": "v", "context_key": "",
              "limit": 200, "user": "lookups", "question": "q", "cypher": "", "columns": "[]",
              "rows": "[]", "result": "", "answer": "", "status": "answered",
              "provider": "", "from_memory": False, "about": [], "at": ""}
    states = built(memory.store)
    assert states and set(states) == {"OPERATIONAL"}, states
    for what, cypher in LOOKUPS.items():
        scans = starts(memory.store.explain(cypher, params))
        assert scans and "Index Scan" in scans[0] and ":Session)" in scans[0], (what, scans)
        assert not any("Label Scan" in s and (":Turn)" in s or ":Session)" in s)
                       for s in scans), (what, scans)


def test_a_second_memory_of_the_same_graph_finds_its_repeat(college_db, memory):
    """The index is made once per graph; a second session's memory uses it as it is."""
    first = Agent(college_db, ScriptedLLM([PAYAL, "Payal is a second-year CSE student."]),
                  memory=memory)
    first.answer("Who is Payal?")
    other = GraphMemory(college_db, session="second", user="lookups")
    second = Agent(college_db, ScriptedLLM([PAYAL, "Payal is a second-year CSE student."]),
                   memory=other)
    assert second.answer("Who is Payal?").llm_calls == 2      # another session: no repeat
    again = second.answer("who is payal")
    assert (again.llm_calls, again.from_memory) == (0, True)
    assert [t["n"] for t in other.history()] == [1, 2]
