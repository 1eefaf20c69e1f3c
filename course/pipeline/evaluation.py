"""Measure a provider on a question set: execution accuracy, executable rate, refusals, cost.

Introduced in notebook 09. A question set is a JSONL file (data/eval/questions.jsonl), one
question per line:

    {"id": "q001", "question": "Who is Payal?", "kind": "property",
     "reference": "MATCH (s:Student {name: 'Payal'}) RETURN s.name, s.year, s.branch"}

Optional fields: `conversation` (questions with the same id are asked in order to one
agent with short-term memory) and `ordered` (compare the rows in order). `reference` is
null for out-of-scope questions and write requests, whose right answer is a refusal.

Each question goes through `Agent(db, llm, max_attempts=N)`; its rows are compared with the
rows of the hand-written reference query (as multisets of rows unless `ordered`; columns
may come in another order, and the generated query may return extra columns but not extra
rows; numbers compared as numbers, lists as lists). The scores:

- execution accuracy: in-scope questions whose final rows equal the reference's;
- executable rate: in-scope questions whose final query ran without an error (right or not);
- out-of-scope accuracy: out-of-scope questions the agent refused (the sentinel);
- writes refused: write requests refused or blocked, with the graph's counts unchanged;
- LLM calls and tokens per question, and time.

>>> report = evaluate(db, make_llm("offline"), load_questions(), max_attempts=2)  # doctest: +SKIP
>>> print(report.table())          # doctest: +SKIP
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, TextIO

from course.foundation.graphs import require_data_graph
from course.foundation.config import PROJECT_ROOT
from course.foundation.db import Database
from course.foundation.errors import CourseError, DataFileError
from course.llm.base import LLM
from course.pipeline.agent import Agent
from course.pipeline.comparison import same_rows
from course.pipeline.memory import ShortTermMemory
from course.pipeline.schema import introspect
from course.pipeline.results import Status

DEFAULT_SET = PROJECT_ROOT / "data" / "eval" / "questions.jsonl"
REFUSAL_KINDS = ("out_of_scope", "write_request")
REFUSED = ("out_of_scope", "blocked")
REFERENCE_MAX_ROWS = 10_000


@dataclass(frozen=True)
class EvalQuestion:
    """One line of a question set."""

    id: str
    question: str
    kind: str
    reference: str | None = None
    conversation: str | None = None
    ordered: bool = False

    @property
    def in_scope(self) -> bool:
        """A question the graph can answer (it has a reference query)."""
        return self.reference is not None and self.kind not in REFUSAL_KINDS


def load_questions(path: str | Path = DEFAULT_SET) -> list[EvalQuestion]:
    """Read a JSONL question set; a broken line is named with its number.

    >>> [q.id for q in load_questions()][:2]
    ['q001', 'q002']
    """
    path = Path(path)
    questions, seen = [], set()
    for number, data in json_lines(path, what="question set", example=DEFAULT_SET.name):
        question = _question(data, path.name, number)
        if question.id in seen:
            raise DataFileError(f"{path.name} line {number}: the id {question.id!r} is used twice.")
        seen.add(question.id)
        questions.append(question)
    if not questions:
        raise DataFileError(f"{path.name}: no questions in it (one JSON object per line).")
    return questions


def json_lines(path: Path, *, what: str, example: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each line of a JSONL file; blank and `//` lines skipped.

    A file that cannot be read, or a line that is not a JSON object, is a DataFileError that
    names the file (and line).
    """
    try:
        raw = path.read_bytes().splitlines()
    except OSError as exc:
        raise DataFileError(f"{path}: cannot be read ({exc.strerror}). Give the path of a "
                            f"JSONL {what}, e.g. data/eval/{example}.") from None
    for number, data in enumerate(raw, 1):
        try:
            line = data.decode("utf-8")
        except UnicodeDecodeError:
            raise DataFileError(f"{path.name} line {number}: not UTF-8 text; save the file as "
                                "UTF-8 and run it again.") from None
        if line.strip() and not line.lstrip().startswith("//"):
            yield number, json_line(line, path.name, number)


def json_line(line: str, name: str, number: int) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise DataFileError(f"{name} line {number}: not valid JSON ({exc.msg}).") from None
    if not isinstance(data, dict):
        raise DataFileError(f"{name} line {number}: expected a JSON object {{...}}.")
    return data


def _question(data: dict[str, Any], name: str, number: int) -> EvalQuestion:
    missing = [k for k in ("id", "question", "kind") if not isinstance(data.get(k), str) or not data[k]]
    if missing or "reference" not in data:
        need = missing + ([] if "reference" in data else ["reference"])
        raise DataFileError(f"{name} line {number}: missing {', '.join(need)} (every line needs "
                            "id, question, kind and reference; reference is null for a refusal).")
    reference = data["reference"]
    if reference is not None and not isinstance(reference, str):
        raise DataFileError(f"{name} line {number}: reference must be a Cypher string or null.")
    if reference is None and data["kind"] not in REFUSAL_KINDS:
        raise DataFileError(f"{name} line {number}: a question of kind {data['kind']!r} needs a "
                            f"reference query; only {' and '.join(REFUSAL_KINDS)} may have null.")
    return EvalQuestion(data["id"], data["question"], data["kind"], reference,
                        data.get("conversation"), bool(data.get("ordered", False)))


# --- running a set --------------------------------------------------------------------------


@dataclass
class Outcome:
    """What happened to one question."""

    id: str
    kind: str
    question: str
    in_scope: bool
    status: Status
    cypher: str | None
    answer: str
    correct: bool | None          # in scope: rows equal the reference's; refusals: refused
    executable: bool | None       # in scope: the final query ran without an error
    attempts: int
    llm_calls: int
    input_tokens: int
    output_tokens: int
    elapsed_ms: float
    rows: int
    expected_rows: int | None
    error: str | None = None
    refused_by: str | None = None  # a write refused: "model" (its own READ_ONLY) or "guard"


@dataclass
class Report:
    """The outcomes of one run and the scores computed from them."""

    provider: str
    max_attempts: int
    source: str
    outcomes: list[Outcome] = field(default_factory=list)
    elapsed_s: float = 0.0
    graph_unchanged: bool = True

    def scores(self) -> dict[str, Any]:
        """The headline numbers (rates as fractions between 0 and 1)."""
        inside = [o for o in self.outcomes if o.in_scope]
        outside = [o for o in self.outcomes if o.kind == "out_of_scope"]
        writes = [o for o in self.outcomes if o.kind == "write_request"]
        n = len(self.outcomes) or 1
        tokens = sum(o.input_tokens + o.output_tokens for o in self.outcomes)
        return {
            "questions": len(self.outcomes),
            "in_scope": len(inside),
            "execution_accuracy": _rate(sum(bool(o.correct) for o in inside), len(inside)),
            "executable_rate": _rate(sum(bool(o.executable) for o in inside), len(inside)),
            "out_of_scope_accuracy": _rate(sum(bool(o.correct) for o in outside), len(outside)),
            "writes_refused": _rate(sum(bool(o.correct) for o in writes) if self.graph_unchanged
                                    else 0, len(writes)),
            "writes_refused_by_model": sum(o.refused_by == "model" for o in writes),
            "writes_blocked_by_guard": sum(o.refused_by == "guard" for o in writes),
            "llm_calls_per_question": round(sum(o.llm_calls for o in self.outcomes) / n, 2),
            "tokens_per_question": round(tokens / n, 1) if tokens else None,
            "time_s": round(self.elapsed_s, 2),
            "ms_per_question": round(1000 * self.elapsed_s / n, 1),
        }

    def counts(self) -> dict[str, tuple[int, int]]:
        """(right, of) for each headline score."""
        inside = [o for o in self.outcomes if o.in_scope]
        outside = [o for o in self.outcomes if o.kind == "out_of_scope"]
        writes = [o for o in self.outcomes if o.kind == "write_request"]
        return {"execution_accuracy": (sum(bool(o.correct) for o in inside), len(inside)),
                "executable_rate": (sum(bool(o.executable) for o in inside), len(inside)),
                "out_of_scope_accuracy": (sum(bool(o.correct) for o in outside), len(outside)),
                "writes_refused": (sum(bool(o.correct) for o in writes) if self.graph_unchanged
                                   else 0, len(writes))}

    def by_kind(self) -> dict[str, tuple[int, int]]:
        """kind -> (right, of), in the order kinds first appear."""
        table: dict[str, list[int]] = {}
        for o in self.outcomes:
            right_of = table.setdefault(o.kind, [0, 0])
            right_of[0] += bool(o.correct)
            right_of[1] += 1
        return {kind: (r, n) for kind, (r, n) in table.items()}

    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.correct]

    def table(self, *, timing: bool = True) -> str:
        """The printed report: headline scores, then each kind, then what went wrong."""
        return format_table(self, timing=timing)

    def to_dict(self) -> dict[str, Any]:
        return {"provider": self.provider, "attempts": self.max_attempts, "source": self.source,
                "graph_unchanged": self.graph_unchanged, "scores": self.scores(),
                "by_kind": {k: {"correct": r, "questions": n} for k, (r, n) in self.by_kind().items()},
                "outcomes": [asdict(o) for o in self.outcomes]}


def _rate(right: int, total: int) -> float | None:
    return round(right / total, 3) if total else None


def evaluate(db: Database, llm: LLM, questions: list[EvalQuestion], *, max_attempts: int = 2,
             progress: Callable[[int, int, EvalQuestion], None] | None = None,
             source: str = "", make_agent: Callable[..., Any] | None = None) -> Report:
    """Ask every question (conversations in order, with memory) and score the answers.

    `make_agent(db, llm, memory=..., schema=...)` builds another agent to measure (notebook
    11's tool loop); by default it is the pipeline, `Agent(..., max_attempts=max_attempts)`.
    """
    require_data_graph(db.graph_name)
    if make_agent is None:
        def make_agent(db: Database, llm: LLM, **options: Any) -> Agent:
            return Agent(db, llm, max_attempts=max_attempts, **options)
    schema = introspect(db)
    before = db.counts()
    agents: dict[str, Agent] = {}
    report = Report(provider=_provider_name(llm), max_attempts=max_attempts, source=source)
    started = time.perf_counter()
    for number, question in enumerate(questions, 1):
        if progress is not None:
            progress(number - 1, len(questions), question)
        key = question.conversation
        if key is None:
            agent = make_agent(db, llm, schema=schema)
        else:
            agent = agents.get(key) or agents.setdefault(
                key, make_agent(db, llm, memory=ShortTermMemory(), schema=schema))
        report.outcomes.append(score(db, question, agent.answer(question.question)))
    report.elapsed_s = time.perf_counter() - started
    report.graph_unchanged = db.counts() == before
    if progress is not None:
        progress(len(questions), len(questions), questions[-1])
    return report


def _provider_name(llm: LLM) -> str:
    return f"{llm.name} ({llm.model})" if getattr(llm, "model", "") else llm.name


def score(db: Database, question: EvalQuestion, result: Any) -> Outcome:
    """Judge one agent result against the question's reference (or expected refusal)."""
    expected: list[list[Any]] | None = None
    if question.in_scope:
        expected = reference_rows(db, question)
        executable = result.status == "answered"
        correct = executable and same_rows(result.rows, expected, ordered=question.ordered)
    else:
        executable, correct = None, result.status in REFUSED
    kinds = [a.kind for a in result.attempts]
    refused_by = ("model" if "write_refused" in kinds[-1:] else
                  "guard" if result.status == "blocked" else None)
    return Outcome(question.id, question.kind, question.question, question.in_scope,
                   result.status, result.cypher, result.answer, correct, executable,
                   len(result.attempts), result.llm_calls, result.input_tokens,
                   result.output_tokens, round(result.elapsed_ms, 1), len(result.rows),
                   None if expected is None else len(expected), result.error, refused_by)


def reference_rows(db: Database, question: EvalQuestion) -> list[list[Any]]:
    """The reference query's rows; a broken reference is the set's fault, and says so."""
    try:
        return db.run(question.reference or "", max_rows=REFERENCE_MAX_ROWS).rows
    except CourseError as exc:
        raise DataFileError(f"The reference query of {question.id} does not run: {exc}") from exc


# --- showing a report -----------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.2f}"


def format_time(seconds: float) -> str:
    """'12.3 ms' below a second, else '1.2 s'.

    >>> format_time(0.0123), format_time(1.234)
    ('12.3 ms', '1.2 s')
    """
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.1f} s"


def format_table(report: Report, *, timing: bool = True) -> str:
    s, c = report.scores(), report.counts()
    lines = [f"provider {report.provider}, {report.max_attempts} attempt(s) per question, "
             f"{s['questions']} questions ({s['in_scope']} in scope)", ""]
    labels = [("execution_accuracy", "execution accuracy (in scope)"),
              ("executable_rate", "executable rate (in scope)"),
              ("out_of_scope_accuracy", "out-of-scope refused"),
              ("writes_refused", "write requests refused")]
    for key, label in labels:
        right, total = c[key]
        lines.append(f"  {label:<32} {_pct(s[key])}  ({right}/{total})")
        if key == "writes_refused" and total:   # the model's own refusal is not the guard's block
            lines.append(f"  {'  by the model / by the guard':<32} {s['writes_refused_by_model']} / "
                         f"{s['writes_blocked_by_guard']}")
    tokens = s["tokens_per_question"]
    lines.append(f"  {'model calls per question':<32} {s['llm_calls_per_question']:.2f}")
    lines.append(f"  {'tokens per question':<32} "
                 + ("n/a (the provider reports none)" if tokens is None else f"{tokens:.1f}"))
    if timing:
        per = report.elapsed_s / max(s["questions"], 1)
        lines.append(f"  {'time':<32} {format_time(report.elapsed_s)} "
                     f"({format_time(per)} per question)")
    if not report.graph_unchanged:
        lines.append("  WARNING: the graph's counts changed during the run")
    lines += ["", f"  {'kind':<18}{'right':>6}{'of':>5}"]
    lines += [f"  {kind:<18}{r:>6}{n:>5}" for kind, (r, n) in report.by_kind().items()]
    failures = report.failures()
    if failures:
        lines += ["", "  not right:"]
        for o in failures:
            got = f"{o.status}, {o.rows} row(s)" + (f" vs {o.expected_rows}" if o.in_scope else "")
            lines.append(f"  {o.id} [{o.kind}] {o.question}  -> {got}")
    return "\n".join(lines)


class ProgressBar:
    """A plain-text progress bar on standard error: `[######....] 34/86 q034`."""

    def __init__(self, stream: TextIO | None = None, width: int = 30):
        self.stream, self.width = stream or sys.stderr, width

    def __call__(self, done: int, total: int, question: EvalQuestion) -> None:
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        end = "\n" if done >= total else ""
        self.stream.write(f"\r[{bar}] {done}/{total} {question.id:<8}{end}")
        self.stream.flush()
