"""Entity resolution: each name a proposal uses, matched to a node of the graph or of the document.

Introduced in notebook 15. A name is matched, in this order: exactly (or by its key, or by
an alias of schema.yaml); normalised (case, spaces and punctuation aside: "photography-club"
is "Photography Club"); fuzzily, with rapidfuzz's WRatio, at `FUZZY_AT` or more ("Snehaa" is
Sneha at 90.9). Every match keeps how it was made and its score, so the diff can show them.
Two candidates close in score are not guessed between: the item becomes a question.

>>> names = GraphNames({"Student": {"Sneha": {"id": "S04", "name": "Sneha"}}})
>>> lookup("Snehaa", "Student", names, Spec.load())
Match(name='Snehaa', label='Student', found='Sneha', how='fuzzy', score=90.9, candidates=())
>>> people = GraphNames({"Student": {"Prof. Sharma": {"name": "Prof. Sharma"}, "Dr. Sharma": {"name": "Dr. Sharma"}}})
>>> lookup("Sharma", "Student", people, Spec.load()).how
'ambiguous'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz, process, utils

from course.ingest.names import GraphNames
from course.ingest.proposal import End, NodeFact, Proposal, RelFact
from course.ingest.spec import Spec
from course.ingest.validation import Rejection

FUZZY_AT = 85.0      # WRatio from here up is the same name written differently
CLOSE = 5.0          # two candidates this close are a question, not a match


@dataclass(frozen=True)
class Match:
    """How one name was matched: exact, key, alias, normalised, fuzzy, new, ambiguous or none."""

    name: str
    label: str
    found: str | None
    how: str
    score: float = 100.0
    candidates: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Ref:
    """A node the diff writes to: its label, its key's value, and whether it is new."""

    label: str
    key: Any
    name: str
    new: bool = False


@dataclass
class NodeChange:
    """A node the document states things about, resolved, with every sentence it came from."""

    ref: Ref
    properties: dict[str, Any]
    sentences: list[str]


@dataclass
class RelChange:
    fact: RelFact
    start: Ref
    end: Ref
    confidence: float | None = None
    judged: str = ""


@dataclass(frozen=True)
class Question:
    """An item held back until someone answers: which node a name means, or which value."""

    item: str
    sentence: str
    question: str

    def to_dict(self) -> dict[str, str]:
        return {"item": self.item, "sentence": self.sentence, "question": self.question}


@dataclass
class Resolved:
    nodes: list[NodeChange] = field(default_factory=list)
    relationships: list[RelChange] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)


def lookup(name: str, label: str, names: GraphNames, spec: Spec) -> Match:
    """The graph's node of `label` that `name` means, and how it was found."""
    known = names.nodes.get(label, {})
    if name in known:
        return Match(name, label, name, "exact")
    by_key = [n for n, p in known.items() if str(p.get(spec.key(label))).casefold() == name.casefold()]
    if by_key:
        return Match(name, label, by_key[0], "key")
    alias = [n for n in known if name.casefold() in (a.casefold() for a in spec.aliases.get(n, ()))]
    if alias:
        return Match(name, label, alias[0], "alias")
    plain = utils.default_process(name)
    same = [n for n in known if utils.default_process(n) == plain]
    if same:
        return Match(name, label, same[0], "normalised")
    close = process.extract(name, list(known), scorer=fuzz.WRatio, processor=utils.default_process,
                            score_cutoff=FUZZY_AT, limit=3)
    if not close:
        return Match(name, label, None, "none", 0.0)
    scored = tuple((str(n), round(float(s), 1)) for n, s, _ in close)
    if len(scored) > 1 and scored[0][1] - scored[1][1] < CLOSE:
        return Match(name, label, None, "ambiguous", scored[0][1], scored)
    return Match(name, label, scored[0][0], "fuzzy", scored[0][1])


def resolve(proposal: Proposal, names: GraphNames, spec: Spec) -> Resolved:
    """Every node and relationship of a (valid) proposal, matched to what it means."""
    out = Resolved()
    local: dict[tuple[str, str], Ref] = {}
    taken: set[str] = set()
    for (label, ref), facts in _grouped(proposal.nodes).items():
        node = _resolve_node(label, ref, facts, names, spec, out, taken)
        if node is not None:
            local[(label, ref)] = node.ref
            out.nodes.append(node)
    for rel in proposal.relationships:
        ends = [_resolve_end(end, rel, local, names, spec, out) for end in (rel.start, rel.end)]
        if ends[0] is not None and ends[1] is not None:
            out.relationships.append(RelChange(rel, ends[0], ends[1]))
    return out


def _grouped(nodes: list[NodeFact]) -> dict[tuple[str, str], list[NodeFact]]:
    groups: dict[tuple[str, str], list[NodeFact]] = {}
    for node in nodes:
        groups.setdefault((node.label, node.ref), []).append(node)
    return groups


def _resolve_node(label: str, ref: str, facts: list[NodeFact], names: GraphNames, spec: Spec,
                  out: Resolved, taken: set[str]) -> NodeChange | None:
    merged: dict[str, Any] = {}
    sentences = list(dict.fromkeys(f.sentence for f in facts))
    for fact in facts:
        for prop, value in fact.properties.items():
            if prop in merged and merged[prop] != value:
                out.questions.append(Question(facts[0].describe(), fact.sentence,
                                              f"the document gives {label} {ref} two values of "
                                              f"{prop}: {merged[prop]!r} and {value!r}; which is right?"))
                return None
            merged[prop] = value
    key = spec.key(label)
    named = spec.name_property(label)
    match = lookup(ref, label, names, spec) if named in merged else Match(ref, label, None, "none", 0.0)
    if match.how == "ambiguous":
        out.questions.append(_ambiguous(match, facts[0].describe(), facts[0].sentence))
        return None
    if match.found is not None:
        out.matches.append(match)
        existing = names.nodes[label][match.found]
        merged = {k: v for k, v in merged.items() if k not in (named, key)}
        return NodeChange(Ref(label, existing[key], match.found), merged, sentences)
    value = merged.get(key) or names.next_key(spec, label, taken)   # C31 after C30
    if value is None:
        out.rejected.append(Rejection(facts[0].describe(), facts[0].sentence,
                                      f"a new {label} needs its {key}, and the document gives none"))
        return None
    taken.add(str(value))
    out.matches.append(Match(ref, label, None, "new", 0.0))
    return NodeChange(Ref(label, value, ref, new=True), {**merged, key: value}, sentences)


def _resolve_end(end: End, rel: RelFact, local: dict[tuple[str, str], Ref], names: GraphNames,
                 spec: Spec, out: Resolved) -> Ref | None:
    if (end.label, end.name) in local:
        return local[(end.label, end.name)]
    match = lookup(end.name, end.label, names, spec)
    out.matches.append(match)
    if match.how == "ambiguous":
        out.questions.append(_ambiguous(match, rel.describe(), rel.sentence))
        return None
    if match.found is None:
        out.rejected.append(Rejection(rel.describe(), rel.sentence,
                                      f"no {end.label} named {end.name!r} in the graph or the "
                                      "document: an end that does not resolve"))
        return None
    props = names.nodes[end.label][match.found]
    return Ref(end.label, props[spec.key(end.label)], match.found)


def _ambiguous(match: Match, item: str, sentence: str) -> Question:
    options = " or ".join(f"{n} ({s:g})" for n, s in match.candidates)
    return Question(item, sentence, f"which {match.label} is {match.name!r}: {options}?")
