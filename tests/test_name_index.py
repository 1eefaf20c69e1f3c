"""Linking from the names held in memory finds what the full-text queries found (issue 21).

The reference is linking as it was: one full-text query per label and question
(`db.idx.fulltext.queryNodes`, fuzzy `%word%`), the candidates then scored by the same
`_match` (a part of a name kept only when `_named_apart` says it stands for it). Every question
of data/eval must link to the same mentions, in the same order, for every set of labels the
course links with.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from course.foundation.config import PROJECT_ROOT
from course.foundation.dataset import (FULLTEXT_PROPERTY, synthetic_college, write_dataset,
                                       create_fulltext_indexes)
from course.foundation.db import Database
from course.pipeline.evaluation import json_lines
from course.pipeline.linking import (Mention, _best_mentions, _LabelNames, _match, _named_apart,
                                     _the_graph_itself, _words, _written_apart, link_entities, name_index)
from course.pipeline.schema import GraphSchema, introspect

EVAL = PROJECT_ROOT / "data" / "eval"


def questions_in(value: Any) -> Iterator[str]:
    """Every "question" in a line of an eval set, its parts' included."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "question" and isinstance(item, str):
                yield item
            else:
                yield from questions_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from questions_in(item)


def every_eval_question() -> list[str]:
    found = [q for path in sorted(EVAL.glob("*.jsonl"))
             for _, line in json_lines(path, what="question set", example=path.name)
             for q in questions_in(line)]
    return list(dict.fromkeys(found))


def fulltext_candidates(db: Database, label: str, prop: str, words: list[str]) -> list[str]:
    """The reference: the names the label's full-text index finds for the words (one query)."""
    terms = [word if len(word) <= 3 else f"{word}|%{word}%" for word in words]
    rows = db.run(f"UNWIND $terms AS term "
                  f"CALL db.idx.fulltext.queryNodes('{label}', term) YIELD node, score "
                  f"WITH term, node.{prop} AS name, score ORDER BY score DESC, size(name) "
                  f"WITH term, collect(name)[..20] AS names RETURN names",
                  {"terms": terms}, max_rows=len(terms)).rows
    return list(dict.fromkeys(n for (names,) in rows for n in names if isinstance(n, str)))


def linked_by_fulltext(db: Database, question: str, schema: GraphSchema,
                       labels: dict[str, str]) -> list[Mention]:
    """Linking as it was before the name index: full-text queries and a query per alias."""
    words = _words(question)
    found: dict[tuple[str, str], tuple[float, list[int]]] = {}
    searched = list(dict.fromkeys(w for w in words if len(w) >= 2))
    for label, prop in labels.items():
        for value in fulltext_candidates(db, label, prop, searched) if searched else []:
            score, used = _match(value, words)
            if score < 1.0 and not _named_apart(label, question, words, used):
                continue
            if score and score > found.get((label, value), (0, []))[0]:
                found[(label, value)] = (score, used)
        # (a name written with its spaces moved, "dead locks": the same rule, no index's business)
        rows = db.run(f"MATCH (n:{label}) RETURN n.{prop}", max_rows=10**6).rows
        names = [v for (v,) in rows if isinstance(v, str)]
        for value, used in _written_apart(_LabelNames(names), words).items():
            if found.get((label, value), (0.0, []))[0] < 1.0:
                found[(label, value)] = (1.0, used)
    for value, aliases in schema.aliases.items():
        for alias in aliases:
            alias_words = _words(alias)
            for start in range(len(words) - len(alias_words) + 1):
                if words[start:start + len(alias_words)] == alias_words:
                    for label, prop in labels.items():
                        there = db.run(f"MATCH (n:{label}) WHERE n.{prop} = $v RETURN count(n)",
                                       {"v": value}).rows[0][0]
                        span = list(range(start, start + len(alias_words)))
                        if there and len(span) >= len(found.get((label, value), (0, []))[1]):
                            found[(label, value)] = (1.0, span)
    itself = _the_graph_itself(question)   # ("... in the graph?": no index's business, the same rule)
    return _best_mentions({k: v for k, v in found.items() if not set(v[1]) <= itself}, words)


# Where the full-text index linked a word the name index rightly does not: (word, value).
# the Hindi verb "karna" (to do), and "karne", not the student
FULLTEXT_MISTAKES = {("karna", "Karan"), ("karne karna", "Karan"), ("karne", "Karan")}


def without_mistakes(mentions: list[Mention]) -> list[Mention]:
    return [m for m in mentions if (m.text, m.value) not in FULLTEXT_MISTAKES]


LABEL_SETS = [FULLTEXT_PROPERTY, {"Concept": "name"}] + [{label: prop} for label, prop
                                                          in FULLTEXT_PROPERTY.items()]


@pytest.mark.slow
def test_every_eval_question_links_as_the_fulltext_indexes_linked_it(college_db):
    questions = every_eval_question()
    schema = introspect(college_db)
    assert len(questions) > 500
    differences = []
    for labels in LABEL_SETS:
        for question in questions:
            before = without_mistakes(linked_by_fulltext(college_db, question, schema, labels))
            now = link_entities(college_db, question, schema=schema, labels=labels)
            if now != before:
                differences.append((list(labels), question, before, now))
    assert differences == []


@pytest.mark.parametrize("question, expected", [
    ("dbms and debate-ye dono ke students kaun hain?", ["DBMS", "Debate Society"]),
    ("Who is Payl?", ["Payal"]),                        # one typo
    ("Who should I learn ML from?", ["Machine Learning"]),   # an alias of schema.yaml
    ("What is a Process Control Block?", ["Processes"]),     # another ending
    ("1NF se BCNF tak ka learning path batao", ["1NF", "BCNF"]),   # short words: exact only
    ("What is common in all the clubs?", []),           # "clubs" is no particular club
])
def test_the_name_index_links_typos_endings_and_aliases(college_db, question, expected):
    schema = introspect(college_db)
    assert [m.value for m in link_entities(college_db, question, schema=schema)] == expected
    assert [m.value for m in linked_by_fulltext(college_db, question, schema,
                                                FULLTEXT_PROPERTY)] == expected


@pytest.mark.slow   # writes a graph 100 times the college one: seconds
def test_a_graph_a_hundred_times_larger_links_the_same(empty_db):
    write_dataset(empty_db, synthetic_college(100))
    create_fulltext_indexes(empty_db, FULLTEXT_PROPERTY)
    schema = introspect(empty_db)
    for question in ("dbms and debate-ye dono ke students kaun hain?", "Who is Payal 42?",
                     "Who should I learn ML from?", "Aarav 7 ke next topics kya hain?"):
        before = linked_by_fulltext(empty_db, question, schema, FULLTEXT_PROPERTY)
        assert link_entities(empty_db, question, schema=schema) == before, question


def test_a_reload_gives_linking_the_new_names(college_db, tmp_path):
    from course.foundation.dataset import load_college
    import shutil

    data = tmp_path / "college"
    shutil.copytree(PROJECT_ROOT / "data" / "college", data)
    students = data / "nodes" / "Student.csv"
    students.write_text(students.read_text(encoding="utf-8").replace("Payal", "Paayal"),
                        encoding="utf-8")
    schema = introspect(college_db)
    assert [m.value for m in link_entities(college_db, "Who is Paayal?", schema=schema)] == ["Payal"]
    assert name_index(college_db) is name_index(college_db)      # kept while nothing changes
    load_college(college_db, reset_first=True, data_dir=data)
    assert [m.value for m in link_entities(college_db, "Who is Paayal?", schema=schema)] == ["Paayal"]
