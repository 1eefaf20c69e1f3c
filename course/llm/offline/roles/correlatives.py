"""Hindi's relative clause and its correlative, asked as two asks: "Asha ke jo dost Python
jaante hain, wo kaunse clubs mein hain?" asks which friends first, then their clubs.

Introduced in notebook 12, with the query updater (`course.llm.offline.roles.updater`).
"""
from __future__ import annotations

import re

from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.kinds import last_kind

# Hindi's relative and its correlative: "jo <clause>, wo <ask>" ("the ones that ..., those ...")
# ("jis project pe ..., uske liye ...": the one that ..., for it)
_CORRELATIVE = re.compile(r"(?i)^(?P<before>(?:[^,?]*\s)?)(?P<which>jo|jis|jin)\s+(?P<clause>[^,?]+?)"
                          r"(?P<comma>,)?\s+(?:to\s+)?(?P<those>wo|woh|vo|ve|unhe|unko|unka|unki|unke|usko|uska|uski|uske)\s+"
                          r"(?P<ask>[^?]+\?)\s*$")
_ASKING = {"jo": "kaunse", "jis": "kis", "jin": "kin"}     # the relative's question word


def correlative_as_two_asks(question: str) -> str:
    """"Indexing se pehle jo topics padhne hain, wo kaunse subjects mein hain?": the relative
    clause asks first what it describes ("which topics ..."), the correlative asks of those.

    >>> correlative_as_two_asks("Asha ke jo dost Python jaante hain, wo kaunse clubs mein hain?")
    'Asha ke kaunse dost Python jaante hain? wo kaunse clubs mein hain?'
    >>> correlative_as_two_asks("Asha jis project pe kaam karti uske liye kya chahiye?")
    'Asha kis project pe kaam karti? us project ke liye kya chahiye?'
    >>> correlative_as_two_asks("jo bhi ho, kya X ka exam hai?")
    'jo bhi ho, kya X ka exam hai?'
    """
    m = _CORRELATIVE.match(question.strip())
    if m is None or m["clause"].split()[0].lower() in {"bhi", "ki", "kuch"} or \
            re.search(r"\b(?:kya|kaun|kaunse|kaunsa|kaunsi|kitne|kitni|kab|kahan)\b", m["clause"], re.I):
        return question
    kind = last_kind(m["clause"])
    if not m["comma"] and (kind is None or kind[1].endswith("s")):
        return question     # "X ko jo skills chahiye woh kis kis ke paas hai?": one chain, one query
    return f"{m['before']}{_ASKING[m['which'].lower()]} {m['clause'].strip()}? {_those(m)} {m['ask']}"


def _those(m: re.Match[str]) -> str:
    """The correlative with the thing the relative clause named ("jis project ..., uske liye":
    "us project ke liye"), so that it points at what that clause finds, not at a person."""
    kind, those = last_kind(m["clause"]), m["those"].lower()     # (said without a comma: one thing)
    if kind is None or kind[0] == default_lexicon().person:
        return m["those"]
    if those.startswith("us"):
        return f"us {kind[1]} {those[2:]}"
    return f"woh {kind[1]}" if those in ("wo", "woh", "vo") else m["those"]
