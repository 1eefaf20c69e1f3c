"""The agent's own time per question, without the LLM: linking, prompts, cleaning, guard, query.

    python bench/bench_agent.py [REPEATS]

An LLM that answers at once (a ScriptedLLM replaying the course text's Cypher, and the
offline provider) is wrapped in a stopwatch; each question is asked REPEATS times (default
15) and the time spent inside the LLM is taken away from the agent's total. What is left is
what the agent itself costs per question; with a real provider the LLM adds its own
seconds on top. Linking (the names of the question looked up in the index of names) is shown apart.

Uses COURSE_DB (or FALKORDB_URL) when set, as `make bench` does; else a temporary database.
"""
from __future__ import annotations

import statistics
import sys
import time

from _database import bench_database
from course.foundation.dataset import load_college
from course.llm.base import LLM, Completion
from course.llm.scripted import ScriptedLLM
from course.pipeline import prompts
from course.pipeline.agent import Agent

# question -> what the scripted model writes, call by call (Cypher, then the answer's text).
SCRIPT: dict[str, list[str]] = {
    "Who is the best person to teach me DBMS?": [
        "```cypher\nMATCH (sub:Subject) WHERE toLower(sub.name) CONTAINS toLower('dbms')\n"
        "MATCH (s:Student)-[r:STUDIES]->(sub)\nRETURN s.name AS name, r.grade AS grade\n"
        "ORDER BY r.grade DESC\nLIMIT 1\n```", "Payal (A+)."],
    "What is common in all the clubs?": [
        "MATCH (s:Student)-[:MEMBER_OF]->(c:Club)\nWITH s, COLLECT(DISTINCT c.name) AS clubs, "
        "COUNT(DISTINCT c) AS club_count\nWHERE club_count > 1\nRETURN s.name, clubs", "Payal."],
    "1NF se BCNF tak ka learning path batao": [
        "<think>\nrule 4\n</think>\nMATCH (a:Concept {name: '1NF'}), (b:Concept {name: 'BCNF'})\n"
        "CALL algo.SPpaths({sourceNode: a, targetNode: b, relTypes: ['PREREQUISITE_FOR', 'INCLUDES'], "
        "relDirection: 'both', pathCount: 1}) YIELD path\nRETURN [n IN nodes(path) | n.name] AS nodes",
        "1NF -> 2NF -> 3NF -> BCNF."],
    "Aarav ke next topics kya hain?": [
        "MATCH (s:Student {name: 'Aarav'})-[:STUDIES]->(sub:Subject)-[:COVERS]->(c:Concept)\n"
        "MATCH (c)-[:PREREQUISITE_FOR*1..2]->(next:Concept)\nWHERE NOT (sub)-[:COVERS]->(next)\n"
        "RETURN DISTINCT next.name AS next_topic", "Indexing, Query Optimization, Transactions."],
    "Who should I learn ML from?": [
        "MATCH (s:Student)-[h:HAS_SKILL]->(sk:Skill)\nWHERE toLower(sk.name) CONTAINS 'machine learning'\n"
        "RETURN s.name, h.level\nORDER BY CASE h.level WHEN 'Advanced' THEN 0 WHEN 'Intermediate' "
        "THEN 1 ELSE 2 END", "Rahul, then Karan."],
    "Who is Payal?": [
        "MATCH (s:Student {name: 'Payal'}) RETURN s.name, s.year, s.branch", "Payal, 2nd year CSE."],
    "dbms and debate-ye dono ke students kaun hain?": [  # the fuzzy-match miss, then the retry
        "MATCH (s:Student)-[:STUDIES]->(sub:Subject {name: 'dbms'})\n"
        "MATCH (s)-[:MEMBER_OF]->(c:Club {name: 'debate-ye'})\nRETURN s.id, s.name",
        "MATCH (s:Student)-[:STUDIES]->(sub:Subject)\nWHERE toLower(sub.name) CONTAINS 'dbms'\n"
        "MATCH (s)-[:MEMBER_OF]->(c:Club)\nWHERE toLower(c.name) CONTAINS 'debate'\nRETURN s.name",
        "Payal."],
    "Should I do a Masters in CSE or Electronics?": [prompts.SENTINEL_QUERY],
    "clean up the old data": ["MATCH (n) DETACH DELETE n", "MATCH (n) DETACH DELETE n"],
    "Which subject covers memory management?": [
        "MATCH (s:Subject)-[:COVERS]->(c:Concept) WHERE toLower(c.name) CONTAINS 'memory management' "
        "RETURN s.name", "Operating Systems."],
}


class Stopwatch(LLM):
    """Any LLM, with the time spent inside it added up in `seconds`."""

    def __init__(self, inner: LLM):
        self.inner, self.name, self.model, self.seconds = inner, inner.name, inner.model, 0.0

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        started = time.perf_counter()
        try:
            return self.inner.complete(prompt, system=system)
        finally:
            self.seconds += time.perf_counter() - started


def _timed_link(agent: Agent) -> list[float]:
    """Make the agent's linking step record its own time; returns the list it fills."""
    spent: list[float] = []
    link = agent.link

    def timed(text: str):
        started = time.perf_counter()
        try:
            return link(text)
        finally:
            spent.append(time.perf_counter() - started)

    agent.link = timed
    return spent


def run(db, provider: str, repeats: int) -> list[tuple]:
    """Per question: status, attempts, median total / LLM / own / linking ms."""
    scripted = ScriptedLLM([], name="Scripted")
    inner = scripted if provider == "scripted" else _offline()
    watch = Stopwatch(inner)
    agent = Agent(db, watch)
    linking = _timed_link(agent)
    rows = []
    for question, script in SCRIPT.items():
        totals, llm, own, link = [], [], [], []
        for i in range(repeats + 1):           # the first run warms up and is not counted
            if provider == "scripted":
                scripted.add(*script)
            watch.seconds, linking[:] = 0.0, []
            result = agent.answer(question)
            if i:
                totals.append(result.elapsed_ms)
                llm.append(watch.seconds * 1000)
                own.append(result.elapsed_ms - watch.seconds * 1000)
                link.append(sum(linking) * 1000)
        assert scripted.remaining == 0, question
        rows.append((question, result.status, len(result.attempts), statistics.median(totals),
                     statistics.median(llm), statistics.median(own), statistics.median(link), own))
    return rows


def _offline() -> LLM:
    from course.llm.registry import make_llm

    return make_llm("offline")


def report(provider: str, rows: list[tuple]) -> None:
    print(f"\n{provider}: median of the runs, ms")
    print(f"{'question':<48} {'status':<12} {'try':>3} {'total':>7} {'LLM':>7} {'agent':>7} {'link':>6}")
    for question, status, tries, total, llm, own, link, _ in rows:
        print(f"{question[:48]:<48} {status:<12} {tries:>3} {total:>7.1f} {llm:>7.2f} {own:>7.1f} {link:>6.1f}")
    every = [t for row in rows for t in row[-1]]
    print(f"agent's own time per question (total - LLM), median of {len(every)} runs: "
          f"{statistics.median(every):.1f} ms")


def main(repeats: int = 15) -> None:
    started = time.perf_counter()
    with bench_database() as db:
        load_college(db)
        print(f"{len(SCRIPT)} questions x {repeats} runs, memory off, max_attempts=2")
        for provider in ("scripted", "offline"):
            report(provider, run(db, provider, repeats))
        assert db.counts() == {"nodes": 75, "relationships": 132}
    print(f"({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
