"""A list in the order of a property it shows (notebook 09).

"a student's courses in the order of the terms she took them", "the students of a course
sorted by grade", "her courses, latest term first": the intents find the rows and return the
property the words name; the order is one more clause over that column, whichever intent wrote
the query. A number sorts smallest first unless the words put the larger end first; a VALUE
SCALE sorts in its own order (best first) unless they ask for the worst first.

>>> sort_clause("MATCH (p:Person)-[r:ENROLLED]->(c:Course)\\nRETURN c.title AS course, "
...             "r.term AS term", "term", "r", None)
'ORDER BY r.term, c.title'
"""
from __future__ import annotations

import re

from course.llm.offline.cypher import VAR_LABEL, rank_case
from course.llm.offline.reading import Reading

_RELATIONSHIP_VAR = re.compile(r"\[(\w+):(\w+)")
_COLUMN = re.compile(r"(?<![\w.])(\w+)\.(\w+) AS \w+")


def asked_order(reading: Reading) -> str | None:
    """The words that ask for an order: "sorted by", "in the order of", or one end of a property
    first ("latest semester first"); None when there are none ("in order to" asks no order)."""
    text = re.sub(r"\bin order to\b", "", reading.text)
    props = "|".join(f"(?:{r})" for r in reading.lexicon.properties.values() if r) or r"(?!)"
    ends = "|".join(f"(?:{r})" for r in reading.lexicon.extremes.values() if r) or r"(?!)"
    said = re.search(reading.cue("order"), text) or re.search(rf"\b(?:{ends})\s+(?:{props})\s+first\b", text)
    return said[0] if said else None


def in_the_order_asked(reading: Reading, query: str) -> str:
    """The query sorted by the one number or scale column the question names and asks an order
    of; the query as it was when there is no such order, or it is sorted already."""
    if "ORDER BY" in query or asked_order(reading) is None:
        return query
    kinds = dict(VAR_LABEL.findall(query)) | dict(_RELATIONSHIP_VAR.findall(query))
    last_return = query[query.rfind("RETURN"):]
    sortable = [(var, prop) for var, prop in _COLUMN.findall(last_return)
                if f"{kinds.get(var)}.{prop}" in {*reading.schema.numbers, *reading.schema.scales}
                and re.search(reading.lexicon.prop(prop), reading.text)]
    if len(sortable) != 1:
        return query
    var, prop = sortable[0]
    scale = reading.schema.scales.get(f"{kinds[var]}.{prop}")
    if scale is not None:
        down = reading.has("worst")
    else:
        ends = sorted((m.start(), pick) for pick, regex in reading.lexicon.extremes.items()
                      for m in re.finditer(regex, reading.text))
        down = bool(ends and ends[0][1] == "max")
    down = down or reading.has("descending")
    return f"{query}\n{sort_clause(query, prop, var, scale, descending=down)}"


def sort_clause(query: str, prop: str, var: str, scale: list[str] | None, *,
                descending: bool = False) -> str:
    """`ORDER BY` the column, then by the first column the query returns (ties in name order)."""
    first = _COLUMN.search(query[query.rfind("RETURN"):])
    expr = rank_case(f"{var}.{prop}", scale) if scale else f"{var}.{prop}"
    tie = f", {first[1]}.{first[2]}" if first and (first[1], first[2]) != (var, prop) else ""
    return f"ORDER BY {expr}{' DESC' if descending else ''}{tie}"
