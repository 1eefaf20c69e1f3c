"""The planner as two tools of the agentic agent, and the agent a learner gets.

Introduced in notebook 14. `study_plan` and `study_partners` are `Tool` entries like notebook
12's templates: the router reads their descriptions and example questions, fills the
arguments with linked values ("(a Student.name value)"), and the graph computes the answer
(`course.planner`); no model is needed to be right. `learner_agent(db, llm)` is notebook
12's agent with everything the later lessons add: these two tools, and notebook 13's search
behind `search_notes`.

>>> agent = learner_agent(db, make_llm("offline"))
>>> result = agent.answer("Sneha has 10 days to learn DBMS, make her a plan")
>>> result.sub_questions[0].tool, result.sub_questions[0].arguments
('study_plan', {'student': 'Sneha', 'subject': 'DBMS', 'days': 10})
>>> result.answer.splitlines()[2]
'Day 1: Normalization and Arrays.'
"""
from __future__ import annotations

from typing import Any

from course.agents.agentic import AgenticAgent
from course.agents.agentic_tools import AGENTIC_TOOLS, Tool, AgenticToolbox, ToolOutput
from course.agents.scene import in_turn, scene_asker
from course.foundation.db import Database
from course.foundation.errors import InvalidInput
from course.llm import make_llm
from course.llm.base import LLM
from course.pipeline.agent import Memory
from course.planner.peers import peers
from course.planner.plans import check_days, plan
from course.planner.writeup import write_offline
from course.retrieval.filler import filler_dropper
from course.retrieval.search import agent_search

DEFAULT_DAYS = 30
FREE_TOOLS = ("search_notes", "text2cypher", "answer_given")   # the router's last resorts


def _study_plan(box: AgenticToolbox, args: dict[str, Any]) -> ToolOutput:
    """The plan's days as rows (day, concepts, notes); the answer is the plan in words."""
    given = dict(args)
    days = given.get("days")
    try:
        found = plan(box.db, str(given["student"]), str(given["subject"]),
                     DEFAULT_DAYS if days is None else check_days(days))   # 0 days is refused
    except InvalidInput as exc:
        return ToolOutput("study_plan", given, status="failed", error=str(exc))
    linked = {"student": found.student.name, "subject": found.subject.name,
              "days": found.requested_days}
    rows = [[d.day, d.names(), [c.note for c in d.concepts]] for d in found.days]
    # Nothing to plan (every concept known) is an answer too: the plan says why.
    return ToolOutput("study_plan", linked, ["day", "concepts", "notes"], rows,
                      answer=write_offline(found))


def _study_partners(box: AgenticToolbox, args: dict[str, Any]) -> ToolOutput:
    """Partners and mentors as rows (student, kind, subject, reason), each with its graph fact."""
    given = dict(args)
    subject = given.get("subject") or None
    try:
        found = peers(box.db, str(given["student"]), None if subject is None else str(subject))
    except InvalidInput as exc:
        return ToolOutput("study_partners", given, status="failed", error=str(exc))
    linked = {"student": found.student.name, **({"subject": found.subject} if subject else {})}
    rows = [[p.student, p.kind, p.subject, p.reason] for p in found.peers]
    # No weak subject, so nobody to suggest: an answer that says why, not a gap.
    return ToolOutput("study_partners", linked, ["student", "kind", "subject", "reason"], rows,
                      answer=found.summary())


def _argument(text: str, label: str | None = None, kind: str = "string") -> dict[str, str]:
    return {"type": kind, "description": f"{text} (a {label}.name value)" if label else text}


PLANNER_TOOLS: tuple[Tool, ...] = (
    Tool("study_plan",
         "A day-by-day study plan for a student to learn a subject, from the prerequisite graph "
         "(what the student does not know yet, prerequisites first). e.g. '{student} has {days} "
         "days to learn {subject}, make a plan', 'Make {student} a {days} day plan for {subject}', "
         "'Plan {subject} for {student} in {days} days', 'Make a study plan for {student} to "
         "learn {subject}', '{student} ke liye {days} din ka {subject} plan banao', '{student} "
         "ko {days} din mein {subject} seekhna hai, plan banao'",
         {"type": "object", "properties": {
             "student": _argument("Who the plan is for", "Student"),
             "subject": _argument("The subject to learn", "Subject"),
             "days": _argument(f"At most this many days, 1 to 365 (default {DEFAULT_DAYS})",
                               kind="integer")},
          "required": ["student", "subject"]}, _study_plan),
    Tool("study_partners",
         "Study partners (students weak in the same subject) and mentors (students strong in it) "
         "for a student, each with the grade that is the reason. e.g. 'Find a study partner for "
         "{student}', 'Who can {student} study {subject} with?', 'Who can {student} ask for help "
         "with {subject}?', 'Find {student} a study "
         "partner for {subject}', '{student} ko {subject} ke liye study partner chahiye', "
         "'{student} ke study partners kaun hain?'",
         {"type": "object", "properties": {
             "student": _argument("Who is looking for partners", "Student"),
             "subject": _argument("Only for this subject (optional)", "Subject")},
          "required": ["student"]}, _study_partners),
)


def learner_tools() -> tuple[Tool, ...]:
    """Notebook 12's templates, the planner's two tools, then the last resorts (the router
    prefers an earlier tool when two fit equally well).

    >>> [t.name for t in learner_tools()][-5:]
    ['study_plan', 'study_partners', 'search_notes', 'text2cypher', 'answer_given']
    """
    templates = [t for t in AGENTIC_TOOLS if t.name not in FREE_TOOLS]
    return (*templates, *PLANNER_TOOLS, *[t for t in AGENTIC_TOOLS if t.name in FREE_TOOLS])


def learner_agent(db: Database, llm: LLM | None = None, *, memory: Memory | None = None,
                  **options: Any) -> AgenticAgent:
    """The agentic agent `course ask --agent agentic` gives a learner: every tool, and
    notebook 13's search behind search_notes when the graph has its text layer, and a part
    text2cypher refused asked again: its ask without the scene before it (`course.agents.scene`),
    else without a filler word (`course.retrieval.filler`)."""
    options.setdefault("simplify", in_turn(scene_asker(db), filler_dropper(db)))
    return AgenticAgent(db, llm or make_llm(), memory=memory, tools=learner_tools(),
                        search=agent_search(db), **options)


# The three agents a learner builds, by the name `course ask --agent` and the chat take.
AGENTS = {"pipeline": "the pipeline of notebook 05", "tools": "the tool loop of notebook 11",
          "agentic": "the agentic agent of notebooks 12-14"}


def make_agent(kind: str, db: Database, llm: LLM | None = None, *, memory: Memory | None = None,
               **options: Any) -> Any:
    """The pipeline, the tool loop or the learner's agentic agent, by name; `options` go to it.

    >>> type(make_agent("tools", db, make_llm("offline"))).__name__
    'ToolAgent'
    """
    from course.agents.tools import ToolAgent
    from course.pipeline.agent import Agent

    if kind not in AGENTS:
        raise InvalidInput(f"Unknown agent {str(kind)[:40]!r}: choose one of {', '.join(AGENTS)}.")
    llm = llm or make_llm()
    if kind == "tools":
        return ToolAgent(db, llm, memory=memory, **options)
    if kind == "agentic":
        return learner_agent(db, llm, memory=memory, **options)
    return Agent(db, llm, memory=memory, **options)


def agent_kind(agent: Any) -> str:
    """Which of the three an agent is ('pipeline' for any other notebook-05 `Agent`)."""
    from course.agents.tools import ToolAgent

    return ("agentic" if isinstance(agent, AgenticAgent) else
            "tools" if isinstance(agent, ToolAgent) else "pipeline")
