"""Who the conversation's "she" and "me" are: the person it mentioned last, and the one the
learner said they are ("I am Sneha", "main Sneha hoon"), for a part no earlier part answers.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from course.foundation.language import WORDS, question_key
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.pointing import kind_of
from course.llm.offline.roles.words import FIRST_PERSON, HE_SHE, HINDI_CASE, PLURAL, Named

_INTRODUCED = re.compile(WORDS.introducing, re.I)   # "I am Sneha", "main Sneha hoon"
_RECENT = re.compile(r"^- (\w+): (.+)$", re.M)
_USER = re.compile(r"^\[Turn \d+\] User: (.*)$", re.M)


def _person_in(context: str, person: str) -> tuple[str | None, str | None]:
    """(who "she"/"uska" stands for, who "me"/"mujhe" stands for), from what a model is given:
    the conversation's RECENTLY MENTIONED block; the speaker only when a turn said so ("I am
    Sneha", "main Sneha hoon"), with a name: capitalised words, or a value mentioned."""
    recent = _people_in(context, person)
    speaker = None
    for line in _USER.findall(context):
        said = _INTRODUCED.match(line.strip())
        name = said.group(1).strip() if said else ""
        known = next((v for v in recent if v.lower() == name.lower()), None)
        if known or (name and len(name.split()) <= 3 and all(w[:1].isupper() for w in name.split())):
            speaker = known or name
    return (recent[0] if recent else None), speaker


def _people_in(context: str, person: str) -> list[str]:
    """The people of the conversation's RECENTLY MENTIONED block, latest first."""
    return [v.strip() for label, v in _RECENT.findall(context.split("RECENTLY MENTIONED", 1)[-1])
            if label == person] if "RECENTLY MENTIONED" in context else []


IT = ("it", "its")


def _thing_in(context: str, person: str) -> tuple[str, str] | None:
    """What "it" stands for after a turn a note answered: the topic the answer quoted its note
    on ("(note N18, on Deadlocks)"), not another thing its text names ("Operating systems
    handle deadlocks ..."); else, after a search (its Cypher line a comment, not a query,
    which text2cypher reads with the conversation itself), the first value of RECENTLY
    MENTIONED that is no person."""
    turns = re.findall(r"^Cypher: (.*)$", context, re.M)
    if "RECENTLY MENTIONED" not in context or not turns:
        return None
    said, mentioned = context.split("RECENTLY MENTIONED", 1)
    recent = [(label, v.strip()) for label, v in _RECENT.findall(mentioned) if label != person]
    answers = re.findall(r"^Answer: (.*)$", said, re.M)
    quoted = re.findall(r"\(note [^,()]+, on ([^()]+)\)", answers[-1]) if answers else []
    if quoted:         # (a search's turn, or a query's that quoted its note: "what is paging?")
        return next((r for r in recent if r[1] == quoted[-1].strip()), None)
    return recent[0] if recent and turns[-1].startswith("//") else None


def resolve_pronouns(part: str, context: str, mentions: Sequence[Named]) -> str:
    """The part with "she", "her", "uska" replaced by the person the conversation mentioned
    last (left alone when the part names a person itself), "it", "its" and "them" by the
    topic of the note it answered with last, and "me", "mujhe", "my" by the person the user
    said they are. What cannot be resolved stays as it is, and so does a plural after a query
    ("unki", "their": what the last answer found, which text2cypher reads from the conversation).

    >>> ctx = chr(10).join(["[Turn 1] User: I am Sneha", "RECENTLY MENTIONED:", "- Student: Payal"])
    >>> resolve_pronouns("make her a plan; mujhe partner chahiye", ctx, [])
    'make Payal a plan; Sneha ko partner chahiye'
    >>> seen = chr(10).join(["Cypher: // search", "RECENTLY MENTIONED:", "- Concept: BFS"])
    >>> resolve_pronouns("and what is its time complexity?", seen, [])
    "and what is BFS's time complexity?"
    >>> resolve_pronouns("isse pehle kya padhna chahiye", seen, [])
    'BFS se pehle kya padhna chahiye'
    >>> resolve_pronouns("what comes before that one?", seen, [])
    'what comes before BFS?'
    >>> from course.llm.offline.roles.words import Linked
    >>> p = default_lexicon().person
    >>> two = chr(10).join(["RECENTLY MENTIONED:", f"- {p}: Asha", f"- {p}: Ravi"])
    >>> resolve_pronouns("does Ravi share a club with her?", two, [Linked("Ravi", p, "name", "Ravi")])
    'does Ravi share a club with Asha?'
    """
    person = default_lexicon().person
    third, speaker = _person_in(context, person)
    named = {str(m.value) for m in mentions if m.label == person}
    # "does Ravi share a club with her?": an object pronoun is never the one its own clause
    # names (that would be "herself"), so it is the conversation's person besides
    other = next((p for p in _people_in(context, person) if p not in named), None) if named else None
    if named:
        third = None      # the part names its person: its "her" points there, not back
    # "it", "its", "them": the topic a note answered of last ("its time complexity" after the
    # note on BFS), unless the part names a thing of that kind itself
    topic = _thing_in(context, person)
    thing = topic[1] if topic and not any(m.label == topic[0] for m in mentions) else None
    words = as_speaker(part, speaker).split() if speaker else part.split()
    thing_said = None
    out: list[str] = []
    for i, word in enumerate(words):
        bare = word.lower().strip(",.!?;")
        nxt = words[i + 1].lower().strip(",.!?;") if i + 1 < len(words) else ""
        tail = word[len(word.rstrip(",.!?;")):]
        before = words[i - 1].lower() if i else ""    # ("what problem does this solve?": as "it")
        if bare == "one" and out and out[-1] == thing_said:
            out[-1] += tail      # "what comes before that one?": the topic, as "it" would be
        elif thing and bare in ("that", "this") and nxt == "one":
            thing_said, thing = thing, None
            out.append(thing_said)
        elif thing and (bare in ("them", "they", "their") or bare in IT and kind_of(bare, nxt) == bare
                      or kind_of(bare, nxt, before) == "it" and bare in ("this", "that")):
            out.append(thing + ("'s" if bare in ("its", "their") else "") + tail)
            thing = None
        elif thing and not third and bare in HINDI_CASE and bare[:2] in ("is", "us"):   # "isse pehle":
            out.append(f"{thing} {HINDI_CASE[bare]}{tail}")    # "Deadlocks se pehle", with no person said
            thing = None
        elif bare in ("him", "her") and other and kind_of(bare, nxt) == "person":
            out.append(other + tail)
            other = None
        elif bare in HE_SHE - PLURAL and third and kind_of(bare, nxt) in ("person", "possessive"):
            case = (" " + HINDI_CASE[bare]) if bare in HINDI_CASE else \
                "'s" if kind_of(bare, nxt) == "possessive" else ""
            out.append(third + case + tail)
            third = None    # named once: a later "her" points at the name, as a pronoun
        else:
            out.append(word)
    return " ".join(out)


def as_speaker(text: str, speaker: str) -> str:
    """"me", "my", "mujhe" as the speaker's name ("my friends" -> "Sneha's friends").

    >>> as_speaker("which clubs are my friends in? mujhe batao", "Sneha")
    "which clubs are Sneha's friends in? Sneha ko batao"
    """
    out = []
    for word in text.split():
        bare, tail = word.lower().strip(",.!?;"), word[len(word.rstrip(",.!?;")):]
        out.append(speaker + FIRST_PERSON[bare] + tail if bare in FIRST_PERSON else word)
    return " ".join(out)


def who_asks_said(question: str) -> str:
    """The question with the sentence in which the learner says who they are left out, and
    their "my", "me" as their name: that sentence asks nothing, it names the speaker.

    >>> who_asks_said("which clubs are my friends in? i'm Sneha")
    "which clubs are Sneha's friends in?"
    >>> who_asks_said("I'm confused. what are my subjects?")
    "I'm confused. what are my subjects?"
    """
    sentences = re.split(r"(?<=[.?!;,])\s+", question.strip())
    for i, sentence in enumerate(sentences):
        said = _INTRODUCED.match(sentence.strip(" ,;"))
        name = said.group(1).strip(" .!?,") if said else ""
        rest = sentences[:i] + sentences[i + 1:]
        if name and len(name.split()) <= 3 and all(w[:1].isupper() for w in name.split()) \
                and any(w in FIRST_PERSON for r in rest for w in question_key(r).split()):
            return as_speaker(" ".join(rest), name).strip(" ,;")
    return question

