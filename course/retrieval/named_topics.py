"""A topic the question names itself: by its name or an alias, as words of their own.

Introduced in notebook 13, for notebook 12's note search. A question that names its best note's
topic ("ACID wala concept kya hai, bank transfer example ke saath?", "deadlock ki 4 conditions
kaunsi hai yaar") carries evidence no similarity shows: a learner's long scene or Hinglish
words keep the question far from every note, but the topic is said. So such a note needs less
similarity (`NAMED_MIN_SCORE`, not the bar's) and still its lead over the next note, its
second opinion, the checks that the question is one a note may answer and holds what is
asked. On the development sets this answered eight more note questions from the right note
and none wrongly (0.30 answered the same eight; 0.45 is kept, the nearer the bar). A name
counts only as written or as one of the schema's aliases ("first normal form" is 1NF; "normal
forms" is no name of normalization; "process" no name of deadlocks).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

from course.foundation.db import Database
from course.foundation.language import WORDS
from course.foundation.scenes import scene_before_the_ask
from course.pipeline.schema import introspect

if TYPE_CHECKING:
    from course.retrieval.search import Hit

NAMED_MIN_SCORE = 0.45   # the similarity a note whose topic the question names needs


def mentions(text: str, names: Sequence[str]) -> list[tuple[int, int]]:
    """Where `text` says one of `names` (a topic's name and its aliases), as words of their own.

    >>> mentions("is 3NF enough, or is there more than 3NF?", ["3NF", "third normal form"])
    [(3, 6), (37, 40)]
    """
    return sorted(m.span() for name in names
                  for m in re.finditer(rf"(?<![a-z0-9]){re.escape(name.lower())}(?![a-z0-9])", text.lower()))


def names(text: str, topic: str, aliases: Sequence[str] = ()) -> bool:
    """Does `text` name `topic`, by its whole name or an alias, as words of their own?

    >>> names("2NF kya hai?", "2NF"), names("the 2NFs", "2NF"), names("normal forms", "Normalization")
    (True, False, False)
    >>> names("What is second normal form?", "2NF", ["second normal form"])
    True
    """
    return bool(mentions(text, [topic, *aliases]))


def names_its_topic(db: Database, query: str, hit: Hit) -> bool:
    """Does the question name the hit's topic, by its name or one of the schema's aliases?

    >>> from course.retrieval.search import Hit
    >>> names_its_topic(db, "ACID wala concept kya hai?", Hit("N08", "Transactions", 0.5, ""))
    True
    """
    aliases = introspect(db).aliases
    return hit.concept is not None and names(query, str(hit.concept), aliases.get(str(hit.concept)) or ())


def subject_first(db: Database, query: str, hits: Sequence[Hit]) -> list[Hit]:
    """The hits, with the note of the topic the question's verb is asked of first, when the
    question names two topics with notes and the best note is the other's: "what problem does
    2NF fix that 1NF does not?" asks about 2NF (named right after "does"), whose note the search
    put below the note on 1NF. A question that asks of neither ("what is the difference
    between BFS and DFS?") keeps its order.

    >>> from course.retrieval.search import Hit
    >>> hits = [Hit("N02", "1NF", 0.8, ""), Hit("N03", "2NF", 0.7, "")]
    >>> [h.note for h in subject_first(db, "what problem does 2NF fix that 1NF does not?", hits)]
    ['N03', 'N02']
    """
    hits, aliases = list(hits), introspect(db).aliases
    named = [h for h in hits if h.concept is not None
             and names(query, str(h.concept), aliases.get(str(h.concept)) or ())]
    if len({h.concept for h in named}) < 2 or hits[0] not in named:
        return hits
    auxiliary = "|".join(sorted(WORDS.auxiliary))
    asked = re.match(rf"\W*(?:{'|'.join(sorted(WORDS.question_words))})(?:\s+\w+)?\s+(?:{auxiliary})"
                     rf"\s+(?:(?:a|an|the)\s+)?(.+)", query.lower())

    def opens(topic: str) -> bool:      # the words after the auxiliary begin with its name
        return any(re.match(rf"{re.escape(name.lower())}(?![a-z0-9])", asked[1]) is not None
                   for name in [topic, *(aliases.get(topic) or ())]) if asked else False
    subject = next((h for h in named if opens(str(h.concept))), None)
    return hits if subject is None or subject is hits[0] else [subject, *(h for h in hits if h is not subject)]


# "what do you call that?", "is there a name for it?", "what's this called?", "isko kya kehte
# hain?": the ask is for the name of what the question describes
_ASKS_A_NAME = re.compile(
    r"\b(?:what|how)\s+(?:do|would|does|did|should)\s+(?:you|we|they|people|ppl|one)\s+call\s+(?:that|this|it)\b"
    r"|\b(?:that|this|it)(?:'s|\s+is|\s+was)?\s+called\b|\b(?:name|term|word)\s+for\s+(?:that|this|it)\b"
    r"|\b(?:kya|kaise)\s+k[ae]hte\b", re.I)


def named_last(db: Database, query: str, hits: Sequence[Hit]) -> list[Hit]:
    """The hits, the notes of topics the scene names last, when the ask after it asks for the
    name of what it describes: a learner does not ask the name of a thing they named ("two
    threads each held a lock the other wanted, what do you call that?" is no question on
    threads). A topic the ask names itself keeps its place.

    >>> from course.retrieval.search import Hit
    >>> hits = [Hit("N17", "Threads", 0.46, ""), Hit("N18", "Deadlocks", 0.43, "")]
    >>> [h.note for h in named_last(db, "two threads each wait for the other: what do you call that?", hits)]
    ['N18', 'N17']
    >>> [h.note for h in named_last(db, "two threads each wait for the other: why?", hits)]
    ['N17', 'N18']
    >>> [h.note for h in named_last(db, "in threads which lock is it? what's that called", hits)]
    ['N17', 'N18']
    """
    found = scene_before_the_ask(query)
    if found is None or not _ASKS_A_NAME.search(found[1]):
        return list(hits)
    named = [h for h in hits if names_its_topic(db, found[0], h) and not names_its_topic(db, found[1], h)]
    return [h for h in hits if h not in named] + named
