"""What the prompt says: the schema's labels, patterns and values, and the user message's sections.

Used by the offline provider (notebooks 05 and 09). The rules read exactly the prompt a real
LLM gets: the schema in the system message, and the LINKED VALUES, CONVERSATION SO FAR,
RECENTLY MENTIONED, PREVIOUS ATTEMPT FAILED and QUESTION sections of the user message.

>>> parse_prompt('QUESTION: Who is Zoya?', SCHEMA_EXAMPLE).schema.labels
{'Person': ['id', 'name', 'year', 'city']}
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

# A tiny schema in the format of `GraphSchema.render()`, for the docstrings and the tests.
SCHEMA_EXAMPLE = """\
NODES:
- Person {id, name, year, city}: One person.
    year (integer): Year of study. Values: 2, 3, 4.

RELATIONSHIPS (direction matters):
- (:Person)-[:KNOWS]->(:Person): Knows."""

# --- what the prompt says ------------------------------------------------------------------


@dataclass(frozen=True)
class Entity:
    """A graph value the question names (a linked value) or that was mentioned before."""

    label: str
    prop: str
    value: Any

    @property
    def values(self) -> tuple[Any, ...]:
        """The values it stands for: several for a group ("them": Karan and Sneha), else one."""
        return self.value if isinstance(self.value, tuple) else (self.value,)


@dataclass(frozen=True)
class Pattern:
    """One relationship pattern of the schema: (:start)-[:type {props}]->(:end)."""

    start: str
    type: str
    end: str
    props: tuple[str, ...] = ()


@dataclass
class Schema:
    """The parts of the schema prompt the rules use."""

    labels: dict[str, list[str]] = field(default_factory=dict)   # label -> property names
    patterns: list[Pattern] = field(default_factory=list)
    scales: dict[str, list[str]] = field(default_factory=dict)   # "TYPE.prop" -> best first
    values: dict[str, list[Any]] = field(default_factory=dict)   # "Label.prop" -> values
    numbers: set[str] = field(default_factory=set)               # "Label.prop": a number

    def display(self, label: str) -> str:
        """The property that names a node: name, else text, else the first one."""
        props = self.labels.get(label, [])
        return next((p for p in ("name", "title", "text") if p in props), props[0] if props else "name")

    def shown(self, label: str) -> list[str]:
        """The properties a row of `label` shows: its name; a text's id too, so a note is named."""
        props = self.labels.get(label, [])
        if "name" not in props and "text" in props:
            return [p for p in ("id", "text") if p in props]
        return [self.display(label)]

    def touching(self, label: str) -> list[Pattern]:
        """The patterns with `label` at either end."""
        return [p for p in self.patterns if label in (p.start, p.end)]


_NODE = re.compile(r"^- (\w+) \{([^}]*)\}")
_REL = re.compile(r"^- \(:(\w+)\)-\[:(\w+)(?: \{([^}]*)\})?\]->\(:(\w+)\)")
_PROP = re.compile(r"^\s{2,}(\w+) \((\w+)\): ?(.*)$")
_SCALE = re.compile(r"^- (\w+)\.(\w+): (.+)$")


def parse_schema(text: str) -> Schema:
    """Read labels, patterns, listed values and scales from a rendered schema.

    >>> parse_schema(SCHEMA_EXAMPLE).values
    {'Person.year': [2, 3, 4]}
    """
    schema, owner, in_scales = Schema(), "", False
    for line in text.splitlines():
        if line.startswith("VALUE SCALES"):
            in_scales = True
        elif not line.strip() or line.startswith(("RULES:", "EXAMPLES:")):
            in_scales = False if line.strip() else in_scales
        if (m := _NODE.match(line)) and not in_scales:
            owner = m[1]
            schema.labels[owner] = [p.strip() for p in m[2].split(",") if p.strip()]
        elif m := _REL.match(line):
            owner = m[2]
            props = tuple(p.strip() for p in (m[3] or "").split(",") if p.strip())
            schema.patterns.append(Pattern(m[1], m[2], m[4], props))
        elif (m := _PROP.match(line)) and owner:
            if m[2] in ("integer", "float"):
                schema.numbers.add(f"{owner}.{m[1]}")
            found = _listed_values(m[3])
            if found:
                schema.values[f"{owner}.{m[1]}"] = found
        elif in_scales and (m := _SCALE.match(line)):
            schema.scales[f"{m[1]}.{m[2]}"] = [v.strip() for v in m[3].split(",")]
    return schema


# An upper-case letter, written as its code points so no value of any graph is spelled here.
def _listed_values(description: str) -> list[Any]:
    """`Values: 'CSE', 'ECE'.` -> ['CSE', 'ECE']; else a list in the sentence (`: A, B or C.`)."""
    if m := re.search(r"Values: (.+)\.\s*$", description):
        return [int(v) if v.strip().isdigit() else v.strip().strip("'")
                for v in re.findall(r"'(?:[^'\\]|\\.)*'|-?\d+", m[1])]
    if m := re.search(r": ((?:[\u0041-\u005a][\w+-]*(?: [\u0041-\u005a][\w+-]*)*, )+[\u0041-\u005a][\w+-]*(?: [\u0041-\u005a][\w+-]*)* or "
                      r"[\u0041-\u005a][\w+-]*(?: [\u0041-\u005a][\w+-]*)*)\.", description):
        return re.split(r", | or ", m[1])
    return []


@dataclass
class Prompt:
    """The sections of a Cypher prompt (see course.pipeline.prompts.cypher_user_prompt)."""

    question: str
    linked: list[tuple[str, Entity]]          # (text as written, value)
    recent: list[Entity]                      # most recent first
    turns: list[tuple[str, str, str]]         # (question, Cypher, rows as JSON) of each earlier turn
    hint: str | None
    schema: Schema


_LINKED = re.compile(r'^- "(.*)" -> (\w+)\.(\w+) = (.+)$')
_RECENT = re.compile(r"^- (\w+)(?:\.(\w+))?: (.+)$")


def _section(text: str, heading: str) -> str:
    """The lines after `heading` up to the next blank line or heading."""
    m = re.search(rf"(?m)^{re.escape(heading)}[^\n]*\n((?:.+\n?)*)", text)
    return m[1] if m else ""


def _unescape(match: re.Match[str]) -> str:
    code = match[1]
    return chr(int(code[1:], 16)) if len(code) == 5 else {"n": "\n", "r": "\r", "t": "\t"}.get(code, code)


def literal_value(text: str) -> Any:
    text = text.strip()
    if text.startswith("'") and text.endswith("'"):   # course.pipeline.schema.cypher_literal's escapes
        return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", _unescape, text[1:-1])
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def parse_prompt(prompt: str, system: str | None) -> Prompt:
    """Split the user message into its sections, and read the schema."""
    body, _, question = prompt.rpartition("QUESTION:")
    linked = [(m[1], Entity(m[2], m[3], literal_value(m[4])))
              for line in _section(body, "LINKED VALUES").splitlines() if (m := _LINKED.match(line))]
    recent = []
    for line in _section(body, "RECENTLY MENTIONED").splitlines():
        if m := _RECENT.match(line.strip()):
            recent.append(Entity(m[1], m[2] or "", literal_value(m[3])))
    turns = [(m[1], m[2] or "", m[3] or "") for m in re.finditer(
        r"(?ms)^\[Turn \d+\] User: ([^\n]*)\n(?:Cypher: (.*?))?(?:^Result: ([^\n]*)\n?)?"
        r"(?=^Answer:|^\[Turn|^\n|\Z)", _section(body, "CONVERSATION SO FAR"))]
    hint = _section(body, "PREVIOUS ATTEMPT FAILED") or None
    schema = parse_schema("\n".join(t for t in (system, body) if t))
    recent = [replace(e, prop=e.prop or schema.display(e.label)) for e in recent]
    return Prompt(question.strip(), linked, recent, turns, hint, schema)
