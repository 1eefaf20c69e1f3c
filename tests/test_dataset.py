"""Loading: idempotent, parameterised, reset, broken files named with their line."""
from __future__ import annotations

import shutil

import pytest

from course.foundation.dataset import (DATA_DIR, copy_graph, graph_counts, load_college,
                                       read_dataset, synthetic_college, write_dataset)
from course.foundation.errors import DataFileError, QueryFailed, QueryTimedOut


def test_loading_twice_changes_nothing(empty_db):
    first = load_college(empty_db)
    checksum = empty_db.run("MATCH (n) RETURN n.name, n.id, n.code, n.text ORDER BY n.id, n.code, n.name").rows
    second = load_college(empty_db)
    assert first == second
    assert (second["nodes"], second["relationships"]) == (75, 132)
    assert empty_db.run("MATCH (n) RETURN n.name, n.id, n.code, n.text ORDER BY n.id, n.code, n.name").rows == checksum


def test_people_part_then_whole_graph(empty_db):
    people = load_college(empty_db, part="people")
    assert (people["nodes"], people["relationships"]) == (20, 39)
    whole = load_college(empty_db)
    assert (whole["nodes"], whole["relationships"]) == (75, 132)


def test_reset_starts_from_nothing(college_db):
    college_db.query("MATCH (s:Student {name: 'Payal'}) SET s.year = 9")
    counts = load_college(college_db, reset_first=True)
    assert counts["nodes"] == 75
    assert college_db.run("MATCH (s:Student {name: 'Payal'}) RETURN s.year").rows == [[2]]


def test_fulltext_indexes_exist_for_name_linking(college_db):
    rows = college_db.run("CALL db.idx.fulltext.queryNodes('Club', 'debate') YIELD node "
                          "RETURN node.name").rows
    assert rows == [["Debate Society"]]


def test_values_are_parameters_not_query_text(empty_db, tmp_path):
    data = tmp_path / "college"
    shutil.copytree(DATA_DIR, data)
    students = data / "nodes" / "Student.csv"
    students.write_text(students.read_text() + "S99,\"O'Brien\"\" }) DETACH DELETE (n //\",1,CSE\n")
    load_college(empty_db, data_dir=data)
    names = empty_db.run("MATCH (s:Student) WHERE s.id = 'S99' RETURN s.name").rows
    assert names == [["O'Brien\" }) DETACH DELETE (n //"]]
    assert graph_counts(empty_db)["nodes"] == 76


@pytest.mark.parametrize("file, bad_line, expected", [
    ("nodes/Student.csv", "S06,Meera\n", "Student.csv, line 7: 2 values for 4 columns"),
    ("nodes/Student.csv", "S06,Meera,second,CSE\n", "Student.csv, line 7, column year: expected a whole number"),
    ("nodes/Student.csv", "S01,Again,1,CSE\n", "Student.csv, line 7: the key 'id' is missing or repeated"),
    ("relationships/Student-STUDIES-Subject.csv", "S77,CS201,3,A\n", "no Student with key 'S77'"),
])
def test_a_broken_csv_names_the_file_and_line(tmp_path, file, bad_line, expected):
    data = tmp_path / "college"
    shutil.copytree(DATA_DIR, data)
    with (data / file).open("a") as handle:
        handle.write(bad_line)
    with pytest.raises(DataFileError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        read_dataset(data)


def test_synthetic_graph_is_larger_with_the_same_schema(empty_db):
    data = synthetic_college(3)
    assert len(data.nodes["Student"]) == 15 and set(data.keys) == set(read_dataset().keys)
    write_dataset(empty_db, data)
    counts = graph_counts(empty_db)
    assert counts["nodes"] == 75 * 3
    assert set(counts["types"]) == set(graph_counts_types())


def graph_counts_types() -> list[str]:
    return ["STUDIES", "MEMBER_OF", "HAS_SKILL", "WORKS_ON", "FRIENDS_WITH", "PREREQUISITE_FOR",
            "REQUIRES", "COVERS", "INCLUDES", "EXPLAINS"]


def test_many_loaders_at_once_load_one_graph(empty_db):
    """Forty laptops are one machine each, but two notebooks on one laptop start together."""
    from concurrent.futures import ThreadPoolExecutor

    from course.foundation.dataset import ensure_college

    with ThreadPoolExecutor(max_workers=6) as pool:
        list(pool.map(lambda _: ensure_college(empty_db), range(6)))
    counts = graph_counts(empty_db)
    assert (counts["nodes"], counts["relationships"]) == (75, 132)


def test_an_emptied_graph_is_loaded_again(college_db):
    from course.foundation.dataset import ensure_college

    college_db.query("MATCH (n) DETACH DELETE n")
    ensure_college(college_db)
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


class ForkingServerMock:
    """A mock database whose server is saving in the background for its first `busy` copies."""

    def __init__(self, busy: int, message: str = "GRAPH.COPY failed, could not fork") -> None:
        self.busy, self.message, self.copies = busy, message, []

    def command(self, *args):
        if self.busy:
            self.busy -= 1
            raise QueryFailed(f"FalkorDB refused the query: {self.message}")
        self.copies.append(args)


def test_a_copy_waits_out_a_background_save():
    db = ForkingServerMock(busy=3)
    copy_graph(db, "college", "college__staging")
    assert db.copies == [("GRAPH.COPY", "college", "college__staging")]


def test_a_long_background_save_is_waited_out(monkeypatch):
    # On a busy machine the append-only file's rewrite can keep the server from forking for
    # many seconds (130 test setups failed at once when the copy gave up after 2 s).
    slept = []
    monkeypatch.setattr("course.foundation.dataset.time.sleep", slept.append)
    db = ForkingServerMock(busy=40)
    copy_graph(db, "college", "college__staging")
    assert db.copies and 10 < sum(slept) < 60


def test_a_save_that_never_ends_is_the_servers_sentence(monkeypatch):
    slept = []
    monkeypatch.setattr("course.foundation.dataset.time.sleep", slept.append)
    with pytest.raises(QueryFailed, match="could not fork"):
        copy_graph(ForkingServerMock(busy=10**6), "college", "college__staging")
    assert 60 <= sum(slept) < 62


class SlowServerMock:
    """A mock server too busy to answer the copy in time, which makes it `late` checks later."""

    def __init__(self, late: int | None) -> None:
        self.late, self.graphs = late, ["college"]
        self.client = self

    def command(self, *args):
        raise QueryTimedOut("FalkorDB gave no answer within 20 s, so the query was abandoned.")

    def list_graphs(self):
        if self.late is not None:
            self.late -= 1
            if self.late == 0:
                self.graphs.append("college__staging")
        return list(self.graphs)


def test_a_copy_answered_late_is_waited_for(monkeypatch):
    # A full CI run failed a test's setup: GRAPH.COPY gave no answer within the socket's 20 s.
    monkeypatch.setattr("course.foundation.dataset.time.sleep", lambda s: None)
    db = SlowServerMock(late=5)
    copy_graph(db, "college", "college__staging")
    assert db.graphs == ["college", "college__staging"]


def test_a_copy_that_never_comes_is_the_timeout(monkeypatch):
    monkeypatch.setattr("course.foundation.dataset.time.sleep", lambda s: None)
    with pytest.raises(QueryTimedOut):
        copy_graph(SlowServerMock(late=None), "college", "college__staging")


def test_a_copy_refused_for_another_reason_is_not_tried_again():
    db = ForkingServerMock(busy=1, message="destination key already exists")
    with pytest.raises(QueryFailed, match="already exists"):
        copy_graph(db, "college", "college__staging")
    assert db.busy == 0 and db.copies == []


def test_the_schema_file_is_parsed_once_while_it_is_unchanged(tmp_path, monkeypatch):
    """Every agent built read data/college/schema.yaml again (pure-Python YAML, most of an
    agent's start): it is parsed again only when the file changes, and each caller gets a
    copy of its own to change."""
    import yaml

    from course.foundation.dataset import load_schema

    data = tmp_path / "college"
    shutil.copytree(DATA_DIR, data)
    parsed = []
    safe_load = yaml.safe_load
    monkeypatch.setattr(yaml, "safe_load", lambda text: parsed.append(1) or safe_load(text))
    first = load_schema(data)
    first["labels"].clear()                                    # a caller's own copy
    second = load_schema(data)
    assert len(parsed) == 1 and second["labels"] and second == load_schema(data)
    schema_file = data / "schema.yaml"
    schema_file.write_text(schema_file.read_text(encoding="utf-8") + "\nextra: 1\n", encoding="utf-8")
    assert load_schema(data)["extra"] == 1 and len(parsed) == 2
