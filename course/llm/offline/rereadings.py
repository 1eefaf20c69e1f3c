"""Other readings of a question's words: what they say read another way (notebooks 05 and 09).

Introduced in notebook 05, with the offline provider. A name's own kind said beside it is the
name ("the concept of §0", "§0 ka concept"); people in general told what to do are the learner
("what should students finish before §0?"); "for a student" at the end is for whoever.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from course.llm.offline.lexicon import Lexicon
from course.llm.offline.reading import Reading


def without_own_kinds(reading: Reading) -> Reading:
    """"what does the §0 subject cover?" -> "what does the §0 cover?": a name's own kind said
    after it ("§0 ka concept") or before it ("the concept of §0") is the name, not a second
    thing asked for (a person's nouns stay: "§0 friends").
    A second reading, tried when the question as written fits no query: the kind's noun may
    also name the link asked about ("the people on the §0 team").

    >>> from course.llm.offline.prompt import Entity
    >>> course = Entity("Course", "name", "Physics")
    >>> from course.llm.offline.prompt import parse_schema
    >>> schema = parse_schema("")
    >>> without_own_kinds(Reading("what does the §0 course cover ?", [course], schema)).text
    'what does the §0 cover ?'
    >>> without_own_kinds(Reading("which §0 courses", [course], schema)).text
    'which §0 courses'
    >>> without_own_kinds(Reading("what is the course of §0 ?", [course], schema)).text
    'what is §0 ?'
    """
    labels = [e.label for e in reading.entities]
    return replace(reading, text=own_kinds_as_names(reading.text, labels, reading.lexicon))


_OWN_KIND = re.compile(r"§(?P<after>\d+)(?:'s| ka| ki| ke)? (?P<noun>[a-z-]+)\b|"
                       r"\bthe (?P<noun_before>[a-z-]+) of §(?P<before>\d+)")


def own_kinds_as_names(text: str, labels: Sequence[str], lexicon: Lexicon) -> str:
    """`without_own_kinds` on a text whose §N names a thing of `labels[N]` (the critic's too)."""
    def its_own_kind(m: re.Match[str]) -> str:
        at = m["after"] if m["after"] is not None else m["before"]
        if int(at) >= len(labels):
            return m[0]
        label, noun = labels[int(at)], m["noun"] or m["noun_before"]
        kind = lexicon.label(label)
        plural = noun.endswith("s") and bool(re.fullmatch(kind, noun[:-1]))
        same = label != lexicon.person and re.fullmatch(kind, noun) and not plural
        return f"§{at}" if same else m[0]

    return _OWN_KIND.sub(its_own_kind, text)


# what one should, must or needs to do: advice, whose subject is whoever takes it
_ADVICE = r"(?:should|must|would|ought to|needs? to|ha(?:ve|s) to)"
_UNQUALIFIED = r"(?=\s)(?!\s+(?:in|of|with|from|on|at|who|that|which|whose|§))"   # "students in §0": some


def people_in_general(reading: Reading) -> Reading:
    """"which subject should students complete before they take §0 ?" -> "... should one
    complete before one take §0 ?": people in general, told what to do, are the learner (whose
    verb names no link, as in "should I complete"), not people asked for; people a phrase
    narrows down ("should students in §0") are not people in general.

    >>> from course.llm.offline.prompt import parse_schema
    >>> def general(text): return people_in_general(Reading(text, [], parse_schema(""))).text
    >>> general("what should students finish before they take §0 ?")
    'what should one finish before one take §0 ?'
    >>> general("what must a student do before taking §0 ?"), general("what would someone need for §0 ?")
    ('what must one do before taking §0 ?', 'what would one need for §0 ?')
    >>> general("what should she finish before starting §0 ?")
    'what should one finish before starting §0 ?'
    >>> general("what does §0 open up for a student afterwards ?")
    'what does §0 open up for one afterwards ?'
    >>> general("which students should finish §0 ?"), general("what should students in §0 know ?")
    ('which students should finish §0 ?', 'what should students in §0 know ?')
    """
    lexicon = reading.lexicon
    if not lexicon.person:
        return reading
    person = lexicon.label(lexicon.person)
    text = re.sub(rf"\b({_ADVICE})\s+(?:(?:a|an|the|all|most)\s+)?(?:{person}){_UNQUALIFIED}", r"\1 one",
                  reading.text)
    text = re.sub(rf"\b(?:a|an)\s+(?:{person}){_UNQUALIFIED}\s+({_ADVICE})\b", r"one \1", text)
    # "what does §0 open up for a student?": for whoever takes it, no one asked for
    text = re.sub(rf"\bfor\s+(?:a|an|any)\s+(?:{person})(?=\s+\w+ly\b|\s+afterwards?\b|\s*[?.!]*\s*$)",
                  "for one", text)
    if not any(e.label == lexicon.person for e in reading.entities):
        # "what should she finish before §0?" with no one she stands for: a learner, told what to do
        text = re.sub(rf"\b({_ADVICE})\s+(?:she|he)\b", r"\1 one", text)
    if text != reading.text and not any(e.label == lexicon.person for e in reading.entities):
        text = re.sub(r"\bthey\b", "one", text)    # the people just said, no one named
    return replace(reading, text=text)
