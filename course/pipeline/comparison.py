"""Comparing rows: do the generated query's rows hold the reference query's rows?

Introduced in notebook 09, where a generated query is judged by running it and comparing
its rows with a hand-written reference query's rows (as micrograd checks against PyTorch):
as multisets of rows unless the question is ordered; the reference's columns must all be
there, in any order, and the generated query may add columns but not rows; numbers are
compared as numbers, lists as lists.

>>> same_rows([["Payal", 2, "CSE"]], [[2]])
True
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations
from typing import Any, Iterable

MAX_PERMUTED_COLUMNS = 6   # try other column choices only for results this narrow
MAX_COMBINED_COLUMNS = 12  # and, up to this wide, every choice in the reference's order


def comparable(value: Any) -> Any:
    """A value as compared: lists stay lists (as tuples), floats rounded, whole floats as ints.

    >>> comparable([1.0, "A", [2.50000001]])
    (1, 'A', (2.5,))
    """
    if isinstance(value, (list, tuple)):
        return tuple(comparable(v) for v in value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 6)
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    return str(value)


def same_rows(got: list[list[Any]], expected: list[list[Any]], *, ordered: bool = False) -> bool:
    """Do the generated rows hold the reference's rows? As multisets unless `ordered`.

    The reference's columns must all be there, in any order; the generated query may add
    columns (Payal's name beside her year), but not rows.

    >>> same_rows([["Aarav", "A"], ["Payal", "A+"]], [["Payal", "A+"], ["Aarav", "A"]])
    True
    >>> same_rows([["Payal", 2]], [[2]])
    True
    >>> same_rows([["Aarav"], ["Payal"]], [["Payal"], ["Aarav"]], ordered=True)
    False
    >>> same_rows([["Payal", 2, "CSE", ["Coding Club"], ["DSA"], ["SQL"], ["Tracker"]]], [[2, "CSE"]])
    True
    """
    rows_got = [tuple(comparable(v) for v in row) for row in got]
    rows_expected = [tuple(comparable(v) for v in row) for row in expected]
    if len(rows_got) != len(rows_expected):
        return False
    if not rows_expected:
        return True
    width, have = len(rows_expected[0]), len(rows_got[0])
    if have < width or any(len(r) != have for r in rows_got):
        return False
    target = rows_expected if ordered else Counter(rows_expected)
    for columns in _column_choices(have, width):
        picked = [tuple(row[i] for i in columns) for row in rows_got]
        if (picked if ordered else Counter(picked)) == target:
            return True
    return False


def _column_choices(have: int, width: int) -> Iterable[tuple[int, ...]]:
    """Which generated columns stand for the reference's: every choice while few; for a wider
    row (a profile: name, year, branch, clubs, ...) the columns in the reference's order."""
    if have <= MAX_PERMUTED_COLUMNS:
        return permutations(range(have), width)
    if have <= MAX_COMBINED_COLUMNS:
        return combinations(range(have), width)
    return [tuple(range(width))]
