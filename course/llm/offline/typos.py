"""Typos in a question's cue words: "studdies" is "studies", "pleeease" is "please".

Introduced in notebook 05, with the offline provider's reading of a question
(`course.llm.offline.reading`): a cue word the rules know, mistyped by a letter or two, is read
as that word; a longer or shorter word is another word.
"""
from __future__ import annotations

import re
from difflib import get_close_matches

from course.foundation.language import without_not_prefix
from course.llm.offline.lexicon import Lexicon, default_lexicon

_TYPO_LETTERS = 2   # a typo adds or drops at most this many letters


def correct(word: str, vocab: list[str]) -> str:
    """A known word's typo corrected ("studdies" -> "studies", "wich" -> "which"); a word
    longer or shorter by more than two letters is another word ("subconcepts" is not "concepts").

    >>> correct("studdies", ["studies"]), correct("subconcepts", ["concepts"])
    ('studies', 'subconcepts')
    >>> correct("indirect", ["direct"]), correct("unfinished", ["finished"])
    ('indirect', 'unfinished')

    A letter said three times or more stretches a word ("hiii", "pleeease"):

    >>> correct("hiii", ["hi"]), correct("pleeease", ["please"]), correct("sooo", ["so"])
    ('hi', 'please', 'so')
    """
    if re.search(r"(\w)\1\1", word):
        for times in (r"\1\1", r"\1"):
            if (shorter := re.sub(r"(\w)\1\1+", times, word)) in vocab:
                return shorter
    if len(word) < 4 or not word.isalpha() or word in vocab:
        return word
    close = get_close_matches(word, vocab, n=1, cutoff=0.84 if len(word) > 4 else 0.88)
    if close and without_not_prefix(word) == close[0]:
        return word     # "indirect" is no typo of "direct": a prefix that says "not" is a word
    return close[0] if close and abs(len(close[0]) - len(word)) <= _TYPO_LETTERS else word


def corrected(word: str, lexicon: Lexicon) -> str:
    """`correct`, except that a verb of change in another form stays as written (a request
    says "update" or "delete"; "updates go out of sync" and "rows are deleted" ask none), and
    so does a word a lexicon entry reads whole ("padhne", to study, is no typo of "padhaane").

    >>> corrected("updates", default_lexicon()), corrected("deleted", default_lexicon())
    ('updates', 'deleted')
    >>> corrected("unfinished", default_lexicon()), corrected("index", default_lexicon())
    ('not finished', 'index')
    >>> corrected("lads", default_lexicon()), corrected("presidency", default_lexicon())
    ('lads', 'president')
    """
    negated = without_not_prefix(word)
    if negated and any(re.search(rf"\b(?:{words})\b", negated) for words in lexicon.value_words.values() if words):
        return f"not {negated}"    # "unfinished", "incomplete": a value's word, negated
    fixed = correct(word, lexicon.vocab)
    if fixed != word and any(re.fullmatch(entry, word) for entry in lexicon.all_patterns):
        return word
    if fixed != word and word.startswith(fixed) and word[len(fixed):] in ("s", "es", "d", "ed", "ing") \
            and re.fullmatch(lexicon.cues["write"], fixed):
        return word
    if fixed != word and len(word) > len(fixed) and re.fullmatch(lexicon.cues["write"], fixed):
        return word     # "hafta" (a week) is no "hata" (remove): a longer word is not guessed a change
    if fixed != word and fixed[:4] != word[:4] and any(
            re.fullmatch(rf"(?:{words})", fixed) for words in lexicon.value_words.values() if words):
        return word     # "lads" is no "leads" (a president): a value guessed past the word's start
    #                     would filter what no one asked ("presidency", "presdent" keep theirs)
    return fixed
