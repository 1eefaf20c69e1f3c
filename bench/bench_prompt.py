"""Prompt size at 1x, 10x and 100x the graph: the course text's hand-written prompt vs the generated one.

    python bench/bench_prompt.py

The hand-written prompt is the course text's SCHEMA, with its EXISTING DATA VALUES section
rebuilt from the graph's own values the way the course text wrote it (every student,
subject, club, skill, project and concept by name), built exactly as notebook 02 builds it.
The generated prompt is what the agent sends for one question: the system message (schema
read from the graph, rules, worked examples) plus the user message (linked values, question).

Tokens are counted the same way for both, two ways, with no tokenizer download:
"words+punct" counts runs of letters/digits and single punctuation marks (regex
`\\w+|[^\\w\\s]`), and "chars/4" is the usual rule of thumb. A real tokenizer (BPE) gives
other numbers (names such as "Payal 37" split into several tokens), but the growth is the point.

The 1x graph is the college graph; 10x and 100x are `synthetic_college(scale)` written into
graphs of their own on the same database (COURSE_DB, or a temporary one), deleted afterwards.
"""
from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path

from course import prompts
from course.config import get_setting
from course.dataset import create_fulltext_indexes, load_college, synthetic_college, write_dataset
from course.db import connect
from course.schema import introspect, link_entities

QUESTION = "dbms and debate-ye dono ke students kaun hain?"
SCALES = (1, 10, 100)

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
_TOKEN = re.compile(r"\w+|[^\w\s]")


def handwritten_prompt(db, question: str) -> str:
    """The course text's prompt for this graph: every value listed, then the question."""
    lines = []
    for heading, query in VALUE_LINES.items():
        values = [r[0] for r in db.run(query, guard=False, max_rows=1_000_000).rows]
        lines.append(f"- {heading}: {', '.join(values)}")
    return COURSE_TEXT_SCHEMA.format(values="\n".join(lines)) + f"\nQUESTION: {question}"


def generated_prompt(db, question: str) -> str:
    """What the agent sends: system message (schema, rules, examples) + user message."""
    schema = introspect(db)
    system = prompts.cypher_system_prompt(schema.render())
    user = prompts.cypher_user_prompt(question, mentions=link_entities(db, question, schema=schema))
    return system + "\n\n" + user


def tokens(text: str) -> tuple[int, int]:
    """(words+punct, chars/4) -- the same two counts for every prompt."""
    return len(_TOKEN.findall(text)), round(len(text) / 4)


def graph_at(db, scale: int):
    """The college graph (1x) or a synthetic one `scale` times larger, freshly written."""
    if scale == 1:
        load_college(db)
        return db
    graph = db.select(f"bench_prompt_x{scale}")
    if graph.graph_name in graph.client.list_graphs():
        graph.graph.delete()
    data = synthetic_college(scale)
    write_dataset(graph, data)
    create_fulltext_indexes(graph, data.keys)
    return graph


def measure(db) -> list[tuple]:
    rows = []
    for scale in SCALES:
        graph = graph_at(db, scale)
        counts = graph.counts()
        hand, made = handwritten_prompt(graph, QUESTION), generated_prompt(graph, QUESTION)
        rows.append((scale, counts["nodes"], len(hand), *tokens(hand), len(made), *tokens(made)))
        if scale != 1:
            graph.graph.delete()
    return rows


def main() -> None:
    started = time.perf_counter()
    # COURSE_DB (or FALKORDB_URL) when set, as `make bench` does; else a temporary database.
    temporary = None if get_setting("COURSE_DB") or get_setting("FALKORDB_URL") else tempfile.TemporaryDirectory()
    db = connect(path=Path(temporary.name) / "bench.db") if temporary else connect()
    try:
        rows = measure(db)
    finally:
        if temporary:
            db.server.stop()
            temporary.cleanup()
    print(f"prompt size for {QUESTION!r}")
    print("tokens: words+punct = regex \\w+|[^\\w\\s]; chars/4 = characters / 4 (no tokenizer)")
    print(f"{'scale':>5} {'nodes':>6} | {'hand-written: chars':>19} {'w+p':>7} {'c/4':>7}"
          f" | {'generated: chars':>16} {'w+p':>6} {'c/4':>6}")
    for scale, nodes, h_chars, h_wp, h_c4, g_chars, g_wp, g_c4 in rows:
        print(f"{scale:>4}x {nodes:>6} | {h_chars:>19,} {h_wp:>7,} {h_c4:>7,}"
              f" | {g_chars:>16,} {g_wp:>6,} {g_c4:>6,}")
    first, last = rows[0], rows[-1]
    print(f"1x -> {last[0]}x: hand-written x{last[3] / first[3]:.1f}, "
          f"generated x{last[6] / first[6]:.2f} (words+punct)")
    print(f"({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
