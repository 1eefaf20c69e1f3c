"""What a pointing word stands for: "she", "it", "that student", "those skills", "them".

Introduced in notebook 12, with the query updater (`course.llm.offline.roles.updater`), which
writes a later part of a question with what an earlier part found (`Found`). Rules, not a
model: see `course.llm.offline.roles.words`.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from course.foundation.language import WORDS
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.groups import Found, as_group
from course.llm.offline.roles.words import (AFTER_OBJECT, AUXILIARY, DEMONSTRATIVE, HINDI_CASE,
                                            LINK_ENTRY, PEOPLE, PERSONAL, PLURAL, POSSESSIVE,
                                            QUESTION_WORDS, tokens)


def kind_of(word: str, nxt: str) -> str | None:
    """What a word points back with: that (+ noun), it, its, possessive, person, or None
    ("one", what was found, is the rewrite's: "that one")."""
    if word in DEMONSTRATIVE and nxt and nxt not in QUESTION_WORDS | AUXILIARY or \
            word in WORDS.hindi_demonstrative and names_a_kind(nxt):   # "ye club"
        return "that"
    if word in ("it", "this", "that"):
        return "it"
    if word == "its":
        return "its"
    if word in POSSESSIVE or (word == "her" and nxt and nxt not in AFTER_OBJECT):
        return "possessive"
    if word in PERSONAL or word in ("her", "hers", "them") or word in HINDI_CASE:
        return "person"
    return None


def names_a_kind(word: str) -> bool:
    """Is the word a noun for a kind of thing the graph holds ("club", "project")?"""
    lexicon = default_lexicon()
    return any(lexicon.label(label) and re.fullmatch(lexicon.label(label), word)
               for label in lexicon.labels)


def exists(before: Sequence[str], nxt: str) -> bool:
    """Is "there" saying that something exists ("is there anyone", "there are"), pointing
    nowhere? At the end ("who else is there?") it is a place."""
    return nxt in AUXILIARY or bool(nxt and before) and before[-1].lower() in AUXILIARY


def owners_of(word: str, properties: Mapping[str, Sequence[str]] | None) -> set[str] | None:
    """The labels that have the property a word names ("status": the ones with a status), or
    None when it names none."""
    lexicon = default_lexicon()
    owners = {label for label, names in (properties or {}).items() if not LINK_ENTRY.fullmatch(label)
              and any(re.fullmatch(lexicon.prop(name), word) for name in names if name in lexicon.properties)}
    return owners or None


def stands_for(kind: str, noun: str, found: Sequence[Found], word: str = "",
                owners: set[str] | None = None) -> str | None:
    """The value a pointing word stands for, from the latest part that found something: "he",
    "her" a person, "it", "its" never one ("what grade did he get in DBMS, and which semester
    did he take it in?": it is the subject), "them" what was found or a person (after "how
    many students know Python?", "which of them" is not Python).

    >>> person = default_lexicon().person
    >>> found = [("What grade did Asha get in Chemistry?", [(person, "Asha"), ("Course", "Chemistry")], [])]
    >>> stands_for("it", "in", found, "it"), stands_for("person", "take", found, "she")
    ('Chemistry', 'Asha')
    >>> stands_for("person", "", [("How many take Chemistry?", [("Course", "Chemistry")], [])], "them")
    """
    person = default_lexicon().person
    for question, asked_values, got_values in reversed(found):
        asked, got = list(asked_values), list(got_values)
        if word in WORDS.third_person:
            asked, got = [v for v in asked if v[0] == person], [v for v in got if v[0] == person]
        elif word in PLURAL:   # "them" is several things found, or a person ("they" for one)
            asked = [v for v in asked if v[0] == person]
        if owners is not None:   # "its status": something that has one
            asked, got = [v for v in asked if v[0] in owners], [v for v in got if v[0] in owners]
        elif kind in ("it", "its"):
            asked, got = [v for v in asked if v[0] != person], [v for v in got if v[0] != person]
            if len({v for _, v in got}) > 1:
                got = []   # "it" is one thing, never one of several found
        if kind == "that":   # "that student", "that person": a label by its name or its nouns
            labels = {noun.rstrip("s").lower()} | {
                label.lower() for label in default_lexicon().labels
                if re.fullmatch(default_lexicon().label(label), noun)}
            hit = [v for lab, v in got + asked if lab.lower() in labels]
            if hit:
                return hit[0]
            continue
        by_people = kind in ("person", "possessive") and bool(set(tokens(question)) & PEOPLE)
        # "which subject comes after §0, and who studies it?": "it" is the subject found
        by_things = kind in ("it", "its") and asks_for_nodes(question) or kind == "one"
        ordered = got + asked if by_people or by_things else asked + got
        if ordered:
            return ordered[0][1]
    return None


def every_one(kind: str, noun: str, found: Sequence[Found], language: str) -> str | None:
    """"those skills", "these concepts": every value of the noun's label the latest part that
    found several found ("each of SQL and Python"), or None."""
    for _, asked, got in reversed(found):
        first = stands_for(kind, noun, [("", asked, got)])
        if first is None:
            continue
        label = next(lab for lab, v in list(got) + list(asked) if v == first)
        values = [str(v) for v in dict.fromkeys(v for lab, v in got if lab == label)]
        return as_group(values, language) if len(values) > 1 else None
    return None


def asks_for_nodes(question: str) -> bool:
    """Does a question ask "which <label>" ("which subject comes after DSA?")?"""
    lexicon = default_lexicon()
    nouns = "|".join(f"(?:{regex})" for regex in lexicon.labels.values() if regex) or r"(?!)"
    which = lexicon.cues.get("which", r"(?!)")
    return bool(re.search(rf"(?:{which})\s+(?:{nouns})", question.lower()))
