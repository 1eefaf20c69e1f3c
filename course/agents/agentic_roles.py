"""The router, the updater and the critic: as the offline rules, or as one LLM call each.

Introduced in notebook 12. `roles_for(llm)` gives the offline provider the rules
(`RuleRoles`: `course.agents.rule_router`, `rule_updater`, `rule_critic`) and any other
provider `ChatRoles`: each role one call through `chat()`, answering JSON where it answers,
with the prompts below.

>>> system, user = critic_prompt("Who is Payal?", Run("Who is Payal?"))
>>> print(user)
QUESTION: Who is Payal?
<BLANKLINE>
RESULTS SO FAR: none yet.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from course.agents.agentic_run import Run
from course.agents.rule_critic import Review, RuleCritic
from course.agents.rule_router import RuleRouter
from course.agents.rule_updater import RuleUpdater
from course.llm.base import LLM, Message, ToolCall, ToolSpec, Usage
from course.llm.offline import OfflineLLM
from course.pipeline import prompts
from course.pipeline.linking import Mention

ROUTER_SYSTEM = """\
You are the retriever router of an agent that answers questions about a college knowledge
graph. Call exactly ONE tool: the one that answers the question best. Prefer a specialised
tool whose description fits; fill its arguments with the LINKED VALUES. Use text2cypher only
when no other tool fits, and answer_given only when the RESULTS SO FAR already hold the answer."""

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
atomic question for each missing piece>"]}. Judge only from the results; do not answer."""


class Roles(Protocol):
    """Router, updater and critic: each call returns its decision and what it cost."""

    name: str
    model: str

    def split(self, question: str, context: str) -> tuple[list[str], Usage]: ...

    def rewrite(self, part: str, run: Run, link: Callable[[str], Sequence[Mention]]
                ) -> tuple[str, Usage]: ...

    def route(self, question: str, mentions: Sequence[Mention], tools: Sequence[ToolSpec],
              run: Run, context: str) -> tuple[ToolCall | None, Usage]: ...

    def review(self, question: str, mentions: Sequence[Mention], run: Run) -> tuple[Review, Usage]: ...


def _part_records(run: Run) -> list[dict[str, Any]]:
    return [{"question": s.question, "rewritten": s.rewritten, "tool": s.tool,
             "arguments": s.arguments, "rows": s.rows, "found": s.found, "answer": s.answer,
             "status": s.status, "part": s.part}
            for s in run.sub_questions if s.tool]   # not the parts over the MAX_PARTS bound


class RuleRoles:
    """The offline rules in every role (deterministic; no model, no key)."""

    name, model = "Offline", "rules"

    def __init__(self) -> None:
        self.router, self.updater, self.critic = RuleRouter(), RuleUpdater(), RuleCritic()

    def split(self, question: str, context: str) -> tuple[list[str], Usage]:
        return self.updater.split(question), Usage()

    def rewrite(self, part: str, run: Run, link: Callable[[str], Sequence[Mention]]
                ) -> tuple[str, Usage]:
        found = [(s.rewritten, s.mentions, s.rows) for s in run.sub_questions if s.found]
        return self.updater.rewrite(part, found, link), Usage()

    def route(self, question: str, mentions: Sequence[Mention], tools: Sequence[ToolSpec],
              run: Run, context: str) -> tuple[ToolCall | None, Usage]:
        return self.router.route(question, mentions, tools, run.found(), context), Usage()

    def review(self, question: str, mentions: Sequence[Mention], run: Run) -> tuple[Review, Usage]:
        return self.critic.review(question, mentions, _part_records(run)), Usage()


class ChatRoles:
    """Each role as one LLM call through the provider-neutral `chat()`; JSON where it answers.

    A reply that is not the JSON asked for is not guessed at: the rules decide that step, and
    the step's text says so.
    """

    def __init__(self, llm: LLM) -> None:
        self.llm, self.name, self.model = llm, llm.name, llm.model
        self.rules = RuleRoles()

    def _json(self, system: str, user: str) -> tuple[dict[str, Any] | None, Usage]:
        turn = self.llm.chat(system, [Message("user", user)], ())
        self.name, self.model = turn.provider, turn.model
        return read_json(turn.text), turn.usage

    def split(self, question: str, context: str) -> tuple[list[str], Usage]:
        data, usage = self._json(*split_prompt(question, context))
        parts = data.get("questions") if data else None
        if not isinstance(parts, list) or not parts or not all(isinstance(p, str) and p.strip()
                                                              for p in parts):
            return self.rules.split(question, context)[0], usage
        return [p.strip() for p in parts], usage

    def rewrite(self, part: str, run: Run, link: Callable[[str], Sequence[Mention]]
                ) -> tuple[str, Usage]:
        data, usage = self._json(*rewrite_prompt(part, run))
        text = data.get("question") if data else None
        if not isinstance(text, str) or not text.strip():
            return self.rules.rewrite(part, run, link)[0], usage
        return text.strip(), usage

    def route(self, question: str, mentions: Sequence[Mention], tools: Sequence[ToolSpec],
              run: Run, context: str) -> tuple[ToolCall | None, Usage]:
        system, user = route_prompt(question, mentions, run, context)
        turn = self.llm.chat(system, [Message("user", user)], tools)
        self.name, self.model = turn.provider, turn.model
        calls = [c for c in turn.tool_calls if not c.problem]
        if not calls:   # no usable call: the general tool, with the question as it stands
            return ToolCall("text2cypher", {"question": question}), turn.usage
        return calls[0], turn.usage

    def review(self, question: str, mentions: Sequence[Mention], run: Run) -> tuple[Review, Usage]:
        data, usage = self._json(*critic_prompt(question, run))
        if not data or not isinstance(data.get("complete"), bool):
            return self.rules.review(question, mentions, run)[0], usage
        missing = [m for m in data.get("missing") or [] if isinstance(m, str) and m.strip()]
        return Review(bool(data["complete"]) and not missing, missing), usage


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


def rewrite_prompt(part: str, run: Run) -> tuple[str, str]:
    """(system, user) of the updater's rewrite call."""
    return REWRITE_SYSTEM, f"{_results_so_far(run)}\n\nQUESTION: {part}"


def route_prompt(question: str, mentions: Sequence[Mention], run: Run,
                 context: str) -> tuple[str, str]:
    """(system, user) of the router's call (the tools go beside them)."""
    user = prompts.cypher_user_prompt(question, mentions=mentions, context=context)
    return ROUTER_SYSTEM, f"{_results_so_far(run)}\n\n{user}" if run.sub_questions else user


def critic_prompt(question: str, run: Run) -> tuple[str, str]:
    """(system, user) of the critic's call."""
    return CRITIC_SYSTEM, f"QUESTION: {question}\n\n{_results_so_far(run)}"


def _results_so_far(run: Run) -> str:
    """The parts answered so far, rows fenced as data, for the updater and the critic."""
    lines = []
    for s in run.sub_questions:   # each part on one line: every newline in it escaped or spaced
        rows = json.dumps(s.rows[:10], ensure_ascii=False, default=str)[:1500]
        lines.append(f"- {' '.join(s.rewritten.split())} [{s.tool} "
                     f"{json.dumps(s.arguments, ensure_ascii=False)}]"
                     f" -> rows: {rows}; answer: {' '.join(s.answer.split())[:300]}")
    body = "\n".join(lines)
    return (f"RESULTS SO FAR:\n{prompts.fence(body, note=prompts.AS_RESULTS)}"
            if run.sub_questions else "RESULTS SO FAR: none yet.")


def roles_for(llm: LLM) -> RuleRoles | ChatRoles:
    """The offline provider gets the rules; any other provider makes the calls itself."""
    return RuleRoles() if isinstance(llm, OfflineLLM) else ChatRoles(llm)
