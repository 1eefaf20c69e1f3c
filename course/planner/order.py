"""The learning order: prerequisites first, cycles reported, never looped on.

Introduced in notebook 14. `order()` sorts concepts by the longest chain of prerequisites
(and parents) above them; `spread()` lays them over days; `cypher_order()` computes the same
order in one Cypher query, as a check.

>>> spread(list("abcde"), 2)
[['a', 'b', 'c'], ['d', 'e']]
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from course.foundation.db import Database
from course.planner.concepts import ConceptGraph
from course.planner.lookup import find_student, find_subject


@dataclass
class Ordering:
    """What `order()` found: the order, what could not be placed and why, and the cycles."""

    order: list[str]
    depth: dict[str, int]
    unscheduled: dict[str, str]
    cycles: list[list[str]]


def order(graph: ConceptGraph, wanted: Iterable[str]) -> Ordering:
    """The wanted concepts in learning order, prerequisite cycles reported, never looped on.

    A concept's depth is the length of the longest chain of prerequisites and parents above
    it (INCLUDES edges that would close a loop with the prerequisites are left out: the
    prerequisites win). Sorting by depth, then id, puts every prerequisite first, and a parent
    before its parts where that is allowed. Notebook 14 computes the same order in Cypher.

    >>> from course.planner.concepts import Concept
    >>> g = ConceptGraph({c: Concept(c, c, "X") for c in "ABCD"},
    ...                  needs={"B": {"A"}, "C": {"B"}, "A": {"C"}, "D": {"B"}})
    >>> found = order(g, "ABCD")
    >>> found.order, found.cycles
    ([], [['A', 'B', 'C', 'A']])
    >>> found.unscheduled["D"]
    'needs B, which is in the prerequisite cycle A -> B -> C -> A'
    """
    wanted = list(dict.fromkeys(wanted))
    region = set(wanted) | graph.above(wanted, parents=True)
    blocked = _after_cycles(graph, region)
    cycles = _cycles(graph, blocked)
    unscheduled = {cid: _why(graph, cid, cycles) for cid in wanted if cid in blocked}
    depth = _depths(graph, region - blocked)
    placed = sorted((c for c in wanted if c not in blocked), key=lambda c: (depth[c], c))
    return Ordering(placed, depth, unscheduled, cycles)


def _after_cycles(graph: ConceptGraph, region: set[str]) -> set[str]:
    """Kahn's algorithm over the prerequisites: what is left is in a cycle or after one."""
    needs = {c: graph.needs.get(c, set()) & region for c in region}
    waiting = {c: len(before) for c, before in needs.items()}
    after: dict[str, list[str]] = {}
    for c, before in needs.items():
        for b in before:
            after.setdefault(b, []).append(c)
    ready = deque(c for c, n in waiting.items() if n == 0)
    while ready:
        for nxt in after.get(ready.popleft(), []):
            waiting[nxt] -= 1
            if waiting[nxt] == 0:
                ready.append(nxt)
    return {c for c, n in waiting.items() if n > 0}


def _cycles(graph: ConceptGraph, blocked: set[str]) -> list[list[str]]:
    """One shortest cycle through each blocked concept that lies on one, each cycle once."""
    found: list[list[str]] = []
    covered: set[str] = set()
    for start in sorted(blocked):
        if start in covered:
            continue
        loop = _loop_through(graph, start, blocked)
        if loop:
            found.append([graph.name(c) for c in loop])
            covered |= set(loop)
    return found


def _loop_through(graph: ConceptGraph, start: str, within: set[str]) -> list[str] | None:
    """The shortest prerequisite loop start -> ... -> start inside `within`, or None."""
    came_from: dict[str, str] = {}
    todo = deque([start])
    while todo:
        current = todo.popleft()
        for nxt in sorted(c for c in within if current in graph.needs.get(c, set())):
            if nxt == start:
                chain = [current]
                while chain[-1] != start:
                    chain.append(came_from[chain[-1]])
                return chain[::-1] + [start]
            if nxt not in came_from:
                came_from[nxt] = current
                todo.append(nxt)
    return None


def _why(graph: ConceptGraph, cid: str, cycles: list[list[str]]) -> str:
    """Why a blocked concept is not scheduled: the cycle it is in, or the nearest one it needs."""
    loops = {name: " -> ".join(loop) for loop in cycles for name in loop}
    name = graph.name(cid)
    if name in loops:
        return f"in the prerequisite cycle {loops[name]}"
    seen, todo = {cid}, deque([cid])
    while todo:
        for before in sorted(graph.needs.get(todo.popleft(), set()) - seen):
            if graph.name(before) in loops:
                return (f"needs {graph.name(before)}, which is in the prerequisite cycle "
                        f"{loops[graph.name(before)]}")
            seen.add(before)
            todo.append(before)
    return "needs a concept in a prerequisite cycle"


def _depths(graph: ConceptGraph, nodes: set[str]) -> dict[str, int]:
    """Longest chain above each node: prerequisites always, parents where no loop forms."""
    after: dict[str, set[str]] = {c: set() for c in nodes}
    for c in nodes:
        for b in graph.needs.get(c, set()) & nodes:
            after[b].add(c)
    includes = sorted((p, c) for c in nodes for p in graph.parents.get(c, set()) & nodes)
    for parent, part in includes:
        if not _reaches(after, part, parent):
            after[parent].add(part)
    waiting = {c: 0 for c in nodes}
    for c in nodes:
        for nxt in after[c]:
            waiting[nxt] += 1
    depth = {c: 0 for c in nodes}
    ready = deque(sorted(c for c, n in waiting.items() if n == 0))
    while ready:
        current = ready.popleft()
        for nxt in after[current]:
            depth[nxt] = max(depth[nxt], depth[current] + 1)
            waiting[nxt] -= 1
            if waiting[nxt] == 0:
                ready.append(nxt)
    return depth


def _reaches(after: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = {start}, [start]
    while todo:
        current = todo.pop()
        if current == goal:
            return True
        for nxt in after[current] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return False


def spread(items: list[Any], days: int) -> list[list[Any]]:
    """`items` in order over at most `days` days, evenly: day sizes differ by one at most.

    >>> spread(list("abcdefg"), 3)
    [['a', 'b', 'c'], ['d', 'e'], ['f', 'g']]
    >>> spread(["a", "b"], 30)
    [['a'], ['b']]
    """
    used = min(days, len(items))
    if used == 0:
        return []
    size, extra = divmod(len(items), used)
    out, start = [], 0
    for day in range(used):
        end = start + size + (1 if day < extra else 0)
        out.append(items[start:end])
        start = end
    return out


# --- the same order, computed by the database --------------------------------------------------

CYPHER_ORDER = """
MATCH (st:Student {id: $student})
OPTIONAL MATCH (st)-[:STUDIES]->(:Subject)-[:COVERS]->(k:Concept)
WITH collect(DISTINCT k) AS known
MATCH (:Subject {code: $subject})-[:COVERS]->(t:Concept)
WHERE NOT t IN known
OPTIONAL MATCH path = (p:Concept)-[:PREREQUISITE_FOR*1..]->(t)
WHERE none(n IN nodes(path) WHERE n IN known)
WITH collect(DISTINCT t) + collect(DISTINCT p) AS wanted
UNWIND wanted AS c
WITH DISTINCT c
OPTIONAL MATCH chain = (:Concept)-[:PREREQUISITE_FOR|INCLUDES*1..]->(c)
WITH c, max(length(chain)) AS depth
RETURN c.name AS concept, coalesce(depth, 0) AS depth
ORDER BY depth, c.id
"""
# The concepts on a prerequisite loop, each with the length of its shortest loop. (Only the
# concepts: the order in which FalkorDB lists the nodes of a closed path is not reliable, and
# A -> B -> C -> A can come back as A, C, B, A.)
CYPHER_CYCLES = """
MATCH loop = (c:Concept)-[:PREREQUISITE_FOR*1..]->(c)
RETURN c.name AS concept, min(length(loop)) AS shortest
ORDER BY concept
"""


def cypher_order(db: Database, student: str, subject: str) -> list[str]:
    """The plan's order computed in one Cypher query (for a graph with no cycle): a check.

    The query finds the same concepts (the subject's unknown ones and what they need, not
    looking past what the student knows) and sorts them by the longest PREREQUISITE_FOR or
    INCLUDES chain that ends at each. Variable-length paths are fine on a graph this size;
    `order()` is the one that scales and reports cycles.

    >>> from course.planner.plans import plan
    >>> cypher_order(db, "Sneha", "DBMS") == plan(db, "Sneha", "DBMS").order()
    True
    """
    who, what = find_student(db, student), find_subject(db, subject)
    return [row[0] for row in db.run(CYPHER_ORDER, {"student": who.key, "subject": what.key}).rows]
