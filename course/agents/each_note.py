"""A note for each of several values a part names. Introduced in notebook 12, with the agentic agent.

"What should I learn before deadlocks, and explain them from the notes" becomes "explain each
of Threads and Processes from the notes" once the first part has found two topics. One note
search ranks one note first, and that note alone, quoted as the answer, reads as the whole
answer while the other topic goes unexplained. So such a part asks the notes once per value,
and says which value no note answered.

>>> explained_each("explain each of A and B from the notes", [Mention("a", "T", "name", "A", 1.0),
...                                                             Mention("b", "T", "name", "B", 1.0)])
[('A', 'explain A from the notes'), ('B', 'explain B from the notes')]
>>> explained_each("explain A", [Mention("a", "T", "name", "A", 1.0)])
[]
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Sequence

from course.agents.agentic_run import Run, SubQuestion
from course.foundation.language import language_of
from course.llm.base import Usage
from course.pipeline.linking import Mention

if TYPE_CHECKING:
    from course.agents.agentic import AgenticAgent
    from course.agents.agentic_roles import ChatRoles
    from course.agents.agentic_tools import AgenticToolbox

NOT_ANSWERED = {"en": "no note answers this one", "hi": "iska koi note nahi mila"}


def explained_each(rewritten: str, mentions: Sequence[Any]) -> list[tuple[str, str]]:
    """(value, the part asked of it alone) for each value after "each of" ("har ek"), when two
    or more of the part's linked values stand there; else []."""
    m = re.search(r"\beach of ((?:(?!\b(?:from|in|on|for|with|by|using)\b)[^?.!])+)", rewritten, re.I)
    if m is None:
        return []
    listed = [str(x.value) for x in mentions if str(x.text).lower() in m[1].lower()
              or str(x.value).lower() in m[1].lower()]
    values = list(dict.fromkeys(listed))
    if len(values) < 2:
        return []
    return [(v, f"{rewritten[:m.start()]}{v} {rewritten[m.end():].lstrip()}".strip()) for v in values]


def each_note(agent: AgenticAgent, run: Run, toolbox: AgenticToolbox, part: str, rewritten: str,
              each: list[tuple[str, str]], place: tuple[int, int], roles: ChatRoles) -> SubQuestion:
    """One note search per value, in one record: every note found, each under its value, and
    the values no note answered said as such."""
    round_, number = place
    found, lines = [], []
    for value, asked in each:
        out = agent._run_tool(run, toolbox, "search_notes", {"query": asked}, asked, Usage(), roles)
        sub = agent._sub_question(part, asked, "search_notes", out, round_, number, agent.link(asked))
        if sub.found and not sub.answer and agent.writes_answer:
            sub.answer = agent._write(run, sub)
        found += [sub] if sub.found else []
        lines.append(f"{value}: {sub.answer if sub.found else NOT_ANSWERED[language_of(part)] + '.'}")
    if not found:
        first = agent._sub_question(part, rewritten, "search_notes", out, round_, number, [])
        return replace(first, answer=" ".join(lines))
    return replace(found[0], rewritten=rewritten, answer=" ".join(lines),
                   rows=[r for s in found for r in s.rows[:1]], values=[v for s in found for v in s.values],
                   mentions=[m for s in found for m in s.mentions])
