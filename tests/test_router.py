"""The agentic router weighs the note search's evidence (issue 23).

Before it picks a tool, the router is told what the note search found: the best note, its
score, its lead, and whether it clears the evidence bar (`course.retrieval.search.clears`). A
question no template fits by its words, that names nothing in the graph, goes to that note
first when it clears; any other question still goes to text2cypher first.
"""
from __future__ import annotations

import pytest

from course.agents.agentic_roles import route_prompt
from course.agents.agentic_run import Run
from course.agents.agentic_tools import AGENTIC_TOOLS
from course.llm.base import Message
from course.llm.offline import OfflineLLM
from course.llm.offline.roles.policy import play_role, read_role_prompt
from course.llm.offline.roles.words import note_evidence_line
from course.pipeline.linking import link_entities
from course.pipeline.memory import ShortTermMemory

SPECS = [t.spec() for t in AGENTIC_TOOLS]
# A note question in a learner's words: no word of it is in any tool's example questions.
SWAPPING = "Why does my laptop crawl while it keeps swapping to disk?"


def routed(db, question: str, evidence: str) -> str:
    system, user = route_prompt(question, link_entities(db, question), Run(question), "", evidence)
    _, calls = play_role(system, [Message("user", user)], SPECS)
    return calls[0].name


def test_the_evidence_line_is_read_back_from_the_prompt():
    line = note_evidence_line("N20", "Virtual Memory", 0.8, 0.3, True)
    assert read_role_prompt(f"{line}\n\nQUESTION: {SWAPPING}").notes_clear
    below = note_evidence_line("N20", "Virtual Memory", 0.5, 0.01, False)
    assert not read_role_prompt(f"{below}\n\nQUESTION: {SWAPPING}").notes_clear


def test_a_note_question_sharing_no_word_with_an_example_goes_to_the_notes(college_db):
    clear = note_evidence_line("N20", "Virtual Memory", 0.8, 0.3, True)
    below = note_evidence_line("N20", "Virtual Memory", 0.5, 0.01, False)
    assert routed(college_db, SWAPPING, clear) == "search_notes"
    assert routed(college_db, SWAPPING, below) == "text2cypher"     # the query is tried first


def test_a_question_naming_a_graph_value_goes_to_text2cypher_whatever_a_note_says(college_db):
    """A note about deadlocks says "operating systems": the students who take it are rows."""
    clear = note_evidence_line("N18", "Deadlocks", 0.8, 0.3, True)
    assert routed(college_db, "Who takes Operating Systems?", clear) == "text2cypher"


@pytest.fixture
def learner(college_db):
    from course.planner.planner_tools import learner_agent

    return learner_agent(college_db, OfflineLLM(), memory=ShortTermMemory())


@pytest.mark.parametrize("question, note", [
    ("How does a router pick the next hop for a packet?", "N24"),
])
def test_the_learners_agent_asks_the_note_it_has_evidence_for_and_nothing_else(learner, question, note):
    result = learner.answer(question)
    assert result.status == "answered" and result.rows[0][0] == note
    assert [call["name"] for call in result.tool_calls()] == ["search_notes"]


def test_a_note_close_to_another_is_asked_after_a_query(learner):
    """The virtual-memory note leads the paging note by under the bar's share of its score:
    no evidence to skip the query, and the note still answers when the query cannot."""
    result = learner.answer("What happens when a program touches a page that is not in RAM?")
    assert result.status == "answered" and result.rows[0][0] == "N20"
    assert [call["name"] for call in result.tool_calls()][-1] == "search_notes"


class RecordingOfflineLLM(OfflineLLM):
    """A mock around the offline provider: it keeps the router's prompts (the calls with tools)."""

    def __init__(self) -> None:
        super().__init__()
        self.router_prompts: list[str] = []

    def chat(self, system, messages, tools=(), **kwargs):   # type: ignore[no-untyped-def]
        if tools:
            self.router_prompts += [m.content for m in messages if m.role == "user"]
        return super().chat(system, messages, tools, **kwargs)


def test_the_router_is_told_the_evidence_in_its_prompt(college_db):
    from course.agents.agentic import AgenticAgent
    from course.retrieval.search import note_search

    model = RecordingOfflineLLM()
    AgenticAgent(college_db, model, search=note_search()).answer(SWAPPING)
    assert any(p.startswith("NOTE SEARCH (data): the best note is N20") for p in model.router_prompts)
    plain = RecordingOfflineLLM()     # notebook 12's full-text search weighs no evidence: no line
    AgenticAgent(college_db, plain).answer(SWAPPING)
    assert plain.router_prompts and not any("NOTE SEARCH" in p for p in plain.router_prompts)


def test_the_evidence_search_is_reused_once_by_the_tool_that_follows(college_db, monkeypatch):
    """The router's evidence and search_notes' rows come from one search, not two."""
    import course.retrieval.search as searching

    calls = []
    real = searching.search

    def counting(*args, **kwargs):   # a spy around the real search
        calls.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(searching, "search", counting)
    notes, question = searching.note_search(), "What happens when a program touches a page not in RAM?"
    notes.evidence(college_db, question)
    first = notes(college_db, question)
    assert len(calls) == 1 and first.rows[0][0] == "N20"
    assert notes(college_db, question).rows == first.rows and len(calls) == 2   # used once only
