"""Which note mentions a word: "Which note mentions Dijkstra?", "Which topic's note uses the
knapsack problem as an example?". Introduced in notebook 13, beside the note search.

Such a question asks for a note by the words in its text, not for what the words mean. The
nearest note in meaning is no answer to it, and no note explaining the word is needed: the
note on routing names Dijkstra's algorithm in passing, and that is the note asked for. So the
search reads the term and keeps the notes whose text holds every word of it.

>>> mentioned_term("Which note mentions Dijkstra?")
'Dijkstra'
>>> mentioned_term("Which topic's note uses the knapsack problem as an example?")
'the knapsack problem'
>>> mentioned_term("What is Dijkstra's algorithm?") is None, mentioned_term("Which topic talks about thrashing?")
(True, 'thrashing')
>>> holds("as in the 0/1 knapsack or longest common subsequence problems", "the knapsack problem")
True
"""
from __future__ import annotations

import re

from course.foundation.db import Database

# "which note ...", "which topic's note ...", "in which note ..." and a verb of mentioning
_ASKS = re.compile(r"^\s*(?:in\s+)?(?:which|what)\s+(?:\w+(?:'s)?\s+)?notes?\b[^?.!]*?"
                   r"\b(?:mentions?|mentioned|talks?\s+about|refers?\s+to|uses?|used|brings?\s+up|names?)\s+"
                   r"(?P<term>.+?)\s*(?:as\s+(?:an?\s+)?examples?)?\s*[?.!]*$"
                   # "which topic talks about thrashing?": the topic whose note does
                   r"|^\s*(?:which|what)\s+(?:topic|concept)s?\s+"
                   r"(?:mentions?|talks?\s+about|refers?\s+to|brings?\s+up)\s+"
                   r"(?P<topics>.+?)\s*[?.!]*$", re.I)
_LITTLE = {"the", "a", "an", "of", "in", "on", "for", "to", "and", "or"}
NOTE_TEXTS = "MATCH (n:Note) RETURN n.id, n.text ORDER BY n.id"


def mentioned_term(question: str) -> str | None:
    """The words a question asks a note to mention, or None for any other question."""
    found = _ASKS.match(question.strip())
    return (found["term"] or found["topics"]).strip() if found else None


def holds(text: str, term: str) -> bool:
    """Does the text hold every word of the term (a plural's "s", a possessive's "'s" aside)?"""
    said = {w.rstrip("s") for w in re.findall(r"[a-z0-9+#]+", text.lower().replace("'s", ""))}
    words = [w.rstrip("s") for w in re.findall(r"[a-z0-9+#]+", term.lower().replace("'s", ""))
             if w not in _LITTLE]
    return bool(words) and all(w in said for w in words)


def notes_mentioning(db: Database, term: str) -> list[str]:
    """The ids of the notes whose text holds the term, in id order."""
    rows = db.run(NOTE_TEXTS, max_rows=10**6).rows     # every note, past the row cap of an answer
    return [str(note) for note, text in rows if holds(str(text), term)]
