"""The offline router, query updater and critic: deterministic rules, not a model.

Introduced in notebook 12. They read only what a model would be given: the question and its
linked values, the tools' descriptions and parameters, and the results found so far. They
know no name of the graph: the values come from the entity linking, the tools' examples
from their descriptions, and the words below are English and Hinglish, not the college's.

This module holds the words they read (English and Hinglish function words, pronouns,
question words) and the question as tokens; one module per role:

- `RuleRouter` (`course.llm.offline.roles.router`): writes the question with its linked values as
  `{Label}` (a Subject as `{Subject}`) and compares it with each tool's example questions,
  whose `{arguments}` the parameters type ("a Subject.name value"); a free-text argument
  matches any words (less well when they hold a linked value). The closest example wins when it is close enough
  (overlap of the words that say what is asked, `MIN_SIMILARITY`); else `text2cypher`. A
  question asked before gets `answer_given`.
- `RuleUpdater` (`course.llm.offline.roles.updater`): (a request to change the data stays whole)
  splits at `;`, at `?` followed by more, and at ", and" / "and" / "aur" / "or" when both
  sides are questions of their own; rewrites "she", "that student", "uske" with
  what an earlier part found, and "it" with what it asked about.
- `RuleCritic` (`course.llm.offline.roles.critic`): a part that found nothing is missing; so is a
  value the question names that no part used or found ("best at DBMS and DSA" answered for
  DBMS alone asks for DSA); a part whose query skips a link its words name ("Aarav's friends"
  answered from Aarav's own rows) is not answered and is asked again.

>>> from course.agents.agentic_tools import AGENTIC_TOOLS
>>> from course.llm.offline.roles.router import RuleRouter
>>> from course.llm.offline.roles.updater import RuleUpdater
>>> from course.pipeline.linking import link_entities
>>> router = RuleRouter()
>>> call = router.route("Who is best in DBMS?", link_entities(db, "Who is best in DBMS?"),
...                     [t.spec() for t in AGENTIC_TOOLS])
>>> call.name, call.arguments
('best_in_subject', {'subject': 'DBMS'})
>>> RuleUpdater().split("Who is best at DBMS, and which clubs is she in?")
['Who is best at DBMS?', 'which clubs is she in?']
"""
from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from course.foundation.language import WORDS
from course.llm.offline.changes import asks_for_a_change
from course.llm.offline.coverage import properties_only
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.prompt import parse_prompt

FALLBACK = "text2cypher"
# The note search's evidence, as the agent shows it to the router (`note_evidence_line`).
NOTE_SEARCH = "NOTE SEARCH"
PROPERTIES = "PROPERTIES (what each kind of thing has):"   # the rewrite's, "Label: a, b; ..."


def read_properties(line: str) -> dict[str, list[str]]:
    """The PROPERTIES line as {label: [property, ...]}.

    >>> read_properties(PROPERTIES + " Person: name, age; Tool: name, version")
    {'Person': ['name', 'age'], 'Tool': ['name', 'version']}
    """
    owners = {}
    for entry in line.removeprefix(PROPERTIES).split(";"):
        label, _, names = entry.partition(":")
        if label.strip():
            owners[label.strip()] = [n.strip() for n in names.split(",") if n.strip()]
    return owners
CLEARS = "clears the evidence bar"
NUMBER = "{#}"                # a number in a question, and a number argument in an example
REFUSED = ("out_of_scope", "blocked")
NOTES = "search_notes"

_TOKEN = re.compile(r"\{\w+\}|[\w+#/]+")
LINK_ENTRY = re.compile(r"(\w+)-(\w+)->(\w+)")    # a link's entry in PROPERTIES: "Person-USES->Tool"


# The language's words (data/language/words.yaml), under the names the rules use.
REQUESTS = WORDS.requests                     # "... and list the members"
QUESTION_WORDS = WORDS.question_words | REQUESTS
AUXILIARY = WORDS.auxiliary
COUNTING = WORDS.counting
PEOPLE = WORDS.people                         # answered by people
SOMEONE = frozenset(w for w in WORDS.quantifiers if w.endswith(("one", "body")))   # "is anyone ..."
FUNCTION_WORDS = QUESTION_WORDS | AUXILIARY | WORDS.function
CONJUNCTIONS = WORDS.conjunctions
PERSONAL = WORDS.personal
PLURAL = WORDS.plural                         # "they", "unka": every value found
SOME = WORDS.some_of                          # "any of them": some of what was found
POSSESSIVE = WORDS.possessive
DEMONSTRATIVE = WORDS.demonstrative
HINDI_CASE = WORDS.hindi_case
AFTER_OBJECT = WORDS.after_object             # "make her a plan"
HE_SHE = WORDS.third_person | frozenset(HINDI_CASE)
FIRST_PERSON = WORDS.first_person
ENGLISH_ONLY = WORDS.english_question_words | REQUESTS
REFERRING = WORDS.referring
# "each of them", "unmein se har ek": every value found before, one by one
EACH_OF_THEM = re.compile(r"\b(?:" + "|".join(map(re.escape, WORDS.each_of_them)) + r")\b", re.I)
ALL_OF_THEM = re.compile(r"\b(?:" + "|".join(map(re.escape, WORDS.all_of_them)) + r")\b", re.I)


class Named(Protocol):
    """A value the question names, as linked: the words as written, its label, its value."""

    @property
    def text(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def value(self) -> Any: ...


@dataclass(frozen=True)
class Linked:
    """A linked value as the prompt's LINKED VALUES show it: `- "dbms" -> Subject.name = 'DBMS'`."""

    text: str
    label: str
    prop: str
    value: Any


def linked_values(prompt: str) -> list[Linked]:
    """The LINKED VALUES of a user message.

    >>> linked_values('LINKED VALUES (...):\\n- "dbms" -> Subject.name = \\'DBMS\\'\\n\\nQUESTION: x')
    [Linked(text='dbms', label='Subject', prop='name', value='DBMS')]
    """
    return [Linked(text, e.label, e.prop, e.value) for text, e in parse_prompt(prompt, None).linked]


def note_evidence_line(note: str, concept: str | None, score: float, margin: float,
                       clears: bool) -> str:
    """What the router is told of the note search before it picks a tool.

    >>> note_evidence_line("N20", "Paging", 0.871, 0.44, True)
    'NOTE SEARCH (data): the best note is N20 (Paging), score 0.87, 0.44 ahead of the next: it clears the evidence bar.'
    """
    verdict = f"it {CLEARS}" if clears else "it is below the evidence bar"
    return (f"{NOTE_SEARCH} (data): the best note is {note} ({concept}), score {score:.2f}, "
            f"{margin:.2f} ahead of the next: {verdict}.")


def tokens(text: str) -> list[str]:
    """Lower-case words, `{placeholders}` kept whole: `tokens("Who is {Student}?")`."""
    return [t if t.startswith("{") else t.lower() for t in _TOKEN.findall(text)]


def names_nothing(text: str) -> bool:
    """Does the text name nothing of its own: question words, function words, "one", no word
    that names a thing or points at one, no count ("Who, and in which one?" asks more of the
    sentence before it; "who is in it?" points at something; "aur kitne hain?" counts)?

    >>> names_nothing("Who, and in which one?"), names_nothing("who is in it?")
    (True, False)
    """
    words = [w.strip("'") for w in tokens(text)]
    empty = (FUNCTION_WORDS | WORDS.pronoun_nouns
             | {w for c in CONJUNCTIONS for w in c.split()}) - COUNTING
    return bool(words) and all(w in empty for w in words)


def asks_its_name(text: str) -> bool:
    """Does the text ask only what the thing just said is called ("what's that called?", "what
    is it known as?")? Then it asks more of the ask before it, not a search of its own.

    >>> asks_its_name("what's that called?"), asks_its_name("what is Welding called?")
    (True, False)
    """
    naming = r"\b(?:called|known\s+as|named|termed)\b"
    asked = re.sub(naming, " ", re.sub(r"'s\b", " is", text), flags=re.I)     # ("what's": what is)
    return re.search(naming, text, re.I) is not None and points_only(asked)


def points_only(text: str) -> bool:
    """Does the text name nothing but a pointer ("what is that?", "explain this", "what does it
    do?"): with nothing before it to point at, there is no topic to look up?

    >>> points_only("what is that?"), points_only("explain this"), points_only("what is paging?")
    (True, True, False)
    """
    words = tokens(text)
    pointers = [w for w in words if w in WORDS.referring | WORDS.pronouns]
    return bool(pointers) and all(w in FUNCTION_WORDS | REQUESTS | set(pointers) for w in words)


def asks_only_a_property(text: str) -> bool:
    """Does an ask name nothing but a property ("and at what level?", "aur kis role mein?")?
    It asks that property of what the ask before it finds, not something of its own.

    >>> asks_only_a_property("at what level?"), asks_only_a_property("who is in it?")
    (True, False)
    """
    return bool(properties_only(text, default_lexicon()))


def asks_for_people_by_noun(question: str) -> bool:
    """Does the question ask for people by a noun ("Which of Asha's friends know Welding?",
    "kaunse dost ..."), or ask of one person it names by a noun only ("Which lab does Asha's
    friend use?", "Asha ka dost ...")? Then a later "she" or "uska" is one of those, never Asha.

    >>> asks_for_people_by_noun("Which of Asha's friends know Welding?"), asks_for_people_by_noun("Who is Asha?")
    (True, False)
    >>> asks_for_people_by_noun("Asha ka dost kis lab mein hai?")
    True
    >>> asks_for_people_by_noun("Asha's friends' labs?")
    False
    """
    lexicon = default_lexicon()
    which, people = lexicon.cues.get("which", r"(?!)"), lexicon.label(lexicon.person) or r"(?!)"
    # (not "which students are Asha's friends, and what does she take?": "she" is none of several)
    return re.search(rf"(?:{which})\s+(?:(?:of|among)\s+(?:[\w']+\s+){{0,2}}?|(?!\w+s\b))(?:{people})\b"
                     rf"|(?:'s|\bka|\bki)\s+(?!\w+s\b)(?:{people})\b", question.lower()) is not None


def requested_after_its_object(words: Sequence[str]) -> bool:
    """Hindi puts the verb last: "HTTP ek line mein samjha do" asks, what it asks of first (not
    a "bata," that only opens what follows).

    >>> requested_after_its_object(["welding", "samjhao"]), requested_after_its_object(["bata"])
    (True, False)
    """
    at = next((i for i, w in enumerate(words) if WORDS.hindi_in_english.get(w) in REQUESTS), None)
    return at is not None and any(w not in FUNCTION_WORDS for w in words[:at])


def pronouns_in_full(text: str) -> str:
    """The text with a pronoun run into its verb written out ("which clubs hes in"), so that
    it points back as "he" does.

    >>> pronouns_in_full("which clubs hes in, and is shes there")
    'which clubs he is in, and is she is there'
    """
    def in_full(word: re.Match[str]) -> str:
        return _PRONOUN_RUN_IN.get(word[0], word[0])
    return re.sub(r"\b[a-z]+\b", in_full, text)


_PRONOUN_RUN_IN = {k: v for k, v in WORDS.shorthand.items() if v.split()[0] in WORDS.third_person}


def graph_nouns(words: Sequence[str], *, properties: bool = True) -> list[str]:
    """The words that are a noun for a kind of thing the graph holds or (`properties`) for a
    property of one.

    >>> graph_nouns(["sorry", "long", "msg"]), graph_nouns(["semester", "he", "took", "clubs"])
    ([], ['semester', 'clubs'])
    """
    lexicon = default_lexicon()
    nouns = [lexicon.label(label) for label in lexicon.labels] \
        + (list(lexicon.properties.values()) if properties else [])
    return [w for w in words if any(n and re.fullmatch(n, w) for n in nouns)]


def asks_in_place(words: Sequence[str], subjects: Collection[str]) -> bool:
    """Do the words ask in place, a question word after its verb ("ravi is which year", "the
    club started which year", "the robot needs which skills", "welding has how many credits",
    "oldest club is which", "graphs includes what")? Not after a noun of the graph ("the project
    which students ...": a relative clause) nor before a subject of its own (`subjects`: "the
    order in which a ...").

    >>> asks_in_place("ravi is which year".split(), set())
    True
    >>> asks_in_place("the project which students did".split(), set())
    False
    >>> asks_in_place("graphs topic includes what".split(), set())
    True
    """
    padded = [*words, "", ""]
    for verb, asked, after, then in zip(words, words[1:], padded[2:], padded[3:]):
        noun = (then if asked == "how" and after in ("many", "much")
                else after if asked in ("which", "what") else None)
        if noun is None or verb in subjects or graph_nouns([verb], properties=False):
            continue
        is_verb = verb in AUXILIARY or verb.endswith(("ed", "ing")) or verb.endswith("s") and any(
            re.fullmatch(r, verb) for r in default_lexicon().relationships.values() if r)
        if is_verb and (graph_nouns([noun]) if noun else True):   # ("graphs includes what": its end)
            return True
    return False


def names_a_property_of(text: str) -> bool:
    """Does the text name a property of something, with no verb ("Credits for Operating
    Systems", "the status of the tracker")? An ask of its own, as "Payal's grade" is.

    >>> names_a_property_of("Credits for Operating Systems"), names_a_property_of("credits matter")
    (True, False)
    """
    properties = "|".join(f"(?:{p})" for p in default_lexicon().properties.values())
    return re.match(rf"^\s*(?:the\s+)?(?:{properties})\s+(?:of|for)\s+\w", text.lower()) is not None


def reached_by_links(part: str, properties: Mapping[str, Sequence[str]] | None) -> set[str] | None:
    """The labels at the far end of the links the part's words name, from the kinds of thing it
    names: "woh kis project pe kaam karta hai" names a project and working on one, so "woh"
    is a student (`properties` holds each link as "Student-WORKS_ON->Project"); None when the
    words name no such link.

    >>> reached_by_links("which tool does she use?", {"Person-USES->Tool": []}) is None
    True
    """
    lexicon, text = default_lexicon(), part.lower()
    links = [m for m in map(LINK_ENTRY.fullmatch, properties or {}) if m]
    nouns = {label for label in lexicon.labels
             if lexicon.label(label) and re.search(lexicon.label(label), text)}
    if set(tokens(text)) & (PEOPLE | SOMEONE):   # "who works on it": a person works on a project
        nouns.add(lexicon.person)
    # a verb names the link before a kind's noun does ("woh kin skills maangta hai": what needs
    # skills, not who has them); the nouns alone name it when no other word does ("uska project")
    verbs = re.sub("|".join(lexicon.label(label) for label in nouns), " ", text) if nouns else text
    named = {m[2] for m in links if re.search(lexicon.relation(m[2]) or r"(?!)", verbs)} or \
        {m[2] for m in links if re.search(lexicon.relation(m[2]) or r"(?!)", text)}
    # (a link of a kind to itself reaches that kind: "which topics are part of it?" a topic)
    ends = {far for m in links if m[2] in named for near, far in ((m[1], m[3]), (m[3], m[1]))
            if near in nouns and (far not in nouns or near == far)}
    return ends or None


def names_a_link(verb: str, preposition: str) -> bool:
    """Do the words before a pointer name a link ("works on", "good at")? Then the preposition
    is the verb's ("works on it"), not a place.

    >>> names_a_link("works", "on"), names_a_link("good", "at"), names_a_link("each", "of")
    (True, True, False)
    """
    lexicon = default_lexicon()
    said = [verb.lower().strip(",.!?"), f"{verb} {preposition}".lower().strip(",.!?")]
    return any(re.fullmatch(lexicon.relation(name) or r"(?!)", words)
               for name in lexicon.relationships for words in said)


def placeholders(question: str, mentions: Sequence[Named]) -> list[str]:
    """The question's words with each linked value as one `{Label}` token (a number as `{#}`).

    >>> placeholders("Who is best at dbms?", [Linked("dbms", "Subject", "name", "DBMS")])
    ['who', 'is', 'best', 'at', '{Subject}']
    """
    words = [NUMBER if t.isdigit() else t for t in tokens(question)]
    for mention in mentions:
        target = tokens(mention.text)
        for start in range(len(words) - len(target) + 1):
            if target and words[start:start + len(target)] == target:
                words[start:start + len(target)] = ["{" + mention.label + "}"]
                break
    return words
