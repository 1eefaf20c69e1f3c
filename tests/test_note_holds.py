"""A note far ahead of the next is no answer when it does not hold what is asked (issue 23).

"Which port does HTTPS use by default?" found the note on HTTP, which names HTTPS but no port;
"HTTP/2 vs HTTP/3" found it too, and it names no version. The same class in other topics and
phrasings: each was answered from the note before, a wrong answer; a refusal is right.
"""
from __future__ import annotations

import pytest

from course.agents.note_holds import asked_for, holds_what_is_asked
from course.llm.offline import OfflineLLM
from course.pipeline.memory import ShortTermMemory


@pytest.fixture
def learner(college_db):
    from course.planner.planner_tools import learner_agent

    return learner_agent(college_db, OfflineLLM(), memory=ShortTermMemory())


NOT_HELD = [
    "What year was TCP invented?",                            # no year in the TCP/IP note
    "What's new in HTTP/3?",                                  # the HTTP note names no version
    "What is the difference between TLS 1.2 and TLS 1.3?",    # nor any TLS version
]


@pytest.mark.parametrize("question", NOT_HELD)
def test_a_note_that_does_not_hold_what_is_asked_is_no_answer(learner, question):
    assert learner.answer(question).status != "answered"


HELD = [
    ("Which port does DNS use?", "N23"),                      # "DNS mostly uses UDP on port 53"
    ("Which algorithm does OSPF run?", "N24"),                # "runs Dijkstra's ... algorithm"
]


@pytest.mark.parametrize("question, note", HELD)
def test_a_note_that_holds_what_is_asked_still_answers(learner, question, note):
    result = learner.answer(question)
    assert result.status == "answered" and result.rows[0][0] == note


def test_what_is_asked_is_read_from_the_grammar_not_the_topic():
    assert asked_for("Which year was the B-tree invented?") == ["year"]
    assert asked_for("How is IPv6 different from IPv4?") == ["ipv6", "ipv4"]
    assert asked_for("What is a race condition?") == []       # "what is": no kind asked
    assert not holds_what_is_asked("What's new in HTTP/3?", "HTTP/1.1 keeps connections open.")
    assert holds_what_is_asked("What changed in HTTP/1.1?", "HTTP/1.1 keeps connections open.")


# --- a definition of a thing the course does not hold (issue 23) -----------------------------

NEIGHBOURS = [
    "What is a red-black tree?",      # the note on trees in general was the answer
    "What is a splay tree?",          # the Trees concept's text (concept_notes)
    "AVL tree kya hota hai?",         # "AVL" dropped as filler, then the Trees concept
    "What is a hash index?",          # the note on arrays: it names hash tables and an index
    "What is a B-tree?",              # the note on binary search trees
]


@pytest.mark.parametrize("question", NEIGHBOURS)
def test_a_definition_is_not_answered_by_a_text_on_a_neighbour(learner, question):
    result = learner.answer(question)
    assert result.status != "answered", result.answer


@pytest.mark.parametrize("question, note", [("What is a mutex?", "N17"),
                                            ("What is a partial dependency?", "N03"),
                                            ("What is a page fault?", "N20")])
def test_a_definition_a_note_names_is_still_answered_from_it(learner, question, note):
    result = learner.answer(question)
    assert result.status == "answered" and result.rows[0][0] == note, result.answer
