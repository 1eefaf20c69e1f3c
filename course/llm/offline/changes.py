"""A request to change the graph's data, or a question about how a change works?

Introduced in notebook 05, with the offline provider's refusals: "Delete Rahul" and "How do I
insert a new student?" ask to change the data (the provider answers READ_ONLY, the guard would
block the query); "If I put an index on a column, why do the inserts get slower?" and "When I
put EXPLAIN in front of a query, what is it showing me?" ask about a change (a note may answer,
never a write). What decides is what the change is made to: a kind of thing the graph holds or
one of its names is the graph's data.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from course.foundation.language import WORDS, in_full
from course.llm.offline.lexicon import default_lexicon

# A verb of change (the lexicon's `write` cue): "delete", "add", "daal do"
WRITE_REQUEST = re.compile(default_lexicon().cues["write"])
# "a clear explanation", "the update": right after its determiner, the word is no verb; "a
# team update.", "the last change to ...": a word or two after it, before no object of its own
# ("my classmate put three emails ...": a verb)
_DETERMINER = r"\b(?:a|an|the|this|that|my|our|your|his|her|their|its)\s+"
_AFTER_DETERMINER = re.compile(_DETERMINER + "$")
_AS_NOUN = re.compile(_DETERMINER + r"(?:[\w'-]+\s+){1,2}$")
# "supports search and insert in ...", "search, insert and delete take": an operation named in
# a list, before no object of its own
_IN_A_LIST = re.compile(r"\b\w+(?:\s+and|\s+or|,)\s+$")
# "search insert delete kitna time": operations run together, each next to another
_RUN_TOGETHER = re.compile(r"(?:" + WRITE_REQUEST.pattern + r")\s+$")
_RUN_TOGETHER_AFTER = re.compile(r"\s+(?:" + WRITE_REQUEST.pattern + r")")
# "put in ordinary words", "clear hona chahiye": a way of saying, a state ("be clear"), no change
_SAID_OR_BECOME = re.compile(r"\s+(?:(?:it|that|this)\s+)?(?:in|into)\s+(?:\w+\s+){0,2}(?:words|terms|language)\b"
                             r"|\s+(?:hona|hone|ho|hai|nahi)\b")
_NO_OBJECT = re.compile(r"\s*(?:[,.;:?!]|$|(?:for|to|on|of|about|in|from|with|"
                        + "|".join(sorted(WORDS.question_words)) + r")\b)")   # (a stop read away)


def change_verb(text: str) -> re.Match[str] | None:
    """The first word of change used as a verb ("add Rahul"), not as a noun ("I'm writing a
    quick update for the club"); None when there is none.

    >>> change_verb("i'm writing a quick update: who leads the lab?"), change_verb("i'd like a clear answer")
    (None, None)
    >>> change_verb("please update the lab's year")[0], change_verb("my friend put two values in")[0]
    ('update', 'put')
    >>> change_verb("which tree supports search and insert in log n time?")
    >>> change_verb("find and delete rahul")[0]
    'delete'
    >>> change_verb("bst mein search insert delete kitna time lete hai?")
    >>> change_verb("what is thrashing, put in ordinary words?")
    >>> change_verb("3nf se pehle kya clear hona chahiye")
    >>> change_verb("search/insert time of a skewed tree?")
    >>> change_verb("duplicate rows hatane wala rule kya hai?")   # "the rule that removes": a rule
    >>> change_verb("who leads it? want to put it on their poster"), change_verb("add it to my skills")[0]
    (None, 'add')
    """
    def as_noun(m: re.Match[str]) -> bool:
        before, after = text[:m.start()], text[m.end():]
        return bool(_AFTER_DETERMINER.search(before) or _RUN_TOGETHER.search(before)
                    or before.rstrip().endswith("/") or after.lstrip().startswith("/")   # "search/insert"
                    or _RUN_TOGETHER_AFTER.match(after) or _SAID_OR_BECOME.match(after) or _DOER.match(after)
                    or _to_own_use(after)
                    or (_AS_NOUN.search(before) or _IN_A_LIST.search(before)) and _NO_OBJECT.match(after))
    return next((m for m in WRITE_REQUEST.finditer(text) if not as_noun(m)), None)


# "want to put it on their poster", "I'll add them to our slides": the answer put in a place of
# someone's own that is nothing the graph holds (not "add Python to my skills")
_TO_OWN_USE = re.compile(r"\s+(?:it|them|this|that|these|those|the\s+list)\s+(?:on|onto|in|into|to)\s+"
                         r"(?:my|our|their|his|her|your)\s+((?:[\w'-]+\s*){1,2})")


def _to_own_use(after: str) -> bool:
    place = _TO_OWN_USE.match(after)
    lexicon = default_lexicon()
    return place is not None and not any(re.search(noun, place[1]) for noun in lexicon.labels.values())


# "daal diye", "hata diya": a change done (Hindi's perfect), told, not requested ("daal do")
_DONE = re.compile(r"\s+(?:diy?a|diye|di|gay[aei]|gaye|liy?a|liye)\b")
# "hatane wala rule": the one that removes, a thing described by its verb, no request
_DOER = re.compile(r"\s+w(?:a|aa)(?:la|le|li)\b")


# What a change is made to: the words after its verb, up to a preposition or a stop
_CHANGED = re.compile(r"[^,.;:?!]*?(?=\s+(?:in|into|on|onto|to|from|of|for|with|at|by|as|so|"
                      r"because|and|then|than)\b|[,.;:?!]|$)")
# "When was the club set up?", "when did she get added?": when a change was made, in the past
_WHEN_DONE = re.compile(r"^\s*(?:since )?when (?:was|were|did|had|has|have)\b", re.I)


def asks_when_done(text: str) -> bool:
    """Does it ask when something was done ("When was the club set up?", "wen was it added")? A
    fact of the past, whatever its verb: no request to change the data."""
    return bool(_WHEN_DONE.match(in_full(text)))

# "when I put ...", "what happens if we add ...": the change sets the scene for the question
_SCENE = re.compile(r"\b(?:" + "|".join(sorted(WORDS.subordinating)) + r")\s+(?:\w+\s+){1,2}$")
# "I change a customer's address and ...", "should I put an index on ...": the learner's own
# change, told or weighed, not asked of the graph
_OWN = re.compile(r"(?:^|[^\w\s]\s*|\b(?:and|but|so|should|shall)\s+)(?:i|we|i'm|i am|we're|we are)\s+$")
# "someone on the team put three numbers in one cell", "the library team wants to add indexes":
# a change someone else (or something: "which anomalies it is supposed to remove") made or means
# to make, told, not asked of the graph
# "what does TCP add on top of IP?", "what extra condition does 3NF add?", "how does a B+ tree
# insert a key?": what a thing does, asked
_DONE_BY_A_THING = re.compile(r"\b(?:what|how|why|which|when)(?:\s+\w+){0,2}\s+"
                              r"(?:does|do|did|can|could|would|will)\s+"
                              r"(?!i\b|we\b|you\b)[\w/+.-]+(?:\s+[\w/+.-]+)?\s+$")
_TOLD = re.compile(r"\b(?:someone|somebody|he|she|it|they|(?:a|an|the|our|my|his|her|their)\s+\w+)(?:'s|'d|'ve)?"
                   r"(?:\s+(?!you\b|please\b)\w+){0,3}\s+$")


# "..., isko kya kehte hai?", "what do you call it when ...": the name of a change described
_ASKS_ITS_NAME = re.compile(r"\b(?:kya|kaise)\s+k[ae]hte\b|\bwhat\s+(?:do|does|would)\s+\w+\s+call\b"
                            r"|\b(?:it|that|this)(?:'s|\s+is)?\s+called\b", re.I)


def asks_how_a_change_works(text: str, names: Sequence[str] = ()) -> bool:
    """Does it ask about a change rather than for one: why or how it works, or what follows
    when it is made ("When I put EXPLAIN in front of a query, what is it showing me?"), and
    what is changed names nothing the graph holds (no kind of thing, none of `names`, the
    graph's values the question names in full)? "My teammate put two numbers in one cell: why
    is that bad?" does (the teammate did it); "How do I insert a new student?" and "If I
    delete Rahul, what happens?" ask to change the graph's data.

    >>> asks_how_a_change_works("why do the inserts get slower?")
    True
    >>> asks_how_a_change_works("how do i insert a new student?")
    False
    >>> asks_how_a_change_works("if i delete rahul, what happens?", ["Rahul"])
    False
    >>> asks_how_a_change_works("why are threads cheaper to create than processes?", ["Processes"])
    True
    >>> asks_how_a_change_works("lookups are slow, so should i put an index on the email column?")
    True
    >>> asks_how_a_change_works("i want to add a new student"), asks_how_a_change_works("i add rahul", ["Rahul"])
    (False, False)
    >>> asks_how_a_change_works("the library team wants to add indexes, so what should i learn?")
    True
    >>> asks_how_a_change_works("a student has put hashing on his resume. what is it?")
    True
    >>> asks_how_a_change_works("what is normalisation for, and which anomalies it is supposed to remove?")
    True
    >>> asks_how_a_change_works("what does tcp add on top of ip?"), asks_how_a_change_works("what can you add?")
    (True, False)
    >>> asks_how_a_change_works("wt extra condition does 3nf add on top of 2nf?")
    True
    >>> asks_how_a_change_works("what rule does it break, and how would you put it right?")
    True
    >>> asks_how_a_change_works("my cousin's put two phone numbers in one cell: what rule is broken?")
    True
    >>> asks_how_a_change_works("ek cell me do naam daal diye, toh konsa rule toota?")   # done, told
    True
    >>> asks_how_a_change_works("paisa kaat ke dusre me daalna, isko kya kehte hai?")   # its name
    True
    """
    lexicon = default_lexicon()
    text = in_full(text)
    change = change_verb(text)
    if change is None:
        asks, changed = bool(re.search(lexicon.cues["why_how"], text)), text
    else:
        before = text[:change.start()]
        asks = bool(re.search(lexicon.cues["why_how"], text) or _SCENE.search(before) or _OWN.search(before)
                    or _ASKS_ITS_NAME.search(text)
                    or _DONE_BY_A_THING.search(before) or _TOLD.search(before) and not asks_when_done(text)
                    or _DONE.match(text[change.end():]) and set(re.findall(r"\w+", text)) & WORDS.question_words)
        found = _CHANGED.match(text[change.end():])
        changed = found[0] if found else ""
    kinds = [lexicon.label(label) for label in lexicon.labels if lexicon.label(label)]
    return asks and not any(re.search(kind, changed) for kind in kinds) \
        and not any(re.search(rf"\b{re.escape(n.lower())}\b", changed) for n in names if n.strip())


def asks_for_a_change(text: str, names: Sequence[str] = ()) -> bool:
    """A request to change the graph's data: a verb of change, in no question about how a
    change works. Such a question goes whole to the guard, to be refused whole.

    >>> asks_for_a_change("delete rahul", ["Rahul"]), asks_for_a_change("why do inserts get slower?")
    (True, False)
    >>> asks_for_a_change("when was the club set up?")   # when it was done: a fact, no request
    False
    >>> asks_for_a_change("what is a bst (search, insert, delete etc)?")   # a list in an aside
    False
    """
    text = re.sub(r"\([^()]*,[^()]*\)", " ", text)   # "(search, insert, delete etc)": names operations
    return change_verb(text) is not None and not asks_how_a_change_works(text, names) \
        and not asks_when_done(text)
