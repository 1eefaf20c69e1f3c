"""A chain of relations the query must follow, or the question is refused (notebooks 05 and 12).

"Which subjects do Aarav's friends study?" asks along two relationships: from Aarav to his
friends, then to their subjects. A query that goes from Aarav to his own subjects answers a
shorter chain, and answers it confidently. A word of the lexicon's relationships that hangs
on a name or on another such word ("§0's friends", "friends of §0", "§0 ke dost", "the
friends of the members of §0") names a step of the chain: the query must traverse a
relationship type that word names, even when the word names a label the query uses too
("friends" are students). Used by the offline provider where it makes the query, and by the
agentic agent's router before it picks a reviewed template.

>>> import re
>>> from course.llm.offline.lexicon import default_lexicon
>>> lexicon = default_lexicon()
>>> study = next(t for t, words in lexicon.relationships.items() if re.search(words, "study"))
>>> query = f"MATCH (a {{name: 'Aarav'}})-[:{study}]->(s) RETURN s.name"
>>> unfollowed("which subjects do §0's friends study?", query, lexicon)
'friends'
>>> unfollowed("which subjects does §0 study?", query, lexicon) is None
True
>>> unfollowed("does §0 have a friend who studies §1?", query, lexicon)
'friend'
>>> unfollowed("which students have a friend who studies §1?", query, lexicon)
'friend'
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection

from course.foundation.language import WORDS
from course.llm.offline.lexicon import Lexicon, default_lexicon, inside_longer

_OWNER = r"(?:(?:§\d+|{word})(?: ?'?s|'| ka| ki| ke)\s+(?:(?:koi|ek|any|some)\s+)?)$"   # "§0's friends",
# "friends' friends", "§0 ka koi dost"
FOLLOWS = re.compile(r"It follows: ([\w, ]+)\.")   # what a template's description says it traverses
# "friends of §0", "friends of the members", "friends of the president of §0"
_OF = r"^\s+(?:of|with)\s+(?:the\s+)?(?:§\d+|{word}|[a-z]+\s+of\s+(?:the\s+)?§\d+)"
# ("friends with §0", "friends with the secretary of §0": "with" hangs the step on it too)
# "the subject that comes before §0" (not a question: "tell me in which subject §0 is taught")
# (nor a request's verb: "confirm which skills §0 requires")
_THAT = (r"\b(?!(?:in|of|on|at|for|from|to|with|by|me|us|" + "|".join(sorted(WORDS.requests))
         + r")\b)[a-z]+\s+(?:that|which)\s+(?:[a-z]+\s+){0,2}$")
_WHOSE = r"^\s+whose\s+[a-z ]+\s+(?:is|are|was)\s+§\d+"   # "the club whose secretary is §0"
# "does §0 have a friend who ...", "which students have a friend in §1" (a kind's noun has one
# too; not "concepts have no study note": no one of theirs), "which of §0 friends ..." (a
# possessive with no "'s")
_HAS = r"(?:§\d+|\b(?:{noun}))\s+(?:has|have|had)\s+(?:(?:a|an|any|some)\s+)?$"
_OF_A_NAME = r"\b(?:which|who|what|how\s+many)\s+of\s+§\d+\s+$"
# "§0 friends are in which clubs": a name right before a plural noun of a kind that is a link's
# word too, with more after it, owns it as "§0's friends" does (not "is §0 friends with §1",
# "are §0 and §1 friends?", nor "the §0 course" in apposition)
_OWNED_BARE = re.compile(r"§\d+\s+$")


def traversed(query: str) -> set[str]:
    """The relationship types a query traverses (in a pattern, or listed for a path search).

    >>> sorted(traversed("MATCH (a)-[:X]->(b)<-[r:Y*1..2]-(c) CALL algo.SPpaths({relTypes: ['Z']})"))
    ['X', 'Y', 'Z']
    """
    types = set(re.findall(r"\[\w*:(\w+)", query))
    for listed in re.findall(r"relTypes: \[([^\]]*)\]", query):
        types |= set(re.findall(r"'(\w+)'", listed))
    return types


def chained(text: str, lexicon: Lexicon) -> list[tuple[str, set[str]]]:
    """(word, the relationship types it may name) for each step of a chain the text names."""
    regexes = {t: r for t, r in lexicon.relationships.items() if r}
    any_word = "|".join(f"(?:{r})" for r in regexes.values()) or r"(?!)"
    # a word inside a property's longer words names the property ("year of study"), no link
    phrases = [m.span() for r in lexicon.properties.values() if r for m in re.finditer(r, text)]
    found = [(m.span(), t) for t, regex in regexes.items() for m in re.finditer(regex, text)
             if not inside_longer(m, phrases)]
    # "the friends of the people who ...": a step hangs on a label's noun as well
    nouns = "|".join(f"(?:{r})" for r in lexicon.labels.values() if r)
    of_word = f"{any_word}|{nouns}" if nouns else any_word
    # "the president's friends": a step hangs on a word for a link's value as well
    owners = "|".join(f"(?:{r})" for r in [any_word, *lexicon.value_words.values()] if r)
    steps: dict[tuple[int, int], set[str]] = {}
    for (a, b), _ in found:
        if re.search(_OWNER.format(word=owners), text[:a]) or \
                re.search(_HAS.format(noun=nouns or "(?!)"), text[:a]) or \
                re.search(_OF_A_NAME, text[:a]) or \
                re.match(_OF.format(word=of_word), text[b:]) or re.match(_WHOSE, text[b:]) or \
                (re.search(_THAT, text[:a]) and re.match(r"\s+(?:the\s+)?§\d+", text[b:])) or \
                _OWNED_BARE.search(text[:a]) and text[a:b].endswith("s") and \
                re.fullmatch(nouns or "(?!)", text[a:b]) and re.match(r"\s+(?!with\b|of\b)[a-z§]", text[b:]):
            # a word that overlaps another relationship word names its types too ("part of")
            steps[a, b] = {t for (c, d), t in found if c < b and a < d}
    chain = [(text[a:b], types) for (a, b), types in sorted(steps.items())]
    # "the people on §0's project": people, a noun of no link, reach §0's project along its link
    # once more (from §0 to the project, from the project to its people)
    people = re.compile(rf"\b(?:{lexicon.labels.get(lexicon.person) or '(?!)'})\s+(?:on|in|of|at|from|under)"
                        rf"\s+(?:the\s+)?{_OWNER.format(word=owners)}")
    return chain + [(text[a:b], types) for (a, b), types in sorted(steps.items())
                    if (m := people.search(text[:a])) and not re.fullmatch(any_word, m[0].split()[0])]


def traversals(query: str) -> Counter[str]:
    """How many links of each type a query's patterns walk (a variable length counts its
    longest walk; a path search's listed types, once).

    >>> sorted(traversals("MATCH (a)-[:X]->(b)<-[:X]-(c)-[r:Y*1..2]-(d)").items())
    [('X', 2), ('Y', 2)]
    """
    walked: Counter[str] = Counter()
    for rel_type, star, upper in re.findall(r"\[\w*:(\w+)(\*(?:\d*\.\.)?(\d*))?", query):
        walked[rel_type] += int(upper) if upper else (_MANY if star else 1)
    for rel_type in traversed(query) - set(walked):
        walked[rel_type] = 1
    return walked


_MANY = 99   # "*" with no bound: as many steps as named


def walked(query: str) -> list[str]:
    """The types a query traverses, each as often as it walks it (up to `MAX_LISTED`): what a
    reviewed template's description and the critic's record say it follows.

    >>> walked("MATCH (a)-[:X]->(b)<-[:X]-(c)-[:Y]->(d)")
    ['X', 'X', 'Y']
    """
    return [t for t, n in sorted(traversals(query).items()) for _ in range(min(n, MAX_LISTED))]


MAX_LISTED = 3   # no question names one step more often than this


def unfollowed(text: str, query: str, lexicon: Lexicon) -> str | None:
    """The first word of a chain in `text` (linked names as §0, §1, ...) naming no relationship
    type the query traverses, or a step of a type the chain names more often than the query
    walks it ("the members of §0's club": two memberships); None when it follows every step."""
    return unfollowed_types(text, traversals(query), lexicon)


# "§0's and §1's friends", "§0 and §1's friends", "do §0 or §1 have a friend ...": one step of
# several owners, each with their own (a query walks it from one node, or from a node they share)
_SEVERAL_OWNERS = (r"§\d+(?:'s)?\s*(?:,|\band\b|\bor\b|\baur\b|\bya\b)\s*(?:the\s+)?§\d+"
                   r"(?:'s|\s+(?:has|have|had)\s+(?:(?:a|an|any|some)\s+)?)\s*$")


def unfollowed_types(text: str, types: Collection[str], lexicon: Lexicon, *,
                     whose_said: bool = False) -> str | None:
    """`unfollowed` for a query known by the relationship types it traverses (a reviewed
    template says them in its description: `FOLLOWS`; a type listed once is walked once).
    A step of several owners ("§0's and §1's friends") is never followed: each has their own,
    unless each row says whose it is (`whose_said`: "§0's and §1's grades in §2", by name).

    >>> unfollowed_types("what do §0's and §1's friends study?", {"X", "Y"},
    ...                  default_lexicon())
    'friends'
    """
    walked = types if isinstance(types, Counter) else Counter(set(types))
    named_steps: Counter[str] = Counter()
    for word, named in chained(text, lexicon):
        if not whose_said and re.search(_SEVERAL_OWNERS, text[:text.find(word)]):
            return word
        if not named & set(walked):
            return word
        if len(named) == 1:     # a step only one type can be: count it
            (rel_type,) = named
            named_steps[rel_type] += 1
            if named_steps[rel_type] > walked[rel_type]:
                return word
    return None
