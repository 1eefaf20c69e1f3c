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
    return asking_sentences(query) + ([plain] if thing and plain != query.strip().lower() else [])


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
