"""An ask after a scene: "I want to help on the Attendance Tracker. what skills does it need?"

Introduced in notebook 14, with the learner's agentic agent. A learner often says something
first and asks after it, pointing back: the scene names what the ask is about, and the ask
alone says "it". Asked whole, the scene's own words ("I want to help out on") are words no
query answers, and the part is refused. So when text2cypher refuses such a part, the agent
asks again (its `simplify`): the last sentence (or what follows a colon or a dash), its "it"
or "he" standing for what the scene names (the offline updater's rules: a retry, no model
call). Only when the question names something no note speaks of (a person, a club, a
project), or the ask points at the scene's thing by its kind ("For DBMS next week I want a
checklist: how many credits is the subject worth?"): a scene about what the notes explain
("Two of my processes are stuck waiting for each other. what is this?", "I ran EXPLAIN on my
SQL query. what is it doing?") is a note question's setting, and the note search reads it
whole. A sentence said after the ask ("... their names? I'd like to invite them.") is no
scene the ask points at: the ask is asked alone.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from course.agents.named_in_notes import beyond_notes
from course.foundation.db import Database
from course.foundation.language import points_back
from course.foundation.scenes import scene_and_ask
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.updater import RuleUpdater
from course.pipeline.linking import link_entities
from course.pipeline.schema import introspect


def scene_asker(db: Database) -> Callable[[str], str | None]:
    """A `simplify=` for `AgenticAgent`: the ask after a scene, with its pointing words as what
    the scene names, or None (no scene, or the question names nothing no note speaks of).

    >>> ask = scene_asker(db)
    >>> ask("I'm looking for a senior who's done DSA. what grade did Karan get in it?")
    'what grade did Karan get in DSA?'
    >>> ask("for our poster: when was the coding club founded?")
    'when was the coding club founded?'
    >>> ask("Which club is Rahul in?") is None
    True
    >>> ask("Hi, I'm new and don't know anyone yet. Which clubs are there?")
    'Which clubs are there?'

    """
    def ask(question: str) -> str | None:
        found = scene_and_ask(question)
        if found is None:
            return None
        scene, asked = found
        if question.lstrip().startswith(asked):   # said after the ask ("I'd like to know their
            return asked                          # names, please"): no word of the ask points at it
        schema = introspect(db)     # (with its aliases: the scene says "Operating Systems", the ask "OS")
        named = [(m.label, m.value) for m in link_entities(db, scene, schema=schema) if m.score >= 1.0]
        linked = link_entities(db, asked, schema=schema)
        if not named and _one_of_a_kind(asked, schema.labels):
            return None      # "Could you find an explanation?": which one, only the scene says
        if not named or not points_back(asked) and any(m.score >= 1.0 for m in linked):
            return asked     # the ask names what it asks about, or the scene names nothing
            # ("Hi, I'm new and don't know anyone yet. Which clubs are there?")
        if not _by_its_kind(asked, {label for label, _ in named}) and \
                not any(_no_note_speaks_of(db, m.label, str(m.value))
                        for m in link_entities(db, question, schema=schema) if m.score >= 1.0):
            return None
        return RuleUpdater().rewrite(asked, [(scene, named, [])], named=len(linked), linked=linked,
                                     properties=schema.owners())
    return ask


def _one_of_a_kind(asked: str, labels: Iterable[str]) -> bool:
    """Does the ask want one thing of a kind, named by nothing in it ("could you find an
    explanation?", "give me a note")? The scene before it says which.

    >>> _one_of_a_kind("Could you find an explanation?", ["Note"])
    True
    >>> _one_of_a_kind("Which clubs are there?", ["Club"])
    False
    >>> _one_of_a_kind("Which students are Advanced in at least one skill?", ["Skill"])
    False
    """
    lexicon = default_lexicon()
    kinds = "|".join(f"(?:{lexicon.label(label)})" for label in labels if lexicon.label(label))
    request = r"\b(?:find|get|give|show|send|suggest|recommend|share|pull up)\s+(?:me\s+|us\s+)?(?:a|an)"
    return bool(kinds) and re.search(rf"{request}\s+(?:\w+\s+)?(?:{kinds})\b", asked.lower()) is not None


def _by_its_kind(asked: str, labels: set[str]) -> bool:
    """Does the ask point at what the scene names by its kind ("For Computer Networks I want a
    checklist: which topics does the subject cover?"): a graph question, not a note's?

    >>> _by_its_kind("which topics does the subject cover?", {"Subject"})
    True
    >>> _by_its_kind("what is it?", {"Subject"})
    False
    """
    lexicon = default_lexicon()
    kinds = "|".join(f"(?:{lexicon.label(label)})" for label in labels if lexicon.label(label))
    return bool(kinds) and re.search(rf"\b(?:the|that|this)\s+(?:{kinds})\b", asked.lower()) is not None


_SPOKEN_OF = "MATCH (n:Note) WHERE toLower(n.text) CONTAINS toLower($name) RETURN count(n) > 0"


def _no_note_speaks_of(db: Database, label: str, value: str) -> bool:
    """A value of a label no note reaches (`beyond_notes`) that no note's text names."""
    return label in beyond_notes(db) and not db.run(_SPOKEN_OF, {"name": value}).rows[0][0]


def in_turn(*simplifiers: Callable[[str], str | None]) -> Callable[[str], str | None]:
    """Each of `simplifiers` on what the one before gave (the ask without its scene, then
    without its filler word: "Which subject is supposed to be done before OS?"), or None when
    none gives a simpler question."""
    def simplify(question: str) -> str | None:
        simpler = question
        for simplifier in simplifiers:
            simpler = simplifier(simpler) or simpler
        return simpler if simpler != question else None
    return simplify
