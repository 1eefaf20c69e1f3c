"""Scoring multi-part questions: a question counts only when every part is right.

Introduced in notebook 12. A set is a JSONL file (data/eval/multipart.jsonl,
data/eval/notes.jsonl), one question a line:

    {"id": "m01", "kind": "multi_part", "question": "Who is best at DBMS and which clubs is she in?",
     "parts": [{"question": "Who is best at DBMS?", "reference": "MATCH ...", "ordered": true},
               {"question": "Which clubs is Payal in?", "reference": "MATCH ..."}]}

A part is right when one of the row sets the agent found equals the rows of the part's
hand-written reference query, compared as `course.pipeline.comparison.same_rows` compares
them (extra columns allowed, extra rows not; `first_row`: only the best row counts, as for the note a
search ranks first). A reference column that only repeats a value its own pattern pins (`sub.name`
of `(sub:Subject {name: 'DBMS'})`, beside the grade asked) may be left out of the answer: "A+" is
a whole answer to "What grade did Payal get in DBMS?". The agentic agent has a row set per sub-question; the pipeline and the
tool loop have one. Each question ends as one of:

- full: every part right; half: some parts right (counted as wrong, not as half right);
- wrong: answered, no part right; refused: out of scope or blocked; failed: an error.

For a note question, `named` says whether the answer names the note it took its text from.

>>> from course import make_llm
>>> from course.agents.agentic import AgenticAgent
>>> questions = load_parts(MULTIPART_SET)
>>> report = evaluate_parts(db, lambda db, schema: AgenticAgent(db, make_llm("offline"), schema=schema),
...                         questions[:1], agent="agentic")
>>> report.counts()["full"]
1
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from course.agents.agentic import AgenticAgent
from course.agents.agentic_roles import ChatRoles
from course.agents.tools import ToolAgent
from course.foundation.config import PROJECT_ROOT
from course.foundation.db import Database
from course.foundation.errors import CourseError, DataFileError
from course.llm.base import LLM, ChatTurn, Completion, Message, ToolSpec
from course.llm.openai_compat import chat_history, function_tool
from course.pipeline.agent import Agent
from course.pipeline.comparison import same_rows
from course.pipeline.evaluation import REFERENCE_MAX_ROWS, REFUSED, json_lines
from course.pipeline.prompt_size import size
from course.pipeline.schema import GraphSchema, introspect
from course.pipeline.results import Status

MULTIPART_SET = PROJECT_ROOT / "data" / "eval" / "multipart.jsonl"
NOTES_SET = PROJECT_ROOT / "data" / "eval" / "notes.jsonl"
VERDICTS = ("full", "half", "wrong", "refused", "failed")


@dataclass(frozen=True)
class Part:
    question: str
    reference: str
    ordered: bool = False
    first_row: bool = False


@dataclass(frozen=True)
class PartQuestion:
    id: str
    question: str
    kind: str
    parts: tuple[Part, ...]


def load_parts(path: str | Path) -> list[PartQuestion]:
    """Read a multi-part set; a broken line is named with its number."""
    path = Path(path)
    found = []
    for number, data in json_lines(path, what="multi-part set", example=MULTIPART_SET.name):
        parts = data.get("parts")
        if not all(isinstance(data.get(k), str) for k in ("id", "question", "kind")) or \
                not isinstance(parts, list) or not parts or \
                not all(isinstance(p, dict) and isinstance(p.get("reference"), str) for p in parts):
            raise DataFileError(f"{path.name} line {number}: needs id, question, kind and parts "
                                "(a list of {question, reference} with a Cypher reference each).")
        found.append(PartQuestion(data["id"], data["question"], data["kind"], tuple(
            Part(str(p.get("question", "")), p["reference"], bool(p.get("ordered")),
                 bool(p.get("first_row"))) for p in parts)))
    return found


def row_sets(result: Any) -> list[list[list[Any]]]:
    """Every set of rows an agent's result holds: one per sub-question, and its own."""
    sets = [s.rows for s in getattr(result, "sub_questions", []) if s.rows]
    return sets + [result.rows]


def part_right(db: Database, part: Part, sets: list[list[list[Any]]]) -> bool:
    """Does one of the row sets equal the part's reference rows (or them without the columns
    that repeat a value the reference pins)?"""
    try:
        full = db.run(part.reference, max_rows=REFERENCE_MAX_ROWS).rows
    except CourseError as exc:
        raise DataFileError(f"A reference query does not run: {exc}") from exc
    for expected in (full, asked_columns(part.reference, full)):
        if part.first_row and any(rows and same_rows(rows[:1], expected[:1]) for rows in sets):
            return True
        if not part.first_row and any(same_rows(rows, expected, ordered=part.ordered) for rows in sets):
            return True
    return False


def asked_columns(reference: str, rows: list[list[Any]]) -> list[list[Any]]:
    """The rows without the columns whose every value is a string the reference's own patterns
    pin (`{name: 'DBMS'}`): the question gave them. A value chosen among given names (`IN [...]`)
    is asked; when every column is pinned, all stay.

    >>> asked_columns("MATCH (s:Subject {name: 'DBMS'}) RETURN s.name, s.credits", [["DBMS", 4]])
    [[4]]
    >>> asked_columns("MATCH (s:Student) WHERE s.name IN ['Rahul'] RETURN s.name, s.year", [["Rahul", 2]])
    [['Rahul', 2]]
    """
    pinned = {value for pattern in re.findall(r"\{[^{}]*\}", reference)
              for value in re.findall(r":\s*'([^']*)'", pattern)}
    keep = [i for i in range(len(rows[0]) if rows else 0)
            if not all(isinstance(row[i], str) and row[i] in pinned for row in rows)]
    return [[row[i] for i in keep] for row in rows] if keep else rows


@dataclass
class PartOutcome:
    id: str
    kind: str
    question: str
    status: Status
    verdict: str          # full | half | wrong | refused | failed
    right: int
    parts: int
    llm_calls: int
    tokens: int
    named: bool | None    # a note question: does the answer name the note?
    answer: str


@dataclass
class PartReport:
    agent: str
    outcomes: list[PartOutcome] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many questions ended full, half, wrong, refused and failed."""
        return {v: sum(o.verdict == v for o in self.outcomes) for v in VERDICTS}

    def row(self) -> dict[str, Any]:
        """This agent's line of the comparison table."""
        n = len(self.outcomes) or 1
        named = [o for o in self.outcomes if o.named is not None]
        line: dict[str, Any] = {"agent": self.agent, "questions": len(self.outcomes),
                                **self.counts(),
                                "llm_calls_per_question": round(sum(o.llm_calls for o in self.outcomes) / n, 2),
                                "tokens_per_question": round(sum(o.tokens for o in self.outcomes) / n, 1)}
        if named:
            line["full_and_note_named"] = sum(o.verdict == "full" and bool(o.named) for o in named)
        return line


def evaluate_parts(db: Database, make_agent: Callable[[Database, GraphSchema], Any],
                   questions: list[PartQuestion], *, agent: str) -> PartReport:
    """Ask each question of a fresh agent (`make_agent(db, schema)`) and judge every part."""
    schema = introspect(db)
    report = PartReport(agent)
    for question in questions:
        result = make_agent(db, schema).answer(question.question)
        report.outcomes.append(judge(db, question, result))
    return report


def judge(db: Database, question: PartQuestion, result: Any) -> PartOutcome:
    """One question's verdict from its result."""
    sets = row_sets(result)
    right = sum(part_right(db, p, sets) for p in question.parts) if result.status == "answered" else 0
    if result.status in REFUSED:
        verdict = "refused"
    elif result.status != "answered":
        verdict = "failed"
    else:
        verdict = "full" if right == len(question.parts) else "half" if right else "wrong"
    notes = [p.reference.split("'")[1] for p in question.parts if p.first_row and "Note" in p.reference]
    named = all(n in result.answer for n in notes) if notes else None
    return PartOutcome(question.id, question.kind, question.question, result.status, verdict,
                       right, len(question.parts), result.llm_calls,
                       result.input_tokens + result.output_tokens, named, result.answer)


# --- the comparison, with tokens estimated where the offline provider reports none -----------


def estimate(text: str) -> int:
    """Tokens, estimated as words and punctuation marks (`course.pipeline.prompt_size`)."""
    return size(text)["words+punct"]


class Meter(LLM):
    """Any LLM, with its calls and the tokens it was sent and sent back estimated."""

    def __init__(self, inner: LLM) -> None:
        self.inner, self.name, self.model = inner, inner.name, inner.model
        self.calls, self.sent, self.received = 0, 0, 0

    def count(self, system: str | None, messages: Sequence[Message], reply: str,
              tools: Sequence[ToolSpec] = ()) -> None:
        """One call as a chat-completions service would get it: messages and tools, as JSON."""
        wire = {"messages": chat_history(system, messages), "tools": [function_tool(t) for t in tools]}
        self.calls += 1
        self.sent += estimate(json.dumps(wire, ensure_ascii=False))
        self.received += estimate(reply)

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        completion = self.inner.complete(prompt, system=system)
        self.count(system, [Message("user", prompt)], completion.text)
        return completion

    def chat(self, system: str | None, messages: Sequence[Message],
             tools: Sequence[ToolSpec] = ()) -> ChatTurn:
        turn = self.inner.chat(system, messages, tools)
        self.count(system, messages, turn.text + "".join(c.arguments_json for c in turn.tool_calls),
                   tools)
        return turn


def MeteredRules(meter: Meter) -> ChatRoles:   # noqa: N802 (notebook 12's name)
    """The roles played through `meter` (the offline provider, counted as a model's calls)."""
    return ChatRoles(meter)


AGENTS = ("pipeline", "tool loop", "agentic", "agentic, critic off")


def compare(db: Database, questions: list[PartQuestion], llm: LLM,
            agents: Sequence[str] = AGENTS) -> list[dict[str, Any]]:
    """One row per agent: full / half / wrong / refused / failed, LLM calls and tokens per question.

    Tokens are the service's own counts when it reports them, else an estimate of what a
    chat-completions service would be sent and send back (words and punctuation marks),
    counted the same way for every agent; offline the router, updater and critic count the
    prompts they would send a model.
    """
    rows = []
    for name in agents:
        meter = Meter(llm)

        def make(db: Database, schema: GraphSchema, name: str = name, meter: Meter = meter) -> Any:
            if name == "pipeline":
                return Agent(db, meter, schema=schema)
            if name == "tool loop":
                return ToolAgent(db, meter, schema=schema)
            return AgenticAgent(db, meter, schema=schema, critic=name != "agentic, critic off")

        report = evaluate_parts(db, make, questions, agent=name)
        row = report.row()
        if not row["tokens_per_question"]:
            row["tokens_per_question"] = round((meter.sent + meter.received) / max(len(questions), 1), 1)
            row["tokens"] = "estimated"
        rows.append(row)
    return rows
