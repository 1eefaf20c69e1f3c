"""A scene and its ask: "I want to help on the tracker. what skills does it need?"

Introduced in notebook 12, with the agentic agent's roles. A learner often says something
first (a scene: what they are doing, why they ask) and asks after it, or opens the ask with a
clause of purpose ("For the lab next week, which tools ..."). These find the ask in what is
said, so that it can be asked alone when the scene's words leave it unread.

>>> scene_and_ask("For our poster: when was the club founded?")
('For our poster:', 'when was the club founded?')
"""
from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from course.foundation.language import WORDS, depends_on_context, question_key


# ("First, what grade ...", "Secondly, can you ...", "Additionally, kindly confirm ...": a word that
# counts the asks, no more)
# ("For each student, what ...": one row each, of the ask, not its occasion)
_OPENING_CLAUSE = re.compile(r"^\s*((?:for|at|about|on)\b(?!\s+(?:each|every|all)\b)[^,?]*"
                             r"|(?:first|second|third)(?:ly)?|lastly|finally"
                             r"|additionally|moreover|further(?:more)?)"
                             r",\s+(\S.*)$", re.I)
# ("The library team wants to add indexes, so what should someone learn first?": the reason, then)
_SO_THEN = re.compile(r"^\s*([^?]*?),\s+so\s+(\S.*)$", re.I)


def after_opening_clause(text: str) -> str:
    """The question after an opening clause of purpose or occasion that a comma ends ("For the
    lab next week, which tools ..."); else the text.

    >>> after_opening_clause("For the lab next week, which tools does Asha use?")
    'which tools does Asha use?'
    >>> after_opening_clause("For the fair banner, can you list the tools?")
    'can you list the tools?'
    >>> after_opening_clause("For each tool, who uses it?")
    'For each tool, who uses it?'
    >>> after_opening_clause("For Asha, Ravi and Mei, the lab is open")
    'For Asha, Ravi and Mei, the lab is open'
    >>> after_opening_clause("Second, can you explain BCNF?")
    'can you explain BCNF?'
    >>> after_opening_clause("We add indexes, so what comes before Indexing?")
    'what comes before Indexing?'
    """
    opening = _OPENING_CLAUSE.match(text) or _SO_THEN.match(text)
    first = question_key(opening[2]).split()[:1] if opening else []
    asking = WORDS.question_words | WORDS.auxiliary | WORDS.requests    # "..., can you list ..."
    return opening[2] if opening and first and first[0] in asking else text


# Where a sentence (or a clause after a colon) ends: not at an abbreviation's dot ("i.e.", "e.g.")
SENTENCE_BREAK = r"(?<!\bi\.e\.)(?<!\be\.g\.)(?<!\betc\.)(?<!\bvs\.)(?<=[.!:?])\s+"


def scene_and_ask(question: str) -> tuple[str, str] | None:
    """(the scene, the ask) of a question whose first sentences (or a clause before a colon or
    a dash) say something and whose last asks ("I want to help on the tracker. what skills
    does it need?", "for our poster: when was the club founded?"); else None.

    >>> scene_and_ask("I'm taking OS next sem. which subject do I need before it?")
    ("I'm taking OS next sem.", 'which subject do I need before it?')
    >>> scene_and_ask("who knows sql? need someone to help me w/ queries")
    ('need someone to help me w/ queries', 'who knows sql?')
    >>> scene_and_ask("What is DSA? And who studies it?"), scene_and_ask("karan's phone no. call him")
    (None, None)
    >>> scene_and_ask("who got an A in something? and in what")
    >>> scene_and_ask("For the lab next week, which tools does Asha use?")
    ('For the lab next week', 'which tools does Asha use?')
    >>> scene_and_ask("which topics come after it, i.e. need it first?")

    """
    sentences = re.split(rf"{SENTENCE_BREAK}(?=\S)|\s[-\u2013]\s|\s*\u2014\s*", question.strip())
    asked = after_opening_clause(sentences[-1])   # "For the database part of the talk, which ..."
    if asked != sentences[-1]:
        sentences[-1:] = [sentences[-1][:-len(asked)].strip().rstrip(","), asked]
    if len(sentences) < 2:
        return None
    asks = WORDS.question_words | WORDS.auxiliary | WORDS.requests
    asking = [i for i, s in enumerate(sentences) if s.rstrip().endswith("?") or _opens_an_ask(s, asks)]
    if len(asking) != 1 or asking[0] < len(sentences) - 1 and \
            not sentences[asking[0]].rstrip().endswith("?"):
        return None    # two sentences ask: parts, not a scene; none asks: no ask to keep
    ask = asking[0]    # ("karan's phone no. need to call him re: project": a scene is no ask)
    return " ".join(sentences[:ask] + sentences[ask + 1:]), sentences[ask]


# a sentence's last clause, after a comma, that asks (what comes before it asks nothing)
_TRAILING_ASK = re.compile(r"^([^?]*[^\s,]),\s+([^,?]+\?)\s*$")


def scene_before_the_ask(question: str) -> tuple[str, str] | None:
    """`scene_and_ask`, or in one sentence a clause that says something and, after a comma, an
    ask ("the old laptop keeps swapping to disk, is there a name for that?"): what the scene
    names is no value the ask is about. Not a clause that opens the ask, sets a part of it
    apart or says when it holds ("For each student, ...", "Apart from the team, ...", "Once a
    student finishes DSA, ...").

    >>> scene_before_the_ask("the old laptop keeps swapping to disk, is there a name for that?")
    ('the old laptop keeps swapping to disk', 'is there a name for that?')
    >>> scene_before_the_ask("who studies DBMS, what grade did they get?")
    >>> scene_before_the_ask("Apart from the ones on the team, who knows SQL?")
    >>> scene_before_the_ask("Once a student finishes DSA, what comes next?")
    """
    found = scene_and_ask(question)
    trailing = _TRAILING_ASK.match(question.strip()) if found is None else None
    if trailing is None:
        return found
    asks, words = WORDS.question_words | WORDS.auxiliary | WORDS.requests, question_key(trailing[1]).split()
    text = f" {' '.join(words)} "
    opens = words[:1] and words[0] in WORDS.prepositions | WORDS.subordinating
    apart = any(f" {w} " in text for w in (*WORDS.besides, *WORDS.leaving_out))
    if opens or apart or not _opens_an_ask(trailing[2], asks) or _opens_an_ask(trailing[1], asks):
        return None
    return trailing[1], trailing[2]


def _opens_an_ask(sentence: str, asks: AbstractSet[str]) -> bool:
    """Does the sentence open with a word that asks, or with a preposition and a question word
    ("and in what", "in which one"): more asked, no remark?"""
    words = question_key(sentence).split()
    if set(words[:1]) & asks:
        return True
    words = words[1:] if words[:1] in (["and"], ["aur"], ["also"], ["plus"]) else words
    return words[:1] != [] and words[0] in WORDS.prepositions and bool(set(words[1:2]) & WORDS.question_words)


# "which traversal do I use?", "what approach should we pick?": a choice whose purpose is unsaid
_CHOICE = re.compile(r"^(?:so\s+|then\s+)?(?:which|what)\s+(?:\w+\s+){1,2}"
                     r"(?:do|should|can|could|would|shall|must)\s+(?:i|we|you|one)\s+"
                     r"(?:use|pick|choose|go\s+(?:with|for)|apply|run|try|take)$", re.I)


def chooses_for_the_scene(ask: str) -> bool:
    """Does the ask choose a thing for a purpose it does not say ("which traversal do I use?")?
    Its scene says what for: alone it asks nothing a note answers.

    >>> chooses_for_the_scene("which traversal do I use?"), chooses_for_the_scene("which traversal uses a queue?")
    (True, False)
    """
    return bool(_CHOICE.match(question_key(ask)))


def the_ask_alone(question: str, simpler: str | None) -> tuple[str, ...]:
    """(`simpler`,) when it is the question's ask without its scene and is understood without
    it ("how does a router decide where to send each packet next?"), else (): a note may
    answer the ask alone when the scene's words hide it ("What is happening" is no such ask).

    >>> the_ask_alone("My lab network is down. how does a router pick a path?", "how does a router pick a path?")
    ('how does a router pick a path?',)
    >>> the_ask_alone("Two programs are stuck. What is happening", "What is happening")
    ()
    """
    found = scene_and_ask(question)     # (as said: "the one where ..." points at no value found)
    return (found[1],) if simpler and found and not depends_on_context(found[1]) \
        and not chooses_for_the_scene(found[1]) else ()
