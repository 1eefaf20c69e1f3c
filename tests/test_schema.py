"""The schema prompt (notebook 02): read from the live graph, names linked, size independent of the graph.

Introspection is checked against what the data files say the graph holds; entity linking
against the values a person means when they write "debate-ye", "Payl" or "ML"; and the
prompt against a graph ten times larger, where a prompt that lists every value would
grow tenfold and the generated one must not.
"""
from __future__ import annotations

import re

import pytest

from course import prompts
from course.dataset import (FULLTEXT_PROPERTY, create_fulltext_indexes, load_schema,
                            synthetic_college, write_dataset)
from course.schema import Mention, introspect, link_entities

LABELS = {"Student", "Subject", "Club", "Skill", "Project", "Concept", "Note"}
PATTERNS = {  # (start, type, end): the direction the data stores
    ("Student", "STUDIES", "Subject"), ("Student", "MEMBER_OF", "Club"),
    ("Student", "HAS_SKILL", "Skill"), ("Student", "WORKS_ON", "Project"),
    ("Student", "FRIENDS_WITH", "Student"), ("Subject", "PREREQUISITE_FOR", "Subject"),
    ("Project", "REQUIRES", "Skill"), ("Subject", "COVERS", "Concept"),
    ("Concept", "INCLUDES", "Concept"), ("Concept", "PREREQUISITE_FOR", "Concept"),
    ("Note", "EXPLAINS", "Concept"),
}


def _all_names(db) -> list[str]:
    """Every name-like value in the graph: what a hand-written prompt would have to list."""
    rows = db.run("MATCH (n) WHERE n.name IS NOT NULL RETURN n.name", max_rows=100_000)
    return [r[0] for r in rows.rows]


def _descriptions(spec) -> list[str]:
    """Every `description:` sentence in schema.yaml."""
    if isinstance(spec, dict):
        return [v for k, v in spec.items() if k == "description" and isinstance(v, str)] + \
            [d for k, v in spec.items() if k != "aliases" for d in _descriptions(v)]
    if isinstance(spec, list):
        return [d for item in spec for d in _descriptions(item)]
    return []


def _mentions(text: str, value: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text) is not None


def _linked(db, question: str, schema) -> set[tuple[str, str]]:
    return {(m.label, m.value) for m in link_entities(db, question, schema=schema)}


# --- introspection ------------------------------------------------------------------------

def test_introspection_reads_labels_and_directed_patterns(college_db):
    schema = introspect(college_db)
    assert set(schema.labels) == LABELS
    found = {(p.start, p.type, p.end) for p in schema.patterns}
    assert found == PATTERNS
    # Direction is read, not guessed: nothing points from a subject back to a student.
    assert ("Subject", "STUDIES", "Student") not in found
    text = schema.render()
    assert "- (:Student)-[:STUDIES {semester, grade}]->(:Subject)" in text
    assert "- (:Note)-[:EXPLAINS]->(:Concept)" in text
    assert "- Student {id, name, year, branch}" in text


def test_introspection_reads_property_types_from_values(college_db):
    schema = introspect(college_db)
    student = schema.labels["Student"][1]
    assert {name: p.type for name, p in student.items()} == {
        "id": "string", "name": "string", "year": "integer", "branch": "string"}
    assert schema.labels["Subject"][1]["credits"].type == "integer"
    studies = next(p for p in schema.patterns if p.type == "STUDIES")
    assert studies.properties["semester"].type == "integer"
    assert studies.properties["grade"].type == "string"
    assert "    year (integer):" in schema.render()


def test_few_values_are_listed_and_scales_kept_in_order(college_db):
    schema = introspect(college_db)
    student = schema.labels["Student"][1]
    assert student["branch"].values == ["CSE", "ECE", "IT"]
    assert student["year"].values == [2, 3, 4]
    text = schema.render()
    assert "Values: 'CSE', 'ECE', 'IT'." in text
    # Grades and levels are given best first, the order a query must rank them in.
    assert "- STUDIES.grade: A+, A, B+, B, C" in text
    assert "- HAS_SKILL.level: Advanced, Intermediate, Beginner" in text


def test_names_and_note_texts_are_never_listed(college_db):
    schema = introspect(college_db)
    for label, (_, props) in schema.labels.items():
        for name in ("name", "id", "text"):
            if name in props:
                assert props[name].values is None, f"{label}.{name} lists its values"
    text = schema.render()
    # A name may appear only as one of schema.yaml's examples ("e.g. Payal") or as a value
    # of a property with few values (Concept.area: 'DBMS', 'DSA', ...).
    examples = " ".join(_descriptions(load_schema()))
    few = {str(v) for _, props in schema.labels.values() for p in props.values() for v in p.values or []}
    listed = [n for n in _all_names(college_db) if _mentions(text, n)]
    assert [n for n in listed if not _mentions(examples, n) and n not in few] == []
    notes = college_db.run("MATCH (n:Note) RETURN n.text").rows
    assert not [t for (t,) in notes if t[:40] in text]


# --- entity linking -----------------------------------------------------------------------

FUZZY = [  # typos and Hinglish: the value the writer meant
    ("dbms and debate-ye dono ke students kaun hain?", {("Subject", "DBMS"), ("Club", "Debate Society")}),
    ("Who is Payl?", {("Student", "Payal")}),
    ("Who is Snehaa?", {("Student", "Sneha")}),
    ("What does Karn study?", {("Student", "Karan")}),
    ("Who studies Operating Sytems?", {("Subject", "Operating Systems")}),
    ("Is Rahul in the Robotcs club?", {("Student", "Rahul"), ("Club", "Robotics Club")}),
    ("1NF se BCNF tak ka learning path batao", {("Concept", "1NF"), ("Concept", "BCNF")}),
    ("Aarav ke next topics kya hain?", {("Student", "Aarav")}),
    ("tcp/ip kya hai", {("Concept", "TCP/IP")}),
]
ALIASES = [  # schema.yaml's aliases: how people write a value
    ("Who should I learn ML from?", {("Skill", "Machine Learning")}),
    ("OS kaun padhta hai?", {("Subject", "Operating Systems")}),
    ("first normal form kya hai?", {("Concept", "1NF")}),
    ("Who works on the chatbot?", {("Project", "Campus Chatbot")}),
    ("Who studies databases?", {("Subject", "DBMS")}),
    ("What is DP?", {("Concept", "Dynamic Programming")}),
    ("Who is the president of the debate club?", {("Club", "Debate Society")}),
]
NOTHING = [  # words that look like a value but are not one
    "What is the learning path?",            # not Machine Learning
    "What is common in all the clubs?",      # "clubs" is no particular club
    "Should I do a Masters in CSE or Electronics?",
    "Who has the most friends?",
    "clean up the old data",
    "How is the weather today?",
    "uska year kya hai?",
]
PRECISE = [  # the longest reading wins, and short names match exactly
    ("Which subject covers memory management?", {("Concept", "Memory Management")}),
    ("What comes after 1NF?", {("Concept", "1NF")}),
    ("What is virtual memory?", {("Concept", "Virtual Memory")}),
]


def _check_cases(db, cases) -> None:
    schema = introspect(db)
    wrong = {q: _linked(db, q, schema) for q, want in cases if _linked(db, q, schema) != want}
    assert not wrong, f"linked differently from expected: {wrong}"


def test_linking_finds_typos_and_hinglish(college_db):
    _check_cases(college_db, FUZZY)


def test_linking_uses_the_aliases(college_db):
    _check_cases(college_db, ALIASES)


def test_linking_has_no_false_positives(college_db):
    _check_cases(college_db, [(q, set()) for q in NOTHING] + PRECISE)


def test_mention_records_what_was_written_and_renders_for_the_prompt(college_db):
    mentions = link_entities(college_db, "dbms and debate-ye dono ke students kaun hain?",
                             schema=introspect(college_db))
    assert [(m.text, m.label, m.property, m.value) for m in mentions] == [
        ("dbms", "Subject", "name", "DBMS"), ("debate", "Club", "name", "Debate Society")]
    assert mentions[1].render() == "- \"debate\" -> Club.name = 'Debate Society'"
    user = prompts.cypher_user_prompt("dbms and debate-ye dono ke students kaun hain?",
                                      mentions=mentions)
    assert user.startswith("LINKED VALUES (names in the question, as stored in the graph):\n"
                           "- \"dbms\" -> Subject.name = 'DBMS'\n")
    assert user.endswith("QUESTION: dbms and debate-ye dono ke students kaun hain?")


def test_mention_render_example():
    m = Mention("payl", "Student", "name", "Payal", 1.0)
    assert m.render() == "- \"payl\" -> Student.name = 'Payal'"


# --- the prompt does not grow with the graph --------------------------------------------------

@pytest.fixture
def synthetic(college_db):
    """Write a synthetic look-alike `scale` times larger beside this test's graph; deleted after."""
    made = []

    def write(scale: int):
        graph = college_db.select(f"{college_db.graph_name}_x{scale}")
        made.append(graph)
        data = synthetic_college(scale)
        write_dataset(graph, data)
        create_fulltext_indexes(graph, data.keys)
        return graph

    yield write
    for graph in made:
        if graph.graph_name in graph.client.list_graphs():
            graph.graph.delete()


def test_generated_prompt_does_not_grow_with_the_graph(college_db, synthetic):
    question = "dbms and debate-ye dono ke students kaun hain?"
    big = synthetic(10)
    assert big.counts()["nodes"] == 750
    sizes = {}
    for name, db in (("1x", college_db), ("10x", big)):
        schema = introspect(db)
        system = prompts.cypher_system_prompt(schema.render())
        user = prompts.cypher_user_prompt(question, mentions=link_entities(db, question, schema=schema))
        names = ", ".join(_all_names(db))  # what a prompt listing every value must carry
        sizes[name] = (len(system) + len(user), len(names))
    (prompt_1, names_1), (prompt_10, names_10) = sizes["1x"], sizes["10x"]
    assert names_10 > 9 * names_1                      # the graph's values grew tenfold
    assert prompt_10 <= 1.1 * prompt_1, sizes          # the generated prompt did not


def test_linking_prefers_the_exact_value_among_many_lookalikes(synthetic):
    # 25 copies: "DBMS", "DBMS 1" ... "DBMS 24" -- more than one full-text page of candidates.
    big = synthetic(25)
    schema = introspect(big)
    assert _linked(big, "Who is the best person to teach me DBMS?", schema) == {("Subject", "DBMS")}
    assert _linked(big, "Who is Payl?", schema) == {("Student", "Payal")}


def test_linking_labels_are_the_fulltext_indexed_ones(college_db):
    indexed = college_db.run("CALL db.indexes() YIELD label, types RETURN label, types").rows
    fulltext = {label for label, types in indexed if "FULLTEXT" in str(types)}
    # The text layer's chunks have a full-text index of their own, for search (notebook 13).
    assert fulltext == set(FULLTEXT_PROPERTY) | {"Chunk"}
