"""The concept graph: concepts and the two relationships between them, read once.

Introduced in notebook 14. PREREQUISITE_FOR says what a concept needs first, INCLUDES what
it is part of; the planner reads both in two queries and walks them in memory.

>>> ConceptGraph.read(db).name("C06")
'Indexing'
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from course.foundation.db import Database


@dataclass(frozen=True)
class Concept:
    """One concept: the subject that covers it and the note that explains it (None: no note)."""

    id: str
    name: str
    subject: str
    note: str | None = None
    text: str | None = None


_CONCEPTS = """
MATCH (c:Concept)
OPTIONAL MATCH (s:Subject)-[:COVERS]->(c)
OPTIONAL MATCH (n:Note)-[:EXPLAINS]->(c)
WITH c, s, n ORDER BY n.id
RETURN c.id, c.name, coalesce(s.name, c.area, ''), collect(n.id)[0], collect(n.text)[0]
"""
_LINKS = """
MATCH (a:Concept)-[r:PREREQUISITE_FOR|INCLUDES]->(b:Concept)
RETURN a.id, type(r), b.id
"""
COVERED_QUERY = "MATCH (:Subject {code: $code})-[:COVERS]->(c:Concept) RETURN c.id ORDER BY c.id"
KNOWN_QUERY = """
MATCH (:Student {id: $id})-[:STUDIES]->(s:Subject)-[:COVERS]->(c:Concept)
RETURN c.id, s.name
"""


@dataclass
class ConceptGraph:
    """Concepts and the two relationships between them, read once: the planner's input.

    `needs[c]` are the concepts c directly needs (PREREQUISITE_FOR into c); `parents[c]` the
    concepts that INCLUDE c.
    """

    concepts: dict[str, Concept]
    needs: dict[str, set[str]] = field(default_factory=dict)
    parents: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, db: Database) -> "ConceptGraph":
        """The whole concept graph in two queries.

        >>> len(ConceptGraph.read(db).concepts)
        30
        """
        rows = db.run(_CONCEPTS, max_rows=10**6).rows
        graph = cls({cid: Concept(cid, name, subject, note, text)
                     for cid, name, subject, note, text in rows})
        for a, kind, b in db.run(_LINKS, max_rows=10**6).rows:
            (graph.needs if kind == "PREREQUISITE_FOR" else graph.parents).setdefault(b, set()).add(a)
        return graph

    def above(self, start: Iterable[str], *, parents: bool = False,
              stop: frozenset[str] | set[str] = frozenset()) -> set[str]:
        """Everything `start` rests on: prerequisites, and parents too when asked, transitively.

        A concept in `stop` is reached but not looked past. Each concept is visited once, so a
        cycle ends the walk instead of looping (a start concept is included only on a cycle).

        >>> g = ConceptGraph.read(db)
        >>> sorted(g.name(c) for c in g.above(["C06"]))       # what Indexing rests on
        ['1NF', '2NF', '3NF', 'Arrays', 'Linked Lists', 'Paging', 'Trees']
        """
        seen: set[str] = set()
        todo = deque(start)
        while todo:
            for before in sorted(self._before(todo.popleft(), parents) - seen):
                seen.add(before)
                if before not in stop:
                    todo.append(before)
        return seen

    def _before(self, cid: str, parents: bool) -> set[str]:
        return self.needs.get(cid, set()) | (self.parents.get(cid, set()) if parents else set())

    def name(self, cid: str) -> str:
        return self.concepts[cid].name if cid in self.concepts else cid
