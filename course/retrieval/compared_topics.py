"""A topic named only as what another is compared with: "the normal form stricter than 3NF".

Introduced in notebook 13, for notebook 12's note search. "Which search goes wider than DFS?"
names DFS, and the encoder puts the note on DFS first; but the question asks about another
search, one it measures against DFS. A topic named only after "than" (or before "se zyada",
"se kam", "se behtar") is the standard of a comparison, so its own note is not the answer, and
the answer is a topic the graph relates to it: one the standard is part of or a part of, one
learned just before or after it, or another part of the same whole. So the hits keep only the
notes of those topics (`compared_hits`), and the bar and the lead are measured among them.
The encoders cannot tell "stricter than 3NF" from "looser than 3NF", so when the search finds
topics learned both before and after the standard, a word of the comparison must say which way
it points ("stricter", "simpler", "after"); if none does, no note answers. A
question that also names a topic in its own right ("How is BCNF stricter than 3NF?") asks
about that one, and its hits stay as they were.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

from course.foundation.db import Database
from course.pipeline.schema import introspect
from course.retrieval.named_topics import mentions

if TYPE_CHECKING:
    from course.retrieval.search import Hit

# ("UDP rather than TCP", "anything other than 3NF": a choice, or the rest; no standard)
_THAN = re.compile(r"(?<!rather )(?<!other )\bthan\s+(?:(?:a|an|the)\s+)?$")
_SE_MORE = re.compile(r"^\s+se\s+(?:zyada|jyada|kam|behtar|better|more|less)\b")

# which way a comparison points along the order topics are learned in
_LATER = re.compile(r"\b(?:strict|strong|advanc|high|later|next|after|beyond|baad)\w*")
_EARLIER = re.compile(r"\b(?:loose|weak|simpl|easi|basic|low|earl|before|pehle)\w*")

_RELATED = ("MATCH (:Concept {name: $topic})-[:PREREQUISITE_FOR]->(:Concept)<-[:EXPLAINS]-(n:Note) "
            "RETURN n.id AS note, 'later' AS side "
            "UNION MATCH (:Concept {name: $topic})<-[:PREREQUISITE_FOR]-(:Concept)<-[:EXPLAINS]-(n:Note) "
            "RETURN n.id AS note, 'earlier' AS side "
            "UNION MATCH (:Concept {name: $topic})-[:INCLUDES]-(:Concept)<-[:EXPLAINS]-(n:Note) "
            "RETURN n.id AS note, 'part' AS side "
            "UNION MATCH (t:Concept {name: $topic})<-[:INCLUDES]-(:Concept)-[:INCLUDES]->(c:Concept)"
            "<-[:EXPLAINS]-(n:Note) WHERE c <> t RETURN n.id AS note, 'part' AS side")


def is_standard(query: str, span: tuple[int, int]) -> bool:
    """Is the mention at `span` what something is compared with ("than 3NF", "3NF se zyada")?

    >>> is_standard("what is stricter than the 3NF?", (22, 29)), is_standard("is 3NF strict?", (3, 6))
    (True, False)
    >>> is_standard("why UDP rather than TCP?", (20, 23))
    False
    """
    text = query.lower()
    return _THAN.search(text[:span[0]]) is not None or _SE_MORE.match(text[span[1]:]) is not None


def standard_only(db: Database, query: str, hits: Sequence[Hit]) -> str | None:
    """The topic of a hit the question names only as the standard of a comparison, when it names
    no other hit's topic in its own right; else None.

    >>> from course.retrieval.search import Hit
    >>> hits = [Hit("N14", "DFS", 0.8, ""), Hit("N13", "BFS", 0.7, "")]
    >>> standard_only(db, "Which search goes wider than DFS?", hits)
    'DFS'
    >>> standard_only(db, "Is BFS wider than DFS?", hits) is None
    True
    """
    aliases = introspect(db).aliases
    standards, own = set(), False
    for topic in dict.fromkeys(str(h.concept) for h in hits if h.concept is not None):
        spans = mentions(query, [topic, *(aliases.get(topic) or ())])
        if spans and all(is_standard(query, span) for span in spans):
            standards.add(topic)
        own = own or bool(spans) and topic not in standards
    return next(iter(standards)) if len(standards) == 1 and not own else None


def compared_hits(db: Database, query: str, hits: Sequence[Hit]) -> list[Hit]:
    """The hits a question comparing something with a named topic may be answered from: the notes
    of topics the graph relates to that standard, in the search's order (none, when the search
    found none of them); all the hits when no topic is named only as a standard.

    >>> from course.retrieval.search import Hit
    >>> hits = [Hit("N14", "DFS", 0.8, ""), Hit("N13", "BFS", 0.7, ""), Hit("N22", "HTTP", 0.6, "")]
    >>> [h.note for h in compared_hits(db, "Which search goes wider than DFS?", hits)]
    ['N13']
    """
    standard = standard_only(db, query, hits)
    if standard is None:
        return list(hits)
    sides = {str(note): str(side) for note, side in db.run(_RELATED, {"topic": standard}).rows}
    later, earlier = _LATER.search(query.lower()) is not None, _EARLIER.search(query.lower()) is not None
    if later != earlier:    # one way said: not the topics on the other side of the standard
        sides = {note: side for note, side in sides.items() if side != ("earlier" if later else "later")}
    elif {sides.get(h.note) for h in hits} >= {"earlier", "later"}:
        return []           # topics on both sides found, and which side is asked is not said
    return [h for h in hits if h.note in sides]
