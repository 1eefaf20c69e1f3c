"""An ask whose owner is left unsaid: "What year is Asha in, what branch, and which clubs?" asks
"which clubs?" of Asha, as the part before it did, not of every club. Used by the offline
updater (`course.llm.offline.roles.updater`).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from course.foundation.language import WORDS, language_of
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.groups import Found
from course.llm.offline.roles.pointing import names_a_kind
from course.llm.offline.roles.words import Named, tokens


def of_the_same(part: str, found: Sequence[Found], linked: Sequence[Named]) -> str | None:
    """A part that asks only for a kind of thing ("What year is Asha in, what branch, and
    which clubs?": "which clubs?") asks it of the one value the part before was about ("What
    are Asha's clubs?"), not of every club; None for any other part.

    >>> of_the_same("and which clubs?", [("What year is Asha in?", [("Person", "Asha")], [])], [])
    "What are Asha's clubs?"
    >>> of_the_same("which club is in?", [("What year is Asha in?", [("Person", "Asha")], [])], [])
    "What is Asha's club?"
    """
    skipped = WORDS.question_words | WORDS.auxiliary | WORDS.function   # (and "in", "me h": "which club
    said = [w for w in tokens(part) if not {w, WORDS.hindi_in_english.get(w, w)} & skipped]   # is in?")
    while said and said[0] in ("and", "also"):
        said = said[1:]
    words = [w for w in said if w not in ("and", "also")]
    properties = default_lexicon().properties.values()
    def a_property(word: str) -> bool:    # "rahul year? branch?": his branch
        return any(regex and re.fullmatch(regex, word) for regex in properties)
    if linked or not found or not words or not all(names_a_kind(w) or a_property(w) for w in words) \
            or len(found[-1][1]) != 1:
        return None
    kind, value = found[-1][1][0]
    own = next((w for w in words if re.fullmatch(default_lexicon().label(kind) or r"(?!)", w)), None)
    if own is not None:     # "when was club started": the club, as "the club" would be
        return re.sub(rf"\b{re.escape(own)}\b", value, part, count=1, flags=re.I)
    nouns = " ".join(said)
    if language_of(part) == "hi":
        return f"{value} ke {nouns} kya hain?"
    several = any(names_a_kind(w) and w.endswith("s") for w in words) or len(words) > 1
    return f"What are {value}'s {nouns}?" if several else f"What is {value}'s {nouns}?"
