"""A group of values found before, as a later part of a question writes it.

Introduced in notebook 12, with the query updater (`course.llm.offline.roles.updater`):
"each of them", "both of them", "they", "who among them" stand for several values an earlier
part found, written "each of A and B" ("A aur B mein se har ek"), "both A and B", or "A and B".
Rules, not a model: see `course.llm.offline.roles.words`.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from course.foundation.language import WORDS, each_alone, language_of
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.kinds import last_kind
from course.llm.offline.roles.words import (ALL_OF_THEM, EACH_OF_THEM, HE_SHE,
                                            HINDI_CASE, PEOPLE, PLURAL, tokens)

Found = tuple[str, Sequence[tuple[str, Any]], Sequence[tuple[str, Any]]]   # question, asked, found


def each_of(part: str, found: Sequence[Found], named: int = 0) -> str | None:
    """"what clubs is each of them in?" -> "what clubs is each of Payal and Aarav in?": every
    value of one label the latest part that found several found, in the part's language; after
    a verb or a preposition, "all of them" and "both of them" are every one at once.

    >>> found = [("Which tools are new?", [], [("Tool", "Lathe"), ("Tool", "Saw")])]
    >>> each_of("who uses both of them?", found), each_of("are all of them red?", found)
    ('who uses both Lathe and Saw?', 'are each of Lathe and Saw red?')
    """
    m = EACH_OF_THEM.search(part) or (None if named else ALL_OF_THEM.search(part)
                                       or each_alone(part))
    if m is None:
        return _each_of_a_kind(part, found)
    latest = next((got for _, _, got in reversed(found) if got), [])
    if len({v for _, v in latest}) == 1 and not BOTH.match(m[0]):   # "when was each founded?"
        return part[:m.start()] + str(latest[0][1]) + part[m.end():]  # of the one club found
    several = _several_of_one_kind(found)
    if several is None:
        return None
    _, values = several
    before = tokens(part[:m.start()])
    if m[0].lower().split()[0] in ("all", "both") and before and \
            before[-1] not in WORDS.question_words | WORDS.auxiliary | WORDS.people:
        # "who is in all of them?", "who studies both of them?": every one at once, not each
        joined = as_group(values, language_of(part), each=False)
        return f"{part[:m.start()]}{'both' if len(values) == 2 else 'all of'} {joined}{part[m.end():]}"
    return part[:m.start()] + as_group(values, language_of(part)) + part[m.end():]


def _each_of_a_kind(part: str, found: Sequence[Found]) -> str | None:
    """"when was each club founded?" after a part that found two clubs: each of those two, not
    every club of the graph; None when no "each"/"every" names the kind the latest part found
    several of.

    >>> found = [("Which clubs is she in?", [], [("Club", "Debate Society"), ("Club", "Coding Club")])]
    >>> _each_of_a_kind("when was each club founded?", found)
    'when was each of Debate Society and Coding Club founded?'
    """
    several = _several_of_one_kind(found)
    if several is None:
        return None
    label, values = several
    noun = default_lexicon().label(label)
    m = re.search(rf"\b(?:each|every)\s+(?:{noun})\b", part, re.I) if noun else None
    return None if m is None else part[:m.start()] + as_group(values, language_of(part)) + part[m.end():]


def _several_of_one_kind(found: Sequence[Found]) -> tuple[str, list[str]] | None:
    """The label and values of the latest part that found several values of one label."""
    for _, _, got in reversed(found):
        labels = {label for label, _ in got}
        values = [str(v) for v in dict.fromkeys(v for _, v in got)]
        if len(values) > 1 and len(labels) == 1:
            return labels.pop(), values
    return None


ONES = re.compile(r"\b(which|the|those|these)\s+(ones?)\b|\b(which)(?=\s+(?:is|are|was|were)\b)",
                  re.I)   # (data/language: referring)


def the_ones(part: str, found: Sequence[Found]) -> str | None:
    """"which ones are planned?", "which one is", "which is" after a part about a name that
    found values of one kind: a choice among them ("which of A and B are planned?"); after one
    that named nothing or counted, of all that kind ("which projects"); "which one" after a
    part whose last kind said is another, of that kind. None when no such word is there or no
    part found or counted one kind.

    >>> the_ones("which ones are red?", [("Which tools are new?", [], [("Tool", "Lathe")])])
    'which tools are red?'
    >>> the_ones("which ones are red?", [("What does Asha use?", [("Person", "Asha")],
    ...                                   [("Tool", "Lathe"), ("Tool", "Saw")])])
    'which of Lathe and Saw are red?'
    >>> the_ones("which is red?", [("How many tools are there?", [], [])])
    'which of the tools is red?'
    >>> the_ones("in which one?", [("Who got an A in any subject?", [], [("Person", "Asha")])])
    'in which subject?'
    >>> the_ones("which ones are red?", [("How many tools does Asha use?", [("Person", "Asha")], [])])
    'which of the tools that Asha use are red?'
    """
    m = ONES.search(part)
    if m is None:
        return None
    which = m[1] or m[3]
    for question, asked, got in reversed(found):
        labels = {label for label, _ in got}
        other = last_kind(question) if m[2] == "one" else None
        if other is not None and other[0] not in labels:   # "which students got an A+ in any
            return f"{part[:m.start()]}{which} {other[1]}{part[m.end():]}"   # subject, and in which one?"
        counted = _HOW_MANY_OF.search(question) if not got else None
        chosen = _WHICH_KIND.match(question)     # "which project is ..., and which is ...": a series
        kind = last_kind(question) if chosen else None
        if m[3] and chosen and kind is not None and kind[1] == chosen[1].lower():
            return f"{part[:m.start()]}{which} {kind[1]}{part[m.end():]}"
        if m[3] and not counted:    # a bare "which is" chooses among what was counted only
            return None
        # among what a part about a name found ("Rahul's projects"); of the kind, after a part
        # that named nothing ("Which projects are finished, and which ones haven't started?")
        ones = the_counted_ones([(question, asked, got)]) if counted else None
        if ones is not None:    # "how many tools does Asha use? which ones are new?": of hers
            return f"{part[:m.start()]}{which} of {ones}{part[m.end():]}"
        if counted or (len(labels) == 1 and (which.lower() != "which" or not asked)):
            noun = counted[1] if counted else labels.pop().lower() + ("" if m[2] == "one" else "s")
            return f"{part[:m.start()]}{which} {noun}{part[m.end():]}"
        if len(labels) == 1:    # (among the others: "which one should I learn before 2NF?" is not 2NF)
            values = [str(v) for v in dict.fromkeys(v for _, v in got)]
            def named(v: str) -> bool:
                return re.search(rf"(?<!\w){re.escape(v.lower())}(?!\w)", part.lower()) is not None
            values = [v for v in values if not named(v)] or values
            if len(values) == 1:    # a choice among one is none: "which one comes after X?"
                return f"{part[:m.start()]}{which} {labels.pop().lower()}{part[m.end():]}"
            among = as_group(values, language_of(part), each=False)
            return f"{part[:m.start()]}{which} of {among}{part[m.end():]}"
    return None


_HOW_MANY_OF = re.compile(r"\bhow many (\w+)", re.I)
_WHICH_KIND = re.compile(r"\s*(?:and\s+)?which\s+([a-z]+)\b", re.I)



BOTH = re.compile(r"\b(?:both|dono|th(?:ose|ese) two)\b(?:\s+of\s+them)?", re.I)   # ("those two")


def both_found(part: str, found: Sequence[Found]) -> str | None:
    """"which students have taken both of them?" after a part that found one value and named
    another of its kind ("Which subject comes before Operating Systems?": DSA) -> "both DSA and
    Operating Systems"; None when "both" cannot be two values.

    >>> both_found("who takes both of them?", [("What comes before Chemistry?", [("Course", "Chemistry")],
    ...                                   [("Course", "Physics")])])
    'who takes both Physics and Chemistry?'
    """
    m = BOTH.search(part)
    if m is None:
        return None
    for _, asked, got in reversed(found):
        if not got:
            continue
        values = list(dict.fromkeys(v for _, v in got))
        label = got[0][0]
        named = [v for lab, v in asked if lab == label and v not in values]
        if len(values) != 1 or len(named) != 1:
            return None
        pair = (f"{values[0]} aur {named[0]} dono" if language_of(part) == "hi"
                else f"both {values[0]} and {named[0]}")
        return part[:m.start()] + pair + part[m.end():]
    return None


AMONG = re.compile(rf"(?:{default_lexicon().cues.get('among', '(?!)')}|\bmany of)$")   # "how many of them"


_SUBJECTS = {"i", "we", "you", "he", "she", "they"}


def chooses_among(word: str, nxt: str, before: Sequence[str]) -> bool:
    """Is the word "them" in "who among them", "which of them", or "unmein" in "unmein se"?"""
    if word in HINDI_CASE and HINDI_CASE[word] == "mein" and word[:2] in ("un", "in") and nxt == "se":
        return True
    several = word in PLURAL or word in WORDS.plural_demonstrative and nxt in WORDS.auxiliary | _SUBJECTS | {""}
    return several and bool(AMONG.search(" ".join(before[-2:]).lower()))   # ("which of those does", "... i need")


def all_found(found: Sequence[Found], language: str, words: Sequence[str], *,
               each: bool = True, pointer: str = "") -> str | None:
    """"they", "their", "unka" in a later part: every value of one label the latest part that
    found something found ("each of Payal and Aarav"; `each=False`: "Payal and Aarav", for a
    choice among them), or the one value it found. When that part was about a person it named
    and asked no "who", that person, not what was found ("what skills does Karan have, and who
    are their friends?": Karan's), so None (or those people, when it named several), unless
    "he" or "she" already stands for that person ("when did he join them?": the clubs) or the
    `pointer` is "them", an object ("who else is in them?": the clubs found). One
    thing found is no "them" when the part asked about one thing ("Which course covers
    deadlocks, and what comes before them?": deadlocks), unless it asked for several of the
    kind found ("which projects ...")."""
    person = default_lexicon().person
    for question, asked, got in reversed(found):
        about = any(label == person for label, _ in asked) and not set(tokens(question)) & PEOPLE
        if about and each and pointer != "them" and not {w.lower().strip(",.!?") for w in words} & HE_SHE:
            # (a choice among them is among what was found, never of one person); "they" after
            # a part that named several people is those people ("do A and B both ...? what ...")
            people = list(dict.fromkeys(str(v) for label, v in asked if label == person))
            return as_group(people, language) if len(people) > 1 else None
        if got:
            label = got[0][0]
            values = [str(v) for v in dict.fromkeys(v for lab, v in got if lab == label)]
            if not each:    # "which of them leads to X?": a choice among the others, not X itself
                said = " ".join(words).lower()
                values = [v for v in values if not re.search(rf"(?<!\w){re.escape(v.lower())}(?!\w)", said)] or values
            things = [str(v) for lab, v in asked if lab != person]
            # "them" is no one thing found: the thing asked about, unless the part asked for
            # things of the kind found ("Which projects need Docker, and who on them knows it?")
            plural = any(m[0].endswith("s") for m in re.finditer(default_lexicon().label(label),
                                                                 question.lower()))
            if len(values) == 1 and label != person and len(things) == 1 and not plural:
                return things[0]
            if not each and len(values) == 1:   # a choice among one found: among the ones named, if several
                named = [str(v) for lab, v in asked if lab == label]
                return as_group(named, language, each=False) if len(named) > 1 else None
            return values[0] if len(values) == 1 else as_group(values, language, each=each)
    return None


def as_group(values: Sequence[str], language: str, *, each: bool = True) -> str:
    """"each of A, B and C" ("A, B aur C mein se har ek"); `each=False`: "A, B and C".

    >>> as_group(["Asha", "Ben"], "hi"), as_group(["A", "B", "C"], "en", each=False)
    ('Asha aur Ben mein se har ek', 'A, B and C')
    """
    joined = f"{', '.join(values[:-1])} {'aur' if language == 'hi' else 'and'} {values[-1]}"
    if not each:
        return joined
    return f"{joined} mein se har ek" if language == "hi" else f"each of {joined}"


_HOW_MANY = re.compile(r"\b(?:how many|kitne|kitni|kitna)\b", re.I)


def the_counted(part: str, found: Sequence[Found]) -> str | None:
    """"who are they?", "what are their names?", "woh kaun hain?" after a part that counted
    ("How many students take Chemistry?"): that part, asking which instead of how many ("Which
    students take Chemistry?"); None when the part asks more than who they are, or the part
    before counted nothing.

    >>> the_counted("and who are they?", [("How many people use the Lathe?", [], [])])
    'Which people use the Lathe?'
    >>> the_counted("who are their friends?", [("How many people use the Lathe?", [], [])]) is None
    True
    >>> the_counted("names pls", [("How many people use the Lathe?", [], [])])
    'Which people use the Lathe?'
    """
    words = tokens(part)
    bare = WORDS.question_words | WORDS.auxiliary | WORDS.hinglish | {
        "and", "ones", "exactly", "all", "name", "names", "naam", "please", "pls", "plz"}
    # "who are they?", "names pls": a pointer at them, or their names
    pointing = set(words) & (WORDS.plural | WORDS.hindi_demonstrative | {"ones", "names", "naam"})
    if not found or not pointing or not set(words) <= bare | WORDS.plural | WORDS.hindi_demonstrative:
        return None
    question = found[-1][0]
    m = _HOW_MANY.search(question)
    if m is None:
        return None
    which = "kaunse" if language_of(question) == "hi" else "which"
    text = f"{question[:m.start()]}{which}{question[m.end():]}"
    return text[0].upper() + text[1:] if m.start() == 0 else text


_HOW_MANY_OF_THAT = re.compile(r"^\s*(?:and\s+|so\s+)?how many(?:\s+\w+)?\s+(?:is|are)\s+"
                               r"(?:that|those|these|they)(?:\s+(?:in total|altogether|overall|in all))?\s*\??\s*$",
                               re.I)
_LISTING = re.compile(r"^\s*(?:which|what)\s+(?=\w+\s)", re.I)


def the_listed_counted(part: str, found: Sequence[Found]) -> str | None:
    """"how many topics is that in total?" after a part that listed ("What topics are taught
    in DSA?"): that part, asking how many instead of which; None otherwise (the count of what
    the graph holds in all would answer another question).

    >>> the_listed_counted("and how many tools is that?", [("Which tools does Asha use?", [], [])])
    'How many tools does Asha use?'
    >>> the_listed_counted("how many tools are there?", [("Which tools does Asha use?", [], [])]) is None
    True
    """
    m = _LISTING.match(found[-1][0]) if found and _HOW_MANY_OF_THAT.match(part) else None
    return None if m is None else "How many " + found[-1][0][m.end():]


# "how many students study DSA", "how many CSE students are there": the noun (after the names
# that describe it, in capitals) and what is said of it ("are there" says nothing)
_COUNTED = re.compile(r"\b(?i:how many)\s+(?:(.+?)\s+(?i:(?:are|is) there)\b|((?:[A-Z][\w+#-]*\s+)*[a-z]\w*))"
                      r"\s*([^?.!]*)")


def the_counted_ones(found: Sequence[Found]) -> str | None:
    """The things the latest part counted, for "which of them" after it: it found a number,
    no values ("How many people use the Lathe?" -> "the people that use the Lathe"); None
    when the latest part did not count.

    >>> the_counted_ones([("How many people use the Lathe?", [], [])])
    'the people that use the Lathe'
    >>> the_counted_ones([("How many tools does the lab have?", [], [])])
    'the tools of the lab'
    >>> the_counted_ones([("How many tools does Asha use?", [], [])])
    'the tools that Asha use'
    >>> the_counted_ones([("How many CSE students are there?", [], [])])
    'the CSE students'
    >>> the_counted_ones([("how many IT branch students are there in year 3?", [], [])])
    'the IT branch students in year 3'
    """
    m = _COUNTED.search(found[-1][0]) if found and not found[-1][2] else None
    if m is None:
        return None
    noun, rest = m[1] or m[2], re.sub(r"\s*\b(?:in total|altogether|overall|in all)\s*$", "", m[3].strip())
    if m[1] or not rest or re.match(r"(?:in|of|from|at|with)\b", rest):     # "how many CSE students are there"
        return f"the {noun} {rest}".strip()
    done = re.fullmatch(r"(?:do|does|did)\s+(.+?)\s+(?:have|has|had)", rest, flags=re.I)
    if done:                  # "does the lab have": the lab's
        return f"the {noun} of {done[1]}"
    return f"the {noun} that {re.sub(r'^(?:do|does|did)\s+', '', rest, flags=re.I)}"


def theirs_counted(part: str, found: Sequence[Found]) -> str | None:
    """"their X" after a part that counted people and found no names ("how many friends does
    Asha have, and what are their skills?"): the X of the ones counted, not of Asha; None for
    any other part.

    >>> theirs_counted("what are their tools?", [("How many friends does Asha have?", [], [])])
    'what are the tools of the friends of Asha?'
    >>> theirs_counted("and their lab years?", [("How many friends does Asha have?", [], [])])
    'and the lab years of the friends of Asha?'
    """
    ones = the_counted_ones(found) if re.search(r"\btheir\s+\w", part, re.I) else None
    # (the whole noun after "their", to the end of its clause: "their founding years")
    return re.sub(r"\btheir\s+([\w -]+?)(?=\s*(?:[?.!,;]|\band\b|$))", lambda m: f"the {m[1]} of {ones}", part,
                  count=1, flags=re.I) if ones else None


_SIDE_OF_IT = re.compile(r"\b(before|after)\s+(?:it|that|this)\b", re.I)


def named_of_the_kind_asked(part: str, found: Sequence[Found]) -> str | None:
    """The value the part before named, when this part asks "which <kind>" of the kind that
    part named and found ("Which subject comes before §0, and which subject comes after it?":
    it is §0, whose neighbour was found); else None ("..., and who studies it?": the one found).

    >>> found = [("Which course comes before Optics?", [("Course", "Optics")], [("Course", "Algebra")])]
    >>> named_of_the_kind_asked("which course comes after it?", found)
    'Optics'
    >>> named_of_the_kind_asked("who takes it?", found) is None
    True
    >>> named_of_the_kind_asked("which course comes before it?", found) is None   # the chain goes on
    True
    """
    if not found:
        return None
    lexicon, (question, asked, got) = default_lexicon(), found[-1]
    side = _SIDE_OF_IT.search(part)
    if side and re.search(rf"\b{side[1]}\b", question, re.I):   # the same side again: a next step
        return None
    which = lexicon.cues.get("which", r"(?!)")
    kinds = {label for label, _ in [*asked, *got]
             if re.search(rf"(?:{which})\s+(?:{lexicon.label(label)})", part.lower())}
    named = [str(value) for label, value in asked if label in kinds]
    return named[0] if len(named) == 1 and got and all(label in kinds for label, _ in got) else None
