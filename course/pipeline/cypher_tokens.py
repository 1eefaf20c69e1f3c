"""A Cypher query read as tokens, the way FalkorDB reads it: the guard's lexer.

Introduced in notebook 03. Strings, comments, backticked names and property names are not
keywords. Strings, comments and brackets are read from the raw text, exactly as the server
reads them; only names are compared after NFKC normalisation (so `ＤＥＬＥＴＥ` reads as
DELETE). Normalising the whole text first would let a look-alike such as `﹨` (which NFKC
turns into a backslash) hide the end of a string from the guard but not from the server.

>>> [(t.kind, t.text) for t in tokenize("RETURN 'a;b' // c")]
[('name', 'RETURN'), ('string', "'a;b'"), ('comment', '// c')]
"""
from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

_PUNCTUATION = set("()[]{},.:;|$+-*/%^=<>!?&~")
_NUMBER = re.compile(r"0[xX][0-9A-Fa-f]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?")


class Token(NamedTuple):
    """One piece of a query. `kind` is name, quoted_name, string, number, parameter,
    punct, comment or other (a character Cypher does not use).

    (A named tuple: a query has many tokens, and a tuple is made several times faster
    than a frozen dataclass.)

    >>> Token("name", "ｄｅｌｅｔｅ", 0).word
    'DELETE'
    """

    kind: str
    text: str
    start: int
    closed: bool = True  # False for a string, comment or backticked name that never ends

    @property
    def word(self) -> str:
        """A name upper-cased after NFKC normalisation; other tokens as written."""
        if self.kind == "name":   # ASCII is its own NFKC form
            text = self.text if self.text.isascii() else unicodedata.normalize("NFKC", self.text)
            return text.upper()
        return self.text


def _scan_quoted(text: str, i: int) -> tuple[int, bool]:
    """End of the string opened at `i` (a backslash escapes the next character)."""
    quote, j = text[i], i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
        elif text[j] == quote:
            return j + 1, True
        else:
            j += 1
    return len(text), False


def _scan_comment(text: str, i: int) -> tuple[int, bool]:
    """End of the comment at `i`: `//` runs to the newline (only \\n, as in FalkorDB)."""
    if text.startswith("//", i):
        end = text.find("\n", i)
        return (len(text) if end < 0 else end), True
    end = text.find("*/", i + 2)
    return (len(text), False) if end < 0 else (end + 2, True)


def _is_name_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


# The same characters as regular expressions, read a run at a time: in Python, `\w` is
# exactly `isalnum() or "_"`, and `\s` exactly `isspace()` (tests/test_safety.py checks).
_NAME_CHARS = re.compile(r"\w*")
_SPACES = re.compile(r"\s*")


def _run_end(pattern: re.Pattern[str], text: str, i: int) -> int:
    """Where the run of `pattern`'s characters that starts at `i` ends."""
    match = pattern.match(text, i)
    return match.end() if match else i


def _next_token(text: str, i: int) -> Token:
    """The token starting at `i` (which is not whitespace)."""
    ch, rest = text[i], text[i:i + 2]
    if rest in ("//", "/*"):
        end, closed = _scan_comment(text, i)
        return Token("comment", text[i:end], i, closed)
    if ch in "'\"":
        end, closed = _scan_quoted(text, i)
        return Token("string", text[i:end], i, closed)
    if ch == "`":
        end = text.find("`", i + 1)
        closed = end >= 0
        end = end + 1 if closed else len(text)
        return Token("quoted_name", text[i:end], i, closed)
    # Every number starts with a digit (\d: isdecimal) or a dot: only then try the pattern.
    number = _NUMBER.match(text, i) if ch == "." or ch.isdecimal() else None
    if number and (ch.isdigit() or not (i and _is_name_char(text[i - 1]))):
        return Token("number", number.group(), i)
    if _is_name_char(ch) or (ch == "$" and i + 1 < len(text) and _is_name_char(text[i + 1])):
        j = _run_end(_NAME_CHARS, text, i + 1)
        return Token("parameter" if ch == "$" else "name", text[i:j], i)
    if rest == "..":
        return Token("punct", "..", i)
    return Token("punct" if ch in _PUNCTUATION else "other", ch, i)


# The common tokens (names, numbers, parameters, punctuation but `/`) with the spaces before
# them, in one regular expression: the same tokens `_next_token` reads, in the same order of
# preference (tests/test_safety.py compares them), read a token per match instead of a
# character per step. Comments, strings, backticked names and other characters go to
# `_next_token`.
_COMMON = re.compile(r"""\s*(?:
    (?P<number>0[xX][0-9A-Fa-f]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|(?<!\w)\.\d+(?:[eE][+-]?\d+)?)
  | (?P<name>\w+)
  | (?P<parameter>\$\w+)
  | (?P<range>\.\.)
  | (?P<punct>[()\[\]{},.:;|$+\-*%^=<>!?&~])
)?""", re.VERBOSE)
_KIND = {"number": "number", "name": "name", "parameter": "parameter", "range": "punct",
         "punct": "punct"}


def tokenize(cypher: str) -> list[Token]:
    """Split a query into tokens; whitespace is dropped, comments are kept.

    >>> [t.text for t in tokenize("RETURN 'a;b' // done")]
    ['RETURN', "'a;b'", '// done']
    """
    tokens: list[Token] = []
    i, end = 0, len(cypher)
    while i < end:
        match = _COMMON.match(cypher, i)
        assert match is not None   # every part of the pattern is optional
        kind = match.lastgroup
        if kind is not None:
            tokens.append(Token(_KIND[kind], match.group(kind), match.start(kind)))
            i = match.end()
        elif match.end() < end:
            token = _next_token(cypher, match.end())
            tokens.append(token)
            i = token.start + len(token.text)
        else:
            break
    return tokens


def procedure_name(code: list[Token], j: int) -> str | None:
    """The dotted name starting at `j` (`db.idx.fulltext.queryNodes`), or None."""
    parts: list[str] = []
    while j < len(code) and code[j].kind in ("name", "quoted_name"):
        parts.append(code[j].text.strip("`"))
        if j + 1 < len(code) and code[j + 1].text == ".":
            j += 2
        else:
            break
    return ".".join(parts) or None


_BRACKETS = {"[": 1, "(": 1, "{": 1, "]": -1, ")": -1, "}": -1}


def bracket_depths(code: list[Token]) -> list[int]:
    """The bracket depth after each token: how many (, [ and { are still open.

    >>> bracket_depths(tokenize("f([1], {a: 2})"))
    [0, 1, 2, 2, 1, 1, 2, 2, 2, 2, 1, 0]
    """
    depths, depth = [], 0
    for token in code:
        depth += _BRACKETS.get(token.text, 0) if token.kind == "punct" else 0
        depths.append(depth)
    return depths


def closing_bracket(code: list[Token], i: int) -> int:
    """Index of the `]` that closes the `[` at `i` (or the end)."""
    depths = bracket_depths(code[i:])
    return next((i + j for j, depth in enumerate(depths) if depth == 0), len(code) - 1)


def call_arguments(code: list[Token], open_paren: int) -> tuple[list[list[Token]], int]:
    """The comma-separated arguments of the call whose `(` is at `open_paren`, and its `)`.

    >>> args, close = call_arguments(tokenize("replace(a, 'b', 'c')"), 1)
    >>> [[t.text for t in arg] for arg in args], close
    ([['a'], ["'b'"], ["'c'"]], 7)
    """
    args: list[list[Token]] = [[]]
    rest = code[open_paren:]
    for j, (token, depth) in enumerate(zip(rest, bracket_depths(rest))):
        if depth == 0:
            return args, open_paren + j
        if j == 0:
            continue
        if depth == 1 and token.text == ",":
            args.append([])
        else:
            args[-1].append(token)
    return args, len(code) - 1
