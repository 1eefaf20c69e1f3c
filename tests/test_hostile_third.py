"""Hostile input, third round (issue 24): each test here failed on the code before its fix.

Memory graphs behind one check for every door; runaway expressions refused; the answer cache
shares only what the rows stand behind; a full disk leaves no lock behind; values from the
graph, the notes, tool results and memory fenced in every prompt; and the smaller holes.
"""
from __future__ import annotations

import json

import pytest

from course.__main__ import main
from course.foundation.connection import connect
from course.foundation.dataset import load_college
from course.foundation.errors import InvalidInput
from course.foundation.graphs import require_data_graph
from course.llm.scripted import ScriptedLLM
from course.pipeline.graph_memory import GraphMemory
from course.pipeline.results import Result

# --- 3. memory graphs: one check, every verb and every library entry point ----------------

MEMORY = "memory_user_u2"


@pytest.fixture
def stored_conversation(college_db):
    """u2's stored conversation, as notebook 10 keeps it; deleted afterwards."""
    memory = GraphMemory(college_db, session="s1", user="u2")
    memory.remember(Result("Who is Payal?", cypher="MATCH (s:Student {name: 'Payal'}) RETURN s.name",
                           rows=[["Payal"]], answer="Payal.", status="answered"))
    store = college_db.select(MEMORY)
    before = store.counts()
    yield store, before
    GraphMemory.forget_user(college_db, "u2")


VERBS = [["load", "--reset"], ["load"], ["search", "race condition"],
         ["plan", "--student", "Sneha", "--subject", "DBMS", "--days", "10"],
         ["peers", "--student", "Sneha"], ["ask", "--provider", "offline", "Who is Payal?"],
         ["eval", "--provider", "offline"], ["demo", "--provider", "offline"]]


@pytest.mark.parametrize("verb", VERBS, ids=lambda v: " ".join(v[:2]))
def test_no_verb_touches_a_memory_graph(verb, stored_conversation, college_db, monkeypatch, capsys):
    store, before = stored_conversation
    monkeypatch.setenv("COURSE_DB", college_db.location)
    monkeypatch.setenv("COURSE_GRAPH", MEMORY)
    assert main(verb) == 1
    said = capsys.readouterr()
    assert "stored conversation" in said.err + said.out and "COURSE_GRAPH" in said.err + said.out
    assert "Traceback" not in said.err
    assert store.counts() == before   # the conversation is still there, and nothing was added


def test_no_library_entry_point_takes_a_memory_graph(stored_conversation, college_db):
    from course.agents.agentic import AgenticAgent
    from course.agents.tools import ToolAgent
    from course.pipeline.agent import Agent
    from course.pipeline.evaluation import evaluate
    from course.planner.peers import peers
    from course.planner.plans import plan
    from course.retrieval.search import search

    store, before = stored_conversation
    doors = [lambda: connect(path=college_db.location, graph=MEMORY),
             lambda: load_college(store, reset_first=True),
             lambda: search(store, "race condition"),
             lambda: plan(store, "Sneha", "DBMS", 10), lambda: peers(store, "Sneha"),
             lambda: evaluate(store, ScriptedLLM([]), []),
             lambda: Agent(store, ScriptedLLM([])), lambda: ToolAgent(store, ScriptedLLM([])),
             lambda: AgenticAgent(store, ScriptedLLM([]))]
    for door in doors:
        with pytest.raises(InvalidInput, match="stored conversation"):
            door()
    assert store.counts() == before


def test_the_check_is_one_function_in_the_foundation():
    assert require_data_graph("college") == "college"
    for name in (MEMORY, "Memory_User_u2", " memory_user_x"):
        with pytest.raises(InvalidInput, match="COURSE_GRAPH"):
            require_data_graph(name)
