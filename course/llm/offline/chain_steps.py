"""A step further along a chain: "What must I learn before Virtual Memory, and before that?"

Used by the offline provider's follow-ups (notebook 06: "and after that?" in the next turn)
and by the query updater (notebook 12: a part of the same question). "And before that?" after
an ask along a link of a kind to itself (a topic's prerequisites, a subject's next subjects)
asks the same link again, from what that ask found: the step before the step. Read as the same
ask of the same name, or as both steps fused into one query, it answers the first step again,
or the second step alone.
Only the same way along the link: "before that" follows "before X", "after that" "after X".

>>> found = [("What comes before Welding?", [("Craft", "Welding")], [("Craft", "Cutting")])]
>>> the_next_step("and before that?", found)
'What comes before Cutting?'
>>> the_next_step("and after that?", found) is None
True
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

Found = tuple[str, Sequence[tuple[str, Any]], Sequence[tuple[str, Any]]]   # as the updater's

NEXT_STEP = re.compile(r"^\s*(?:(?:and|aur|then)\s+)*(?P<way>before|after)\s+(?:that|those|it|them)\s*[?.!]*\s*$",
                       re.I)


def the_next_step(part: str, found: Sequence[Found]) -> str | None:
    """The ask before, from the values it found of the kind it named ("and before that?"), or
    None: no such part, another way along the link, or nothing of the named kind found."""
    step = NEXT_STEP.match(part)
    if step is None or not found:
        return None
    question, asked, got = found[-1]
    named = [str(v) for label, v in asked]
    kinds = {label for label, _ in asked}
    values = list(dict.fromkeys(str(v) for label, v in got if label in kinds and str(v) not in named))
    if len(named) != 1 or not values or not re.search(rf"\b{step['way']}\b", question, re.I) \
            or not re.search(rf"\b{re.escape(named[0])}\b", question, re.I):
        return None
    return re.sub(rf"\b{re.escape(named[0])}\b", " and ".join(values), question, count=1, flags=re.I)


# every step, not the first ("even indirectly", "the full chain"): a path the guard lets run has
# an upper bound, and no chain of prerequisites a course has is longer than this
LONGEST_CHAIN = 20
# one link of a kind to itself: "(x0:Craft {name: 'Welding'})<-[r0:NEEDS]-(t:Craft)"
_A_LOOP = re.compile(r"\(\w+:(\w+)[^)]*\)<?-\[(\w+):(\w+)\]->?\(\w+:(\w+)\)")


def every_step(query: str) -> str | None:
    """The query along every step of its one link of a kind to itself ("what comes before Welding,
    even indirectly?"); None when it takes another link, or reads the link's properties.

    >>> every_step("MATCH (x0:Craft {name: 'Welding'})<-[r0:NEEDS]-(t:Craft)\\nRETURN t.name")
    "MATCH (x0:Craft {name: 'Welding'})<-[:NEEDS*1..20]-(t:Craft)\\nRETURN t.name"
    """
    loop = _A_LOOP.search(query)
    if loop is None or loop[1] != loop[4] or len(re.findall(r"\[\w*:", query)) != 1 \
            or re.search(rf"\b{loop[2]}\.", query):
        return None
    return query.replace(f"[{loop[2]}:{loop[3]}]", f"[:{loop[3]}*1..{LONGEST_CHAIN}]")
