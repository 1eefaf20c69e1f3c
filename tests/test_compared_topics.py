"""A topic named only as the standard of a comparison is not the topic asked (issue 23).

"the normal form that's stricter than 3NF" names 3NF and asks about BCNF; the encoder puts the
note on 3NF first. The note that answers is one of a topic the graph relates to the standard,
on the side the comparison points to, or none.
"""
from __future__ import annotations

import pytest

from course.llm.offline import OfflineLLM
from course.pipeline.memory import ShortTermMemory
from course.planner.planner_tools import learner_agent


@pytest.fixture
def learner(college_db):
    return learner_agent(college_db, OfflineLLM(), memory=ShortTermMemory())


def first_note(result) -> str | None:
    """The note the first part was answered from, or None when it was not answered from one."""
    part = result.sub_questions[0]
    return str(part.rows[0][0]) if part.tool == "search_notes" and part.status == "answered" \
        and part.rows else None


@pytest.mark.parametrize("question, note", [
    ("How is the normal form that's stricter than 3NF different? When can a table pass 3NF but "
     "still fail it?", "N05"),
    ("Which normal form is stricter than 3NF and why?", "N05"),
    ("What protocol sits higher than TCP/IP for web pages?", "N22"),
], ids=["stricter-than-3nf-two-sentences", "stricter-than-3nf", "higher-than-tcp"])
def test_the_topic_compared_with_a_named_one_is_answered(learner, question, note):
    assert first_note(learner.answer(question)) == note


@pytest.mark.parametrize("question, standard", [
    ("what's the normal form one step looser than 3NF about?", "N04"),
    ("Which search goes wider than DFS before going deeper?", "N14"),
], ids=["looser-than-3nf", "wider-than-dfs"])
def test_the_standard_of_a_comparison_is_never_its_answer(learner, question, standard):
    assert first_note(learner.answer(question)) != standard


@pytest.mark.parametrize("question, note", [
    ("How is BCNF stricter than 3NF?", "N05"),
    ("kya BCNF 3NF se zyada strict hai?", "N05"),
    ("why is a thread cheaper than a process?", "N17"),
    ("Explain what makes virtual memory bigger than RAM", "N20"),
], ids=["bcnf-named", "bcnf-named-hinglish", "thread-named", "ram-no-topic"])
def test_a_topic_named_in_its_own_right_keeps_its_note(learner, question, note):
    assert first_note(learner.answer(question)) == note


def test_both_sides_found_and_no_way_said_answers_from_no_note(college_db):
    from course.retrieval.compared_topics import compared_hits
    from course.retrieval.search import Hit

    hits = [Hit("N04", "3NF", 0.9, ""), Hit("N05", "BCNF", 0.8, ""), Hit("N03", "2NF", 0.7, "")]
    assert compared_hits(college_db, "what is different than 3NF?", hits) == []
    assert [h.note for h in compared_hits(college_db, "what is simpler than 3NF?", hits)] == ["N03"]
