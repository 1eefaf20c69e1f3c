"""An ask whose owner is left unsaid: "What year is Asha in, what branch, and which clubs?" asks
"which clubs?" of Asha, as the part before it did, not of every club; and a count whose kind is
left unsaid: "How many tools does Asha use, and how many does Ravi?" counts Ravi's tools. Used by
the offline updater (`course.llm.offline.roles.updater`).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from course.foundation.language import WORDS, language_of
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.groups import Found
from course.llm.offline.roles.kinds import names_a_kind
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


_COUNT = re.compile(r"\b(?:how many|kitne|kitni|kitna)\b", re.I)


def counts_the_unsaid(question: str) -> bool:
    """Does the question count without saying what ("and how many does Ravi?", "Ravi mein
    kitne?")? It counts what the part before it counted.

    >>> counts_the_unsaid("and how many does Ravi?"), counts_the_unsaid("how many clubs is Ravi in?")
    (True, False)
    """
    return re.search(WORDS.unsaid_count, question, re.I) is not None


def the_same_count(part: str, found: Sequence[Found], linked: Sequence[Named]) -> str | None:
    """A count that names a value and no kind ("..., and how many does Ravi?", "aur Ravi mein
    kitne?") counts what the part before counted, of that value: the part before, with its one
    value's name changed to this one's (of the same kind); None for any other part.

    >>> from types import SimpleNamespace as Named
    >>> found = [("How many clubs is Asha in?", [("Person", "Asha")], [])]
    >>> ravi = Named(text="ravi", label="Person", value="Ravi")
    >>> the_same_count("and how many is Ravi in?", found, [ravi])
    'How many clubs is Ravi in?'
    >>> the_same_count("how many skills does Ravi have?", found, [ravi])
    """
    lexicon = default_lexicon()
    nouns = [*lexicon.labels.values(), *lexicon.properties.values()]
    unnamed = part
    for name in linked:     # (the name's own words, "Welding Club", are no kind asked)
        unnamed = re.sub(re.escape(str(name.text)), " ", unnamed, flags=re.I)
    said = tokens(_COUNT.sub(" ", unnamed))
    if not _COUNT.search(part) or len(linked) != 1 or not found or len(found[-1][1]) != 1 \
            or any(regex and re.fullmatch(regex, w) for w in said for regex in nouns):
        return None
    asked, ((kind, value),) = found[-1][0], found[-1][1]
    if linked[0].label != kind or not _COUNT.search(asked) \
            or not re.search(rf"\b{re.escape(str(value))}\b", asked, re.I):
        return None
    return re.sub(rf"\b{re.escape(str(value))}\b", str(linked[0].value), asked, count=1, flags=re.I)



# "how to fix?", "how do i avoid": a question word and a verb, its object unsaid, a sentence's last words
_OBJECT_LEFT_OUT = re.compile(r"(?:^|(?<=[?.!]\s)|(?<=[?.!]))(\s*(?:and\s+|also\s+|but\s+)?(?:how|why|when)\s+"
                              r"(?:to|do\s+(?:i|we|you|they)|does\s+one|can\s+(?:i|we|you))\s+(?!(?:" +
                              "|".join(sorted(WORDS.function)) + r")\b)[a-z]+)(?=\s*[?.!]*\s*$|\s*[?.!]\s)",
                              re.I)


def object_as_it(question: str) -> str:
    """The question with "it" for an object left unsaid ("... when a table breaks BCNF? how to
    fix"): what the ask before it is about, as "it" would be (alone, "how to fix" finds the note
    on whatever is fixed most).

    >>> object_as_it("what is a deadlock? how to avoid"), object_as_it("how to fix a deadlock?")
    ('what is a deadlock? how to avoid it', 'how to fix a deadlock?')
    """
    return _OBJECT_LEFT_OUT.sub(r"\1 it", question)
