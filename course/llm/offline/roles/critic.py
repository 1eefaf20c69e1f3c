"""The offline answer critic: complete when every part found something and every value was used.

Introduced in notebook 12. A part that found nothing is missing; so is a value the question
names that no part used or found ("best at DBMS and DSA" answered for DBMS alone asks for
DSA); a part whose query does not follow a link its words name ("Aarav's friends" needs a
friend link: `course.llm.offline.chain`) is not grounded, so it is asked again, and said
unanswered when no tool follows it. Rules, not a model: see `course.llm.offline.roles.words`.

>>> RuleCritic().review("Who is Payal?", [], [{"part": 0, "found": False, "status": "failed",
...                                          "rewritten": "Who is Payal?"}]).missing
['Who is Payal?']
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from course.foundation.language import question_key
from course.llm.offline.chain import unfollowed_types
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.rereadings import own_kinds_as_names
from course.llm.offline.roles.words import FALLBACK, NOTES, REFUSED, Named


@dataclass
class Review:
    """The critic's verdict: complete, or the missing parts as new questions.

    `narrowed`: a part that answered less than it asked, as what it did answer (part number
    -> "Who is the best at DBMS?"), so the answer does not claim more than it found.
    """

    complete: bool
    missing: list[str]
    narrowed: dict[int, str] = field(default_factory=dict)
    ungrounded: dict[int, str] = field(default_factory=dict)   # part -> the link word it skipped


class RuleCritic:
    """Complete when every part found something and every value the question names was used.

    A part that text2cypher refused (out of scope, or a request to change the data) is not
    complete, but it is not asked again either: a refusal is an answer, not a gap.
    """

    name, model = "Offline", "rules"

    def review(self, question: str, mentions: Sequence[Named],
               parts: Sequence[dict[str, Any]]) -> Review:
        """`parts`: {question, rewritten, tool, arguments, rows, found, status, part, follows}
        so far. A found part whose query skips a link its words name is not answered."""
        ungrounded = {p["part"]: word for p in parts if p["found"]
                      and (word := skipped_link(p)) is not None}
        parts = [dict(p, found=False, status="failed") if p["part"] in ungrounded and p["found"]
                 else p for p in parts]
        answered = {p["part"] for p in parts if p["found"]}
        latest = {p["part"]: p for p in parts if p["part"] not in answered}  # last attempt of each gap
        refused = [p for p in latest.values() if p["status"] in REFUSED]
        missing = [p["rewritten"] for p in latest.values() if p not in refused]
        narrowed: dict[int, str] = {}
        for mention in mentions:
            if any(_covers(p, mention) for p in parts):
                continue
            asked = next((p for p in parts if mention.text in question_key(p["question"])), None)
            if asked is not None and asked not in refused:   # a refused part is not widened
                again = _instead(asked["rewritten"], mention, mentions)
                if again is not None:
                    missing.append(again)
                    narrowed[asked["part"]] = _without(narrowed.get(asked["part"], asked["rewritten"]),
                                                       mention)
        missing = list(dict.fromkeys(missing))
        return Review(not missing and not refused, missing, narrowed, ungrounded)


_OWNER = "'s"


def skipped_link(part: dict[str, Any]) -> str | None:
    """The word of a chain the part's question names ("Aarav's friends") that its query does
    not follow (`follows`: the relationship types it traverses), or None. A part with no
    query (a note, an answer from earlier parts) has nothing to check.

    >>> skipped_link({"rewritten": "Which subjects do Aarav's friends study?",
    ...               "asked": [["Student", "Aarav"]], "follows": ["STUDIES"]})
    'friends'
    >>> skipped_link({"rewritten": "what skills do rahuls friends have",
    ...               "asked": [["Student", "Rahul"]], "follows": ["HAS_SKILL"]})
    'friends'
    >>> skipped_link({"rewritten": "what are Asha's and Ravi's grades in Optics?", "follows": ["STUDIES"],
    ...               "asked": [["Student", "Asha"], ["Student", "Ravi"]],
    ...               "rows": [["Asha", "A"], ["Ravi", "B"]]})
    """
    follows = Counter(part.get("follows") or [])   # a type listed twice is walked twice
    if not follows:
        return None
    text = " " + part["rewritten"].lower().replace("\u2019", "'") + " "
    for i, (_, value) in enumerate(part.get("asked") or []):
        # "rahuls friends": a name and a bare "s" is its possessive, the apostrophe left out
        text = re.sub(rf"(?<![\w§]){re.escape(str(value).lower())}(?!\w)", f" §{i} ", text)
        text = re.sub(rf"(?<![\w§]){re.escape(str(value).lower())}s(?!\w)", f" §{i}{_OWNER} ", text)
    text = re.sub(r" ?'s\b", "'s", " ".join(re.findall(r"§\d+|[\w'+#-]+|[^\s\w]", text)))
    # "the concept of §0", "§0 ka topic": §0 itself when it is a concept, no link to follow
    labels = [str(label) for label, _ in part.get("asked") or []]
    # rows that start with the names asked about say whose each one is
    firsts = {str(row[0]) for row in part.get("rows") or [] if row}
    whose = sum(str(value) in firsts for _, value in part.get("asked") or []) > 1
    return unfollowed_types(own_kinds_as_names(text, labels, default_lexicon()), follows, default_lexicon(),
                            whose_said=whose)


def _covers(part: dict[str, Any], mention: Named) -> bool:
    """Did this part use or find the value (or take the question whole, as text)?"""
    if not part["found"]:
        return False
    values = {str(v) for v in part["arguments"].values()}
    cells = {str(c) for row in part["rows"] for v in row
             for c in (v if isinstance(v, list) else [v])}
    free = part["tool"] in (FALLBACK, NOTES, "answer_given")
    return mention.value in values | cells or (free and mention.text in question_key(part["rewritten"]))


def _instead(text: str, missing: Named, mentions: Sequence[Named]) -> str | None:
    """The part asked again for the value it left out: "best at DBMS and DSA" -> "best at DSA".

    The other values of the same kind are taken out and the first one is swapped for the
    missing one; None when no other value of that kind stands in the part.
    """
    same = [m for m in mentions if m.label == missing.label and m != missing
            and re.search(re.escape(m.text), text, re.I)]
    if not same:
        return None
    words = text
    for other in same[1:] + [missing]:
        words = _without(words, other)
    return re.sub(re.escape(same[0].text), missing.value, words, count=1, flags=re.I)


def _without(text: str, mention: Named) -> str:
    """The text with "and <the value>" taken out, or "<the value> and" before another, with
    its "'s": "best at DBMS and DSA" -> "best at DBMS"; "Asha's and Ravi's friends" -> either's.

    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(text="Ravi", label="Student", value="Ravi")
    >>> _without("what do Asha's and Ravi's friends study?", m), _without("Ravi's and Asha's friends", m)
    ("what do Asha's friends study?", "Asha's friends")
    """
    name = re.escape(mention.text) + r"(?:'s|')?(?!\w)"
    joined = r"(?:,|\band\b|\baur\b|&|\bor\b)"
    after = re.sub(rf"\s*{joined}\s*{name}", "", text, flags=re.I)
    return after if after != text else re.sub(rf"(?<!\w){name}\s*{joined}\s*", "", text, count=1, flags=re.I)
