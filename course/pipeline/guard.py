"""The guard: a query read as tokens and refused, check by check, unless it is a safe read.

Introduced in notebook 03. `check(cypher)` runs named checks in order (something to read,
no write clause, LOAD CSV or CALL outside the allowlist, one statement, no path without an
upper bound, no expression that builds a huge value) and returns a `Verdict` that names the
clause it refused and says why. The course text's check looked for words in the
upper-cased text, which fails both ways: it refuses `p.created_at` and `'Create Your Own'`,
and lets `SET\\t`, `LOAD CSV` and `[*]` through (`course.pipeline.safety.naive_is_safe`).

>>> check("MATCH (n) DETACH DELETE n").reason
'DETACH DELETE would change the graph; the agent may only read.'
>>> check("MATCH (p:Project) RETURN p.created_at").allowed
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from course.pipeline.cypher_tokens import (Token, bracket_depths, call_arguments, closing_bracket,
                                           procedure_name, tokenize)
from course.pipeline.expressions import runaway_problem

# Read-only procedures the course uses; matched without regard to case, as FalkorDB does.
ALLOWED_PROCEDURES: tuple[str, ...] = (
    "algo.SPpaths", "algo.SSpaths", "algo.BFS",
    "db.labels", "db.relationshipTypes", "db.propertyKeys", "db.indexes",
    "db.idx.fulltext.queryNodes", "db.idx.fulltext.queryRelationships",
)
_ALLOWED_LOWER = {name.lower(): name for name in ALLOWED_PROCEDURES}

WRITE_CLAUSES = frozenset({"CREATE", "MERGE", "DELETE", "SET", "REMOVE", "DROP", "FOREACH"})


@dataclass(frozen=True)
class Verdict:
    """The guard's answer. It is falsy when the query is refused, so `if check(q):` works.

    >>> bool(check("MATCH (n) SET\\tn.x = 1"))
    False
    """

    allowed: bool
    reason: str | None = None
    clause: str | None = None

    def __bool__(self) -> bool:
        return self.allowed


ALLOWED = Verdict(True)


def refuse(reason: str, clause: str | None) -> Verdict:
    """A refusal: why, and the clause that was refused."""
    return Verdict(False, reason, clause)


# What may follow an alias (`RETURN n.name AS create`): the end of a list or of the query,
# or a clause that only reads. A write keyword after AS is a name only when one of these
# follows it; `WITH as DELETE as` (a variable called `as`) is a DELETE.
_AFTER_ALIAS = frozenset({",", ")", "}", "]", ";", "WITH", "RETURN", "WHERE", "ORDER", "SKIP",
                          "LIMIT", "UNION", "MATCH", "OPTIONAL", "UNWIND", "CALL", "YIELD"})


def name_positions(code: list[Token]) -> set[int]:
    """Indices of words that are names, not clauses: `n.set`, `:Delete`, `{set: 1}`,
    `(create:Student)`, and `AS create` when only a list's end or a reading clause follows.

    >>> sorted(name_positions(tokenize("RETURN 1 AS create")))
    [3]
    >>> sorted(name_positions(tokenize("WITH n AS as SET as.year = 9")))   # SET is the clause
    [7]
    """
    names: set[int] = set()
    for i, token in enumerate(code):
        if token.kind != "name":
            continue
        before = code[i - 1] if i > 0 else None
        after = code[i + 1] if i + 1 < len(code) else None
        if before is not None and before.text in (".", ":"):
            names.add(i)
        elif after is not None and after.text == ":":
            names.add(i)
        elif (before is not None and before.word == "AS" and before.kind == "name"
              and i - 1 not in names and (after is None or after.word in _AFTER_ALIAS)):
            names.add(i)
    return names


def _check_call(code: list[Token], i: int) -> Verdict:
    """CALL must name a procedure on the allowlist; CALL { } subqueries are refused."""
    after = code[i + 1].text if i + 1 < len(code) else ""
    if after in ("{", "("):
        return refuse("CALL { } subqueries are not allowed, because one can hide a write; "
                       "write the query with MATCH and WITH instead.", "CALL { }")
    name = procedure_name(code, i + 1)
    if name is None:
        return refuse("CALL must be followed by the name of a procedure, such as "
                       "algo.SPpaths.", "CALL")
    if name.lower() in _ALLOWED_LOWER:
        return ALLOWED
    return refuse(f"The procedure {name} is not one of the read-only procedures the agent may "
                   f"call ({', '.join(ALLOWED_PROCEDURES)}).", f"CALL {name}")


def _check_clauses(code: list[Token], names: set[int]) -> Verdict:
    """Write clauses, LOAD CSV and CALL, wherever they stand (`names`: `name_positions`)."""
    for i, token in enumerate(code):
        if token.kind != "name":
            continue
        word = token.word
        following = code[i + 1].word if i + 1 < len(code) else ""
        if word == "LOAD" and following == "CSV":  # never a name, whatever stands before it
            return refuse("LOAD CSV would read a file or URL from outside the graph (the "
                           "server's read-only mode allows it); the agent may only read the "
                           "graph itself.", "LOAD CSV")
        if i in names:
            continue
        if word == "DETACH" or word in WRITE_CLAUSES:
            clause = "DETACH DELETE" if word == "DETACH" and following == "DELETE" else word
            return refuse(f"{clause} would change the graph; the agent may only read.", clause)
        if word == "CALL":
            verdict = _check_call(code, i)
            if not verdict:
                return verdict
    return ALLOWED


def _check_statements(code: list[Token]) -> Verdict:
    """One statement only: nothing but further `;` may follow the first `;`."""
    ends = [i for i, token in enumerate(code) if token.text == ";"]
    if ends and any(token.text != ";" for token in code[ends[0]:]):
        return refuse("The text holds more than one statement (something follows the ';'); "
                       "the agent runs exactly one query at a time.", "several statements")
    return ALLOWED


def _is_unbounded(code: list[Token], star: int) -> bool:
    """After `*`: `*`, `*2..` and `*..` have no upper bound; `*3`, `*1..3`, `*..3` do."""
    j = star + 1
    if j < len(code) and code[j].kind == "number":
        j += 1
        if not (j < len(code) and code[j].text == ".."):
            return False  # *3: exactly three hops
    if not (j < len(code) and code[j].text == ".."):
        return True  # a bare *
    return not (j + 1 < len(code) and code[j + 1].kind == "number")


def _stars_in_relationship(code: list[Token], start: int, end: int) -> list[int]:
    """Positions of `*` at the top level of the relationship bracket code[start..end]."""
    inside = code[start + 1:end]
    return [start + 1 + j for j, (token, depth) in enumerate(zip(inside, bracket_depths(inside)))
            if depth == 0 and token.text == "*"]


def _check_paths(code: list[Token], cypher: str) -> Verdict:
    """Variable-length relationships `-[...*...]-` must have an upper bound."""
    for i, token in enumerate(code):
        if token.text != "[" or i == 0 or code[i - 1].text != "-":
            continue
        end = closing_bracket(code, i)
        if any(_is_unbounded(code, star) for star in _stars_in_relationship(code, i, end)):
            pattern = cypher[token.start:code[end].start + len(code[end].text)]
            return refuse(f"The pattern {pattern} has no upper bound, so it could walk the "
                           "whole graph; give it one, such as [*1..3].", pattern)
    return ALLOWED


# --- what the server cannot stop: one expression that builds a huge value -----------------
# FalkorDB checks its time limit between rows and its memory cap as a query allocates, but
# `range(1, 500000000)` allocates its whole list before any check (7 GB, the server killed),
# and a `reduce` that grows a string or list copies it on every step, inside one expression
# that no time limit interrupts (48-96 s for range(1, 200000)). Those two are refused here;
# regular expressions and growing strings are refused by course.pipeline.expressions;
# everything else is bounded by the server (see course.foundation.server.server_limits).
RANGE_BUDGET = 10_000   # the spans of every range() in a query, multiplied together
_SIZE_FUNCTIONS = frozenset({"SIZE", "LENGTH"})  # bounded by the graph's own data


def _literal(arg: list[Token]) -> float | None:
    """The value of an argument written as a plain (signed) number, else None."""
    sign = -1 if arg and arg[0].text == "-" else 1
    rest = arg[1:] if arg and arg[0].text in "+-" else arg
    if len(rest) == 1 and rest[0].kind == "number":
        text = rest[0].text
        return sign * (int(text, 16) if text.lower().startswith("0x") else float(text))
    return None


def _bound(arg: list[Token]) -> float | None:
    """A range() bound: a number written in the query, or `size(...)`/`length(...)` of data
    (counted as RANGE_BUDGET ** 0.5: the graph is small) with at most `+ n` or `- n` after it."""
    value = _literal(arg)
    if value is not None or not arg or arg[0].word not in _SIZE_FUNCTIONS:
        return value
    if len(arg) < 2 or arg[1].text != "(":
        return None
    _, close = call_arguments(arg, 1)
    rest = arg[close + 1:]
    if rest and not (len(rest) == 2 and rest[0].text in "+-" and _literal(rest[1:]) is not None):
        return None
    return RANGE_BUDGET ** 0.5 + (abs(_literal(rest[1:]) or 0) if rest else 0)


def _range_span(args: list[list[Token]]) -> float | None:
    """How many values range(start, end[, step]) makes; None when a bound is not known."""
    values = [_bound(arg) for arg in args]
    if len(values) < 2 or any(v is None for v in values):
        return None
    start, end = values[0] or 0.0, values[1] or 0.0
    step = abs(values[2] or 1) if len(values) > 2 else 1
    return abs(end - start) / step + 1


def _check_expressions(code: list[Token], names: set[int]) -> Verdict:
    """range() within RANGE_BUDGET, with numbers for bounds; no reduce(); no regular expression
    or string growth that one expression could not finish in time (`course.pipeline.expressions`).

    >>> check("UNWIND range(1, 100000000) AS x RETURN count(x)").clause
    'range()'
    """
    product = 1.0
    for i, token in enumerate(code):
        if (token.kind != "name" or i in names or i + 1 >= len(code) or code[i + 1].text != "("
                or (i and code[i - 1].text == ".")):
            continue
        args, _ = call_arguments(code, i + 1)
        if token.word == "RANGE":
            span = _range_span(args)
            if span is None:
                return refuse("range() may only have numbers written in the query as its bounds "
                               "(or the size() of a list), so its length is known before it runs.",
                               "range()")
            product *= span
            if product > RANGE_BUDGET:
                return refuse(f"range() here would make more than {RANGE_BUDGET:,} values; the "
                               "server builds the whole list before any time or memory limit can "
                               "stop it. Ask for fewer.", "range()")
        elif token.word == "REDUCE":
            return refuse("reduce() builds its value step by step inside one expression, which "
                           "no time limit or memory cap can stop (a growing string takes minutes); "
                           "use sum(), collect() or a list comprehension instead.", "reduce()")
    problem = runaway_problem(code)   # regular expressions that backtrack, strings that grow
    return refuse(*problem) if problem else ALLOWED


def _check_readable(tokens: list[Token], code: list[Token]) -> Verdict:
    """Something to run, and every string, comment and backticked name closed."""
    if not code:
        return refuse("The query is empty: there is nothing to run.", "empty query")
    for token in tokens:
        broken = next((i for i, ch in enumerate(token.text) if "\ud800" <= ch <= "\udfff"), None)
        if broken is not None:
            return refuse(f"The query holds a broken character (not valid text) at character "
                           f"{token.start + broken}; write it again in plain text.", "broken text")
    for token in tokens:
        if not token.closed:
            what = {"string": "string", "comment": "comment"}.get(token.kind, "backticked name")
            return refuse(f"The {what} that starts at character {token.start} is never closed, "
                           "so the rest of the query cannot be read; close it.", f"unclosed {what}")
    return ALLOWED


def check(cypher: str) -> Verdict:
    """Decide whether a query is a safe read; a refusal names the clause and says why.

    >>> check("LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row").clause
    'LOAD CSV'
    >>> check("MATCH (c:Club {name: 'Create Your Own'}) RETURN c.name").allowed
    True
    """
    tokens = tokenize(cypher)
    # Comments and stray characters are not code: dropping them joins what they separate,
    # so LOAD/**/CSV is still LOAD CSV.
    code = [t for t in tokens if t.kind not in ("comment", "other")]
    names = name_positions(code)
    checks: list[Callable[[], Verdict]] = [
        lambda: _check_readable(tokens, code),
        lambda: _check_clauses(code, names),
        lambda: _check_statements(code),
        lambda: _check_paths(code, cypher),
        lambda: _check_expressions(code, names),
    ]
    for run_check in checks:
        verdict = run_check()
        if not verdict:
            return verdict
    return ALLOWED
