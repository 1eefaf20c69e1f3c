"""A study plan: what a student must learn for a subject, day by day.

Introduced in notebook 14. `plan(db, student, subject, days)` takes every concept the
subject covers that the student does not know, and every prerequisite of those the student
does not know, puts them in learning order (`course.planner.order`) and spreads them over
at most `days` days, each with the note that explains it.

>>> [day.names() for day in plan(db, "Sneha", "dbms", days=5).days][:2]
[['Normalization', 'Arrays', '1NF'], ['Linked Lists', '2NF']]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from course.foundation.graphs import require_data_graph
from course.foundation.db import Database
from course.foundation.errors import InvalidInput
from course.planner.concepts import COVERED_QUERY, KNOWN_QUERY, Concept, ConceptGraph
from course.planner.lookup import Named, Record, find_student, find_subject, shown
from course.planner.order import order, spread
from course.planner.picture import PlanPicture, draw

MAX_DAYS = 365


@dataclass(frozen=True)
class Known(Record):
    """A concept the plan leaves out because the student studies the subject that covers it."""

    concept: str
    subject: str


@dataclass(frozen=True)
class Unscheduled(Record):
    """A concept the plan could not place, and why (a prerequisite cycle)."""

    concept: str
    reason: str


@dataclass
class Day:
    day: int
    concepts: list[Concept]

    def names(self) -> list[str]:
        return [c.name for c in self.concepts]

    def to_dict(self) -> dict[str, Any]:
        """`{day, concepts: [names], notes: [{concept, note, text}]}`; note None: no note yet."""
        return {"day": self.day, "concepts": self.names(),
                "notes": [{"concept": c.name, "note": c.note, "text": c.text}
                          for c in self.concepts]}


@dataclass
class Plan:
    """A study plan: the days, what is known already, what could not be placed, and why."""

    student: Named
    subject: Named
    requested_days: int
    days: list[Day]
    known: list[Known]
    unscheduled: list[Unscheduled]
    cycles: list[list[str]] = field(default_factory=list)
    arrows: list[tuple[str, str]] = field(default_factory=list)   # (before, after) concept ids
    covered: int = 0          # how many concepts the subject covers
    studied: list[str] = field(default_factory=list)   # the subjects the student studies

    def concepts(self) -> list[Concept]:
        """Every scheduled concept, in plan order."""
        return [c for day in self.days for c in day.concepts]

    def order(self) -> list[str]:
        return [c.name for c in self.concepts()]

    def without_note(self) -> list[str]:
        """Scheduled concepts that no note explains (flagged in every view of the plan)."""
        return [c.name for c in self.concepts() if c.note is None]

    def to_dict(self) -> dict[str, Any]:
        """The `course plan --json` record: {student, subject, days, known, unscheduled}."""
        return {"student": self.student.name, "subject": self.subject.name,
                "days": [d.to_dict() for d in self.days],
                "known": [k.to_dict() for k in self.known],
                "unscheduled": [u.to_dict() for u in self.unscheduled]}

    def headline(self) -> str:
        """One sentence on what the plan is, or why there is nothing to plan."""
        who, what, n = self.student.name, self.subject.name, len(self.concepts())
        if n == 0 and not self.unscheduled:
            if not self.covered:
                return f"{what} covers no concept in the graph, so there is nothing to plan."
            if what in self.studied:
                return (f"{who} already studies {what}, so every concept it covers counts as "
                        f"known (known = covered by a subject the student studies): nothing to plan.")
            return (f"Every concept {what} covers is known to {who} already (known = covered by "
                    f"a subject {who} studies: {and_list(self.studied)}): nothing to plan.")
        used = len(self.days)
        free = self.requested_days - used
        text = (f"{who}'s plan for {what}: {n} concept{'s' * (n != 1)} over {used} "
                f"day{'s' * (used != 1)}")
        return text + (f" ({free} of the {self.requested_days} days left free)." if free else ".")

    def summary(self) -> str:
        """The plan as the command line prints it."""
        lines = [self.headline()]
        if self.known:
            lines.append("Known already (covered by a subject the student studies): "
                         + ", ".join(f"{k.concept} ({k.subject})" for k in self.known))
        for day in self.days:
            lines.append(f"Day {day.day}:")
            for c in day.concepts:
                note = _short(c.text) if c.text else "NO NOTE YET (flagged: ask for one)"
                lines.append(f"  {c.name} ({c.subject}): {note}")
        for loop in self.cycles:
            lines.append(f"Prerequisite cycle found: {' -> '.join(loop)}.")
        for u in self.unscheduled:
            lines.append(f"Not scheduled: {u.concept}: {u.reason}.")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def picture(self) -> "PlanPicture":
        """The plan drawn: days as columns, prerequisites as arrows (an SVG)."""
        return PlanPicture(draw(self))


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def check_days(days: Any) -> int:
    """The number of days, if it is one a plan can use (1 to 365); else InvalidInput.

    >>> check_days(30)
    30
    """
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise InvalidInput(f"The number of days must be a whole number from 1 to {MAX_DAYS}, "
                           f"such as 30; it is {shown(days)}.")
    return days


def plan(db: Database, student: str, subject: str, days: int = 30) -> Plan:
    """A day-by-day study plan for `student` to learn `subject` in at most `days` days.

    >>> p = plan(db, "Aarav", "Computer Networks", days=4)
    >>> [day.names() for day in p.days]   # doctest: +NORMALIZE_WHITESPACE
    [['Arrays', 'OSI Model', 'Linked Lists'], ['TCP/IP', 'Graphs', 'DNS'],
     ['Subnetting', 'HTTP'], ['Routing', 'Firewalls']]
    """
    require_data_graph(db.graph_name)
    days = check_days(days)
    who, what = find_student(db, student), find_subject(db, subject)
    graph = ConceptGraph.read(db)
    known = {cid: via for cid, via in db.run(KNOWN_QUERY, {"id": who.key}).rows}
    covered = [row[0] for row in db.run(COVERED_QUERY, {"code": what.key}).rows]
    targets = [c for c in covered if c not in known]
    before = graph.above(targets, stop=set(known)) if targets else set()
    wanted = sorted(set(targets) | (before - set(known)))
    found = order(graph, wanted)
    concepts = [graph.concepts[c] for c in found.order]
    skipped = sorted((set(covered) | before) & set(known))
    placed = set(found.order)
    return Plan(
        who, what, days,
        [Day(i + 1, chunk) for i, chunk in enumerate(spread(concepts, days))],
        [Known(graph.name(c), known[c]) for c in sorted(skipped, key=graph.name)],
        [Unscheduled(graph.name(c), why) for c, why in sorted(found.unscheduled.items())],
        found.cycles,
        sorted((b, c) for c in placed for b in graph.needs.get(c, set()) & placed),
        len(covered), sorted(set(known.values())),
    )


def and_list(items: list[str]) -> str:
    """`items` as a sentence lists them.

    >>> and_list(["Arrays", "Trees", "Graphs"])
    'Arrays, Trees and Graphs'
    """
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
