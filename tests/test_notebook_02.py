"""Notebook 02 (schema prompt): the facts its cells print, checked here rather than in the lesson."""
from __future__ import annotations

import pytest

from course import ScriptedLLM
from course.foundation.dataset import write_synthetic_college
from course.pipeline import prompts
from course.pipeline.linking import link_entities
from course.pipeline.prompt_size import generated_prompt, handwritten_prompt, size
from course.pipeline.schema import introspect

QUESTION = "dbms and debate-ye dono ke students kaun hain?"


def test_a_query_over_labels_that_do_not_exist_returns_no_rows_and_no_error(college_db):
    naive = ScriptedLLM(["MATCH (p:Program) WHERE p.type = 'Masters' RETURN p.name, p.field",
                         "MATCH (t:Teacher)-[:TEACHES]->(c:Course {name: 'DBMS'}) RETURN t.name"])
    for question in ["Should I do a Masters in CSE or Electronics?",
                     "Who is the best person to teach me DBMS?"]:
        assert college_db.run(naive.generate(question)).rows == []
    labels = [row[0] for row in college_db.run("CALL db.labels() YIELD label RETURN label").rows]
    assert "Program" not in labels and "Teacher" not in labels


def test_repeating_values_are_listed_and_names_never(college_db):
    schema = introspect(college_db)
    student = schema.labels["Student"][1]
    assert student["branch"].values == ["CSE", "ECE", "IT"] and student["year"].type == "integer"
    assert all(props["name"].values is None for _, props in schema.labels.values() if "name" in props)


def test_a_cap_of_two_values_turns_the_lists_into_examples(college_db):
    assert "Values, e.g.: 'CSE', 'IT', ... (3 distinct)." in introspect(college_db, max_values=2).render()


def test_a_schema_without_concepts_and_notes_has_seven_patterns(college_db):
    people = introspect(college_db, exclude=["Concept", "Note"])
    assert "(:Concept)" not in people.render() and len(people.patterns) == 7
    assert link_entities(college_db, "1NF se BCNF tak", schema=people) == []


@pytest.mark.parametrize("question, values", [
    (QUESTION, ["DBMS", "Debate Society"]),
    ("Who is Payl?", ["Payal"]),
    ("Who should I learn ML from?", ["Machine Learning"]),
    ("1NF se BCNF tak ka learning path batao", ["1NF", "BCNF"]),
    ("What is the learning path?", []),          # "learning" is not Machine Learning
    ("What is common in all the clubs?", []),
])
def test_the_notebooks_questions_link_these_values(college_db, question, values):
    schema = introspect(college_db)
    assert [m.value for m in link_entities(college_db, question, schema=schema)] == values


def test_the_system_prompt_carries_the_out_of_scope_sentinel(college_db):
    assert prompts.SENTINEL_QUERY in prompts.cypher_system_prompt(introspect(college_db).render())


def test_the_handwritten_prompt_lists_the_course_texts_values(college_db):
    hand = handwritten_prompt(college_db, QUESTION)
    assert "- Students: Aarav (S01), Payal (S02), Rahul (S03), Sneha (S04), Karan (S05)" in hand
    assert "- Clubs: Coding Club, Debate Society, Robotics Club" in hand


@pytest.fixture
def synthetic(_shared_server, empty_db):
    """synthetic(scale): the college graph `scale` times larger, in a graph of its own."""
    made = []

    def make(scale):
        graph = _shared_server.select(f"{empty_db.graph_name}_x{scale}")
        made.append(graph)
        return write_synthetic_college(graph, scale)
    yield make
    for graph in made:
        graph.graph.delete()


@pytest.mark.slow   # writes a graph 100 times the college one: seconds
def test_at_100x_the_handwritten_prompt_is_some_20000_tokens_and_the_generated_one_is_flat(
        college_db, synthetic):
    big = synthetic(100)
    assert big.run("MATCH (s:Student) RETURN count(s)").rows == [[500]]      # "500 students"
    hand_small, hand_big = size(handwritten_prompt(college_db, QUESTION)), size(handwritten_prompt(big, QUESTION))
    assert 17_000 < hand_big["words+punct"] < 23_000 and 17_000 < hand_big["chars/4"] < 23_000
    assert hand_big["words+punct"] / hand_small["words+punct"] > 20
    generated_small = size(generated_prompt(college_db, QUESTION))
    assert size(generated_prompt(big, QUESTION))["words+punct"] / generated_small["words+punct"] < 1.05
    assert [m.value for m in link_entities(big, QUESTION, schema=introspect(big))] == ["DBMS", "Debate Society"]


@pytest.mark.slow   # writes a graph 100 times the college one: seconds
def test_the_generated_prompt_is_the_same_at_10x_and_100x(synthetic):
    ten, hundred = synthetic(10), synthetic(100)
    assert size(generated_prompt(hundred, QUESTION))["chars"] == size(generated_prompt(ten, QUESTION))["chars"]
