"""What the agent returns, and the one way it is shown: in a terminal, in Jupyter, as JSON.

Introduced in notebook 05. `Result` carries the final query, rows and answer, every
attempt and every model call (`steps`, one `Step` each, for every agent); its answer is None
when only the rows were asked for (`ask --rows`). `summary()` is the text the command line
prints (rows only: the rows as a `text_table`), `_repr_html_` the table a
notebook shows, `to_dict()` the `course ask --json` record, and `values()` the values of
its rows (what the picture lights up, what memory reads). Everything shown passes through
`printable()`, so a terminal escape code in the graph's data or a model's answer is shown
as text, never obeyed.

>>> result = Result("Who is Payal?", cypher="MATCH (s:Student) RETURN s.name", columns=["name"],
...                 rows=[["Payal"]], answer="Payal.", status="answered", provider="offline")
>>> print(result.summary())
Q: Who is Payal?
   MATCH (s:Student) RETURN s.name
A: Payal.
   [answered; offline; 0 attempts; 0 model calls]
>>> result.values()
['Payal']
"""
from __future__ import annotations

import hashlib
import html
import json
from dataclasses import asdict, dataclass, field
from collections.abc import Sequence
from typing import Any, Literal, get_args

from course.foundation.db import cell_values
from course.llm.errors import redact
from course.pipeline.linking import Mention
from course.pipeline.prompts import BLOCKED_ANSWER, OUT_OF_SCOPE_ANSWER
from course.pipeline.refusal import refusal

# What became of a question (or of one part of it): the one type every status is.
Status = Literal["answered", "out_of_scope", "blocked", "failed"]
Refusal = Literal["out_of_scope", "blocked"]     # the agent said no: an answer, not a gap
STATUSES: tuple[Status, ...] = get_args(Status)
REFUSALS: tuple[Refusal, ...] = get_args(Refusal)
# What a model call was for (`Step.kind`): the role it played.
StepKind = Literal["cypher", "answer", "tools", "updater", "router", "critic", "text2cypher", ""]

SHOWN_ROWS = 20       # rows a table shows before "... N more rows"


def printable(text: Any, limit: int | None = None) -> str:
    """Text that is safe to show: valid UTF-8, no control or escape codes, no configured key
    in any form (`course.llm.errors.redact`), cut to `limit`.

    >>> printable("Payal\\x1b]0;TITLE\\x07")
    'Payal?]0;TITLE?'
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if not isinstance(text, str):
        text = repr(text) if text is not None else ""
    text = text.encode("utf-8", errors="replace").decode("utf-8")  # lone surrogates -> '?'
    text = "".join(ch if ch.isprintable() or ch == "\n" else "?" for ch in text)
    text = redact(text)
    if limit is not None and len(text) > limit:
        return text[:limit] + f"… ({len(text):,} characters)"
    return text


def json_line(data: Any) -> str:
    """`data` as one line of JSON that any terminal can take: control characters are JSON
    escapes already, a lone surrogate (undecodable bytes, a model's broken output) becomes
    its `\\udXXX` escape instead of raising UnicodeEncodeError, U+0085, U+2028 and U+2029
    (which end a line for Python) are escaped too, and a configured key in any form is
    redacted, as `printable` does.

    >>> print(json_line({"answer": "x\\udc80\\x1b"}))
    {"answer": "x\\udc80\\u001b"}
    """
    text = json.dumps(data, ensure_ascii=False, default=str)
    for separator in _LINE_SEPARATORS:   # JSON may hold them raw; a Python reader splits on them
        text = text.replace(separator, f"\\u{ord(separator):04x}")
    return redact(text.encode("utf-8", errors="backslashreplace").decode("utf-8"))


# What str.splitlines() ends a line at, beyond the control characters JSON escapes itself.
_LINE_SEPARATORS = ("\x85", "\u2028", "\u2029")


def plain(value: Any) -> Any:
    """A graph value as JSON: lists stay lists, nodes and paths become their text.

    >>> plain([1, "a", None])
    [1, 'a', None]
    """
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, list):
        return [plain(v) for v in value]
    return str(value)


def rows_table(columns: list[str], rows: list[list[Any]], *, limit: int = SHOWN_ROWS) -> str:
    """Query rows as a small HTML table (at most `limit` rows), text aligned left, escaped.

    >>> rows_table(["name"], [["Payal"]])
    '<table><tr><th style="text-align:left">name</th></tr><tr><td style="text-align:left">Payal</td></tr></table>'
    """
    if not columns:
        return ""
    cell = '<{0} style="text-align:left">{1}</{0}>'
    head = "".join(cell.format("th", html.escape(printable(c))) for c in columns)
    body = "".join("<tr>" + "".join(cell.format("td", html.escape(printable(plain(v))))
                                    for v in row) + "</tr>" for row in rows[:limit])
    more = (f"<tr><td colspan={len(columns)}>… {len(rows) - limit} more rows</td></tr>"
            if len(rows) > limit else "")
    return f"<table><tr>{head}</tr>{body}{more}</table>"


def text_table(columns: list[str], rows: list[list[Any]], *, limit: int = SHOWN_ROWS,
               width: int = 40) -> str:
    """Query rows as a plain-text table for a terminal (at most `limit` rows, values cut to
    `width` characters), what `ask --rows` prints.

    >>> print(text_table(["name", "year"], [["Payal", 2], ["Aarav", 2]]))
    name   year
    -----  ----
    Payal  2
    Aarav  2
    """
    if not columns:
        return "(no rows)"

    def cell(value: Any) -> str:
        text = " ".join(printable(plain(value)).split())
        return text if len(text) <= width else text[:width - 1] + "…"

    table = [[cell(c) for c in columns]] + [[cell(v) for v in row] for row in rows[:limit]]
    widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(line, widths)).rstrip() for line in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    if not rows:
        lines.append("(no rows)")
    elif len(rows) > limit:
        lines.append(f"… {len(rows) - limit} more rows")
    return "\n".join(lines)


def left_aligned(frame: Any) -> Any:
    """A pandas table whose text columns read left to right (Jupyter aligns every cell right).

    The styled table's HTML is the same on every run (its id comes from the column names),
    so nbval can compare it.

    >>> import pandas as pd
    >>> "text-align: left" in left_aligned(pd.DataFrame({"cypher": ["RETURN 1"]})).to_html()
    True
    """
    from pandas.api.types import is_numeric_dtype

    text = [column for column in frame.columns if not is_numeric_dtype(frame[column])]
    table_id = hashlib.sha1("\n".join(map(str, frame.columns)).encode()).hexdigest()[:8]
    return (frame.style.set_uuid(table_id)
            .set_properties(subset=text, **{"text-align": "left", "white-space": "pre-wrap"})
            .set_table_styles([{"selector": "th", "props": [("text-align", "left")]}]))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass
class Attempt:
    """One pass through the agent's loop."""

    number: int
    raw: str = ""                 # what the LLM wrote
    cypher: str = ""              # after cleaning
    removed: list[str] = field(default_factory=list)
    verdict: str = ""             # "allowed" or the guard's reason
    error: str | None = None
    kind: str | None = None       # generation_error | syntax_error | empty_result | unsafe_blocked
    row_count: int | None = None
    elapsed_ms: float = 0.0


@dataclass
class CallRecord:
    """One query (or other tool call) a model's reply led to, as it ran."""

    name: str                     # execute_cypher, or the agentic agent's tool
    arguments: dict[str, Any]
    ok: bool
    error: str | None
    row_count: int | None
    result_chars: int             # the result as the model was shown it (0: not shown)
    ms: float
    repeated: bool = False        # the tool loop answered it from the same call's last result
    refused: bool = False         # the read-only guard refused the query


@dataclass
class Step:
    """One model call of any agent, and the calls it led to: `Result.steps`.

    `kind` says what the call was for: `cypher` (the pipeline's query) and `answer` (the
    answer from the rows, or the tool loop's last call without tools); `tools` (a tool-loop
    call with tools); the agentic agent's `updater`, `router`, `critic`, `text2cypher` (its
    pipeline's calls, in one step) and `answer` (one part's answer).

    >>> step = Step(1, "MATCH (s:Student) RETURN s.name", [], "Offline", "rules", None, None,
    ...             0.4, 1.2, kind="cypher")
    >>> step.kind, step.final, step.problem
    ('cypher', False, None)
    """

    number: int
    text: str                     # what the model wrote
    calls: list[CallRecord]
    provider: str
    model: str
    input_tokens: int | None
    output_tokens: int | None
    llm_ms: float
    tools_ms: float
    final: bool = False           # the tool loop's call without tools, at the cap or the budget
    problem: str | None = None    # the call failed, or its tool call could not be read
    kind: StepKind = ""            # "": not said


@dataclass
class Result:
    """What `Agent.answer()` returns: the final query, rows and answer, every attempt and
    every model call (`steps`)."""

    question: str
    cypher: str | None = None
    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    truncated: bool = False
    answer: str | None = ""       # None: rows only (`Agent(..., answer=False)`), none written
    status: Status = "failed"
    error: str | None = None
    attempts: list[Attempt] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    provider: str | None = None
    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    elapsed_ms: float = 0.0
    mentions: list[Mention] = field(default_factory=list)
    language: str = "en"
    from_memory: bool = False
    parameters: dict[str, Any] = field(default_factory=dict)   # the query's ($skill): tools' reviewed queries

    def refuse(self, status: Refusal, error: str | None = None, *, context: str | None = None,
               labels: Sequence[str] = (), owned: Sequence[str] = ()) -> None:
        """Say no in the question's language: out of scope, or blocked (a change to the data).

        >>> result = Result("Kal barish hogi kya?", language="hi")
        >>> result.refuse("out_of_scope")
        >>> result.status, result.answer == OUT_OF_SCOPE_ANSWER["hi"]
        ('out_of_scope', True)
        """
        self.status, self.error = status, error
        self.answer = (OUT_OF_SCOPE_ANSWER if status == "out_of_scope" else BLOCKED_ANSWER)[self.language]
        if status == "out_of_scope":   # not followed, "who do you mean?", "who is asking?"
            self.answer = refusal(self.question, self.mentions, language=self.language,
                                  context=context, labels=labels, owned=owned) or self.answer

    def values(self) -> list[Any]:
        """Every value in the rows, lists flattened, in order, once each."""
        return cell_values(self.rows)

    def footer(self) -> str:
        """`[answered; offline; 1 attempt; 2 model calls]`: how the answer came about (a model call is
        one request to the provider, an LLM or the offline rules)."""
        cut = "; rows cut at the row cap" if self.truncated else ""
        return (f"[{self.status}; {printable(self.provider or 'no provider')}; "
                f"{_plural(len(self.attempts), 'attempt')}; {_plural(self.llm_calls, 'model call')}"
                f"{cut}{self.rows_only_note()}]")

    def rows_only_note(self) -> str:
        """'; rows only' for a result with no answer written (`Agent(..., answer=False)`)."""
        return "; rows only" if self.answer is None else ""

    def summary(self, *, number: int | None = None) -> str:
        """The question, the Cypher, the answer (rows only: the rows as a table) and the footer,
        as a terminal shows them."""
        lead = f"{number}. " if number is not None else "Q: "
        pad = " " * len(lead) if number is not None else "   "
        lines = [lead + printable(self.question)]
        if self.answer is None:
            lines += [pad + line if line else "" for line in self.rows_text()]
        else:
            if self.cypher:
                lines.append(pad + printable(self.cypher).replace("\n", "\n" + pad))
            lead = "A: " if number is None else pad + "Answer: "
            lines.append(lead + printable(self.answer).replace("\n", "\n" + " " * len(lead)))
        lines.append(pad + self.footer())
        return "\n".join(lines)

    def rows_text(self) -> list[str]:
        """What a rows-only result shows: the query and its rows as a table, else the error."""
        lines = printable(self.cypher).split("\n") if self.cypher else []
        if self.status == "answered":
            lines += text_table(self.columns, self.rows).split("\n")
        elif self.error:
            lines.append("Error: " + " ".join(printable(self.error).split()))
        return lines

    def __str__(self) -> str:
        return self.summary()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.summary())

    def _repr_html_(self) -> str:
        """The question, the Cypher, the rows as a table, the answer: what a notebook shows."""
        esc = lambda value: html.escape(printable(value))  # noqa: E731
        parts = [f"<p><b>Q:</b> {esc(self.question)}</p>"]
        if self.cypher:
            parts.append(f"<pre style='text-align:left'>{esc(self.cypher)}</pre>")
        parts.append(self.rows_html())
        said = (f"<b>A:</b> {esc(self.answer)}" if self.answer is not None else
                f"<b>Error:</b> {esc(self.error)}" if self.error else "")
        parts.append((f"<p>{said}</p>" if said else "")
                     + f"<p><small>{esc(self.footer())}</small></p>")
        return "\n".join(parts)

    def rows_html(self) -> str:
        """The rows as an HTML table (`rows_table`)."""
        return rows_table(self.columns, self.rows)

    def to_dict(self) -> dict[str, Any]:
        """The `python -m course ask --json` record."""
        data = asdict(self)
        data["attempts"] = len(self.attempts)
        data["attempt_log"] = [asdict(a) for a in self.attempts]
        data["mentions"] = [f"{m.label}:{m.value}" for m in self.mentions]
        data["rows"] = [[plain(v) for v in row] for row in self.rows]
        return data
