"""A question asked again in fewer words, for the note search's second reading.

Introduced in notebook 13, for notebook 12's note search. A learner's message may hold a
scene and an ask ("I'm revising tonight. Why do we chop one big table into smaller ones?"), or
wrap a definition in a request ("Please explain what a transitive dependency is"). The
scene's or the request's words dilute the ask, and the best note falls below the bar. Asked
again in fewer words, the same note may clear it: two readings that agree on the note are
evidence enough (`course.retrieval.search.note_search`).
"""
from __future__ import annotations

import re

from course.foundation.definitions import defined
from course.foundation.scenes import SENTENCE_BREAK, chooses_for_the_scene
from course.llm.offline.roles.clauses import REQUEST, is_question
from course.llm.offline.roles.words import tokens


def other_readings(query: str) -> list[str]:
    """The question asked again in fewer words: its asking sentences (`asking_sentences`), or,
    for a request for a definition ("Please explain what a transitive dependency is"), "what is X?"
    (the wrapping words no longer dilute the ask). The best note answers when it is the best
    of one of these too, and clears the bar there.

    >>> other_readings("Please explain what a transitive dependency is")
    ['what is transitive dependency?']
    """
    thing = " ".join(defined(query))
    plain = f"what is {thing}?"
    return asking_sentences(query) + ([plain] if thing and plain != query.strip().lower() else []) \
        + what_the_note_is_on(query)


def asking_sentences(query: str) -> list[str]:
    """The sentences that ask, of a message of several ("I'm revising tonight. Why do we chop
    one big table into smaller ones? ..."): its best note below the bar is answered when one
    of them, asked alone, clears the bar for that same note (two readings agree; the scene's
    words no longer dilute the ask).

    >>> asking_sentences("I'm revising tonight. Why split tables?"), asking_sentences("Why split tables?")
    (['Why split tables?'], [])
    """
    # (a clause after a colon is a sentence too: "so kindly bear with me: why would ...?")
    sentences = [s for s in re.split(SENTENCE_BREAK, query.strip()) if s]
    asking = [s for s in sentences if (s.endswith("?") or is_question(tokens(s), opening=True)
              or REQUEST.match(s) is not None)      # (not the scene: "My table repeats ...")
              and not chooses_for_the_scene(s)]     # (nor "which one do I use?": the scene says)
    return asking if len(sentences) > 1 else []


# "the note on the first rule of table design, where ...": what follows says what it is on
_NOTE_ON = re.compile(r"\bnotes?\s+(?:on|about|for|explaining|covering|that\s+explains)\s+"
                      r"(?!(?:th(?:is|at|ese|ose)|it|them|our|my|the\s+candidates|him|her)\b)(\S.*)", re.I)
_NOTE = re.compile(r"\bnotes?\b", re.I)
_POLITE = re.compile(r"^\s*(?:please|pls|plz|kindly|could\s+you|can\s+you|would\s+you)\b", re.I)


def what_the_note_is_on(query: str) -> list[str]:
    """For an ask for a note ("Which note should I circulate?", "Kindly share the relevant note
    so I can forward it", "share the note on X"): what the note is to be on, said alone, the
    ask's words of sharing left out: the words after "note on", or the sentences around the
    ask, when it says of what only by a pointer ("this") or not at all.

    >>> what_the_note_is_on("A recruiter asked how RAM gets shared. Which note should I forward?")
    ['A recruiter asked how RAM gets shared.']
    >>> what_the_note_is_on("Please share the note on how an index speeds up lookups.")
    ['how an index speeds up lookups.']
    >>> what_the_note_is_on("Why split tables? What does the note say?"), what_the_note_is_on("What is 1NF?")
    ([], [])
    """
    sentences = [s for s in re.split(SENTENCE_BREAK, query.strip()) if s]
    asking = [s for s in sentences if _NOTE.search(s) and (s.endswith("?") or REQUEST.match(s) is not None
                                                          or _POLITE.match(s) is not None
                                                          or is_question(tokens(s), opening=True))]
    said = [on[1] for s in asking if (on := _NOTE_ON.search(s))]
    rest = [s for s in sentences if s not in asking]
    scene = [" ".join(rest)] if asking and rest and not said and not any(
        s.endswith("?") or is_question(tokens(s), opening=True) for s in rest) else []
    return said + scene
