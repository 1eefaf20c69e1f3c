"""A link's word said right before a name joins that name (notebooks 05 and 12).

"Does anyone who studies §0 also study its prerequisite?" names two links on §0: studying it,
and its prerequisite. A query that reaches §0 only through the prerequisite answers "who
studies §0's prerequisite" and drops "who studies §0": a shorter question, answered
confidently. So a link's word right before a name ("studies §0", "works on the §0", "member
of §0") must be a link of the query at that name's node, or the rules refuse. Not before a
name that owns what comes after it ("who studies §0's prerequisite", "§0 prerequisites"): the
word joins what the name owns.

>>> import re
>>> from course.llm.offline.lexicon import default_lexicon
>>> from course.llm.offline.prompt import Entity, parse_schema
>>> from course.llm.offline.reading import read
>>> study = next(t for t, words in default_lexicon().relationships.items() if re.search(words, "studies"))
>>> schema = parse_schema(f"NODES:\\n- Person {{name}}: Someone.\\n- Topic {{name}}: Taught.\\n"
...                       f"- (:Person)-[:{study}]->(:Topic)\\n- (:Topic)-[:NEXT]->(:Topic)")
>>> names = [("x", Entity("Topic", "name", "X"))]
>>> query = f"MATCH (x0:Topic {{name: 'X'}})<-[:NEXT]-(:Topic)<-[:{study}]-(t) RETURN t.name"
>>> unjoined(read("does anyone who studies x also study the one before it?", names, schema), query)
'studies'
>>> unjoined(read("who studies x's next one?", names, schema), query) is None
True
"""
from __future__ import annotations

import re

from course.llm.offline.coverage import in_the_learners_clause
from course.llm.offline.reading import Reading

_BETWEEN = r"\s+(?:(?:on|in|of|at|for|with|to|from)\s+)?(?:the\s+)?"
_OWNS = r"(?:\s*'?s\b|'|\s+(?:ka|ki|ke)\b)"    # "§0's", "§0' ", "§0 ka": what it owns comes next


def unjoined(reading: Reading, query: str) -> str | None:
    """The first link's word right before a name that names no link of the query at the
    name's node (of the links its kind may have); None when every such word is joined, or the
    query's node for the name cannot be told."""
    lexicon, text = reading.lexicon, reading.text
    links = {t: r for t, r in lexicon.relationships.items() if r}
    nouns = "|".join(f"(?:{r})" for r in [*links.values(), *lexicon.labels.values()] if r) or r"(?!)"
    kinds = "|".join(f"(?:{r})" for r in lexicon.labels.values() if r) or r"(?!)"
    for rel_type, words in links.items():
        for m in re.finditer(rf"\b(?:{words})(?={_BETWEEN}§(\d+)\b)", text):
            number = re.match(rf"{_BETWEEN}§(\d+)", text[m.end():])
            assert number is not None
            after, i = text[m.end() + number.end():], int(number[1])
            if re.match(_OWNS, after) or re.match(rf"\s+(?:{nouns})\b", after) or i >= len(reading.entities) \
                    or re.fullmatch(kinds, m[0]) or in_the_learners_clause(reading, m.start(), m.end()):
                continue    # (a kind's noun: "the subject §0"; the learner's verb: "before taking §0")
            name = reading.entities[i]
            # the links the word may name that a node of the name's kind has ("build on §0":
            # no project is built on a topic; "needs §0 first": no topic is needed by a project)
            types = {p.type for p in reading.schema.patterns if name.label in (p.start, p.end)
                     and re.fullmatch(rf"(?:{links.get(p.type, '(?!)')})", m[0])}
            node = node_of(query, name.value)
            if types and node is not None and not touches(query, node, types):
                return m[0]
    return None


def node_of(query: str, value: object) -> str | None:
    """The variable of the node a query fixes to `value`, when it fixes one node to it.

    >>> node_of("MATCH (x0:Team {name: 'Chess'})--(t) RETURN t", "Chess")
    'x0'
    >>> node_of("MATCH (a)--(t) WHERE toLower(a.name) CONTAINS toLower('Chess') RETURN t", "Chess")
    'a'
    """
    said = re.escape(str(value).replace("'", "\\'"))
    found = set(re.findall(rf"\((\w+):\w+ \{{\w+: '{said}'\}}", query))
    found |= set(re.findall(rf"\b(\w+)\.\w+\)? (?:=|CONTAINS toLower\() ?'{said}'", query))
    found |= set(re.findall(rf"\b(\w+)\.\w+ IN \[[^\]]*'{said}'", query))
    return found.pop() if len(found) == 1 else None


def touches(query: str, node: str, types: set[str]) -> bool:
    """Does a link of one of `types` start or end at `node` in the query's patterns?

    >>> touches("MATCH (a:X {name: 'A'})-[:R]->(b)<-[r:S]-(c)", "a", {"R"})
    True
    >>> touches("MATCH (a:X {name: 'A'})-[:R]->(b)<-[r:S]-(c)", "a", {"S"})
    False
    """
    kinds = "|".join(map(re.escape, sorted(types))) or r"(?!)"
    at = rf"\({re.escape(node)}(?::\w+)?(?:\s*\{{[^}}]*\}})?\)"
    link = rf"<?-\[\w*:(?:{kinds})[^\]]*\]->?"
    return re.search(rf"{at}\s*{link}|{link}\s*{at}", query) is not None
