"""A follow-up to a message of several asks: "Rahul's grade in DSA and his branch?", "and Karan's?"

Introduced in notebook 12, with the agentic agent. "and Karan's?" asks the message before again,
of Karan. When that message was answered in several parts, asking only its last part again
answers half and says nothing of the rest ("Karan (IT)." and no grade). So a follow-up that only
names a new value is asked once per part of the message before, each with the new value in
place of the one that part asked about; when a part names no value of that kind, the follow-up is
left as it is.

>>> before = [("What grade did Ben get in Optics?", [("Person", "Ben")]),
...           ("What branch is Ben in?", [("Person", "Ben")])]
>>> each_part_again(["and Asha's?"], before, lambda _: [Mention("Asha", "Person", "name", "Asha", 1.0)])
['What grade did Asha get in Optics?', 'What branch is Asha in?']
>>> each_part_again(["Who is Asha?"], before, lambda _: [Mention("Asha", "Person", "name", "Asha", 1.0)])
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from course.llm.offline.roles.updater import asked_again
from course.pipeline.linking import Mention

Asked = tuple[str, Sequence[tuple[str, Any]]]   # a part as rewritten, and the values it asked about


def each_part_again(parts: Sequence[str], before: Sequence[Asked],
                    link: Callable[[str], list[Mention]]) -> list[str] | None:
    """The follow-up asked of each part of the message before, or None (not a follow-up, one
    part before, or a part that asked about no single value of the kind it names)."""
    if len(parts) != 1 or len(before) < 2:
        return None
    linked = link(parts[0])     # (`asked_again` is None for a part that is no follow-up)
    again = [asked_again(parts[0], [(question, list(asked), [])], linked) for question, asked in before]
    return None if any(a is None for a in again) else [str(a) for a in again]
