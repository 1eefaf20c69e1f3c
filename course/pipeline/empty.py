"""What an empty result says: "none" is a claim only when every name the query used exists.

Introduced in notebook 05, with the answer step. A query that finds no rows means one of two
things. Either a name it matched on is not in the graph (a typo, a club that does not
exist): then the honest answer asks the learner to check the names. Or every name is there
and nothing matches what was asked ("Which subjects must be finished before DBMS?" when DBMS
has none): then the answer is "none", and telling the learner to check a name they spelled
right would send them looking for a mistake they did not make.

>>> nothing_found(db, "MATCH (s:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club {name: 'Chess Club'}) "
...               "RETURN s.name", "en")
'I found nothing in the graph for that: it has no Chess Club. Check the names, or ask in other words.'
>>> nothing_found(db, "MATCH (s:Student {name: 'Payal'}) WHERE s.year > 3 RETURN s.name", "en")
'The graph has Payal, but nothing in it matches what you asked: as far as the graph knows, there is none.'
"""
from __future__ import annotations

import re

from course.foundation.db import Database
from course.foundation.errors import CourseError

_VALUE = r"'((?:[^'\\]|\\.)*)'"
# `(x:Label {prop: 'value'})`: a node the query matches by one of its names; `x.prop = 'value'`
# (a node's or a link's: "r.role = 'President'"); `toLower(x.prop) CONTAINS toLower('value')`:
# by part of a name (a retry after no rows)
_NAMED = re.compile(r"\((\w*):(\w+) \{(\w+): " + _VALUE + r"\}\)")
_EQUAL = re.compile(r"(?<![\w.])(\w+)\.(\w+) = " + _VALUE)
_PART_OF_NAME = re.compile(r"toLower\((\w+)\.(\w+)\) CONTAINS (?:toLower\()?" + _VALUE)
_NODES = re.compile(r"\((\w+):(\w+)")
_LINKS = re.compile(r"\[(\w+):(\w+)")


def missing_names(db: Database, cypher: str) -> tuple[list[str], list[str]]:
    """(the values the query matches on that the graph has, those it has not)."""
    nodes, links = dict(_NODES.findall(cypher)), dict(_LINKS.findall(cypher))
    named = [(f"(n:`{label}`)", prop, value, "=") for _, label, prop, value in _NAMED.findall(cypher)]
    for regex, op in ((_EQUAL, "="), (_PART_OF_NAME, "CONTAINS")):
        for var, prop, value in regex.findall(cypher):
            if var in nodes:
                named.append((f"(n:`{nodes[var]}`)", prop, value, op))
            elif var in links:
                named.append((f"()-[n:`{links[var]}`]->()", prop, value, op))
    found: list[str] = []
    missing: list[str] = []
    for pattern, prop, value, op in dict.fromkeys(named):
        value = re.sub(r"\\(.)", r"\1", value)
        test = f"n.`{prop}` = $value" if op == "=" else f"toLower(n.`{prop}`) CONTAINS toLower($value)"
        try:
            there = db.run(f"MATCH {pattern} WHERE {test} RETURN count(n)", {"value": value}).rows[0][0] > 0
        except (CourseError, IndexError):   # cannot tell: say nothing of this value
            continue
        (found if there else missing).append(value)
    return found, missing


def nothing_found(db: Database, cypher: str, language: str) -> str:
    """The answer to an empty result, in English or Hinglish."""
    found, missing = missing_names(db, cypher)
    hinglish = language != "en"
    if missing:
        names = " / ".join(missing)
        return (f"Graph mein iske liye kuch nahi mila: usme {names} nahi hai. Naam check karo, ya doosre "
                f"shabdon mein poochho." if hinglish else
                f"I found nothing in the graph for that: it has no {names}. Check the names, or ask in other words.")
    if found:
        names = " and ".join(found) if len(found) < 3 else ", ".join(found[:-1]) + " and " + found[-1]
        return (f"Graph mein {names} hai, par jo poocha uska koi match nahi hai: graph ke hisaab se, aisa "
                f"kuch nahi hai." if hinglish else
                f"The graph has {names}, but nothing in it matches what you asked: as far as the graph "
                f"knows, there is none.")
    return ("Graph mein jo poocha uska koi match nahi hai: graph ke hisaab se, aisa kuch nahi hai."
            if hinglish else
            "Nothing in the graph matches what you asked: as far as the graph knows, there is none.")
