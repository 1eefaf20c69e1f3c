"""The offline provider's tool policy: the tool loop with no key and no LLM service.

Introduced in notebook 11. `OfflineLLM.chat` plays it when it is offered `execute_cypher`
(`OfflineToolLLM` plays it over another writer of queries), using only the writer's public
`complete()` for the queries, with the prompts the notebook-05 pipeline sends it. Its rule, read from
the history alone (it keeps no state between calls):

1. no call yet: write a query for the first user message and call `execute_cypher` with it
   (or reply OUT_OF_SCOPE / READ_ONLY when the rules say so, without a call);
2. the last query returned records: write the answer from them (as the answer step does);
3. it failed, was refused or found nothing: write another query with a note of that failure,
   up to `max_queries` queries, then answer from what there is.

It is deterministic and named for what it is: rules, not a language model. Like a model, it
reads only the conversation: the tool results say what went wrong ("refused", "error", no
records), and it notes that in its next query prompt's PREVIOUS ATTEMPT FAILED section.

>>> from course.llm.offline.provider import OfflineLLM
>>> from course.llm.offline.prompt import SCHEMA_EXAMPLE
>>> user = 'LINKED VALUES (...):\\n- "zoya" -> Person.name = \\'Zoya\\'\\n\\nQUESTION: Who is Zoya?'
>>> tool_turn(OfflineLLM(), SCHEMA_EXAMPLE, [Message("user", user)], {"execute_cypher"})[1][0].name
'execute_cypher'
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from course.llm.base import LLM, Message, ToolCall
from course.llm.offline.answer import answer_rows
from course.llm.sentinels import OUT_OF_SCOPE, READ_ONLY, READ_ONLY_QUERY, SENTINEL_QUERY

QUERY_TOOL = "execute_cypher"


def tool_turn(writer: LLM, system: str | None, messages: list[Message], tools: set[str],
              max_queries: int = 2) -> tuple[str, list[ToolCall]]:
    """The policy's next step: a reply, or an execute_cypher call (queries from `writer`)."""
    ask = next((m.content for m in messages if m.role == "user"), "")
    question = ask.rpartition("QUESTION:")[2].strip()
    tried = queries_tried(messages)
    can_query = QUERY_TOOL in tools
    if not tried:
        return _query(writer, system, ask, None, 1) if can_query else (
            "I have no tool to read the graph with.", [])
    query, result = tried[-1]
    if result.get("records"):
        return _answer(question, query, result), []
    again = can_query and len(tried) < max_queries and "note" not in result
    if again:
        return _query(writer, system, ask, failure_note(query, result), len(tried) + 1)
    if result.get("refused"):
        return READ_ONLY, []
    if "error" in result:
        return f"I could not get a query to run: {result['error']}", []
    return _answer(question, query, result), []


def _query(writer: LLM, system: str | None, ask: str, note: str | None,
           number: int) -> tuple[str, list[ToolCall]]:
    """A query for the question (with what failed, if anything) as an execute_cypher call."""
    if note:
        before, _, question = ask.rpartition("QUESTION:")
        ask = f"{before}PREVIOUS ATTEMPT FAILED:\n{note.strip()}\n\nQUESTION:{question}"
    cypher = writer.complete(ask, system=system).text.strip()
    if cypher == SENTINEL_QUERY:
        return OUT_OF_SCOPE, []
    if cypher == READ_ONLY_QUERY:
        return READ_ONLY, []
    return "", [ToolCall(QUERY_TOOL, {"query": cypher}, id=f"offline_{number}")]


def _answer(question: str, query: str, result: dict[str, Any]) -> str:
    records = result.get("records") or []
    columns = list(records[0]) if records else []
    rows = [[record.get(c) for c in columns] for record in records]
    return answer_rows(question, query, columns, rows, bool(result.get("truncated")))


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


def failure_note(query: str, result: dict[str, Any]) -> str:
    """What went wrong, as the PREVIOUS ATTEMPT FAILED section the offline rules read.

    >>> failure_note("MATCH (n) RETURN n", {"recordCount": 0, "records": []})
    'The query returned 0 rows.\\nYour query:\\nMATCH (n) RETURN n'
    """
    if result.get("refused"):
        what = f"Safety violation: {result.get('error', '')}"
    elif "error" in result:
        what = f"FalkorDB error:\n{result['error']}"
    else:
        what = "The query returned 0 rows."
    return f"{what}\nYour query:\n{query}"
