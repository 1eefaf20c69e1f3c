"""`on_step`: every agent tells an observer each stage of a question as it happens.

The web app streams a question's stages (the linked names, the Cypher or the tool called, the
guard's verdict, the rows, a retry, the answer) while the agent works, so the agents report
them as they go, not only in the Result at the end. The observer watches; it changes nothing.
"""
from __future__ import annotations

from typing import Any

from course.agents.agentic import AgenticAgent
from course.agents.tools import ToolAgent
from course.foundation.db import Rows
from course.llm.offline import OfflineLLM
from course.llm.scripted import ScriptedLLM
from course.pipeline.agent import Agent
from course.pipeline.results import Attempt, CallRecord, Step


class Watcher:
    """An observer that keeps what it was told, and what the result held at that moment."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, Any]] = []

    def __call__(self, what: str, record: Any) -> None:
        self.seen.append((what, record))

    def kinds(self) -> list[str]:
        return [what for what, _ in self.seen]


def test_the_pipeline_reports_each_stage_in_order(college_db):
    agent, watch = Agent(college_db, OfflineLLM()), Watcher()
    agent.on_step = watch
    result = agent.answer("Who is Payal?")
    assert watch.kinds() == ["linked", "step", "call", "rows", "step", "attempt"]
    linked, query, call, rows, answer, attempt = (record for _, record in watch.seen)
    assert [m.value for m in linked] == ["Payal"]
    assert isinstance(query, Step) and query.kind == "cypher" and query.text
    assert isinstance(call, CallRecord) and call.ok and call.arguments["query"] == result.cypher
    assert isinstance(rows, Rows) and rows.rows == result.rows
    assert isinstance(attempt, Attempt) and attempt.verdict == "allowed"
    assert answer.kind == "answer" and answer.text == result.answer
    assert result.status == "answered"


def test_a_retry_is_reported_with_its_error_before_the_next_attempt(college_db):
    llm = ScriptedLLM(["MATCH (s:Student {name: 'Nobody'}) RETURN s.name",
                       "MATCH (s:Student {name: 'Payal'}) RETURN s.name", "Payal."])
    agent, watch = Agent(college_db, llm, max_attempts=2), Watcher()
    agent.on_step = watch
    agent.answer("Who is Payal?")
    attempts = [record for what, record in watch.seen if what == "attempt"]
    assert [a.kind for a in attempts] == ["empty_result", None]
    first = watch.kinds().index("attempt")
    assert watch.kinds()[first + 1] == "step"        # the retry's model call comes after it


def test_a_refused_query_is_reported_with_the_guards_reason(college_db):
    llm = ScriptedLLM(["MATCH (n) DETACH DELETE n", "MATCH (n) DETACH DELETE n"])
    agent, watch = Agent(college_db, llm, max_attempts=2), Watcher()
    agent.on_step = watch
    agent.answer("clean up the old data")
    calls = [record for what, record in watch.seen if what == "call"]
    assert calls and not calls[0].ok and calls[0].error.startswith("Unsafe query")


def test_the_tool_loop_reports_each_step_and_call(college_db):
    agent, watch = ToolAgent(college_db, OfflineLLM()), Watcher()
    agent.on_step = watch
    result = agent.answer("Who is Payal?")
    steps = [record for what, record in watch.seen if what == "step"]
    calls = [record for what, record in watch.seen if what == "call"]
    assert steps == result.steps
    assert calls == [c for s in result.steps for c in s.calls] and calls[0].name
    assert watch.kinds()[0] == "linked"
    assert watch.kinds().index("call") < len(watch.kinds()) - 1   # before the last step


def test_the_agentic_agent_reports_each_role_as_it_runs(college_db):
    agent, watch = AgenticAgent(college_db, OfflineLLM()), Watcher()
    agent.on_step = watch
    result = agent.answer("Who is Rahul and what does he study?")
    steps = [record for what, record in watch.seen if what == "step"]
    assert steps == result.steps and steps[0].kind == "updater"
    assert "router" in [s.kind for s in steps]

