"""The offline extractor: deterministic rules over the schema, the lexicon and the graph's names.

Introduced in notebook 15. These are rules, not a model, and they say so: every fact
carries the rule that found it, and every sentence they proposed nothing from is kept as a
`Skip` with the reason. They know no name of any document: what a word means comes from
data/college/schema.yaml (labels, types, properties, aliases), data/college/lexicon.yaml
(the words for each relationship type and property) and the graph (its names and values).

- a name followed by a key in brackets, shaped like a label's keys ("Meera (S06)"): a new node;
- a capitalised name ending in a word that two of a label's names end in ("... Club"): new;
- capitalised names after a relationship's word, from a known name ("DBMS covers X and Y"):
  new nodes of the label that relationship leads to;
- a heading that names a label holding text ("Note: X"): its paragraph becomes that node,
  linked to X by the one type the schema allows;
- the first name of a sentence (or the person a sentence-opening "she" refers back to) and
  each later name: the relationship type allowed between their labels whose word the sentence
  uses (none or several: skipped, saying so), with the properties the sentence states;
- a CSV whose columns name two labels: one relationship per row, the other columns its properties.

>>> from course.ingest.documents import document_from_text
>>> names = GraphNames({"Student": {"Aarav": {"id": "S01", "name": "Aarav"}},
...                     "Skill": {"Python": {"name": "Python"}}})
>>> doc = document_from_text("note.txt", "Aarav has Advanced skill in Python. He likes tea.")
>>> found = extract_by_rules(doc, Spec.load(), names)
>>> [f.describe() for f in found.relationships], [s.reason for s in found.skipped]
(['(Student Aarav)-[:HAS_SKILL {level: Advanced}]->(Skill Python)'], ['names only Aarav, and no property of it'])
"""
from __future__ import annotations

import re
from typing import Any

from course.ingest.documents import Document, Sentence
from course.ingest.mentions import Mention, NameTable, blank, capitalised_phrases
from course.ingest.names import GraphNames
from course.ingest.proposal import End, NodeFact, Proposal, RelFact, Skip
from course.ingest.spec import Spec
from course.llm.offline.lexicon import Lexicon, default_lexicon

EXTRACTOR = "rules (offline: the schema's and the lexicon's words, not a model)"


class _Reader:
    """The state of one document's reading: the names so far, the person "she" refers to."""

    def __init__(self, doc: Document, spec: Spec, names: GraphNames, lexicon: Lexicon):
        self.doc, self.spec, self.names, self.lexicon = doc, spec, names, lexicon
        self.table = NameTable({label: list(found) for label, found in names.nodes.items()},
                               spec.aliases)
        self.proposal = Proposal(doc.id, EXTRACTOR)
        self.person: Mention | None = None
        self.suffixes = _shared_last_words(names)
        self.shapes = names.key_shapes(spec)

    def new_node(self, label: str, name: str, props: dict[str, Any], sentence: str, how: str) -> None:
        named = {self.spec.name_property(label): name, **props}
        self.proposal.nodes.append(NodeFact(label, named, sentence, how, name))
        self.table.add(label, name, new=True)


def extract_by_rules(doc: Document, spec: Spec, names: GraphNames,
                     lexicon: Lexicon | None = None) -> Proposal:
    """A proposal for one document, by the rules above."""
    reader = _Reader(doc, spec, names, lexicon or default_lexicon())
    if doc.kind == "csv":
        _table(reader)
    else:
        done: set[int] = set()
        for sentence in doc.sentences:
            if sentence.heading and _text_label(reader, sentence.heading):
                if sentence.paragraph not in done:   # the paragraph is the node's text
                    done.add(sentence.paragraph)
                    _text_node(reader, sentence)
            else:
                _sentence(reader, sentence)
    return reader.proposal


def _shared_last_words(names: GraphNames) -> dict[str, str]:
    """last word -> label, for words that end two or more names of one label ("Club")."""
    found: dict[str, str] = {}
    for label, by_name in names.nodes.items():
        ends = [n.split()[-1] for n in by_name if len(n.split()) > 1]
        found.update({w: label for w in set(ends) if ends.count(w) >= 2})
    return found


def _text_label(reader: _Reader, heading: str) -> tuple[str, str, Any] | None:
    """(label, its text property, the one type from it) when a heading names a label that holds
    text, as "Note: Two-Phase Locking" names a Note {id, text} (-[:EXPLAINS]->)."""
    spec = reader.spec
    for label, props in spec.properties.items():
        texts = [p for p in props.values() if p.type == "string" and p.name != spec.key(label)]
        kinds = [r for r in spec.relationships if r.start == label]
        if len(props) == 2 and len(texts) == 1 and len(kinds) == 1 and \
                re.match(rf"^(?:{reader.lexicon.label(label)})\s*[:\-–]\s*\S", heading.lower()):
            return label, texts[0].name, kinds[0]
    return None


def _text_node(reader: _Reader, sentence: Sentence) -> None:
    """The paragraph under a heading "Note: X" becomes that node, linked to X."""
    label, prop, rel = _text_label(reader, sentence.heading)  # type: ignore[misc]
    head = sentence.heading
    about = re.split(r"[:\-–]", head, maxsplit=1)[-1].strip()
    target = next((m for m in reader.table.find(about) if m.label == rel.end), None)
    if target is None:
        reader.proposal.skipped.append(Skip(head, f"the heading names no {rel.end} the graph or "
                                                  "the document knows"))
        return
    text = reader.doc.paragraph(sentence.paragraph)
    reader.proposal.nodes.append(NodeFact(label, {prop: text}, text,
                                          "a heading naming a label: its paragraph", head))
    reader.proposal.relationships.append(RelFact(
        rel.type, End(label, head), End(target.label, target.name), {}, head,
        "a heading naming a label: linked to what it names"))


def _sentence(reader: _Reader, sentence: Sentence) -> None:
    text = sentence.text
    before = len(reader.proposal.nodes) + len(reader.proposal.relationships)
    _keyed_names(reader, text)
    _suffixed_names(reader, text)
    mentions = reader.table.find(text)
    subject = _subject(reader, text, mentions)
    if subject is None:
        reader.proposal.skipped.append(Skip(text, "names nothing the graph knows"))
        return
    if subject.label == reader.lexicon.person:
        reader.person = subject
    mentions = [m for m in mentions if m.start >= subject.end] + _named_after_a_word(reader, text, subject, mentions)
    mentions.sort(key=lambda m: m.start)
    words = blank(text, [subject, *mentions])
    reasons = [r for m in mentions if (r := _relate(reader, text, words, subject, m, mentions))]
    _node_properties(reader, text, words, subject)
    if len(reader.proposal.nodes) + len(reader.proposal.relationships) == before:
        reader.proposal.skipped.append(Skip(text, "; ".join(reasons) or
                                            f"names only {subject.name}, and no property of it"))


def _keyed_names(reader: _Reader, text: str) -> None:
    """'Meera (S06)': a capitalised name and a key shaped like a label's keys."""
    for hit in re.finditer(r"\b([A-Z][\w'-]+(?: [A-Z][\w'-]+)*) \((\w+)\)", text):
        name, key = hit.groups()
        for label, shape in reader.shapes.items():
            known = {str(p[reader.spec.key(label)]) for p in reader.names.nodes[label].values()}
            if shape.match(key) and key not in known and not reader.table.find(name):
                reader.new_node(label, name, {reader.spec.key(label): key}, text,
                                "a name with a key in brackets shaped like the label's keys")


def _suffixed_names(reader: _Reader, text: str) -> None:
    """'the Photography Club': a new name ending in a word two names of a label end in."""
    known = reader.table.find(text)
    for start, end, phrase in capitalised_phrases(text):
        label = reader.suffixes.get(phrase.split()[-1])
        if label and len(phrase.split()) > 1 and not any(m.start < end and start < m.end for m in known):
            reader.new_node(label, phrase, {}, text, f"a new name ending in a word {label} names end in")


def _subject(reader: _Reader, text: str, mentions: list[Mention]) -> Mention | None:
    """The first name of the sentence, or the person an opening pronoun refers back to."""
    first = text.split()[0].lower().strip(",") if text.split() else ""
    pronouns = re.search(reader.lexicon.cues.get("male_female", r"(?!)"), first)
    if pronouns and reader.person is not None and (not mentions or mentions[0].start > 0):
        p = reader.person
        return Mention(p.label, p.name, text.split()[0], 0, len(text.split()[0]), p.new)
    return mentions[0] if mentions else None


def _named_after_a_word(reader: _Reader, text: str, subject: Mention,
                        mentions: list[Mention]) -> list[Mention]:
    """'DBMS covers Concurrency Control': new names after the word of a relationship whose
    other end, from the subject's label, is one label only."""
    words = blank(text, [subject, *mentions])
    found: list[Mention] = []
    for rel in (r for r in reader.spec.relationships if r.start == subject.label):
        cue = re.search(reader.lexicon.relation(rel.type) or r"(?!)", words)
        ends = {r.end for r in reader.spec.relationships if r.start == subject.label and r.type == rel.type}
        if cue is None or len(ends) != 1 or found or \
                any(m.label == rel.end and m.start >= cue.end() for m in mentions):
            continue
        values = {v for p in rel.properties.values() for v in p.scale} | \
                 {v for (owner, _), vs in reader.names.values.items() if owner == rel.type for v in vs}
        skip = tuple(m.text for m in mentions)
        for start, end, phrase in capitalised_phrases(text, skip=skip, after=cue.end()):
            if phrase in values or any(re.fullmatch(w, phrase.lower()) for p in rel.properties
                                       if (w := reader.lexicon.value_words.get(p))):
                continue   # "as a Member", "a Developer": a property's value, not a name
            if not any(m.start < end and start < m.end for m in mentions):
                reader.new_node(rel.end, phrase, {}, text,
                                f"a new name after a word of {rel.type}: a {rel.end}")
                found.append(Mention(rel.end, phrase, phrase, start, end, True))
    return found


def _relate(reader: _Reader, text: str, words: str, subject: Mention, other: Mention,
            mentions: list[Mention]) -> str | None:
    """Propose subject -[T]-> other for the one type T the sentence has a word for."""
    kinds = reader.spec.types_between(subject.label, other.label)
    if not kinds:
        return f"the schema has no relationship from {subject.label} to {other.label}"
    worded = [k for k in kinds if _worded(reader, k, words, text)]
    if len(worded) != 1:
        shown = " or ".join(kinds)
        return (f"no word for {shown} between {subject.name} and {other.name}" if not worded else
                f"words for several types ({', '.join(worded)}) between {subject.name} and {other.name}")
    rel = reader.spec.relationship(worded[0], subject.label, other.label)
    assert rel is not None
    window = _window(text, subject, other, mentions)
    props = {p.name: v for p in rel.properties.values()
             if (v := _value(reader, rel.type, p.name, p.type, p.scale, window)) is not None}
    reader.proposal.relationships.append(RelFact(
        rel.type, End(subject.label, subject.name), End(other.label, other.name), props, text,
        f"the first name, a word of {rel.type}, a later name"))
    return None


def _worded(reader: _Reader, kind: str, words: str, text: str) -> bool:
    """Does the sentence use a word of this type, or a value only this type's properties take?"""
    if re.search(reader.lexicon.relation(kind) or r"(?!)", words):
        return True
    seen = {v for (owner, _), values in reader.names.values.items() if owner == kind for v in values}
    return any(re.search(rf"\b{re.escape(v)}\b", text) for v in seen)


def _window(text: str, subject: Mention, other: Mention, mentions: list[Mention]) -> tuple[str, str]:
    """The text before `other` (from the previous name) and after it (to the next name)."""
    starts = [m.end for m in [subject, *mentions] if m.end <= other.start]
    ends = [m.start for m in mentions if m.start >= other.end]
    return (text[max(starts, default=0):other.start], text[other.end:min(ends, default=len(text))])


def _value(reader: _Reader, owner: str, name: str, kind: str, scale: tuple[str, ...],
           window: tuple[str, str]) -> Any:
    """A property's value as the text around a name states it, before the name first."""
    parts = [" ".join(window)] if kind == "integer" else list(window)  # "joined ... in 2026"
    for part in parts:
        found = _value_in(reader, owner, name, kind, scale, part)
        if found is not None:
            return found
    return None


def _value_in(reader: _Reader, owner: str, name: str, kind: str, scale: tuple[str, ...],
              part: str) -> Any:
    lower = part.lower()
    if kind == "integer":
        word = re.search(reader.lexicon.prop(name), lower)
        if word is None:
            return None
        number = re.search(r"\b(\d{1,4})\b(?![.,]\d)", part[word.end():])
        if number:
            return int(number.group(1))
        ordinal = re.search(r"\b(\w+)[- ]$", lower[:word.start()])
        return reader.lexicon.ordinals.get(ordinal.group(1)) if ordinal else None
    choices = list(scale) or sorted(reader.names.values.get((owner, name), ()), key=len, reverse=True)
    for value in choices:
        if re.search(rf"(?<![\w+]){re.escape(value)}(?![\w+])", part):
            return value
    words = reader.lexicon.value_words.get(name)
    hit = re.search(words, lower) if words and not scale else None
    return part[hit.start():hit.end()].title() if hit else None


def _node_properties(reader: _Reader, text: str, words: str, subject: Mention) -> None:
    """Properties of the sentence's first name that the sentence states ('first-year IT')."""
    spec = reader.spec
    props = {p.name: v for p in spec.properties[subject.label].values()
             if p.name not in ("name", spec.key(subject.label))
             and (v := _value_in(reader, subject.label, p.name, p.type, p.scale,
                                 text[subject.end:])) is not None}
    if props:
        reader.proposal.nodes.append(NodeFact(subject.label, {spec.name_property(subject.label):
                                                              subject.name, **props}, text,
                                              "properties the sentence states of its first name",
                                              subject.name))


def _table(reader: _Reader) -> None:
    """A CSV whose columns name two labels: a relationship per row."""
    doc, spec = reader.doc, reader.spec
    labels = {c: label for c in doc.columns for label in spec.keys
              if re.fullmatch(reader.lexicon.label(label), c.lower())}
    ends = list(labels.items())
    kinds = spec.types_between(ends[0][1], ends[1][1]) if len(ends) == 2 else []
    if len(kinds) != 1:
        reader.proposal.skipped.append(Skip(", ".join(doc.columns), "the columns do not name the two "
                                            "ends of one relationship type of the schema"))
        return
    rel = spec.relationship(kinds[0], ends[0][1], ends[1][1])
    assert rel is not None
    columns = {c: p for c in doc.columns for p in rel.properties
               if c not in labels and re.fullmatch(reader.lexicon.prop(p), c.lower())}
    for c in doc.columns:
        if c not in labels and c not in columns:
            reader.proposal.skipped.append(Skip(c, f"the column names no property of {rel.type}"))
    for line, row in doc.rows:
        props: dict[str, Any] = {}
        for column, prop in columns.items():
            value = row[column]
            props[prop] = int(value) if rel.properties[prop].type == "integer" and value.isdigit() else value
        sentence = f"line {line}: " + ", ".join(f"{k}={v}" for k, v in row.items())
        reader.proposal.relationships.append(RelFact(
            rel.type, End(rel.start, row[ends[0][0]]), End(rel.end, row[ends[1][0]]),
            {k: v for k, v in props.items() if v != ""}, sentence,
            "a table whose columns name both ends"))
