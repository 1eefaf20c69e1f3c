"""The schema prompt: read the schema from the live graph, describe it, link the question's names.

Introduced in notebook 02. Two ideas:
1. `introspect(db)` reads labels, relationship patterns and property types from the graph
   itself and merges the sentences in data/college/schema.yaml. A property's values are
   listed when they repeat (grades, levels, branches): all of them when there are at most
   MAX_LISTED_VALUES, else the most common ones marked "e.g." with how many there are, so
   the schema never claims a sample is the whole and does not grow with the graph. Every
   value is counted on the server, one query per label and per relationship pattern. The
   text layer's chunks (notebook 13) are left out: they are searched by meaning, not
   queried with Cypher; `include=` / `exclude=` leave out other labels too.
2. `link_entities(db, question)` looks up the names a question mentions (fuzzy:
   "debate-ye" -> Debate Society, "Payl" -> Payal; aliases: "ML" -> Machine Learning) so
   only those values go into the prompt. It matches words as the graph's full-text indexes
   do, in an index of the names read once per data version (`NameIndex`), not with a query
   per question.
Both are read from the graph once per data version (`course.foundation.versioning`) and reused until
the graph changes.

>>> schema = introspect(db)
>>> schema.labels["Student"][1]["branch"].values
['CSE', 'ECE', 'IT']
>>> [m.value for m in link_entities(db, "dbms and debate-ye dono ke students kaun hain?")]
['DBMS', 'Debate Society']
"""
from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from course.foundation.dataset import DATA_DIR, FULLTEXT_PROPERTY, load_schema
from course.foundation.db import TEXT_LAYER_LABELS, Database
from course.foundation.errors import CourseError, InvalidInput
from course.foundation.versioning import every_row, per_version

MAX_LISTED_VALUES = 8  # a property's values are listed whole up to this many, else as examples
MAX_VALUE_CHARS = 40   # a longer value is text (a note, a description): never listed


@dataclass
class Property:
    name: str
    type: str                         # "integer"; "integer or string" when the graph holds both
    description: str = ""
    values: list[Any] | None = None   # all of them, or the most common when `distinct` is more
    scale: list[str] | None = None    # ordered best first, from schema.yaml
    distinct: int | None = None       # how many different values the graph holds, when listed

    @property
    def complete(self) -> bool:
        """The values listed are every value the graph holds, not examples."""
        return self.values is not None and len(self.values) == self.distinct


@dataclass
class RelationshipPattern:
    type: str
    start: str
    end: str
    description: str = ""
    properties: dict[str, Property] = field(default_factory=dict)


@dataclass
class GraphSchema:
    description: str
    labels: dict[str, tuple[str, dict[str, Property]]]   # label -> (description, properties)
    patterns: list[RelationshipPattern]
    aliases: dict[str, list[str]]                         # value -> how people write it

    def render(self) -> str:
        """The schema section of the prompt, as text."""
        lines = [f"GRAPH SCHEMA ({self.description})", "", "NODES:"]
        for label, (description, props) in self.labels.items():
            lines.append(f"- {label} {{{', '.join(props)}}}: {description}")
            lines += [f"    {p.name} ({p.type}): {_describe(p)}" for p in props.values()]
        lines += ["", "RELATIONSHIPS (direction matters):"]
        for pat in self.patterns:
            keys = f" {{{', '.join(pat.properties)}}}" if pat.properties else ""
            lines.append(f"- (:{pat.start})-[:{pat.type}{keys}]->(:{pat.end}): {pat.description}")
            lines += [f"    {p.name} ({p.type}): {_describe(p)}" for p in pat.properties.values()]
        scales = self.scales()
        if scales:
            lines += ["", "VALUE SCALES (best first; order by position in the list, not as text):"]
            lines += [f"- {where}: {', '.join(scale)}" for where, scale in scales.items()]
        return "\n".join(lines)

    def scales(self) -> dict[str, list[str]]:
        """{'STUDIES.grade': ['A+', 'A', ...], 'HAS_SKILL.level': [...]}."""
        found = {}
        for owner, props in [(k, v[1]) for k, v in self.labels.items()] + \
                            [(p.type, p.properties) for p in self.patterns]:
            found.update({f"{owner}.{p.name}": p.scale for p in props.values() if p.scale})
        return found


def _describe(prop: Property) -> str:
    text = prop.description
    values = prop.values
    if values is not None and not (prop.scale and prop.complete and all(v in prop.scale for v in values)):
        listed = ", ".join(map(_literal, values))
        text += (f" Values: {listed}." if prop.complete
                 else f" Values, e.g.: {listed}, ... ({prop.distinct:,} distinct).")
    return text.strip()


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "\\'") + "'"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _in_order(values: list[Any]) -> list[Any]:
    """Numbers by value, text alphabetically (2 before 10, 'A' before 'B')."""
    return sorted(values, key=lambda v: (type(v).__name__, v if isinstance(v, (int, float, str)) else str(v)))


_TYPE_NAMES = {"Integer": "integer", "Float": "float", "String": "string", "Boolean": "boolean"}


def _properties(db: Database, match: str, described: dict[str, Any], cap: int) -> dict[str, Property]:
    """Every property of what `match` finds, read whole in one query, with its sentences merged.

    Per property the server returns how many different values it has, how many nodes (or
    relationships) hold it, its `cap` most common values and every type it holds.
    """
    found = db.run(f"MATCH {match} UNWIND keys(x) AS k WITH k, x[k] AS v, count(*) AS n "
                   "ORDER BY n DESC, v RETURN k, count(v), toInteger(sum(n)), collect(v)[..$cap], "
                   "collect(DISTINCT typeOf(v))", {"cap": cap}).rows
    order = list(described)
    props = {}
    for name, distinct, held, common, types in sorted(
            found, key=lambda r: (order.index(r[0]) if r[0] in order else len(order), r[0])):
        spec = described.get(name, {})
        listed = distinct < held and all(len(str(v)) <= MAX_VALUE_CHARS for v in common)
        props[name] = Property(name, " or ".join(sorted(_TYPE_NAMES.get(t, t.lower()) for t in types)),
                               spec.get("description", ""), _in_order(common) if listed else None,
                               spec.get("scale"), distinct if listed else None)
    return props


def _names(labels: str | Iterable[str] | None) -> list[str]:
    return [labels] if isinstance(labels, str) else list(labels or [])


def _chosen_labels(db: Database, include: str | Iterable[str] | None,
                   exclude: str | Iterable[str] | None, order: list[str]) -> list[str]:
    """The graph's labels (the text layer's left out) in schema.yaml's order, as chosen."""
    found = sorted((label for (label,) in db.run("CALL db.labels() YIELD label RETURN label").rows
                    if label not in TEXT_LAYER_LABELS),  # notebook 13's chunks are searched, not queried
                   key=lambda label: order.index(label) if label in order else len(order))
    for label in _names(include) + _names(exclude):
        if label not in found:
            raise InvalidInput(f"No label {label!r} in the graph {db.graph_name!r}: its labels are "
                               f"{', '.join(found)}.")
    return [label for label in found if (include is None or label in _names(include))
            and label not in _names(exclude)]


def introspect(db: Database, *, include: str | Iterable[str] | None = None,
               exclude: str | Iterable[str] | None = None, max_values: int = MAX_LISTED_VALUES,
               data_dir: Path = DATA_DIR) -> GraphSchema:
    """Read the schema from the live graph and merge the descriptions in schema.yaml.

    `include` keeps only these labels, `exclude` leaves these out; a relationship pattern
    touching a label left out is left out too. `max_values` is how many values are listed
    whole before they are given as examples.

    >>> schema = introspect(db, include=["Student", "Club"])
    >>> list(schema.labels), [p.type for p in schema.patterns]
    (['Student', 'Club'], ['FRIENDS_WITH', 'MEMBER_OF'])
    >>> sorted(introspect(db, exclude=["Concept", "Note"]).labels)
    ['Club', 'Project', 'Skill', 'Student', 'Subject']
    """
    if max_values < 1:
        raise InvalidInput(f"max_values must be 1 or more, not {max_values}.")
    # The graph is read once per data version (and version of schema.yaml) and choice of
    # labels; asked again, this costs one command. Each caller gets a copy to change at will.
    yaml = data_dir / "schema.yaml"
    stamp = (yaml.stat().st_mtime_ns, yaml.stat().st_size) if yaml.is_file() else None
    chosen = (sorted(_names(include)) if include is not None else None, sorted(_names(exclude)))
    schema = per_version(db, f"schema {yaml} {stamp} {chosen} {max_values}",
                         lambda: _read_schema(db, data_dir, include, exclude, max_values))
    return copy.deepcopy(schema)


def _read_schema(db: Database, data_dir: Path, include: str | Iterable[str] | None,
                 exclude: str | Iterable[str] | None, max_values: int) -> GraphSchema:
    if db.graph_name not in db.client.list_graphs():
        raise CourseError(f"The graph {db.graph_name!r} is empty: load it with "
                          "`course.load_college(db)` or `python -m course load`.")
    described = load_schema(data_dir)
    label_specs = described.get("labels", {})
    labels = {}
    for label in _chosen_labels(db, include, exclude, list(label_specs)):
        spec = label_specs.get(label, {})
        labels[label] = (spec.get("description", ""),
                         _properties(db, f"(x:{label})", spec.get("properties", {}), max_values))
    rel_specs = {(r["type"], r["from"], r["to"]): r for r in described.get("relationships", [])}
    patterns = []
    rows = db.run("MATCH (a)-[r]->(b) RETURN DISTINCT labels(a)[0], type(r), labels(b)[0]").rows
    for start, kind, end in sorted(rows, key=lambda r: (r[1], r[0])):
        if start not in labels or end not in labels:
            continue
        spec = rel_specs.get((kind, start, end), {})
        props = _properties(db, f"(:{start})-[x:{kind}]->(:{end})", spec.get("properties") or {},
                            max_values)
        patterns.append(RelationshipPattern(kind, start, end, spec.get("description", ""), props))
    return GraphSchema(described.get("description", ""), labels, patterns,
                       described.get("aliases") or {})


# --- entity linking -----------------------------------------------------------------------

@dataclass(frozen=True)
class Mention:
    """A name in the question linked to a value in the graph."""

    text: str       # as written in the question: "debate-ye"
    label: str      # Club
    property: str   # name
    value: str      # Debate Society
    score: float    # 1.0 exact ... 0.5 partial

    def render(self) -> str:
        return f'- "{self.text}" -> {self.label}.{self.property} = {_literal(self.value)}'


_WORD = re.compile(r"[a-z0-9+#]+", re.I)
_SHORT = 3  # words this short must match exactly ("1NF" must not find "2NF")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@lru_cache(maxsize=65_536)   # the same pairs come back question after question
def _similar(a: str, b: str) -> bool:
    if a == b:
        return True
    if min(len(a), len(b)) <= _SHORT:
        return False
    return SequenceMatcher(None, a, b).ratio() >= 0.8


# --- the names linking looks up, read once per data version ------------------------------
# Linking finds the values the full-text indexes would find for the question's words (one
# query per label and question, before), from the names held in memory: a value is a
# candidate when one of its words is a word of the question, is one typo away from it
# (for words longer than 3 letters: the index's `%word%`), or is the same word with another
# ending ("process" finds Processes, "page" finds Paging: the index's English stemming, for
# the endings of plurals and verbs). `_match` then decides, as it did.

# What the full-text index splits a value on (RediSearch's separators): "TCP/IP" is two words.
_SEPARATORS = re.compile(r"[\s,.<>{}\[\]\"':;!@#$%^&*()\-+=~|/?`\\]+")
_ENDINGS = ("ingly", "edly", "ing", "ies", "ied", "es", "ed", "ly", "s", "y")
CANDIDATES_PER_WORD = 20   # per word and label, the best first, as the full-text queries took


def _terms(text: str) -> list[str]:
    """A value's words as the full-text index splits them.

    >>> _terms("TCP/IP")
    ['tcp', 'ip']
    """
    return [t for t in _SEPARATORS.split(text.lower()) if t]


@lru_cache(maxsize=65_536)
def _stem(word: str) -> str:
    """The word without an inflection, so its forms meet: roughly what the index's stemmer does.

    >>> [_stem(w) for w in ("processes", "process", "paging", "page", "dependencies", "dependency")]
    ['process', 'process', 'pag', 'pag', 'dependenc', 'dependenc']
    """
    for ending in _ENDINGS:
        base = word[:-len(ending)]
        if word.endswith(ending) and len(base) >= 3 and not (ending == "s" and base[-1] in "su"):
            word = base
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]                  # "subnetting" -> "subnett" -> "subnet"
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def _deletions(word: str) -> list[str]:
    """The word less one of its letters, each way.

    >>> _deletions("dsa")
    ['sa', 'da', 'ds']
    """
    return list(dict.fromkeys(word[:i] + word[i + 1:] for i in range(len(word))))


def _one_typo(a: str, b: str) -> bool:
    """Are a and b one edit apart (a letter changed, added or dropped)?

    >>> _one_typo("payl", "payal"), _one_typo("procss", "processes")
    (True, False)
    """
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long = sorted((a, b), key=len)
    i = next((i for i, (x, y) in enumerate(zip(short, long)) if x != y), len(short))
    return short[i:] == long[i + 1:]


class _LabelNames:
    """The names of one label's property, by word, by stem, and by length (for typos)."""

    def __init__(self, values: list[str]):
        self.values = set(values)
        self.by_term: dict[str, list[str]] = {}
        self.by_stem: dict[str, list[str]] = {}
        for value in sorted(self.values, key=lambda v: (len(v), v)):   # short names first
            for term in dict.fromkeys(_terms(value)):
                self.by_term.setdefault(term, []).append(value)
                self.by_stem.setdefault(_stem(term), []).append(value)
        self.by_deletion: dict[str, list[str]] = {}   # a term less one letter -> the terms
        for term in self.by_term:
            for shorter in _deletions(term):
                self.by_deletion.setdefault(shorter, []).append(term)

    def candidates(self, word: "_Word") -> list[str]:
        """The names the full-text query for the word finds: the same word, another ending, a typo."""
        if not word.parts:
            return []
        found = [self._for_term(part, fuzzy=word.fuzzy) for part in word.parts]
        both = set.intersection(*(set(f) for f in found))   # the parts must all be there
        return [v for v in found[0] if v in both][:CANDIDATES_PER_WORD]

    def _for_term(self, term: "_Term", *, fuzzy: bool) -> list[str]:
        exact = self.by_term.get(term.text, []) + self.by_stem.get(term.stem, [])
        typos = [v for t in self._one_typo_away(term) for v in self.by_term[t]] if fuzzy else []
        return list(dict.fromkeys(exact + typos))

    def _one_typo_away(self, term: "_Term") -> list[str]:
        """The index's terms one edit from `term`, found through their one-letter deletions."""
        near = [d for d in term.shorter if d in self.by_term]           # a letter more in `term`
        near += self.by_deletion.get(term.text, [])                     # a letter less in `term`
        near += [t for d in term.shorter for t in self.by_deletion.get(d, [])]   # one changed
        return sorted({t for t in near if _one_typo(t, term.text)}, key=lambda t: (len(t), t))


class _Term(NamedTuple):
    """A word of the question as the index is searched with it: itself, its stem, its deletions."""

    text: str
    stem: str
    shorter: list[str]


class _Word(NamedTuple):
    """A word of the question, worked out once for every label it is looked up in."""

    parts: list[_Term]   # "c++" is searched as "c", as the index splits it
    fuzzy: bool          # a typo is allowed only in a word longer than three letters

    @classmethod
    def of(cls, word: str) -> "_Word":
        return cls([_Term(t, _stem(t), _deletions(t)) for t in _terms(word)], len(word) > _SHORT)


class NameIndex:
    """The graph's names as linking needs them, read once per data version (`name_index`).

    One label's names are read the first time a question needs them, a page at a time.
    """

    def __init__(self, db: Database):
        self.db = db
        self._labels: dict[tuple[str, str], _LabelNames] = {}

    def names(self, label: str, prop: str) -> _LabelNames:
        if (label, prop) not in self._labels:
            rows = every_row(self.db, f"MATCH (n:{label}) WHERE id(n) > $after "
                                      f"RETURN id(n), n.{prop} ORDER BY id(n) LIMIT $page")
            self._labels[(label, prop)] = _LabelNames([v for _, v in rows if isinstance(v, str)])
        return self._labels[(label, prop)]

    def warm(self, labels: dict[str, str] = FULLTEXT_PROPERTY) -> "NameIndex":
        """Read these labels' names now (the agent does, before its first question)."""
        for label, prop in labels.items():
            self.names(label, prop)
        return self


def name_index(db: Database) -> NameIndex:
    """The names of db's graph, as they are now: read again only after the graph changed."""
    return per_version(db, "names", lambda: NameIndex(db))


def _match(value: str, words: list[str]) -> tuple[float, list[int]]:
    """How well a value's words are found among the question's words, and where.

    A partial match must include the value's first word: "debate" finds Debate Society and
    "library" finds Library Management System, but "clubs" alone is no particular club.
    """
    value_words = _words(value)
    hits = [[i for i, w in enumerate(words) if _similar(vw, w)] for vw in value_words]
    matched = sum(bool(h) for h in hits)
    if not matched or (matched < len(value_words) and not hits[0]):
        return 0.0, []
    if matched < len(value_words) and len(value_words[0]) <= _SHORT:
        return 0.0, []
    return matched / len(value_words), sorted({i for h in hits for i in h})


def link_entities(db: Database, question: str, *, schema: GraphSchema | None = None,
                  labels: dict[str, str] | None = None) -> list[Mention]:
    """Values of the graph that the question names, best first, at most one per phrase."""
    words = _words(question)
    # the labels a schema was read with (include/exclude): a left-out label's names are not linked
    labels = labels or {label: prop for label, prop in FULLTEXT_PROPERTY.items()
                        if schema is None or label in schema.labels}
    index = name_index(db)
    found: dict[tuple[str, str], tuple[float, list[int]]] = {}
    searched = [_Word.of(w) for w in dict.fromkeys(w for w in words if len(w) >= 2)]
    for label, prop in labels.items():
        names = index.names(label, prop)
        candidates = dict.fromkeys(v for word in searched for v in names.candidates(word))
        for value in candidates:
            score, used = _match(value, words)
            if score and score > found.get((label, value), (0, []))[0]:
                found[(label, value)] = (score, used)
    for value, aliases in ((schema.aliases if schema else None) or {}).items():
        for alias in aliases:
            alias_words = _words(alias)
            for start in range(len(words) - len(alias_words) + 1):
                if words[start:start + len(alias_words)] == alias_words:
                    for label in [k for k, prop in labels.items() if value in index.names(k, prop).values]:
                        span = list(range(start, start + len(alias_words)))
                        if len(span) >= len(found.get((label, value), (0, []))[1]):
                            found[(label, value)] = (1.0, span)
    return _best_mentions(found, words)


def _best_mentions(found: dict, words: list[str]) -> list[Mention]:
    """Keep the strongest reading of each phrase: 'memory management' is not also 'Virtual Memory'."""
    ranked = sorted(found.items(), key=lambda kv: (-kv[1][0], -len(kv[1][1]), kv[1][1]))
    taken: set[int] = set()
    mentions = []
    for (label, value), (score, used) in ranked:
        if score < 1.0 and set(used) <= taken:
            continue
        taken |= set(used)
        text = " ".join(words[i] for i in used) if used else value
        mentions.append(Mention(text, label, FULLTEXT_PROPERTY.get(label, "name"), value, round(score, 2)))
    return sorted(mentions, key=lambda m: min((words.index(w) for w in _words(m.text) if w in words), default=0))
