"""What a refusal says: outside the graph, a question not followed, or "who do you mean?".

Introduced in notebook 05. A model answers OUT_OF_SCOPE for three different reasons, and the
learner should hear which: the question is about nothing the graph holds ("What is the
weather?"); it names something in the graph but could not be turned into a query (then
saying "outside my knowledge graph" would be false); or it points back ("uska year?") with
nothing before it to point at, and the right answer is a question back.

>>> refusal("What is the weather in Delhi?", [], language="en", context="") is None   # outside
True
>>> refusal("uska year kya hai?", [], language="hi", context="")
'"uska" se kaun matlab hai? Naam ke saath poochho, ya pehle unke baare mein poochho.'
>>> refusal("what is my branch?", [], language="en", context="", owned=["branch"])[:34]
'I do not know who is asking ("my")'
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from typing import TYPE_CHECKING, Any

from course.foundation.language import THAT_ALONE, WORDS, asks_of_the_speaker

if TYPE_CHECKING:
    from course.pipeline.linking import Mention

WHO_IS_MEANT = {
    "en": 'Who do you mean by "{word}"? Name them in the question, or ask about them first.',
    "hi": '"{word}" se kaun matlab hai? Naam ke saath poochho, ya pehle unke baare mein poochho.',
}
# ... and for a thing ("how do I avoid it?", "why is that slow?" said first)
WHAT_IS_MEANT = {
    "en": 'What do you mean by "{word}"? Name it in the question, or ask about it first.',
    "hi": '"{word}" se kya matlab hai? Naam ke saath poochho, ya pehle uske baare mein poochho.',
}
# after a conversation: the pronoun may point at several things found, or at nothing that fits
WHICH_IS_MEANT = {
    "en": 'I could not tell which one "{word}" means here: name it in the question.',
    "hi": '"{word}" se kaunsa matlab hai, yeh samajh nahi aaya: naam ke saath poochho.',
}
# "what is my branch?" with no name said: the graph holds everyone's, not the asker's
WHO_IS_ASKING = {
    "en": 'I do not know who is asking ("{word}"): say who you are in the question ("I\'m Sneha. '
          'What is my branch?").',
    "hi": '"{word}" kiska, yeh nahi pata: apna naam bhi likho ("Main Sneha hoon. Mera branch kya hai?").',
}
NOT_FOLLOWED = {
    "en": ("I could not answer that from the knowledge graph: it has {names}, but I could not "
           "work out a query for this question (or the graph holds no such fact). Try other "
           "words, or ask one part at a time."),
    "hi": ("Main yeh knowledge graph se answer nahi kar paaya: {names} graph mein hai, par is "
           "sawaal ki query nahi bana paaya (ya graph mein yeh jaankari nahi hai). Doosre "
           "shabdon mein, ya ek-ek hissa karke poochho."),
}


def pronoun(question: str, labels: Sequence[str] = ()) -> str | None:
    """The first word of the question that can only stand for someone named before, if any.

    A word in capitals is a name ("the IT branch"); "it" or "they" in a question that names a
    kind of node may point at it ("the project with the fewest people on it"), and so may one
    after a clause of the question's own ("My queue keeps growing. Why does it never shrink?",
    "if I ... and ... it"); "she" may not. "Their" after "anyone" is anyone's.

    >>> pronoun("uska year kya hai?"), pronoun("Who is in IT?"), pronoun("Which project is it?", ["Project"])
    ('uska', None, None)
    >>> pronoun("A tree of 10 folders: can it loop?"), pronoun("What does it cover?")
    (None, 'it')
    >>> pronoun("Is anyone in their final year?"), pronoun("Who are their friends?")
    (None, 'their')
    >>> pronoun("Why is it bad to repeat a row?"), pronoun("How does my laptop reach it?")
    (None, None)
    >>> pronoun("how many topics is that in total?"), pronoun("is that club old?", ["Club"])
    ('that', None)
    >>> pronoun("what problem does this solve?"), pronoun("what example shows this?")
    ('this', 'this')
    >>> pronoun("is it true that a deadlock needs a cycle?"), pronoun("Explain paging. Why is that useful?")
    (None, None)
    """
    if (alone := THAT_ALONE.search(question.lower())) is not None:   # "how many is that?"
        return alone[1]
    nouns = {w.lower() for w in labels} | {w.lower() + "s" for w in labels}
    for pointing in _POINTING.finditer(question):     # "why is that slow?", "explain this"
        noun = pointing["noun"] or ""     # (not "what does BFS do that DFS doesn't?": a clause)
        a_subject = noun[:1].isupper() or noun.lower() in {"i", "we"} | WORDS.personal | WORDS.second_person
        if noun.lower() not in nouns and not a_subject:
            if not _after_a_clause(question[:pointing.start()]):
                return (pointing["before"] or pointing["end"]).lower()
    named = any(w.lower() in nouns for w in re.findall(r"[A-Za-z]+", question))
    for found in re.finditer(r"[A-Za-z]+", question):
        w = found.group()
        if w.lower() not in WORDS.pronouns or w.isupper():
            continue
        if w.lower() in WORDS.person_pronouns:
            return w.lower()
        if w.lower() in WORDS.plural and any(
                q.lower() in WORDS.quantifiers for q in re.findall(r"[A-Za-z]+", question[:found.start()])):
            continue
        if w.lower() == "it" and _EXPLETIVE.search(question[max(0, found.start() - 12):found.end() + 40]):
            continue     # "why is it bad to ...": "it" stands for the clause after it
        if not named and not _after_a_clause(question[:found.start()]) \
                and not _NEW_THING.search(question[:found.start()]):
            return w.lower()
    return None


# "is it bad to", "it's better to", "it is true that": an "it" that stands for what follows
_EXPLETIVE = re.compile(r"(?i)\b(?:(?:is|was|isn't|wasn't|would|will)\s+it|it(?:'s|\s+is|\s+was))"
                        r"\s+(?:\w+\s+){1,2}?(?:to|that)\b"    # ("what does it mean when ...": the
                        r"|\bdoes\s+it\s+mean\s+(?:when|if|to|that)\b")   # clause after it)
# "this" or "that" as the subject after its verb ("what problem does this solve?", "why is that
# slow?", not "is that club old?": a kind's noun after it) or the object that ends a clause
# ("what example shows this?"); a "that" after a noun or a verb of saying joins a clause instead
_POINTING = re.compile(r"(?i)\b(?:is|are|was|were|does|do|did|can|could|will|would|should)\s+"
                       r"(?P<before>this|that)\b(?:\s+(?P<noun>[a-z]+))?"
                       r"|\b(?<!\bof )(?<!\bso )(?P<end>this|that)\s*(?:[?.!]|$)")
# "my laptop ... it", "a number it can reach": a thing the question brings in itself
_NEW_THING = re.compile(r"(?i)\b(?:a|an|my|our|your)\s+[a-z]+")


def _after_a_clause(before: str) -> bool:
    """Is there a clause of the question's own before the pronoun, which may hold what it
    points at: a sentence or a comma before it, a clause opened by "if", "when", "because"...,
    or one joined by "and", "or" ("taking money out of one account and putting it into another")?

    >>> _after_a_clause("If my key has two columns and one column depends on one of ")
    True
    >>> _after_a_clause("How many credits does "), _after_a_clause("What does ")
    (False, False)
    """
    words = re.findall(r"[a-z']+", before.lower())
    joined = any(w in WORDS.conjunctions for w in words[1:])
    return bool(re.search(r"\w[.,:;?!]\s", before)) or joined or \
        bool(words) and words[0] in WORDS.subordinating


def said_first(memory: Any) -> bool:
    """Is a question the first of its conversation: no memory, or one that holds nothing yet?"""
    return memory is None or not memory.context().strip()


def only_of_a_pointer(question: str, labels: Sequence[str] = (), mentions: Sequence[Mention] = ()) -> str | None:
    """The pointer of a short question of one sentence, which then is about nothing else ("how
    do I avoid it?", "why is that slow?"): said first, it points at nothing, and its other
    words alone would find something else. None for any other question (a longer one may say
    what its pointer stands for: "what's it called when two programs wait for each other?").

    >>> only_of_a_pointer("what problem does this solve?"), only_of_a_pointer("Who is in IT?")
    ('this', None)
    >>> only_of_a_pointer("whats it called when each program waits for another one forever?") is None
    True
    """
    words = re.findall(r"[A-Za-z']+", question)
    one_sentence = not re.search(r"[.!?;,:]\s+\S", question.strip())
    return pronoun(question, labels) if len(words) <= 7 and one_sentence and not mentions else None


def _owned_by_the_speaker(question: str, words: Sequence[str]) -> str | None:
    """The speaker's word ("my", "mera") before a kind of thing or a property the graph holds
    ("my branch", "mera club"), or None ("my query": no such thing of the graph).

    >>> _owned_by_the_speaker("what is my branch?", ["Student", "branch"])
    'my'
    >>> _owned_by_the_speaker("why does my query get slow?", ["Student", "branch"]) is None
    True
    """
    kinds = {w.lower() for w in words} | {w.lower() + "s" for w in words}
    said = re.findall(r"[a-z]+", question.lower())
    return next((w for w, nxt in zip(said, said[1:]) if WORDS.first_person.get(w, "").strip()
                 and nxt in kinds), None)


def refusal(question: str, mentions: Sequence[Mention], *, language: str,
            context: str | None = None, labels: Sequence[str] = (), owned: Sequence[str] = ()) -> str | None:
    """What to say instead of "outside my knowledge graph", or None when that is right.

    `language` is 'en' or 'hi'; `context` the conversation so far (None when the caller does
    not know it: then no question back); `labels` the graph's labels, the kinds of thing a
    question may name; `owned` its property names ("what is my branch?" with no name said asks
    who is asking). `Result.refuse` says it.
    """
    lang = language if language in WHO_IS_MEANT else "en"
    word = pronoun(question, labels)
    if word and context is not None and not mentions:
        first = WHO_IS_MEANT if word in WORDS.person_pronouns | WORDS.plural else WHAT_IS_MEANT
        return (WHICH_IS_MEANT if context.strip() else first)[lang].format(word=word)
    names = list(dict.fromkeys(str(m.value) for m in mentions))
    owning = _owned_by_the_speaker(question, [*labels, *owned]) or \
        ("I" if asks_of_the_speaker(question) else None)
    if owning:      # "what is my branch?", "what grade did I get in DBMS?", "mera club kaunsa hai?"
        return WHO_IS_ASKING[lang].format(word=owning)
    if not names:
        return None
    shown = ", ".join(names[:-1]) + (" and " if lang == "en" else " aur ") + names[-1] \
        if len(names) > 1 else names[0]
    return NOT_FOLLOWED[lang].format(names=shown)
