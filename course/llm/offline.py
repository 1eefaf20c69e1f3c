"""The offline provider: a deterministic, rule-based text-to-Cypher baseline. No LLM service.

Introduced in notebook 05 (the agent runs on it when no key is set) and measured in
notebook 09 (evaluation). It reads exactly the prompt a real LLM gets and nothing else:

- the schema in the system message (node labels and properties, relationship patterns,
  listed values and the VALUE SCALES used for ranking);
- the user message: LINKED VALUES (the names in the question, as stored in the graph),
  CONVERSATION SO FAR and RECENTLY MENTIONED (for "uska", "her", "and DSA?"), the
  PREVIOUS ATTEMPT FAILED hint, and the QUESTION.

It knows no data: every name it writes comes from the prompt. It recognises a question by
a small table of intents (`INTENTS`: cue words in English and Hinglish -> a Cypher
template over the linked values' labels); when none fits, or when its query would leave out
a word that changes the answer, it answers with the sentinel `RETURN 'OUT_OF_SCOPE' AS status`.
It never writes a write query: a request to change the data gets `RETURN 'READ_ONLY' AS status`.
Only a pronoun or an elliptical follow-up ("and DSA?") borrows names from the conversation.
For the answer step (a prompt holding rows between `<<<DATA` and `DATA>>>`) it writes a short
factual sentence from the rows, in the language of the question, and never follows text
inside the rows.

To extend it, add a cue to `CUES` and an entry to `INTENTS` (notebook 09's exercise).

>>> llm = OfflineLLM()
>>> user = 'LINKED VALUES (...):\\n- "payal" -> Student.name = \\'Payal\\'\\n\\nQUESTION: Who is Payal?'
>>> print(llm.generate(user, system=SCHEMA_EXAMPLE))
MATCH (e:Student {name: 'Payal'})
RETURN e.name AS name, e.year AS year, e.branch AS branch
"""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from typing import Any, Callable

from course.llm.base import LLM, Completion, Usage, elapsed_ms
from course import prompts
from course.prompts import READ_ONLY_QUERY, SENTINEL_QUERY, language_of

# A tiny schema in the format of `GraphSchema.render()`, for the docstrings and the tests.
SCHEMA_EXAMPLE = """\
NODES:
- Student {id, name, year, branch}: A student.
    year (integer): Year of study. Values: 2, 3, 4.

RELATIONSHIPS (direction matters):
- (:Student)-[:FRIENDS_WITH]->(:Student): Friends."""

# --- what the prompt says ------------------------------------------------------------------


@dataclass(frozen=True)
class Entity:
    """A graph value the question names (a linked value) or that was mentioned before."""

    label: str
    prop: str
    value: Any


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
    scales: dict[str, list[str]] = field(default_factory=dict)   # "STUDIES.grade" -> best first
    values: dict[str, list[Any]] = field(default_factory=dict)   # "Student.branch" -> values
    numbers: set[str] = field(default_factory=set)               # "Club.founded": integer

    def display(self, label: str) -> str:
        """The property that names a node: name, else text, else the first one."""
        props = self.labels.get(label, [])
        return next((p for p in ("name", "title", "text") if p in props), props[0] if props else "name")

    def touching(self, label: str) -> list[Pattern]:
        return [p for p in self.patterns if label in (p.start, p.end)]


_NODE = re.compile(r"^- (\w+) \{([^}]*)\}")
_REL = re.compile(r"^- \(:(\w+)\)-\[:(\w+)(?: \{([^}]*)\})?\]->\(:(\w+)\)")
_PROP = re.compile(r"^\s{2,}(\w+) \((\w+)\): ?(.*)$")
_SCALE = re.compile(r"^- (\w+)\.(\w+): (.+)$")


def parse_schema(text: str) -> Schema:
    """Read labels, patterns, listed values and scales from a rendered schema.

    >>> parse_schema(SCHEMA_EXAMPLE).values
    {'Student.year': [2, 3, 4]}
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


def _listed_values(description: str) -> list[Any]:
    """`Values: 'CSE', 'ECE'.` -> ['CSE', 'ECE']; else a list in the sentence (`: A, B or C.`)."""
    if m := re.search(r"Values: (.+)\.\s*$", description):
        return [int(v) if v.strip().isdigit() else v.strip().strip("'")
                for v in re.findall(r"'(?:[^'\\]|\\.)*'|-?\d+", m[1])]
    if m := re.search(r": ((?:[A-Z][\w+-]*(?: [A-Z][\w+-]*)*, )+[A-Z][\w+-]*(?: [A-Z][\w+-]*)* or "
                      r"[A-Z][\w+-]*(?: [A-Z][\w+-]*)*)\.", description):
        return re.split(r", | or ", m[1])
    return []


@dataclass
class Prompt:
    """The sections of a Cypher prompt (see course.prompts.cypher_user_prompt)."""

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


def _literal_value(text: str) -> Any:
    text = text.strip()
    if text.startswith("'") and text.endswith("'"):
        return text[1:-1].replace("\\'", "'")
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def parse_prompt(prompt: str, system: str | None) -> Prompt:
    """Split the user message into its sections, and read the schema."""
    body, _, question = prompt.rpartition("QUESTION:")
    linked = [(m[1], Entity(m[2], m[3], _literal_value(m[4])))
              for line in _section(body, "LINKED VALUES").splitlines() if (m := _LINKED.match(line))]
    recent = []
    for line in _section(body, "RECENTLY MENTIONED").splitlines():
        if m := _RECENT.match(line.strip()):
            recent.append(Entity(m[1], m[2] or "", _literal_value(m[3])))
    turns = [(m[1], m[2] or "", m[3] or "") for m in re.finditer(
        r"(?ms)^\[Turn \d+\] User: ([^\n]*)\n(?:Cypher: (.*?))?(?:^Result: ([^\n]*)\n?)?"
        r"(?=^Answer:|^\[Turn|^\n|\Z)", _section(body, "CONVERSATION SO FAR"))]
    hint = _section(body, "PREVIOUS ATTEMPT FAILED") or None
    schema = parse_schema("\n".join(t for t in (system, body) if t))
    recent = [replace(e, prop=e.prop or schema.display(e.label)) for e in recent]
    return Prompt(question.strip(), linked, recent, turns, hint, schema)


# --- cues: the words that say what a question asks -------------------------------------------
# Each cue is a regular expression over the question in lower case, with the linked names
# replaced by §0, §1, ... (so "Coding Club" does not read as the word "club").

# Numbers written as words, for "more than one", "at least two", "ek se zyada".
COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ek": 1, "do": 2, "teen": 3}
_N = r"(\d+|" + "|".join(COUNT_WORDS) + r")"
_WHICH = r"(which|what|kis|kaunsa|kaunse|kaunsi|kaun sa|kaun se|kaun si)"   # "which clubs ..."

CUES: dict[str, str] = {
    "write": r"\b(delete|remove|drop|add|insert|create|update|change|modify|rename|wipe|erase|"
             r"clean up|clear|reset|destroy|edit|replace|enrol|enroll|assign|mark|set|put|"
             r"hata\w*|mita\w*|jod\w*|badal\w*|daal\w*|banao|bana do|hatao|kar do|kardo|de do|"
             r"dedo)\b|\bgive §\d+ an?\b"
             r"|\bmake\b.*\b(president|secretary|member|lead|friends?)\b",
    "out_of_scope": r"\b(professors?|teachers?|faculty|lecturers?|instructors?|hod|principal|dean|"
                    r"weather|mausam|masters|mtech|m\.tech|mba|phd|salary|salaries|package|placements?|"
                    r"internships?|jobs?|fees?|hostel|canteen|exams?|timetable|cgpa|gpa|marks|"
                    r"attendance percentage|bitcoin|stock|cricket|movies?|recipe|girlfriend|"
                    r"boyfriend|email|phone|address|birthday|age|height|salary)\b",
    "path": r"\b(path|paths|route|roadmap|journey|sequence|steps|connected|connection|link|linked|"
            r"reach|rasta)\b|§\d+ se .*§\d+ tak|\bfrom §\d+ to §\d+|\bget (from|to) §",
    "next": r"\b(next|aage|agla|agle|upcoming|after|baad|unlocks?|leads? to|opens)\b",
    "most": r"\b(most|maximum|max|highest number|sabse zyada|sabse jyada|popular|busiest|biggest|"
            r"largest)\b",
    "least": r"\b((?<!at )least|fewest|minimum|sabse kam|smallest)\b",
    "common": rf"\b(common|multiple|several|same|(more|fewer|less) than {_N}|at (least|most) {_N}|"
              rf"{_N} or (more|fewer|less)|{_N} se (zyada|jyada|kam))\b",
    "each": r"\b(each|every|per|har)\b",
    "role_word": r"\b(president|secretary|treasurer|(team )?(lead|leads|leader|head|heads)(?! to\b)|"
                 r"captain|chief|in charge|coordinator|developer|engineer|manager|founder|designer)\b",
    "count": r"\b(how many|how much|kitne|kitni|kitna|number of|count|total)\b",
    "rank": r"\b(best|top|topper|toppers|topped|tops|teach|teach me|help me|can help|guide|mentor|"
            r"learn (§\d+ |\w+ )?from|sikh\w*|seekh\w*|highest|strongest|"
            r"expert|experts|better|good at|accha|achha|acha|ache|weakest|worst|lowest|rank|ranked|"
            r"ranking|order of)\b",
    "worst": r"\b(worst|weakest|lowest|(?<!at )least)\b",
    "yes_no": r"^(is|are|does|do|did|has|have|was|were|kya)\b",
    "shared": r"\b(same|share|shares|sharing|common|together|saath|with|classmates?|teammates?)\b",
    "explain": r"\b(what is|what are|what's|whats|explain|explains|kya hai|kya hota|kya hote|samjhao|"
               r"samjha|define|definition|meaning|matlab|tell me about|describe|about)\b",
    "profile": r"^(who is|who's|whos|who was|what is|what's|whats|tell me about|describe|details of|info on|"
               r"profile of)\s*(the\s+)?§\d+\W*$|^§\d+ (kaun|kon|kya) (hai|h|he)\W*$|^§\d+\W*$|\b(details|profile|information|info|"
               r"baare|bare|introduce)\b",
    "either": r"\b(or|either|ya|any of)\b",
    "negation": r"\b(no|not|none|nobody|never|without|nahi|nahin|bina|except|other than)\b|n't\b",
    "opinion": r"\bshould i (join|take|choose|pick|do|select)\b|\b(recommend|suggest|opinion|think)\b",
    "pronoun": r"\b(uska|uski|uske|usne|usko|he|she|her|hers|his|him|it|its|they|them|their|theirs|"
               r"unka|unki|unke|unko|unhe|unhone|inka|inki|inke|inko|woh|wo|yeh|ye|iska|iski|iske)\b",
    "plural": r"\b(they|them|their|theirs|unka|unki|unke|unko|unhe|unhone|inka|inki|inke|inko)\b",
    "male_female": r"\b(uska|uski|uske|usne|usko|he|she|her|hers|his|him)\b",
    "thing": r"\b(it|its|iska|iski|iske|yeh|ye)\b",
}

# Relationship words: a cue that names a relationship type (several types may share one).
RELATION_CUES: dict[str, str] = {
    "STUDIES": r"\b(study|studies|studying|studied|padh\w*|enrolled|taking|takes|took|grades?|"
               r"semester|classmates?|course|courses|subjects?)\b",
    "MEMBER_OF": r"\b(member|members|membership|club|clubs|joined|join|joins|society|belongs?|"
                 r"part of|role)\b",
    "HAS_SKILL": r"\b(skill|skills|skilled|knows?|level|good at|expert|experts|proficient|"
                 r"aata|aati|aate)\b",
    "WORKS_ON": r"\b(works?|working|worked|kaam|projects?|builds?|building|team|teammates?)\b",
    "FRIENDS_WITH": r"\b(friends?|dost\w*|buddy|buddies)\b",
    "REQUIRES": r"\b(needs?|needed|requires?|required|requirements?|uses?|using|stack)\b",
    "COVERS": r"\b(covers?|covered|syllabus|teaches|taught|contains?|topics?|concepts?)\b",
    "INCLUDES": r"\b(includes?|included|contains?|subtopics?|consists?|made up|parts?|part of|"
                r"comes under|falls under|under|inside|within|aata|aate|aati)\b",
    "PREREQUISITE_FOR": r"\b(prerequisites?|prereqs?|pre-requisites?|before|pehle|after|baad|"
                        r"unlocks?|leads? to|depends?|required for|needed for|next)\b",
    "EXPLAINS": r"\b(notes?|explains?|explanation)\b",
}

# Nouns that ask for nodes of a label ("which clubs", "kaun" = who).
LABEL_WORDS: dict[str, str] = {
    "Student": r"\b(students?|who|whom|whose|kaun|kon|kisne|kis ne|people|persons?|classmates?|"
               r"members?|log|friends?|dost\w*|someone|anyone|toppers?|peers?|teammates?)\b",
    "Subject": r"\b(subjects?|courses?|papers?)\b",
    "Club": r"\b(clubs?|societ(?:y|ies))\b",
    "Skill": r"\b(skills?|skillset|technolog(?:y|ies))\b",
    "Project": r"\b(projects?)\b",
    "Concept": r"\b(concepts?|topics?|subtopics?|chapters?)\b",
    "Note": r"\b(notes?|explanations?)\b",
}

# Words for a property ("branch" = branch, "kab bana" = founded); a property's own name counts too.
PROPERTY_WORDS: dict[str, str] = {
    "year": r"\b(years?|saal)\b",
    "branch": r"\b(branch|department|dept|stream|discipline)\b",
    "credits": r"\b(credits?|credit points)\b",
    "founded": r"\b(founded|established|started|set up|formed|created|how old|kab bana|kab bani|"
               r"when was)\b",
    "status": r"\b(status|progress|stage|done|finished|complete|completed)\b",
    "area": r"\b(area|field)\b",
    "code": r"\b(code|course code)\b",
    "id": r"\b(id|roll)\b",
    "grade": r"\b(grades?|scored?|got|marks|result)\b",
    "level": r"\b(level|how good|proficiency)\b",
    "role": r"\b(role|position|post|designation)\b",
    "since": r"\b(since|joined|join|when did)\b",
    "semester": r"\b(semester|sem)\b",
    "text": r"\b(text)\b",
}

# Words for a role that name no listed value themselves: "who leads a club" = its President.
# A role word counts only as a listed value of a `role` property; if the prompt lists none
# ("team lead" of a project), the question gets the sentinel rather than an unfiltered answer.
ROLE_SYNONYMS: dict[str, str] = {
    r"\b(leads?|leader|heads?|captain|chief|in charge)\b(?! to\b)":
        r"\b(president|head|leader|captain|chair\w*)\b",
}

# Ordinary words of a question that carry no meaning for the rules ("please", "mujhe").
COMMON = set("""i me my mine you your we us our can could would will shall may might please pls
    want wanted like need know tell show give find get list name names see let all every each
    any some there here which what who whom whose where when how why is are was were be been
    being am do does did has have had the a an of in on at to for from by with and or but that
    this these those it its they them their he she him her his also too currently now right
    exactly just only thanks thank kindly hey hi hello ok okay so then well really actually
    mujhe hume humein batao bata bataiye batana dikhao kya kaun kon kis kisko kiska kiski kiske
    kahan kab kaise hai hain ho tha thi the ka ke ki ko se mein me par pe aur ya bhi sab saare
    sabhi koi kuch wala wale wali raha rahe rahi karta karti karte kar karo chahiye tak ne ek
    hota hoti hote hua hue one ones many much more most other others else another their whole
    different same both many student anyone someone person people give up as than between still
    learn learning study studying studied take takes taking carry carries worth come comes go
    goes reach pahunch pahunchu pahuchna shortest number help sabse zyada jyada dono ab abhi
    currently kisse kisi kise offered available exist exists kaunsa kaunse kaunsi konsa konse
    konsi""".split())

ORDINALS = {"first": 1, "1st": 1, "pehla": 1, "second": 2, "2nd": 2, "doosra": 2, "dusra": 2,
            "third": 3, "3rd": 3, "teesra": 3, "tisra": 3, "fourth": 4, "4th": 4, "chautha": 4}

# Words that carry no meaning of their own in a follow-up ("and DSA?", "aur Rahul ka?").
FILLER = set("""and aur what about how for of the a an in on at to from is are was ka ke ki ko bhi
    also then phir or with too same question regarding tell me please pls batao bata kya hai
    hain h case one mein me liye wala wali wale ke liye toh to""".split())

# Words that may follow "Payal's" or "of" without asking for an unknown attribute.
KNOWN_AFTER = set("""the a an all any best top next full whole current own other two both
    same last first most""".split())

def _words_of(pattern: str) -> set[str]:
    """The plain words written in a cue's regular expression (escapes like \\b removed)."""
    return set(re.findall(r"[a-z]{2,}", re.sub(r"\\[a-zA-Z]", " ", pattern)))


_VOCAB = sorted({w for table in (CUES, RELATION_CUES, LABEL_WORDS, PROPERTY_WORDS)
                 for pattern in table.values() for w in _words_of(pattern)} | COMMON)


# --- reading a question ---------------------------------------------------------------------


@dataclass
class Reading:
    """A question as the rules see it: its text with names replaced, and its entities."""

    text: str                      # lower case, names as §0, §1 ..., cue words' typos corrected
    entities: list[Entity]         # in the order of the question (and resolved pronouns)
    schema: Schema
    relaxed: bool = False          # after a failed attempt: match names loosely

    def has(self, cue: str) -> bool:
        return bool(re.search(CUES[cue], self.text))

    def relations(self) -> list[str]:
        """Relationship types the question's words name, in schema order."""
        return [t for t in dict.fromkeys(p.type for p in self.schema.patterns)
                if t in RELATION_CUES and re.search(RELATION_CUES[t], self.text)]

    def targets(self) -> list[str]:
        """Labels the question asks for, in the order their nouns appear."""
        found = []
        for label in self.schema.labels:
            pattern = LABEL_WORDS.get(label, rf"\b{label.lower()}s?\b")
            if m := re.search(pattern, self.text):
                found.append((m.start(), label))
        return [label for _, label in sorted(found)]

    def asked_properties(self, owner: str, names: list[str] | tuple[str, ...]) -> list[str]:
        """Properties of `owner` the question asks for."""
        return [p for p in names if re.search(PROPERTY_WORDS.get(p, rf"\b{p}\b"), self.text)
                or (p == "founded" and owner and re.search(r"\bwhen\b", self.text))]


def _correct(word: str) -> str:
    """A known word's typo corrected ("studdies" -> "studies", "wich" -> "which")."""
    if len(word) < 4 or word in _VOCAB or not word.isalpha():
        return word
    close = get_close_matches(word, _VOCAB, n=1, cutoff=0.84 if len(word) > 4 else 0.88)
    return close[0] if close else word


def _cased_values(schema: Schema) -> set[str]:
    """Short listed values kept in capitals while reading (IT is a branch, "it" a pronoun)."""
    listed = [*schema.values.values(), *schema.scales.values()]
    return {v for vs in listed for v in vs if isinstance(v, str) and len(v) <= 3}


def read(question: str, linked: list[tuple[str, Entity]], schema: Schema) -> Reading:
    """Lower-case the question, replace each linked name by §i and correct cue typos.

    >>> read("Who studdies DBMS?", [("dbms", Entity("Subject", "name", "DBMS"))], Schema()).text
    'who studies §0 ?'
    """
    text = " " + question.replace("\u2019", "'") + " "
    entities: list[Entity] = []
    for written, entity in linked:
        for form in (str(entity.value), written):   # the stored name if written in full
            words = re.findall(r"[a-z0-9+#]+", form.lower())
            span = re.compile(r"(?<![a-z0-9+#])" + r"[^a-z0-9+#]{1,3}".join(map(re.escape, words))
                              + r"(?![a-z0-9+#])", re.I)
            text, n = span.subn(f" §{len(entities)} ", text, count=1) if words else (text, 0)
            if n:
                entities.append(entity)
                break
    cased = _cased_values(schema)
    words: list[str] = []
    for token in re.findall(r"§\d+|[A-Za-z0-9+#.'-]+|[^\sA-Za-z0-9]", text):
        bare = token.strip(".'-") or token
        if token.startswith("§") or (bare in cased and (bare != "A" or words)):
            words.append(token if token.startswith("§") else bare)
        else:
            words.append(_correct(bare.lower()))
    text = re.sub(r" ?'s\b", "'s", " ".join(words))
    order = [int(i) for i in re.findall(r"§(\d+)", text)]
    remap = {old: new for new, old in enumerate(order)}
    text = re.sub(r"§(\d+)", lambda m: f"§{remap[int(m[1])]}", text)
    return Reading(text.strip(), [entities[i] for i in order], schema)


# --- Cypher helpers -------------------------------------------------------------------------


def lit(value: Any) -> str:
    """A Cypher literal: 'it\\'s', 42."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def node(var: str, entity: Entity | None = None, label: str | None = None, *,
         relaxed: bool = False) -> tuple[str, list[str]]:
    """`(var:Label {name: 'X'})` and no condition; relaxed: `(var:Label)` + toLower CONTAINS."""
    label = label or (entity.label if entity else "")
    if entity is None:
        return f"({var}:{label})", []
    if isinstance(entity.value, tuple):      # a group: "their" = everyone the last answer named
        return f"({var}:{label})", [f"{var}.{entity.prop} IN [{', '.join(map(lit, entity.value))}]"]
    if relaxed and isinstance(entity.value, str):
        return f"({var}:{label})", [f"toLower({var}.{entity.prop}) CONTAINS toLower({lit(entity.value)})"]
    return f"({var}:{label} {{{entity.prop}: {lit(entity.value)}}})", []


def arrow(pattern: Pattern, left_label: str, rel: str = "", *, direction: str = "") -> str:
    """The relationship between a node of `left_label` (on the left) and the other end."""
    body = f"[{rel}:{pattern.type}]"
    if pattern.start == pattern.end:
        return {"out": f"-{body}->", "in": f"<-{body}-"}.get(direction, f"-{body}-")
    return f"-{body}->" if pattern.start == left_label else f"<-{body}-"


def where(conditions: list[str]) -> str:
    return f"\nWHERE {' AND '.join(conditions)}" if conditions else ""


def alias(label: str, prop: str) -> str:
    return label.lower() if prop in ("name", "title") else prop


def rank_case(expr: str, scale: list[str]) -> str:
    """ORDER BY position in a VALUE SCALE: CASE r.grade WHEN 'A+' THEN 0 ... END."""
    whens = " ".join(f"WHEN {lit(v)} THEN {i}" for i, v in enumerate(scale))
    return f"CASE {expr} {whens} ELSE {len(scale)} END"


# --- resolving a relationship from the question's words ------------------------------------


def direction(reading: Reading) -> str:
    """For a relationship between two nodes of one label: 'in', 'out' or '' (either way)."""
    t = reading.text
    if re.search(r"§\d+ (is )?(a )?(prereq\w*|pre-requisites?) (for|to)\b|\bwhat (is|are) §\d+ (a )?"
                 r"prereq|§\d+ (ke |ka |ki )?baad|\bafter §|\b(next|unlocks?|leads? to|depends? on|"
                 r"opens)\b|§\d+ (unlocks|leads|opens)|\b(required|needed) for\b", t):
        return "out"
    if re.search(r"\b(prereq\w*|pre-requisites?|before|pehle|required|needed)\b", t):
        return "in"
    if re.search(r"\b(part of|belongs? to|comes under|falls under|under|parent)\b", t):
        return "in"
    if re.search(r"\b(includes?|contains?|subtopics?|consists?|made up|parts|inside|within)\b"
                 r"|§\d+ (mein|me) kya", t):
        return "out"
    return ""


@dataclass(frozen=True)
class Hop:
    """How to get from an entity's label to the target label: one or two patterns."""

    patterns: tuple[Pattern, ...]
    labels: tuple[str, ...]        # entity label, [middle label], target label


def resolve(reading: Reading, start: str, target: str | None, *, strict: bool = True) -> Hop | None:
    """The one relationship (or two-step chain) from `start` to `target` the words point to.

    Relationship words narrow the choice ("works" -> WORKS_ON). `strict`: a word that names
    no relationship of this pair means "not this question" ("Who teaches DBMS?" is about
    teachers); with several names in one question the words may belong to another name.
    """
    schema, cues = reading.schema, reading.relations()
    candidates = [p for p in schema.touching(start)
                  if target is None or _other(p, start) == target]
    if not candidates and target is not None and target != start:
        return _two_steps(reading, start, target, cues)
    named = [p for p in candidates if p.type in cues]
    if cues and (named or strict):
        candidates = named
    if target is None and len({(p.type, _other(p, start)) for p in candidates}) > 1:
        # "after DBMS", "X ke baad", "prerequisites of X" point along a same-label link
        same = bool(direction(reading))
        candidates = [p for p in candidates if (_other(p, start) == start) == same] or candidates
    if len({(p.type, p.start, p.end) for p in candidates}) != 1:
        return None
    return Hop((candidates[0],), (start, _other(candidates[0], start)))


def _other(p: Pattern, label: str) -> str:
    return p.end if p.start == label else p.start


def _two_steps(reading: Reading, start: str, target: str, cues: list[str]) -> Hop | None:
    """A unique chain start - middle - target through a third label (no same-label steps)."""
    chains = []
    for first in reading.schema.touching(start):
        middle = _other(first, start)
        if middle in (start, target) or first.start == first.end:
            continue
        for second in reading.schema.touching(middle):
            if _other(second, middle) == target and second.start != second.end:
                chains.append((first, second, middle))
    if cues:
        chains = [c for c in chains if c[0].type in cues or c[1].type in cues] or chains
    if len(chains) != 1:
        return None
    first, second, middle = chains[0]
    return Hop((first, second), (start, middle, target))


def hop_match(reading: Reading, hop: Hop, left: str, right: str, *, rel: str = "r") -> str:
    """`(left)-[r:TYPE]->(right:Label)` (or via a middle node) for a resolved Hop."""
    way = direction(reading)
    if len(hop.patterns) == 1:
        return f"({left}){arrow(hop.patterns[0], hop.labels[0], rel, direction=way)}({right})"
    first, second = hop.patterns
    return (f"({left}){arrow(first, hop.labels[0], direction=way)}(:{hop.labels[1]})"
            f"{arrow(second, hop.labels[1], rel, direction=way)}({right})")


def twice(reading: Reading, hop: Hop | None) -> Hop | None:
    """"friends of friends", "Aarav's friends' friends": a same-label link named twice is two
    hops; named more often, None (the rules do not count hops)."""
    if hop is None or len(hop.patterns) != 1 or hop.labels[0] != hop.labels[1]:
        return hop
    cue = RELATION_CUES.get(hop.patterns[0].type)
    named = len(re.findall(cue, reading.text)) if cue else 0
    if named > 2:
        return None
    return Hop(hop.patterns * 2, hop.labels[:1] * 3) if named == 2 else hop


# --- the intents: each returns a query, or None when the question is not of its kind ----------

Builder = Callable[[Reading], "str | None"]


def refuse(reading: Reading) -> str:
    return SENTINEL_QUERY


def read_only(reading: Reading) -> str:
    """A request to change the data: the read-only sentinel (the agent says it cannot)."""
    return READ_ONLY_QUERY


def path(reading: Reading) -> str | None:
    """A learning path / shortest path between two named nodes, with algo.SPpaths."""
    if len(reading.entities) < 2:
        return None
    a, b = reading.entities[:2]
    if re.search(r"\bto §0 from §1\b|§1 tak .*§0 se", reading.text):
        a, b = b, a
    types = [p.type for p in reading.schema.patterns if p.start == p.end == a.label == b.label]
    if a.label == b.label and not types:
        return None
    rel_types = f"relTypes: [{', '.join(lit(t) for t in dict.fromkeys(types))}], " if types else ""
    (na, ca), (nb, cb) = (node("a", a, relaxed=reading.relaxed), node("b", b, relaxed=reading.relaxed))
    name = reading.schema.display(a.label)
    return (f"MATCH {na}, {nb}{where(ca + cb)}\n"
            f"CALL algo.SPpaths({{sourceNode: a, targetNode: b, {rel_types}"
            "relDirection: 'both', pathCount: 1})\nYIELD path\n"
            f"RETURN [n IN nodes(path) | n.{name}] AS route")


def next_topics(reading: Reading) -> str | None:
    """A student's next topics: concepts 1-2 prerequisite steps beyond their subjects' concepts."""
    students = [e for e in reading.entities if e.label == "Student"]
    if len(reading.entities) != 1 or not students:
        return None
    s, cond = node("s", students[0], relaxed=reading.relaxed)
    return (f"MATCH {s}-[:STUDIES]->(sub:Subject)-[:COVERS]->(c:Concept){where(cond)}\n"
            "MATCH (c:Concept)-[:PREREQUISITE_FOR*1..2]->(next:Concept)\n"
            "WHERE NOT (sub)-[:COVERS]->(next)\n"
            "RETURN DISTINCT next.name AS next_topic")


def most(reading: Reading) -> str | None:
    """Who / which has the most (or fewest) of something, ties included."""
    if reading.entities:
        return None
    labels = reading.targets()
    if not labels:
        return None
    group = _asked_label(reading, labels)
    numeric = [p for p in reading.asked_properties(group, reading.schema.labels.get(group, []))
               if f"{group}.{p}" in reading.schema.numbers]
    if numeric and len(labels) == 1:
        return _extreme_property(reading, group, numeric[0])
    friends = group == "Student" and "FRIENDS_WITH" in reading.relations()
    others = [t for t in labels if t != group]
    counted = others[0] if others else ("Student" if group != "Student" or friends else None)
    if counted is None or (group == counted and not friends):
        return None
    hop = resolve(reading, group, counted)
    if hop is None:
        return None
    pick = "min" if reading.has("least") else "max"
    pattern = hop_match(reading, hop, f"g:{group}", f"k:{counted}", rel="")
    name = reading.schema.display(group)
    noun = alias(counted, "name") + "s" if counted != group else "friends"
    return (f"MATCH {pattern}\nWITH g, count(DISTINCT k) AS n\nWITH {pick}(n) AS top\n"
            f"MATCH {pattern}\nWITH g, count(DISTINCT k) AS n, top WHERE n = top\n"
            f"RETURN g.{name} AS {alias(group, name)}, n AS {noun}")


def per_group(reading: Reading) -> str | None:
    """How many of one label each node of another has: 'How many students are in each club?',
    'skills per student', 'har club mein kitne log?'. Every group is listed, with 0 too."""
    m = re.search(r"\b(each|every|per|har)\s+(\w+)", reading.text)
    if reading.entities or not reading.has("count") or not m:
        return None
    group = next((label for label in reading.schema.labels
                  if re.fullmatch(LABEL_WORDS.get(label, rf"\b{label.lower()}s?\b"), m[2])), None)
    if group is None:
        return None
    friends = group == "Student" and "FRIENDS_WITH" in reading.relations()
    counted = next((t for t in reading.targets() if t != group), "Student" if friends else None)
    hop = resolve(reading, group, counted) if counted else None
    if hop is None:
        return None
    name = reading.schema.display(group)
    noun = alias(counted, "name") + "s" if counted != group else "friends"
    return (f"MATCH (g:{group})\nOPTIONAL MATCH {hop_match(reading, hop, 'g', f'k:{counted}', rel='')}\n"
            f"RETURN g.{name} AS {alias(group, name)}, count(DISTINCT k) AS {noun}")


def _extreme_property(reading: Reading, label: str, prop: str) -> str:
    """The node(s) with the largest (or smallest) value of a number: most credits."""
    pick = "min" if reading.has("least") else "max"
    name = reading.schema.display(label)
    return (f"MATCH (g:{label})\nWITH {pick}(g.{prop}) AS top\nMATCH (g:{label})\n"
            f"WHERE g.{prop} = top\nRETURN g.{name} AS {alias(label, name)}, g.{prop} AS {prop}")


def _asked_label(reading: Reading, labels: list[str]) -> str:
    """The label a question asks about: "which subject ...", else who/kaun (Student), else the first."""
    for label in labels:
        noun = LABEL_WORDS.get(label, rf"\b{label.lower()}s?\b")
        if re.search(rf"\b{_WHICH} (\w+ )?{noun}", reading.text):
            return label
    if "Student" in labels and re.search(r"\b(who|whom|kaun|kon|kisne)\b", reading.text):
        return "Student"
    return labels[0]


def common(reading: Reading) -> str | None:
    """Nodes linked to more than one of another label, or what two students have in common.

    "What is common in all the clubs?" / "students in more than one club" -> students with
    several clubs; "Which clubs have more than one member?" -> clubs with several students.
    """
    students = [e for e in reading.entities if e.label == "Student"]
    if len(students) == 2 and len(reading.entities) == 2:
        return _in_common(reading, *students)
    limit = threshold(reading)
    labels = reading.targets()
    if reading.entities or limit is None or not labels:
        return None
    asked = _asked_label(reading, labels)
    if asked == "Student" or not re.search(rf"\b{_WHICH} (\w+ )?{LABEL_WORDS.get(asked, asked.lower())}",
                                           reading.text):
        asked = "Student"             # the course text's reading: the students clubs share
    counted = next((t for t in labels if t != asked), "Student" if asked != "Student" else None)
    hop = resolve(replace(reading, text=""), asked, counted) if counted else None
    if hop is None or len(hop.patterns) != 1:
        return None
    name, other = reading.schema.display(asked), reading.schema.display(counted)
    g = "s" if asked == "Student" else asked.lower()     # (s:Student), (club:Club), ...
    plural, (op, number) = counted.lower() + "s", limit
    link = f"({g}:{asked}){arrow(hop.patterns[0], asked)}(x:{counted})"
    if op in ("<", "<="):             # "fewer than 3 members": a club with none counts too
        link = f"({g}:{asked})\nOPTIONAL MATCH ({g}){arrow(hop.patterns[0], asked)}(x:{counted})"
    return (f"MATCH {link}\nWITH {g}, collect(DISTINCT x.{other}) AS {plural}, count(DISTINCT x) AS n\n"
            f"WHERE n {op} {number}\nRETURN {g}.{name} AS {alias(asked, name)}, {plural}")


# "more than one", "at least 2", "two or more", "ek se zyada" -> (operator, number).
THRESHOLDS = [(rf"\b(more than|over|above) {_N}\b|\b{_N} se (zyada|jyada)\b", ">"),
              (rf"\bat least {_N}\b|\b{_N} or more\b", ">="),
              (rf"\b(fewer than|less than|under|below) {_N}\b|\b{_N} se kam\b", "<"),
              (rf"\bat most {_N}\b|\b{_N} or (fewer|less)\b", "<=")]


def threshold(reading: Reading) -> tuple[str, int] | None:
    """How many links a "common" question asks for: 'more than one' -> ('>', 1); 'multiple',
    'several', 'common', 'both' -> ('>', 1); None when it names no such amount."""
    for pattern, op in THRESHOLDS:
        if m := re.search(pattern, reading.text):
            word = next(g for g in m.groups() if g and (g.isdigit() or g in COUNT_WORDS))
            return op, int(word) if word.isdigit() else COUNT_WORDS[word]
    if re.search(r"\b(common|multiple|several|both)\b", reading.text):
        return ">", 1
    return None


def _in_common(reading: Reading, a: Entity, b: Entity) -> str | None:
    if not re.search(r"\b(common|share|shares|same|both|dono)\b", reading.text):
        return None
    parts = []
    for p in reading.schema.patterns:
        if p.start == a.label and p.end != a.label:
            na, ca = node("a", a, relaxed=reading.relaxed)
            nb, cb = node("b", b, relaxed=reading.relaxed)
            parts.append(f"MATCH {na}-[:{p.type}]->(x:{p.end})<-[:{p.type}]-{nb}{where(ca + cb)}\n"
                         f"RETURN x.{reading.schema.display(p.end)} AS shared, {lit(p.end)} AS kind")
    return "\nUNION\n".join(parts) or None


def count(reading: Reading) -> str | None:
    """How many students (in DBMS, in CSE, ...), how many concepts a subject covers."""
    if reading.has("each"):       # per group: `per_group` answers it, or no one does
        return None
    targets = reading.targets()
    target = next((t for t in targets if all(t != e.label for e in reading.entities)), None)
    if target is None and reading.entities and targets:
        target = targets[0]
    if target is None:
        return None
    for e in reading.entities:
        if reading.asked_properties(e.label, [p for p in reading.schema.labels.get(e.label, [])
                                              if p not in ("name", "id")]):
            return None
    body = conditions(reading, target, reading.entities)
    if body is None:
        return None
    match, conds = body
    noun = target.lower() + "s"
    return f"{match}{where(conds)}\nRETURN count(DISTINCT t) AS {noun}"


def ranking(reading: Reading) -> str | None:
    """Best first by a VALUE SCALE: 'best person to teach me DBMS', 'learn ML from'."""
    if len(reading.entities) > 1:
        return None
    for key, scale in reading.schema.scales.items():
        rel_type, prop = key.split(".")
        for p in reading.schema.patterns:
            if p.type != rel_type or p.start != "Student":
                continue
            if reading.entities and reading.entities[0].label != p.end:
                continue
            if not reading.entities and not re.search(PROPERTY_WORDS.get(prop, prop), reading.text) \
                    and p.type not in reading.relations():
                continue
            x, cond = node("x", reading.entities[0] if reading.entities else None, p.end,
                           relaxed=reading.relaxed)
            order = rank_case(f"r.{prop}", scale) + (" DESC" if reading.has("worst") else "")
            extra = "" if reading.entities else f", x.{reading.schema.display(p.end)} AS {p.end.lower()}"
            return (f"MATCH (s:Student)-[r:{rel_type}]->{x}{where(cond)}\n"
                    f"RETURN s.name AS student{extra}, r.{prop} AS {prop}\n"
                    f"ORDER BY {order}, s.name")
    return None


def yes_no(reading: Reading) -> str | None:
    """'Does Aarav study DBMS?', 'Are Aarav and Payal friends?'."""
    if len(reading.entities) != 2:
        return None
    a, b = reading.entities
    hop = twice(reading, resolve(reading, a.label, b.label))
    if hop is None or len(hop.patterns) != 1:
        return None
    (na, ca), (nb, cb) = node("a", a, relaxed=reading.relaxed), node("b", b, relaxed=reading.relaxed)
    link = arrow(hop.patterns[0], a.label, "r", direction=direction(reading))
    return f"MATCH {na}, {nb}{where(ca + cb)}\nOPTIONAL MATCH (a){link}(b)\nRETURN count(r) > 0 AS answer"


def relationship_property(reading: Reading) -> str | None:
    """A property of the link between two named nodes: Payal's grade in DBMS, role in a club."""
    if len(reading.entities) != 2:
        return None
    a, b = reading.entities
    hop = resolve(replace(reading, text=""), a.label, b.label)
    if hop is None or len(hop.patterns) != 1 or not hop.patterns[0].props:
        return None
    asked = reading.asked_properties("", hop.patterns[0].props)
    if not asked:
        return None
    (na, ca), (nb, cb) = node("a", a, relaxed=reading.relaxed), node("b", b, relaxed=reading.relaxed)
    link = arrow(hop.patterns[0], a.label, "r")
    cols = ", ".join(f"r.{p} AS {p}" for p in asked)
    return f"MATCH {na}{link}{nb}{where(ca + cb)}\nRETURN {cols}"


def shared(reading: Reading) -> str | None:
    """Who studies the same subjects as Payal / is in the same club as Sneha / works with Rahul."""
    students = [e for e in reading.entities if e.label == "Student"]
    others = [e for e in reading.entities if e.label != "Student"]
    if len(students) != 1 or len(others) > 1 or not reading.has("shared") \
            or "FRIENDS_WITH" in reading.relations():
        return None
    thing = others[0].label if others else next(
        (t for t in reading.targets() if t != "Student"), None)
    hop = resolve(reading, "Student", thing) if thing else None
    if hop is None and not thing:
        cues = [p for p in reading.schema.touching("Student")
                if p.type in reading.relations() and p.start != p.end]
        hop = Hop((cues[0],), ("Student", _other(cues[0], "Student"))) if len(cues) == 1 else None
    if hop is None or len(hop.patterns) != 1:
        return None
    p, label = hop.patterns[0], hop.labels[1]
    me, c1 = node("me", students[0], relaxed=reading.relaxed)
    x, c2 = node("x", others[0] if others else None, label, relaxed=reading.relaxed)
    back = arrow(p, label)
    shown = "" if others else f", x.{reading.schema.display(label)} AS {alias(label, 'name')}"
    return (f"MATCH {me}{arrow(p, 'Student')}{x}{back}(t:Student){where(c1 + c2 + ['t <> me'])}\n"
            f"RETURN DISTINCT t.name AS student{shown}")


def explain(reading: Reading) -> str | None:
    """What a concept is: its properties and the note that explains it."""
    if len(reading.entities) != 1 or not reading.has("explain") or reading.targets() \
            or set(reading.relations()) - {"EXPLAINS"} or direction(reading):
        return None
    e = reading.entities[0]
    notes = [p for p in reading.schema.patterns
             if p.end == e.label and "text" in reading.schema.labels.get(p.start, [])]
    if len(notes) != 1:
        return None
    p = notes[0]
    c, cond = node("c", e, relaxed=reading.relaxed)
    cols = [f"c.{q} AS {alias(e.label, q)}" for q in reading.schema.labels[e.label] if q != "id"]
    return (f"MATCH {c}{where(cond)}\nOPTIONAL MATCH (n:{p.start})-[:{p.type}]->(c)\n"
            f"RETURN {', '.join(cols)}, n.text AS note")


def properties(reading: Reading) -> str | None:
    """A property of named nodes (Payal's year, DBMS credits), or their profile ('Who is Payal?')."""
    if not reading.entities:
        return None
    label = reading.entities[0].label
    if any(e.label != label for e in reading.entities):
        return None
    props = reading.schema.labels.get(label, [])
    name = reading.schema.display(label)
    asked = [p for p in reading.asked_properties(label, props) if p != name]
    if not asked and (not reading.has("profile") or reading.relations()
                      or any(t != label for t in reading.targets())):
        return None
    shown = [name] + (asked or [p for p in props if p not in ("id", name)])
    cols = ", ".join(f"e.{p} AS {p}" for p in shown)
    if len(reading.entities) == 1:
        e, cond = node("e", reading.entities[0], relaxed=reading.relaxed)
        return f"MATCH {e}{where(cond)}\nRETURN {cols}"
    values = ", ".join(lit(e.value) for e in reading.entities)
    return f"MATCH (e:{label})\nWHERE e.{name} IN [{values}]\nRETURN {cols}"


def related(reading: Reading) -> str | None:
    """Nodes linked to the named ones: who studies DBMS, Payal's clubs, dbms and debate dono."""
    if not reading.entities:
        return None
    targets = [t for t in reading.targets()]
    target = next((t for t in targets if all(t != e.label for e in reading.entities)
                   or (t == "Student" and "FRIENDS_WITH" in reading.relations())
                   or direction(reading)), None)
    if target is None and len(reading.entities) > 1 and "Student" in targets:
        target = "Student"
    if target is None and len(reading.entities) == 1:
        hop = resolve(reading, reading.entities[0].label, None)
        target = hop.labels[-1] if hop else None
    if target is None:
        return None
    body = conditions(reading, target, reading.entities)
    if body is None:
        return None
    match, conds = body
    cols = [f"t.{p} AS {alias(target, p)}" for p in _shown(reading, target)]
    rel_props = _asked_rel_props(reading, target) if len(reading.entities) == 1 else []
    cols += [f"r0.{p} AS {p}" for p in rel_props]
    # a group ("their skills" after "Karan and Rahul"): say whose each row is
    cols = [f"x{i}.{e.prop} AS {alias(e.label, e.prop)}" for i, e in enumerate(reading.entities)
            if isinstance(e.value, tuple)] + cols
    return f"{match}{where(conds)}\nRETURN DISTINCT {', '.join(cols)}"


def _shown(reading: Reading, label: str) -> list[str]:
    props = reading.schema.labels.get(label, [])
    if "name" not in props and "text" in props:
        return [p for p in ("id", "text") if p in props]
    return [reading.schema.display(label)]


def _asked_rel_props(reading: Reading, target: str) -> list[str]:
    e = reading.entities[0]
    hop = resolve(reading, e.label, target)
    if hop is None or len(hop.patterns) != 1:
        return []
    return [p for p in reading.asked_properties("", hop.patterns[0].props)
            if not filters(reading, f"{hop.patterns[0].type}.{p}", "r")]


def conditions(reading: Reading, target: str, entities: list[Entity]) -> tuple[str, list[str]] | None:
    """MATCH lines linking (t:target) to every entity, plus the value filters, as (text, WHERE)."""
    either = reading.has("either") and len(entities) > 1 and len({e.label for e in entities}) == 1
    lines, conds = [], []
    groups = [entities] if either else [[e] for e in entities]
    for i, group in enumerate(groups):
        e = group[0]
        if e.label == target and not reading.relations() and not direction(reading):
            return None
        hop = twice(reading, resolve(reading, e.label, target, strict=len(groups) == 1))
        if hop is None:
            return None
        t = f"t:{target}" if i == 0 else "t"
        if either:
            lines.append(f"MATCH {hop_match(reading, hop, f'x{i}:{e.label}', t, rel=f'r{i}')}")
            conds.append(f"x{i}.{e.prop} IN [{', '.join(lit(g.value) for g in group)}]")
            continue
        x, c = node(f"x{i}", e, relaxed=reading.relaxed)
        lines.append(f"MATCH {hop_match(reading, hop, x[1:-1], t, rel=f'r{i}')}")
        conds += c
        if len(hop.patterns) == 1:
            conds += _rel_filters(reading, hop.patterns[0], f"r{i}")
    if not entities:
        lines.append(f"MATCH (t:{target})")
        reached = " ".join(line for line, _ in _rel_filter_hops(reading, target))
        for other in _generic(reading, target):      # "who works on a project": any project
            if f"(:{other})" in reached:              # "who got a B in any subject": done below
                continue
            hop = resolve(reading, target, other)
            if hop is None:
                return None
            lines.append(f"MATCH {hop_match(reading, hop, 't', f':{other}', rel='')}")
    conds += _node_filters(reading, target)
    for line, cond in (_rel_filter_hops(reading, target) if not entities else []):
        lines.append(line)
        conds.append(cond)
    if entities and any(e.label == target for e in entities):
        conds += [f"t <> x{i}" for i, e in enumerate(entities) if e.label == target and not either]
    return "\n".join(lines), conds


def _generic(reading: Reading, target: str) -> list[str]:
    """Labels the question names with 'a', 'any', 'some' or 'koi': 'a club' means any club."""
    return [label for label in reading.targets() if label != target and re.search(
        rf"\b(a|an|any|some|koi|kisi)( \w+)? {LABEL_WORDS.get(label, label.lower())}", reading.text)]


# A word before a number ("before 2016", "more than 3") or after it ("2016 se pehle").
COMPARISONS = [(r"(before|earlier than|prior to|older than|less than|fewer than|under|below)\s+$", "<"),
               (r"(after|later than|newer than|more than|greater than|over|above)\s+$", ">"),
               (r"(at least|minimum of|or more)\s+$", ">="), (r"(at most|maximum of)\s+$", "<="),
               (r"^\s+(se pehle|ke pehle|se kam)\b", "<"), (r"^\s+(ke baad|se zyada|se jyada)\b", ">"),
               (r"^\s+or (more|above|later)\b", ">="), (r"^\s+or (less|below|earlier)\b", "<=")]


def _numbers(reading: Reading) -> list[tuple[int, str]]:
    """(number, comparison) for each number the question writes ("third" counts as 3)."""
    found = []
    for m in re.finditer(r"(?<![\w§])(\d+)(?:st|nd|rd|th)?\b|\b(" + "|".join(ORDINALS) + r")\b", reading.text):
        value = int(m[1]) if m[1] else ORDINALS[m[2]]
        before, after = reading.text[:m.start()], reading.text[m.end():]
        op = next((o for pattern, o in COMPARISONS
                   if re.search(pattern, before if pattern.endswith("$") else after)), "=")
        found.append((value, op))
    return found


def _filter_values(reading: Reading, key: str) -> list[Any]:
    """Listed text values of `key` ("Student.branch", "STUDIES.grade") the question names.

    Short or ambiguous values (A, IT, Member) count only in capitals or next to their
    property's word ("grade A", "role Member"); a value that is also a common word ("a")
    counts only in capitals ("got a B" is grade B, not A and B); numbers are read by `filters`.
    """
    owner, prop = key.split(".")
    values = reading.schema.values.get(key, []) + reading.schema.scales.get(key, [])
    cue = bool(re.search(PROPERTY_WORDS.get(prop, rf"\b{prop}\b"), reading.text))
    found = []
    for v in dict.fromkeys(values):
        if isinstance(v, int):
            continue
        exact = re.search(rf"(?<![\w+]){re.escape(v)}(?![\w+])", reading.text)
        loose = re.search(rf"(?<![\w+]){re.escape(v.lower())}(?![\w+])", reading.text)
        # a value that is only a relationship or label word ("Member") needs its property's
        # word; one with a word of its own ("Team Lead") does not
        plain = any(not any(re.search(c, w) for c in (*RELATION_CUES.values(), *LABEL_WORDS.values()))
                    for w in v.lower().split())
        if exact and (cue or "+" in v or v.isupper()):
            found.append(v)
        elif loose and v.lower() not in COMMON and (cue or (len(v) >= 3 and plain)):
            found.append(v)
        elif prop == "role" and any(re.search(word, reading.text) and re.search(means, v.lower())
                                    for word, means in ROLE_SYNONYMS.items()):
            found.append(v)
    return found


def filters(reading: Reading, key: str, var: str) -> list[str]:
    """WHERE conditions on `var` for the values of `key` the question names.

    "CSE students" -> ["t.branch = 'CSE'"]; "clubs founded before 2016" -> ["t.founded < 2016"]
    (a number counts only next to its property's word, and a listed number only if listed).
    """
    prop = key.split(".")[1]
    found = _filter_values(reading, key)
    conds = [f"{var}.{prop} = {lit(found[0])}" if len(found) == 1
             else f"{var}.{prop} IN [{', '.join(map(lit, found))}]"] if found else []
    if key in reading.schema.numbers and re.search(PROPERTY_WORDS.get(prop, rf"\b{prop}\b"), reading.text):
        listed = reading.schema.values.get(key)
        found = [(v, op) for v, op in _numbers(reading) if op != "=" or listed is None or v in listed]
        equal = [v for v, op in found if op == "="]    # "year 2 or 3": one of them, never both
        conds += ([f"{var}.{prop} = {equal[0]}"] if len(equal) == 1 else
                  [f"{var}.{prop} IN [{', '.join(map(str, equal))}]"] if equal else [])
        conds += [f"{var}.{prop} {op} {v}" for v, op in found if op != "="]
    return conds


def _node_filters(reading: Reading, label: str) -> list[str]:
    return [c for prop in reading.schema.labels.get(label, []) for c in filters(reading, f"{label}.{prop}", "t")]


def _rel_filters(reading: Reading, p: Pattern, var: str) -> list[str]:
    return [c for prop in p.props for c in filters(reading, f"{p.type}.{prop}", var)]


def _rel_filter_hops(reading: Reading, target: str) -> list[tuple[str, str]]:
    """'Who got an A+?': a filter on a relationship of the target with no named other end."""
    for p in reading.schema.touching(target):
        if p.start == p.end:
            continue
        conds = _rel_filters(reading, p, "rf")
        if conds:
            return [(f"MATCH (t){arrow(p, target, 'rf')}(:{_other(p, target)})", " AND ".join(conds))]
    return []


def listing(reading: Reading) -> str | None:
    """All nodes of a label, optionally filtered: 'list the clubs', 'CSE students kaun hain'."""
    if reading.entities:
        return None
    targets = reading.targets()
    if not targets:
        return None
    body = conditions(reading, targets[0], [])
    match, conds = body
    if targets[0] == "Student" and not conds and "\n" not in match and not re.search(
            r"\b(all|list|every|saare|sab|sabhi|names?|show|there|students)\b", reading.text):
        return None
    label = targets[0]
    shown = _shown(reading, label)
    shown += [p for p in reading.asked_properties(label, reading.schema.labels.get(label, []))
              if p not in shown and not filters(reading, f"{label}.{p}", "t")]
    cols = ", ".join(f"t.{p} AS {alias(label, p)}" for p in shown)
    return f"{match}{where(conds)}\nRETURN DISTINCT {cols}"


# The table: (name, cue that must be present or None, builder). The first query built wins.
INTENTS: list[tuple[str, str | None, Builder]] = [
    ("write request", "write", read_only),
    ("out of scope", "out_of_scope", refuse),
    ("learning path", "path", path),
    ("next topics", "next", next_topics),
    ("count per group", "each", per_group),
    ("most / fewest", "most", most),
    ("most / fewest", "least", most),
    ("in common", "common", common),
    ("count", "count", count),
    ("ranking", "rank", ranking),
    ("yes or no", "yes_no", yes_no),
    ("property of a link", None, relationship_property),
    ("shared with someone", "shared", shared),
    ("what a concept is", "explain", explain),
    ("property or profile", None, properties),
    ("related nodes", None, related),
    ("list or filter", None, listing),
]


# --- from the whole prompt to one query -----------------------------------------------------


def unknown_attribute(reading: Reading) -> bool:
    """'Payal ki age', "Payal's boyfriend": an attribute the schema has no word for."""
    known = set(KNOWN_AFTER) | set(_VOCAB) | {p for ps in reading.schema.labels.values() for p in ps}
    for word in re.findall(r"§\d+(?:'s| ka| ki| ke) ([a-z]+)", reading.text) + \
            re.findall(r"\b([a-z]+) of §\d+", reading.text):
        if word in known or word in FILLER or any(
                re.search(t, word) for t in (*CUES.values(), *RELATION_CUES.values(),
                                             *LABEL_WORDS.values(), *PROPERTY_WORDS.values())):
            continue
        return True
    return False


def unknown_words(reading: Reading) -> list[str]:
    """Words the rules do not know: no cue, label, property or listed value accounts for them.

    A question with one ("Who is the smartest student?") gets the sentinel: better to say
    "I can't answer that" than to answer another question.
    """
    patterns = [*CUES.values(), *RELATION_CUES.values(), *LABEL_WORDS.values(), *PROPERTY_WORDS.values()]
    schema = reading.schema
    known = set(_VOCAB) | FILLER | KNOWN_AFTER | set(ORDINALS) | {w.lower() for w in schema.labels}
    known |= {p.lower() for ps in schema.labels.values() for p in ps}
    known |= {p.type.lower() for p in schema.patterns} | {q for p in schema.patterns for q in p.props}
    for values in [*schema.values.values(), *schema.scales.values()]:
        known |= {w for v in values for w in re.findall(r"[a-z]+", str(v).lower())}
    words = re.findall(r"(?<![§\w'])[a-z]+", reading.text)
    return [w for w in dict.fromkeys(words) if w not in known and len(w) > 1
            and not any(re.search(p, w) for p in patterns)]


def is_follow_up(reading: Reading) -> bool:
    """'and Computer Networks?', 'aur Rahul ka?': names and filler words only."""
    words = [w for w in re.findall(r"§\d+|[a-z]+", reading.text)]
    return bool(reading.entities) and all(w.startswith("§") or w in FILLER for w in words)


def build(reading: Reading) -> tuple[str, str] | None:
    """(intent name, query) from the first intent whose cue is present and whose builder fits."""
    for name, cue, builder in INTENTS:
        if cue is not None and not reading.has(cue):
            continue
        query = builder(reading)
        if query:
            return name, query
    return None


_INLINE = re.compile(r"\((\w*):(\w+) \{(\w+): ('(?:[^'\\\\]|\\\\.)*'|-?\d+)\}\)")
_VAR_LABEL = re.compile(r"\((\w+):(\w+)")
_COMPARED = re.compile(r"(?:toLower\()?(\w+)\.(\w+)\)? *(?:=|CONTAINS) *(?:toLower\()?"
                       r"('(?:[^'\\\\]|\\\\.)*')")


def cypher_entities(cypher: str) -> list[Entity]:
    """The named values a Cypher query matches on, with their labels.

    >>> cypher_entities("MATCH (s:Subject {name: 'DBMS'}) RETURN s.code")
    [Entity(label='Subject', prop='name', value='DBMS')]
    """
    labels = dict(_VAR_LABEL.findall(cypher))
    found = [Entity(m[2], m[3], _literal_value(m[4])) for m in _INLINE.finditer(cypher)]
    found += [Entity(labels[m[1]], m[2], _literal_value(m[3])) for m in _COMPARED.finditer(cypher)
              if m[1] in labels]
    return list(dict.fromkeys(found))


def _base_turn(prompt: Prompt) -> tuple[Reading, list[Entity]] | None:
    """The last earlier question that was not itself a follow-up, read with its own names.

    A name its Cypher used but its words did not ("which projects is he on?") stands for
    its pronoun.
    """
    for question, cypher, _ in reversed(prompt.turns):
        used = cypher_entities(cypher)
        named = [e for e in used + prompt.recent if str(e.value).lower() in question.lower()]
        old = read(question, [(str(e.value), e) for e in dict.fromkeys(named)], prompt.schema)
        unnamed = [e for e in used if e not in old.entities]
        if unnamed and old.has("pronoun"):
            marker = f"§{len(old.entities)}"
            old = replace(old, text=re.sub(CUES["pronoun"], marker, old.text, count=1),
                          entities=old.entities + unnamed[:1])
        if old.entities and not is_follow_up(old):
            return old, old.entities
    return None


def translate(prompt: Prompt) -> tuple[str, str]:
    """(intent name, Cypher) for a parsed prompt; the sentinel when no intent fits."""
    reading = read(prompt.question, prompt.linked, prompt.schema)
    reading.relaxed = bool(prompt.hint and "0 rows" in prompt.hint)
    if prompt.hint and "Safety violation" in prompt.hint:
        return "refused after a blocked query", READ_ONLY_QUERY   # as the hint asks
    if reading.has("write"):
        return "write request", READ_ONLY_QUERY
    if unknown_attribute(reading):
        return "unknown attribute", SENTINEL_QUERY
    if reading.has("negation") or reading.has("opinion"):
        return "not supported (negation or opinion)", SENTINEL_QUERY
    unknown = unknown_words(reading)
    if unknown:
        return f"unknown word {unknown[0]!r}", SENTINEL_QUERY
    if is_follow_up(reading) and prompt.turns:
        reading = _follow_up(prompt, reading)
    for candidate in _readings(prompt, reading):
        found = build(candidate)
        if found and _valid(found[1], prompt.schema):
            return _dropped(candidate, *found)
    return "not understood", SENTINEL_QUERY


def _dropped(reading: Reading, intent: str, query: str) -> tuple[str, str]:
    """The sentinel when the query left out a word that changes the answer: a role
    ("team lead") that became no `role` filter, because the prompt lists no such value."""
    if reading.has("role_word") and not re.search(r"\.role (=|IN)", query):
        return f"role {re.search(CUES['role_word'], reading.text)[0]!r} not listed", SENTINEL_QUERY
    return intent, query


def _readings(prompt: Prompt, reading: Reading) -> list[Reading]:
    """The question as asked, or with earlier entities for its pronoun or ellipsis.

    Only a pronoun ("uska year", "her clubs", "their skills") or an elliptical follow-up
    ("and the clubs?", "year?") may borrow from the conversation; "a club" in a question
    that names no one means any club. A pronoun with nothing of its kind to point at gets
    no reading (the sentinel): "what skills does he have?" must not list every skill.
    """
    if reading.has("pronoun") and not _reflexive(reading):
        marker = f"§{len(reading.entities)}"
        text = re.sub(CUES["pronoun"], marker, reading.text, count=1)
        found = [replace(reading, text=text, entities=reading.entities + [e])
                 for e in _referents(prompt, reading)]
        # "Who is Payal and what is her year?": a pronoun after a name may point at it
        inside = re.search(rf"§\d+.*{CUES['pronoun']}", reading.text)
        return found + ([reading] if inside else [])
    if not reading.entities and is_elliptical(reading):
        marker = f"§{len(reading.entities)}"
        return [reading] + [replace(reading, text=f"{reading.text} {marker}", entities=[e])
                            for e in prompt.recent]
    return [reading]


def _reflexive(reading: Reading) -> bool:
    """'students with their branches', 'who joined their club': "their" is the asked nodes'
    (a possessive after a plural noun or "who <verb>"; "what clubs are they in?" is no such)."""
    m = re.search(CUES["pronoun"], reading.text)
    if m[0] not in ("their", "theirs", "unka", "unki", "unke"):
        return False
    before = reading.text[:m.start()]
    nouns = [n for pattern in LABEL_WORDS.values() for n in re.findall(pattern, before)]
    plural_noun = any(n.endswith("s") or n in ("people", "log") for n in nouns)
    who_does = re.search(r"\b(who|kaun|kon) (?!(is|are|was|were|hai|hain)\b)\w+ $", before)
    return plural_noun or bool(who_does)


def _referents(prompt: Prompt, reading: Reading) -> list[Entity]:
    """What the question's first pronoun may stand for, best first.

    he/she/uska: a person; it/iska: a thing; they/their/unka: everything the last answer
    listed (one group: "Karan and Rahul"), then anyone recently mentioned.
    """
    recent = [e for e in prompt.recent if e not in reading.entities]
    first = re.search(CUES["pronoun"], reading.text)[0]
    if re.fullmatch(CUES["male_female"], first):
        return [e for e in recent if e.label == "Student"]
    if re.fullmatch(CUES["thing"], first):
        return [e for e in recent if e.label != "Student"]
    group = _last_answer(prompt, reading.schema) if re.fullmatch(CUES["plural"], first) else None
    return ([group] if group else []) + recent


def _last_answer(prompt: Prompt, schema: Schema) -> Entity | None:
    """The nodes the last answer listed, as one entity whose value is a tuple of names.

    "Who works on it?" -> Karan, Rahul: RETURN t.name over (t:Student) gives
    Entity('Student', 'name', ('Karan', 'Rahul')). None when the rows are not names.
    """
    if not prompt.turns:
        return None
    _, cypher, result = prompt.turns[-1]
    m = re.search(r"\bRETURN (?:DISTINCT )?(\w+)\.(\w+)\b", cypher)
    label = dict(_VAR_LABEL.findall(cypher)).get(m[1]) if m else None
    try:
        rows = json.loads(result)
    except json.JSONDecodeError:
        return None
    if not label or m[2] != schema.display(label) or not isinstance(rows, list):
        return None
    names = tuple(dict.fromkeys(r[0] for r in rows if isinstance(r, list) and r
                                and isinstance(r[0], (str, int)) and r[0] != prompts.OUT_OF_SCOPE))
    if not names:
        return None
    return Entity(label, m[2], names if len(names) > 1 else names[0])


def is_elliptical(reading: Reading) -> bool:
    """'and the clubs?', 'what about his year?', 'year?': a question that goes on from the last one."""
    if re.match(r"(and|aur|also|what about|how about|then|phir|toh|same for)\b", reading.text):
        return True
    words = re.findall(r"[a-z]+", reading.text)
    return bool(words) and all(w in FILLER or any(re.fullmatch(p, w) for p in PROPERTY_WORDS.values())
                               for w in words)


def _follow_up(prompt: Prompt, reading: Reading) -> Reading:
    """'and Computer Networks?': the last full question again, new names replacing old ones."""
    base = _base_turn(prompt)
    if base is None:
        return reading
    old, before = base
    new, merged = list(reading.entities), []
    for e in before:
        same = [n for n in new if n.label == e.label]
        merged.append(same[0] if same else e)
        if same:
            new.remove(same[0])
    if new:   # a name of a label the last question did not have: not the same question
        return reading
    return replace(old, entities=merged, relaxed=reading.relaxed)


def _valid(query: str, schema: Schema) -> bool:
    """Every label and relationship type the query names exists in the schema."""
    types = {p.type for p in schema.patterns}
    labels = set(schema.labels)
    named_types = set(re.findall(r"\[\w*:(\w+)", query))
    named_labels = set(re.findall(r"\(\w*:(\w+)", query))
    return (not labels or named_labels <= labels) and (not types or named_types <= types)


# --- the answer step --------------------------------------------------------------------------

WORDS = {"en": {"then": "then", "and": "and", "more": "more", "yes": "Yes.", "no": "No.",
                "none": "I found nothing in the graph for that.",
                "cut": " (The list may be incomplete.)"},
         "hi": {"then": "phir", "and": "aur", "more": "aur", "yes": "Haan.", "no": "Nahi.",
                "none": "Graph mein iske liye kuch nahi mila.",
                "cut": " (List adhoori ho sakti hai.)"}}
MAX_ITEMS = 10
MAX_TEXT = 400


def parse_rows(prompt: str) -> tuple[str, str, list[str], list[list[Any]], bool]:
    """(question, cypher, columns, rows, truncated) from an answer prompt."""
    question = re.search(r"^QUESTION: (.*)$", prompt, re.M)
    cypher = re.search(r"^CYPHER: (.*?)\nROWS \(", prompt, re.S | re.M)
    header = re.search(r"^ROWS \((\d+) row\(s\)(, cut short)?; columns: (.*)\):$", prompt, re.M)
    start, end = prompt.find("<<<DATA\n"), prompt.rfind("\nDATA>>>")
    body = prompt[start + len("<<<DATA\n"):end] if 0 <= start < end else ""
    rows = []
    for line in body.splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            row = [line]
        rows.append(row if isinstance(row, list) else [row])
    return (question[1] if question else "", cypher[1] if cypher else "",
            header[3].split(", ") if header else [], rows, bool(header and header[2]))


def _text(value: Any, *, arrow_list: bool = False, lang: str = "en") -> str:
    if isinstance(value, list):
        items = [_text(v, lang=lang) for v in value]
        return " → ".join(items) if arrow_list else _join(items, lang)
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = " ".join(str(value).split())
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT].rstrip() + "…"


def _join(items: list[str], lang: str, *, ordered: bool = False) -> str:
    w = WORDS[lang]
    if ordered:
        return f", {w['then']} ".join(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {w['and']} {items[-1]}"


def _value(column: str, value: Any, *, lang: str, named: bool = False) -> str:
    """'A+', '3 students', 'year: 2', 'branch: CSE' (named: always say the column)."""
    column = column.replace("_", " ")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return amount(value, column) if column.endswith("s") else f"{column}: {value}"
    return f"{column}: {_text(value, lang=lang)}" if named else _text(value, lang=lang)


def amount(number: Any, noun: str) -> str:
    """A number with its noun, singular for one: amount(1, "notes") -> '1 note'."""
    if number == 1 and noun.endswith("s") and not noun.endswith("ss"):
        noun = noun[:-3] + "y" if noun.endswith("ies") else noun[:-1]
    return f"{number} {noun}".rstrip()


def _row_text(row: list[Any], columns: list[str], lang: str, path_like: bool) -> str:
    values = [(c, v) for c, v in zip(columns or [""] * len(row), row) if v is not None]
    if not values:
        return "-"
    head = _text(values[0][1], arrow_list=path_like, lang=lang)
    rest = values[1:]
    if not rest:
        return head
    long = [(c, v) for c, v in rest if isinstance(v, str) and len(v) > 60]
    short = [(c, v) for c, v in rest if (c, v) not in long]
    if len(short) == 1 and not long:
        return f"{head} ({_value(*short[0], lang=lang)})"
    text = head + (f" ({', '.join(_value(c, v, lang=lang, named=True) for c, v in short)})" if short else "")
    return text + "".join(f": {_text(v, lang=lang)}" for _, v in long)


def write_answer(prompt: str) -> str:
    """A short factual answer from the rows in an answer prompt; the rows are only quoted.

    >>> write_answer('QUESTION: Who is best at DBMS?\\nCYPHER: MATCH ... ORDER BY ...\\n'
    ...              'ROWS (2 row(s); columns: student, grade):\\n<<<DATA\\n["Payal", "A+"]\\n'
    ...              '["Aarav", "A"]\\nDATA>>>')
    'Payal (A+), then Aarav (A).'
    """
    question, cypher, columns, rows, truncated = parse_rows(prompt)
    lang = language_of(question)
    w = WORDS[lang]
    if not rows:
        return w["none"]
    if len(rows) == 1 and len(rows[0]) == 1 and isinstance(rows[0][0], bool):
        return w["yes"] if rows[0][0] else w["no"]
    path_like = "SPpaths" in cypher or (columns[:1] == ["route"])
    if len(rows) == 1 and len(rows[0]) == 1 and "count(" in cypher.lower():
        noun = columns[0].replace("_", " ") if columns else ""
        return amount(rows[0][0], noun) + "."
    items = [_row_text(r, columns, lang, path_like) for r in rows[:MAX_ITEMS]]
    text = _join(items, lang, ordered="ORDER BY" in cypher.upper())
    if len(rows) > MAX_ITEMS:
        text += f" ({w['and']} {len(rows) - MAX_ITEMS} {w['more']})"
    return text.rstrip(".") + "." + (w["cut"] if truncated else "")


def is_answer_prompt(prompt: str) -> bool:
    """The answer step's prompt: QUESTION, CYPHER, ROWS and the rows fenced as data."""
    return (prompt.startswith("QUESTION:") and "\nCYPHER: " in prompt and "\nROWS (" in prompt
            and "<<<DATA" in prompt)


class OfflineLLM(LLM):
    """Rule-based text-to-Cypher and answer writer: deterministic, no service, no key.

    `last_intent` names the intent that wrote the last query ("ranking", "unknown word
    'oldest'", ...); the answer step leaves it as it was.
    """

    name = "Offline"
    model = "rules"

    def __init__(self) -> None:
        self.last_intent: str | None = None

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        started = time.perf_counter()
        if is_answer_prompt(prompt):
            text = write_answer(prompt)
        else:
            self.last_intent, text = translate(parse_prompt(prompt, system))
        return Completion(text, self.name, self.model, Usage(None, None, elapsed_ms(started)))
