"""The college graph says what the course says it does.

Each fact the notebooks and the course text rely on is checked here against the loaded
graph, through a hand-written reference query. The five demo questions are run with the
course text's own Cypher, which must give the answers notebook 08 shows.
"""
from __future__ import annotations

import re

from course.foundation.dataset import load_schema
from course.ui.demo import FIVE_QUESTIONS

# The values the course text fixes (DESIGN, "The data").
STUDENTS = {"S01": "Aarav", "S02": "Payal", "S03": "Rahul", "S04": "Sneha", "S05": "Karan"}
SUBJECTS = {"CS201": "DBMS", "CS202": "DSA", "CS301": "Operating Systems",
            "CS302": "Computer Networks"}
CLUBS = {"Coding Club", "Robotics Club", "Debate Society"}
SKILLS = {"Python", "React", "SQL", "Machine Learning", "Docker"}
PROJECTS = {"Library Management System", "Campus Chatbot", "Attendance Tracker"}
CONCEPTS = [  # C01..C30 in this order; the subject that covers them follows each group
    ("DBMS", ["Normalization", "1NF", "2NF", "3NF", "BCNF", "Indexing",
              "Query Optimization", "Transactions"]),
    ("DSA", ["Arrays", "Linked Lists", "Trees", "BST", "Graphs", "BFS", "DFS",
             "Dynamic Programming"]),
    ("Operating Systems", ["Processes", "Threads", "Scheduling", "Deadlocks",
                           "Memory Management", "Paging", "Virtual Memory"]),
    ("Computer Networks", ["OSI Model", "TCP/IP", "HTTP", "DNS", "Routing", "Subnetting",
                           "Firewalls"]),
]

LABEL_COUNTS = {"Student": 5, "Subject": 4, "Club": 3, "Skill": 5, "Project": 3,
                "Concept": 30, "Note": 25}
TYPE_COUNTS = {  # (from label, type, to label) -> count
    ("Student", "STUDIES", "Subject"): 10,
    ("Student", "MEMBER_OF", "Club"): 6,
    ("Student", "HAS_SKILL", "Skill"): 8,
    ("Student", "WORKS_ON", "Project"): 5,
    ("Student", "FRIENDS_WITH", "Student"): 3,
    ("Subject", "PREREQUISITE_FOR", "Subject"): 2,
    ("Project", "REQUIRES", "Skill"): 5,
    ("Subject", "COVERS", "Concept"): 30,
    ("Concept", "INCLUDES", "Concept"): 13,
    ("Concept", "PREREQUISITE_FOR", "Concept"): 25,
    ("Note", "EXPLAINS", "Concept"): 25,
}

# The course text's own Cypher for the five demo questions (notebook 08).
(Q1_BEST_DBMS_TEACHER, Q2_COMMON_IN_CLUBS, Q3_LEARNING_PATH, Q4_NEXT_TOPICS,
 Q5_LEARN_ML_FROM) = (q.course_cypher for q in FIVE_QUESTIONS)


def rows(db, cypher: str, params: dict | None = None) -> list[list]:
    """The result set of a read query on the loaded graph."""
    return db.graph.ro_query(cypher, params).result_set


def scale_of(rel_type: str, prop: str) -> list[str]:
    """The best-first scale schema.yaml gives a relationship property."""
    for rel in load_schema()["relationships"]:
        if rel["type"] == rel_type:
            return rel["properties"][prop]["scale"]
    raise AssertionError(f"{rel_type} is not in schema.yaml")


def rank_expression(variable: str, scale: list[str]) -> str:
    """A Cypher CASE that turns a scale value into its rank (0 = best)."""
    cases = " ".join(f"WHEN '{value}' THEN {rank}" for rank, value in enumerate(scale))
    return f"CASE {variable} {cases} END"


# --- counts ---------------------------------------------------------------------------

# The text layer (notebook 13: chunks of the notes) lives beside the course graph.
def test_whole_graph_is_75_nodes_and_132_relationships(college_db):
    assert rows(college_db, "MATCH (n) WHERE NOT n:Chunk RETURN count(n)") == [[75]]
    assert rows(college_db, "MATCH (a)-[r]->(b) WHERE NOT a:Chunk AND NOT b:Chunk "
                            "RETURN count(r)") == [[132]]
    # ...and the text layer is all that is beside it: chunks, each PART_OF one note.
    assert rows(college_db, "MATCH (n:Chunk) WHERE labels(n) <> ['Chunk'] RETURN count(n)") == [[0]]
    assert rows(college_db, "MATCH (c:Chunk)-[r]-(x) WHERE type(r) <> 'PART_OF' OR NOT x:Note "
                            "RETURN count(r)") == [[0]]


def test_nodes_by_label(college_db):
    found = rows(college_db, "MATCH (n) WHERE NOT n:Chunk RETURN labels(n)[0], count(*)")
    assert dict(map(tuple, found)) == LABEL_COUNTS


def test_relationships_by_type_and_endpoints(college_db):
    found = rows(college_db, "MATCH (a)-[r]->(b) WHERE NOT a:Chunk "
                             "RETURN labels(a)[0], type(r), labels(b)[0], count(*)")
    assert {(a, t, b): n for a, t, b, n in found} == TYPE_COUNTS


def test_people_and_courses_part_is_20_nodes_and_39_relationships(college_db):
    part = "NOT x:Concept AND NOT x:Note AND NOT x:Chunk"
    nodes = rows(college_db, f"MATCH (x) WHERE {part} RETURN count(x)")
    rels = rows(college_db, f"MATCH (a)-[r]->(b) WHERE {part.replace('x', 'a')} "
                            f"AND {part.replace('x', 'b')} RETURN count(r)")
    assert (nodes, rels) == ([[20]], [[39]])


def test_no_pair_of_nodes_is_linked_twice(college_db):
    assert rows(college_db, "MATCH (a)-[r]->(b) WITH a, b, count(r) AS k WHERE k > 1 "
                            "RETURN a, b, k") == []


# --- values ---------------------------------------------------------------------------

def test_students_subjects_clubs_skills_projects(college_db):
    assert dict(map(tuple, rows(college_db, "MATCH (s:Student) RETURN s.id, s.name"))) == STUDENTS
    assert dict(map(tuple, rows(college_db, "MATCH (s:Subject) RETURN s.code, s.name"))) == SUBJECTS
    for label, names in (("Club", CLUBS), ("Skill", SKILLS), ("Project", PROJECTS)):
        assert {r[0] for r in rows(college_db, f"MATCH (n:{label}) RETURN n.name")} == names


def test_concepts_are_numbered_in_course_order_with_their_area(college_db):
    expected = [[f"C{i:02d}", name, area] for i, (name, area) in enumerate(
        ((name, area) for area, names in CONCEPTS for name in names), start=1)]
    found = rows(college_db, "MATCH (c:Concept) RETURN c.id, c.name, c.area ORDER BY c.id")
    assert found == expected
    assert found[:8] == [["C01", "Normalization", "DBMS"], ["C02", "1NF", "DBMS"],
                         ["C03", "2NF", "DBMS"], ["C04", "3NF", "DBMS"],
                         ["C05", "BCNF", "DBMS"], ["C06", "Indexing", "DBMS"],
                         ["C07", "Query Optimization", "DBMS"], ["C08", "Transactions", "DBMS"]]


def check_properties(props: dict, spec: dict, where: str) -> None:
    """Exactly the schema's properties, each of its declared type and on its scale."""
    assert set(props) == set(spec), (where, props)
    for name, value in props.items():
        kind = int if spec[name]["type"] == "integer" else str
        assert isinstance(value, kind) and value != "", (where, name, value)
        if "scale" in spec[name]:
            assert value in spec[name]["scale"], (where, name, value)


def test_every_node_has_exactly_the_schema_properties_with_their_types(college_db):
    for label, spec in load_schema()["labels"].items():
        found = rows(college_db, f"MATCH (n:{label}) RETURN properties(n)")
        assert len(found) == LABEL_COUNTS[label]
        for (props,) in found:
            check_properties(props, spec["properties"], label)


def test_every_relationship_has_exactly_the_schema_properties(college_db):
    for rel in load_schema()["relationships"]:
        where = f"({rel['from']})-[:{rel['type']}]->({rel['to']})"
        found = rows(college_db, f"MATCH (:{rel['from']})-[r:{rel['type']}]->(:{rel['to']}) "
                                 "RETURN properties(r)")
        assert len(found) == TYPE_COUNTS[rel["from"], rel["type"], rel["to"]], where
        for (props,) in found:
            check_properties(props, rel.get("properties") or {}, where)


def test_ordered_properties_have_a_best_first_scale():
    assert scale_of("STUDIES", "grade") == ["A+", "A", "B+", "B", "C"]
    assert scale_of("HAS_SKILL", "level") == ["Advanced", "Intermediate", "Beginner"]


def test_payal_is_a_second_year_cse_student(college_db):
    found = rows(college_db, "MATCH (s:Student {name: 'Payal'}) RETURN s.year, s.branch")
    assert found == [[2, "CSE"]]


def test_aarav_studies_dbms_with_payal(college_db):
    found = rows(college_db, """
        MATCH (a:Student {name: 'Aarav'})-[:STUDIES]->(sub:Subject {name: 'DBMS'})
        MATCH (sub)<-[:STUDIES]-(p:Student) WHERE p <> a RETURN p.name""")
    assert found == [["Payal"]]


def test_friendships_are_stored_in_one_direction(college_db):
    found = rows(college_db, "MATCH (a:Student)-[:FRIENDS_WITH]->(b:Student) "
                             "RETURN a.name, b.name ORDER BY a.name")
    assert found == [["Aarav", "Payal"], ["Rahul", "Karan"], ["Sneha", "Payal"]]
    assert rows(college_db, "MATCH (a)-[:FRIENDS_WITH]->(b)-[:FRIENDS_WITH]->(a) "
                            "RETURN count(*)") == [[0]]


def test_every_project_requires_a_skill_someone_on_it_has(college_db):
    found = rows(college_db, """
        MATCH (p:Project)-[:REQUIRES]->(k:Skill)
        OPTIONAL MATCH (p)<-[:WORKS_ON]-(s:Student)-[:HAS_SKILL]->(k)
        WITH p, count(s) AS covered RETURN p.name, covered > 0""")
    assert {name: ok for name, ok in found} == dict.fromkeys(PROJECTS, True)


# --- concepts and notes ---------------------------------------------------------------

def test_each_concept_is_covered_by_exactly_the_subject_named_in_its_area(college_db):
    found = rows(college_db, """
        MATCH (c:Concept) OPTIONAL MATCH (s:Subject)-[:COVERS]->(c)
        RETURN c.name, c.area, collect(s.name)""")
    assert len(found) == 30
    for name, area, subjects in found:
        assert subjects == [area], name


def test_each_note_explains_one_concept_and_the_first_three_follow_the_course(college_db):
    found = rows(college_db, """
        MATCH (n:Note) OPTIONAL MATCH (n)-[:EXPLAINS]->(c:Concept)
        RETURN n.id, collect(c.name) ORDER BY n.id""")
    assert [r[0] for r in found] == [f"N{i:02d}" for i in range(1, 26)]
    assert all(len(concepts) == 1 for _, concepts in found)
    assert found[:3] == [["N01", ["Normalization"]], ["N02", ["1NF"]], ["N03", ["2NF"]]]


def test_each_note_is_a_few_sentences_about_its_concept(college_db):
    aliases = load_schema()["aliases"]
    found = rows(college_db, "MATCH (n:Note)-[:EXPLAINS]->(c:Concept) RETURN c.name, n.text")
    for concept, text in found:
        forms = {concept, concept[:-1], concept[:-2], *aliases.get(concept, [])}
        assert any(form.lower() in text.lower() for form in forms), concept
        sentences = re.findall(r"[.!?](?:\s|$)", text)
        assert 2 <= len(sentences) <= 4 and len(text) < 600, (concept, len(sentences))


def test_aliases_name_values_that_exist_and_are_unambiguous(college_db):
    aliases = load_schema()["aliases"]
    names = {r[0] for r in rows(college_db, "MATCH (n) WHERE n.name IS NOT NULL RETURN n.name")}
    assert set(aliases) <= names
    spelled = [alias.lower() for values in aliases.values() for alias in values]
    assert len(spelled) == len(set(spelled))
    assert not {alias for alias in spelled} & {name.lower() for name in names}


# --- the five demo questions ----------------------------------------------------------

def test_q1_only_payal_and_aarav_study_dbms(college_db):
    found = rows(college_db, "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DBMS'}) "
                             "RETURN s.name, r.grade ORDER BY s.name")
    assert found == [["Aarav", "A"], ["Payal", "A+"]]


def test_q1_course_text_query_names_payal(college_db):
    assert rows(college_db, Q1_BEST_DBMS_TEACHER) == [["Payal", "A+"]]


def test_q1_ranked_by_the_grade_scale_gives_payal_then_aarav(college_db):
    rank = rank_expression("r.grade", scale_of("STUDIES", "grade"))
    found = rows(college_db, "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DBMS'}) "
                             f"RETURN s.name, r.grade ORDER BY {rank}")
    assert found == [["Payal", "A+"], ["Aarav", "A"]]


def test_q2_course_text_query_finds_payal_in_two_clubs(college_db):
    found = rows(college_db, Q2_COMMON_IN_CLUBS)
    assert [[name, sorted(clubs)] for name, clubs in found] == \
        [["Payal", ["Coding Club", "Debate Society"]]]


def test_q2_payal_alone_studies_dbms_and_debates(college_db):
    both = rows(college_db, """
        MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DBMS'})
        MATCH (s)-[:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN s.name""")
    debaters = rows(college_db, "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Debate Society'}) "
                                "RETURN s.name ORDER BY s.name")
    assert both == [["Payal"]]
    assert debaters == [["Payal"], ["Sneha"]]


def test_q2_fuzzy_retry_query_from_the_course_text_finds_payal(college_db):
    found = rows(college_db, """
        MATCH (s:Student)-[:STUDIES]->(sub:Subject)
        WHERE toLower(sub.name) CONTAINS 'dbms'
        MATCH (s)-[:MEMBER_OF]->(c:Club)
        WHERE toLower(c.name) CONTAINS 'debate'
        RETURN s.name""")
    assert found == [["Payal"]]


def test_q3_course_text_query_gives_the_normal_form_chain(college_db):
    assert rows(college_db, Q3_LEARNING_PATH) == [
        [["1NF", "2NF", "3NF", "BCNF"], ["PREREQUISITE_FOR"] * 3]]


def test_q3_the_shortest_path_is_unique(college_db):
    all_shortest = Q3_LEARNING_PATH.replace("pathCount: 1", "pathCount: 0")
    assert [r[0] for r in rows(college_db, all_shortest)] == [["1NF", "2NF", "3NF", "BCNF"]]
    # Reference without the algorithm: every path of length <= 3, either direction.
    found = rows(college_db, """
        MATCH p = (:Concept {name: '1NF'})-[:PREREQUISITE_FOR|INCLUDES*1..3]-(:Concept {name: 'BCNF'})
        RETURN [n IN nodes(p) | n.name]""")
    assert found == [[["1NF", "2NF", "3NF", "BCNF"]]]


def test_q4_course_text_query_gives_aaravs_next_topics(college_db):
    found = rows(college_db, Q4_NEXT_TOPICS)
    assert sorted(r[0] for r in found) == ["Indexing", "Query Optimization", "Transactions"]


def test_q4_aarav_studies_dbms_and_operating_systems(college_db):
    found = rows(college_db, "MATCH (:Student {name: 'Aarav'})-[:STUDIES]->(s:Subject) "
                             "RETURN s.name ORDER BY s.name")
    assert found == [["DBMS"], ["Operating Systems"]]


def test_q5_only_rahul_and_karan_know_machine_learning(college_db):
    found = rows(college_db, "MATCH (s:Student)-[h:HAS_SKILL]->(:Skill {name: 'Machine Learning'}) "
                             "RETURN s.name, h.level ORDER BY s.name")
    assert found == [["Karan", "Intermediate"], ["Rahul", "Advanced"]]


def test_q5_course_text_query_orders_levels_as_strings_and_puts_karan_first(college_db):
    # The known bug notebook 08 shows: "Intermediate" > "Advanced" as strings.
    assert rows(college_db, Q5_LEARN_ML_FROM) == [["Karan", "Intermediate"], ["Rahul", "Advanced"]]


def test_q5_corrected_query_orders_by_the_scale_and_puts_rahul_first(college_db):
    rank = rank_expression("h.level", scale_of("HAS_SKILL", "level"))
    corrected = Q5_LEARN_ML_FROM.replace("ORDER BY h.level DESC", f"ORDER BY {rank}")
    assert rows(college_db, corrected) == [["Rahul", "Advanced"], ["Karan", "Intermediate"]]
