"""What a definition asks about: "What is a red-black tree?" is answered only by a text naming it.

Introduced in notebook 12, for the note search's evidence and the agent's check of each part. A search finds the
nearest text, and the nearest text to a thing the course does not hold is a text about its
neighbour: "What is a red-black tree?" finds the note on trees in general, "What is a splay
tree?" the graph's Trees concept, "What is a hash index?" the note on arrays (it names hash
tables and an index). None of them says what was asked. A definition's thing, read from the
question's grammar ("what is", "define", "... kya hai"), must stand in the answer's text: one
word, or two as a phrase ("hash index", not "hash" here and "index" there), or each of three.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rapidfuzz.distance import DamerauLevenshtein

from course.foundation.language import WORDS, points_by_place

# "what is a red-black tree?", "define BCNF", "explain subnetting", "partial dependency kya
# hota hai?", "2NF in one line": the thing defined, up to three words, and nothing after it but a question mark,
# how to say it ("in simple words", "in short") and a word of manner or manners ("quickly",
# "pls"). "What even is ...": an adverb that only stresses the question.
_THING = r"[a-z0-9][\w'/+-]*(?:\s+[\w'/+-]+){0,2}?"   # as few words as the rest allows
_IN_A_WAY = (r"\s+in\s+(?:(?:simple|simpler|plain|easy|short|brief|layman'?s?)(?:\s+[a-z]+){0,2}"
             r"|(?:one|1|two|2|a\s+few)\s+(?:lines?|sentences?|words?))")
_IN_HINDI = r"(?:(?:simple|easy|plain|aasan)\s+(?:words?|language|bhasha|shabdon)|ek\s+line)\s+(?:mein|me|mai)\b"
_MANNERS = r"(?:\s+(?:quickly|quick|briefly|simply|again|please|pls|plz|tbh|real\s+quick|once\s+more))*"
_HOW_SAID = rf"(?:{_IN_A_WAY})?{_MANNERS}"
# "what is paging in an operating system?", "a graph as a data structure": the field it is
# asked in, after the thing
_FIELD = r"(?:\s+(?:in|as)\s+(?:an?\s+|the\s+)?[a-z][\w'/+-]*(?:\s+[\w'/+-]+){0,2})?"
_STRESSED = r"(?:(?:even|exactly|really|actually|basically)\s+)?"
_ASKED = r"(?:(?:can|could|would)\s+(?:you|u)\s+)?(?:please\s+|pls\s+)?"
# "explain the concept of paging": the thing is paging (the word for what it is is no part of it)
_KIND_OF = r"(?:(?:concept|idea|notion|meaning|term|basics|principle)\s+of\s+(?:an?\s+|the\s+)?)?"
# "explain karo", "samjhao", "samjha de na": explain it, in Hinglish
_EXPLAIN_IT = (r"(?:explain\s+(?:karo|kar\s+do|kijiye|kariye)|samjhao|samjhaao|samjhaiye"
               r"|samjha\s+(?:do|de|dena|dijiye)(?:\s+na)?)")
_DEFINITION = re.compile(
    rf"^(?:(?:so|ok)\s+)?(?:what\s+{_STRESSED}is|what's|whats|what\s+{_STRESSED}are"
    rf"|{_ASKED}(?:define|explain))"
    rf"\s+(?:an?\s+|the\s+)?{_KIND_OF}(?P<thing>{_THING}){_FIELD}{_HOW_SAID}\s*[?.!]?$"
    rf"|^{_ASKED}(?:explain|describe|tell\s+me)\s+what\s+(?:an?\s+|the\s+)?(?P<what>{_THING})"
    rf"\s+(?:is|are|means?){_HOW_SAID}\s*[?.!]?$"    # "please explain what X is"
    rf"|^(?P<hinglish>{_THING})\s+kya\s+(?:hai|hota\s+hai|hoti\s+hai|hote\s+hain)\s*[?.!]?$"
    rf"|^(?P<said>{_THING}){_IN_A_WAY}{_MANNERS}\s*[?.!]?$"    # "2NF in plain words": how to say it
    rf"|^(?P<kahiye>{_THING})\s+{_IN_HINDI}(?:\s+(?:{_EXPLAIN_IT}|batao|bata(?:\s+do)?))?"
    rf"{_MANNERS}\s*[?.!]?$"
    rf"|^(?P<karo>{_THING})\s+{_EXPLAIN_IT}{_MANNERS}\s*[?.!]?$")    # "HTTP explain karo", "BFS samjhao"
_STEM = 5   # a word's first letters: "tables" holds "table", "fragmentation" "fragm..."
# "what is DFS good for?", "... useful for": what it is for, asked of DFS alone
_PURPOSE = re.compile(r"\s+(?:good|useful|helpful|handy|meant|needed|used)\s+for(\s*[?.!]?)$")


def without_how_said(question: str) -> str:
    """The question without how to say the answer ("in simple words", "in one line"): what
    is asked stays.

    >>> without_how_said("can you explain third normal form in simple words?")
    'can you explain third normal form?'
    >>> without_how_said("DP ek line mein kya hai?")
    'DP kya hai?'
    """
    said = re.sub(rf"(?i){_IN_A_WAY}(?=\W*$|,)", "", question, count=1)
    return re.sub(rf"(?i)\s+{_IN_HINDI}", "", said, count=1) if said == question else said


_ONLY_HOW_SAID = re.compile(rf"(?i)^\s*(?:(?:explain|describe|say|put)(?:\s+(?:it|that|this))?\s+)?"
                            rf"(?:(?:in\s+)?(?:simple|simpler|plain|easy|short|brief|layman'?s?)"
                            rf"(?:\s+(?:words?|terms?|language|english))?|{_IN_HINDI}"
                            rf"|keep\s+it\s+(?:simple|short)"
                            rf"|briefly|simply){_MANNERS}\s*[.!?]*\s*$")


def only_how_said(text: str) -> bool:
    """Does the text say only how to say the answer ("simple words pls", "in short", "explain it
    simply")?

    >>> only_how_said("simple words pls"), only_how_said("keep it simple"), only_how_said("simple steps")
    (True, True, False)
    >>> only_how_said("explain in simple words pls?")
    True
    """
    return _ONLY_HOW_SAID.match(text) is not None


def defined(question: str) -> list[str]:
    """The words of the thing a definition question asks about ([] for any other question,
    or for a thing that names a person's property: "What is Payal's year?").

    >>> defined("What is a red-black tree?"), defined("whats the TLB for"), defined("What is a B+ tree?")
    (['red-black', 'tree'], ['tlb'], ['b+', 'tree'])
    >>> defined("partial dependency kya hota hai?"), defined("Why is my tree slow?"), defined("What is Payal's year?")
    (['partial', 'dependency'], [], [])
    >>> defined("What is normalization in DBMS?"), defined("what is the second one?")
    (['normalization'], [])
    >>> defined("What is paging in an operating system?"), defined("What is a graph as a data structure?")
    (['paging'], ['graph'])
    >>> defined("what is 2NF in simple words?"), defined("explain 3NF quickly pls")
    (['2nf'], ['3nf'])
    >>> defined("what even is a deadlock tbh"), defined("explain the concept of paging")
    (['deadlock'], ['paging'])
    >>> defined("can u explain dfs real quick"), defined("explain how routing works")
    (['dfs'], [])
    >>> defined("3NF simple words mein?"), defined("BFS ek line mein samjha do"), defined("HTTP explain karo plz")
    (['3nf'], ['bfs'], ['http'])
    >>> defined("Please explain what a transitive dependency is.")
    ['transitive', 'dependency']
    >>> defined("What is DFS good for?"), defined("what is a trie useful for")
    (['dfs'], ['trie'])
    >>> defined("explain the DFS concept"), defined("DFS wala concept samjhao")
    (['dfs'], ['dfs'])
    """
    said = " ".join(question.lower().replace("\u2019", "'").split())
    found = _DEFINITION.match(_PURPOSE.sub(r" for\1", said))   # "what is DFS good for?": DFS's use
    if found is None or points_by_place(question):   # "what is the second one?": a value found
        return []
    groups = ("thing", "what", "hinglish", "said", "kahiye", "karo")
    words = next(found.group(g) for g in groups if found.group(g)).split()
    if any(w.endswith("'s") or w.endswith("s'") for w in words):
        return []
    thing = []
    for word in words:    # up to a function word: "normalization in DBMS" defines normalization
        if word in WORDS.search_stop_words or word in WORDS.not_terms:
            break
        thing.append(word)
    while len(thing) > 1 and thing[-1] in WORDS.vague_kinds:    # "the DNS concept": DNS
        thing.pop()
    return [w for w in thing if len(w) > 2 or not w.isalpha()]


def names_what_is_defined(question: str, text: str) -> bool:
    """Does `text` name the thing the definition question asks about (any other question: yes)?

    >>> names_what_is_defined("What is a hash index?", "Hash tables ... read by its index")
    False
    >>> names_what_is_defined("What is a page fault?", "... a page fault occurs and ...")
    True
    >>> names_what_is_defined("explain tcp ip layers", "TCP/IP ... in four layers")
    True
    >>> names_what_is_defined("whats a binary serach tree", "A binary search tree (BST) is ...")
    True
    """
    words = defined(question)
    if not words:
        return True
    text = text.lower()
    written = re.findall(r"[a-z][\w'/+-]*", text)
    words = [_as_written(w, written) for w in words]     # "binary serach tree": "search", a slip
    stems = [rf"(?<![\w+]){re.escape(w[:_STEM])}[\w'/+-]*" for w in words]
    together = re.search(r"\s+".join(map(re.escape, words)), question.lower())   # not "tcp ip layers"
    if len(stems) == 2 and together:
        return re.search(r"\s+".join(stems), text) is not None
    return all(re.search(stem, text) for stem in stems)


def _as_written(word: str, written: Sequence[str]) -> str:
    """The text's word one slip of the keyboard from `word` (a letter left out, added, changed
    or two swapped: "serach", "search"), when the text has none that starts as it does; a word
    of five letters or more, else the word itself."""
    if len(word) < _STEM or any(w.startswith(word[:_STEM]) for w in written):
        return word
    return next((w for w in written if len(w) >= _STEM and DamerauLevenshtein.distance(word, w) <= 1), word)


_TEXT = 20   # a cell this long is a text (a note, a description), not a name


def unnamed(question: str, rows: Sequence[Sequence[Any]]) -> str | None:
    """The thing a definition asks about when the text the rows hold does not name it ("What
    is a splay tree?" answered by the Trees concept's text), else None. Rows with no text (a
    list of names) are no definition's answer to check.

    >>> unnamed("What is a splay tree?", [["Trees", "A tree is a hierarchy of nodes."]])
    'splay tree'
    >>> unnamed("What is a mutex?", [["N17", "Threads need synchronisation such as mutexes."]]) is None
    True
    """
    thing = defined(question)
    cells = [str(c) for row in rows for v in row for c in (v if isinstance(v, list) else [v])]
    if not thing or not any(len(c) >= _TEXT for c in cells):
        return None
    return None if names_what_is_defined(question, " ".join(cells)) else " ".join(thing)
