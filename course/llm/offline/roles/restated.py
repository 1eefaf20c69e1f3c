"""An ask said twice in one sentence, the second time after "like" or "matlab": asked once (notebook 12).

Introduced in notebook 12, with `course.llm.offline.roles.updater`'s split: a learner who speaks
says the ask again in other words ("um what do i need to know before welding like which topics
come first"). Read as two asks, or as one with both sets of words, the second says what the
first already asked, and its words ("first") may read as something else (a rank). A word of
speech after "and" ("... and like how good is she at them") is no part of the next ask either.
The first words are kept, unless they name nothing but the learner's own label for what the
second words ask with a kind of thing the graph holds: "who are the maxed-out players, like which
students have a skill at Advanced" says it plainly the second time.
"""
from __future__ import annotations

import re

from course.foundation.language import WORDS
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.clauses import is_question
from course.llm.offline.roles.words import AUXILIARY, CONJUNCTIONS, graph_nouns, tokens


def kinds(words: str) -> set[str]:
    """The kinds of things the graph holds that the words name by a noun ("project" and
    "projects" alike; not "who")."""
    labels = default_lexicon().labels.items()
    return {label for w in graph_nouns(tokens(words), properties=False) if w not in WORDS.question_words
            for label, regex in labels if regex and re.fullmatch(regex, w)}


def asked_once(text: str) -> str:
    """The text without an ask said again after "like" in the same sentence ("what do i need
    before welding like which topics come first": asked once, in its first words).

    >>> asked_once("what do i need before X like which topics come first? and who")
    'what do i need before X? and who'
    >>> asked_once("is a table like which one i made wrong")
    'is a table like which one i made wrong'
    >>> asked_once("what clubs is she in, like what role does she have")
    'what clubs is she in'
    >>> asked_once("what's under X, like what does it include, and also what does Y include?")
    "what's under X, and also what does Y include?"
    >>> asked_once("what skills does she have and like how good is she at them")
    'what skills does she have and how good is she at them'
    >>> asked_once("who are the top dogs, like which students are in year 4?")
    'which students are in year 4?'
    >>> asked_once("aur unke clubs kaun se hain, matlab Asha ke jo friends hain woh kaunse clubs mein hain?")
    'aur unke clubs kaun se hain?'
    >>> asked_once("handshake kya hota hai matlab reliable kaise banta hai")
    'handshake kya hota hai matlab reliable kaise banta hai'
    """
    fillers = "|".join(sorted(WORDS.spoken_fillers))
    text = re.sub(rf"\b(and|aur|also|plus)\s+(?:(?:{fillers})\s+)+", r"\1 ", text, flags=re.I)
    def shorter(m: re.Match[str]) -> str:
        head, tail = m[1], m[2]
        joined = tokens(head)[-1] in {w for c in CONJUNCTIONS for w in c.split()}   # "and like what": new
        asks = is_question(tokens(head), opening=True) and is_question(tokens(tail), opening=True) \
            and head.split()[0].lower() not in AUXILIARY and not joined
        if not asks:
            return m[0]
        # (and no name, no "before X" or "in X" in the first words: "what do i need before welding")
        plainer = not kinds(head) and kinds(tail) \
            and not set(tokens(head)) & (WORDS.prepositions | {"before", "after"}) \
            and not any(w[:1].isupper() and w != "I" for w in head.split()[1:])
        return f"{head[:len(head) - len(head.lstrip())]}{tail}" if plainer else head
    # (the ask said again ends where its clause does: ", and also what ..." asks anew)
    text = re.sub(r"([^?.!]*?\w),?\s+like\s+((?:what|which|who|how)\w*\b[^?.!,;]*?)"
                  r"(?=[?.!,;]|\s+(?:and|aur|also|plus|then)\b|$)", shorter, text, flags=re.I)
    # ", matlab Asha ke jo friends hain woh kaunse clubs mein hain?", ", I mean ...": the kind asked,
    # asked again, wherever its question word stands (Hindi puts it late), to the end of the sentence
    # (not "... kya hota hai matlab reliable kaise banta hai": more of what a note is asked)
    def same_kind(m: re.Match[str]) -> str:
        asked = kinds(m[1])
        return m[1] if asked and asked <= kinds(m[2]) and is_question(tokens(m[2]), opening=True) else m[0]
    return re.sub(r"([^?.!]*?\w),?\s+(?:matlab|i\s+mean|in\s+other\s+words)\s*,?\s+([^?.!]*?)(?=[?.!]|$)",
                  same_kind, text, flags=re.I)
