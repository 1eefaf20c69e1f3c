"""Notebook 04 (cleaning): the facts its cells print, checked here rather than in the lesson."""
from __future__ import annotations

import pytest

from course.foundation.errors import QueryFailed
from course.pipeline.cleaning import clean, naive_clean
from course.pipeline.guard import check

QWEN = """<think>
Let me think about this query...
5. **Check against Rules:**
Rule 9: Every node variable must have a label.
...
</think>

MATCH (s:Student)-[:FRIENDS_WITH]->(f:Student) WHERE toLower(s.name) CONTAINS toLower('payal') RETURN f.name"""
QWEN_OPEN = """<think>
The user wants Payal's friends.
MATCH (s:Student)
      -[:FRIENDS_WITH]->(f:Student)
WHERE toLower(s.name) CONTAINS toLower('payal')
RETURN f.name AS friend_name

5. **Check against Rules:**
Rule 9: Every node variable must have a label.

MATCH (s:Student)-[:FRIENDS_WITH]->(f:Student) WHERE toLower(s.name) CONTAINS toLower('payal') RETURN f.name"""
QUERY = "MATCH (s:Student) RETURN s.name"
MESSY = [
    f"```cypher\n{QUERY}\n```",
    f"```\n{QUERY};\n```",
    f"Here is the query:\n{QUERY}",
    f"Cypher: {QUERY}",
    f"Sure! Here is the Cypher query:\n\n```cypher\n{QUERY}\n```\n\nThis returns every student's name.",
    f"<|im_start|>assistant\n{QUERY}<|im_end|>",
    f"<|start_header_id|>assistant<|end_header_id|>\n\n{QUERY}<|eot_id|>",
    f"[INST] list the students [/INST] {QUERY} </s>",
    f"{QUERY};",
    f"{QUERY}\n\nThis query returns the names of all students.",
    f"`{QUERY}`",
    f"The user asks for names.\n</think>\n{QUERY}",
    f"{QUERY}\n<think>\nDid I give every node a label?",
]


def test_the_course_texts_cleaner_gives_the_course_texts_error_word_for_word(college_db):
    with pytest.raises(QueryFailed) as failed:
        college_db.run(naive_clean(QWEN_OPEN))
    assert "Invalid input '5'" in failed.value.server_message
    assert "line: 6, column: 1" in failed.value.server_message


def test_clean_takes_the_final_query_from_a_closed_or_an_unclosed_think():
    assert clean(QWEN).cypher == clean(QWEN_OPEN).cypher
    assert clean(QWEN).removed == ["a <think> block (6 lines)"]


def test_without_the_arrow_head_payals_friends_are_aarav_and_sneha(college_db):
    undirected = clean(QWEN).cypher.replace("]->(f:Student)", "]-(f:Student)")
    assert sorted(college_db.run(undirected).rows) == [["Aarav"], ["Sneha"]]


@pytest.mark.parametrize("raw", MESSY)
def test_every_wrapping_in_the_table_leaves_the_query(raw):
    assert clean(raw).cypher == QUERY


def test_the_sentinel_survives_and_prose_alone_leaves_no_query():
    assert clean("RETURN 'OUT_OF_SCOPE' AS status;").cypher == "RETURN 'OUT_OF_SCOPE' AS status"
    assert clean("I'm sorry, I can't help with that.").cypher == ""


def test_the_course_texts_cleaner_fails_five_of_the_six_cases_clean_runs(college_db):
    cases = [QWEN, QWEN_OPEN, MESSY[9], MESSY[3], MESSY[5], MESSY[12]]

    def runs(cypher: str) -> bool:
        try:
            college_db.run(cypher)
            return True
        except QueryFailed:
            return False
    assert all(runs(clean(raw).cypher) for raw in cases)
    assert sum(not runs(naive_clean(raw)) for raw in cases) == 5


def test_cleaning_keeps_a_delete_a_delete_for_the_guard():
    cleaned = clean("Cleaning up the old data:\n```cypher\nMATCH (n) DETACH DELETE n;\n```")
    assert cleaned.cypher == "MATCH (n) DETACH DELETE n" and not check(cleaned.cypher)
