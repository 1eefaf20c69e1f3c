"""A value of a VALUE SCALE said aloud or with a range: "a plus", "a B or lower" (notebook 09).

A scale's values are listed best first (a grade: A+, A, B+, B, C). "Which students scored a B
or lower?" asks for B and every value after it, not for B alone: read as B alone, the answer
leaves out the C's and looks complete. "B or better", "at least a B" reach from the best to B;
"better than B", "above B" stop before it; "worse than B", "below B" start after it. A value
is also said aloud: "an a plus" is A+ (`said_aloud`).

>>> scale = ["A+", "A", "B+", "B", "C"]
>>> in_range("which students scored a b or lower ?", "B", scale)
['B', 'C']
>>> in_range("who got at least a b+ ?", "B+", scale), in_range("anyone below b+ ?", "B+", scale)
(['A+', 'A', 'B+'], ['B', 'C'])
>>> in_range("who got a b ?", "B", scale) is None
True
"""
from __future__ import annotations

import re


def said_aloud(value: str) -> str:
    """A value as it is said aloud.

    >>> said_aloud("a+"), said_aloud("b-"), said_aloud("cse")
    ('a plus', 'b minus', 'cse')
    """
    return re.sub(r"\s*\+$", " plus", re.sub(r"\s*-$", " minus", value))


def said_within_another(text: str, values: list[str], common: frozenset[str] = frozenset()) -> list[str]:
    """The values that are said only inside another of `values` ("b" of "b plus", "A" of
    "A+"): no value of their own. A value that is also a common word counts in capitals only.

    >>> said_within_another("who got an A plus in a subject", ["A+", "A"], frozenset({"a"}))
    ['A']
    >>> said_within_another("an A or a B plus", ["A", "B+", "B"], frozenset({"a"}))
    ['B']
    """
    def spans(value: str, aloud: bool) -> list[tuple[int, int]]:
        said = [value, said_aloud(value.lower())] if aloud else [value]
        flags = 0 if value.lower() in common else re.I
        pattern = rf"(?<![\w+])(?:{'|'.join(map(re.escape, said))})(?![\w+])"
        return [m.span() for m in re.finditer(pattern, text, flags | (re.I if aloud else 0))]
    longer = [s for v in values for s in spans(v, aloud=True)]
    return [v for v in values if (own := spans(v, aloud=False)) and all(
        any(a <= start and end <= b and (a, b) != (start, end) for a, b in longer) for start, end in own)]


def a_choice_of_values(text: str, value_words: str | None) -> bool:
    """Does the text offer a choice between values of one property ("is it finished or still
    going on?": two of its words, an "or" between), which the value itself answers?

    >>> a_choice_of_values("is §0 planned or already started ?", r"planned|started|finished")
    True
    >>> a_choice_of_values("which projects are planned ?", r"planned|started|finished")
    False
    """
    found = list(re.finditer(value_words, text)) if value_words else []
    return len(found) > 1 and re.search(r"\bor\b", text[found[0].end():found[-1].start()]) is not None


_BETTER = r"better|higher|above|more"
_WORSE = r"worse|lower|below|less|under"
_A = r"(?:an?\s+)?"
# "... a B or lower, and ...", "2 or more clubs?", "an A or better in a semester 5 subject?": an
# "or" that ends a value's range (before a stop, or a preposition of the same ask) joins no asks
OR_A_RANGE = re.compile(rf"(?:{_BETTER}|{_WORSE}|fewer)\b(?:(?:\s+\w+)?\s*(?:[,?.!;]|$)"
                        rf"|\s+(?:in|on|at|for|from|with|during|since|among)\b)", re.I)


def says_a_range(text: str) -> bool:
    """Does the text say a range of a value ("an A or better", "at least a B"), not a choice
    of the better one ("which of them is better?")?

    >>> says_a_range("who got an a or better ?"), says_a_range("which of them is better ?")
    (True, False)
    """
    return re.search(rf"\bor\s+(?:{_BETTER}|{_WORSE})\b|\bat\s+(?:least|most)\b", text) is not None


def in_range(text: str, value: str, scale: list[str]) -> list[str] | None:
    """The scale's values the words ask for around `value` (a value of `scale`, said in
    `text`), or None when it is said with no range."""
    said = "|".join(re.escape(v) for v in dict.fromkeys((value.lower(), said_aloud(value.lower()))))
    v = rf"(?<![\w+])(?:{said})(?![\w+])"
    at = scale.index(value)
    ranges = ((rf"{v}\s+(?:or|and)\s+(?:{_BETTER})|\bat\s+least\s+{_A}{v}", scale[:at + 1]),
              (rf"{v}\s+(?:or|and)\s+(?:{_WORSE})|\bat\s+most\s+{_A}{v}", scale[at:]),
              (rf"\b(?:(?:{_BETTER})\s+than|above)\s+{_A}{v}", scale[:at]),
              (rf"\b(?:(?:{_WORSE})\s+than|below|under)\s+{_A}{v}", scale[at + 1:]))
    return next((values for pattern, values in ranges if re.search(pattern, text, re.I)), None)
