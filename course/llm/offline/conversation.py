"""Pronouns, references and follow-ups: what "uska", "her", "that project", "and DSA?" point at.

Used by the offline provider in notebook 06 (short-term memory) and 10. Only a pronoun, a
reference ("that project", "those students") or an elliptical follow-up ("and DSA?") borrows
names from the conversation; "who else" leaves out the one the conversation is about.

>>> from course import Agent, OfflineLLM, ShortTermMemory
>>> agent = Agent(db, OfflineLLM(), memory=ShortTermMemory())
>>> _ = agent.answer("Sneha kaun hai?")
>>> agent.answer("and which projects does she work on?").rows
[['Attendance Tracker']]
"""
from __future__ import annotations

import re
from dataclasses import replace

from course.foundation.language import WORDS
from course.llm.offline.chain_steps import NEXT_STEP
from course.llm.offline.cypher import cypher_entities
from course.llm.offline.earlier_answers import BOTH, found_a_value, last_answer, narrowed_by, the_two_named
from course.llm.offline.lexicon import Lexicon
from course.llm.offline.prompt import Entity, Prompt
from course.llm.offline.reading import Reading, read


def _base_turn(prompt: Prompt, lexicon: Lexicon) -> tuple[Reading, list[Entity]] | None:
    """The last earlier question that was not itself a follow-up, read with its own names.

    A name its Cypher used but its words did not ("which projects is he on?") stands for
    its pronoun.
    """
    for question, cypher, _ in reversed(prompt.turns):
        used = cypher_entities(cypher)
        named = [(said, e) for e in dict.fromkeys(used + prompt.recent) if (said := _said_in(question, e))]
        old = read(question, named, prompt.schema, lexicon)
        unnamed = [e for e in used if e not in old.entities]
        if unnamed and old.has("pronoun"):
            marker = f"§{len(old.entities)}"
            old = replace(old, text=re.sub(old.cue("pronoun"), marker, old.text, count=1),
                          entities=old.entities + unnamed[:1])
        if old.entities and not is_follow_up(old):
            return old, old.entities
    return None


def _said_in(question: str, entity: Entity) -> str | None:
    """The words a question named a value with: the value, or its initials ("How many concepts
    does OS cover?" of Operating Systems), or None.

    >>> _said_in("How many concepts does OS cover?", Entity("Course", "name", "Operating Systems"))
    'OS'
    """
    if (value := str(entity.value)).lower() in question.lower():
        return value
    initials = "".join(w[0] for w in value.split())
    found = re.search(rf"\b{re.escape(initials)}\b", question, re.I) if len(initials) > 1 else None
    return found[0] if found else None


# "those" or "these" with no noun after it: before the end, a verb or a preposition
def readings(prompt: Prompt, reading: Reading) -> list[Reading]:
    """The question as asked, or with earlier entities for its pronoun or ellipsis.

    Only a pronoun ("uska year", "her clubs", "their skills") or an elliptical follow-up
    ("and the clubs?", "year?") may borrow from the conversation; "a club" in a question
    that names no one means any club. A pronoun with nothing of its kind to point at gets
    no reading (the sentinel): "what skills does he have?" must not list every skill.
    """
    if prompt.turns and _BARE_ELSE.match(reading.text):   # "who else?": the last question, less its answer
        again = _again_without_its_answer(prompt, reading)
        return [again] if again is not None else []
    step = last_answer(prompt, reading.schema) if prompt.turns and NEXT_STEP.match(reading.text) else None
    if step is not None:   # "and after that?": a step further, from what the last answer found
        marker = f"§{len(reading.entities)}"
        text = re.sub(r"\b(?:that|those|it|them)\b", marker, reading.text, count=1)
        return [replace(reading, text=text, entities=reading.entities + [step])]
    # "which of those does §0 lead to?", "when was each of those founded?": a "those" with no kind's
    # noun after it is "them", of several found (not the one a question that found nothing named)
    bare = reading.lexicon.those_as_them(reading.text) if prompt.turns else reading.text
    if bare != reading.text:
        listed = last_answer(prompt, reading.schema)
        if not (listed is not None and isinstance(listed.value, tuple)):
            return []
        reading = replace(reading, text=bare)
    if reading.has("excluding"):        # "who else ...": not the one just talked about
        reading = replace(reading, excluded=reading.excluded or _in_focus(prompt, reading))
    reading = replace(reading, excluded=reading.excluded or _left_out_by_other(prompt, reading))
    one = re.search(reading.cue("pointing_one"), reading.text)
    if one is not None and one[0].startswith("each") and reading.entities:
        one = None      # "her role in each one in each of §0 and §1": said by the names
    if one is not None and last_answer(prompt, reading.schema) is None and found_a_value(prompt):
        # "how many are in the robotics club? when was that one founded?": a count or a value
        # found, no node, so "that one" is what the last question named, as "it" would be
        reading, one = replace(reading, text=f"{reading.text[:one.start()]}it{reading.text[one.end():]}"), None
    if one is not None:     # "that one", "wahi wala": what the last answer found, or nothing
        return pointed_readings(prompt, reading, one)
    place = _PLACE.search(reading.text)
    if place is not None:   # "explain the first one": that value of the last answer, or nothing
        return placed_readings(prompt, reading, place)
    demonstrative = _demonstrative(reading)
    if demonstrative is not None:
        return demonstrative_readings(prompt, reading, demonstrative)
    both = BOTH.search(reading.text) if prompt.turns and not reading.entities else None
    if both is not None:    # "dono ke clubs": the two just found or named, or no one (never every club)
        listed = last_answer(prompt, reading.schema)
        pair = listed if listed is not None and isinstance(listed.value, tuple) and len(listed.value) == 2 \
            else the_two_named(prompt)
        if pair is not None and reading.has("in_common"):   # "do both of them share a skill?": the two,
            text = f"{reading.text[:both.start()]}§0 and §1{reading.text[both.end():]}"   # with each other
            return [replace(reading, text=text, entities=[replace(pair, value=v) for v in pair.value])]
        text = f"{reading.text[:both.start()]}§0{reading.text[both.end():]}"
        return [replace(reading, text=text, entities=[pair])] if pair is not None else []
    among = _AMONG_THEM.search(reading.text)
    named = re.match(r"\s*§(\d+)", reading.text[among.end():]) if among else None
    group = last_answer(prompt, reading.schema) if named and prompt.turns else None
    if among and named and group is not None and isinstance(group.value, tuple) \
            and reading.entities[int(named[1])].value in group.value:
        # "inme se Paging kis subject ka hai?": one of those found, named first: the ask is of it
        # (not "which of those does Paging lead to?": a choice among them)
        reading = replace(reading, text=(reading.text[:among.start()] + reading.text[among.end():]).strip())
    if reading.has("pronoun") and not _reflexive(reading) and not reading.has("relative"):
        marker = f"§{len(reading.entities)}"
        text = re.sub(reading.cue("pronoun"), marker, reading.text, count=1)
        found = [replace(reading, text=text, entities=reading.entities + [e], narrowed_by=narrowed_by(prompt, e))
                 for e in _referents(prompt, reading)]
        # "Who is Payal and what is her year?": a pronoun after a name may point at it; "his"
        # after a person named in the question does ("What is Karan's role on his project?")
        inside = re.search(rf"§\d+.*{reading.cue('pronoun')}", reading.text)
        if inside and _after_a_person(reading):
            return [reading] + found
        if inside and _an_object(reading):   # "does §0 share a subject with her?": not §0
            return found
        return found + ([reading] if inside else [])
    if not reading.entities and is_elliptical(reading):
        marker = f"§{len(reading.entities)}"
        return [reading] + [replace(reading, text=f"{reading.text} {marker}", entities=[e])
                            for e in prompt.recent]
    return [reading]


# "inme se", "of those": among what the last answer found
_AMONG_THEM = re.compile(r"\b(?:(?:in|un)\s*(?:me|mein|mai)\s+se|(?:of|among)\s+(?:these|those|them))\b,?")


# ("aur kaun?", "koi aur?": Hinglish's "who else?", "anyone else?")
_BARE_ELSE = re.compile(r"^\s*(?:(?:and\s+|aur\s+)?(?:who|what|which|kaun|kya)\s+else"
                        r"|aur\s+kaun(?:\s+hai|\s+hain)?"
                        r"|koi\s+aur|aur\s+koi)\s*[?.!]*\s*$")


def _again_without_its_answer(prompt: Prompt, reading: Reading) -> Reading | None:
    """"who else?" after "and the other one?": the last question again, with the last
    turn's names, leaving out what its answer found (None when that answer listed no names of
    the kind asked: then "else" than whom is not known)."""
    base, found = _base_turn(prompt, reading.lexicon), last_answer(prompt, reading.schema)
    if base is None or found is None:
        return None
    old, before = base
    if found.label not in old.targets()[:1]:
        return None
    last = cypher_entities(prompt.turns[-1][1])
    merged = [next((n for n in last if n.label == e.label), e) for e in before]
    return replace(old, entities=merged, excluded=[found], relaxed=reading.relaxed)


def _after_a_person(reading: Reading) -> bool:
    """Is the first pronoun a person's ("his", "her", "uska") with a person named before it, or a
    plural one after a kind's plural noun ("the students who took §0, with the grades they got")?"""
    m = re.search(reading.cue("pronoun"), reading.text)
    if m is not None and re.fullmatch(reading.cue("plural"), m[0]):
        return reading.lexicon.names_several(reading.text[:m.start()])
    if m is None or not re.fullmatch(reading.cue("male_female"), m[0]) or _an_object(reading):
        return False
    before = {int(n) for n in re.findall(r"§(\d+)", reading.text[:m.start()])}
    return any(reading.entities[i].label == reading.person for i in before if i < len(reading.entities))


def _an_object(reading: Reading) -> bool:
    """Is the first pronoun "him" or "her" as an object ("... with her?", "does §0 know him"),
    never the one its own clause names (that one would be "herself")?"""
    m = re.search(reading.cue("pronoun"), reading.text)
    after = reading.text[m.end():].split()[:1] if m is not None else []
    return m is not None and m[0] in ("him", "her") and \
        (not after or after[0].strip("?.!,") in WORDS.after_object or not after[0][0].isalnum())


def _in_focus(prompt: Prompt, reading: Reading) -> list[Entity]:
    """The most recent node of the asked label: who "who else" leaves out."""
    asked = reading.targets()[:1]
    return [e for e in prompt.recent if e.label in asked][:1]


def _left_out_by_other(prompt: Prompt, reading: Reading) -> list[Entity]:
    """"which other clubs is she in?": the clubs the last answer listed, else the one the
    conversation named last; none when no "other" comes before a kind's noun ("what other
    clubs are there?" at the start of a chat leaves nothing out)."""
    for label in reading.schema.labels:
        if prompt.turns and re.search(rf"\bother\s+(?:{reading.lexicon.label(label)})", reading.text):
            last = last_answer(prompt, reading.schema)
            if last is not None and last.label == label:
                values = last.value if isinstance(last.value, tuple) else (last.value,)
                return [replace(last, value=v) for v in values]
            return [e for e in prompt.recent if e.label == label][:1]
    return []


def _demonstrative(reading: Reading) -> tuple[re.Match[str], str] | None:
    """'that project', 'this subject', 'those students': (the phrase, its label); not before a
    word for anyone at all ("is anyone working on ...": English's verb, not Hindi's "this"),
    nor "those" after the question's own word for its kind ("Welding needs some tools first.
    Which rooms keep those tools?": the ones it just said)."""
    anyone = "|".join(sorted(WORDS.quantifiers))
    for label in reading.schema.labels:
        noun = reading.lexicon.label(label)
        m = re.search(rf"{reading.cue('demonstrative')}\s+(?!(?:{anyone})\b)(?:{noun})", reading.text)
        if m is None:
            continue
        said_before = re.search(rf"\b(?:{noun})\b", reading.text[:m.start()]) is not None
        if not (said_before and re.match(r"(?:those|these)\b", m[0])):
            return m, label
    return None


def _relative(reading: Reading, noun: str, label: str) -> bool:
    """Does the noun name a link of its kind to itself ("friend")? Then it is said of another."""
    return any(p.start == p.end == label and re.fullmatch(reading.lexicon.relation(p.type) or r"(?!)", noun)
               for p in reading.schema.patterns)


def demonstrative_readings(prompt: Prompt, reading: Reading, found: tuple[re.Match[str], str]) -> list[Reading]:
    """The phrase replaced by what it points at: the last answer's nodes of its label, else the
    most recent one; nothing of that label to point at gives no reading (the sentinel). "Those"
    and "these" point at several: the latest answer that found several of the label."""
    m, label = found
    group = last_answer(prompt, reading.schema)
    if group is None and _last_asked(prompt, reading) == label:
        return []     # "that subject" after a question for a subject that found none: unknown
    several = group is not None and group.label == label and isinstance(group.value, tuple)
    if re.match(r"(?:those|these)\b", m[0]) and not several:
        # "which clubs are those people in?" after one person found: the latest several found
        group = next((g for back in range(2, len(prompt.turns) + 1)
                      if (g := last_answer(prompt, reading.schema, back)) is not None
                      and g.label == label and isinstance(g.value, tuple)), None)
        if group is None:
            return []
    referents = [group] if group is not None and group.label == label else []
    if not _relative(reading, m[0].split()[-1], label):   # "that friend" is someone's friend:
        # found by an answer, never the one named whose friend it is
        referents += [e for e in prompt.recent if e.label == label and e not in referents]
    marker = f"§{len(reading.entities)}"
    text = reading.text[:m.start()] + marker + reading.text[m.end():]
    return [replace(reading, text=text, entities=reading.entities + [e]) for e in referents[:1]]


def pointed_readings(prompt: Prompt, reading: Reading, one: re.Match[str]) -> list[Reading]:
    """"that one", "the same one", "wahi wala", "each one": the phrase replaced by what the last answer
    found; a last answer that found nothing, or several where the phrase points at one, gives
    no reading (the sentinel), so the question is refused rather than asked without it."""
    group = last_answer(prompt, reading.schema)
    if group is None or (isinstance(group.value, tuple) and not one[0].endswith(("ones", "wale", "waale"))
                         and not one[0].startswith("each")):
        return []     # nothing found, or several where one is pointed at: which is unknown
    marker = f"§{len(reading.entities)}"
    text = reading.text[:one.start()] + marker + reading.text[one.end():]
    return [replace(reading, text=text, entities=reading.entities + [group])]


# a place among the values the last answer listed ("the first one", "doosra wala")
_PLACE = re.compile(rf"\b(?:{'|'.join(map(re.escape, WORDS.one_of_them))})\b")


def placed_readings(prompt: Prompt, reading: Reading, place: re.Match[str]) -> list[Reading]:
    """"the first one", "the last one", "doosra wala": the phrase replaced by that value of the
    last answer's list; none when the last answer listed no such place (the sentinel)."""
    group = last_answer(prompt, reading.schema)
    values = group.value if group is not None and isinstance(group.value, tuple) else ()
    index = next(WORDS.places[word] for word in place[0].split() if word in WORDS.places)
    if group is None or not -len(values) <= index < len(values):
        return []
    marker = f"§{len(reading.entities)}"
    text = reading.text[:place.start()] + marker + reading.text[place.end():]
    return [replace(reading, text=text, entities=reading.entities + [replace(group, value=values[index])])]


def _last_asked(prompt: Prompt, reading: Reading) -> str | None:
    """The label the last question asked for ("Which club ...?": its label), if any."""
    if not prompt.turns:
        return None
    asked = read(prompt.turns[-1][0], [], prompt.schema, reading.lexicon).targets()
    return asked[0] if asked else None


def _reflexive(reading: Reading) -> bool:
    """'students with their branches', 'who joined their club': "their" is the asked nodes'
    (a possessive after a plural noun or "who <verb>"; "what clubs are they in?" is no such);
    'which topic includes the most topics as its parts?': "its" after a noun, no name between;
    'which project has the fewest people on it?': "it" closing a question for a thing; 'rank the
    clubs by how many members they have': "they" are the clubs ranked."""
    m = re.search(reading.cue("pronoun"), reading.text)
    if m is None:
        return False
    before = reading.text[:m.start()]
    if re.search(r"\bas\s+(?:one\s+of\s+)?$", before):   # "which topic has §0 as one of its parts?":
        return True                                  # the one that has it (not §0, nor one before)
    if re.fullmatch(reading.cue("own_possessive_one"), m[0]):   # "its": a thing's, never a person's
        things = [regex for label, regex in reading.lexicon.labels.items() if label != reading.person]
        return "§" not in before and any(re.search(regex, before) for regex in things)
    if m[0] == "it" and not reading.text[m.end():].strip(" ?.!") and "§" not in before:
        # "which project has the fewest people on it?": the thing asked for, when what it
        # holds is named between ("which subject do I finish before it?" points elsewhere)
        labels = reading.lexicon.labels
        for label, regex in labels.items():
            asked = re.search(rf"(?:{reading.cue('which')})\s+(?:{regex})", before) if label != reading.person else None
            if asked and any(re.search(other, before[asked.end():]) for name, other in labels.items() if name != label):
                return True
    nouns = [n.group(0) for regex in reading.lexicon.labels.values() for n in re.finditer(regex, before)]
    plural_noun = any(n.endswith("s") or re.fullmatch(reading.cue("plural_noun"), n) for n in nouns)
    if m[0] == "they" and reading.has("order"):     # "rank the clubs by how many members they have"
        return plural_noun and "§" not in before
    if not re.fullmatch(reading.cue("own_possessive"), m[0]):
        return False
    return plural_noun or bool(re.search(reading.cue("who_does"), before))


def _referents(prompt: Prompt, reading: Reading) -> list[Entity]:
    """What the question's first pronoun may stand for, best first.

    he/she/uska: a person; it/iska: a thing; they/their/unka: everything the last answer
    listed (one group: "Karan and Rahul"), then anyone recently mentioned.
    """
    recent = [e for e in prompt.recent if e not in reading.entities]
    found = re.search(reading.cue("pronoun"), reading.text)
    first = found[0] if found else ""
    if re.fullmatch(reading.cue("male_female"), first):
        return [e for e in recent if e.label == reading.person]
    if re.fullmatch(reading.cue("thing"), first):   # never one of several the last answer
        listed = last_answer(prompt, reading.schema)   # found ("its" after two clubs)
        several = {(listed.label, v) for v in listed.value} \
            if listed is not None and isinstance(listed.value, tuple) else set()
        things = [e for e in recent if e.label != reading.person and (e.label, e.value) not in several]
        asked = prompt.turns[-1][0].lower() if prompt.turns else ""
        if listed is None and len({e.label for e in things if str(e.value).lower() in asked}) > 1:
            return []   # two things of two kinds named, none found: which "it" is, is unknown
        return things
    # ("un mein se": "un" is plural only before "mein se")
    plural = found is not None and re.match(rf"{reading.cue('plural')}|\w+\s+sab\b", reading.text[found.start():])
    group = last_answer(prompt, reading.schema) if plural else None
    if group is not None and isinstance(group.value, tuple):
        return [group]      # "their" after an answer that listed several: all of them, or nothing
    if found and re.match(r"\s+sab\b", reading.text[found.end():]):   # "woh sab": several, and
        return []                                                      # no answer listed several
    choice = rf"(?:{reading.cue('among')}|(?:all|each|both|every one|many|any|some|none|most|few) of|between)"
    if found and (re.search(rf"\b{choice} {re.escape(first)}$", reading.text[:found.end()])
                  or plural and re.match(r"\s+(?:mein\s+|me\s+)?se\b", reading.text[found.end():])):
        return []     # "does he have all of them?", "who among them", "unme se": several, none listed
    # "woh kis club mein hai": he, she or it, the one a kind asked for is linked to first
    # (a person is in a club; the subject found before is not)
    kinds = set(reading.targets())
    return ([group] if group else []) + sorted(recent, key=lambda e: not any(
        {p.start, p.end} == {e.label, t} for p in reading.schema.patterns for t in kinds))


def is_elliptical(reading: Reading) -> bool:
    """'and the clubs?', 'what about his year?', 'year?': a question that goes on from the last one."""
    if reading.has("follow_on"):
        return True
    words, lex = re.findall(r"[a-z]+", reading.text), reading.lexicon
    return bool(words) and all(w in lex.filler or any(re.fullmatch(p, w) for p in lex.properties.values())
                               for w in words)


def follow_up(prompt: Prompt, reading: Reading) -> Reading:
    """'and Computer Networks?': the last full question again, new names replacing old ones."""
    base = _base_turn(prompt, reading.lexicon)
    if base is None:
        return reading
    (old, before), new, merged = base, list(reading.entities), []
    for e in before:
        same = [n for n in new if n.label == e.label]
        merged.append(same[0] if same else e)
        if same:
            new.remove(same[0])
    if new:   # a name of a label the last question did not have: not the same question
        return reading
    return replace(old, entities=merged, relaxed=reading.relaxed)


def is_follow_up(reading: Reading) -> bool:
    """'and Computer Networks?', 'aur Rahul ka?': names and filler words only.

    A question that asks something of its own ("Tell me about Karan", "Who is Sneha?") is a
    new question, not the last one about a new name, unless it says it goes on ("and what
    about Karan?").
    """
    words = [w for w in re.findall(r"§\d+|[a-z]+", reading.text)]
    asks = any(not w.startswith("§") for w in words) and reading.has("profile")
    if asks and not reading.has("follow_on"):     # a bare "Karan?" still goes on
        return False
    return bool(reading.entities) and all(w.startswith("§") or w in reading.lexicon.filler for w in words)
