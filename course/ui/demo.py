"""The five questions the course builds towards, and `python -m course demo`, which asks them.

Introduced in notebook 08. Each question comes with the answer the college graph must
give and the Cypher the course text shows for it. Two of those queries rank grades and
skill levels as text, which is wrong in general ("Intermediate" > "Advanced", "B" > "A+"
as strings); for them the corrected query ranks by the value scales of schema.yaml.

>>> [q.number for q in FIVE_QUESTIONS]
[1, 2, 3, 4, 5]
>>> run_demo(db, llm=make_llm("offline"))     # doctest: +SKIP
1. Who is the best person to teach me DBMS?
...
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, TextIO

from course.pipeline.results import Result, printable
from course.ui.viz import text_values

# Positions on the value scales of schema.yaml (best first), written out as Cypher.
GRADE_RANK = ("CASE r.grade WHEN 'A+' THEN 0 WHEN 'A' THEN 1 WHEN 'B+' THEN 2 "
              "WHEN 'B' THEN 3 WHEN 'C' THEN 4 END")
LEVEL_RANK = ("CASE h.level WHEN 'Advanced' THEN 0 WHEN 'Intermediate' THEN 1 "
              "WHEN 'Beginner' THEN 2 END")


@dataclass(frozen=True)
class DemoQuestion:
    """A demo question, the answer the graph gives, and the course text's Cypher for it."""

    number: int
    question: str
    expected: str
    course_cypher: str
    corrected_cypher: str | None = None   # set where the course text's query is wrong in general
    ordered: bool = True                  # does the order of the answer matter?
    complete: bool = True                 # must every value of the reference be there?

    @property
    def reference(self) -> str:
        """The query whose rows an answer is judged against: the corrected one if there is one."""
        return self.corrected_cypher or self.course_cypher


FIVE_QUESTIONS = (
    DemoQuestion(
        1, "Who is the best person to teach me DBMS?", "Payal (A+); Aarav (A) next",
        "MATCH (sub:Subject) WHERE toLower(sub.name) CONTAINS toLower('dbms')\n"
        "MATCH (s:Student)-[r:STUDIES]->(sub)\n"
        "RETURN s.name AS name, r.grade AS grade\n"
        "ORDER BY r.grade DESC\n"
        "LIMIT 1",
        "MATCH (sub:Subject) WHERE toLower(sub.name) CONTAINS toLower('dbms')\n"
        "MATCH (s:Student)-[r:STUDIES]->(sub)\n"
        "RETURN s.name AS name, r.grade AS grade\n"
        f"ORDER BY {GRADE_RANK}, s.name", complete=False),
    DemoQuestion(
        2, "What is common in all the clubs?",
        "Payal is the only student in more than one club: Coding Club and Debate Society",
        "MATCH (s:Student)-[:MEMBER_OF]->(c:Club)\n"
        "WITH s, COLLECT(DISTINCT c.name) AS clubs, COUNT(DISTINCT c) AS club_count\n"
        "WHERE club_count > 1\n"
        "RETURN s.name, clubs", ordered=False),
    DemoQuestion(
        3, "1NF se BCNF tak ka learning path batao", "1NF → 2NF → 3NF → BCNF",
        "MATCH (a:Concept {name: '1NF'}), (b:Concept {name: 'BCNF'})\n"
        "CALL algo.SPpaths({\n"
        "sourceNode: a, targetNode: b,\n"
        "relTypes: ['PREREQUISITE_FOR', 'INCLUDES'],\n"
        "relDirection: 'both', pathCount: 1\n"
        "}) YIELD path\n"
        "RETURN [n IN nodes(path) | n.name] AS nodes,\n"
        "       [r IN relationships(path) | type(r)] AS rel_types"),
    DemoQuestion(
        4, "Aarav ke next topics kya hain?", "Indexing, Query Optimization, Transactions",
        "MATCH (s:Student {name: 'Aarav'})-[:STUDIES]->(sub:Subject)-[:COVERS]->(c:Concept)\n"
        "MATCH (c)-[:PREREQUISITE_FOR*1..2]->(next:Concept)\n"
        "WHERE NOT (sub)-[:COVERS]->(next)\n"
        "RETURN DISTINCT next.name AS next_topic", ordered=False),
    DemoQuestion(
        5, "Who should I learn ML from?", "Rahul (Advanced), then Karan (Intermediate)",
        "MATCH (s:Student)-[h:HAS_SKILL]->(sk:Skill)\n"
        "WHERE toLower(sk.name) CONTAINS 'machine learning'\n"
        "RETURN s.name, h.level\n"
        "ORDER BY h.level DESC",
        "MATCH (s:Student)-[h:HAS_SKILL]->(sk:Skill)\n"
        "WHERE toLower(sk.name) CONTAINS 'machine learning'\n"
        "RETURN s.name, h.level\n"
        f"ORDER BY {LEVEL_RANK}, s.name", complete=False),
)


def node_names(db: Any) -> set[str]:
    """The name of every node that has one: what an answer's values are compared on."""
    rows = db.run("MATCH (n) WHERE n.name IS NOT NULL RETURN DISTINCT n.name", max_rows=100_000).rows
    return {row[0] for row in rows}


def named_values(rows: list[list[Any]], names: set[str]) -> list[str]:
    """The node names among the rows' values, in order (grades, levels, counts left out).

    >>> named_values([["Payal", "A+"], ["Aarav", "A"]], {"Payal", "Aarav"})
    ['Payal', 'Aarav']
    """
    return [v for v in text_values(rows) if v in names]


def judge(db: Any, item: DemoQuestion, rows: list[list[Any]], *,
          names: set[str] | None = None) -> bool:
    """Do these rows give the answer the reference query gives?

    Compared on the node names in the rows: the same names (in the same order when
    `item.ordered`); when not `item.complete`, the first names of the reference suffice
    ("Payal" alone answers question 1; "Aarav" alone does not).
    """
    names = names if names is not None else node_names(db)
    wanted = named_values(db.run(item.reference).rows, names)
    got = named_values(rows, names)
    if not got:
        return False
    if not item.ordered:
        return set(got) == set(wanted)
    return got == wanted or (not item.complete and got == wanted[:len(got)])


def demo_summary(item: DemoQuestion, result: Result, *, agrees: bool | None = None) -> str:
    """One demo question as the terminal shows it: the Result's summary and what was expected.

    >>> item = FIVE_QUESTIONS[4]
    >>> print(demo_summary(item, Result(item.question, cypher="RETURN 1", answer="Rahul.",
    ...                                 status="answered", provider="Offline"), agrees=True))
    5. Who should I learn ML from?
       RETURN 1
       Answer: Rahul.
       [answered; Offline; 0 attempts; 0 model calls]
       Expected: Rahul (Advanced), then Karan (Intermediate) (the rows agree)
    """
    verdict = {True: " (the rows agree)", False: " (the rows differ)", None: ""}[agrees]
    return f"{result.summary(number=item.number)}\n   Expected: {item.expected}{verdict}"


def run_demo(db: Any = None, *, llm: Any = None, provider: str | None = None,
             out: TextIO | None = None, show_expected: bool = True) -> list[Any]:
    """Ask the five questions through the Agent, print each, and return the Results.

    `llm` (or the provider named `provider`, or COURSE_LLM / your keys / offline) writes
    the Cypher. The graph is loaded first if it is not there (loading is idempotent).
    Each question is asked on its own, without memory of the others.
    """
    from course.foundation.connection import connect
    from course.foundation.dataset import load_college
    from course.llm.registry import describe_llm, make_llm
    from course.pipeline.agent import Agent

    out = out or sys.stdout
    llm = llm if llm is not None else make_llm(provider)
    db = db if db is not None else connect()
    counts = load_college(db)
    agent = Agent(db, llm)
    print(f"The five questions: graph {counts['graph']!r} ({counts['nodes']} nodes, "
          f"{counts['relationships']} relationships); answers from {describe_llm(llm)}.\n",
          file=out, flush=True)
    results, names = [], node_names(db)
    for item in FIVE_QUESTIONS:
        result = agent.answer(item.question)
        results.append(result)
        agrees = judge(db, item, result.rows, names=names) if show_expected else None
        shown = demo_summary(item, result, agrees=agrees) if show_expected else \
            result.summary(number=item.number)
        print(printable(shown) + "\n", file=out, flush=True)
    return results
