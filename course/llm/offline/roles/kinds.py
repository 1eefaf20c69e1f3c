"""The graph's kinds of thing as a question's words name them: "club", "subjects", "the last
kind said" (for a later "which one"), and an ask that names only kinds ("Name and skill pls"),
which asks them of what the ask before it finds.

Introduced in notebook 12, with the query updater (`course.llm.offline.roles.updater`).
"""
from __future__ import annotations

import re

from course.foundation.language import WORDS
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.words import AUXILIARY, FUNCTION_WORDS, tokens


def names_a_kind(word: str) -> bool:
    """Is the word a noun for a kind of thing the graph holds ("club", "project")?"""
    lexicon = default_lexicon()
    return any(lexicon.label(label) and re.fullmatch(lexicon.label(label), word)
               for label in lexicon.labels)


def kinds_only(text: str) -> list[str]:
    """The nouns of the kinds and properties an ask with no verb names when it names nothing
    else ("Give me the name and the skill.", "and which skill?"): it may ask them of what the
    ask before it finds (`columns_of`); else [].

    >>> kinds_only("Give me the name and the skill, please"), kinds_only("which club is she in?")
    (['skill'], [])
    """
    lexicon = default_lexicon()
    words = [w for w in tokens(text) if not (w in FUNCTION_WORDS | lexicon.filler | {"just", "only"}
             or WORDS.shorthand.get(w, w) in WORDS.requests | {"please"})]    # ("just subjects tell")
    if not words or set(tokens(text)) & AUXILIARY:
        return []
    nouns = [*lexicon.labels.values(), *lexicon.properties.values()]
    return words if all(any(r and re.fullmatch(r, w) for r in nouns) for w in words) else []


def columns_of(ask: str, before: str) -> str | None:
    """What `ask` (`kinds_only`) adds to the ask `before` it, as a clause of that ask ("and
    which skill"), when it names a kind `before` names too (not "and which projects?" after
    "Which clubs are there?": an ask of its own), and maybe properties; else None.

    >>> columns_of("Give me the name and the skill.", "Who has an Advanced-level skill?")
    'and which skill'
    >>> columns_of("Name, skill and level pls", "Who has a skill?")
    'and which skill and what level'
    >>> columns_of("and which projects?", "Which clubs are there?") is None
    True
    """
    nouns, lexicon = kinds_only(ask), default_lexicon()
    if not nouns:
        return None
    said = set(tokens(before))

    def is_property(word: str) -> bool:
        return any(r and re.fullmatch(r, word) for r in lexicon.properties.values())
    if all(is_property(w) for w in nouns) or not all(is_property(w) or w in said for w in nouns):
        return None     # (a property alone is asked of whom the ask before is about: "branch?")
    return " ".join(f"and {'what' if is_property(w) else 'which'} {w}" for w in nouns)


def last_kind(question: str) -> tuple[str, str] | None:
    """(label, noun) of the last noun for a kind of thing the question says, the one a later
    "which one" stands for, as in English ("... in any subject, and in which one?": a subject);
    None when it says none (or its last is a word like "who", no noun).

    >>> last_kind("Which students got an A+ in any subject?")
    ('Subject', 'subject')
    """
    lexicon, said = default_lexicon(), question.lower()
    nouns = [(m.start(), label, m[0]) for label in lexicon.labels
             for m in re.finditer(lexicon.label(label), said)
             if m[0] not in WORDS.question_words and re.fullmatch(r"[a-z]+", m[0])]
    return max(nouns)[1:] if nouns else None
