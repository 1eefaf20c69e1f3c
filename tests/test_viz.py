"""The picture: the graph's nodes and relationships are in the HTML, lit up as asked, offline."""
from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from course.ui.viz import LIT_BORDER, draw_graph, draw_result, read_graph, text_values

EXTERNAL = re.compile(r"<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=\s*[\"']?(https?:)?//", re.I)


def drawn(picture) -> tuple[list[dict], list[dict]]:
    """The node and edge lists vis-network is given in the picture's HTML."""
    page = picture.path.read_text(encoding="utf-8")
    nodes = re.search(r"nodes = new vis\.DataSet\((\[.*?\])\);", page, re.S).group(1)
    edges = re.search(r"edges = new vis\.DataSet\((\[.*?\])\);", page, re.S).group(1)
    return json.loads(nodes), json.loads(edges)


def count(db, cypher: str) -> int:
    return db.run(cypher).rows[0][0]


@pytest.mark.slow   # half a second or more
def test_the_whole_graph_is_drawn_offline_with_every_node(college_db, tmp_path):
    picture = draw_graph(college_db, directory=tmp_path / "figures")
    assert (picture.nodes, picture.edges) == (75, 132)
    nodes, edges = drawn(picture)
    names = {row[0] for row in college_db.run(
        "MATCH (n) WHERE NOT n:Chunk RETURN coalesce(n.name, n.id)").rows}
    assert {n["label"] for n in nodes} == names and len(nodes) == 75
    assert len(edges) == 132 and {e["title"] for e in edges} >= {"STUDIES", "EXPLAINS"}
    page = picture.path.read_text(encoding="utf-8")
    assert "new vis.Network" in page and "vis-network" in page   # the library is inside
    assert not EXTERNAL.search(page), EXTERNAL.search(page)
    assert "cdn.jsdelivr" not in page and "cdnjs" not in page
    assert not re.search(r"@import", page)


@pytest.mark.slow   # half a second or more
def test_colours_follow_the_label(college_db, tmp_path):
    nodes, _ = drawn(draw_graph(college_db, directory=tmp_path))
    colours = {}
    for node in nodes:
        label = node["title"].split("\n")[0]
        colours.setdefault(label, set()).add(json.dumps(node["color"]))
    assert len(colours) == 7 and all(len(c) == 1 for c in colours.values())
    assert len({next(iter(c)) for c in colours.values()}) == 7


def test_highlight_draws_the_answer_and_its_neighbourhood(college_db, tmp_path):
    picture = draw_graph(college_db, highlight=["Payal"], directory=tmp_path, name="payal")
    around = count(college_db, "MATCH (:Student {name: 'Payal'})--(n) RETURN count(DISTINCT n)")
    among = count(college_db, """
        MATCH (p:Student {name: 'Payal'})--(n) WITH p, collect(DISTINCT n) + [p] AS keep
        MATCH (a)-[r]->(b) WHERE a IN keep AND b IN keep RETURN count(r)""")
    assert (picture.nodes, picture.edges) == (around + 1, among)
    assert picture.highlighted == ["Payal"]
    nodes, _ = drawn(picture)
    lit = [n for n in nodes if isinstance(n["color"], dict) and n["color"]["border"] == LIT_BORDER]
    assert [n["label"] for n in lit] == ["Payal"]
    assert {"Coding Club", "Debate Society", "DBMS", "Aarav"} <= {n["label"] for n in nodes}


def test_a_path_is_lit_up_with_its_relationships(college_db, tmp_path):
    picture = draw_graph(college_db, highlight=["1NF", "2NF", "3NF", "BCNF"], directory=tmp_path)
    assert picture.highlighted == ["1NF", "2NF", "3NF", "BCNF"]
    _, edges = drawn(picture)
    lit = [e for e in edges if e["color"] == LIT_BORDER]
    assert len(lit) == count(college_db, """
        MATCH (a:Concept)-[r]->(b:Concept)
        WHERE a.name IN ['1NF', '2NF', '3NF', 'BCNF'] AND b.name IN ['1NF', '2NF', '3NF', 'BCNF']
        RETURN count(r)""") >= 3


@pytest.mark.slow   # half a second or more
def test_values_that_are_not_nodes_light_nothing(college_db, tmp_path):
    picture = draw_graph(college_db, highlight=["A+", "Advanced"], directory=tmp_path)
    assert picture.highlighted == [] and (picture.nodes, picture.edges) == (75, 132)


@pytest.mark.slow   # half a second or more
def test_keys_light_up_their_node_and_the_question_names_are_outlined(college_db, tmp_path):
    picture = draw_graph(college_db, highlight=["S05"], mentioned=["Machine Learning"],
                         directory=tmp_path, focus=False)
    assert picture.highlighted == ["Karan"] and picture.mentioned == ["Machine Learning"]
    nodes, _ = drawn(picture)
    dimmed = [n for n in nodes if n.get("opacity") == 0.35]
    assert len(nodes) == 75 and len(dimmed) == 73


@pytest.mark.slow   # half a second or more
def test_a_result_lights_up_the_values_in_its_rows(college_db, tmp_path):
    result = SimpleNamespace(status="answered", rows=[["Rahul", "Advanced"], ["Karan", "Intermediate"]],
                             mentions=[SimpleNamespace(value="Machine Learning")])
    picture = draw_result(college_db, result, directory=tmp_path)
    assert picture.highlighted == ["Rahul", "Karan"] and picture.mentioned == ["Machine Learning"]
    refused = SimpleNamespace(status="out_of_scope", rows=[["OUT_OF_SCOPE"]], mentions=[])
    assert draw_result(college_db, refused, directory=tmp_path).nodes == 75


def test_the_notebook_gets_a_small_iframe_with_a_relative_path(college_db, tmp_path, monkeypatch):
    notebooks = tmp_path / "notebooks"
    monkeypatch.chdir(notebooks.parent)
    notebooks.mkdir()
    monkeypatch.chdir(notebooks)                   # a notebook runs in its own folder
    picture = draw_graph(college_db, highlight=["Payal"], directory=notebooks / "figures")
    assert picture.path.is_file() and picture.src == "figures/college.html"
    frame = picture._repr_html_()
    assert 'src="figures/college.html"' in frame and "<iframe" in frame and len(frame) < 400
    assert str(tmp_path) not in frame and str(tmp_path) not in repr(picture)
    assert "lit up: Payal" in repr(picture)


@pytest.mark.slow   # half a second or more
def test_every_picture_has_a_small_still_image_from_the_same_layout(college_db, tmp_path):
    from course.ui.viz import layout

    picture = draw_graph(college_db, directory=tmp_path)
    assert picture.still.startswith(b"\x89PNG") and len(picture.still) < 60_000
    graph = read_graph(college_db)
    positions = layout(graph, set(graph.nodes))
    nodes, _ = drawn(picture)
    assert {n["id"]: (n["x"], n["y"]) for n in nodes} == positions   # the same layout
    assert layout(graph, set(graph.nodes)) == positions              # and the same every time


@pytest.mark.slow   # half a second or more
def test_the_picture_shows_a_still_image_and_the_interactive_one(college_db, tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj, raw=False: shown.append(obj))
    draw_graph(college_db, directory=tmp_path)._ipython_display_()
    assert "image/png" in shown[0] and "<iframe" in shown[1]["text/html"]
    assert "appears here when the cell runs" in shown[1]["text/plain"]


@pytest.mark.slow   # half a second or more
def test_the_legend_names_lit_nodes_only_when_something_is_lit(college_db, tmp_path):
    whole = draw_graph(college_db, directory=tmp_path, name="whole").path.read_text()
    lit = draw_graph(college_db, highlight=["Payal"], directory=tmp_path, name="lit").path.read_text()
    assert "in the answer" not in whole and "named in the question" not in whole
    assert "in the answer" in lit


@pytest.mark.slow   # half a second or more
def test_labels_of_the_whole_graph_are_readable_at_the_default_zoom(college_db, tmp_path):
    from course.ui.viz import CANVAS

    nodes, _ = drawn(draw_graph(college_db, directory=tmp_path))
    xs, ys = [n["x"] for n in nodes], [n["y"] for n in nodes]
    assert max(xs) - min(xs) <= CANVAS[0] * 1.05 and max(ys) - min(ys) <= CANVAS[1] * 1.05
    labelled = [n for n in nodes if n["font"]["size"]]
    assert all(n["font"]["size"] >= 14 for n in labelled) and len(labelled) == 50   # all but notes


def test_reading_the_graph_once_can_be_reused(college_db, tmp_path):
    graph = read_graph(college_db)
    picture = draw_graph(graph=graph, highlight=["Rahul"], directory=tmp_path)
    assert picture.highlighted == ["Rahul"] and picture.nodes < 75


def test_a_file_name_must_be_plain(college_db, tmp_path):
    with pytest.raises(ValueError, match="plain file name"):
        draw_graph(college_db, name="../escape", directory=tmp_path)


def test_text_values_flattens_rows_keeping_text_once():
    assert text_values([["Payal", "A+"], [["1NF", "2NF"], 3], ["Payal", None]]) == \
        ["Payal", "A+", "1NF", "2NF"]


def test_values_may_come_from_a_generator(college_db, tmp_path):
    picture = draw_graph(college_db, highlight=(v for v in ["Karan", "Rahul"]), directory=tmp_path)
    assert picture.highlighted == ["Karan", "Rahul"]


@pytest.mark.slow   # half a second or more
def test_pyvis_template_is_compiled_once_per_process(college_db, tmp_path, monkeypatch):
    """pyvis gives every Network its own template environment, so each picture compiled the
    same page template again (most of a picture's time); the course's pictures share one."""
    import jinja2

    graph = read_graph(college_db)
    draw_graph(graph=graph, directory=tmp_path)          # the first picture may compile it
    compiled = []
    compile_ = jinja2.Environment.compile
    monkeypatch.setattr(jinja2.Environment, "compile",
                        lambda self, *args, **kwargs: compiled.append(1) or compile_(self, *args, **kwargs))
    first = draw_graph(graph=graph, directory=tmp_path, name="again")
    second = draw_graph(graph=graph, highlight=["Payal"], directory=tmp_path, name="lit")
    assert compiled == []
    assert (first.nodes, first.edges) == (75, 132) and second.highlighted == ["Payal"]
    assert "new vis.Network" in second.path.read_text(encoding="utf-8")
