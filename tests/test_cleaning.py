"""The output cleaner (course/pipeline/cleaning.py): messy model outputs, the course text's Qwen
failure, the course text's own cleaner where it fails, and property tests."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course.foundation.errors import QueryFailed
from course.pipeline.cleaning import clean, naive_clean
from course.pipeline.guard import check

PAYAL_FRIENDS = ("MATCH (s:Student)-[:FRIENDS_WITH]->(f:Student) WHERE toLower(s.name) "
                 "CONTAINS toLower('payal') RETURN f.name")
# The course text's "Real output from Qwen" (Error 6), as printed there.
QWEN = ("<think>\nLet me think about this query...\n5. **Check against Rules:**\n"
        "Rule 9: Every node variable must have a label.\n...\n</think>\n\n" + PAYAL_FRIENDS)
# The same model, its <think> left open: a draft, the rule check, then the final query.
QWEN_OPEN = ("<think>\nThe user wants Payal's friends.\n"
             "MATCH (s:Student)\n      -[:FRIENDS_WITH]->(f:Student)\n"
             "WHERE toLower(s.name) CONTAINS toLower('payal')\nRETURN f.name AS friend_name\n\n"
             "5. **Check against Rules:**\nRule 9: Every node variable must have a label.\n\n"
             + PAYAL_FRIENDS)
SENTINEL = "RETURN 'OUT_OF_SCOPE' AS status"
SPPATHS = ("MATCH (a:Concept {name: '1NF'}), (b:Concept {name: 'BCNF'})\nCALL algo.SPpaths({\n"
           "  sourceNode: a, targetNode: b,\n  relTypes: ['PREREQUISITE_FOR', 'INCLUDES'],\n"
           "  relDirection: 'both', pathCount: 1\n}) YIELD path\n"
           "RETURN [n IN nodes(path) | n.name] AS route")
Q = "MATCH (s:Student) RETURN s.name"

CASES = [  # (raw, cypher, removed)
    (QWEN, PAYAL_FRIENDS, ["a <think> block (6 lines)"]),
    (QWEN_OPEN, PAYAL_FRIENDS, ["an unclosed <think> block (8 lines)"]),
    (f"{Q}\n<think>\nDid I label every node?", Q,
     ["an unclosed <think> block after the query (2 lines)"]),
    (f"The user asks for names.\n</think>\n{Q}", Q,
     ["a <think> block without its opening tag (2 lines)"]),
    (f"<thinking>\nhmm\n</thinking>\n{Q}", Q, ["a <thinking> block (3 lines)"]),
    (f"```cypher\n{Q};\n```", Q, ["a ```cypher fence", "a trailing ;"]),
    (f"```\n{Q}\n```", Q, ["a ``` fence"]),
    (f"```sql\n{Q}\n```", Q, ["a ```sql fence"]),
    (f"~~~\n{Q}\n~~~", Q, ["a ``` fence"]),
    (f"```cypher {Q}```", Q, ["a ```cypher fence"]),
    (f"```cypher\n{Q}```", Q, ["a ```cypher fence"]),
    (f"Here is the query:\n```cypher\n{Q}\n```\nThis returns every student's name.", Q,
     ["a ```cypher fence", 'a preamble ("Here is the query:")', "prose after the query (1 line)"]),
    (f"Here is the query:\n{Q}", Q, ['a preamble ("Here is the query:")']),
    (f"Here is the query: {Q}", Q, ['a preamble ("Here is the query:")']),
    (f"Cypher: {Q}", Q, ['a preamble ("Cypher:")']),
    (f"Sure! {Q}", Q, ['a preamble ("Sure!")']),
    (f"Sure!\nHere's the Cypher query you asked for:\n\n{Q}", Q, ["a preamble (2 lines)"]),
    (f"`{Q}`", Q, ["inline `code` backticks"]),
    (f"<|im_start|>assistant\n{Q}<|im_end|>", Q,
     ["chat-template tokens (<|im_start|>, <|im_end|>)"]),
    (f"<|start_header_id|>assistant<|end_header_id|>\n\n{Q}<|eot_id|>", Q,
     ["chat-template tokens (<|start_header_id|>, <|eot_id|>)"]),
    (f"[INST] list the students [/INST] {Q} </s>", Q,
     ["chat-template tokens ([INST], [/INST], </s>)", 'a preamble ("list the students")']),
    (f"{Q};", Q, ["a trailing ;"]),
    (f"{Q} ;;  ", Q, ["a trailing ;"]),
    (f"{Q}\n\nThis query returns the names of all students.", Q,
     ["prose after the query (1 line)"]),
    (f"MATCH (s:Student)\nRETURN s.name\nThis lists every student.\nAsk me for more!",
     "MATCH (s:Student)\nRETURN s.name", ["prose after the query (2 lines)"]),
    (f"Match the student by name:\nmatch (s:Student) return s.name",
     "match (s:Student) return s.name", ['a preamble ("Match the student by name:")']),
    (SPPATHS, SPPATHS, []),
    (f"```cypher\n{SPPATHS}\n```", SPPATHS, ["a ```cypher fence"]),
    (SENTINEL, SENTINEL, []),
    (f"```\n{SENTINEL};\n```", SENTINEL, ["a ``` fence", "a trailing ;"]),
    (f"<think>Out of scope: no Program label.</think>\n{SENTINEL}", SENTINEL,
     ["a <think> block (1 line)"]),
    ("I'm sorry, I can't help with that.", "",
     ["all of the text: no Cypher clause found (1 line)"]),
    ("<think>\nMATCH (s:Student) RETURN s.name\n</think>", "", ["a <think> block (3 lines)"]),
    ("", "", []),
    ("MATCH (n) DETACH DELETE n", "MATCH (n) DETACH DELETE n", []),
    ("Cleaning up the old data:\n```cypher\nMATCH (n) DETACH DELETE n;\n```",
     "MATCH (n) DETACH DELETE n",
     ["a ```cypher fence", 'a preamble ("Cleaning up the old data:")', "a trailing ;"]),
    ("MATCH (s:Student)\r\nRETURN s.name\r\n", "MATCH (s:Student)\nRETURN s.name", []),
]


@pytest.mark.parametrize(("raw", "cypher", "removed"), CASES)
def test_clean(raw, cypher, removed):
    cleaned = clean(raw)
    assert cleaned.cypher == cypher
    assert cleaned.removed == removed


@pytest.mark.parametrize("query", [
    "MATCH (s:Student)\nWHERE s.year = 2\n  AND s.branch = 'CSE'\nRETURN s.name,\n       s.year",
    "MATCH (s:Student)-[r:STUDIES]->(sub:Subject)\nWITH s, count(sub) AS n\nWHERE n > 1\n"
    "RETURN s.name AS name\nORDER BY name\nDESC\nLIMIT 3",
    "MATCH (n:Note)\nWHERE n.text CONTAINS 'first line.\nsecond line.'\nRETURN n.id",
    "MATCH (s:Student)\nWHERE\n  toLower(s.name) CONTAINS 'pay'\nRETURN\n  s.name",
    "MATCH (s:Student) // the students\nRETURN s.name /* every one */",
    "MATCH (s:Student)\n\nRETURN s.name",
    "UNWIND [1, 2] AS x\nRETURN x",
    "OPTIONAL MATCH (s:Student)-[:WORKS_ON]->(p:Project)\nRETURN s.name, p.name",
])
def test_multi_line_queries_survive_whole(query):
    assert clean(query).cypher == query
    assert clean(query).removed == []


def test_cleaning_never_hides_an_unsafe_query_from_the_guard():
    from test_safety import REFUSED  # the guard's battery

    for query, clause in REFUSED:
        if clause in ("empty query",) or clause.startswith("unclosed"):
            continue
        cleaned = clean(query).cypher
        assert not check(cleaned), (query, cleaned)
        assert check(cleaned).clause == clause
        wrapped = clean(f"Sure! Here it is:\n```cypher\n{query}\n```")
        assert check(wrapped.cypher).clause == clause


# --- the course text's _clean_cypher, where it fails ------------------------------------

def test_course_text_cleaner_works_on_the_printed_qwen_output():
    assert naive_clean(QWEN) == PAYAL_FRIENDS


@pytest.mark.parametrize("raw", [
    QWEN_OPEN,
    f"{Q}\n\nThis query returns the names of all students.",
    f"Cypher: {Q}",
    f"<|im_start|>assistant\n{Q}<|im_end|>",
    f"{Q}\n<think>\nDid I label every node?",
])
def test_course_text_cleaner_fails_where_clean_does_not(raw):
    assert naive_clean(raw) != clean(raw).cypher
    assert clean(raw).cypher in (Q, PAYAL_FRIENDS)


def test_the_qwen_failure_on_the_real_database(college_db):
    # Raw text: FalkorDB tries to read the <think> block as Cypher.
    with pytest.raises(QueryFailed) as raw_error:
        college_db.run(QWEN)
    assert "Invalid input '<'" in raw_error.value.server_message
    # The course text's cleaner on an unclosed <think>: the course text's own error.
    with pytest.raises(QueryFailed) as naive_error:
        college_db.run(naive_clean(QWEN_OPEN))
    message = naive_error.value.server_message
    assert "Invalid input '5'" in message and "line: 6, column: 1" in message
    assert "5. **Check against Rules:**" in message
    # clean(): the query runs. Payal's FRIENDS_WITH edges point at her, so -> finds none.
    assert college_db.run(clean(QWEN_OPEN).cypher).rows == []
    undirected = clean(QWEN).cypher.replace("]->(f", "]-(f")
    assert sorted(college_db.run(undirected).rows) == [["Aarav"], ["Sneha"]]


# --- property tests ---------------------------------------------------------------------

_VALUE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:;!?-",
                 min_size=1, max_size=12)


@st.composite
def queries(draw) -> str:
    """A read query, one clause a line or several on one line."""
    var, label = draw(st.sampled_from([("s", "Student"), ("c", "Club"), ("k", "Concept")]))
    lines = [draw(st.sampled_from([
        f"MATCH ({var}:{label})", f"OPTIONAL MATCH ({var}:{label})",
        f"MATCH ({var}:{label})-[:STUDIES]->(sub:Subject)",
        f"MATCH ({var}:{label})-[:PREREQUISITE_FOR*1..2]->(n:Concept)",
        f"UNWIND [1, 2] AS x MATCH ({var}:{label})"]))]
    if draw(st.booleans()):
        lines.append(f"WHERE toLower({var}.name) CONTAINS toLower('{draw(_VALUE)}')")
    if draw(st.booleans()):
        lines.append(f"WITH {var}, count(*) AS c")
    lines.append(draw(st.sampled_from([f"RETURN {var}.name AS name", f"RETURN DISTINCT {var}.name",
                                       f"RETURN {var}.name, {var}.year"])))
    if draw(st.booleans()):
        lines.append(f"ORDER BY {var}.name DESC")
    if draw(st.booleans()):
        lines.append(f"LIMIT {draw(st.integers(1, 9))}")
    joins = draw(st.lists(st.sampled_from(["\n", " ", "\n  "]), min_size=len(lines),
                          max_size=len(lines)))
    return lines[0] + "".join(j + line for j, line in zip(joins, lines[1:]))


_REASONING = st.lists(st.sampled_from([
    "Let me think about this query...", "5. **Check against Rules:**",
    "Rule 9: Every node variable must have a label.", "Should I return f.name or f.name AS x?",
    "MATCH (s) RETURN s", "The question is about students.", "", "...",
]), min_size=1, max_size=6)
_PREAMBLES = st.sampled_from(["", "Here is the query:", "Cypher:",
                              "Sure! Here is the Cypher query:", "Here's the query you asked for:"])
_PROSE = st.sampled_from(["", "This query returns the names.", "Let me know if you need more!",
                          "Note: names are matched case-insensitively."])
_CHAT = st.sampled_from([("", ""), ("<|im_start|>assistant\n", "<|im_end|>"),
                         ("", "<|eot_id|>"), ("[INST] question [/INST]\n", "</s>")])


@pytest.mark.slow   # half a second or more
@settings(max_examples=300, deadline=None)
@given(query=queries(), reasoning=_REASONING, language=st.sampled_from(["", "cypher", "sql"]),
       fenced=st.booleans(), preamble=_PREAMBLES, prose=_PROSE, semicolon=st.booleans(),
       chat=_CHAT)
def test_clean_recovers_the_query_from_any_wrapping(query, reasoning, language, fenced, preamble,
                                                    prose, semicolon, chat):
    body = query + (";" if semicolon else "")
    if fenced:
        body = f"```{language}\n{body}\n```"
    think = "<think>\n" + "\n".join(reasoning) + "\n</think>\n"
    raw = f"{chat[0]}{think}{preamble}\n{body}\n\n{prose}{chat[1]}"
    cleaned = clean(raw)
    assert cleaned.cypher == query, raw
    assert cleaned.removed[0 if not chat[0] + chat[1] else 1].startswith("a <think> block")


@pytest.mark.slow   # half a second or more
@settings(max_examples=300, deadline=None)
@given(query=queries())
def test_a_clean_query_is_left_alone(query):
    assert clean(query).cypher == query and clean(query).removed == []


@pytest.mark.slow   # half a second or more
@settings(max_examples=500, deadline=None)
@given(raw=st.text(max_size=200) | queries() | st.builds(
    lambda q, r: f"<think>\n{r}\n{q}", queries(), st.text(max_size=40)))
def test_clean_is_idempotent(raw):
    once = clean(raw).cypher
    twice = clean(once)
    assert twice.cypher == once
    assert twice.removed == []
