"""A topic set first, then an ask that points at it: "Payal's friends, which clubs are they in?".

Introduced in notebook 12, with the query updater's split (`course.llm.offline.roles.updater`): a
noun phrase before a comma or a dash, with no ask of its own, is what the first ask's "they",
"it" or "its" (a name's "he", "she", "his", "her") stands for, and is put in its place, so the
ask that follows it reads whole and the asks after it may be split from it.
"""
from __future__ import annotations

import re

from course.foundation.language import WORDS
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.clauses import REASON, is_question, sets_the_scene
from course.llm.offline.roles.words import (CONJUNCTIONS, FIRST_PERSON, REQUESTS, names_a_property_of,
                                            tokens)

# (a topic is no sentence: "A student put BFS on his CV. What is it, and ...?" has none)
_TOPIC = re.compile(r"^\s*((?:[^,?;:!.\u2013\u2014]|\.(?!\s))+?)"
                    r"\s*(?:,|\s[-\u2013:]\s|\s*\u2014\s*)\s*(.+)$")
# ("her" only before a noun: "what is her role", not "who is friends with her")
_TOPIC_POINTER = re.compile(r"\b(they|them|their|it|its|he|him|his|she"
                            r"|her(?= (?!(?:and|or|in|on|at|to|for|with|of)\b)[a-z]))\b", re.I)
# "my friend Karan", "that girl Sneha": one person, the name after the noun
_PEOPLE = default_lexicon().label(default_lexicon().person)
_PERSON_NAMED = re.compile(rf"^\s*(?:my|our|that|this|the)\s+(?:{_PEOPLE})\s+(?=\S+\s*$)", re.I)


def topic_first(question: str) -> str:
    """"Payal's friends, which clubs are they in?": a topic, then a question that points at it
    with its first "they", "their", "it", "its", "he", "his", ... -> "which clubs are Payal's friends in?".

    >>> topic_first("coding club members - what do they study?")
    'what do coding club members study?'
    >>> topic_first("hey quick one - which projects need react and who is on them?")
    'hey quick one - which projects need react and who is on them?'
    >>> topic_first("TCP/IP samjhao in simple words, and what topics come under it?")[:14]
    'TCP/IP samjhao'
    >>> topic_first("Who is Payal, and what does she study?")
    'Who is Payal, and what does she study?'
    >>> topic_first("my friend Asha, which project is she on and what is her role there?")
    'which project is Asha on and what is her role there?'
    >>> topic_first("the lathe \u2014 who owns, and when was it bought?")
    'the lathe \u2014 who owns, and when was it bought?'
    """
    m = _TOPIC.match(question)
    named = _PERSON_NAMED.sub("", m[1]) if m else ""
    topic = tokens(named)
    # a topic is a noun phrase: not a question, a request, a scene ("If I want ...", "Once I've
    # learned ..."), a phrase a preposition opens ("Between Rahul and Aarav") or words that
    # carry no meaning ("Hi", "hey quick one"), nor words with a request ("TCP/IP samjhao, ...")
    if m is None or not topic or set(topic) <= default_lexicon().common or \
            is_question(topic, opening=True) or sets_the_scene(topic) or \
            topic[0] in REQUESTS | set(CONJUNCTIONS) | WORDS.prepositions | WORDS.subordinating or \
            set(topic) & set(FIRST_PERSON) or not is_question(tokens(m[2]), opening=True) or \
            any(WORDS.hindi_in_english.get(w, w) in REQUESTS for w in topic) or \
            names_a_property_of(m[1]):     # "Credits for OS, and which ... before it?": an ask
        return question
    reason = REASON.match(m[2])     # (not a "they" of why they ask: "... so they can help run it?")
    pointer = _TOPIC_POINTER.search(reason["ask"] if reason else m[2])
    first_ask = re.split(r",|\s(?:and|aur)\s", m[2])[0]
    if pointer is None or pointer.start() >= len(first_ask) or len(topic) > 1 and pointer[1][0] in "hsHS":
        return question     # the first ask must point at the topic too ("he", "her": at a name alone)
    said = named.strip() + ("'s" if pointer[1].lower() in ("their", "its", "his", "her") else "")
    return m[2][:pointer.start()] + said + m[2][pointer.end():]
