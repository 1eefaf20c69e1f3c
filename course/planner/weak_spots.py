"""Weak spots: a student's grades, the weak ones, a revision path, and memory's struggles.

Introduced in notebook 14. Grades are read on the scale of data/college/schema.yaml; the
concepts the student's stored conversations (graph memory, notebook 10) kept failing on
come with what to revise first.

>>> [(g.subject, g.grade) for g in weak_spots(db, "Sneha").weak]
[('Computer Networks', 'B')]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from course.foundation.dataset import load_schema
from course.foundation.db import Database
from course.foundation.errors import InvalidInput
from course.pipeline.graph_memory import memory_graph_name
from course.planner.concepts import COVERED_QUERY, ConceptGraph
from course.planner.lookup import Named, Record, find_student
from course.planner.order import order

FAILED_STATUSES = ("failed", "out_of_scope")   # a turn the conversation could not answer


def grade_scale() -> list[str]:
    """The STUDIES.grade scale of data/college/schema.yaml, best first.

    >>> grade_scale()
    ['A+', 'A', 'B+', 'B', 'C']
    """
    for rel in load_schema().get("relationships") or []:
        if rel.get("type") == "STUDIES":
            scale = ((rel.get("properties") or {}).get("grade") or {}).get("scale")
            if scale:
                return [str(g) for g in scale]
    raise InvalidInput("schema.yaml gives no scale for STUDIES.grade, so grades cannot be "
                       "compared: add `scale: [best, ..., worst]` to it.")


def is_weak(grade: str, scale: list[str]) -> bool:
    """Weak: the lower half of the scale (its middle grade included); B+ on A+ .. C.

    >>> [g for g in grade_scale() if is_weak(g, grade_scale())]
    ['B+', 'B', 'C']
    """
    return grade in scale and scale.index(grade) >= len(scale) // 2


def is_strong(grade: str, scale: list[str]) -> bool:
    """Strong: the upper half of the scale; A+ and A on A+ .. C."""
    return grade in scale and scale.index(grade) < len(scale) // 2


@dataclass(frozen=True)
class Grade(Record):
    subject: str
    code: str
    grade: str


@dataclass(frozen=True)
class Struggle(Record):
    """A concept the learner's stored conversations kept failing on, and what it rests on."""

    concept: str
    failures: int
    questions: list[str]
    revise_first: list[str]


@dataclass
class WeakSpots:
    """A student's grades worst first, the weak ones, a revision path, and memory's struggles."""

    student: Named
    scale: list[str]
    grades: list[Grade]
    revision_subject: Grade | None = None
    hardest: list[str] = field(default_factory=list)
    revision_path: list[str] = field(default_factory=list)
    struggles: list[Struggle] = field(default_factory=list)
    memory_user: str = ""

    @property
    def weak(self) -> list[Grade]:
        return [g for g in self.grades if is_weak(g.grade, self.scale)]

    def to_dict(self) -> dict[str, Any]:
        return {"student": self.student.name, "scale": self.scale,
                "grades": [g.to_dict() for g in self.grades],
                "weak": [g.to_dict() for g in self.weak],
                "revision": None if self.revision_subject is None else {
                    "subject": self.revision_subject.subject, "grade": self.revision_subject.grade,
                    "hardest": self.hardest, "path": self.revision_path},
                "struggles": [s.to_dict() for s in self.struggles]}

    def summary(self) -> str:
        who = self.student.name
        weak_from = [g for g in self.scale if is_weak(g, self.scale)]
        lines = [f"{who}'s grades, worst first: "
                 + ", ".join(f"{g.subject} {g.grade}" for g in self.grades) + "."]
        if not self.weak:
            lines.append(f"No weak subject (weak = {weak_from[0]} or below on the scale "
                         f"{' > '.join(self.scale)}).")
        else:
            lines.append(f"Weak ({weak_from[0]} or below): "
                         + ", ".join(f"{g.subject} ({g.grade})" for g in self.weak) + ".")
        if self.revision_subject is not None:
            lines.append(f"Revision path for {self.revision_subject.subject}, to its hardest "
                         f"concept{'s' * (len(self.hardest) != 1)} ({', '.join(self.hardest)}): "
                         + " -> ".join(self.revision_path) + ".")
        for s in self.struggles:
            first = f"; revise first: {', '.join(s.revise_first)}" if s.revise_first else ""
            lines.append(f"Kept failing in conversations: {s.concept} "
                         f"({s.failures} unanswered questions{first}).")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


_GRADES = """
MATCH (:Student {id: $id})-[r:STUDIES]->(s:Subject)
RETURN s.name, s.code, r.grade ORDER BY s.code
"""


def grades(db: Database, student: Named, scale: list[str]) -> list[Grade]:
    """The student's grades, worst first on the scale (grades off the scale last)."""
    rows = [Grade(name, code, str(grade)) for name, code, grade in db.run(_GRADES, {"id": student.key}).rows]
    return sorted(rows, key=lambda g: (-scale.index(g.grade) if g.grade in scale else 1, g.code))


def weak_spots(db: Database, student: str, *, user: str | None = None,
               at_least: int = 2) -> WeakSpots:
    """Weak subjects from the grades, a revision path for the weakest, and memory's struggles.

    The revision path leads to the weakest subject's hardest concepts (the deepest in the plan
    order): everything they rest on, prerequisites and parents, in learning order. Struggles
    are the concepts that `at_least` unanswered turns (failed, out of scope) of the learner's
    graph memory were about; the memory is user `user`, by default the student's id.

    >>> spots = weak_spots(db, "Sneha")
    >>> [(g.subject, g.grade) for g in spots.weak], spots.hardest
    ([('Computer Networks', 'B')], ['Firewalls'])
    """
    who, scale = find_student(db, student), grade_scale()
    found = WeakSpots(who, scale, grades(db, who, scale), memory_user=user or who.key)
    if found.weak:
        weakest = found.weak[0]
        graph = ConceptGraph.read(db)
        covered = [row[0] for row in db.run(COVERED_QUERY, {"code": weakest.code}).rows]
        depth = order(graph, covered).depth
        deepest = max((depth.get(c, 0) for c in covered), default=0)
        hardest = [c for c in covered if depth.get(c, 0) == deepest]
        path = order(graph, set(hardest) | graph.above(hardest, parents=True)).order
        found.revision_subject, found.hardest = weakest, [graph.name(c) for c in hardest]
        found.revision_path = [graph.name(c) for c in path]
        found.struggles = struggles(db, found.memory_user, at_least=at_least, graph=graph)
    else:
        found.struggles = struggles(db, found.memory_user, at_least=at_least)
    return found


_STRUGGLES = """
MATCH (:Session)-[:HAS_TURN]->(t:Turn)-[:ABOUT]->(e:Entity {label: 'Concept'})
WHERE t.status IN $statuses
WITH e.value AS concept, count(DISTINCT t) AS failures, collect(DISTINCT t.question) AS questions
WHERE failures >= $at_least
RETURN concept, failures, questions ORDER BY failures DESC, concept
"""


def struggles(db: Database, user: str, *, at_least: int = 2,
              graph: ConceptGraph | None = None) -> list[Struggle]:
    """Concepts `at_least` unanswered turns in user's graph memory were about (none: [])."""
    name = memory_graph_name(user)
    if name not in db.client.list_graphs():
        return []
    rows = db.select(name).run(_STRUGGLES, {"statuses": list(FAILED_STATUSES),
                                            "at_least": at_least}).rows
    graph = graph or ConceptGraph.read(db)
    by_name = {c.name: c.id for c in graph.concepts.values()}
    out = []
    for concept, failures, questions in rows:
        cid = by_name.get(concept)
        before = order(graph, graph.above([cid])).order if cid else []
        out.append(Struggle(concept, failures, sorted(questions), [graph.name(c) for c in before]))
    return out
