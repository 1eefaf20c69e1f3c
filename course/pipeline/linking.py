"""Entity linking: the names a question mentions, found among the graph's values.

Introduced in notebook 02. `link_entities(db, question)` looks up the names a question
mentions (fuzzy: "debate-ye" -> Debate Society, "Payl" -> Payal; aliases: "ML" -> Machine
Learning) so only those values go into the prompt. It matches words as the graph's full-text
indexes do, in an index of the names read once per data version (`NameIndex`), not with a
query per question.

>>> from course.pipeline.schema import introspect
>>> [m.value for m in link_entities(db, "dbms and debate-ye dono ke students kaun hain?",
...                                 schema=introspect(db))]
['DBMS', 'Debate Society']
>>> [m.value for m in link_entities(db, "Which clubs are there on campus?")]   # no Campus Chatbot
[]
"""
from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any, NamedTuple

from course.foundation.dataset import FULLTEXT_PROPERTY
from course.foundation.dictionary import is_english
from course.foundation.graphs import THE_GRAPH_ITSELF
from course.foundation.language import WORDS
from course.foundation.db import Database
from course.foundation.versioning import data_version, every_row, one_version, per_version
from course.pipeline.schema import GraphSchema, cypher_literal


@dataclass(frozen=True)
class Mention:
    """A name in the question linked to a value in the graph."""

    text: str       # as written in the question: "debate-ye"
    label: str      # Club
    property: str   # name
    value: str      # Debate Society
    score: float    # 1.0 exact ... 0.5 partial

    def render(self) -> str:
        shown = "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}"   # escaped: one line
                        for ch in json.dumps(self.text, ensure_ascii=False))
        return f'- {shown} -> {self.label}.{self.property} = {cypher_literal(self.value)}'


_WORD = re.compile(r"[a-z0-9+#]+", re.I)
_SHORT = 3  # words this short must match exactly ("1NF" must not find "2NF")
_LANGUAGE_WORDS = WORDS.hinglish | set(WORDS.hindi_in_english) | WORDS.question_words


def _a_typo_of(name_word: str, word: str) -> bool:
    """Is `word` the name's word mistyped? Not a word of its own (but its plural): "Sneha kahan
    hai?" is not Karan, and "reach" and "threats" are English, not React and Threads.

    >>> _a_typo_of("payal", "payl"), _a_typo_of("react", "reach"), _a_typo_of("trees", "tree")
    (True, False, True)
    """
    plural = {word + "s", word + "es", word.removesuffix("s"), word.removesuffix("es")}
    return word not in _LANGUAGE_WORDS and (name_word in plural or not is_english(word)) \
        and _similar(name_word, word)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@lru_cache(maxsize=65_536)   # the same pairs come back question after question
def _similar(a: str, b: str) -> bool:
    if a == b:
        return True
    if min(len(a), len(b)) <= _SHORT:
        return False
    return SequenceMatcher(None, a, b).ratio() >= 0.8


# --- the names linking looks up, read once per data version ------------------------------
# Linking finds the values the full-text indexes would find for the question's words (one
# query per label and question, before), from the names held in memory: a value is a
# candidate when one of its words is a word of the question, is one typo away from it
# (for words longer than 3 letters: the index's `%word%`), or is the same word with another
# ending ("process" finds Processes, "page" finds Paging: the index's English stemming, for
# the endings of plurals and verbs). `_match` then decides, as it did.

# What the full-text index splits a value on (RediSearch's separators): "TCP/IP" is two words.
_SEPARATORS = re.compile(r"[\s,.<>{}\[\]\"':;!@#$%^&*()\-+=~|/?`\\]+")
_ENDINGS = ("ations", "ingly", "ation", "edly", "ing", "ies", "ied", "es", "ed", "ly", "s", "y")
CANDIDATES_PER_WORD = 20   # per word and label, the best first, as the full-text queries took


def _terms(text: str) -> list[str]:
    """A value's words as the full-text index splits them.

    >>> _terms("TCP/IP")
    ['tcp', 'ip']
    """
    return [t for t in _SEPARATORS.split(text.lower()) if t]


@lru_cache(maxsize=65_536)
def _stem(word: str) -> str:
    """The word without an inflection, so its forms meet: roughly what the index's stemmer does.

    >>> [_stem(w) for w in ("processes", "process", "paging", "page", "dependencies", "dependency")]
    ['process', 'process', 'pag', 'pag', 'dependenc', 'dependenc']
    >>> [_stem(w) for w in ("normalization", "normalizing", "normalize")]
    ['normaliz', 'normaliz', 'normaliz']
    """
    for ending in _ENDINGS:
        base = word[:-len(ending)]
        if word.endswith(ending) and len(base) >= 3 and not (ending == "s" and base[-1] in "su"):
            word = base
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]                  # "subnetting" -> "subnett" -> "subnet"
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def _deletions(word: str) -> list[str]:
    """The word less one of its letters, each way.

    >>> _deletions("dsa")
    ['sa', 'da', 'ds']
    """
    return list(dict.fromkeys(word[:i] + word[i + 1:] for i in range(len(word))))


def _one_typo(a: str, b: str) -> bool:
    """Are a and b one edit apart (a letter changed, added or dropped)?

    >>> _one_typo("payl", "payal"), _one_typo("procss", "processes")
    (True, False)
    """
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long = sorted((a, b), key=len)
    i = next((i for i, (x, y) in enumerate(zip(short, long)) if x != y), len(short))
    return short[i:] == long[i + 1:]


class _LabelNames:
    """The names of one label's property, by word, by stem, and by length (for typos)."""

    def __init__(self, values: list[str]):
        self.values = set(values)
        self.by_term: dict[str, list[str]] = {}
        self.by_stem: dict[str, list[str]] = {}
        for value in sorted(self.values, key=lambda v: (len(v), v)):   # short names first
            for term in dict.fromkeys(_terms(value)):
                self.by_term.setdefault(term, []).append(value)
                self.by_stem.setdefault(_stem(term), []).append(value)
        self.by_letters: dict[str, list[str]] = {}   # a long name's letters, no spaces -> it
        for value in self.values:
            if len(letters := _letters(_terms(value))) >= _LETTERS_MIN:
                self.by_letters.setdefault(letters, []).append(value)
        self.by_deletion: dict[str, list[str]] = {}   # a term less one letter -> the terms
        for term in self.by_term:
            for shorter in _deletions(term):
                self.by_deletion.setdefault(shorter, []).append(term)

    def candidates(self, word: "_Word") -> list[str]:
        """The names the full-text query for the word finds: the same word, another ending, a typo."""
        if not word.parts:
            return []
        found = [self._for_term(part, fuzzy=word.fuzzy) for part in word.parts]
        both = set.intersection(*(set(f) for f in found))   # the parts must all be there
        return [v for v in found[0] if v in both][:CANDIDATES_PER_WORD]

    def _for_term(self, term: "_Term", *, fuzzy: bool) -> list[str]:
        exact = self.by_term.get(term.text, []) + self.by_stem.get(term.stem, [])
        typos = [v for t in self._one_typo_away(term) for v in self.by_term[t]] if fuzzy else []
        return list(dict.fromkeys(exact + typos))

    def _one_typo_away(self, term: "_Term") -> list[str]:
        """The index's terms one edit from `term`, found through their one-letter deletions."""
        near = [d for d in term.shorter if d in self.by_term]           # a letter more in `term`
        near += self.by_deletion.get(term.text, [])                     # a letter less in `term`
        near += [t for d in term.shorter for t in self.by_deletion.get(d, [])]   # one changed
        return sorted({t for t in near if _one_typo(t, term.text)}, key=lambda t: (len(t), t))


_LETTERS_MIN = 6   # a name this long may be written with its words split or joined


def _letters(words: list[str]) -> str:
    """Words as one run of letters, stemmed: how a name is found with its spaces moved ("campus
    chat bot", "dead locks", "codingclub").

    >>> _letters(["dead", "locks"]) == _letters(_terms("Deadlocks"))
    True
    """
    return _stem("".join(words))


def _written_apart(names: _LabelNames, words: list[str]) -> dict[str, list[int]]:
    """The names whose letters a run of the question's words spells with other spaces, and
    where: two to four words for a name ("campus chat bot"), or one word for a name of two or
    more ("codingclub")."""
    found: dict[str, list[int]] = {}
    for start in range(len(words)):
        for end in range(start + 1, min(start + 4, len(words)) + 1):
            for value in names.by_letters.get(_letters(words[start:end]), []):
                if end - start != len(_terms(value)):
                    found.setdefault(value, list(range(start, end)))
    return found


class _Term(NamedTuple):
    """A word of the question as the index is searched with it: itself, its stem, its deletions."""

    text: str
    stem: str
    shorter: list[str]


class _Word(NamedTuple):
    """A word of the question, worked out once for every label it is looked up in."""

    parts: list[_Term]   # "c++" is searched as "c", as the index splits it
    fuzzy: bool          # a typo is allowed only in a word longer than three letters

    @classmethod
    def of(cls, word: str) -> "_Word":
        return cls([_Term(t, _stem(t), _deletions(t)) for t in _terms(word)], len(word) > _SHORT)


class NameIndex:
    """The graph's names as linking needs them, read once per data version (`name_index`).

    One label's names are read the first time a question needs them, a page at a time.
    """

    def __init__(self, db: Database):
        self.db = db
        self._labels: dict[tuple[str, str], _LabelNames] = {}

    def names(self, label: str, prop: str) -> _LabelNames:
        if (label, prop) not in self._labels:
            rows = every_row(self.db, f"MATCH (n:{label}) WHERE id(n) > $after "
                                      f"RETURN id(n), n.{prop} ORDER BY id(n) LIMIT $page")
            self._labels[(label, prop)] = _LabelNames([v for _, v in rows if isinstance(v, str)])
        return self._labels[(label, prop)]

    def warm(self, labels: dict[str, str] = FULLTEXT_PROPERTY) -> "NameIndex":
        """Read these labels' names now (the agent does, before its first question)."""
        for label, prop in labels.items():
            self.names(label, prop)
        return self


def name_index(db: Database) -> NameIndex:
    """The names of db's graph, as they are now: read again only after the graph changed."""
    return per_version(db, "names", lambda: NameIndex(db))


def _match(value: str, words: list[str]) -> tuple[float, list[int]]:
    """How well a value's words are found among the question's words, and where.

    A partial match must include the value's first word: "debate" finds Debate Society and
    "library" finds Library Management System, but "clubs" alone is no particular club (and
    `_link` keeps a partial match only beside its kind's word).
    """
    value_words = _words(value)
    # a learner's shorthand is the word it stands for ("the library mgmt project")
    hits = [[i for i, w in enumerate(words) if vw in (w, WORDS.shorthand.get(w)) or _a_typo_of(vw, w)]
            for vw in value_words]
    matched = sum(bool(h) for h in hits)
    if not matched or (matched < len(value_words) and not hits[0]):
        return 0.0, []
    if matched < len(value_words) and len(value_words[0]) <= _SHORT:
        return 0.0, []
    return matched / len(value_words), sorted({i for h in hits for i in h})


def _named_apart(label: str, question: str, words: list[str], used: list[int]) -> bool:
    """Does a word that begins a longer name stand for it here: written as a name ("Who is
    Zoya?", capitalised inside a sentence), or beside its kind's word ("the library project")?
    Otherwise it is the everyday word: "on campus" is no Campus Chatbot, "a query" no Query
    Optimization.

    >>> _named_apart("Project", "Who works on the library project?", ["the", "library", "project"], [1])
    True
    >>> _named_apart("Project", "Which clubs are there on campus?", ["on", "campus"], [1])
    False
    >>> _named_apart("Student", "Who is Zoya?", ["who", "is", "zoya"], [2])
    True
    >>> _named_apart("Project", "who leads library managment",
    ...              ["who", "leads", "library", "managment"], [2, 3])
    True
    """
    after = max(used, default=len(words)) + 1
    if after < len(words) and words[after] in (label.lower(), label.lower() + "s"):
        return True
    if len(used) > 1 and used == list(range(used[0], used[0] + len(used))):
        return True     # two words of it in a row ("library managment"): a name, not a word
    sentences = re.split(r"(?<=[.?!])\s+", question.strip())
    capitalised = {w.lower() for sentence in sentences for w in _WORD.findall(sentence)[1:]
                   if w[:1].isupper()}
    return any(words[i] in capitalised for i in used)


def link_entities(db: Database, question: str, *, schema: GraphSchema | None = None,
                  labels: dict[str, str] | None = None) -> list[Mention]:
    """Values of the graph that the question names, best first, at most one per phrase.

    Worked out once per text and data version, and kept (`LINKED_KEPT` texts): a room asks
    the same questions and is served the same answers, whose names are linked too.
    """
    with one_version():                # the version read once, for the key and the names
        key = (db.location, db.graph_name, data_version(db), question, id(schema),
               tuple(sorted((labels or {}).items())))
        with _LINKED_LOCK:
            kept = _LINKED.get(key)
        if kept is not None and kept[0] is schema:   # the same schema, not one at its old address
            return list(kept[1])
        found = _link(db, question, schema=schema, labels=labels)
    with _LINKED_LOCK:
        _LINKED[key] = (schema, tuple(found))
        while len(_LINKED) > LINKED_KEPT:
            _LINKED.popitem(last=False)
    return found


LINKED_KEPT = 2_048
_LINKED: OrderedDict[tuple[Any, ...], tuple[GraphSchema | None, tuple[Mention, ...]]] = OrderedDict()
_LINKED_LOCK = threading.Lock()


def _link(db: Database, question: str, *, schema: GraphSchema | None,
          labels: dict[str, str] | None) -> list[Mention]:
    words = _words(question)
    # the labels a schema was read with (include/exclude): a left-out label's names are not linked
    labels = labels or {label: prop for label, prop in FULLTEXT_PROPERTY.items()
                        if schema is None or label in schema.labels}
    index = name_index(db)
    found: dict[tuple[str, str], tuple[float, list[int]]] = {}
    searched = [_Word.of(w) for w in dict.fromkeys(w for w in words if len(w) >= 2)]
    for label, prop in labels.items():
        names = index.names(label, prop)
        candidates = dict.fromkeys(v for word in searched for v in names.candidates(word))
        for value in candidates:
            score, used = _match(value, words)
            if score < 1.0 and not _named_apart(label, question, words, used):
                continue
            if score and score > found.get((label, value), (0, []))[0]:
                found[(label, value)] = (score, used)
        for value, used in _written_apart(names, words).items():
            if found.get((label, value), (0.0, []))[0] < 1.0:
                found[(label, value)] = (1.0, used)
    for value, aliases in ((schema.aliases if schema else None) or {}).items():
        for alias in aliases:
            alias_words = _words(alias)
            for start in range(len(words) - len(alias_words) + 1):
                if words[start:start + len(alias_words)] == alias_words:
                    for label in [k for k, prop in labels.items() if value in index.names(k, prop).values]:
                        span = list(range(start, start + len(alias_words)))
                        if len(span) >= len(found.get((label, value), (0, []))[1]):
                            found[(label, value)] = (1.0, span)
    itself = _the_graph_itself(question)
    return _best_mentions({k: v for k, v in found.items() if not set(v[1]) <= itself}, words)


def _the_graph_itself(question: str) -> set[int]:
    """The positions of the words that name the knowledge graph itself ("how many students are
    in the graph?": no mention of a topic named Graphs).

    >>> sorted(_the_graph_itself("how many students are in the graph?"))
    [4, 5, 6]
    >>> _the_graph_itself("how does bfs search in the graph data structure?")
    set()
    >>> sorted(_the_graph_itself("which topics are in the graph listed as parts of welding?"))
    [3, 4, 5]
    """
    return {i for m in THE_GRAPH_ITSELF.finditer(question)
            for i in range(len(_words(question[:m.start()])), len(_words(question[:m.end()])))}


def _best_mentions(found: dict, words: list[str]) -> list[Mention]:
    """Keep the strongest reading of each phrase: 'memory management' is not also 'Virtual Memory'."""
    ranked = sorted(found.items(), key=lambda kv: (-kv[1][0], -len(kv[1][1]), kv[1][1]))
    taken: set[int] = set()
    mentions = []
    for (label, value), (score, used) in ranked:
        if score < 1.0 and set(used) <= taken:
            continue
        taken |= set(used)
        text = " ".join(words[i] for i in used) if used else value
        mentions.append(Mention(text, label, FULLTEXT_PROPERTY.get(label, "name"), value, round(score, 2)))
    return sorted(mentions, key=lambda m: min((words.index(w) for w in _words(m.text) if w in words), default=0))
