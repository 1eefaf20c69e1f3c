"""Names in a sentence: the ones the graph knows, and new ones the rules may propose.

Introduced in notebook 15, for the offline rules. A name is matched as written (a proper
noun: "Python", "Campus Chatbot"), or by an alias of schema.yaml that is written with a
capital ("OS", "ML"); lower-case aliases ("databases") are ordinary words in prose.

>>> table = NameTable({"Skill": ["Python", "Machine Learning"]}, {"Machine Learning": ("ML", "machine-learning")})
>>> [(m.label, m.name, m.text) for m in table.find("Rahul knows ML and Python.")]
[('Skill', 'Machine Learning', 'ML'), ('Skill', 'Python', 'Python')]
>>> capitalised_phrases("DBMS covers Concurrency Control and Two-Phase Locking.", skip=("DBMS",))
[(12, 31, 'Concurrency Control'), (36, 53, 'Two-Phase Locking')]
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from course.foundation.language import WORDS

_PHRASE = re.compile(r"[A-Z][\w']*(?:-[\w']+)*(?:\s+[A-Z][\w']*(?:-[\w']+)*)*")
OPENERS = WORDS.sentence_openers   # begin a sentence with a capital and name nothing


@dataclass(frozen=True)
class Mention:
    label: str
    name: str          # the node's name in the graph (or the new name)
    text: str          # as the sentence writes it
    start: int
    end: int
    new: bool = False  # a name the graph does not have yet


class NameTable:
    """Every name (and capitalised alias) of every label, longest first."""

    def __init__(self, names: dict[str, list[str]], aliases: dict[str, tuple[str, ...]]):
        self.surfaces: list[tuple[str, str, str, bool]] = []   # (surface, label, name, new)
        for label, found in names.items():
            for name in found:
                self.add(label, name)
                for alias in aliases.get(name, ()):
                    if any(ch.isupper() for ch in alias):
                        self.surfaces.append((alias, label, name, False))
        self._sort()

    def add(self, label: str, name: str, *, new: bool = False) -> None:
        self.surfaces.append((name, label, name, new))
        self._sort()

    def _sort(self) -> None:
        self.surfaces.sort(key=lambda s: -len(s[0]))

    def find(self, sentence: str) -> list[Mention]:
        """The names in a sentence, in order, none overlapping another."""
        taken: list[Mention] = []
        for surface, label, name, new in self.surfaces:
            for hit in re.finditer(rf"(?<![\w-]){re.escape(surface)}(?![\w-])", sentence):
                if not any(hit.start() < m.end and m.start < hit.end() for m in taken):
                    taken.append(Mention(label, name, hit.group(0), hit.start(), hit.end(), new))
        return sorted(taken, key=lambda m: m.start)


def capitalised_phrases(sentence: str, *, skip: tuple[str, ...] = (),
                        after: int = 0) -> list[tuple[int, int, str]]:
    """Runs of capitalised words from position `after` on, an opening word ("The") dropped."""
    found = []
    for hit in _PHRASE.finditer(sentence, after):
        start, text = hit.start(), hit.group(0)
        first = text.split()[0]
        if first.lower() in OPENERS:
            rest = text[len(first):].lstrip()
            if not rest:
                continue
            start, text = hit.end() - len(rest), rest
        if text not in skip:
            found.append((start, start + len(text), text))
    return found


def blank(sentence: str, mentions: list[Mention]) -> str:
    """The sentence in lower case with the names blanked out, so a name's own words ("Club")
    are not read as words about it.

    >>> blank("Aarav joined the Coding Club.", [Mention("Club", "Coding Club", "Coding Club", 17, 28)])
    'aarav joined the ___________.'
    """
    text = sentence.lower()
    for m in mentions:
        text = text[:m.start] + "_" * (m.end - m.start) + text[m.end:]
    return text
