"""A topic's own note before an overview that lists it: "what does 2NF require?".

Introduced in notebook 13, for notebook 12's note search. Some notes survey a family of
topics: the note on normalization ends "The normal forms 1NF, 2NF, 3NF and BCNF are the steps
of this process". A short question on one of them ("2NF actually kya require karta hai?",
"What exactly makes BCNF stricter than 3NF?") is near that sentence, and the encoder puts the
survey first, ahead of the note that explains the topic. So a note whose text names several
other topics that have notes of their own is an overview (`overviews`), and when a question
names one of the topics an overview lists (or two: "stricter than"), and not the overview's own
topic nor most of its list, that topic's own note leads, if the search found it
(`own_note_first`). A note naming one other topic is no
overview: the note on BCNF names 3NF, the form it tightens, and "is 3NF enough, or is there
something stricter?" is its question. A name counts only as written, or as one of the schema's
aliases ("second normal form"): "normal forms" is no name of normalization.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from course.foundation.db import Database
from course.foundation.versioning import per_version
from course.pipeline.schema import introspect
from course.retrieval.named_topics import names

if TYPE_CHECKING:
    from course.retrieval.search import Hit

_OWN_TOPICS = "MATCH (n:Note)-[:EXPLAINS]->(c:Concept) RETURN n.id, c.name, n.text ORDER BY n.id"


def overviews(db: Database) -> dict[str, set[str]]:
    """Each overview note's id -> the other topics it names that have notes of their own (two at
    least: one is a neighbour the note builds on, several are a list).

    >>> {note: sorted(topics) for note, topics in overviews(db).items()}
    {'N01': ['1NF', '2NF', '3NF', 'BCNF']}
    """
    def build() -> dict[str, set[str]]:
        rows = db.run(_OWN_TOPICS, max_rows=10**6).rows
        topics = {str(topic) for _, topic, _ in rows}
        listed = {str(note): {t for t in topics if t != topic and names(str(text or ""), t)}
                  for note, topic, text in rows}
        return {note: named for note, named in listed.items() if len(named) >= 2}
    return per_version(db, "overview notes", build)


def own_note_first(db: Database, query: str, hits: Sequence[Hit]) -> list[Hit]:
    """The hits, with the own note of a topic the question names first when the best note is an
    overview that lists it and the question does not name the overview's topic.

    >>> from course.retrieval.search import search
    >>> hits = search(db, "What does 2NF require?")
    >>> [h.note for h in hits][:2], [h.note for h in own_note_first(db, "What does 2NF require?", hits)][:2]
    (['N01', 'N03'], ['N03', 'N01'])
    """
    hits = list(hits)
    listed = overviews(db).get(hits[0].note) if hits else None
    if not listed:
        return hits
    aliases = introspect(db).aliases
    said = lambda topic: names(query, topic, aliases.get(topic) or ())   # noqa: E731
    if said(str(hits[0].concept)) or 2 * sum(map(said, listed)) > len(listed):
        return hits   # (naming most of its list asks about the family: "why 1NF, 2NF and 3NF?")
    own = next((h for h in hits[1:] if h.concept in listed and said(str(h.concept))), None)
    return hits if own is None else [own, *(h for h in hits if h is not own)]


def leads_an_overview(db: Database, query: str, hits: Sequence[Hit]) -> bool:
    """Is the first hit a named topic's own note that `own_note_first` put before its overview?"""
    return len(hits) > 1 and hits[1].note in overviews(db) and \
        own_note_first(db, query, [hits[1], hits[0], *hits[2:]])[0] is hits[0]
