"""How big a prompt is: the course text's hand-written prompt vs the generated one.

Introduced in notebook 02 (and measured by bench/bench_prompt.py). The hand-written prompt is
the course text's SCHEMA with its EXISTING DATA VALUES section rebuilt from the graph's own
values, the way the course text wrote it; so it grows with the graph. The generated prompt is
what the agent sends: the schema read from the graph, the rules, the examples, and only the
values the question names.

Tokens are counted the same way for both, with no tokenizer download: "words+punct" counts
runs of letters/digits and single punctuation marks, and "chars/4" is the usual rule of thumb.
A real (BPE) tokenizer gives other numbers; the growth is the point.

>>> size("MATCH (s:Student) RETURN s.name")["words+punct"]
10
"""
from __future__ import annotations

import re

from course.foundation.db import Database
from course.pipeline import prompts
from course.pipeline.linking import link_entities
from course.pipeline.schema import introspect

# The course text's hand-written prompt; {values} is its EXISTING DATA VALUES section.
COURSE_TEXT_SCHEMA = """\
GRAPH SCHEMA for GraphTech Institute:

NODES:
- Student {{id, name, year, branch}}
- Subject {{code, name, credits}}
- Club {{name, founded}}
- Skill {{name}}
- Project {{id, name, status}}
- Concept {{id, name, area}}
- Note {{id, text}}

RELATIONSHIPS:
- (Student)-[:STUDIES {{semester, grade}}]->(Subject)
- (Student)-[:MEMBER_OF {{since, role}}]->(Club)
- (Student)-[:HAS_SKILL {{level}}]->(Skill)
- (Student)-[:WORKS_ON {{role}}]->(Project)
- (Student)-[:FRIENDS_WITH]->(Student)
- (Subject)-[:PREREQUISITE_FOR]->(Subject)
- (Project)-[:REQUIRES]->(Skill)
- (Subject)-[:COVERS]->(Concept)
- (Concept)-[:INCLUDES]->(Concept)
- (Concept)-[:PREREQUISITE_FOR]->(Concept)
- (Note)-[:EXPLAINS]->(Concept)

EXISTING DATA VALUES:
{values}

CRITICAL RULES:

1. NEVER return whole nodes. Always return SPECIFIC PROPERTIES.
BAD: MATCH (s:Student {{name: 'Payal'}}) RETURN s
GOOD: MATCH (s:Student {{name: 'Payal'}}) RETURN s.name, s.year, s.branch

2. For name matching, ALWAYS use fuzzy matching:
WHERE toLower(c.name) CONTAINS toLower('debate')
NOT: {{name: 'debate-ye'}}

3. EVERY node variable MUST have a label in MATCH.
BAD: MATCH (s)-[:STUDIES]->(:Subject)-[:COVERS]->(next)
GOOD: MATCH (s:Student)-[:STUDIES]->(:Subject)-[:COVERS]->(next:Concept)

4. For shortest path, use algo.SPpaths:
CALL algo.SPpaths({{sourceNode: a, targetNode: b,
relTypes: ['PREREQUISITE_FOR'], relDirection: 'both', pathCount: 1}})
YIELD path RETURN [n IN nodes(path) | n.name] AS route

5. Only MATCH, OPTIONAL MATCH, WHERE, RETURN, WITH, ORDER BY, LIMIT,
COLLECT, COUNT, DISTINCT, CALL algo.SPpaths.
NEVER CREATE, DELETE, SET, MERGE, REMOVE.

6. If the question is OUT OF SCOPE, return:
RETURN 'OUT_OF_SCOPE' AS status

7. Return ONLY the Cypher query. No explanation. No markdown.
"""
# Each line of EXISTING DATA VALUES, as the course text writes it: "Payal (S02)", "DBMS (CS201)".
VALUE_LINES = {
    "Students": "MATCH (n:Student) RETURN n.name + ' (' + n.id + ')' ORDER BY n.id",
    "Subjects": "MATCH (n:Subject) RETURN n.name + ' (' + n.code + ')' ORDER BY n.code",
    "Clubs": "MATCH (n:Club) RETURN n.name ORDER BY n.name",
    "Skills": "MATCH (n:Skill) RETURN n.name ORDER BY n.name",
    "Projects": "MATCH (n:Project) RETURN n.name ORDER BY n.id",
    "Concepts": "MATCH (n:Concept) RETURN n.name ORDER BY n.id",
}


def handwritten_prompt(db: Database, question: str) -> str:
    """The course text's prompt for this graph: every value listed, then the question."""
    lines = []
    for heading, query in VALUE_LINES.items():
        values = [r[0] for r in db.run(query, max_rows=1_000_000).rows]
        lines.append(f"- {heading}: {', '.join(values)}")
    return COURSE_TEXT_SCHEMA.format(values="\n".join(lines)) + f"\nQUESTION: {question}"


def generated_prompt(db: Database, question: str) -> str:
    """What the agent sends: system message (schema, rules, examples) + user message."""
    schema = introspect(db)
    system = prompts.cypher_system_prompt(schema.render())
    user = prompts.cypher_user_prompt(question, mentions=link_entities(db, question, schema=schema))
    return system + "\n\n" + user


_TOKEN = re.compile(r"\w+|[^\w\s]")


def size(text: str) -> dict[str, int]:
    """{'chars': ..., 'words+punct': ..., 'chars/4': ...}: the same counts for every prompt."""
    return {"chars": len(text), "words+punct": len(_TOKEN.findall(text)), "chars/4": round(len(text) / 4)}
