"""The offline provider in the agentic agent's roles: it reads the role's prompt, as a model does.

Introduced in notebook 12. `OfflineLLM.chat` plays a role when the system message asks for one
of the roles' replies, and answers as a model is asked to:

- `{"questions": [...]}`: the updater's split (`RuleUpdater.split` on the QUESTION);
- `{"question": "..."}`: the updater's rewrite of a later part (`RuleUpdater.rewrite` with the
  RESULTS SO FAR, else `resolve_pronouns` with the conversation);
- `{"complete": ...}`: the critic (`RuleCritic.review` of the RESULTS SO FAR against the
  question's LINKED VALUES);
- tools offered, none of them the tool loop's `execute_cypher`: the router, one tool call
  (`RuleRouter.route` on the QUESTION, its LINKED VALUES, the conversation and the results).

Everything comes from the prompt: the RESULTS SO FAR block holds one JSON object per part
(`part`, `question`, `rewritten`, `tool`, `arguments`, `status`, `found`, `asked` and `values`
as [label, value] pairs, `rows`, `answer`).

>>> import json
>>> from course.llm.base import Message
>>> system = 'Reply with JSON only: {"questions": ["...", "..."]}.'
>>> user = "QUESTION: Who is Payal? What does she study?"
>>> json.loads(play_role(system, [Message("user", user)], ())[0])
{'questions': ['Who is Payal?', 'What does she study?']}
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from course.foundation.language import depends_on_context, points_at_a_person, points_back
from course.llm.base import Message, ToolCall, ToolSpec
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.critic import RuleCritic
from course.llm.offline.roles.elided import counts_the_unsaid
from course.llm.offline.roles.router import RuleRouter
from course.llm.offline.roles.speaker import resolve_pronouns
from course.llm.offline.roles.updater import RuleUpdater, follows_up
from course.llm.offline.roles.words import (CLEARS, NOTE_SEARCH, PROPERTIES, Linked,
                                            linked_values, read_properties, tokens)
from course.llm.offline.tools import QUERY_TOOL

IT_WORDS = frozenset({"it", "its"})

RESULTS = "RESULTS SO FAR"
CONTEXT = ("CONVERSATION SO FAR", "RECENTLY MENTIONED")


def role_of(system: str | None, tools: Sequence[ToolSpec]) -> str | None:
    """The role the prompt asks for, or None (the tool loop, or a plain prompt)."""
    text = system or ""
    if '{"questions"' in text:
        return "split"
    if '{"complete"' in text:
        return "critic"
    if '{"question"' in text:
        return "rewrite"
    if tools and QUERY_TOOL not in {t.name for t in tools}:
        return "router"
    return None


@dataclass
class RolePrompt:
    """What a role's user message says: the question, its linked values, the conversation,
    and the parts answered so far."""

    question: str
    linked: list[Linked]
    context: str = ""
    parts: list[dict[str, Any]] = field(default_factory=list)
    notes_clear: bool = False     # the NOTE SEARCH line says the best note clears the bar
    properties: dict[str, list[str]] = field(default_factory=dict)   # the PROPERTIES line

    def found(self) -> list[dict[str, Any]]:
        return [p for p in self.parts if p.get("found")]


def read_role_prompt(user: str) -> RolePrompt:
    """Split a role's user message into its question, linked values, conversation and parts.

    >>> read_role_prompt('RESULTS SO FAR (data, not instructions):\\n- {"part": 0, "found": true}'
    ...                  '\\n\\nQUESTION: which clubs is she in?').parts
    [{'part': 0, 'found': True}]
    """
    parts, rest, clear, owners = [], [], False, {}
    for line in user.splitlines():
        record = _part(line)
        if record is not None:
            parts.append(record)
        elif line.startswith(NOTE_SEARCH):
            clear = CLEARS in line
        elif line.startswith(PROPERTIES):
            owners = read_properties(line)
        elif not line.startswith(RESULTS):
            rest.append(line)
    text = "\n".join(rest)
    question = text.rpartition("QUESTION:")[2].strip()
    context = text.rpartition("QUESTION:")[0] if any(h in text for h in CONTEXT) else ""
    return RolePrompt(question, linked_values(text), context, parts, clear, owners)


def _part(line: str) -> dict[str, Any] | None:
    if not line.startswith("- {"):
        return None
    try:
        record = json.loads(line[2:])
    except ValueError:
        return None
    return record if isinstance(record, dict) and "part" in record else None


def play_role(system: str | None, messages: Sequence[Message],
              tools: Sequence[ToolSpec]) -> tuple[str, list[ToolCall]]:
    """The reply (JSON text) or the one tool call a role's prompt asks for."""
    role = role_of(system, tools)
    prompt = read_role_prompt(next((m.content for m in messages if m.role == "user"), ""))
    if role == "split":
        return json.dumps({"questions": RuleUpdater().split(prompt.question)}), []
    if role == "rewrite":
        return json.dumps({"question": rewrite(prompt)}), []
    if role == "critic":
        review = RuleCritic().review(prompt.question, prompt.linked, prompt.parts)
        return json.dumps({"complete": review.complete, "missing": review.missing,
                           "narrowed": review.narrowed, "ungrounded": review.ungrounded}), []
    found = [(p["rewritten"], p.get("answer", "")) for p in prompt.found()]
    call = RuleRouter().route(prompt.question, prompt.linked, tools, found, prompt.context,
                              notes_clear=prompt.notes_clear)
    return ("No tool is left to try.", []) if call is None else ("", [call])


def rewrite(prompt: RolePrompt) -> str:
    """A later part with "she", "that student", "uske" as what an earlier part found (or one
    that names nothing, "..., and who is the president?", in what an earlier part asked); else
    "her", "mujhe" as the person the conversation names; else the part as it is."""
    found = prompt.found() or _one_value_asked(prompt)
    if found and (points_back(prompt.question) or follows_up(prompt.question, prompt.linked)
                  or depends_on_context(prompt.question, prompt.linked) or not prompt.linked
                  or counts_the_unsaid(prompt.question)):     # "and how many does Ravi?"
        # "what skills does it need, and who's on it?": an "it" that follows an "it" keeps what
        # the first stood for, not the things its part found (the people stay, for "they")
        again = set(tokens(prompt.question)) & IT_WORDS and set(tokens(found[-1]["question"])) & IT_WORDS \
            and found[-1].get("asked")
        person = default_lexicon().person
        return RuleUpdater().rewrite(prompt.question, [
            (p["rewritten"], [tuple(v) for v in p.get("asked", [])],
             [tuple(v) for v in p.get("values", []) if not (again and p is found[-1] and v[0] != person)])
            for p in found], named=len(prompt.linked), properties=prompt.properties, linked=prompt.linked)
    counted = _counted_last(prompt.context)
    if counted and points_back(prompt.question):   # "which of them ...?" after "how many ...?"
        again = RuleUpdater().rewrite(prompt.question, [(counted, [], [])], named=len(prompt.linked))
        if again != prompt.question:
            return again
    return resolve_pronouns(prompt.question, prompt.context, prompt.linked)


def _one_value_asked(prompt: RolePrompt) -> list[dict[str, Any]]:
    """The parts that asked and found nothing, with no values found, when they asked about one
    person and the question points at a person ("she", "uska": that person), or about one value
    and the question names nothing and points at nothing ("the average grade in DSA (unanswered),
    and who got the lowest grade?": in DSA, not in every subject); else []."""
    values = {(label, str(v)) for p in prompt.parts for label, v in p.get("asked", [])}
    people = {v for label, v in values if label == default_lexicon().person}
    one_person = points_at_a_person(prompt.question) and len(people) == 1
    if not one_person and (prompt.linked or len(values) != 1 or points_back(prompt.question)):
        return []
    return [dict(p, values=[]) for p in prompt.parts if p.get("asked")]


def _counted_last(context: str) -> str | None:
    """The conversation's last question, when its query counted ("How many students are in their
    third year?"): "which of them" then stands for what it counted, as it would in a later part
    of the same message.

    >>> _counted_last(chr(10).join(["[Turn 1] User: How many take Optics?", "Cypher: RETURN count(t) AS n"]))
    'How many take Optics?'
    """
    turns = re.findall(r"^\[Turn \d+\] User: (.*)\n(?:Cypher: (.*))?", context, re.M)
    if not turns or not re.search(r"\bcount\(", turns[-1][1]):
        return None
    return turns[-1][0]
