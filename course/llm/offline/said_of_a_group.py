"""What the words say of a group an answer found before: all of it at once, or how many it is
(notebooks 06 and 09).

"Which subjects does Aarav study?", then "Who studies all of them?": "them" is the two
subjects, and "all of" asks of both at once, as "all of DBMS and OS" does, not of either.
"Do those two know Python?" after three names found stands for no two of them: no reading.
"""
from __future__ import annotations

import re
from dataclasses import replace

from course.llm.offline.prompt import Entity
from course.llm.offline.reading import Reading


_HOW_MANY_SAID = {"both": 2, "dono": 2, "two": 2, "three": 3, "four": 4, "five": 5}


def fits_the_number_said(reading: Reading) -> bool:
    """Does every group the reading stands for have as many values as the words say ("both",
    "those two", "the three")? "Do those two know Python?" after three names is no reading.

    >>> r = Reading("do those two know §0 ?", [Entity("Topic", "name", ("A", "B", "C"))], None)
    >>> fits_the_number_said(r)
    False
    """
    said = re.search(r"\b(both|dono)\b|(?:\bth(?:ose|ese)|\bthe|\ball|§\d+) (two|three|four|five)\b",
                     reading.text)
    number = _HOW_MANY_SAID[said[1] or said[2]] if said else None
    return number is None or all(len(e.value) == number for e in reading.entities if isinstance(e.value, tuple))


def all_of_a_group(reading: Reading) -> Reading:
    """"Who studies all of them?" after an answer that listed several: each one of them named,
    as "all of §0, §1 and §2" asks of every one at once (not of any one of them).

    >>> r = Reading("who studies all of §0 ?", [Entity("Topic", "name", ("A", "B"))], None)
    >>> all_of_a_group(r).text, [e.value for e in all_of_a_group(r).entities]
    ('who studies all of §0 and §1 ?', ['A', 'B'])
    """
    for i, e in enumerate(reading.entities):
        m = re.search(rf"\ball\s+(?:of\s+)?(?:the\s+)?(?:\w+\s+)?§{i}\b", reading.text)
        if m is None or not isinstance(e.value, tuple) or len(e.value) < 2 or i != len(reading.entities) - 1:
            continue
        more = [f"§{i + k}" for k in range(1, len(e.value))]
        names = ", ".join([f"§{i}", *more[:-1]]) + f" and {more[-1]}"
        text = reading.text[:m.end() - len(f"§{i}")] + names + reading.text[m.end():]
        return replace(reading, text=text, entities=reading.entities[:i] + [replace(e, value=v) for v in e.value])
    return reading
