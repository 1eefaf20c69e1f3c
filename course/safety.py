"""The read-only guard: read the query as tokens, refuse anything that is not a safe read.

Introduced in notebook 03. The course text's check looked for words in the upper-cased
text, which fails both ways: it refuses `p.created_at` and `'Create Your Own'`, and lets
`SET\\t`, `LOAD CSV` and `[*]` through. This guard reads the query the way FalkorDB does:
strings, comments, backticked names and property names are not keywords.

Strings, comments and brackets are read from the raw text, exactly as the server reads
them; only names are compared after NFKC normalisation (so `ＤＥＬＥＴＥ` reads as DELETE).
Normalising the whole text first would let a look-alike such as `﹨` (which NFKC turns
into a backslash) hide the end of a string from the guard but not from the server.

The guard is the first layer. `run_guarded(db, cypher)` is the one door for Cypher that a
model wrote (the agent, evaluation, the tool loop): the guard; then `explain_check`, FalkorDB's
own plan of the query (nothing runs) with every CALLed procedure looked up in the server's
own READ/WRITE list; then `Database.run`, which reads with `ro_query`, a time limit and a row
cap, on a server whose own limits (course.db.server_limits) bound time, memory and rows. A
write that only the server's read-only mode caught is still `UnsafeQuery`, in the course's words.

>>> check("MATCH (n) DETACH DELETE n").reason
'DETACH DELETE would change the graph; the agent may only read.'
>>> check("MATCH (p:Project) RETURN p.created_at").allowed
True
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from .db import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT_MS, Database, Rows
from .errors import CourseError, QueryFailed, UnsafeQuery

# Read-only procedures the course uses; matched without regard to case, as FalkorDB does.
ALLOWED_PROCEDURES: tuple[str, ...] = (
    "algo.SPpaths", "algo.SSpaths", "algo.BFS",
    "db.labels", "db.relationshipTypes", "db.propertyKeys", "db.indexes",
    "db.idx.fulltext.queryNodes", "db.idx.fulltext.queryRelationships",
)
_ALLOWED_LOWER = {name.lower(): name for name in ALLOWED_PROCEDURES}

WRITE_CLAUSES = frozenset({"CREATE", "MERGE", "DELETE", "SET", "REMOVE", "DROP", "FOREACH"})
# Plan operations that change the graph or read from outside it (see `explain_check`).
# Each operation name -> what the learner wrote to get it.
WRITE_OPERATIONS = {"Create": "CREATE", "Delete": "DELETE", "Update": "SET or REMOVE",
                    "Merge": "MERGE", "MergeCreate": "MERGE", "Foreach": "FOREACH",
                    "Load CSV": "LOAD CSV"}

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


def _refuse(reason: str, clause: str | None) -> Verdict:
    return Verdict(False, reason, clause)


# --- the lexer -------------------------------------------------------------------------

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


# --- the checks ------------------------------------------------------------------------

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


def _procedure_name(code: list[Token], j: int) -> str | None:
    """The dotted name starting at `j` (`db.idx.fulltext.queryNodes`), or None."""
    parts: list[str] = []
    while j < len(code) and code[j].kind in ("name", "quoted_name"):
        parts.append(code[j].text.strip("`"))
        if j + 1 < len(code) and code[j + 1].text == ".":
            j += 2
        else:
            break
    return ".".join(parts) or None


def _check_call(code: list[Token], i: int) -> Verdict:
    """CALL must name a procedure on the allowlist; CALL { } subqueries are refused."""
    after = code[i + 1].text if i + 1 < len(code) else ""
    if after in ("{", "("):
        return _refuse("CALL { } subqueries are not allowed, because one can hide a write; "
                       "write the query with MATCH and WITH instead.", "CALL { }")
    name = _procedure_name(code, i + 1)
    if name is None:
        return _refuse("CALL must be followed by the name of a procedure, such as "
                       "algo.SPpaths.", "CALL")
    if name.lower() in _ALLOWED_LOWER:
        return ALLOWED
    return _refuse(f"The procedure {name} is not one of the read-only procedures the agent may "
                   f"call ({', '.join(ALLOWED_PROCEDURES)}).", f"CALL {name}")


def _check_clauses(code: list[Token], names: set[int]) -> Verdict:
    """Write clauses, LOAD CSV and CALL, wherever they stand (`names`: `name_positions`)."""
    for i, token in enumerate(code):
        if token.kind != "name":
            continue
        word = token.word
        following = code[i + 1].word if i + 1 < len(code) else ""
        if word == "LOAD" and following == "CSV":  # never a name, whatever stands before it
            return _refuse("LOAD CSV would read a file or URL from outside the graph (the "
                           "server's read-only mode allows it); the agent may only read the "
                           "graph itself.", "LOAD CSV")
        if i in names:
            continue
        if word == "DETACH" or word in WRITE_CLAUSES:
            clause = "DETACH DELETE" if word == "DETACH" and following == "DELETE" else word
            return _refuse(f"{clause} would change the graph; the agent may only read.", clause)
        if word == "CALL":
            verdict = _check_call(code, i)
            if not verdict:
                return verdict
    return ALLOWED


def _check_statements(code: list[Token]) -> Verdict:
    """One statement only: nothing but further `;` may follow the first `;`."""
    ends = [i for i, token in enumerate(code) if token.text == ";"]
    if ends and any(token.text != ";" for token in code[ends[0]:]):
        return _refuse("The text holds more than one statement (something follows the ';'); "
                       "the agent runs exactly one query at a time.", "several statements")
    return ALLOWED


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


def _closing_bracket(code: list[Token], i: int) -> int:
    """Index of the `]` that closes the `[` at `i` (or the end)."""
    depths = bracket_depths(code[i:])
    return next((i + j for j, depth in enumerate(depths) if depth == 0), len(code) - 1)


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
        end = _closing_bracket(code, i)
        if any(_is_unbounded(code, star) for star in _stars_in_relationship(code, i, end)):
            pattern = cypher[token.start:code[end].start + len(code[end].text)]
            return _refuse(f"The pattern {pattern} has no upper bound, so it could walk the "
                           "whole graph; give it one, such as [*1..3].", pattern)
    return ALLOWED


# --- what the server cannot stop: one expression that builds a huge value -----------------
# FalkorDB checks its time limit between rows and its memory cap as a query allocates, but
# `range(1, 500000000)` allocates its whole list before any check (7 GB, the server killed),
# and a `reduce` that grows a string or list copies it on every step, inside one expression
# that no time limit interrupts (48-96 s for range(1, 200000)). Those two are refused here;
# everything else is bounded by the server (see course.db.server_limits).
RANGE_BUDGET = 10_000   # the spans of every range() in a query, multiplied together
_SIZE_FUNCTIONS = frozenset({"SIZE", "LENGTH"})  # bounded by the graph's own data


def _call_arguments(code: list[Token], open_paren: int) -> tuple[list[list[Token]], int]:
    """The comma-separated arguments of the call whose `(` is at `open_paren`, and its `)`."""
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
    _, close = _call_arguments(arg, 1)
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
    """range() within RANGE_BUDGET, with numbers for bounds; no reduce().

    >>> check("UNWIND range(1, 100000000) AS x RETURN count(x)").clause
    'range()'
    """
    product = 1.0
    for i, token in enumerate(code):
        if (token.kind != "name" or i in names or i + 1 >= len(code) or code[i + 1].text != "("
                or (i and code[i - 1].text == ".")):
            continue
        args, _ = _call_arguments(code, i + 1)
        if token.word == "RANGE":
            span = _range_span(args)
            if span is None:
                return _refuse("range() may only have numbers written in the query as its bounds "
                               f"(or the size() of a list), so its length is known before it runs.",
                               "range()")
            product *= span
            if product > RANGE_BUDGET:
                return _refuse(f"range() here would make more than {RANGE_BUDGET:,} values; the "
                               "server builds the whole list before any time or memory limit can "
                               "stop it. Ask for fewer.", "range()")
        elif token.word == "REDUCE":
            return _refuse("reduce() builds its value step by step inside one expression, which "
                           "no time limit or memory cap can stop (a growing string takes minutes); "
                           "use sum(), collect() or a list comprehension instead.", "reduce()")
    return ALLOWED


def _check_readable(tokens: list[Token], code: list[Token]) -> Verdict:
    """Something to run, and every string, comment and backticked name closed."""
    if not code:
        return _refuse("The query is empty: there is nothing to run.", "empty query")
    for token in tokens:
        broken = next((i for i, ch in enumerate(token.text) if "\ud800" <= ch <= "\udfff"), None)
        if broken is not None:
            return _refuse(f"The query holds a broken character (not valid text) at character "
                           f"{token.start + broken}; write it again in plain text.", "broken text")
    for token in tokens:
        if not token.closed:
            what = {"string": "string", "comment": "comment"}.get(token.kind, "backticked name")
            return _refuse(f"The {what} that starts at character {token.start} is never closed, "
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


def ensure_safe(cypher: str) -> None:
    """Raise UnsafeQuery unless `check` allows the query.

    >>> ensure_safe("MATCH (s:Student) RETURN s.name")
    """
    verdict = check(cypher)
    if not verdict:
        raise UnsafeQuery(verdict.reason or "The query was refused.", clause=verdict.clause)


def run_guarded(db: Database, cypher: str, params: dict[str, Any] | None = None, *,
                timeout_ms: int = DEFAULT_TIMEOUT_MS, max_rows: int = DEFAULT_MAX_ROWS) -> Rows:
    """The door for model-written Cypher: the guard, FalkorDB's plan, then the read-only executor.

    Raises UnsafeQuery (nothing ran: the guard or the plan refused it, or the server's
    read-only mode did) or the executor's QueryFailed.

    >>> run_guarded(db, "MATCH (s:Student) RETURN count(s)").rows
    [[5]]
    >>> run_guarded(db, "MATCH (n) DETACH DELETE n")
    Traceback (most recent call last):
    course.errors.UnsafeQuery: DETACH DELETE would change the graph; the agent may only read.
    """
    ensure_safe(cypher)
    verdict = explain_check(db, cypher, params)
    if not verdict:
        raise UnsafeQuery(verdict.reason or "The query was refused.", clause=verdict.clause)
    return read_only(db, cypher, params, timeout_ms=timeout_ms, max_rows=max_rows)


SERVER_REFUSED_WRITE = ("FalkorDB's read-only mode refused this query because it would change "
                        "the graph; the agent may only read.")


def read_only(db: Database, cypher: str, params: dict[str, Any] | None = None, *,
              timeout_ms: int = DEFAULT_TIMEOUT_MS, max_rows: int = DEFAULT_MAX_ROWS) -> Rows:
    """`Database.run`, with the server's refusal of a write raised as UnsafeQuery in the course's words.

    >>> read_only(db, "MATCH (s:Student) SET s.year = 9")
    Traceback (most recent call last):
    course.errors.UnsafeQuery: FalkorDB's read-only mode refused this query because it would change the graph; the agent may only read.
    """
    try:
        return db.run(cypher, params, timeout_ms=timeout_ms, max_rows=max_rows)
    except QueryFailed as exc:
        if "read-only queries" in exc.server_message:  # graph.RO_QUERY is to be executed only on ...
            raise UnsafeQuery(SERVER_REFUSED_WRITE, clause="write") from None
        raise


# --- the second opinion: FalkorDB's own parser -----------------------------------------

def _operation(line: str) -> str:
    """`'    Conditional Traverse | (n)->(m)'` -> `'Conditional Traverse'`."""
    return line.strip().split(" | ")[0].strip()


_MODES: dict[tuple[str, str], dict[str, str]] = {}   # (server, graph) -> procedure -> READ/WRITE


def procedure_modes(db: Database) -> dict[str, str]:
    """Each procedure the server has (lower-cased name) -> its mode, READ or WRITE; cached per database.

    >>> procedure_modes(db)["db.idx.fulltext.drop"]
    'WRITE'
    """
    key = (db.location, db.graph_name)
    if key not in _MODES:
        rows = db.run("CALL dbms.procedures() YIELD name, mode RETURN name, mode", max_rows=10_000).rows
        _MODES[key] = {str(name).lower(): str(mode).upper() for name, mode in rows}
    return _MODES[key]


def called_procedures(cypher: str) -> list[str]:
    """The procedures a query CALLs, by the guard's reading of it.

    >>> called_procedures("WITH 1 AS as CALL db.idx.fulltext.drop('Student')")
    ['db.idx.fulltext.drop']
    """
    code = [t for t in tokenize(cypher) if t.kind not in ("comment", "other")]
    found = []
    for i, token in enumerate(code):
        if token.kind == "name" and token.word == "CALL":
            name = _procedure_name(code, i + 1)
            if name:
                found.append(name)
    return found


def _check_procedures(db: Database, cypher: str) -> Verdict:
    """Every CALLed procedure must be one the server itself says only reads."""
    modes = procedure_modes(db)
    for name in called_procedures(cypher):
        mode = modes.get(name.lower())
        if mode != "READ":
            what = "is not a procedure this server has" if mode is None else "writes to the graph"
            return _refuse(f"FalkorDB says the procedure {name} {what}; the agent may only read.",
                           f"CALL {name}")
    return ALLOWED


def explain_check(db: "Database", cypher: str, params: dict[str, Any] | None = None) -> Verdict:
    """Ask FalkorDB for the plan (nothing runs) and refuse plans that would write.

    A plan shows a procedure only as `ProcedureCall`, so each CALLed procedure is looked up
    in the server's own list (`dbms.procedures()`, READ or WRITE). A syntax error is the
    server's own: it raises QueryFailed with its message.

    >>> explain_check(db, "MATCH (n) DETACH DELETE n").clause
    'Delete'
    >>> explain_check(db, "CALL db.idx.fulltext.drop('Student')").clause
    'CALL db.idx.fulltext.drop'
    """
    try:
        plan = db.explain(cypher, params)
    except CourseError:
        raise
    except Exception as exc:  # falkordb cannot read the reply of a schema command
        if "plan must be an array" in str(exc):
            return _refuse("FalkorDB reads this as a schema command (an index or a "
                           "constraint), which would change the graph.", "schema command")
        raise
    for line in plan:
        verdict = _check_plan_line(line)
        if not verdict:
            return verdict
    if any(_operation(line) == "ProcedureCall" for line in plan):
        return _check_procedures(db, cypher)
    return ALLOWED


def _check_plan_line(line: str) -> Verdict:
    """One operation of a plan: no write, no Load CSV, no path without an upper bound."""
    operation = _operation(line)
    if operation == "Load CSV":
        return _refuse("FalkorDB's plan for this query has a Load CSV step, which reads "
                       "from outside the graph; the agent may only read the graph itself.",
                       operation)
    if operation in WRITE_OPERATIONS:
        article = "an" if operation[0] in "AEIOU" else "a"
        return _refuse(f"FalkorDB's plan for this query has {article} {operation} step "
                       f"({WRITE_OPERATIONS[operation]}), which would change the graph; "
                       "the agent may only read.", operation)
    if "..INF]" in line:
        return _refuse(f"FalkorDB's plan walks a path with no upper bound ({line.strip()}); "
                       "give the pattern one, such as [*1..3].", operation)
    return ALLOWED


# --- the course text's check, kept for notebook 03's comparison -------------------------

def naive_is_safe(cypher: str) -> tuple[bool, str | None]:
    """The course text's keyword-list check, as written there: substring search.

    >>> naive_is_safe("MATCH (p:Project) RETURN p.created_at")
    (False, 'Write operation detected: CREATE')
    >>> naive_is_safe("MATCH (n) SET\\tn.x = 1")
    (True, None)
    """
    forbidden = ["CREATE", "DELETE", "SET ", "MERGE", "REMOVE", "DROP"]
    upper = cypher.upper()
    for word in forbidden:
        if word in upper:
            return False, f"Write operation detected: {word.strip()}"
    return True, None
