"""Agentic RAG: a retriever router, a query updater and an answer critic.

The design of the article "GraphRAG: Bridging LLMs and Knowledge Graphs" (after Essential
GraphRAG, chapter 5).

Introduced in notebook 12. One question, in four moves:

1. the **query updater** splits it into atomic parts ("Who is best at DBMS, and which clubs
   is she in?" -> two parts) and, before each later part, rewrites it with what the earlier
   parts found ("which clubs is she in?" -> "which clubs is Payal in?");
2. the **retriever router** picks one tool for each part by function calling: a reviewed
   template (`course.agents.agentic_tools.AGENTIC_TOOLS`), `search_notes`, `text2cypher`, `answer_given`;
3. the **answer critic** reads the question and every part's results and says complete, or
   names what is missing as new parts, which go back to the router (at most `max_rounds`);
4. the answer covers every part in order, names where each part came from ("(from note
   N17)", "(from best_in_subject)", "(from a query over FRIENDS_WITH, STUDIES)": each
   `SubQuestion.source`), and says which part could not be answered.

Each move is one `chat()` call (the router with the tools, the updater and the critic
answering JSON: `course.agents.agentic_roles`), whatever the provider: with no key the
offline provider reads the same prompts and answers by its rules (`course.llm.offline.roles`).
Everything one question needs lives in a `Run` made for it, so nothing leaks from one question
into the next (the book's `answers=[]` default argument did).

>>> from course import make_llm
>>> agent = AgenticAgent(db, make_llm("offline"))
>>> result = agent.answer("Who is best at DBMS, and which clubs is she in?")
>>> [(p.rewritten, p.tool) for p in result.sub_questions]
[('Who is best at DBMS?', 'best_in_subject'), ('which clubs is Payal in?', 'text2cypher')]
>>> result.critic[0].complete
True
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from course.agents.agentic_roles import ChatRoles
from course.agents.each_note import each_note, explained_each
from course.agents.agentic_run import (AgenticResult, CriticRound, Run, SubQuestion, best_parts, listed_before,
                                       answers_something_else, one_person_named, part_of, remembered,
                                       set_apart_found, source_of, without_setting_apart)
from course.agents.agentic_tools import AGENTIC_TOOLS, Tool, AgenticToolbox, ToolOutput, search_notes
from course.agents.asked_again import message_again
from course.agents.cost import add_up
from course.agents.named_in_notes import note_question
from course.foundation.db import Database, Rows
from course.foundation.definitions import unnamed
from course.foundation.language import (WORDS, asks_who_unnamed, counts_what_came_before,
                                       depends_on_context, each_alone, follows_on, points_back,
                                       points_by_place, points_elsewhere, question_key, sets_apart)
from course.foundation.scenes import the_ask_alone
from course.llm.base import LLM, Usage
from course.llm.errors import LLMError
from course.pipeline import prompts
from course.pipeline.agent import Agent, ContextFor, Memory
from course.pipeline.results import REFUSALS, CallRecord, Result
from course.pipeline.schema import GraphSchema

DEFAULT_ROUNDS = 2
MAX_PARTS = 5         # parts of one question answered (and missing parts asked per round)
TOO_MANY = "Only the first {n} parts of a question are answered: ask this one on its own."
UNANSWERED = {"en": "I could not answer this part", "hi": "Yeh hissa answer nahi ho paaya"}
NOTHING_BEFORE = ("it points back to what the question asked before, and that found nothing: "
                  "ask it again with the name of what you mean")
UNGROUNDED = "what it found does not cover {word!r}, which the question names"


class AgenticAgent(Agent):
    """Answers a question part by part with a router over tools, an updater and a critic.

    Notebook 05's `Agent` checks the question, links its names and keeps the memory; this
    agent brings another `_loop`, as notebook 11's `ToolAgent` does.
    """

    result_type = AgenticResult

    def __init__(self, db: Database, llm: LLM | None = None, *, memory: Memory | None = None,
                 critic: bool = True, max_rounds: int = DEFAULT_ROUNDS,
                 tools: Sequence[Tool] = AGENTIC_TOOLS,
                 search: Callable[[Database, str], Rows] = search_notes,
                 timeout_ms: int = 5_000, max_rows: int = 200, schema: GraphSchema | None = None,
                 roles: ChatRoles | None = None, prompt: str | None = None,
                 examples: prompts.ExampleSource = None, answer_prompt: str | None = None,
                 answer: bool = True, context_for: ContextFor | None = None,
                 simplify: Callable[[str], str | None] | None = None) -> None:
        """`prompt`, `examples` and `answer_prompt` are text2cypher's (its notebook-05 `Agent`
        takes them); `answer_prompt` also writes each part's answer from its rows.
        `answer=False`: rows only, each part's rows and no call that writes an answer.
        `simplify`: a part text2cypher refused (or found nothing for), without a word that means
        nothing there, or None (the learner's agent gives `course.retrieval.filler.filler_dropper`)."""
        if max_rounds < 0:
            raise ValueError("max_rounds must be 0 or more")
        super().__init__(db, llm, memory=memory, timeout_ms=timeout_ms, max_rows=max_rows,
                         schema=schema, prompt=prompt, examples=examples,
                         answer_prompt=answer_prompt, answer=answer, context_for=context_for)
        self.roles = roles or ChatRoles(self.llm)   # each role one call to the model
        self.critic_on, self.max_rounds = critic, max_rounds
        self.tools, self.search, self.simplify = tuple(tools), search, simplify
        # notebook 12's agent and the learner's (more tools) answer apart: the cache keeps them so
        self.answered_by = f"agentic[{','.join(tool.name for tool in self.tools)}]"
        self.last: Run | None = None

    def _loop(self, result: Result) -> None:
        """This question's own state (a `Run`), then its parts, their tools and the critic."""
        assert isinstance(result, AgenticResult)
        self.last = run = Run(result.question, on_step=self.on_step)
        self._answer(run, result)
        _finish(result, run)
        if result.status == "out_of_scope":   # "who do you mean?" when it points at nothing said
            result.refuse("out_of_scope", context=self.context(result.question, result.mentions),
                          labels=list(self.schema.labels), owned=self.schema.property_names())

    def _answer(self, run: Run, result: AgenticResult) -> None:
        roles, context = self.roles, self.context(result.question, result.mentions)
        toolbox = AgenticToolbox(self.db, self.llm, self.schema, self.tools, self.search, context,
                          self.timeout_ms, self.max_rows, self._pipeline())
        result.asked_as = message_again(result.question, getattr(self.memory, "several_asks", ""), self.link)
        run.parts, usage = roles.split(result.asked_as or result.question, context)
        run.step("updater", f"split into {len(run.parts)} part(s): {run.parts}", usage, roles.name, roles.model)
        self._parts_and_review(run, roles, toolbox, result, context)
        note = self._one_note(run, result.question)
        if note is not None:   # asked again whole, kept only when a note answers the whole
            run.step("router", f"note {note} answers the whole question, and no part points to "
                     "another: asked whole", Usage(), "search", "evidence", calls=0)
            kept, run.parts, run.sub_questions, run.critic = run.checkpoint(), [result.question], [], []
            self._parts_and_review(run, roles, toolbox, result, context)
            if not any(s.found and s.tool == "search_notes" for s in run.sub_questions):
                run.parts, run.sub_questions, run.critic = kept

    def _parts_and_review(self, run: Run, roles: ChatRoles, toolbox: AgenticToolbox,
                          result: AgenticResult, context: str) -> None:
        for number, part in enumerate(run.parts):
            if number < MAX_PARTS:
                self._part(run, roles, toolbox, part, number, 0, context)
            else:   # a bound, like the tool loop's step cap: said, never silently dropped
                run.sub_questions.append(SubQuestion(
                    question=part, rewritten=part, tool="", arguments={}, rows=[],
                    answer=TOO_MANY.format(n=MAX_PARTS), status="failed",
                    error=TOO_MANY.format(n=MAX_PARTS), part=number))
        for round_ in range(1, self.max_rounds + 1 if self.critic_on else 1):
            asked = self._review(run, roles, toolbox, result, round_)
            if not asked:
                break
            for missing, number in asked:
                self._part(run, roles, toolbox, missing, number, round_, context)

    def _one_note(self, run: Run, question: str) -> str | None:
        """The note that answers, whole, a question whose parts left one unanswered, or None:
        "Which traversal finds the fewest hops, and what does it keep track of?" is one question
        about one note, whose second part, split, names nothing (one part reworded may lose it too:
        "the router ..., how does it pick ...?"). When no part was answered by the graph, the
        whole question clears the search's bar, and no part that stands alone (no "it") clears it
        for another note, nor is a part left unanswered a question of the graph's ("and uske
        pehle kya padhna chahiye?"), the question is asked again whole."""
        clear_note = getattr(self.search, "clear_note", None)
        answered = {s.part for s in run.sub_questions if s.found}
        if clear_note is None or run.parts == [question] or answered >= set(range(len(run.parts))) \
                or any(s.found and s.tool != "search_notes" for s in run.sub_questions):
            return None
        note, unanswered = clear_note(self.db, question), [s.rewritten for s in run.sub_questions if not s.found]
        if note is None or any(clear_note(self.db, part) not in (None, note) for part in run.parts
                               if not points_back(part)) \
                or not all(note_question(self.db, q) for q in unanswered):
            return None
        return str(note)

    def _properties(self) -> dict[str, list[str]]:
        """What each kind of thing and each link has, for the updater ("its status": a
        project's; "their grades" after "Who studies DBMS?": in DBMS)."""
        return self.schema.owners()

    def _pipeline(self) -> dict[str, Any]:
        """What text2cypher's notebook-05 Agent is given of this agent's own settings."""
        return {"prompt": self.prompt, "examples": self.examples,
                "answer_prompt": self.answer_prompt, "answer": self.writes_answer}

    def _review(self, run: Run, roles: ChatRoles, toolbox: AgenticToolbox,
                result: AgenticResult, round_: int) -> list[tuple[str, int]]:
        """One round of the critic: the missing questions still worth asking, with their part."""
        review, usage = roles.review(result.question, result.mentions, run)
        run.critic.append(CriticRound(round_, review.complete, review.missing))
        run.step("critic", "complete" if review.complete else f"missing {review.missing}",
                 usage, roles.name, roles.model)
        for part, text in review.narrowed.items():   # what a part really answered
            for s in run.sub_questions:
                if s.part == part and s.found:
                    s.scope = text
        for part, word in review.ungrounded.items():  # answered along a shorter chain: not answered
            for s in run.sub_questions:
                if s.part == part and s.found:
                    s.found, s.status, s.source = False, "failed", ""
                    s.error = s.answer = UNGROUNDED.format(word=word)
        asked, new = [], max((s.part for s in run.sub_questions), default=-1) + 1
        for missing in [] if review.complete else review.missing[:MAX_PARTS]:
            number = part_of(run, missing)   # the same part again, or a new part of the answer
            asked.append((missing, new if number is None else number))
            new += number is None
        return [(m, n) for m, n in asked if _untried(run, n, toolbox)]

    def _part(self, run: Run, roles: ChatRoles, toolbox: AgenticToolbox, part: str,
              number: int, round_: int, context: str) -> None:
        """Rewrite (a part that says what it does not name), route, run the tool, answer."""
        rewritten = part
        person = round_ == 0 and number > 0 and points_back(part) and one_person_named(
            part, run.parts[:number], self.link)   # (links only when it points)
        if round_ == 0 and number > 0 and not run.found() and points_back(part) and not person:
            # "and how does it ...?" after parts that found nothing: nothing for "it" to stand for
            run.sub_questions.append(SubQuestion(
                question=part, rewritten=part, tool="", arguments={}, rows=[], answer=NOTHING_BEFORE,
                status="out_of_scope", error=NOTHING_BEFORE, part=number))
            return
        listed = listed_before(run, number) if round_ == 0 and number > 0 else None
        if listed is not None and counts_what_came_before(part):
            # "how many is that?": arithmetic on a part's rows, not a search (nor the best note)
            rows = {tuple(map(repr, row)) for row in listed.rows}
            sub = SubQuestion(question=part, rewritten=part, tool="answer_given",
                              arguments={"count of part": listed.part + 1}, rows=[[len(rows)]],
                              answer="", columns=["count"], found=True, round=round_, part=number,
                              source=f"a count of what part {listed.part + 1} found")
            sub.answer = self._write(run, sub) if self.writes_answer else ""
            run.sub_questions.append(sub)
            return
        # a later part that names nothing leans on the parts before, answered or not ("and who is its head?")
        if round_ == 0 and (run.sub_questions or context or person) and (
                points_elsewhere(part) or follows_on(part) or depends_on_context(part, self.link(part))
                or number > 0 and not self.link(part)):
            rewritten, usage = roles.rewrite(part, self.link(part), run, context,
                                             self._properties())
            run.step("updater", f"rewrote {part!r} as {rewritten!r}", usage, roles.name, roles.model)
        mentions = self.link(rewritten)
        tried = [s.tool for s in run.sub_questions if s.part == number and not s.found]
        if points_by_place(rewritten):   # "explain the first one": its words are no topic to search
            tried.append("search_notes")
        if not self.writes_answer:   # rows only: a tool that gives no rows is no use
            tried.append("answer_given")
        offered = toolbox.specs(without=tried)
        evidence = toolbox.evidence(rewritten) if "search_notes" in toolbox.names(without=tried) else ""
        call, usage = roles.route(rewritten, mentions, offered, run, context, evidence)
        if call is None:    # no tool is left to try on this part
            run.step("router", f"no tool left for {rewritten!r}", usage, roles.name, roles.model)
            return
        tool, out = call.name, self._run_tool(run, toolbox, call.name, call.arguments, rewritten,
                                               usage, roles)
        if out.llm_calls:   # text2cypher's own calls (the pipeline writes Cypher, then answers)
            run.step("text2cypher", f"{out.llm_calls} call(s) of the notebook-05 agent",
                     Usage(out.input_tokens, out.output_tokens), self.llm.name, self.llm.model,
                     calls=out.llm_calls)
        refused = tool == "text2cypher" and out.status == "out_of_scope"
        empty = tool == "text2cypher" and out.found and not out.rows    # "I found nothing": a claim
        # ("who else ...?" alone: asked of all, what the parts before named set apart below)
        ask = without_setting_apart(rewritten) if (apart := refused and sets_apart(rewritten)) else rewritten
        simpler = self.simplify(ask) if (refused or empty) and self.simplify else None
        simpler = simpler or (ask if apart else None)
        if simpler is not None:   # refused for a word that means nothing here ("any idea", "yaar")
            again = self._run_tool(run, toolbox, "text2cypher", {"question": simpler}, simpler,
                                   Usage(), roles)
            if refused and again.found and again.rows:   # (nothing found is no claim of a simpler ask)
                out, rewritten, mentions = again, rewritten if apart else simpler, self.link(simpler)
            elif empty and again.rows:    # the ask alone finds what the whole did not: no claim
                out = out.unsure()
        # "when did each join?", "which of them ...": a part pointing at several found is no note's
        graph_found = any(s.found and s.tool != "search_notes" for s in run.sub_questions)
        said = question_key(simpler or part)     # (the ask's words, not its scene's)
        several = each_alone(rewritten) or set(said.split()) & WORDS.plural \
            or any(f" {words} " in f" {said} " for words in WORDS.all_of_them)     # ("those two")
        whether = bool(said) and said.split()[0] in WORDS.auxiliary   # ("are those two friends?": no note's)
        if refused and out.status == "out_of_scope" and not asks_who_unnamed(rewritten) \
                and not ((graph_found or whether and context) and several) \
                and "search_notes" in toolbox.names(without=tried):
            # text2cypher, then the notes (a note clearing the bar answers what no query could)
            for asked in (rewritten, *the_ask_alone(rewritten, simpler)):   # then without its scene
                notes = self._run_tool(run, toolbox, "search_notes", {"query": asked}, asked, Usage(), roles)
                if notes.found:
                    tool, out = "search_notes", notes
                    break
        if tool == "search_notes" and not out.found and "text2cypher" in toolbox.names(without=tried):
            # no note answers it: a query may ("What is Sneha's branch?"; "and her year?" reads it)
            query = self._run_tool(run, toolbox, "text2cypher", {"question": rewritten}, rewritten,
                                   Usage(), roles)
            if query.found:
                tool, out = "text2cypher", query
        if tool == "answer_given" and not run.found() and not context:
            out.status, out.answer = "failed", ""   # an answer that rests on nothing found
            out.error = "answer_given needs results found before it; nothing was found yet."
        if tool != "answer_given" and answers_something_else(toolbox, run, rewritten, mentions, out):
            out = out.set_aside(NOTHING_BEFORE)
        if sets_apart(rewritten):   # "and who else is in it?": not the ones the parts before named
            set_apart_found(out, [m for s in run.sub_questions for m in s.mentions] + self.link(rewritten))
        each = explained_each(rewritten, mentions) if tool == "search_notes" and out.found else []
        if each:     # "explain each of Threads and Processes": a note for each, not the first alone
            sub = each_note(self, run, toolbox, part, rewritten, each, (round_, number), roles)
        else:
            sub = self._sub_question(part, rewritten, tool, out, round_, number, mentions)
            if not sub.answer and self.writes_answer:
                sub.answer = self._write(run, sub)
        run.sub_questions.append(sub)

    def _run_tool(self, run: Run, toolbox: AgenticToolbox, name: str, arguments: dict[str, Any],
                  rewritten: str, usage: Usage, roles: ChatRoles) -> ToolOutput:
        """One tool call, kept as a router step with its record."""
        started = time.perf_counter()
        out = toolbox.run(name, arguments)
        record = CallRecord(name, arguments, out.error is None, out.error,
                            len(out.rows), 0, (time.perf_counter() - started) * 1000)
        step = run.step("router", f"{name} for {rewritten!r}", usage, roles.name,
                        roles.model, record)
        step.tools_ms = record.ms
        return out

    def _sub_question(self, part: str, rewritten: str, tool: str, out: ToolOutput, round_: int,
                      number: int, mentions: Sequence[Any]) -> SubQuestion:
        """The part's record, with the graph values its rows name (what "she" may stand for)."""
        answered = out.rows[:1] if tool == "search_notes" else out.rows   # (a note answer: its best note)
        found = out.found and out.status == "answered"
        status, error, answer = out.status, out.error, out.answer
        thing = unnamed(rewritten, answered) if found else None
        if thing is not None:   # "What is a splay tree?" answered by a text on trees: not answered
            found, status = False, "failed"
            error = answer = UNGROUNDED.format(word=thing)
        source = source_of(tool, out.columns, out.rows, out.cypher) if found else ""
        return SubQuestion(
            question=part, rewritten=rewritten, tool=tool, arguments=out.arguments,
            rows=out.rows, answer=answer, columns=out.columns, cypher=out.cypher,
            status=status, error=error, found=found, round=round_, part=number,
            mentions=list(mentions), values=self._values(answered) if found else [],
            source=source, parameters=out.parameters)

    def _values(self, rows: Sequence[Sequence[Any]]) -> list[tuple[str, Any]]:
        """(label, value) of the cells of the first rows that are graph values, in order."""
        values: list[tuple[str, Any]] = []
        for row in rows[:10]:    # "each of them" stands for all of them
            for cell in row:
                if isinstance(cell, str):
                    values += [(m.label, m.value) for m in self.link(cell) if m.value == cell][:1]
        return values

    def _write(self, run: Run, sub: SubQuestion) -> str:
        """A part's answer from its rows, by the answer prompt (a note's rows: quoted, named)."""
        if not sub.found:
            return sub.error or "Nothing found."
        system, user = prompts.answer_prompt(sub.rewritten, sub.cypher or "", sub.columns,
                                             sub.rows, system=self.answer_prompt)
        try:
            completion = self.llm.complete(user, system=system)
        except LLMError as exc:
            return f"(The answer could not be written: {exc.reason}) Rows: {sub.rows[:10]}"
        run.step("answer", sub.rewritten, completion.usage, completion.provider, completion.model)
        return completion.text.strip() or f"Rows: {sub.rows[:10]}"


def _untried(run: Run, number: int, toolbox: AgenticToolbox) -> bool:
    """Is there a tool this part has not failed with yet? (A refusal is never asked again.)"""
    subs = [s for s in run.sub_questions if s.part == number]
    if any(s.status in REFUSALS for s in subs):
        return False
    return bool(toolbox.specs(without=[s.tool for s in subs if not s.found]))


def _from(part: SubQuestion) -> str:
    """" (from note N17)", " (from club_members)": a found part names where it came from,
    unless its answer already does (a note's answer quotes it by its id)."""
    if not part.found or not part.source or part.source in part.answer:
        return ""
    return f" (from {part.source})"


def _finish(result: AgenticResult, run: Run) -> None:
    """The answer covers every part, in order; the result's own fields from the parts."""
    best, lines = best_parts(run.sub_questions), []
    for s in best:
        text = s.answer if s.found else f"{UNANSWERED[result.language]}: {s.rewritten} ({s.answer})"
        asked = (s.scope or s.rewritten) + ("" if (s.scope or s.rewritten)[-1:] in "?.!:" else ":")   # "List X:"
        if s.found and (read_in := s.names_read_in()):   # "that topic" the query read as a name
            asked = f"{asked[:-1].rstrip()} ({', '.join(read_in)}){asked[-1]}"
        # one part read with a name for its pronoun ("uske skills?": Rahul's) says how it was read
        read_as = len(best) == 1 and s.found and (s.rewritten != s.question and s.named_its_pointer()
                                                  or bool(s.names_read_in()))
        lines.append(text if len(best) == 1 and not read_as else f"{asked} {text}{_from(s)}")
    result.answer = "\n".join(lines)
    found = [s for s in best if s.found]
    first = found[0] if found else (best[0] if best else None)
    if first is not None:
        result.cypher, result.columns, result.parameters = first.cypher, first.columns, dict(first.parameters)
        alike = [s for s in found if s.columns == first.columns]   # asks of one kind ("the one
        result.rows = [r for s in alike for r in s.rows] if alike else first.rows   # before and after"): all
    if found:
        result.status = "answered"
    elif best and all(s.status == "out_of_scope" for s in best):
        result.refuse("out_of_scope")
    elif any(s.status == "blocked" for s in best):
        result.refuse("blocked")
    else:
        result.status = "failed"
        result.error = "; ".join(dict.fromkeys(s.error or "nothing found" for s in best))
    result.sub_questions, result.critic = run.sub_questions, run.critic
    result.stopped, result.llm_calls = "answer", run.llm_calls
    add_up(result, run.steps)
    result.mentions = remembered(result.mentions, run.sub_questions)
