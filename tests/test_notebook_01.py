"""Notebook 01 (load graph): the facts its cells print, checked here rather than in the lesson.

nbval compares every printed output; these tests say which fact each output stands for, so a
change that breaks one fails with its name.
"""
from __future__ import annotations

import pytest

from course.foundation.dataset import load_college
from course.ui.viz import draw_graph


def test_the_whole_graph_has_30_concepts_and_25_notes(empty_db):
    counts = load_college(empty_db)
    assert (counts["labels"]["Concept"], counts["labels"]["Note"]) == (30, 25)


def test_loading_twice_keeps_75_nodes_and_132_relationships(empty_db):
    load_college(empty_db)
    again = load_college(empty_db)
    assert (again["nodes"], again["relationships"]) == (75, 132)


def test_payal_is_a_second_year_cse_student(college_db):
    rows = college_db.run("MATCH (s:Student) WHERE s.year = 2 "
                          "RETURN s.name AS name, s.branch AS branch ORDER BY name").rows
    assert ["Payal", "CSE"] in rows


def test_aarav_studies_dbms_with_payal(college_db):
    rows = college_db.run("MATCH (p:Student {name: $name})-[:STUDIES]->(sub:Subject)"
                          "<-[:STUDIES]-(other:Student) WHERE other <> p "
                          "RETURN sub.name, other.name", {"name": "Payal"}).rows
    assert ["DBMS", "Aarav"] in rows


@pytest.mark.slow   # half a second or more
def test_the_picture_draws_75_nodes_and_132_relationships(college_db, tmp_path):
    picture = draw_graph(college_db, directory=tmp_path)
    assert (picture.nodes, picture.edges) == (75, 132)


def test_payal_is_lit_up_in_her_neighbourhood(college_db, tmp_path):
    payal = draw_graph(college_db, highlight=["Payal"], name="payal", directory=tmp_path)
    assert payal.highlighted == ["Payal"]
