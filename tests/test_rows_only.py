"""Rows only (`Agent(..., answer=False)`, `python -m course ask --rows`): the rows without the
answer call, as LangChain's `return_direct` gives them.

Model calls are counted twice: by the agent (`llm_calls`) and by the model itself (a counting
mock around the offline provider, or what a ScriptedLLM was asked). One call per question
instead of two, and `answer` is None; the status still says answered, out_of_scope, blocked
or failed.
"""
from __future__ import annotations

import json

import pytest

from course.agents.agentic import AgenticAgent
from course.agents.tools import ToolAgent
from course.llm.base import Completion, ToolCall
from course.llm.errors import RateLimited
from course.llm.offline import OfflineLLM
from course.llm.scripted import ScriptedLLM
from course.pipeline.agent import Agent
from course.pipeline.answer_cache import AnswerCache
from course.pipeline.graph_memory import GraphMemory
from course.pipeline.memory import ShortTermMemory
from test_cli_ask import FIELDS, ask, records
from test_memory import forget  # noqa: F401 - its memory graphs and cached answers are deleted

PAYAL = "MATCH (s:Student {name: 'Payal'}) RETURN s.name AS name, s.year AS year"


class CountingMock(OfflineLLM):
    """A mock: the offline provider, counting the calls it receives."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        self.calls += 1
        return super().complete(prompt, system=system)


# --- the pipeline ---------------------------------------------------------------------------

def test_rows_only_makes_one_model_call_instead_of_two(college_db):
    counted, rows_only = CountingMock(), CountingMock()
    full = Agent(college_db, counted).answer("Who is Payal?")
    bare = Agent(college_db, rows_only, answer=False).answer("Who is Payal?")
    assert (counted.calls, full.llm_calls) == (2, 2)
    assert (rows_only.calls, bare.llm_calls) == (1, 1)
    assert bare.status == "answered" and bare.answer is None
    assert bare.rows == full.rows and bare.cypher == full.cypher and "Payal" in bare.values()


def test_a_scripted_model_is_asked_for_the_query_alone(college_db):
    llm = ScriptedLLM([f"```cypher\n{PAYAL}\n```"])   # no answer scripted: none is asked for
    result = Agent(college_db, llm, answer=False).answer("Who is Payal?")
    assert result.rows == [["Payal", 2]] and result.answer is None
    assert llm.remaining == 0 and len(llm.prompts) == 1


def test_the_retry_still_runs(college_db):
    llm = ScriptedLLM(["MATCH (s:Student RETURN s", PAYAL])   # the server refuses the first
    result = Agent(college_db, llm, answer=False).answer("Who is Payal?")
    assert result.status == "answered" and result.llm_calls == 2 == len(result.attempts)
    assert result.rows == [["Payal", 2]] and result.answer is None


@pytest.mark.parametrize("reply, status", [
    ("RETURN 'OUT_OF_SCOPE' AS status", "out_of_scope"),
    ("RETURN 'READ_ONLY' AS status", "blocked"),
    ("MATCH (n) DETACH DELETE n", "blocked"),
])
def test_the_status_is_kept_and_the_answer_is_none(college_db, reply, status):
    result = Agent(college_db, ScriptedLLM([reply] * 2), answer=False).answer("Who is the principal?")
    assert result.status == status and result.answer is None


def test_an_outage_is_failed_with_its_sentence_in_error(college_db):
    llm = ScriptedLLM([RateLimited(retry_after=30)] * 2)
    result = Agent(college_db, llm, answer=False).answer("Who is Payal?")
    assert result.status == "failed" and result.answer is None and "rate limit" in result.error


def test_the_json_record_keeps_every_field_with_answer_null(college_db):
    record = Agent(college_db, OfflineLLM(), answer=False).answer("Who is Payal?").to_dict()
    assert set(FIELDS) <= set(record) and record["answer"] is None
    assert json.loads(json.dumps(record))["rows"] == [["Payal", 2, "CSE"]]


def test_the_summary_shows_the_rows_as_a_table(college_db):
    text = Agent(college_db, OfflineLLM(), answer=False).answer("Who is Payal?").summary()
    lines = text.splitlines()
    header = next(line for line in lines if line.split() == ["name", "year", "branch"])
    assert lines[lines.index(header) + 2].split() == ["Payal", "2", "CSE"]
    assert "A:" not in text and "None" not in text and "rows only" in lines[-1]


def test_memory_carries_over_and_never_says_none(college_db):
    memory = ShortTermMemory()
    agent = Agent(college_db, OfflineLLM(), memory=memory, answer=False)
    agent.answer("Who is Payal?")
    follow_up = agent.answer("uska year kya hai?")
    assert follow_up.status == "answered" and 2 in follow_up.values()
    assert "None" not in memory.context()


def test_a_rows_only_turn_is_never_served_as_an_answer(college_db, forget):
    """Stored without an answer, a rows-only turn is neither a repeat nor a cached answer."""
    forget("rows")
    memory = GraphMemory(college_db, session="s", user="rows", cache=AnswerCache(college_db))
    Agent(college_db, OfflineLLM(), memory=memory, answer=False).answer("Who is Payal?")
    assert AnswerCache(college_db).size() == 0
    again = Agent(college_db, OfflineLLM(), memory=memory).answer("Who is Payal?")
    assert not again.from_memory and again.llm_calls == 2 and "None" not in again.answer
    assert "None" not in GraphMemory(college_db, session="s", user="rows").context()


def test_a_remembered_answer_comes_back_as_rows(college_db, forget):
    forget("rows2")
    memory = GraphMemory(college_db, session="s", user="rows2")
    Agent(college_db, OfflineLLM(), memory=memory).answer("Who is Payal?")
    again = Agent(college_db, OfflineLLM(), memory=memory, answer=False).answer("Who is Payal?")
    assert again.from_memory and again.llm_calls == 0
    assert again.answer is None and again.rows == [["Payal", 2, "CSE"]]


# --- the tool loop: execute_cypher returns directly ----------------------------------------------

def test_the_tool_loop_stops_at_the_first_rows(college_db):
    full = ToolAgent(college_db, OfflineLLM()).answer("Who is Payal?")
    bare = ToolAgent(college_db, OfflineLLM(), answer=False).answer("Who is Payal?")
    assert (full.llm_calls, bare.llm_calls) == (2, 1)
    assert bare.stopped == "rows" and bare.answer is None and bare.rows == full.rows


def test_the_tool_loop_fixes_an_error_before_it_stops(college_db):
    llm = ScriptedLLM([ToolCall("execute_cypher", {"query": "MATCH (s:Student RETURN s"}),
                       ToolCall("execute_cypher", {"query": PAYAL})])
    result = ToolAgent(college_db, llm, answer=False).answer("Who is Payal?")
    assert result.rows == [["Payal", 2]] and result.llm_calls == 2 and llm.remaining == 0
    assert result.status == "answered" and result.stopped == "rows"


def test_the_tool_loop_at_its_cap_makes_no_final_call(college_db):
    empty = "MATCH (s:Student {name: 'Zoya'}) RETURN s.name AS name"
    llm = ScriptedLLM([ToolCall("execute_cypher", {"query": empty})])
    result = ToolAgent(college_db, llm, answer=False, max_steps=1).answer("Who is Zoya?")
    assert result.stopped == "max_steps" and result.llm_calls == 1 and llm.remaining == 0
    assert result.status == "answered" and result.rows == [] and result.answer is None


def test_the_tool_loops_refusal_in_words_keeps_its_status(college_db):
    result = ToolAgent(college_db, ScriptedLLM(["OUT_OF_SCOPE"]), answer=False).answer("Who is the dean?")
    assert result.status == "out_of_scope" and result.answer is None and result.llm_calls == 1


# --- the agentic agent: each part's rows, no answer written ---------------------------------------

def test_the_agentic_agent_gives_each_parts_rows_without_writing_answers(college_db):
    question = "Who is best at DBMS, and which clubs is she in?"
    counted, rows_only = CountingMock(), CountingMock()
    full = AgenticAgent(college_db, counted).answer(question)
    bare = AgenticAgent(college_db, rows_only, answer=False).answer(question)
    assert rows_only.calls < counted.calls and bare.llm_calls < full.llm_calls
    assert bare.answer is None and bare.status == "answered"
    assert [s.rows for s in bare.sub_questions] == [s.rows for s in full.sub_questions]
    parts = bare.to_dict()["sub_questions"]
    assert [p["answer"] for p in parts] == [None, None]
    text = bare.summary()
    assert "Payal" in text and "Debate Society" in text and "None" not in text


def test_the_agentic_agent_with_a_model_makes_no_answer_calls(college_db):
    llm = ScriptedLLM([
        json.dumps({"questions": ["Who is best at DBMS?"]}),
        ToolCall("best_in_subject", {"subject": "dbms"}),
        json.dumps({"complete": True, "missing": []}),
    ])   # the normal run would also ask for "Payal (A+), then Aarav (A)."
    result = AgenticAgent(college_db, llm, answer=False).answer("Who is best at DBMS?")
    assert llm.remaining == 0 and result.answer is None
    assert result.rows[:2] == [["Payal", "A+"], ["Aarav", "A"]]


# --- the command line -------------------------------------------------------------------------------

@pytest.mark.slow
def test_ask_rows_json(college_db):
    done = ask(college_db, "--rows", "--json", "Who is Payal?", "Who is the principal?")
    first, second = records(done)
    assert done.returncode == 0
    assert set(FIELDS) <= set(first) and first["answer"] is None and first["llm_calls"] == 1
    assert first["rows"] == [["Payal", 2, "CSE"]] and first["status"] == "answered"
    assert second["status"] == "out_of_scope" and second["answer"] is None


@pytest.mark.slow
def test_ask_rows_prints_a_table(college_db):
    done = ask(college_db, "--rows", "Who is Payal?")
    lines = done.stdout.splitlines()
    assert done.returncode == 0
    header = next(line for line in lines if line.split() == ["name", "year", "branch"])
    assert lines[lines.index(header) + 2].split() == ["Payal", "2", "CSE"]
    assert "Payal." not in done.stdout     # no answer written


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["tools", "agentic"])
def test_ask_rows_with_the_other_agents(college_db, agent):
    record, = records(ask(college_db, "--rows", "--json", "--agent", agent, "Who is Payal?"))
    assert record["answer"] is None and record["status"] == "answered"
    assert ["Payal", 2, "CSE"] in record["rows"] or record["rows"][0][0] == "Payal"
    if agent == "tools":
        assert record["stopped"] == "rows" and record["llm_calls"] == 1
    else:
        assert [p["answer"] for p in record["sub_questions"]] == [None]


def test_a_notebook_shows_the_rows_and_no_answer(college_db):
    shown = Agent(college_db, OfflineLLM(), answer=False).answer("Who is Payal?")._repr_html_()
    assert "<td style=\"text-align:left\">Payal</td>" in shown
    assert "<b>A:</b>" not in shown and "None" not in shown and "rows only" in shown
    parts = AgenticAgent(college_db, OfflineLLM(), answer=False).answer(
        "Who is best at DBMS, and which clubs is she in?")._repr_html_()
    assert "Debate Society" in parts and "Payal" in parts and "<b>A:</b>" not in parts


def test_the_text_table_is_bounded_and_safe():
    from course.pipeline.results import text_table

    rows = [[f"S{n:02}", "x" * 100 + "\x1b[31m"] for n in range(25)]
    lines = text_table(["id", "text"], rows, limit=20).splitlines()
    assert len(lines) == 2 + 20 + 1 and lines[-1] == "… 5 more rows"
    assert max(len(line) for line in lines) <= 3 + 2 + 40 and "\x1b" not in "".join(lines)
    assert text_table(["name"], []).splitlines()[-1] == "(no rows)"
