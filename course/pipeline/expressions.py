"""Expressions the server cannot interrupt: regular expressions that backtrack, strings that grow.

Introduced in notebook 03. FalkorDB checks a query's time limit between rows, never inside one
expression, so a list comprehension of 240 `string.matchRegEx(..., '(a+)+$')` calls ran for
38 s on a server whose limit was 5 s, and `replace()` inside `replace()` grew one string to a
billion characters. `runaway_problem(code)` finds such an expression in a query's tokens and
says why, in a sentence; the guard (`course.pipeline.guard.check`) refuses the query with it.

- A regular expression must be written in the query as a string, repeat at most one part
  (one `*`, `+`, `?` or `{m,n}`), repeat no group and refer back to no group: then matching
  it takes time in proportion to the text, whatever the text.
- A `replace()` whose replacement may be longer than what it replaces grows its string; one
  such call inside another multiplies the growth at every level, so it is refused.

>>> runaway_problem(tokenize("RETURN string.matchRegEx('aaa!', '(a+)+$')"))[1]
'string.matchRegEx()'
>>> runaway_problem(tokenize("MATCH (s:Student) RETURN string.matchRegEx(s.name, '^Pay.*')")) is None
True
"""
from __future__ import annotations

import re

from course.pipeline.cypher_tokens import Token, call_arguments, tokenize

# (function, the argument that is a pattern): FalkorDB's two regular-expression functions.
REGEX_FUNCTIONS = {"MATCHREGEX": ("string.matchRegEx()", 1),
                   "REPLACEREGEX": ("string.replaceRegEx()", 1)}
MAX_PATTERN_CHARS = 200
_BOUNDED_REPEAT = re.compile(r"\{(\d*)(,?)(\d*)\}")
_FLAGS = re.compile(r"\(\?[imsx-]+\)")   # (?i): flags, not a group


def _string_value(arg: list[Token]) -> str | None:
    """The text of an argument written as one string literal (`\\\\` read as `\\`), else None."""
    if len(arg) == 1 and arg[0].kind == "string":
        return arg[0].text[1:-1].replace("\\\\", "\\")
    return None


def _repeat_at(pattern: str, j: int) -> int:
    """The length of a repetition (`*`, `+`, `?`, `{m,n}`) at pattern[j], 0 when there is none.
    `{3}` (exactly three) is not a choice, so it is not counted."""
    if j >= len(pattern):
        return 0
    if pattern[j] in "*+?":
        return 1
    found = _BOUNDED_REPEAT.match(pattern, j)
    if found and (found.group(2) and found.group(1) != found.group(3)):
        return len(found.group(0))
    return 0


def regex_problem(pattern: str) -> str | None:
    """Why matching `pattern` could take time out of proportion to its text; None when it cannot.

    >>> regex_problem("^Pay.*l$") is None
    True
    >>> regex_problem("(a+)+$")
    'it repeats a group'
    >>> regex_problem("a*a*a*$")
    'it repeats more than one part'
    """
    if len(pattern) > MAX_PATTERN_CHARS:
        return f"it is longer than {MAX_PATTERN_CHARS} characters"
    repeats, j = 0, 0
    while j < len(pattern):
        ch, after = pattern[j], pattern[j + 1:j + 2]
        if ch == "\\":
            if (after.isdigit() and after != "0") or after in ("k", "g"):
                return "it refers back to a group"
            j += 2
        elif ch == "[":   # a character class: one character, whatever it holds
            j = _class_end(pattern, j)
        elif ch == "(":
            flags = _FLAGS.match(pattern, j)
            if flags:
                j = flags.end()
            elif after == "?" and pattern[j + 2:j + 3] != ":":
                return "it holds a look-around or a named group"
            else:
                j += 3 if after == "?" else 1
            continue
        elif ch == ")":
            j += 1
            if _repeat_at(pattern, j):
                return "it repeats a group"
            continue
        else:
            j += 1
        size = _repeat_at(pattern, j)   # the character, escape or class just read, repeated
        if size:
            repeats += 1
            j += size + (pattern[j + size:j + size + 1] in ("?", "+"))   # lazy or possessive
    return "it repeats more than one part" if repeats > 1 else None


def _class_end(pattern: str, j: int) -> int:
    """The index after the `]` that closes the class opened at pattern[j]."""
    k = j + 1 + (pattern[j + 1:j + 2] == "^")
    k += pattern[k:k + 1] == "]"
    while k < len(pattern) and pattern[k] != "]":
        k += 2 if pattern[k] == "\\" else 1
    return k + 1


def _calls(code: list[Token]) -> list[tuple[int, str, list[list[Token]], int]]:
    """Every function call: (position of its name, its name upper-cased, arguments, its `)`)."""
    found = []
    for i, token in enumerate(code):
        if token.kind == "name" and i + 1 < len(code) and code[i + 1].text == "(":
            args, close = call_arguments(code, i + 1)
            found.append((i, token.word, args, close))
    return found


def _grows(name: str, args: list[list[Token]]) -> bool:
    """A replace() whose replacement is not a string written no longer than what it replaces."""
    if name not in ("REPLACE", "REPLACEREGEX") or len(args) < 3:
        return False
    search, replacement = _string_value(args[1]), _string_value(args[2])
    return search is None or replacement is None or len(replacement) > max(len(search), 1)


def runaway_problem(code: list[Token]) -> tuple[str, str] | None:
    """(why, the function) for the first expression no time limit could stop; None when none.

    >>> runaway_problem(tokenize("RETURN replace(replace('a', 'a', 'aa'), 'a', 'aa')"))[1]
    'replace()'
    """
    calls = _calls(code)
    for _, name, args, _ in calls:
        if name in REGEX_FUNCTIONS and len(args) > REGEX_FUNCTIONS[name][1]:
            function, which = REGEX_FUNCTIONS[name]
            pattern = _string_value(args[which])
            why = ("it is not written in the query as a string" if pattern is None
                   else regex_problem(pattern))
            if why:
                return (f"The regular expression of {function} could make the server try "
                        f"a vast number of ways to match, inside one expression no time limit "
                        f"can stop ({why}); write a simpler pattern, a string written in the query "
                        "that repeats at most one part, or use CONTAINS, STARTS WITH or ENDS WITH.",
                        function)
    growing = [(start, close) for start, name, args, close in calls if _grows(name, args)]
    for start, close in growing:
        if any(start < inner < close for inner, _ in growing):
            return ("replace() inside replace() with a longer replacement multiplies a string's "
                    "length at every level (a billion characters in a few steps), inside one "
                    "expression no time limit can stop; replace once, or with a replacement no "
                    "longer than what it replaces.", "replace()")
    return None
