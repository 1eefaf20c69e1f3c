"""The context builder of notebook 15: verified ingested facts for a question, 0.0 kept out."""
from __future__ import annotations

from course.foundation.config import PROJECT_ROOT
from course.ingest.context import facts_context, verified_facts
from course.ingest.review import review
from course.ingest.write_door import apply

NOTICE = PROJECT_ROOT / "data" / "ingest" / "club_announcement.md"


def test_the_facts_of_a_question_come_with_confidence_and_source(college_db):
    done = apply(college_db, review(college_db, NOTICE))
    facts = verified_facts(college_db, "who is in the photography club?")
    assert [(f.start, f.type, f.end, f.confidence, f.source) for f in facts] == [
        ("Aarav", "MEMBER_OF", "Photography Club", 1.0, done.document),
        ("Sneha", "MEMBER_OF", "Photography Club", 1.0, done.document)]
    assert "Sneha is the President of the Photography Club." in facts_context(college_db, "Photography Club?")


def test_a_fact_written_unverified_stays_out_of_every_context(college_db):
    apply(college_db, review(college_db, NOTICE, include_unverified=True))   # the user said so
    written = college_db.run("MATCH (:Student {name: 'Karan'})-[r:MEMBER_OF]->(:Club {name: 'Coding Club'}) "
                             "RETURN r.confidence").rows
    assert written == [[0.0]]
    assert verified_facts(college_db, "Who is in the Coding Club?") == []
    assert "Coding Club" not in facts_context(college_db, "Karan ke clubs?")


def test_course_data_alone_gives_no_context(college_db):
    assert facts_context(college_db, "Who is Payal?") == ""


def test_the_planner_and_note_search_see_an_ingested_handout(college_db):
    from course.planner.plans import plan
    from course.retrieval.search import search

    apply(college_db, review(college_db, PROJECT_ROOT / "data" / "ingest" / "lecture_handout.md"))
    order = plan(college_db, "Rahul", "DBMS", days=5).order()
    assert order.index("Transactions") < order.index("Concurrency Control") < order.index("Two-Phase Locking")
    hits = search(college_db, "What is two-phase locking?", k=1)
    assert [(hit.note, hit.concept) for hit in hits] == [("N26", "Two-Phase Locking")]
