"""The offline provider's tool policy: the tool loop with no key and no LLM service.

Introduced in notebook 11. `OfflineToolLLM` wraps an `OfflineLLM` and uses only its public
`complete()`, with the same prompts the notebook-05 pipeline sends it. Its rule, read from
the history alone (it keeps no state between calls):

1. no call yet: write a query for the first user message and call `execute_cypher` with it
   (or reply OUT_OF_SCOPE / READ_ONLY when the rules say so, without a call);
2. the last query returned records: write the answer from them (the answer prompt, rows
   fenced as data);
3. it failed, was refused or found nothing: write another query with the pipeline's hint
   for that failure, up to `max_queries` queries, then answer from what there is.

It is deterministic and named for what it is: rules, not a language model.
It lives beside the tool loop rather than under llm/: it writes the pipeline's prompts (the
answer prompt, the retry hints) for the provider it wraps, as the pipeline does.

>>> from course.llm.base import Message
>>> llm = OfflineToolLLM()
>>> user = 'LINKED VALUES (...):\\n- "payal" -> Student.name = \\'Payal\\'\\n\\nQUESTION: Who is Payal?'
>>> schema = "NODES:\\n- Student {id, name, year, branch}: A student."
>>> llm.chat(schema, [Message("user", user)], [ToolSpec("execute_cypher", "")]).tool_calls[0].name
'execute_cypher'
"""
from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from course.llm.base import (LLM, ChatTurn, Completion, Message, ToolCall, ToolSpec, Usage,
                             elapsed_ms)
from course.llm.offline import OfflineLLM
from course.llm.sentinels import OUT_OF_SCOPE, READ_ONLY, READ_ONLY_QUERY, SENTINEL_QUERY
from course.pipeline import prompts

QUERY_TOOL = "execute_cypher"


class OfflineToolLLM(LLM):
    """The offline provider in the tool loop: deterministic, no service, no key."""

    name = "Offline"
    model = "rules"

    def __init__(self, offline: LLM | None = None, *, max_queries: int = 2) -> None:
        self.offline = offline if offline is not None else OfflineLLM()
        self.max_queries = max_queries

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        return self.offline.complete(prompt, system=system)

    def chat(self, system: str | None, messages: Sequence[Message],
             tools: Sequence[ToolSpec] = ()) -> ChatTurn:
        """One step of the policy in the module docstring."""
        started = time.perf_counter()
        text, calls = self._decide(system, list(messages), {t.name for t in tools})
        return ChatTurn(text, tuple(calls), self.name, self.model,
                        Usage(None, None, elapsed_ms(started)))

    def _decide(self, system: str | None, messages: list[Message],
                tools: set[str]) -> tuple[str, list[ToolCall]]:
        ask = next((m.content for m in messages if m.role == "user"), "")
        question = ask.rpartition("QUESTION:")[2].strip()
        tried = queries_tried(messages)
        can_query = QUERY_TOOL in tools
        if not tried:
            return self._query(system, ask, None, 1) if can_query else (
                "I have no tool to read the graph with.", [])
        query, result = tried[-1]
        if result.get("records"):
            return self._answer(question, query, result), []
        again = can_query and len(tried) < self.max_queries and "note" not in result
        if again:
            return self._query(system, ask, failure_hint(query, result), len(tried) + 1)
        if result.get("refused"):
            return READ_ONLY, []
        if "error" in result:
            return f"I could not get a query to run: {result['error']}", []
        return self._answer(question, query, result), []

    def _query(self, system: str | None, ask: str, hint: str | None,
               number: int) -> tuple[str, list[ToolCall]]:
        """A query for the question (with the hint, if any) as an execute_cypher call."""
        if hint:
            before, _, question = ask.rpartition("QUESTION:")
            ask = f"{before}PREVIOUS ATTEMPT FAILED:\n{hint.strip()}\n\nQUESTION:{question}"
        cypher = self.offline.complete(ask, system=system).text.strip()
        if cypher == SENTINEL_QUERY:
            return OUT_OF_SCOPE, []
        if cypher == READ_ONLY_QUERY:
            return READ_ONLY, []
        return "", [ToolCall(QUERY_TOOL, {"query": cypher}, id=f"offline_{number}")]

    def _answer(self, question: str, query: str, result: dict[str, Any]) -> str:
        records = result.get("records") or []
        columns = list(records[0]) if records else []
        rows = [[record.get(c) for c in columns] for record in records]
        _, user = prompts.answer_prompt(question, query, columns, rows,
                                        truncated=bool(result.get("truncated")))
        return self.offline.complete(user).text


def queries_tried(messages: Sequence[Message]) -> list[tuple[str, dict[str, Any]]]:
    """(query, result) of every execute_cypher call in the history, in order.

    >>> call = ToolCall(QUERY_TOOL, {"query": "RETURN 1"}, id="c1")
    >>> queries_tried([Message("assistant", tool_calls=(call,)),
    ...                Message("tool", '{"recordCount": 0, "records": []}', tool_call_id="c1")])
    [('RETURN 1', {'recordCount': 0, 'records': []})]
    """
    asked = {c.id: str(c.arguments.get("query", "")) for m in messages if m.role == "assistant"
             for c in m.tool_calls if c.name == QUERY_TOOL}
    tried = []
    for m in messages:
        if m.role == "tool" and m.tool_call_id in asked:
            try:
                result = json.loads(m.content)
            except ValueError:
                result = {"error": m.content}
            tried.append((asked[m.tool_call_id], result if isinstance(result, dict) else {}))
    return tried


def failure_hint(query: str, result: dict[str, Any]) -> str:
    """The pipeline's hint for what went wrong: refused, an error, or no rows."""
    if result.get("refused"):
        return prompts.blocked_hint(query, str(result.get("error", "")))
    if "error" in result:
        return prompts.error_hint(query, str(result["error"]))
    return prompts.empty_hint(query)
