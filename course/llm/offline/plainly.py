"""Ways of saying a thing that ask nothing more than the plain words would (notebook 05's reading).

A learner writes "which subject on this course teaches welding?", "which student projects are
done?", "for each of them, who studies it?" and "what do I need to unlock before welding?". The
course as a whole, a person's noun that says whose a project is, an "it" that stands for each of
several and the learner's own "unlock" (their learning) are no further things to find:
read as they are, each would be one more word the query leaves out, and the question refused.
Used by the offline provider's reading and, for "each of them ... it", by the agentic agent's
query updater.
"""
from __future__ import annotations

import re

from course.llm.offline.lexicon import Lexicon

# "for each of them, which students study it?": "it" is each of them, said first (not "what does
# each of them do on it?", where "it" is another thing)
_EACH_OF_THEM = re.compile(r"(?:^|(?<=[?.!,;]\s)|(?<=\band\s))"
                           r"for (?:each|every one) of (?:them|these|those)\b,?\s*", re.I)


def it_of_each(text: str) -> str:
    """"For each of them, which students study it?" -> "which students study them?": an "it"
    after "each of them" is every one of them, each (an answer lists them one by one).

    >>> it_of_each("For each of them, which students study it, and in which semester?")
    'which students study them, and in which semester?'
    >>> it_of_each("what does each of them do on it?")
    'what does each of them do on it?'
    """
    each = _EACH_OF_THEM.search(text)
    if each is None or not re.search(r"\bits?\b", text[each.end():], re.I):
        return text
    rest = re.sub(r"\bit\b", "them", re.sub(r"\bits\b", "their", text[each.end():]))
    return text[:each.start()] + rest


def said_plainly(text: str, lexicon: Lexicon) -> str:
    """The question without what asks nothing more (linked names as §0, §1, ...).

    >>> from course.llm.offline.lexicon import default_lexicon
    >>> said_plainly("which subject on this course teaches §0 ?", default_lexicon())
    'which subject teaches §0 ?'
    >>> said_plainly("which student projects are done ?", default_lexicon())
    'which projects are done ?'
    >>> said_plainly("before §0 what topics needed ?", default_lexicon())
    'what topics needed before §0 ?'
    >>> said_plainly("what do i need to unlock before learning §0 ?", default_lexicon())
    'what do i need to learn before learning §0 ?'
    """
    text = it_of_each(text)
    # "what do I need to unlock before §0?": the learner's unlocking is their learning, and the
    # link is the "before" after it (a link's own word, said of §0, says its way: "what §0 unlocks")
    text = re.sub(r"\b(i|we|you|one) ((?:(?:need|have|has|ought|got) to |should |must |can )+)(?:have )?"
                  r"(?:unlock|open(?: up)?)(?= (?:before|first)\b)", r"\1 \2learn", text)
    text = re.sub(r"\bbefore (i|we|you|one) ((?:can |could )?)(?:unlock|open(?: up)?)(?= §)",
                  r"before \1 \2take", text)
    text = re.sub(r"\bun(?:me|mein) se\b", "un mein se", text)   # "unme se kiske paas ...": among them
    # "before §0 what topics needed?": the phrase put first is the ask's own ("what topics
    # needed before §0?")
    # (after the learner's own words too: "before i can take on §0 what topics ...")
    text = re.sub(r"^(before|after) (?:(?:i|we|you|one) (?:can |could |should |must )?(?:\w+ ){1,2}?)?(§\d+) "
                  r"((?:what|which|who)\b.*?)(\s*[?.!]*)$", r"\3 \1 \2\4", text)
    # "the topics under §0 in the course": the whole course, after a kind or a name (a subject
    # is "a course" too: "who is on this course?" keeps it)
    kinds = "|".join(f"(?:{r})" for r in lexicon.labels.values() if r) or "(?!)"
    text = re.sub(rf"(§\d+|\b(?:{kinds})) (?:in|on|of) (?:this|the|our|my) "
                  rf"(?:course|syllabus|curriculum|timetable)\b",
                  r"\1", text)
    # "which student projects": the person's noun before another kind's says whose, asks for no person
    others = "|".join(f"(?:{r})" for label, r in lexicon.labels.items() if r and label != lexicon.person)
    if lexicon.person and others:
        text = re.sub(rf"\b{lexicon.person.lower()} (?=(?:{others}))", "", text)
    return text
