"""One question of the agentic agent, as it goes: its parts, the critic's rounds, its steps.

Introduced in notebook 12. Everything one question needs lives in a `Run` made for that
question, so nothing leaks from one question into the next (the book's `answers=[]` default
argument did); an `AgenticResult` is what the agent returns: a `Result` with the parts.

>>> run = Run("Who is Payal?")
>>> run.sub_questions, run.found()
([], [])
"""
from __future__ import annotations

import re

import html
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from course.agents.tools import ToolResult
from course.foundation.language import WORDS, points_at_a_person, question_key
from course.llm.base import Usage
from course.llm.offline.chain import traversed
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.words import CLEARS, asks_for_people_by_noun
from course.pipeline.linking import Mention
from course.pipeline.results import (CallRecord, Status, Step, StepKind, printable,
                                    rows_table, text_table)


@dataclass
class SubQuestion:
    """One part: as asked, as rewritten, the tool the router chose, what it found."""

    question: str
    rewritten: str
    tool: str
    arguments: dict[str, Any]
    rows: list[list[Any]]
    answer: str
    columns: list[str] = field(default_factory=list)
    cypher: str | None = None
    status: Status = "answered"
    error: str | None = None
    found: bool = False
    round: int = 0                # 0: from the question; 1, 2: asked for by the critic
    part: int = 0                 # which part of the answer it fills
    mentions: list[Mention] = field(default_factory=list, repr=False)
    values: list[tuple[str, Any]] = field(default_factory=list, repr=False)  # graph values in its rows
    scope: str | None = None      # what it answered, when the critic found it asked for more
    source: str = ""              # where a found part came from: "note N17", "club_members", ...
    parameters: dict[str, Any] = field(default_factory=dict, repr=False)   # its query's

    def contract(self) -> dict[str, Any]:
        """The `--json` record: {question, rewritten, tool, arguments, rows, answer, source}."""
        from course.pipeline.results import plain

        return {"question": self.question, "rewritten": self.rewritten, "tool": self.tool,
                "arguments": self.arguments, "rows": [[plain(v) for v in r] for r in self.rows],
                "answer": self.answer, "source": self.source}

    def names_read_in(self) -> list[str]:
        """The names its query fixed that its words do not say, when they point ("that topic",
        "it") and nothing rewrote them: what the pointing was read as, which the answer says.

        >>> SubQuestion("what comes before that topic?", "what comes before that topic?", "text2cypher",
        ...             {}, [], "", cypher="MATCH (c:Topic {name: 'Paging'})<--(t) RETURN t").names_read_in()
        ['Paging']
        """
        words = set(question_key(self.question).split())
        if self.rewritten != self.question or not words & WORDS.referring or not self.cypher:
            return []
        fixed = re.findall(r"\(\w+:\w+ \{\w+: '((?:[^'\\]|\\.)+)'\}\)", self.cypher)
        return [n for n in dict.fromkeys(fixed) if n.lower() not in self.question.lower()]

    def named_its_pointer(self) -> bool:
        """Was a pointing word of the question ("uske", "her", "it") read as a name?"""
        said, read = set(question_key(self.question).split()), set(question_key(self.rewritten).split())
        return bool(said & WORDS.referring - read)


@dataclass
class CriticRound:
    round: int
    complete: bool
    missing: list[str]


@dataclass
class Run:
    """The state of one question; a new one for every question."""

    question: str
    parts: list[str] = field(default_factory=list)
    sub_questions: list[SubQuestion] = field(default_factory=list)
    critic: list[CriticRound] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    llm_calls: int = 0
    on_step: Callable[[str, Any], None] | None = None   # told each step as it is taken

    def step(self, role: StepKind, text: str, usage: Usage, provider: str, model: str,
             call: CallRecord | None = None, *, calls: int = 1) -> Step:
        """Record one step of a role; it made `calls` LLM calls (text2cypher makes several)."""
        step = Step(len(self.steps) + 1, f"{role}: {text}", [call] if call else [], provider,
                    model, usage.input_tokens, usage.output_tokens, usage.latency_ms, 0.0,
                    kind=role)
        self.steps.append(step)
        self.llm_calls += calls
        if self.on_step is not None:
            self.on_step("step", step)
        return step

    def found(self) -> list[tuple[str, str]]:
        return [(s.rewritten, s.answer) for s in self.sub_questions if s.found]

    def checkpoint(self) -> tuple[list[str], list[SubQuestion], list[CriticRound]]:
        """The parts, what they found and the critic's rounds: put back when asking again finds
        nothing."""
        return self.parts, self.sub_questions, self.critic


@dataclass
class AgenticResult(ToolResult):
    """A `Result` with the parts, the critic's rounds and every step."""

    agent: str = "agentic"
    sub_questions: list[SubQuestion] = field(default_factory=list)
    critic: list[CriticRound] = field(default_factory=list)
    asked_as: str = ""    # the message a follow-up asked again ("and Aarav's?": the one before, of him)

    def footer(self) -> str:
        rounds = len(self.critic)
        return (f"[{self.status}; {printable(self.provider or 'no provider')}; agentic: "
                f"{len(self.sub_questions)} part{'s' * (len(self.sub_questions) != 1)}, "
                f"{self.llm_calls} LLM call{'s' * (self.llm_calls != 1)}, critic: "
                f"{rounds} round{'s' * (rounds != 1)}{self.rows_only_note()}]")

    def rows_text(self) -> list[str]:
        """Rows only: each part of the answer, its tool, and its rows as a table (or its error)."""
        lines = []
        for n, s in enumerate(best_parts(self.sub_questions), 1):
            lines.append(f"{n}. {printable(s.rewritten)} ({printable(s.tool or 'no tool')})")
            shown = (text_table(s.columns, s.rows) if s.found else
                     "Error: " + " ".join(printable(s.error or "nothing found").split()))
            lines += ["   " + line for line in shown.split("\n")]
        return lines or super().rows_text()

    def rows_html(self) -> str:
        if self.answer is not None:
            return super().rows_html()
        esc = lambda value: html.escape(printable(value))  # noqa: E731
        return "\n".join(f"<p>{esc(s.rewritten)} ({esc(s.tool)})</p>" + (
            rows_table(s.columns, s.rows) if s.found else
            f"<p><b>Error:</b> {esc(s.error or 'nothing found')}</p>")
            for s in best_parts(self.sub_questions))

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["sub_questions"] = [s.contract() for s in self.sub_questions]
        if self.answer is None:   # rows only: no part has an answer written either
            for part in data["sub_questions"]:
                part["answer"] = None
        data["critic"] = [asdict(c) for c in self.critic]
        return data


def source_of(tool: str, columns: Sequence[str], rows: Sequence[Sequence[Any]],
              cypher: str | None) -> str:
    """Where a part's answer came from, in a few words: the note its first row names, the
    reviewed template, the relationships a written query follows, or the earlier parts.

    >>> source_of("search_notes", ["note", "text"], [["N17", "..."]], None)
    'note N17'
    >>> source_of("text2cypher", ["name"], [], "MATCH (a)-[:FRIENDS_WITH]-(b)-[:STUDIES]->(s) RETURN s")
    'a query over FRIENDS_WITH, STUDIES'
    """
    if "note" in columns and rows:
        return f"note {rows[0][list(columns).index('note')]}"
    if tool == "answer_given":
        return "the parts answered before"
    if tool != "text2cypher":
        return tool
    follows = ", ".join(sorted(traversed(cypher or "")))
    return f"a query over {follows}" if follows else "a query"


def best_parts(sub_questions: Sequence[SubQuestion]) -> list[SubQuestion]:
    """Each part of the answer once, in order: its last attempt that found something, else
    its last attempt."""
    by_part: dict[int, list[SubQuestion]] = {}
    for s in sub_questions:
        by_part.setdefault(s.part, []).append(s)
    return [next((s for s in reversed(subs) if s.found), subs[-1])
            for _, subs in sorted(by_part.items())]


def set_apart(rows: list[list[Any]], named: Sequence[Any]) -> list[list[Any]]:
    """The rows whose first cell is none of the values `named` (mentions, by their `value`):
    "Which clubs is Payal in, and who else is in the Coding Club?" sets Payal apart.

    >>> from course.pipeline.linking import Mention
    >>> set_apart([["Payal", "Member"], ["Aarav", "Member"]], [Mention("payal", "Student", "name", "Payal", 1.0)])
    [['Aarav', 'Member']]
    """
    values = {str(m.value) for m in named}
    return [row for row in rows if not (row and str(row[0]) in values)]


def without_setting_apart(question: str) -> str:
    """The question less its "else" ("who else studies DSA?": who studies DSA), for the rows
    from which what was said before is then set apart.

    >>> without_setting_apart("and who else studies DSA?")
    'and who studies DSA?'
    """
    return re.sub(rf"\s+\b(?:{'|'.join(sorted(WORDS.setting_apart))})\b", "", question)


def leans_on_before(part: str, mentions: Sequence[Mention]) -> bool:
    """Does a later part name nothing of its own but "the" thing the question spoke of before
    ("..., and how do u fix the table?", "..., and what structure should the search use?")?
    Its topic is then what the ask before it is about: any answer would be about something else
    ("she" after one person named is that person).

    >>> leans_on_before("and how do you fix the table?", []), leans_on_before("what is a page fault?", [])
    (True, False)
    """
    return not mentions and re.search(r"\bthe\s+[a-z]", part, re.I) is not None


# a part that asks for every one of a kind, or a count of them, says so
_EVERY = re.compile(r"\b(?:all|every|each|total|how many|sab|saare|saari|kitne|kitni)\b", re.I)


def answers_something_else(toolbox: Any, run: Run, part: str, mentions: Sequence[Mention], out: Any) -> bool:
    """Is a later part's answer (a `ToolOutput`), after parts that found nothing, about something
    else than what it leans on?
    - A note, for a part that names only "the" thing the asks before it spoke of
      (`leans_on_before`), unless the whole question clears the evidence bar for that same
      note ("..., and what data structure should the search use?": the note on indexes).
    - Every node of a kind, for a part that names nothing and asks for no "all" ("Coding Club
      ka squad kya hai? members list": every student; "...? and project ka status kya hai":
      every project's): the ones the ask before meant are unknown.
    `toolbox`: an `AgenticToolbox`."""
    if not run.sub_questions or run.found() or not out.found:
        return False
    if out.tool == "text2cypher":
        cypher = out.cypher or ""
        return not mentions and not _EVERY.search(part) \
            and "WHERE" not in cypher and "{" not in cypher
    if not leans_on_before(part, mentions):
        return False
    whole = toolbox.evidence(run.question)
    best = re.search(r"best note is (\S+)", whole)
    return best is None or best[1] != str(out.rows[0][0]) or CLEARS not in whole


def set_apart_found(out: Any, named: Sequence[Mention]) -> None:
    """`set_apart` on a tool's output (a `ToolOutput`), its answer to be written again when
    that leaves a row out ("who else studies DBMS?" after Aarav: Payal, not "Payal and Aarav")."""
    kept = set_apart(out.rows, named)
    if kept != out.rows:
        out.rows, out.answer = kept, ""


def remembered(mentions: Sequence[Mention], parts: Sequence[SubQuestion]) -> list[Mention]:
    """What memory keeps of a question's names: what the rewritten parts named, the latest
    first ("she" -> Payal), then the question's own. A part a note answered was about the note's topic, not a name
    of its kind said in passing ("which traversal gives the shortest path in a graph": BFS, not
    Graphs), so that topic comes first: the next "its" is BFS's.

    >>> graphs = Mention("graph", "Concept", "name", "Graphs", 1.0)
    >>> part = SubQuestion("q", "q", "search_notes", {}, [["N13"]], "", found=True, values=[("Concept", "BFS")])
    >>> [m.value for m in remembered([graphs], [part])]
    ['BFS']
    """
    # the latest part's names first: "Aarav ke friends kaun hai aur woh kis club mein hai?" ends
    # on Payal ("woh"), whom the next "uska" means, not Aarav
    kept, known = [], set()
    def one_of_a_label(part: SubQuestion) -> list[Mention]:   # ("each of Sneha and Aarav": not "she")
        return [m for m in part.mentions if len({n.value for n in part.mentions if n.label == m.label}) == 1]
    for m in [*(m for s in reversed(parts) for m in one_of_a_label(s)), *mentions]:
        if (m.label, m.value) not in known:
            known.add((m.label, m.value))
            kept.append(m)
    for s in parts:
        if s.tool == "search_notes" and s.found and s.values:
            label, value = s.values[0]
            kept = [Mention(str(value), label, "name", value, 1.0)] + [m for m in kept if m.label != label]
    return kept


def listed_before(run: Run, number: int) -> SubQuestion | None:
    """The latest earlier part that found a list: rows from the graph, not a note's text and
    not numbers already counted ("the subject with the most students, and how many is that?":
    the students counted, not the subjects tied)."""
    for s in reversed(run.sub_questions):
        if s.part < number and s.found and s.rows:
            counted = len(s.rows) == 1 and len(s.rows[0]) == 1 and isinstance(s.rows[0][0], int | float) \
                or "count(" in (s.cypher or "").lower()
            return None if counted or s.tool == "search_notes" else s
    return None


def part_of(run: Run, missing: str) -> int | None:
    """Which part a critic's missing question asks again, or None for a new part."""
    for s in run.sub_questions:
        if question_key(missing) in (question_key(s.rewritten), question_key(s.question)):
            return s.part
    return None


def one_person_named(part: str, before: Sequence[str], link: Callable[[str], Sequence[Mention]]) -> bool:
    """Does the part point back only with a person's pronoun ("and on which project is she
    working?") after earlier parts that named one person, and asked for no people by a noun
    ("which of her friends ...": "she" is one of them)? Then it points at that person."""
    named = {m.value for p in before for m in link(p) if m.label == default_lexicon().person}
    return points_at_a_person(part) and len(named) == 1 and not any(map(asks_for_people_by_noun, before))
