"""The offline provider's words, as data: data/college/lexicon.yaml (notebooks 05 and 09).

The code of the offline provider names no label, relationship type or value of the graph:
the words that point at them live in a lexicon keyed by the names the schema prompt shows.
A `Lexicon` is read from a YAML file and never changed: `with_words` gives a new one, so an
exercise extends an instance (`OfflineLLM(lexicon=...)`) and leaves everyone else's alone.

>>> lexicon = Lexicon.load()
>>> bool(re.search(lexicon.cues["count"], "how many of them?"))
True
>>> "aayi" in lexicon.vocab, "aayi" in lexicon.with_words("properties", "since", ["aayi"]).vocab
(False, True)
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import yaml

from course.foundation.config import PROJECT_ROOT
from course.foundation.errors import DataFileError
from course.foundation.language import SPEAKER_APART, WORDS

DEFAULT_LEXICON = PROJECT_ROOT / "data" / "college" / "lexicon.yaml"
_TABLES = ("cues", "labels", "relationships", "properties")
_TELLING = {"tell", "show", "give", "explain", "describe"}    # verbs of passing on what one knows


def pattern(words: Any, macros: dict[str, str] | None = None) -> str:
    """One regular expression from a lexicon entry: a list of words (each a whole word) or a regex.

    >>> pattern(["clubs?", "society"])
    '\\\\b(?:clubs?|society)\\\\b'
    """
    text = r"\b(?:" + "|".join(str(w) for w in words) + r")\b" if isinstance(words, list) else str(words)
    for name, value in (macros or {}).items():
        text = text.replace("{" + name + "}", value)
    return text


def _words(text: Any) -> frozenset[str]:
    return frozenset(str(text or "").split())


def words_of(regex: str) -> set[str]:
    """The plain words written in a regular expression (escapes like \\b removed), a word
    with an optional last letter in both forms ("friends?": friend, friends).

    >>> sorted(words_of(r"\\bfriends?|dost"))
    ['dost', 'friend', 'friends']
    >>> sorted(words_of(r"sub-?topics?"))       # "sub" is no word of its own
    ['topic', 'topics']
    """
    found = re.findall(r"([a-z]{2,})(\?)?(?![a-z]|-)", re.sub(r"\\[a-zA-Z]", " ", regex))
    return {w for word, optional in found for w in ((word, word[:-1]) if optional else (word,))
            if len(w) >= 2}


@dataclass(frozen=True)
class Lexicon:
    """The words of one graph, each table keyed by the schema's own names."""

    person: str                                   # the label "who", "he", "kaun" ask for
    cues: dict[str, str]                          # what a question asks: name -> regex
    labels: dict[str, str]                        # label -> regex of its nouns
    relationships: dict[str, str]                 # relationship type -> regex of its words
    properties: dict[str, str]                    # property -> regex of its words
    next_label: str = ""                          # the label "what next" asks for
    when: tuple[str, ...] = ()                    # properties "when" asks for
    value_words: dict[str, str] = field(default_factory=dict)     # property -> words of its values
    value_means: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    count_words: dict[str, int] = field(default_factory=dict)
    ordinals: dict[str, int] = field(default_factory=dict)
    extremes: dict[str, str] = field(default_factory=dict)        # "min" / "max" -> regex
    comparisons: list[tuple[str, str]] = field(default_factory=list)
    thresholds: list[tuple[str, str]] = field(default_factory=list)
    comparing: str = r"(?!)"
    common: frozenset[str] = frozenset()
    filler: frozenset[str] = frozenset()
    known_after: frozenset[str] = frozenset()
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def load(cls, path: Path | str | None = None) -> Lexicon:
        """Read a lexicon file (default data/college/lexicon.yaml)."""
        path = Path(path) if path else DEFAULT_LEXICON
        try:
            raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise DataFileError(f"{path}: cannot be read as a lexicon ({exc}). "
                                "Give the path of a YAML file like data/college/lexicon.yaml.") from exc
        return cls.from_dict(raw if isinstance(raw, dict) else {})

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Lexicon:
        count_words = {str(k): int(v) for k, v in (raw.get("count_words") or {}).items()}
        macros = {"N": r"(?<!§)(\d+|" + "|".join(map(re.escape, count_words)) + ")",
                  "WHICH": r"(" + "|".join(raw.get("which") or ["which"]) + ")",
                  "SPEAKER_APART": SPEAKER_APART.pattern}     # "like me", "besides me"
        table = {name: {str(k): pattern(v, macros) for k, v in (raw.get(name) or {}).items()}
                 for name in _TABLES}
        values = raw.get("values") or {}
        return cls(
            person=str(raw.get("person", "")), next_label=str(raw.get("next", "")), **table,
            when=tuple(raw.get("when") or ()),
            value_words={p: pattern(v.get("words", [])) for p, v in values.items()},
            value_means={p: [(pattern(m["words"]), pattern(m["values"])) for m in v.get("means", [])]
                         for p, v in values.items()},
            count_words=count_words,
            ordinals={str(k): int(v) for k, v in (raw.get("ordinals") or {}).items()},
            extremes={k: pattern(v) for k, v in (raw.get("extremes") or {}).items()},
            comparisons=[(pattern(p, macros), op) for p, op in raw.get("comparisons") or []],
            thresholds=[(pattern(p, macros), op) for p, op in raw.get("thresholds") or []],
            comparing=pattern(raw.get("comparing", r"(?!)")),
            common=_words(raw.get("common_words")), filler=_words(raw.get("filler")),
            known_after=_words(raw.get("known_after")), raw=raw)

    def with_words(self, table: str, key: str, words: list[str]) -> Lexicon:
        """A new lexicon whose `table` entry `key` also matches `words` (a new key is added).

        `table` is cues, labels, relationships or properties; "common_words" adds words that
        carry no meaning (key is then ignored).
        """
        raw = {k: (dict(v) if isinstance(v, dict) else v) for k, v in self.raw.items()}
        if table == "common_words":
            raw["common_words"] = f"{raw.get('common_words', '')} {' '.join(words)}"
            return Lexicon.from_dict(raw)
        if table not in _TABLES:
            raise ValueError(f"with_words: table must be one of {', '.join(_TABLES)} or common_words, "
                             f"not {table!r}.")
        old = raw.setdefault(table, {}).get(key)
        raw[table][key] = (list(old) + words if isinstance(old, list) else
                           f"{old}|{pattern(words)}" if old else list(words))
        return Lexicon.from_dict(raw)

    def label(self, name: str) -> str:
        """The nouns of a label; a label the lexicon does not know is named by itself."""
        return self.labels.get(name, rf"\b{re.escape(name.lower())}s?\b")

    def relation(self, name: str) -> str | None:
        return self.relationships.get(name)

    def prop(self, name: str) -> str:
        return self.properties.get(name, rf"\b{re.escape(name.lower())}\b")

    def those_as_them(self, text: str) -> str:
        """"which of those does §0 lead to?", "any of those at Advanced level": a "those" with
        no noun of a kind after it is "them" (what was found), not a word to leave out.

        >>> default_lexicon().those_as_them("who has any of those at the advanced level?")
        'who has any of them at the advanced level?'
        """
        nouns = [*self.labels.values(), *self.relationships.values()]
        kinds = "|".join(f"(?:{r})" for r in nouns if r) or r"(?!)"
        return re.sub(rf"\b(?:those|these)\b(?!\s+(?:{kinds})\b)", "them", _BARE_THOSE.sub("them", text))

    @staticmethod
    def choice_in_front(text: str) -> str:
        """"Of those, who also studies X?": a choice put in front of its question word is the
        choice after it ("who of those also studies X?").

        >>> Lexicon.choice_in_front("Among them, which one is oldest?")
        'which one among them is oldest?'
        """
        return _IN_FRONT.sub(lambda m: f"{m['ask']} {m['among'].lower()} {m['them'].lower()} ", text)

    def opening(self, words: list[str]) -> int:
        """How many words open a question and ask nothing before its question word ("ok so",
        "bro", "I want to know"): 0 when no question word follows them ("I have a chart of
        which ...": "have" asks nothing and names no question).

        >>> default_lexicon().opening(["i", "want", "to", "know", "who", "is", "in", "it"])
        4
        >>> default_lexicon().opening(["i", "have", "a", "chart", "of", "which"])
        0
        >>> default_lexicon().opening(["could", "you", "please", "explain", "paging"])
        3
        >>> default_lexicon().opening(["can", "u", "explain", "dfs"])    # chat shorthand: "you"
        2
        >>> default_lexicon().opening(["tell", "me", "which", "concepts", "it", "needs"])
        2
        >>> default_lexicon().opening(["kindly", "confirm", "which", "skills", "it", "needs"])
        2
        >>> default_lexicon().opening(["i", "need", "to", "tell", "a", "student"])
        0
        >>> default_lexicon().opening("may i ask which club".split())
        3
        >>> default_lexicon().opening("can i join it".split())
        0
        >>> default_lexicon().opening("i should like to know why it is".split())
        5
        """
        words = [WORDS.shorthand.get(w, w) for w in words]
        asks = WORDS.question_words | WORDS.requests
        # ("dono mein se kaun ...": "both" chooses among what came before, it asks)
        skipped = self.common - asks - WORDS.auxiliary - set(WORDS.all_of_them)
        # "could you (please) explain ...", "may I ask which ...": an auxiliary before "you" or
        # "I" asks nothing of its own (when a question word follows: "can I join it?" asks)
        # ("I should like to know why ...": the speaker's own auxiliary asks nothing either)
        first = next((i for i, w in enumerate(words) if w not in skipped and not (
            w in WORDS.auxiliary and (words[i + 1:i + 2] and words[i + 1] in WORDS.second_person | {"i", "we"}
                                      or i and words[i - 1] in ("i", "we")))),
            len(words))
        if first == len(words) or words[first] not in asks:
            return 0
        # "I need to tell a student", "we have to show our mentor": the speaker tells, not asks
        # ("I want you to explain ...": you are asked)
        before = set(words[:first])
        if words[first] in _TELLING and {"i", "we"} & before and not WORDS.second_person & before \
                and words[first + 1:first + 2] not in (["me"], ["us"]):
            return 0
        # "tell me which concepts ...": a request for what its question word asks
        # ("confirm which skills ...": without "me" too)
        told = first + 1 + (words[first + 1:first + 2] in (["me"], ["us"]))
        if words[first] in WORDS.requests and words[told:told + 1] and words[told] in WORDS.question_words:
            return told
        # "for which subject is X a prerequisite?": the preposition before it asks too
        return first - 1 if first and words[first - 1] in WORDS.prepositions else first

    def names_several(self, text: str) -> bool:
        """Does the text name several of a kind by a plural noun ("the students who ...")?

        >>> lexicon = default_lexicon()
        >>> lexicon.names_several("list the students who took DBMS"), lexicon.names_several("who")
        (True, False)
        """
        return any(m[0].endswith("s") for r in self.labels.values() if r
                   for m in re.finditer(rf"\b(?:{r})\b", text))

    @cached_property
    def vocab(self) -> list[str]:
        """Every word a cue, label, relationship or property entry writes, and the common words
        (not the words of what the graph does not hold: "percentage" of "attendance percentage"
        is not known for being out of scope in that phrase)."""
        cues = {name: cue for name, cue in self.cues.items() if name != "out_of_scope"}
        tables = (cues, self.relationships, self.labels, self.properties, self.value_words, self.extremes)
        numbers = set(self.ordinals) | set(self.count_words) | {w for p, _ in self.comparisons for w in words_of(p)}
        return sorted({w for t in tables for p in t.values() for w in words_of(p)} | self.common | numbers)

    @cached_property
    def all_patterns(self) -> list[str]:
        return [*self.cues.values(), *self.relationships.values(), *self.labels.values(),
                *self.properties.values(), *self.value_words.values(), *self.extremes.values()]


@lru_cache(maxsize=1)
def default_lexicon() -> Lexicon:
    """The college graph's lexicon, read once."""
    return Lexicon.load()


def inside_longer(match: re.Match[str], spans: list[tuple[int, int]]) -> bool:
    """Is the matched word part of longer words found in the same text ("study" in "year of
    study", "first" in "needs §0 first")? Those words say what it means.

    >>> inside_longer(re.search("study", "year of study"), [(0, 13)])
    True
    >>> inside_longer(re.search("study", "I study"), [(2, 7)])
    False
    """
    return any(a <= match.start() and match.end() <= b and b - a > len(match[0]) for a, b in spans)


# "those" at the end, before a verb or a preposition: no noun of its own ("of those at ...")
_IN_FRONT = re.compile(r"(?i)^\s*(?P<among>of|among|out of|from)\s+(?P<them>those|these|them)\s*,?\s+"
                       r"(?P<ask>(?:who|which|what|how many)(?:\s+one)?)\s+")
_BARE_THOSE = re.compile(rf"\b(?:those|these)\b"
                         rf"(?=\s*$|\s*[?.!,]|\s+(?:{'|'.join(WORDS.auxiliary | WORDS.prepositions)})\b)")
