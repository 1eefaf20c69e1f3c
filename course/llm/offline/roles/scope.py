"""A later part's scope: a property asked of the link the part before took, at the value it
named or found there ("Who studies Chemistry, and what grades did they get?": in Chemistry).

Introduced in notebook 12, with the query updater (`course.llm.offline.roles.updater`). Rules,
not a model: see `course.llm.offline.roles.words`.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from course.foundation.language import points_at_a_person
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.typos import correct
from course.llm.offline.roles.groups import Found, as_group
from course.llm.offline.roles.words import LINK_ENTRY


def in_scope(text: str, found: Sequence[Found], properties: Mapping[str, Sequence[str]],
              language: str) -> str:
    """A property of the link the part before took, at the value it named there: "Who uses
    the Lathe, and how often do they use it?" asks how often at the Lathe.

    >>> person = default_lexicon().person
    >>> found = [("Who studies Chemistry?", [("Course", "Chemistry")], [(person, "Asha"), (person, "Ben")])]
    >>> in_scope("what grades did each of Asha and Ben get", found,
    ...           {f"{person}-TAKES->Course": ["grade"]}, "en")
    'what grades did each of Asha and Ben get in Chemistry'
    """
    lexicon = default_lexicon()   # (a part that found only a number: the ends it named)
    latest = next(((asked, got) for _, asked, got in reversed(found) if got or asked), None)
    if latest is None:
        return text
    asked, got = latest
    found_labels = {lab for lab, _ in got or [a for a in asked if str(a[1]).lower() in text.lower()]}
    for key, names in properties.items():
        link = LINK_ENTRY.fullmatch(key)
        if link is None or not any(re.search(lexicon.prop(name), text.lower())
                                   for name in names if name in lexicon.properties):
            continue
        for near, far in ((link[1], link[3]), (link[3], link[1])):
            there = [v for label, v in asked if label == far]
            if near in found_labels and len(there) == 1 and str(there[0]).lower() not in text.lower() \
                    and not (far == lexicon.person and points_at_a_person(text)):   # ("uska role": whose?)
                return scoped(text, str(there[0]), language)
            values = [str(v) for v in dict.fromkeys(v for label, v in got if label == near)]
            if there and values and all(str(t).lower() in text.lower() for t in there) \
                    and not any(v.lower() in text.lower() for v in values) and not _asks_for(text, near) \
                    and not any(_does_itself(text, str(t), far) for t in there) \
                    and not _names_another_kind(text, near, far):
                # "What is Sneha good at, and how good is she?": at what the part found ("which
                # project are A and B on, and what are their roles?": each, at the project)
                group = values[0] if len(values) == 1 else as_group(values, language)
                return scoped(text, group, language)
    scope = of_the_one_asked(text, asked, properties, language)
    return scope if scope != text else of_the_one_linked(text, found, properties, language)


def _names_another_kind(text: str, *kinds: str) -> bool:
    """Does the part name a kind beside the link's two ("what's her role on her project?" after
    her club was found: the role on a project, not in the club)?

    >>> _names_another_kind("what's Asha's role on her project", "Team", "Person")
    True
    """
    lexicon = default_lexicon()
    return any(re.search(lexicon.label(label), text.lower()) for label in lexicon.labels
               if label not in kinds and lexicon.label(label) and label != lexicon.person)


def _does_itself(text: str, value: str, label: str) -> bool:
    """Is a thing (no person) the subject of the part's verb ("when did the Robotics Club
    start?", "since when has the Coding Club existed?")? Then it asks of the thing itself, not of
    its link to what was found."""
    return label != default_lexicon().person and \
        re.search(rf"\b(?:did|does|do|has|have|had)\s+(?:the\s+)?{re.escape(value)}\b", text, re.I) is not None


def _asks_for(text: str, label: str) -> bool:
    """Does the part ask which one of `label` ("who joined it last?" asks for a person): then what
    the part before found of that label is no scope of it, only its answer's kind."""
    lexicon, words = default_lexicon(), text.lower()
    return bool(re.match(r"\s*(?:who|whom|kaun|kon)\b", words)) if label == lexicon.person else \
        bool(re.search(rf"\b(?:which|what|kaunsa|kaunse|kaunsi) (?:{lexicon.label(label) or '(?!)'})", words))


def of_the_one_asked(text: str, asked: Sequence[tuple[str, object]],
                     properties: Mapping[str, Sequence[str]], language: str) -> str:
    """A value of a link's property that names nothing it is of ("When was the Robotics Club
    started, and who is the president?"), asked of the one thing at the link's other end the
    part before asked about: the president of that club, not every club's.

    >>> person = default_lexicon().person
    >>> of_the_one_asked("who is the president", [("Team", "Falcons")],
    ...                  {f"{person}-MEMBER_OF->Team": ["role"]}, "en")
    'who is the president in Falcons'
    """
    lexicon = default_lexicon()
    said = " ".join(correct(w, lexicon.vocab) for w in re.findall(r"[\w'-]+", text.lower()))   # "presdent"
    for key, names in properties.items():
        link = LINK_ENTRY.fullmatch(key)
        if link is None or not any(re.search(lexicon.value_words.get(name) or r"(?!)", said)
                                   for name in names) or _names_another_kind(said, link[1], link[3]):
            continue     # ("which club is he president of": a club's, not the project's)
        for end in (link[1], link[3]):
            there = [v for label, v in asked if label == end]
            if end != lexicon.person and len(there) == 1 and str(there[0]).lower() not in text.lower():
                return scoped(text, str(there[0]), language)
    return text


def of_the_one_linked(text: str, found: Sequence[Found], properties: Mapping[str, Sequence[str]],
                      language: str) -> str:
    """A part that names no value, only people by a link's word ("Robotics Club: who's
    president, when was it founded, and how many members?"), asked of the one thing of the
    link's other kind the part before asked about: that club's members, not every student.
    "which clubs ..." names the kind (every club); a link of a kind to itself ("what does 3NF
    need first?") has no other end.

    >>> person = default_lexicon().person
    >>> of_the_one_linked("how many members", [("when was it founded?", [("Team", "Falcons")], [])],
    ...                   {f"{person}-MEMBER_OF->Team": []}, "en")
    'how many members in Falcons'
    """
    lexicon = default_lexicon()
    said = " ".join(correct(w, lexicon.vocab) for w in re.findall(r"[\w'-]+", text.lower()))
    values = [str(v).lower() for _, asked, got in found for _, v in [*asked, *got]]
    if not found or any(v in text.lower() for v in values):
        return text
    kinds = {label for label in lexicon.labels
             if lexicon.label(label) and re.search(lexicon.label(label), said)}
    for key in properties:
        link = LINK_ENTRY.fullmatch(key)
        if link is None or link[1] == link[3] or not re.search(lexicon.relation(link[2]) or r"(?!)", said):
            continue
        for near, end in ((link[1], link[3]), (link[3], link[1])):    # ("members": people, of a club)
            there = [v for label, v in found[-1][1] if label == end]
            if near == lexicon.person and near in kinds and end not in kinds and len(there) == 1:
                return scoped(text, str(there[0]), language)
    return text


def scoped(text: str, value: str, language: str) -> str:
    """The part asked in `value`: at its end, or before a property asked after a comma ("what
    grades did he get, and in which semester?": the grades in the value, and the semester).

    >>> scoped("what grades did Asha get, and in which term", "Chemistry", "en")
    'what grades did Asha get in Chemistry, and in which term'
    """
    where = f"{value} mein" if language == "hi" else f"in {value}"
    m = re.search(r",\s*(?:and\s+|aur\s+)?(?:\w+\s+)?(?:which|what|kis|kab)\b", text, re.I)
    return f"{text[:m.start()]} {where}{text[m.start():]}" if m else f"{text} {where}"
