"""Turn an LLM's raw text into one Cypher statement, and say what was taken away.

Introduced in notebook 04. Models wrap their Cypher in reasoning (`<think>` blocks, closed
or left open), markdown fences, preambles ("Here is the query:"), chat-template tokens and
explanations after the query. `clean` removes each of these and names it in `removed`, so
a notebook (or the agent's log) can show what the model really sent.

>>> clean("<think>\\nNeed Payal's year.\\n</think>\\n```cypher\\nRETURN 1 AS x;\\n```").cypher
'RETURN 1 AS x'

The cleaner only extracts; it never makes a query safer or different. A DELETE stays a
DELETE so the guard (notebook 03) can refuse it by name.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from course.pipeline.cypher_tokens import Token, bracket_depths, tokenize

# Words a query can start with (write clauses too: the guard must see them, not us).
CLAUSE_START = frozenset("""MATCH OPTIONAL CALL WITH RETURN UNWIND CREATE MERGE DELETE DETACH
    SET REMOVE DROP FOREACH LOAD USING EXPLAIN PROFILE""".split())
# Words a later line of a query can start with.
CONTINUE_START = CLAUSE_START | frozenset("""WHERE ORDER SKIP LIMIT YIELD UNION AND OR XOR
    NOT AS ON CASE WHEN THEN ELSE END DESC DESCENDING ASC ASCENDING DISTINCT IN CONTAINS
    STARTS ENDS IS""".split())
# Words after which a query cannot end: the next line must belong to it.
NEEDS_MORE = frozenset("""WHERE AND OR XOR NOT BY AS RETURN WITH MATCH OPTIONAL UNWIND IN
    CONTAINS STARTS ENDS SKIP LIMIT ON CASE WHEN THEN ELSE YIELD DISTINCT CALL CREATE MERGE
    SET DELETE DETACH REMOVE ORDER IS UNION LOAD CSV FROM HEADERS""".split())

_KEYWORDS = "|".join(sorted(CLAUSE_START | {"OPTIONAL MATCH"}, key=len, reverse=True))
_THINK_TAG = r"think|thinking|reasoning"
_CLOSED_THINK = re.compile(rf"<({_THINK_TAG})>.*?</(?:{_THINK_TAG})>", re.DOTALL | re.IGNORECASE)
_OPEN_THINK = re.compile(rf"<({_THINK_TAG})>", re.IGNORECASE)
_CLOSE_THINK = re.compile(rf"</({_THINK_TAG})>", re.IGNORECASE)
_CHAT_TOKENS = re.compile(
    r"<\|im_start\|>[ \t]*(?:system|user|assistant)?|<\|start_header_id\|>\s*\w*\s*"
    r"<\|end_header_id\|>|<\|[A-Za-z_]+\|>|\[/?INST\]|<</?SYS>>|</?s>"
    r"|<start_of_turn>[ \t]*(?:model|user)?|<end_of_turn>")
_TAG = re.compile(r"<[^>]*>+|\[/?INST\]")
_FENCE_LINE = re.compile(r"^\s*[`~]{3,}\s*([A-Za-z][\w+-]*)?\s*$")
# Three backticks or tildes are never Cypher: each run goes on a line of its own, with the
# language tag that follows it (```cypher MATCH ... -> ```cypher / MATCH ...).
_FENCE_RUN = re.compile(
    rf"[ \t]*([`~]{{3,}})(?:(?!(?:{_KEYWORDS})\b)([A-Za-z][\w+-]*)(?=\s))?[ \t]*", re.IGNORECASE)
_SAME_LINE_PREAMBLE = re.compile(
    rf"^(?P<pre>[^(){{}}\[\]`\"=<>$|]{{1,80}}?[:!])[ \t]*(?P<rest>(?:{_KEYWORDS})\b.*)$")
_INLINE_CODE = re.compile(rf"^`((?:{_KEYWORDS})\b[^`]*)`$", re.IGNORECASE | re.DOTALL)
_FIRST_WORD = re.compile(r"^\s*([^\W\d]\w*)")
_CODE_PUNCTUATION = set("(){}[]'\"=<>$")
_CONTINUE_PUNCTUATION = set("()[]{},.-<>=+*/|'\"$`%^")
_OPENERS = ("'", '"', "`", "/*")   # what starts a string, a backticked name or a block comment


@dataclass
class Cleaned:
    """The Cypher (or "" when none was found) and what was removed, in words.

    >>> clean("Cypher: MATCH (s:Student) RETURN s.name").removed
    ['a preamble ("Cypher:")']
    """

    cypher: str
    removed: list[str] = field(default_factory=list)


def _lines(count: int) -> str:
    return f"{count} line" + ("" if count == 1 else "s")


def _line_count(text: str) -> int:
    return len([line for line in text.split("\n") if line.strip()])


# --- line by line: where does the query start and end? ---------------------------------

def _first_word(line: str) -> str:
    """The line's first word, NFKC-normalised so that ＭＡＴＣＨ reads as MATCH."""
    match = _FIRST_WORD.match(line)
    return unicodedata.normalize("NFKC", match.group(1)) if match else ""


def _is_sentence(line: str) -> bool:
    """Prose ends like a sentence; no Cypher line ends with . ? ! or : (outside a string)."""
    if any(mark in line for mark in _OPENERS):   # only these can leave a token open
        tokens = tokenize(line)
        if tokens and not tokens[-1].closed:
            return False  # the line ends inside a string that goes on
    return line.rstrip().rstrip(";").rstrip().endswith((".", "?", "!", ":", "…"))


def _starts_block(line: str) -> bool:
    """A line that opens a query: `MATCH (s:Student)`, not "Match the student by name"."""
    word = _first_word(line)
    if word.upper() not in CLAUSE_START or _is_sentence(line):
        return False
    return word.isupper() or any(ch in _CODE_PUNCTUATION for ch in line)


class _Block:
    """A query block as it grows line by line, each line read once (not the block again).

    After a token that is closed, a new line's tokens are the same whether the line is read
    alone or after the block (a newline separates tokens); after a string or comment left
    open, the block is read again from the top, since that token runs on into the line.
    """

    def __init__(self, line: str):
        self.text, self.tokens = line, tokenize(line)
        self.depth = _depth(self.tokens)

    def grow(self, lines: list[str]) -> None:
        """Add lines (blank ones too) at the end of the block."""
        added = "\n".join(lines)
        self.text += "\n" + added
        if self.tokens and not self.tokens[-1].closed:
            self.tokens = tokenize(self.text)
            self.depth = _depth(self.tokens)
        else:
            new = tokenize(added)
            self.tokens += new
            self.depth += _depth(new)

    def state(self) -> tuple[int, bool, str]:
        """Bracket depth, whether a string/comment is left open, and the last code token."""
        last = next((t.word for t in reversed(self.tokens) if t.kind != "comment"), "")
        return self.depth, bool(self.tokens) and not self.tokens[-1].closed, last


def _depth(tokens: list[Token]) -> int:
    """How many brackets the tokens leave open (comments are not code)."""
    code = [token for token in tokens if token.kind != "comment"]
    return bracket_depths(code)[-1] if code else 0


def _continues(block: _Block, line: str) -> bool:
    """Does `line` belong to the query `block` that precedes it?"""
    depth, open_token, last = block.state()
    if depth > 0 or open_token or last in NEEDS_MORE or (last and last[-1] in ",=<>+-*/%|.:"):
        return True
    stripped = line.strip()
    if _FENCE_LINE.match(line) or _is_sentence(line):
        return False
    if stripped[:1] in _CONTINUE_PUNCTUATION:
        return True
    word = _first_word(line)
    return word.upper() in CONTINUE_START and (word.isupper() or any(
        ch in _CODE_PUNCTUATION for ch in line))


def _block_end(lines: list[str], start: int) -> int:
    """Index after the last line of the query that starts at `start`."""
    end = start + 1
    i = start + 1
    block = _Block(lines[start])
    while i < len(lines):
        if lines[i].strip():
            if not _continues(block, lines[i]):
                break
            block.grow(lines[end:i + 1])
            end = i + 1
        else:
            depth, open_token, _ = block.state()
            if depth <= 0 and not open_token:
                following = next((line for line in lines[i:] if line.strip()), "")
                if not (_starts_block(following) or _continues(block, following)):
                    break  # a blank line, then something that is not the query
        i += 1
    return end


def _blocks(lines: list[str]) -> list[tuple[int, int]]:
    """Every query in the text, as (first line, line after the last)."""
    return list(_blocks_of(tuple(lines)))


# The passes of one clean() look at the same lines more than once (the fence, then the
# query inside it): they share what was found. clean() forgets it all before each reply.
@lru_cache(maxsize=32)
def _blocks_of(lines: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    found, i = [], 0
    while i < len(lines):
        if _starts_block(lines[i]):
            end = _block_end(list(lines), i)
            found.append((i, end))
            i = end
        else:
            i += 1
    return tuple(found)


# --- the wrappers, outside in ------------------------------------------------------------

def _strip_chat_tokens(text: str, removed: list[str]) -> str:
    """`<|im_start|>assistant`, `<|eot_id|>`, `[/INST]` ... are the chat template's."""
    found = [tag.group() for m in _CHAT_TOKENS.finditer(text) if (tag := _TAG.match(m.group()))]
    if found:
        names = ", ".join(dict.fromkeys(found))
        removed.append(f"chat-template tokens ({names})")
    return _CHAT_TOKENS.sub("\n", text)


def _strip_closed_think(text: str, removed: list[str]) -> str:
    """`<think>...</think>` blocks, and a closing tag whose opening one is missing."""
    for match in _CLOSED_THINK.finditer(text):
        tag = match.group(1).lower()
        removed.append(f"a <{tag}> block ({_lines(_line_count(match.group()))})")
    text = _CLOSED_THINK.sub("\n", text)
    while (orphan := _CLOSE_THINK.search(text)) and not _OPEN_THINK.search(text[:orphan.start()]):
        reasoning = text[:orphan.end()]
        removed.append(f"a <{orphan.group(1).lower()}> block without its opening tag "
                       f"({_lines(_line_count(reasoning))})")
        text = text[orphan.end():]
    return text


def _strip_open_think(text: str, removed: list[str]) -> str:
    """An unclosed `<think>`: the query is before it, or else the last one after it."""
    while _OPEN_THINK.search(text):
        text = _strip_one_open_think(text, removed)
    return text


def _strip_one_open_think(text: str, removed: list[str]) -> str:
    """Handle the first unclosed `<think>` (there may be more)."""
    match = _OPEN_THINK.search(text)
    if match is None:
        return text
    tag = match.group(1).lower()
    before, after = text[:match.start()], text[match.end():]
    if _blocks(before.split("\n")):
        removed.append(f"an unclosed <{tag}> block after the query "
                       f"({_lines(_line_count(text[match.start():]))})")
        return before
    lines = after.split("\n")
    found = _blocks(lines)
    start = found[-1][0] if found else len(lines)
    reasoning = text[match.start():match.end()] + "\n".join(lines[:start])
    removed.append(f"an unclosed <{tag}> block ({_lines(_line_count(reasoning))})")
    return "\n".join(lines[start:])


def _describe_outside(before: list[str], after: list[str], removed: list[str]) -> None:
    """Name the text before the query (a preamble) and after it (prose)."""
    before = [line.strip() for line in before if line.strip()]
    after = [line for line in after if line.strip()]
    if len(before) == 1:
        shown = before[0] if len(before[0]) <= 40 else before[0][:37] + "..."
        removed.append(f'a preamble ("{shown}")')
    elif before:
        removed.append(f"a preamble ({_lines(len(before))})")
    if after:
        removed.append(f"prose after the query ({_lines(len(after))})")


def _unfence(text: str, removed: list[str]) -> str:
    """Keep the inside of the first markdown fence that holds a query."""
    text = _FENCE_RUN.sub(lambda m: f"\n{m.group(1)}{m.group(2) or ''}\n", text)
    lines = text.split("\n")
    marks = [i for i, line in enumerate(lines) if _FENCE_LINE.match(line)]
    if not marks:
        return text
    pairs = list(zip(marks[::2], marks[1::2] + [len(lines)]))
    chosen = next(((a, b) for a, b in pairs if _blocks(lines[a + 1:b])), None)
    if chosen is None:  # fences around no query: drop the fence lines, keep the rest
        removed.append("markdown fence lines")
        return "\n".join(line for i, line in enumerate(lines) if i not in marks)
    first, last = chosen
    fence = _FENCE_LINE.match(lines[first])
    language = fence.group(1) if fence else None
    removed.append(f"a ```{language} fence" if language else "a ``` fence")
    _describe_outside(lines[:first], [ln for ln in lines[last + 1:] if not _FENCE_LINE.match(ln)],
                      removed)
    return "\n".join(lines[first + 1:last])


def _split_preamble(lines: list[str]) -> list[str]:
    """"Here is the query: MATCH ..." on one line becomes two lines."""
    for i, line in enumerate(lines):
        if _starts_block(line):
            return lines
        match = _SAME_LINE_PREAMBLE.match(line.strip())
        if match and _starts_block(match.group("rest")):
            return lines[:i] + [match.group("pre"), match.group("rest")] + lines[i + 1:]
    return lines


def _extract(text: str, removed: list[str]) -> str:
    """The first query in the text; what stands before and after it is named and dropped."""
    lines = _split_preamble(text.split("\n"))
    found = _blocks(lines)
    if not found:
        if text.strip():
            removed.append(f"all of the text: no Cypher clause found ({_lines(_line_count(text))})")
        return ""
    start, end = found[0]
    _describe_outside(lines[:start], lines[end:], removed)
    return "\n".join(lines[start:end]).strip()


def _strip_semicolons(cypher: str, removed: list[str]) -> str:
    stripped = cypher.rstrip().rstrip(";").rstrip()
    if stripped != cypher.rstrip():
        removed.append("a trailing ;")
    return stripped


def clean(raw: str) -> Cleaned:
    """Extract the one Cypher statement from a model's raw text.

    >>> clean("Sure! Here is the query:\\n```\\nMATCH (s:Student) RETURN s.name\\n```").removed
    ['a ``` fence', 'a preamble ("Sure! Here is the query:")']
    >>> clean("RETURN 'OUT_OF_SCOPE' AS status").cypher
    "RETURN 'OUT_OF_SCOPE' AS status"
    >>> clean("I cannot answer that.").cypher
    ''
    """
    removed: list[str] = []
    _blocks_of.cache_clear()   # each reply is read afresh
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    text = _strip_chat_tokens(text, removed)
    text = _strip_closed_think(text, removed)
    text = _strip_open_think(text, removed)
    text = _unfence(text, removed)
    inline = _INLINE_CODE.match(text.strip())
    if inline:
        removed.append("inline `code` backticks")
        text = inline.group(1)
    cypher = _extract(text, removed)
    return Cleaned(_strip_semicolons(cypher, removed), removed)


def naive_clean(raw: str) -> str:
    """The course text's `_clean_cypher`, as written there, kept for notebook 04's comparison.

    >>> naive_clean("MATCH (s:Student) RETURN s.name\\n\\nThis lists the students.")
    'MATCH (s:Student) RETURN s.name\\n\\nThis lists the students.'
    """
    raw = raw.strip()
    raw = re.sub(r"<think>.*?</think>", "", raw, flags=re.DOTALL)
    raw = re.sub(r"</?think>", "", raw)
    raw = re.sub(r"```(?:cypher)?", "", raw)
    raw = raw.replace("```", "")
    lines = raw.strip().split("\n")
    start = 0
    for i, line in enumerate(lines):
        if line.strip().upper().startswith(("MATCH", "CALL", "WITH", "OPTIONAL", "RETURN")):
            start = i
            break
    cypher = "\n".join(lines[start:]).strip()
    return cypher.rstrip(";").strip()
