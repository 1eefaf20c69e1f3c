"""Two encoders that agree on a note may answer under the usual likeness (issue 23).

A learner's everyday words are far from a note's: "What makes a bank transfer either happen
completely or not at all?" is 0.59 like the note on transactions, under the bar's 0.61, and was
refused though both encoders put that note first, well ahead of the next. The lower bar for
agreeing encoders is calibrated in bench/bench_evidence.py.
"""
from __future__ import annotations

import pytest

from course.llm.offline import OfflineLLM
from course.pipeline.memory import ShortTermMemory


@pytest.fixture
def learner(college_db):
    from course.planner.planner_tools import learner_agent

    return learner_agent(college_db, OfflineLLM(), memory=ShortTermMemory())


def notes_answered(learner) -> list[str]:
    return [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]


@pytest.mark.parametrize("question, note", [
    ("What makes a bank transfer either happen completely or not at all?", "N08"),
    ("When my data leaves our campus network, how does each box along the way decide which direction "
     "to forward it so it reaches the right network?", "N24"),
    ("ok so i have two threads both adding to the same counter and the final total comes out wrong "
     "every few runs, whats going on and how do i stop it", "N17"),
], ids=["transfer", "routing", "counter"])
def test_a_note_both_encoders_put_first_answers_under_the_likeness(learner, question, note):
    result = learner.answer(question)
    assert result.status == "answered" and notes_answered(learner)[:1] == [note], result.answer


def test_under_the_likeness_a_note_the_encoders_disagree_on_does_not_answer(learner, college_db):
    """A guard (it passed before the lower bar too): "How do websites know where to find each
    other?" is nearest the note on graphs for MiniLM and the note on subnetting for WordLlama."""
    from course.retrieval.second_opinion import agreeing_bar

    question = "How do websites know where to find each other?"
    assert agreeing_bar(college_db, question, "N12") is None
    learner.answer(question)
    assert notes_answered(learner) == []


def test_under_the_likeness_a_kind_the_graph_does_not_hold_is_not_a_notes(learner):
    """unseen71 bv048: "what is the phone number of the admission office?" was answered from the
    note on 1NF, whose example is a column of phone numbers; both encoders put it first. A
    question that names what the graph does not hold (a phone number, a teacher) needs the
    usual bar."""
    learner.answer("Who is the principal of the college, and what is the phone number of the admission office?")
    assert notes_answered(learner) == []
