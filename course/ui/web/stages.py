"""A question's stages as the page receives them: one small JSON object per event.

The agent tells its observer (`Agent.on_step`) each stage as it happens; `stage_event` turns
each into what the page shows: the names linked in the question, each model call (the Cypher
written, the tool chosen, the router's, updater's or critic's word), each query with the guard's
verdict, the rows, a failed attempt and its error. `answer_event` is the last one: the answer,
its Cypher and rows, and the footer (provider, attempts, model calls, tokens, cost). Every
text passes through `page_text`; the page sets each as text, never as markup.

>>> from course.foundation.db import Rows
>>> stage_event("rows", Rows(["name"], [["<b>Payal</b>"]]))["rows"]
[['<b>Payal</b>']]
"""
from __future__ import annotations

import json
from typing import Any

from course.foundation.db import Rows
from course.pipeline.results import Attempt, CallRecord, Result, Step, plain
from course.ui.web.access import page_text

SHOWN_ROWS = 20        # rows sent with a stage or an answer; the count says how many there were
TEXT_CHARS = 600       # a model's words in a stage
CELL_CHARS = 300       # one value of a row


def cell(value: Any) -> str:
    """One value of a row as the page shows it: text as it is, anything else as JSON.

    >>> cell(["1NF", "2NF"]), cell(2), cell("Payal")
    ('["1NF", "2NF"]', '2', 'Payal')
    """
    text = value if isinstance(value, str) else json.dumps(plain(value), ensure_ascii=False)
    return page_text(text, limit=CELL_CHARS)


def rows_shown(columns: list[str], rows: list[list[Any]]) -> dict[str, Any]:
    return {"columns": [page_text(c, limit=80) for c in columns],
            "rows": [[cell(v) for v in row] for row in rows[:SHOWN_ROWS]], "count": len(rows)}


def verdict(call: CallRecord) -> str:
    """What the guard and the database said of one query."""
    if call.ok:
        return "allowed"
    error = call.error or ""
    return "refused by the guard" if error.startswith("Unsafe query") else "failed"


def _call(call: CallRecord) -> dict[str, Any]:
    arguments = json.dumps(call.arguments, ensure_ascii=False, default=str)
    return {"type": "call", "name": page_text(call.name, limit=80), "ok": call.ok,
            "query": page_text(call.arguments.get("query", ""), limit=2_000)
            if isinstance(call.arguments, dict) else "",
            "arguments": page_text(arguments, limit=TEXT_CHARS), "verdict": verdict(call),
            "error": page_text(call.error, limit=TEXT_CHARS) if call.error else None,
            "row_count": call.row_count}


def _step(step: Step) -> dict[str, Any]:
    tokens = (step.input_tokens or 0) + (step.output_tokens or 0)
    return {"type": "step", "number": step.number, "kind": page_text(step.kind),
            "provider": page_text(step.provider, limit=80), "text": page_text(step.text,
                                                                              limit=TEXT_CHARS),
            "tokens": tokens or None, "problem": page_text(step.problem) if step.problem else None,
            "calls": [_call(c) for c in step.calls]}


def stage_event(what: str, record: Any) -> dict[str, Any] | None:
    """The page's event for one thing the agent reported (None: nothing to show)."""
    if what == "linked":
        return {"type": "linked", "mentions": [{"label": page_text(m.label),
                                                "value": page_text(m.value, limit=80)}
                                               for m in record]}
    if what == "step" and isinstance(record, Step):
        return _step(record)
    if what == "call" and isinstance(record, CallRecord):
        return _call(record)
    if what == "rows" and isinstance(record, Rows):
        return {"type": "rows", **rows_shown(record.columns, record.rows),
                "truncated": record.truncated}
    if what == "attempt" and isinstance(record, Attempt) and record.error:
        return {"type": "retry", "number": record.number, "kind": record.kind,
                "error": page_text(record.error, limit=TEXT_CHARS)}
    return None


def answer_event(result: Result) -> dict[str, Any]:
    """The last event of a question: the answer, its query and rows, and how it came about."""
    return {"type": "answer", "question": page_text(result.question, limit=2_000),
            "answer": page_text(result.answer if result.answer is not None else "",
                                limit=4_000),
            "status": result.status, "error": page_text(result.error) if result.error else None,
            "cypher": page_text(result.cypher or "", limit=4_000),
            **rows_shown(result.columns, result.rows),
            "footer": page_text(result.footer()), "provider": page_text(result.provider or ""),
            "attempts": len(result.attempts), "llm_calls": result.llm_calls,
            "input_tokens": result.input_tokens, "output_tokens": result.output_tokens,
            "cost_usd": getattr(result, "cost_usd", None), "from_memory": result.from_memory}


def error_event(message: str) -> dict[str, Any]:
    """A question the app would not pass to the agent (too long, too many, one at a time)."""
    return {"type": "error", "message": page_text(message)}
