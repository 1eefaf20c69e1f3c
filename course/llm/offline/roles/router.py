"""The offline retriever router: the closest example question of a tool picks the tool.

Introduced in notebook 12. The question is written with its linked values as `{Label}` and
compared with each tool's example questions (from its description); the closest wins when it
is close enough, else text2cypher. Rules, not a model: see `course.llm.offline.roles.words`;
`course.llm.offline.roles.policy` reads the router's prompt and calls `RuleRouter.route`.

>>> from course.agents.agentic_tools import AGENTIC_TOOLS
>>> from course.pipeline.linking import link_entities
>>> question = "Who is best in DBMS?"
>>> RuleRouter().route(question, link_entities(db, question), [t.spec() for t in AGENTIC_TOOLS]).name
'best_in_subject'
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from course.foundation.language import WORDS, asks_who_unnamed, depends_on_context, question_key
from course.llm.base import ToolCall, ToolSpec
from course.llm.offline.ranking import asks_extreme_value
from course.llm.offline.chain import FOLLOWS, unfollowed_types
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.words import (COUNTING, FALLBACK, FUNCTION_WORDS, HE_SHE, NOTES,
                                            NUMBER, REFERRING, Named, asks_for_a_change,
                                            placeholders, tokens)

MIN_SIMILARITY = 0.6          # content-word overlap (Jaccard) with a tool's closest example
FREE_WITH_VALUE = 0.7       # a free-text example whose slot holds a linked value
_EXAMPLE = re.compile(r"'([^']*\{\w+\}[^']*)'")
_LINKED = re.compile(r"\(a (\w+)\.(\w+) value")
_SKIPPED = frozenset({"the", "a", "an"})


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
    if set(words) & COUNTING and not set(example.words) & COUNTING:
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

    def route(self, question: str, mentions: Sequence[Named], tools: Sequence[ToolSpec],
              found: Sequence[tuple[str, str]] = (), context: str = "", *,
              notes_clear: bool = False) -> ToolCall | None:
        """The call to make, or None when no tool is left; `found` is (question, answer) of the
        parts answered already, `context` the conversation so far, `notes_clear` the note
        search's verdict: its best note clears the evidence bar."""
        names = {t.name for t in tools}
        asks_a_change = asks_for_a_change(question.lower(), [str(m.value) for m in mentions])
        if FALLBACK in names and (asks_a_change or asks_a_place(question, mentions)  # it refuses
                                  or (context and depends_on_context(question, mentions)
                                      and not _points_inside(question, mentions))):
            return ToolCall(FALLBACK, {"question": question})
        earlier = {question_key(q): a for q, a in found}
        if "answer_given" in names and question_key(question) in earlier:
            return ToolCall("answer_given", {"answer": earlier[question_key(question)]})
        words = placeholders(question, mentions)
        words = words[default_lexicon().opening(words):]    # "could you please explain ...": the ask
        scored = [(similarity(words, example), n, spec) for n, spec in enumerate(tools)
                  if follows_chain(question, mentions, spec) and filters_values(question, spec)
                  and not negates_for(question, spec)
                  and not ranks_for_a_value(question, spec)
                  and takes_every_value(question, mentions, spec) and asks_its_kind(question, spec)
                  for example in examples(spec)]
        score, _, best = max(scored, key=lambda s: (s[0], -s[1]), default=(0.0, 0, None))
        if best is None or score < self.min_similarity:
            # No template fits by its words. A question that names nothing in the graph, whose
            # best note clears the evidence bar, goes to the notes first; any other question to
            # text2cypher first ("Who takes Operating Systems?" is a query, whatever a note says).
            notes_first = notes_clear and not mentions and not asks_a_property_of_a_kind(question)
            preferred: tuple[str, ...] = (NOTES, FALLBACK) if notes_first else (FALLBACK, NOTES)
            if asks_who_unnamed(question):      # "who are they?": no note names people
                preferred = (FALLBACK,)
            fallback = next((name for name in preferred if name in names), None)
            if fallback is None:
                return None
            arg = "question" if fallback == FALLBACK else "query"
            return ToolCall(fallback, {arg: question})
        if best.name == NOTES and FALLBACK in names and (names_a_link(question, mentions)
                                                         or asks_a_property_of_a_kind(question)):
            # "What is Graphs a prerequisite for?" reads like "What is Graphs?", but asks for
            # what a link of the graph reaches: a query first (the notes if it finds nothing)
            return ToolCall(FALLBACK, {"question": question})
        return ToolCall(best.name, _arguments(best, question, mentions))


def names_a_link(question: str, mentions: Sequence[Named]) -> bool:
    """Does a question that names a graph value also name a link of the graph (a
    relationship's words; not the link whose words say "explain": a note's to its concept)?

    >>> from types import SimpleNamespace
    >>> name = [SimpleNamespace(text="Paging", value="Paging")]
    >>> names_a_link("What is Paging a prerequisite for?", name), names_a_link("What is Paging?", name)
    (True, False)
    """
    lexicon, text = default_lexicon(), question.lower()
    for m in mentions:
        text = text.replace(str(m.text).lower(), " ")
    return bool(mentions) and any(re.search(regex, text) for regex in lexicon.relationships.values()
                                  if regex and not re.search(regex, "explain"))


def asks_a_place(question: str, mentions: Sequence[Named]) -> bool:
    """Does it ask where a named thing is ("Where is the Coding Club?")? The graph holds no
    places: no template's rows answer it (the members are no place), and text2cypher refuses.

    >>> from types import SimpleNamespace
    >>> zoya = [SimpleNamespace(text="Zoya", value="Zoya")]
    >>> asks_a_place("Where is Zoya?", zoya), asks_a_place("Where does Zoya work?", zoya)
    (True, False)
    """
    text = question.lower()
    for m in mentions:
        text = text.replace(str(m.text).lower(), "§0")
    return bool(re.search(default_lexicon().cues["place"], text))


def filters_values(question: str, spec: ToolSpec) -> bool:
    """False for a reviewed template that cannot filter on a value the question names by a
    word ("the team lead of ...", "the president of ...": a role) because no argument of it
    takes that property; such a question goes to text2cypher, which filters or refuses.

    >>> from course.llm.base import ToolSpec
    >>> members = ToolSpec("members", "The members. It follows: MEMBER_OF.", {"properties": {}})
    >>> filters_values("Who is the president of the Debate Society?", members)
    False
    """
    if FOLLOWS.search(spec.description) is None:
        return True
    arguments = " ".join(str(p.get("description", ""))
                         for p in spec.parameters.get("properties", {}).values()).lower()
    text = question.lower()
    return not any(words and re.search(words, text) and prop not in arguments
                   for prop, words in default_lexicon().value_words.items())


def negates_for(question: str, spec: ToolSpec) -> bool:
    """True for a reviewed template and a question that negates ("Who is not in the Coding
    Club?"): no template negates, and its rows (the members) would answer the opposite.

    >>> from course.llm.base import ToolSpec
    >>> members = ToolSpec("members", "The members. It follows: MEMBER_OF.", {"properties": {}})
    >>> negates_for("Who is not in the club?", members), negates_for("Who is in the club?", members)
    (True, False)
    """
    negation = default_lexicon().cues.get("negation")
    return FOLLOWS.search(spec.description) is not None and bool(negation and re.search(negation, question.lower()))


def ranks_for_a_value(question: str, spec: ToolSpec) -> bool:
    """True for a template that ranks ("ranked ..., best first") and a question that asks for
    the top or bottom value ("What's the lowest grade in DSA?"), not for who is best: the
    ranking is no answer to it, so text2cypher answers it (with the ties), or refuses.

    >>> from course.llm.base import ToolSpec
    >>> best = ToolSpec("best", "The students ranked by grade, best first.", {"properties": {}})
    >>> ranks_for_a_value("What is the best grade in DBMS?", best), ranks_for_a_value("Who is best?", best)
    (True, False)
    """
    if "ranked" not in spec.description.lower():
        return False
    lexicon = default_lexicon()
    return asks_extreme_value(question, lexicon.cues.get("superlative", r"(?!)"),
                              "|".join(lexicon.properties.values()))


def follows_chain(question: str, mentions: Sequence[Named], spec: ToolSpec) -> bool:
    """False for a reviewed template that leaves out a step of the question's chain of
    relations ("Aarav's friends' subjects" is not Aarav's subjects); True for any other tool.
    What a template follows is in its description ("It follows: MEMBER_OF.")."""
    follows = FOLLOWS.search(spec.description)
    if follows is None:
        return True
    text = question.lower().replace("\u2019", "'")
    for i, mention in enumerate(mentions):
        text = re.sub(rf"\b{re.escape(mention.text.lower())}\b", f"§{i}", text, count=1)
    return unfollowed_types(text, Counter(re.findall(r"\w+", follows[1])), default_lexicon()) is None


def takes_every_value(question: str, mentions: Sequence[Named], spec: ToolSpec) -> bool:
    """False for a question about each of several values, or a choice among them, and a
    template with fewer arguments of their label ("who works on each of X and Y?": one project
    argument would answer for X alone; "which of X and Y study Z?" cannot choose). Without
    "each" the critic asks for the part left out ("best at DBMS and DSA?")."""
    cues = default_lexicon().cues
    if not any(re.search(cues.get(cue, r"(?!)"), question.lower()) for cue in ("each", "among", "among_after")):
        return True
    typed = [m.group(1) for p in spec.parameters.get("properties", {}).values()
             if (m := _LINKED.search(str(p.get("description", ""))))]
    if not typed:
        return True
    labels = [m.label for m in mentions]
    return all(labels.count(label) <= typed.count(label) for label in set(typed))


def asks_its_kind(question: str, spec: ToolSpec) -> bool:
    """False for a template whose every example asks who (its rows are people) and a question
    that asks for no one: "what does DSA teach?" is no "who should teach me DSA?".

    >>> from course.llm.base import ToolSpec
    >>> best = ToolSpec("best", "e.g. 'Who is best in {subject}?', '{subject} mein kaun?'", {})
    >>> asks_its_kind("what does DSA teach?", best), asks_its_kind("who teaches DSA best?", best)
    (False, True)
    """
    asked = [set(tokens(text)) for text in _EXAMPLE.findall(spec.description)]
    if asks_yes_or_no(question) and not any(map(asks_yes_or_no, _EXAMPLE.findall(spec.description))):
        return False    # "Does Sneha study DSA?" wants a yes or a no, not partners for it
    people = WORDS.people
    return not asked or not all(words & people for words in asked) or bool(set(tokens(question)) & people)


def asks_yes_or_no(question: str) -> bool:
    """Does the question open with an auxiliary and ask no question word ("Does Sneha study
    DSA?")? "Is there anyone who ...", "Can you tell me who ..." ask for someone.

    >>> asks_yes_or_no("Does Asha use the Saw?"), asks_yes_or_no("Is there a tool for it?")
    (True, False)
    >>> asks_yes_or_no("Could you explain the Saw?")
    False
    """
    words = tokens(question)
    words = words[default_lexicon().opening(words):]    # "could you explain ...?": a request
    return len(words) > 1 and words[0] in WORDS.auxiliary and words[1] != "there" \
        and not set(words) & WORDS.question_words


def _points_inside(question: str, mentions: Sequence[Named]) -> bool:
    """"Sneha has 10 days ..., make her a plan": the question names the person its "her" is."""
    person = default_lexicon().person
    words = set(question_key(question).split())
    return any(m.label == person for m in mentions) and bool(words & HE_SHE) and \
        not words & (REFERRING - HE_SHE) and not depends_on_context(
            " ".join(w for w in question_key(question).split() if w not in HE_SHE), mentions)


def _arguments(spec: ToolSpec, question: str, mentions: Sequence[Named]) -> dict[str, Any]:
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


def asks_a_property_of_a_kind(question: str) -> bool:
    """Does the question name a kind of the graph and a property's word ("What is the highest
    year a student is in?")? The graph is asked first, whatever a note says about students.

    >>> asks_a_property_of_a_kind("What is the highest year a student is in?")
    True
    >>> asks_a_property_of_a_kind("Why does a deadlock need four conditions?")
    False
    """
    lexicon, text = default_lexicon(), question.lower()
    return any(regex and re.search(regex, text) for regex in lexicon.labels.values()) and \
        any(regex and re.search(regex, text) for regex in lexicon.properties.values())
