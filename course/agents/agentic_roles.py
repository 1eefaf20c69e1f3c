"""The router, the updater and the critic: roles a model plays, one `chat()` call each.

Introduced in notebook 12. `ChatRoles(llm)` sends each role's prompt (below) through the
provider-neutral `chat()`: the updater and the critic answer JSON, the router calls one tool.
Every provider plays them the same way: with no key, the offline provider reads the same
prompts and answers by its rules (`course.llm.offline.roles`).

>>> system, user = critic_prompt("Who is Payal?", [], Run("Who is Payal?"))
>>> print(user)
QUESTION: Who is Payal?
<BLANKLINE>
RESULTS SO FAR: none yet.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from course.agents.agentic_run import Run, SubQuestion
from course.llm.base import LLM, Message, ToolCall, ToolSpec, Usage
from course.llm.offline import OfflineLLM
from course.llm.offline.chain import walked
from course.llm.offline.roles.critic import Review
from course.llm.offline.roles.words import PROPERTIES
from course.pipeline import prompts
from course.pipeline.linking import Mention

ROUTER_SYSTEM = """\
You are the retriever router of an agent that answers questions about a college knowledge
graph. Call exactly ONE tool: the one that answers the question best. Prefer a specialised
tool whose description fits; fill its arguments with the LINKED VALUES. Use text2cypher only
when no other tool fits, and answer_given only when the RESULTS SO FAR already hold the answer.
A NOTE SEARCH line says how well the best study note matches the question."""

UPDATER_SYSTEM = """\
You split questions into atomic questions for a question-answering agent. Reply with JSON only:
{"questions": ["...", "..."]}. Each question must be answerable on its own, in the order asked,
in the language of the original. A single question stays one question. Do not answer."""

REWRITE_SYSTEM = """\
You rewrite a question so it stands on its own, using what earlier answers found: replace
"she", "that student", "uske" and the like with the name they stand for. Change nothing else.
Reply with JSON only: {"question": "..."}."""

CRITIC_SYSTEM = """\
You check whether the results below answer the WHOLE question. Reply with JSON only:
{"complete": true, "missing": []} when they do, else {"complete": false, "missing": ["<a new
atomic question for each missing piece>"]}. A part whose query does not follow a link its
question names ("Aarav's friends' subjects" needs a friend link: see "follows") is not
answered: add "ungrounded": {"<part>": "<the word it leaves out>"} and ask it again in
"missing". Judge only from the results; do not answer."""


class ChatRoles:
    """The router, the updater and the critic, each one call through `chat()`; JSON where it
    answers. A reply that is not the JSON asked for is not guessed at: the offline provider
    decides that step from the same prompt (its rules), and the step's text says so.
    """

    def __init__(self, llm: LLM) -> None:
        self.llm, self.name, self.model = llm, llm.name, llm.model
        self.rules = OfflineLLM()

    def _json(self, prompt: tuple[str, str], valid: Callable[[dict[str, Any]], bool]
              ) -> tuple[dict[str, Any], Usage]:
        """The reply's JSON object; when it is not the one asked for, the rules' reply."""
        system, user = prompt
        turn = self.llm.chat(system, [Message("user", user)], ())
        self.name, self.model = turn.provider, turn.model
        data = read_json(turn.text)
        if data is None or not valid(data):
            data = read_json(self.rules.chat(system, [Message("user", user)], ()).text) or {}
        return data, turn.usage

    def split(self, question: str, context: str) -> tuple[list[str], Usage]:
        data, usage = self._json(split_prompt(question, context), _questions)
        parts = data.get("questions") if _questions(data) else [question]
        return [p.strip() for p in parts or [question]], usage

    def rewrite(self, part: str, mentions: Sequence[Mention], run: Run, context: str,
                properties: Mapping[str, Sequence[str]] | None = None) -> tuple[str, Usage]:
        data, usage = self._json(rewrite_prompt(part, mentions, run, context, properties),
                                 _question)
        return (str(data["question"]).strip() if _question(data) else part), usage

    def route(self, question: str, mentions: Sequence[Mention], tools: Sequence[ToolSpec],
              run: Run, context: str, evidence: str = "") -> tuple[ToolCall | None, Usage]:
        system, user = route_prompt(question, mentions, run, context, evidence)
        turn = self.llm.chat(system, [Message("user", user)], tools)
        self.name, self.model = turn.provider, turn.model
        calls = [c for c in turn.tool_calls if not c.problem]
        if not calls:   # no usable call: the general tool, if it is left to try
            offered = "text2cypher" in {t.name for t in tools}
            return (ToolCall("text2cypher", {"question": question}) if offered else None), turn.usage
        return calls[0], turn.usage

    def review(self, question: str, mentions: Sequence[Mention], run: Run) -> tuple[Review, Usage]:
        data, usage = self._json(critic_prompt(question, mentions, run),
                                 lambda d: isinstance(d.get("complete"), bool))
        missing = [m for m in data.get("missing") or [] if isinstance(m, str) and m.strip()]
        narrowed, ungrounded = ({int(k): v for k, v in (data.get(key) or {}).items()
                                 if str(k).isdigit() and isinstance(v, str)}
                                for key in ("narrowed", "ungrounded"))
        return Review(bool(data.get("complete")) and not missing and not ungrounded, missing,
                      narrowed, ungrounded), usage


class RuleRoles(ChatRoles):
    """The roles played by the offline provider (its rules): `ChatRoles(OfflineLLM())`."""

    def __init__(self) -> None:
        super().__init__(OfflineLLM())


def _questions(data: dict[str, Any]) -> bool:
    parts = data.get("questions")
    return isinstance(parts, list) and bool(parts) and all(isinstance(p, str) and p.strip()
                                                           for p in parts)


def _question(data: dict[str, Any]) -> bool:
    return isinstance(data.get("question"), str) and bool(data["question"].strip())


def read_json(text: str) -> dict[str, Any] | None:
    """The first JSON object in a model's reply (a ```json fence is fine), else None.

    >>> read_json('```json\\n{"complete": true, "missing": []}\\n```')
    {'complete': True, 'missing': []}
    """
    start = text.find("{")
    while start != -1:
        try:
            value, _ = json.JSONDecoder().raw_decode(text[start:])
            return value if isinstance(value, dict) else None
        except ValueError:
            start = text.find("{", start + 1)
    return None


def split_prompt(question: str, context: str) -> tuple[str, str]:
    """(system, user) of the updater's split call."""
    user = f"QUESTION: {question}"
    return UPDATER_SYSTEM, f"{context}\n\n{user}" if context else user


def rewrite_prompt(part: str, mentions: Sequence[Mention], run: Run, context: str = "",
                   properties: Mapping[str, Sequence[str]] | None = None) -> tuple[str, str]:
    """(system, user) of the updater's rewrite call: the results so far, what each kind of
    thing has (`properties`: "its status" is a project's, so "its" is the project found), the
    part's linked values and the conversation."""
    user = prompts.cypher_user_prompt(part, mentions=mentions, context=context)
    owners = "; ".join(f"{label}: {', '.join(names)}" for label, names in (properties or {}).items())
    has = f"{PROPERTIES} {owners}" if owners else ""
    return REWRITE_SYSTEM, "\n\n".join(x for x in (results_so_far(run), has, user) if x)


def route_prompt(question: str, mentions: Sequence[Mention], run: Run,
                 context: str, evidence: str = "") -> tuple[str, str]:
    """(system, user) of the router's call (the tools go beside them); `evidence`: what the
    note search found for the question (a line of data, `note_evidence_line`)."""
    user = prompts.cypher_user_prompt(question, mentions=mentions, context=context)
    user = f"{evidence}\n\n{user}" if evidence else user
    return ROUTER_SYSTEM, f"{results_so_far(run)}\n\n{user}" if run.sub_questions else user


def critic_prompt(question: str, mentions: Sequence[Mention], run: Run) -> tuple[str, str]:
    """(system, user) of the critic's call: the question, its linked values, the results."""
    user = prompts.cypher_user_prompt(question, mentions=mentions)
    return CRITIC_SYSTEM, f"{user}\n\n{results_so_far(run)}"


CELL_CHARS = 300      # a long cell (a note's text) is cut in the results so far
SHOWN_ROWS = 10


def results_so_far(run: Run) -> str:
    """The parts tried so far, one JSON object a line (rows fenced as data by the JSON)."""
    lines = [f"- {json.dumps(part_record(s), ensure_ascii=False, default=str)}"
             for s in run.sub_questions if s.tool]   # not the parts over the MAX_PARTS bound
    if not lines:
        return "RESULTS SO FAR: none yet."
    return "RESULTS SO FAR:\n" + prompts.fence("\n".join(lines), note=prompts.AS_RESULTS)


def part_record(s: SubQuestion) -> dict[str, Any]:
    """What the roles read of one part: asked, rewritten, tool, status, values, rows, answer."""
    rows = [[c[:CELL_CHARS] + " …" if isinstance(c, str) and len(c) > CELL_CHARS else c
             for c in row] for row in s.rows[:SHOWN_ROWS]]
    asked = [[m.label, m.value] for m in s.mentions]
    if s.tool == "search_notes" and s.values:   # a note is about its topic, not a name said in
        asked = [list(v) for v in s.values]     # passing ("the OS"; "the binary tree": BST's note)
    return {"part": s.part, "question": s.question, "rewritten": s.rewritten, "tool": s.tool,
            "arguments": s.arguments, "status": s.status, "found": s.found, "asked": asked,
            "values": [list(v) for v in s.values], "rows": rows,
            "follows": walked(s.cypher or ""),     # the relationships its query takes, once a walk
            "answer": " ".join(s.answer.split())[:CELL_CHARS]}
