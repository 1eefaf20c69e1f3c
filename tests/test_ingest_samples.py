"""The sample documents of data/ingest/ against the facts written down for them before the rules.

The offline rules are measured, not tuned to pass: each fact of data/eval/ingest_facts.yaml
found, each "not a fact" kept out of the diff, and the counts per document.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from course.foundation.config import PROJECT_ROOT
from course.ingest.review import review

SAMPLES = PROJECT_ROOT / "data" / "ingest"
FACTS = yaml.safe_load((PROJECT_ROOT / "data" / "eval" / "ingest_facts.yaml").read_text(encoding="utf-8"))


def written_facts(found) -> set[tuple[str, str, str]]:
    """(from, TYPE, to) of every relationship the diff writes or changes, or already holds."""
    diff = found.diff
    rels = {(r["from"]["name"], r["type"], r["to"]["name"]) for r in diff.new_relationships}
    rels |= {(c["target"]["from"]["name"], c["target"]["type"], c["target"]["to"]["name"])
             for c in diff.changed if "type" in c["target"]}
    rels |= {tuple(item.strip("()").replace(")-[:", "|").replace("]->(", "|").split("|"))
             for item in diff.unchanged if "-[:" in item}
    return rels


def _end_name(name: str) -> str:
    return name.replace("Note on ", "Note: ")


def test_the_rules_never_read_the_facts_file():
    source = (PROJECT_ROOT / "course" / "ingest" / "rules.py").read_text(encoding="utf-8")
    assert "ingest_facts" not in source and "data/eval" not in source


@pytest.mark.parametrize("name", sorted(FACTS))
def test_every_written_down_fact_is_in_the_diff(college_db, name):
    found = review(college_db, SAMPLES / name)
    expected = {(_end_name(a), kind, b) for a, kind, b, *_ in FACTS[name]["relationships"]}
    assert expected <= written_facts(found), expected - written_facts(found)
    wrong = {(a, kind, b) for a, kind, b in FACTS[name]["not_facts"]}
    assert not wrong & written_facts(found)


@pytest.mark.parametrize("name", sorted(FACTS))
def test_the_stated_properties_come_through(college_db, name):
    found = review(college_db, SAMPLES / name)
    rels = {(r["from"]["name"], r["type"], r["to"]["name"]): r["properties"]
            for r in found.diff.new_relationships}
    for a, kind, b, props in FACTS[name]["relationships"]:
        if (_end_name(a), kind, b) in rels:
            assert rels[(_end_name(a), kind, b)] == props, (a, kind, b)


def test_the_counts_per_document(college_db):
    counts = {name: review(college_db, SAMPLES / name).counts() for name in sorted(FACTS)}
    assert counts == {
        "club_announcement.md": {"proposed": 5, "accepted": 4, "rejected": 1, "questions": 0, "diff": 3},
        "grade_sheet.csv": {"proposed": 6, "accepted": 5, "rejected": 1, "questions": 0, "diff": 4},
        "lecture_handout.md": {"proposed": 8, "accepted": 8, "rejected": 0, "questions": 0, "diff": 8},
        "student_profile.txt": {"proposed": 7, "accepted": 7, "rejected": 0, "questions": 0, "diff": 6},
    }


def test_a_typo_is_resolved_fuzzily_and_shown(college_db):
    found = review(college_db, SAMPLES / "grade_sheet.csv")
    fuzzy = [m for m in found.resolved.matches if m.how == "fuzzy"]
    assert [(m.name, m.found, m.score) for m in fuzzy] == [("Snehaa", "Sneha", 90.9)]
    assert "'Snehaa' is Student Sneha (fuzzy, score 90.9)" in found.summary()


def test_a_grade_off_the_scale_is_rejected_with_its_row(college_db):
    found = review(college_db, SAMPLES / "grade_sheet.csv")
    [rejected] = found.diff.rejected
    assert rejected.sentence == "line 6: student=Rahul, subject=Operating Systems, semester=6, grade=D"
    assert rejected.reason == "'D' is not on the scale of STUDIES.grade (A+, A, B+, B, C)"


def test_a_negated_sentence_scores_zero_and_is_kept_out(college_db):
    found = review(college_db, SAMPLES / "club_announcement.md")
    [kept_out] = found.diff.rejected
    assert "Karan" in kept_out.item and kept_out.reason.startswith("verification failed (0.0)")
    forced = review(college_db, SAMPLES / "club_announcement.md", include_unverified=True)
    assert ("Karan", "MEMBER_OF", "Coding Club") in written_facts(forced)


def test_skipped_sentences_say_why(college_db):
    found = review(college_db, SAMPLES / "lecture_handout.md")
    assert [(s.sentence, s.reason) for s in found.proposal.skipped] == [
        ("Bring the previous lecture's slides to the tutorial.", "names nothing the graph knows")]
    assert found.proposal.extractor.startswith("rules (offline")


def test_the_diff_writes_nothing(college_db):
    from course.foundation.versioning import fingerprint

    before = fingerprint(college_db)
    for name in FACTS:
        review(college_db, Path(SAMPLES / name))
    assert fingerprint(college_db) == before


def test_a_key_is_matched_in_any_case(college_db):
    from course.ingest.names import read_names
    from course.ingest.resolution import lookup
    from course.ingest.spec import Spec

    spec = Spec.load()
    names = read_names(college_db, spec)
    assert [lookup(key, "Student", names, spec).found for key in ("S04", "s04")] == ["Sneha", "Sneha"]
