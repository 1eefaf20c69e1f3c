"""The write door (notebook 15): a reviewed diff written whole or not at all, with its sources; undo."""
from __future__ import annotations

import threading

import pytest

from course.foundation.config import PROJECT_ROOT
from course.foundation.db import Database
from course.foundation.errors import DatabaseUnavailable, InvalidInput, QueryFailed
from course.foundation.versioning import data_version, fingerprint
from course.ingest.review import review
from course.ingest.write_door import apply, undo

SAMPLES = PROJECT_ROOT / "data" / "ingest"
NAMES = ("club_announcement.md", "student_profile.txt", "lecture_handout.md", "grade_sheet.csv")


@pytest.mark.slow   # half a second or more
def test_apply_all_then_undo_all_restores_the_exact_fingerprint(college_db):
    before, version = fingerprint(college_db), data_version(college_db)
    done = [apply(college_db, review(college_db, SAMPLES / name)) for name in NAMES]
    assert [d.written for d in done] == [3, 6, 8, 4]
    assert college_db.counts() == {"nodes": 75 + 1 + 1 + 3 + 4, "relationships": 132 + 2 + 5 + 5 + 3 + 4 + 1}
    assert data_version(college_db) != version          # caches and the name index notice
    for d in reversed(done):
        undo(college_db, d.document)
    assert fingerprint(college_db) == before
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


@pytest.mark.slow   # half a second or more
def test_undo_in_the_order_applied_also_restores_it(college_db):
    before = fingerprint(college_db)
    done = [apply(college_db, review(college_db, SAMPLES / name)) for name in NAMES]
    for d in done:
        undo(college_db, d.document)
    assert fingerprint(college_db) == before


def test_every_written_item_carries_its_source(college_db):
    found = review(college_db, SAMPLES / "student_profile.txt")
    done = apply(college_db, found)
    rels = college_db.run("MATCH (:Student {name: 'Meera'})-[r]->() "
                          "RETURN r.source, r.sentence, r.confidence").rows
    assert len(rels) == 5 and all(src == done.document and sentence and conf > 0
                                  for src, sentence, conf in rels)
    mentioned = college_db.run("MATCH (d:Document {id: $id})-[m:MENTIONS]->(s:Student) "
                               "RETURN s.id, s.year, s.branch, m.sentence", {"id": done.document}).rows
    assert mentioned == [["S06", 1, "IT", "Student profile: Meera (S06)"]]


def test_a_changed_property_is_restored_by_undo(college_db):
    query = "MATCH (:Student {name: 'Rahul'})-[r:STUDIES]->(:Subject {name: 'DSA'}) RETURN properties(r)"
    old = college_db.run(query).rows
    done = apply(college_db, review(college_db, SAMPLES / "grade_sheet.csv"))
    changed = college_db.run(query).rows[0][0]
    assert changed["grade"] == "A+" and changed["source"] == done.document
    undo(college_db, "grade_sheet.csv")                  # by file name as well as by id
    assert college_db.run(query).rows == old


def test_a_new_note_gets_its_chunks_and_loses_them_on_undo(college_db):
    chunks = "MATCH (c:Chunk)-[:PART_OF]->(n:Note {id: 'N26'}) RETURN count(c)"
    done = apply(college_db, review(college_db, SAMPLES / "lecture_handout.md"))
    assert college_db.run(chunks).rows[0][0] >= 1
    undo(college_db, done.document)
    assert college_db.run(chunks).rows[0][0] == 0
    assert college_db.run("MATCH (c:Chunk) WHERE NOT (c)-[:PART_OF]->() RETURN count(c)").rows == [[0]]


def test_applying_twice_writes_once(college_db):
    first = apply(college_db, review(college_db, SAMPLES / "club_announcement.md"))
    after = fingerprint(college_db)
    second = apply(college_db, review(college_db, SAMPLES / "club_announcement.md"))
    assert (first.already, second.already, second.written) == (False, True, 0)
    assert fingerprint(college_db) == after


def test_two_applies_at_once_give_one_result(college_db):
    reviews = [review(college_db, SAMPLES / "student_profile.txt") for _ in range(2)]
    results: list = []
    threads = [threading.Thread(target=lambda r=r: results.append(apply(college_db, r))) for r in reviews]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r.already for r in results) == [False, True]
    assert college_db.run("MATCH (s:Student {name: 'Meera'}) RETURN count(s)").rows == [[1]]


def test_a_graph_changed_since_the_review_is_refused(college_db):
    stale = review(college_db, SAMPLES / "club_announcement.md")
    apply(college_db, review(college_db, SAMPLES / "student_profile.txt"))
    before = fingerprint(college_db)
    with pytest.raises(InvalidInput, match="changed since club_announcement.md was reviewed"):
        apply(college_db, stale)
    assert fingerprint(college_db) == before


def _fail_on_write(monkeypatch, n: int, error: Exception) -> None:
    """Mock: the n-th write query of the write door fails (a batch failing half-way)."""
    real = Database.query
    calls = {"n": 0}

    def failing(self, cypher, params=None):
        if self.graph_name.endswith("__ingest"):
            calls["n"] += 1
            if calls["n"] == n:
                raise error
        return real(self, cypher, params)

    monkeypatch.setattr(Database, "query", failing)


@pytest.mark.parametrize("n", [1, 3, 6])
def test_a_batch_failing_half_way_leaves_nothing(college_db, monkeypatch, n):
    before = fingerprint(college_db)
    found = review(college_db, SAMPLES / "student_profile.txt")
    _fail_on_write(monkeypatch, n, QueryFailed("FalkorDB refused the query: mock failure"))
    with pytest.raises(QueryFailed):
        apply(college_db, found)
    assert fingerprint(college_db) == before
    assert f"{college_db.graph_name}__ingest" not in college_db.client.list_graphs()


def test_a_disk_that_fills_during_the_write_leaves_nothing(college_db, monkeypatch):
    before = fingerprint(college_db)
    found = review(college_db, SAMPLES / "lecture_handout.md")
    full = DatabaseUnavailable("The embedded FalkorDB cannot save to its disk (MISCONF): free space.")
    _fail_on_write(monkeypatch, 4, full)
    with pytest.raises(DatabaseUnavailable):
        apply(college_db, found)
    assert fingerprint(college_db) == before
    monkeypatch.undo()
    assert apply(college_db, review(college_db, SAMPLES / "lecture_handout.md")).written == 8


def test_undo_of_a_document_never_applied_says_what_to_give(college_db):
    with pytest.raises(InvalidInput, match="No document 'nothing.md' has been applied"):
        undo(college_db, "nothing.md")


def test_a_memory_graph_is_refused(college_db):
    memory = college_db.select("memory_user_alice")
    found = review(college_db, SAMPLES / "club_announcement.md")
    with pytest.raises(InvalidInput, match="holds a user's stored conversation"):
        apply(memory, found)
    assert "memory_user_alice" not in college_db.client.list_graphs()


def test_a_reload_drops_ingested_facts_unless_asked(college_db):
    from course.foundation.dataset import load_college

    apply(college_db, review(college_db, SAMPLES / "student_profile.txt"))
    kept = load_college(college_db, keep_ingested=True)
    assert (kept["nodes"], college_db.run("MATCH (s:Student {name: 'Meera'}) RETURN count(s)").rows) == (77, [[1]])
    fresh = load_college(college_db)
    assert (fresh["nodes"], fresh["relationships"]) == (75, 132)
    assert college_db.run("MATCH (n) WHERE n:Document OR n.name = 'Meera' RETURN count(n)").rows == [[0]]


@pytest.mark.slow   # half a second or more
def test_undo_refuses_to_pull_the_ground_from_under_a_later_document(college_db, tmp_path):
    handout = apply(college_db, review(college_db, SAMPLES / "lecture_handout.md"))
    (tmp_path / "more.md").write_text("Indexing is a prerequisite for Concurrency Control.\n", encoding="utf-8")
    more = apply(college_db, review(college_db, tmp_path / "more.md"))
    assert more.written == 1
    with pytest.raises(InvalidInput, match=f"{more.document} wrote to what {handout.document} added"):
        undo(college_db, handout.document)
    undo(college_db, more.document)
    undo(college_db, handout.document)
    assert college_db.counts() == {"nodes": 75, "relationships": 132}
