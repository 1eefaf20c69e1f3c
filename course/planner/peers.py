"""Study partners (weak in the same subject) and mentors (strong in it), from the graph.

Introduced in notebook 14. Each suggestion comes with the graph fact behind it.

>>> print(peers(db, "Sneha"))
Sneha's weak subjects: Computer Networks (B).
Study partners (weak in it too):
  Rahul: B+ in Computer Networks, like your B
Mentors (strong in it): none in the graph.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from course.foundation.graphs import require_data_graph
from course.foundation.db import Database
from course.planner.lookup import Named, Record, find_student, find_subject
from course.planner.weak_spots import Grade, grade_scale, grades, is_strong, is_weak


@dataclass(frozen=True)
class Peer(Record):
    """A suggested study partner (weak in the same subject) or mentor (strong in it)."""

    student: str
    kind: str          # "partner" or "mentor"
    subject: str
    reason: str        # the graph fact: "Rahul: B+ in Computer Networks, like your B"


@dataclass
class Peers:
    student: Named
    weak: list[Grade]
    peers: list[Peer]
    subject: str | None = None   # asked for one subject: its name
    grade: str | None = None     # the student's grade in it (None: not studied)

    def to_dict(self) -> dict[str, Any]:
        """The `course peers --json` record: {student, peers: [{student, kind, subject, reason}]}."""
        return {"student": self.student.name, "peers": [p.to_dict() for p in self.peers]}

    def summary(self) -> str:
        who = self.student.name
        if self.subject is not None and not self.peers:
            why = (f"{who} is strong in {self.subject} ({self.grade})" if self.grade else
                   f"nobody studies {self.subject} with a grade to compare")
            return f"No study partner or mentor for {self.subject}: {why}."
        if self.subject is None and not self.weak:
            return f"{who} has no weak subject, so no study partner or mentor is suggested."
        lines = ([f"{who}'s weak subjects: " + ", ".join(f"{g.subject} ({g.grade})" for g in self.weak) + "."]
                 if self.subject is None else [f"{who} and {self.subject} ("
                                               + (f"{self.grade}" if self.grade else "not studied yet") + "):"])
        for kind, title in (("partner", "Study partners (weak in it too)"),
                            ("mentor", "Mentors (strong in it)")):
            found = [p for p in self.peers if p.kind == kind]
            lines.append(f"{title}:" + ("" if found else " none in the graph."))
            lines += [f"  {p.reason}" for p in found]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


_CLASSMATES = """
MATCH (me:Student {id: $id})-[mine:STUDIES]->(s:Subject)<-[theirs:STUDIES]-(other:Student)
WHERE other <> me
OPTIONAL MATCH (me)-[f:FRIENDS_WITH]-(other)
RETURN s.code AS code, other.name AS name, theirs.grade AS grade, count(f) > 0 AS friends
ORDER BY code, name
"""
_STUDENTS_OF = """
MATCH (other:Student)-[theirs:STUDIES]->(s:Subject {code: $code})
WHERE other.id <> $id
OPTIONAL MATCH (:Student {id: $id})-[f:FRIENDS_WITH]-(other)
RETURN s.code AS code, other.name AS name, theirs.grade AS grade, count(f) > 0 AS friends
ORDER BY name
"""


def peers(db: Database, student: str, subject: str | None = None) -> Peers:
    """Study partners (weak in one of the student's weak subjects) and mentors (strong in it).

    With `subject`, for that subject only: also when the student does not study it yet (then
    everyone who does is compared), none when the student is strong in it.

    >>> [p.reason for p in peers(db, "Sneha").peers]
    ['Rahul: B+ in Computer Networks, like your B']
    >>> [p.reason for p in peers(db, "Sneha", "dbms").peers]
    ['Payal: A+ in DBMS, which you do not study yet (already friends)', 'Aarav: A in DBMS, which you do not study yet']
    """
    require_data_graph(db.graph_name)
    who, scale = find_student(db, student), grade_scale()
    mine = grades(db, who, scale)
    weak = [g for g in mine if is_weak(g.grade, scale)]
    asked: Grade | None = None
    if subject is None:
        compared = {g.code: g for g in weak}
        rows = db.run(_CLASSMATES, {"id": who.key}).rows
    else:
        what = find_subject(db, subject)
        asked = next((g for g in mine if g.code == what.key), Grade(what.name, what.key, ""))
        if asked.grade and not is_weak(asked.grade, scale):
            return Peers(who, weak, [], asked.subject, asked.grade)
        compared = {what.key: asked}
        rows = db.run(_STUDENTS_OF, {"id": who.key, "code": what.key}).rows
    found = [p for code, name, grade, friends in rows if code in compared
             and (p := _peer(name, grade, compared[code], friends, scale)) is not None]
    ranked = sorted(found, key=lambda item: (item[0], item[1].subject, item[1].student))
    return Peers(who, weak, [p for _, p in ranked], asked.subject if asked else None,
                 (asked.grade or None) if asked else None)


def _peer(name: str, grade: str, mine: Grade, friends: bool, scale: list[str]) -> tuple[int, Peer] | None:
    """A classmate as a partner (weak too), a mentor (strong: ranked by grade) or neither."""
    friend = " (already friends)" if friends else ""
    yours = f"like your {mine.grade}" if mine.grade else "which you do not study yet"
    if is_weak(grade, scale):
        return 0, Peer(name, "partner", mine.subject, f"{name}: {grade} in {mine.subject}, {yours}{friend}")
    if is_strong(grade, scale):
        where = f"where you have {mine.grade}" if mine.grade else "which you do not study yet"
        return 1 + scale.index(grade), Peer(name, "mentor", mine.subject,
                                            f"{name}: {grade} in {mine.subject}, {where}{friend}")
    return None
