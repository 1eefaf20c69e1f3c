"""The offline router, query updater and critic: deterministic rules, not a model.

Introduced in notebook 12. They read only what a model would be given: the question and its linked values, the tools'
descriptions and parameters, and the results found so far. They know no name of the graph:
the values come from the entity linking, the tools' examples from their descriptions, and
the words below are English and Hinglish, not the college's.

- `RuleRouter`: writes the question with its linked values as `{Label}` (a Subject as
  `{Subject}`) and compares it with each tool's example questions, whose `{arguments}` the
  parameters type ("a Subject.name value"); a free-text argument matches any words (less
  well when they hold a linked value). The closest example wins when it is close enough (overlap of the
  words that say what is asked, `MIN_SIMILARITY`); else `text2cypher`. A question asked before gets `answer_given`.
- `RuleUpdater`: (a request to change the data stays whole) splits at `;`, at `?` followed by more, and at ", and" / "and" / "aur" / "or"
  when both sides are questions of their own; rewrites "she", "that student", "uske" with
  what an earlier part found, and "it" with what it asked about.
- `RuleCritic`: a part that found nothing is missing; so is a value the question names that
  no part used or found ("best at DBMS and DSA" answered for DBMS alone asks for DSA).

>>> router = RuleRouter()
>>> from course.agents.agentic_tools import TOOLS
>>> call = router.route("Who is best in DBMS?", link_entities(db, "Who is best in DBMS?"),
...                     [t.spec() for t in TOOLS])
>>> call.name, call.arguments
('best_in_subject', {'subject': 'DBMS'})
>>> RuleUpdater().split("Who is best at DBMS, and which clubs is she in?")
['Who is best at DBMS?', 'which clubs is she in?']
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from course.llm.base import ToolCall, ToolSpec
from course.llm.offline import default_lexicon
from course.pipeline.memory import _REFERRING, depends_on_context, question_key
from course.pipeline.schema import Mention, link_entities

MIN_SIMILARITY = 0.6          # content-word overlap (Jaccard) with a tool's closest example
FREE_WITH_VALUE = 0.7       # a free-text example whose slot holds a linked value
FALLBACK = "text2cypher"
NUMBER = "{#}"                # a number in a question, and a number argument in an example
REFUSED = ("out_of_scope", "blocked")
NOTES = "search_notes"

_TOKEN = re.compile(r"\{\w+\}|[\w+#/]+")
_EXAMPLE = re.compile(r"'([^']*\{\w+\}[^']*)'")
_LINKED = re.compile(r"\(a (\w+)\.(\w+) value")
_SKIPPED = frozenset({"the", "a", "an"})
_WRITE = re.compile(default_lexicon().cues["write"])   # a request to change the data goes whole to text2cypher

_REQUESTS = frozenset("list show name tell give find".split())   # "... and list the members"
# Words that open (English) or carry (Hinglish) a question of its own.
QUESTION_WORDS = frozenset("""who whom whose what which where when why how kya kaun kaunsa kaunse
    kaunsi kon konsa konse konsi kitne kitna kitni kis kisne kiska kiske kisse kab kahan kaise
    batao""".split()) | _REQUESTS
_AUXILIARY = frozenset("is are was were does do did can could should has have will".split())
_COUNTING = frozenset("many much number count total kitne kitna kitni".split())
_PEOPLE = frozenset("who whom whose kaun kon kisne kisse kiska kiske".split())  # answered by people
FUNCTION_WORDS = QUESTION_WORDS | _AUXILIARY | frozenset("""i me my we you to of in on at for from
    with about by and or the a an ke ka ki hai hain mein me se tak ko ne pe par kya please""".split())
_CONJUNCTIONS = ("and also", "and", "aur", "or", "also", "plus", "then", "phir")
_PERSONAL = frozenset("he she him they them it woh wo vo voh yeh ye".split())
_POSSESSIVE = frozenset("his hers their its".split())
_DEMONSTRATIVE = frozenset("that this those these same".split())
_HINDI_CASE = {"uska": "ka", "uski": "ki", "uske": "ke", "iska": "ka", "iski": "ki", "iske": "ke",
               "unka": "ka", "unki": "ki", "unke": "ke", "inka": "ka", "inki": "ki", "inke": "ke",
               "usne": "ne", "unhone": "ne", "isne": "ne", "usko": "ko", "unko": "ko", "isko": "ko",
               "inko": "ko", "usme": "mein", "isme": "mein", "unme": "mein", "inme": "mein",
               "usse": "se"}
_AFTER_OBJECT = frozenset("in at to from and or on with for of by a an the".split())   # "make her a plan"


def tokens(text: str) -> list[str]:
    """Lower-case words, `{placeholders}` kept whole: `tokens("Who is {Student}?")`."""
    return [t if t.startswith("{") else t.lower() for t in _TOKEN.findall(text)]


def placeholders(question: str, mentions: Sequence[Mention]) -> list[str]:
    """The question's words with each linked value as one `{Label}` token (a number as `{#}`).

    >>> placeholders("Who is best at dbms?", [Mention("dbms", "Subject", "name", "DBMS", 1.0)])
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


# --- the router -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    """One example question of a tool, as tokens, with what its placeholders take."""

    words: tuple[str, ...]
    labels: Counter[str]          # typed placeholders the example needs, by label
    free: str | None              # the free-text argument, if the example has one


def examples(spec: ToolSpec) -> list[Example]:
    """A tool's example questions from its description; typed placeholders as `{Label}`."""
    props = spec.parameters.get("properties", {})
    typed = {arg: m.group(1) for arg, p in props.items()
             if (m := _LINKED.search(str(p.get("description", ""))))}
    found = []
    for text in _EXAMPLE.findall(spec.description):
        words, free = [], None
        for word in tokens(text):
            name = word[1:-1] if word.startswith("{") else None
            if name in typed:
                words.append("{" + typed[name] + "}")
            elif name in props and props[name].get("type") in ("integer", "number"):
                words.append(NUMBER)
            elif name in props:
                words.append("{*}")
                free = name
            elif word not in _SKIPPED:
                words.append(word)
        found.append(Example(tuple(words), Counter(w[1:-1] for w in words if w.startswith("{")
                                                   and w != "{*}"), free))
    return found


def similarity(question: Sequence[str], example: Example) -> float:
    """How close a question (as placeholders) is to an example question: 0 to 1.

    The mean of two overlaps (Jaccard): of all the words, and of the words that say what is
    asked (function words aside). A count ("how many") never fits an example that lists.
    """
    words = [w for w in question if w not in _SKIPPED]
    if example.free is not None:   # free text: the rest must match, the slot names nothing
        head, _, tail = " ".join(example.words).partition("{*}")
        text = " ".join(words)
        slot = text[len(head):len(text) - len(tail)] if text.startswith(head) and \
            text.endswith(tail) else ""
        if not slot.strip() or len(text) <= len(head) + len(tail):
            return 0.0
        # A slot that holds a linked value too ("a {Concept} mask") fits less well than one that
        # names nothing in the graph, and less than a template that fits exactly.
        return FREE_WITH_VALUE if "{" in slot else 1.0
    have = Counter(w[1:-1] for w in words if w.startswith("{"))
    if any(have[label] < n for label, n in example.labels.items()):
        return 0.0
    if set(words) & _COUNTING and not set(example.words) & _COUNTING:
        return 0.0           # "how many members" asks for a number, not the members
    return (_jaccard(_content(words), _content(example.words))
            + _jaccard(set(words), set(example.words))) / 2


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _content(words: Sequence[str]) -> set[str]:
    """The words that say what is asked (and the placeholders), without the function words."""
    return {w for w in words if w not in FUNCTION_WORDS}


class RuleRouter:
    """Picks a tool by comparing the question with each tool's example questions."""

    name, model = "Offline", "rules"

    def __init__(self, *, min_similarity: float = MIN_SIMILARITY) -> None:
        self.min_similarity = min_similarity

    def route(self, question: str, mentions: Sequence[Mention], tools: Sequence[ToolSpec],
              found: Sequence[tuple[str, str]] = (), context: str = "") -> ToolCall | None:
        """The call to make, or None when no tool is left; `found` is (question, answer) of the
        parts answered already, `context` the conversation so far."""
        names = {t.name for t in tools}
        if FALLBACK in names and (_WRITE.search(question.lower())       # its guard refuses it
                                  or (context and depends_on_context(question, mentions)
                                      and not _points_inside(question, mentions))):
            return ToolCall(FALLBACK, {"question": question})
        earlier = {question_key(q): a for q, a in found}
        if "answer_given" in names and question_key(question) in earlier:
            return ToolCall("answer_given", {"answer": earlier[question_key(question)]})
        words = placeholders(question, mentions)
        scored = [(similarity(words, example), n, spec) for n, spec in enumerate(tools)
                  for example in examples(spec)]
        score, _, best = max(scored, key=lambda s: (s[0], -s[1]), default=(0.0, 0, None))
        if best is None or score < self.min_similarity:
            fallback = FALLBACK if FALLBACK in names else (NOTES if NOTES in names else None)
            if fallback is None:
                return None
            arg = "question" if fallback == FALLBACK else "query"
            return ToolCall(fallback, {arg: question})
        return ToolCall(best.name, _arguments(best, question, mentions))


def _points_inside(question: str, mentions: Sequence[Mention]) -> bool:
    """"Sneha has 10 days ..., make her a plan": the question names the person its "her" is."""
    person = default_lexicon().person
    words = set(question_key(question).split())
    return any(m.label == person for m in mentions) and bool(words & _HE_SHE) and \
        not words & (_REFERRING - _HE_SHE) and not depends_on_context(
            " ".join(w for w in question_key(question).split() if w not in _HE_SHE), mentions)


def _arguments(spec: ToolSpec, question: str, mentions: Sequence[Mention]) -> dict[str, Any]:
    """Fill the tool's arguments: typed ones with the linked values in order, free with the question."""
    props = spec.parameters.get("properties", {})
    left = list(mentions)
    arguments: dict[str, Any] = {}
    for arg, prop in props.items():
        typed = _LINKED.search(str(prop.get("description", "")))
        if prop.get("type") in ("integer", "number"):   # "a 5-day plan": the question's number
            number = re.search(r"\d+", question)
            if number:
                arguments[arg] = int(number.group())
            continue
        if typed is None:
            arguments[arg] = question
            continue
        mention = next((m for m in left if m.label == typed.group(1)), None)
        if mention is not None:
            left.remove(mention)
            arguments[arg] = mention.value
    return arguments


# --- the query updater ----------------------------------------------------------------------


def _is_question(words: Sequence[str], *, opening: bool) -> bool:
    """Words that ask on their own: a question word first, a Hinglish one anywhere, an
    auxiliary verb first ("Is Payal ..."), or, after a conjunction, an auxiliary verb followed
    by a pronoun ("... and does she ...", not "... and is in the club")."""
    if not words:
        return False
    if opening and words[0] in _AUXILIARY:
        return True
    if words[0] in QUESTION_WORDS or any(w in QUESTION_WORDS for w in words[1:] if w.isalpha()
                                         and w not in _ENGLISH_ONLY):
        return True
    return not opening and len(words) > 1 and words[0] in _AUXILIARY and (
        words[1] in _PERSONAL or words[1] in _DEMONSTRATIVE)


_ENGLISH_ONLY = frozenset("who whom whose what which where when why how".split()) | _REQUESTS


class RuleUpdater:
    """Splits a question into parts and rewrites later parts with what earlier ones found."""

    name, model = "Offline", "rules"

    def split(self, question: str) -> list[str]:
        """The atomic questions, in order; one part when the question is one question.

        >>> RuleUpdater().split("Payal kaun hai aur uske clubs kaunse hain?")
        ['Payal kaun hai?', 'uske clubs kaunse hain?']

        A request to change the data is never split: it goes whole to be refused whole.
        """
        if _WRITE.search(question.lower()):
            return [question]
        pieces = [p for p in re.split(r";|\?(?=\s*\S)", question) if p.strip()]
        parts: list[str] = []
        for piece in pieces:
            parts += self._split_conjunctions(piece.strip())
        parts = [p for p in parts if tokens(p)]
        if len(parts) <= 1:
            return [question]
        return [_as_question(p) if "?" in question else p for p in parts]

    def _split_conjunctions(self, text: str) -> list[str]:
        pattern = r",?\s+\b(" + "|".join(_CONJUNCTIONS) + r")\b\s+|,\s+(?=\w)"
        for match in re.finditer(pattern, text, flags=re.I):
            left, right = text[:match.start()], text[match.end():]
            if _is_question(tokens(left), opening=True) and _is_question(tokens(right), opening=False):
                return [left.strip()] + self._split_conjunctions(right.strip())
        return [re.sub(r"^(also|and|aur|plus)\s+", "", text, flags=re.I).strip()]

    def rewrite(self, part: str, found: Sequence[Found],
                link: Callable[[str], Sequence[Mention]]) -> str:
        """The part with "she", "it", "that student" or "uske" replaced by what it stands for.

        `found` holds (question, the values it named, the rows it found) for the parts answered
        so far, in order. A person's pronoun ("she", "his", "uske") stands for what the last
        part found when it asked "who" (the first value of its rows that names a graph value),
        else for what it asked about; so do "it" and "its"; "that student" stands for the
        last value of that label.
        """
        words = part.rstrip().rstrip("?").split()
        out: list[str] = []
        skip = False
        for i, word in enumerate(words):
            bare = word.lower().strip(",.!")
            nxt = words[i + 1].lower().strip(",.!?") if i + 1 < len(words) else ""
            if skip:
                skip = False
                continue
            kind = _kind_of(bare, nxt)
            value = _stands_for(kind, nxt, found, link) if kind else None
            if value is None:
                out.append(word)
            elif kind == "that":
                out.append(value)
                skip = True            # "that student" -> the value, noun and all
            elif bare in _HINDI_CASE:
                out.append(f"{value} {_HINDI_CASE[bare]}")
            elif kind in ("possessive", "its"):
                out.append(f"{value}'s")
            else:
                out.append(value)
        text = " ".join(out)
        return text + "?" if part.rstrip().endswith("?") else text


_HE_SHE = frozenset("he she him her his hers".split()) | frozenset(_HINDI_CASE)
_FIRST_PERSON = {"i": "", "me": "", "my": "'s", "mine": "'s", "myself": "", "mujhe": " ko",
                 "mujhko": " ko", "mera": " ka", "meri": " ki", "mere": " ke"}
_INTRODUCED = re.compile(r"^(?:hi|hello|namaste)?[ ,!]*(?:i am|i'm|my name is|mera naam|main|mai)\s+"
                         r"(.+?)(?:\s+(?:hoon|hun|hu|hai|here))?[\s.!]*$", re.I)
_RECENT = re.compile(r"^- (\w+): (.+)$", re.M)
_USER = re.compile(r"^\[Turn \d+\] User: (.*)$", re.M)


def _person_in(context: str, question_mentions: Sequence[Mention], person: str,
               link: Callable[[str], Sequence[Mention]]) -> tuple[str | None, str | None]:
    """(who "she"/"uska" stands for, who "me"/"mujhe" stands for), from what a model is given:
    the conversation's RECENTLY MENTIONED block; the
    speaker only when a turn said so ("I am Sneha", "main Sneha hoon")."""
    recent = [v.strip() for label, v in _RECENT.findall(context.split("RECENTLY MENTIONED", 1)[-1])
              if label == person] if "RECENTLY MENTIONED" in context else []
    speaker = None
    for line in _USER.findall(context):
        said = _INTRODUCED.match(line.strip())
        names = [m.value for m in link(said.group(1)) if m.label == person] if said else []
        speaker = names[0] if names else speaker
    return (recent[0] if recent else None), speaker


def resolve(part: str, context: str, mentions: Sequence[Mention],
            link: Callable[[str], Sequence[Mention]]) -> str:
    """The part with "she", "her", "uska" replaced by the person the conversation mentioned
    last (left alone when the part names a person itself), and "me", "mujhe", "my" by the person the
    user said they are. What cannot be resolved stays as it is.

    >>> ctx = chr(10).join(["[Turn 1] User: I am Sneha", "RECENTLY MENTIONED:", "- Student: Payal"])
    >>> resolve("make her a plan; mujhe partner chahiye", ctx, [],
    ...         lambda t: [Mention(t, "Student", "name", t, 1.0)] if t in ("Sneha", "Payal") else [])
    'make Payal a plan; Sneha ko partner chahiye'
    """
    person = default_lexicon().person
    third, speaker = _person_in(context, mentions, person, link)
    if any(m.label == person for m in mentions):
        third = None      # the part names its person: its "her" points there, not back
    words = part.split()
    out = []
    for i, word in enumerate(words):
        bare = word.lower().strip(",.!?;")
        nxt = words[i + 1].lower().strip(",.!?;") if i + 1 < len(words) else ""
        tail = word[len(word.rstrip(",.!?;")):]
        if bare in _FIRST_PERSON and speaker:
            out.append(speaker + _FIRST_PERSON[bare] + tail)
        elif bare in _HE_SHE and third and _kind_of(bare, nxt) in ("person", "possessive"):
            case = (" " + _HINDI_CASE[bare]) if bare in _HINDI_CASE else \
                "'s" if _kind_of(bare, nxt) == "possessive" else ""
            out.append(third + case + tail)
        else:
            out.append(word)
    return " ".join(out)


def speaks_of_someone(part: str) -> bool:
    """Does the part say "she", "uska", "me", "mujhe"... (someone the words alone do not name)?

    >>> speaks_of_someone("mujhe DBMS ke liye study partner chahiye"), speaks_of_someone("Who is Payal?")
    (True, False)
    """
    return any(w in _HE_SHE or w in _FIRST_PERSON for w in question_key(part).split())


def _kind_of(word: str, nxt: str) -> str | None:
    """What a word points back with: that (+ noun), it, its, possessive, person, or None."""
    if word in _DEMONSTRATIVE and nxt and nxt not in QUESTION_WORDS | _AUXILIARY:
        return "that"
    if word in ("it", "this", "that"):
        return "it"
    if word == "its":
        return "its"
    if word in _POSSESSIVE or (word == "her" and nxt and nxt not in _AFTER_OBJECT):
        return "possessive"
    if word in _PERSONAL or word in ("her", "hers", "them") or word in _HINDI_CASE:
        return "person"
    return None


Found = tuple[str, Sequence[Mention], Sequence[Sequence[Any]]]   # question, its values, its rows


def _stands_for(kind: str, noun: str, found: Sequence[Found],
                link: Callable[[str], Sequence[Mention]]) -> str | None:
    """The value a pointing word stands for, from the latest part that found something."""
    for question, mentions, rows in reversed(found):
        asked = [(m.label, m.value) for m in mentions]
        got = _found_values(rows, link)
        if kind == "that":
            label = noun.rstrip("s").lower()
            hit = [v for lab, v in got + asked if lab.lower() == label]
            if hit:
                return hit[0]
            continue
        by_people = kind in ("person", "possessive") and bool(set(tokens(question)) & _PEOPLE)
        ordered = got + asked if by_people else asked + got
        if ordered:
            return ordered[0][1]
    return None


def _found_values(rows: Sequence[Sequence[Any]], link: Callable[[str], Sequence[Mention]]
                  ) -> list[tuple[str, str]]:
    """(label, value) of the cells of the first rows that are graph values, in order."""
    values = []
    for row in rows[:3]:
        for cell in row:
            if isinstance(cell, str):
                values += [(m.label, m.value) for m in link(cell) if m.value == cell][:1]
    return values


def _as_question(text: str) -> str:
    text = text.strip().rstrip(",")
    return text if text.endswith("?") or not _is_question(tokens(text), opening=True) else text + "?"


def refers_back(part: str) -> bool:
    """Does the part point at something found before ("she", "that student", "uske")?

    >>> refers_back("which clubs is that student in?"), refers_back("Who is Payal?")
    (True, False)
    """
    return any(w in _REFERRING or w in _HINDI_CASE for w in question_key(part).split())


# --- the critic -----------------------------------------------------------------------------


@dataclass
class Review:
    """The critic's verdict: complete, or the missing parts as new questions.

    `narrowed`: a part that answered less than it asked, as what it did answer (part number
    -> "Who is the best at DBMS?"), so the answer does not claim more than it found.
    """

    complete: bool
    missing: list[str]
    narrowed: dict[int, str] = field(default_factory=dict)


class RuleCritic:
    """Complete when every part found something and every value the question names was used.

    A part that text2cypher refused (out of scope, or a request to change the data) is not
    complete, but it is not asked again either: a refusal is an answer, not a gap.
    """

    name, model = "Offline", "rules"

    def review(self, question: str, mentions: Sequence[Mention],
               parts: Sequence[dict[str, Any]]) -> Review:
        """`parts`: {question, rewritten, tool, arguments, rows, found, status, part} so far."""
        answered = {p["part"] for p in parts if p["found"]}
        latest = {p["part"]: p for p in parts if p["part"] not in answered}  # last attempt of each gap
        refused = [p for p in latest.values() if p["status"] in REFUSED]
        missing = [p["rewritten"] for p in latest.values() if p not in refused]
        narrowed: dict[int, str] = {}
        for mention in mentions:
            if any(_covers(p, mention) for p in parts):
                continue
            asked = next((p for p in parts if mention.text in question_key(p["question"])), None)
            if asked is not None and asked not in refused:   # a refused part is not widened
                again = _instead(asked["rewritten"], mention, mentions)
                if again is not None:
                    missing.append(again)
                    narrowed[asked["part"]] = _without(narrowed.get(asked["part"], asked["rewritten"]),
                                                       mention)
        missing = list(dict.fromkeys(missing))
        return Review(not missing and not refused, missing, narrowed)


def _covers(part: dict[str, Any], mention: Mention) -> bool:
    """Did this part use or find the value (or take the question whole, as text)?"""
    if not part["found"]:
        return False
    values = {str(v) for v in part["arguments"].values()}
    cells = {str(c) for row in part["rows"] for v in row
             for c in (v if isinstance(v, list) else [v])}
    free = part["tool"] in (FALLBACK, NOTES, "answer_given")
    return mention.value in values | cells or (free and mention.text in question_key(part["rewritten"]))


def _instead(text: str, missing: Mention, mentions: Sequence[Mention]) -> str | None:
    """The part asked again for the value it left out: "best at DBMS and DSA" -> "best at DSA".

    The other values of the same kind are taken out and the first one is swapped for the
    missing one; None when no other value of that kind stands in the part.
    """
    same = [m for m in mentions if m.label == missing.label and m != missing
            and re.search(re.escape(m.text), text, re.I)]
    if not same:
        return None
    words = text
    for other in same[1:] + [missing]:
        words = _without(words, other)
    return re.sub(re.escape(same[0].text), missing.value, words, count=1, flags=re.I)


def _without(text: str, mention: Mention) -> str:
    """The text with "and <the value>" taken out: "best at DBMS and DSA" -> "best at DBMS"."""
    return re.sub(r"\s*(,|\band\b|\baur\b|&|\bor\b)\s*" + re.escape(mention.text) + r"\b", "",
                  text, flags=re.I)
