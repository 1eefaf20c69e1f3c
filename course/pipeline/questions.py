"""What may be asked: a question is checked before anything reads it.

Introduced in notebook 05 (the agent's first step). Empty, too long, binary or not text at all:
each is one sentence that says what to do, and the agent, the web app, the MCP server and note
search all use the same check.

>>> check_question("  Who is Payal?  ")
'Who is Payal?'
>>> check_question("")
Traceback (most recent call last):
  ...
course.foundation.errors.InvalidInput: The question is empty: ask something about the college graph, e.g. "Who is Payal?".
"""
from __future__ import annotations

import unicodedata
from typing import Any

from course.foundation.errors import InvalidInput

MAX_QUESTION_CHARS = 2_000


def check_question(question: Any) -> str:
    """The question, trimmed; a clear InvalidInput for what cannot be asked."""
    if isinstance(question, bytes):
        try:
            question = question.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput("The question is not text (it is binary data): type it as words.") from None
    if not isinstance(question, str):
        raise InvalidInput(f"The question must be text, not {type(question).__name__}.")
    if any("\ud800" <= ch <= "\udfff" for ch in question):  # undecodable bytes from a terminal
        raise InvalidInput("The question is not valid UTF-8 text (it holds binary data): "
                           "type it as plain text.")
    # NFKC: fullwidth "Ｐａｙａｌ" reads as "Payal", as the guard reads ＤＥＬＥＴＥ as DELETE.
    cleaned = unicodedata.normalize("NFKC", "".join(
        ch for ch in question if ch.isprintable() or ch in "\n\t")).strip()
    if not cleaned:
        raise InvalidInput("The question is empty: ask something about the college graph, "
                           "e.g. \"Who is Payal?\".")
    if len(cleaned) > MAX_QUESTION_CHARS:
        raise InvalidInput(f"The question is {len(cleaned):,} characters long; the limit is "
                           f"{MAX_QUESTION_CHARS:,}. Ask one short question at a time.")
    if "\x00" in question or sum(not ch.isprintable() and ch not in "\n\t" for ch in question) > 3:
        raise InvalidInput("The question contains control characters or binary data: "
                           "type it as plain text.")
    return cleaned
