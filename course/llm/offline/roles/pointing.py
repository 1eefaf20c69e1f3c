"""What a pointing word stands for: "she", "it", "that student", "those skills", "them".

Introduced in notebook 12, with the query updater (`course.llm.offline.roles.updater`), which writes
a later part of a question with what an earlier part found (`Found`)."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from course.foundation.language import WORDS
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.groups import Found, as_group
from course.llm.offline.roles.kinds import names_a_kind
from course.llm.offline.roles.words import (AFTER_OBJECT, AUXILIARY, DEMONSTRATIVE, HINDI_CASE,
                                            LINK_ENTRY, PEOPLE, PERSONAL, PLURAL, POSSESSIVE,
                                            QUESTION_WORDS, asks_for_people_by_noun, tokens)


def kind_of(word: str, nxt: str, before: str = "") -> str | None:
    """What a word points back with: that (+ noun), it, its, possessive, person, or None ("one" is
    the rewrite's: "that one"); "this" after a verb, before no noun, is "it" ("what does this solve?")."""
    as_it = word in ("this", "that") and before in AUXILIARY and not (   # (not "that club", "that one")
        names_a_kind(nxt) or nxt.endswith("'s") or nxt in WORDS.pronoun_nouns)
    if word in DEMONSTRATIVE and nxt and nxt not in QUESTION_WORDS | AUXILIARY and not as_it or \
            word in WORDS.hindi_demonstrative | WORDS.hindi_oblique_demonstrative and names_a_kind(nxt):   # "ye club"
        return "that"
    if word in ("it", "this", "that"):
        return "it"
    if nxt == "own":     # "which of those have parts of their own?": the subject's own, no one before
        return None
    if word == "its":
        return "its"
    if word in POSSESSIVE or (word == "her" and nxt and nxt not in AFTER_OBJECT):
        return "possessive"
    if HINDI_CASE.get(word) == "mein":   # "usmein": in it, a thing
        return "it"
    if word in PERSONAL or word in ("her", "hers", "them") or word in HINDI_CASE:
        return "person"
    return None


def a_thing_as_one(word: str, before: Sequence[str], nxt: str) -> bool:
    """Is "one" a thing of the kind named before ("the trade-off in using one": an index;
    "how do I avoid one?": a deadlock), with no noun after it and no word before it that
    makes it a choice ("which one", "each one", "the best one", "one of them")?

    >>> a_thing_as_one("one", ["in", "using"], ""), a_thing_as_one("one", ["which"], "")
    (True, False)
    >>> a_thing_as_one("one", ["the", "best"], ""), a_thing_as_one("one", ["avoid"], "")
    (False, True)
    """
    if word != "one" or not before or (nxt and (nxt not in WORDS.prepositions or nxt == "of")):
        return False
    choosing = WORDS.question_words | WORDS.demonstrative | WORDS.quantifiers | WORDS.possessive | \
        AFTER_OBJECT - WORDS.prepositions | {"another", "other", "only", "just", "any", "no", "some", "my", "your"}
    words = [w.lower().strip(",.!?") for w in before[-2:]]     # ("the best one": two words back)
    return words[-1] not in choosing and not (len(words) > 1 and words[0] in choosing - WORDS.question_words)


def last_thing_named(found: Sequence[Found]) -> str | None:
    """The thing the latest part named last, no person: what "one" stands for after it.

    >>> last_thing_named([("What is a lathe?", [("Place", "Workshop"), ("Tool", "Lathe")], [])])
    'Lathe'
    """
    person = default_lexicon().person
    named = [value for label, value in found[-1][1] if label != person] if found else []
    return str(named[-1]) if named else None


def exists(before: Sequence[str], nxt: str) -> bool:
    """Is "there" saying that something exists ("is there anyone", "there are"), pointing
    nowhere? At the end ("who else is there?") it is a place."""
    return nxt in AUXILIARY or bool(nxt and before) and before[-1].lower() in AUXILIARY


def owners_of(word: str, properties: Mapping[str, Sequence[str]] | None) -> set[str] | None:
    """The labels that have the property a word names ("status": the ones with a status), or
    None when it names none."""
    lexicon = default_lexicon()
    owners = {label for label, names in (properties or {}).items() if not LINK_ENTRY.fullmatch(label)
              and any(re.fullmatch(lexicon.prop(name), word) for name in names if name in lexicon.properties)}
    return owners or None


# a question that asks for several people, however many it found
_SEVERAL = re.compile(r"\bwho (?:are|were)\b|\bwho all\b|\bkaun kaun\b|\bkaun hain\b"
                      r"|\b\w{3,}s (?:kaun|who\s*(?:[,?.!]|$))")


def asks_for_several(question: str) -> bool:
    """Does it ask for several people ("who are", "kaun kaun", "X's friends who?")? A "she" after
    it is not one of them; a "woh" is all of them.
    >>> [asks_for_several(q) for q in ("payal ke dost kaun kaun hai", "who is payal", "payal's friends who?")]
    [True, False, True]
    """
    return bool(_SEVERAL.search(question.lower()))


def stands_for(kind: str, noun: str, found: Sequence[Found], word: str = "",
                owners: set[str] | None = None) -> str | None:
    """The value a pointing word stands for, from the latest part that found something: "he",
    "her" a person, "it", "its" never one ("what grade did he get in DBMS, and which semester
    did he take it in?": it is the subject), "them" what was found or a person (after "how
    many students know Python?", "which of them" is not Python).

    >>> person = default_lexicon().person
    >>> found = [("What grade did Asha get in Chemistry?", [(person, "Asha"), ("Course", "Chemistry")], [])]
    >>> stands_for("it", "in", found, "it"), stands_for("person", "take", found, "she")
    ('Chemistry', 'Asha')
    >>> stands_for("person", "", [("How many take Chemistry?", [("Course", "Chemistry")], [])], "them")
    """
    person = default_lexicon().person
    for question, asked_values, got_values in reversed(found):
        asked, got = list(asked_values), list(got_values)
        if word in WORDS.third_person:
            asked, got = [v for v in asked if v[0] == person], [v for v in got if v[0] == person]
        ranked = re.search(default_lexicon().cues["rank"], question.lower())    # ("the best": one)
        if word in WORDS.third_person or word in HINDI_CASE and word not in PLURAL:
            if (len({v for _, v in got}) > 1 or asks_for_several(question)) and not ranked:
                got = []   # "she" is one person: never one of several found (or asked for: "who
                #            are §0's friends, and what does he study?" of one friend), but the best
        elif word in PLURAL:   # "them" is several things found, or a person ("they" for one)
            asked = [v for v in asked if v[0] == person]
        if owners is not None:   # "its status": something that has one
            asked, got = [v for v in asked if v[0] in owners], [v for v in got if v[0] in owners]
        if kind in ("it", "its"):
            asked, got = [v for v in asked if v[0] != person], [v for v in got if v[0] != person]
            if len({v for _, v in got}) > 1:
                got = []   # "it" is one thing, never one of several found
        if kind == "that":   # "that student", "that person('s)": a label by its name or its nouns
            hit = [v for lab, v in got + asked if _names(lab, noun.removesuffix("'s"))]
            if hit:     # ("that skill" after two found: which one is unknown)
                return hit[0] if not word or ranked or len({v for k, v in got if _names(k, noun)}) < 2 else None
            continue
        by_noun = kind in ("person", "possessive") and asks_for_people_by_noun(question)
        if by_noun and not any(v[0] == person for v in got_values):   # (of all it found)
            return None     # "which of her friends ...? where is she?" after none found: no one
        # "who is §0 friends with, and what does he study?": §0 is who the question was about
        by_people = by_noun or kind in ("person", "possessive") and bool(set(tokens(question)) & PEOPLE) \
            and not _subject_of_who(question, [str(v) for _, v in asked])
        # "which subject comes after §0, and who studies it?": "it" is the subject found
        # ("... before §0, and who takes that?": the one thing just found; "... and after it?": §0)
        one_found = word in ("that", "this") and len(set(got)) == 1 and got[0][0] in {lab for lab, _ in asked}
        by_things = kind in ("it", "its") and (asks_which_thing(question) or one_found) or kind == "one"
        ordered = got + asked if by_people or by_things else asked + got
        ordered.sort(key=lambda v: kind == "person" and v[0] != person)   # "uski" (his, her, its): a person
        if ordered:
            return ordered[0][1]
    return None


def _subject_of_who(question: str, names: Sequence[str]) -> bool:
    """Is a name the subject of a "who" question, the one it asks about ("Who is Karan friends
    with?", "who does Sneha know?"), not what it asks for ("Who leads §0?", "Who is Karan?")?

    >>> _subject_of_who("Who is Karan friends with?", ["Karan"]), _subject_of_who("Who is Karan?", ["Karan"])
    (True, False)
    """
    return any(re.search(rf"\b(?:who|whom)\s+(?:is|was|are|does|did|has|have)\s+{re.escape(name)}\s+\w",
                         question, re.IGNORECASE) for name in names)


def every_one(kind: str, noun: str, found: Sequence[Found], language: str, *,
              each: bool = True) -> str | None:
    """"those skills", "these concepts": every value of the noun's label the latest part that
    found several found ("each of SQL and Python"; `each=False`: "SQL and Python"), or None."""
    for _, asked, got in reversed(found):
        first = stands_for(kind, noun, [("", asked, got)])
        if first is None:
            continue
        label = next(lab for lab, v in list(got) + list(asked) if v == first)
        values = [str(v) for v in dict.fromkeys(v for lab, v in got if lab == label)]
        return as_group(values, language, each=each) if len(values) > 1 else None
    return None


def asks_which_thing(question: str) -> bool:
    """Does a question ask "which <thing>" by a singular noun ("which subject comes after DSA?",
    "which graph search gives the shortest path?")? Then what it found, not what it named, is
    the thing a later "it" stands for. "what is", "which of" ask no thing by a noun, and "which
    tools" asks for things a later "it" is not one of.

    >>> asks_which_thing("which graph search uses a queue?"), asks_which_thing("what is BFS?")
    (True, False)
    >>> asks_which_thing("which tools does Asha use?")
    False
    """
    which = default_lexicon().cues.get("which", r"(?!)")
    not_a_thing = WORDS.auxiliary | WORDS.function | WORDS.question_words | WORDS.pronouns \
        | WORDS.prepositions | WORDS.pronoun_nouns
    asked = [m.group(m.lastindex or 0) for m in re.finditer(rf"(?:{which})\s+([a-z-]+)", question.lower())]
    things = [word for word in asked if word not in not_a_thing]
    # "what sub-topics fall under Trees?" asks for things by a plural: what it found is "them"
    return any(not (word.endswith("s") and not word.endswith("ss")) for word in things)


def owners_in(part: str, properties: Mapping[str, Sequence[str]] | None) -> set[str] | None:
    """The labels that have a property a word of the part names ("how many credits are they
    worth?": the kinds with credits), or None when it names none."""
    owners = set().union(*(owners_of(w, properties) or set() for w in tokens(part)))
    return owners or None


def found_of_kinds(found: Sequence[Found], labels: set[str] | None, language: str) -> str | None:
    """"them" where the part's own words say what it is: "which projects need them?" reaches
    skills, so it is every skill the latest part that found one found, not the person it was
    about; but "which club is he in?" reaches people: the one person it asked about, when it
    found things of other kinds only. None when the words reach no kind, or nothing of it.

    >>> found = [("Which tools does Asha use?", [("Person", "Asha")], [("Tool", "Lathe"), ("Tool", "Saw")])]
    >>> found_of_kinds(found, {"Tool"}, "en"), found_of_kinds(found, {"Room"}, "en")
    ('each of Lathe and Saw', None)
    """
    for _, asked, got in reversed(found):
        values = [str(v) for v in dict.fromkeys(v for label, v in got if label in (labels or ()))]
        if values or got and len(named := {str(v) for label, v in asked if label in (labels or ())}) == 1:
            return as_group(values, language) if len(values) > 1 else (values or [*named])[0]
    return None


def each_one_found(found: Sequence[Found], language: str) -> str | None:
    """"it" after a part that asked of every thing of a kind ("List every project with its
    status, and the skills it needs"): each of the values that part found; None when the
    latest part that found something asked of no "every"/"each" kind, or found one value.

    >>> each_one_found([("List every tool", [], [("Tool", "Lathe"), ("Tool", "Saw")])], "en")
    'each of Lathe and Saw'
    >>> each_one_found([("Who uses every tool?", [], [("Person", "Asha"), ("Person", "Ben")])], "en")
    """
    for question, _, got in reversed(found):
        if not got:
            continue
        words, labels = tokens(question), {label for label, _ in got}
        values = [str(v) for v in dict.fromkeys(v for _, v in got)]
        if len(values) < 2 or len(labels) != 1:
            return None
        label = labels.pop()
        every = any(w in WORDS.quantifiers and _names(label, n) for w, n in zip(words, words[1:]))
        return as_group(values, language) if every else None
    return None


def each_of_several(found: Sequence[Found], labels: set[str] | None, language: str) -> str | None:
    """"it" that stands for none of what was named, after a part that found several things of one
    kind ("Which club has the most members, and who is its president?", three tied): each of
    them, not one picked (nor one from earlier in the conversation); "she" after three people tied
    each of them (`labels`: the person's). None when the latest part that found something found
    one, or none of the `labels` (by default, things: not people).

    >>> each_of_several([("Which tools are newest?", [], [("Tool", "Lathe"), ("Tool", "Saw")])], None, "en")
    'each of Lathe and Saw'
    """
    person = default_lexicon().person
    for _, _, got in reversed(found):
        things = [(label, v) for label, v in got if (label in labels if labels is not None else label != person)]
        if not got:
            continue
        values = [str(v) for v in dict.fromkeys(v for _, v in things)]
        one_kind = len({label for label, _ in things}) == 1
        return as_group(values, language) if len(values) > 1 and one_kind else None
    return None


def set_apart(word: str, before: Sequence[str], nxt: str, found: Sequence[Found]) -> str | None:
    """"who else" in a later part: besides the one person the latest part that named one asked
    about ("What does Karan study, and who else studies it?": Karan, not whoever the chat named
    last) or found ("Who leads X, and who else is in it?"); "baaki kaun": "<name> ke alawa". None
    for any other word, an "else" that asks for no one ("what else"), or no one person.

    >>> found = [("What does Asha use?", [(default_lexicon().person, "Asha")], [("Tool", "Saw")])]
    >>> set_apart("else", ["who"], "uses", found), set_apart("else", ["what"], "does", found)
    ('besides Asha', None)
    """
    people = {before[-1].lower() if before else "", nxt} & WORDS.people
    if word not in WORDS.setting_apart or not people:
        return None
    for _, asked, got in reversed(found):
        named = [*dict.fromkeys(str(v) for label, v in asked if label == default_lexicon().person)] or \
            [*dict.fromkeys(str(v) for label, v in got if label == default_lexicon().person)]
        if named:
            return None if len(named) > 1 else f"besides {named[0]}" if word == "else" else f"{named[0]} ke alawa"
    return None


_OTHER = re.compile(r"\b(?:the\s+)?other\s+([a-z]+)\b", re.I)
_SET_APART_ALREADY = re.compile(rf"\b(?:{'|'.join(WORDS.besides)})\b", re.I)


def others_than_before(part: str, found: Sequence[Found]) -> str | None:
    """"which other club is she in?" in a later part: the club besides those of its kind the
    earlier parts named or found ("Who leads the Chess Club, and which other club is she
    in?": besides the Chess Club). None when "other" names no kind, or none came before.

    >>> found = [("Who uses the Lathe?", [("Tool", "Lathe")], [(default_lexicon().person, "Asha")])]
    >>> others_than_before("which other tools does Asha use?", found)
    'which tools does Asha use besides Lathe?'
    >>> others_than_before("do they know each other?", found) is None
    True
    """
    m = _OTHER.search(part)
    if not m or _SET_APART_ALREADY.search(part):
        return None
    kind = default_lexicon().label
    values = list(dict.fromkeys(str(v) for _, asked, got in found for label, v in [*asked, *got]
                                if re.fullmatch(kind(label), m[1].lower())))
    if not values:
        return None
    text = f"{part[:m.start()]}{m[1]}{part[m.end():]}".rstrip(" ?")
    names = values[0] if len(values) == 1 else as_group(values, "en", each=False)
    return f"{text} besides {names}" + ("?" if part.rstrip().endswith("?") else "")


def the_one_named(after: str, found: Sequence[Found], language: str = "en") -> str | None:
    """"the club" in a later part ("Who are the members of X, and when did the club start?"): the
    one value of the label the words `after` "the" open with, of the latest part that named or
    found one; each of them when it had several (which one is meant is not said: "Which clubs
    is Payal in, and when was the club founded?"); None when the noun is plural or no label's
    ("the team lead": a role, not a team).

    >>> the_one_named("tools", [("Who uses the Lathe?", [("Tool", "Lathe")], [])]) is None
    True
    >>> the_one_named("club", [("Which clubs?", [], [("Club", "Chess"), ("Club", "Drama")])])
    'each of Chess and Drama'
    """
    said = after.split()[0] if after.split() else ""
    noun, whose = said.removesuffix("'s"), "'s" if said.endswith("'s") else ""   # "the project's"
    lexicon = default_lexicon()
    labels = [label for label in lexicon.labels
              if lexicon.label(label) and re.match(rf"(?:{lexicon.label(label)})\b", after)]
    if not labels and noun:      # "who is the president of X, and what year is the president in?"
        return _who_was_asked(noun, found)
    if not labels or noun.endswith("s") and not noun.endswith("ss"):
        return None
    for _, asked, got in reversed(found):
        values = list(dict.fromkeys(str(v) for lab, v in [*got, *asked] if lab in labels))
        if values:
            return values[0] + whose if len(values) == 1 else None if _chosen_by_clause(after) else \
                as_group(values, language) + whose
    return None


def _who_was_asked(noun: str, found: Sequence[Found]) -> str | None:
    """The one value found by the latest part that asked who "the <noun>" is ("who is the
    president of X?"): the same words later mean that one.

    >>> _who_was_asked("president", [("who is the president of X?", [], [("Person", "Asha")])])
    'Asha'
    """
    for asked, _, got in reversed(found):
        if re.search(rf"(?i)\bwho(?:'s|s|\s+is|\s+was)\s+the\s+{re.escape(noun)}\b", asked):
            values = list(dict.fromkeys(str(v) for _, v in got))
            return values[0] if len(values) == 1 else None
    return None


def _chosen_by_clause(after: str) -> bool:
    """Does a clause follow the noun and choose one ("the skill he's advanced in", "the club
    that meets on Fridays")? Then "the" picks among those found, not each of them.

    >>> _chosen_by_clause("skill he's advanced in"), _chosen_by_clause("club founded")
    (True, False)
    """
    words = after.split()
    nxt = words[1].removesuffix("'s") if len(words) > 1 else ""
    return nxt in WORDS.personal | WORDS.third_person | WORDS.first_person.keys() | {"that", "which", "who",
                                                                                      "whom", "where", "you"}


def link_of_named(noun: str, found: Sequence[Found],
                  properties: Mapping[str, Sequence[str]] | None) -> str | None:
    """"that friend" after a part that named a person and found no one: that person's friend
    ("Sneha has a friend listed. Which clubs does that friend belong to?"): a word for a link
    between people is not the person. None when the noun names no such link, or a person was
    found (then "that friend" is the one found).

    >>> person = default_lexicon().person
    >>> links = {f"{person}-KNOWS->{person}": []}
    >>> found = [("Asha has a friend.", [(person, "Asha")], [])]
    >>> with_friend = {f"{person}-FRIENDS_WITH->{person}": []}
    >>> link_of_named("friend", found, with_friend), link_of_named("friend", found, links)
    ("Asha's friend", None)
    """
    lexicon, person = default_lexicon(), default_lexicon().person
    between = [m[2] for m in map(LINK_ENTRY.fullmatch, properties or {}) if m and m[1] == m[3] == person]
    if not any(re.fullmatch(lexicon.relation(link) or r"(?!)", noun) for link in between):
        return None
    for _, asked, got in reversed(found):
        if any(label == person for label, _ in got):
            return None
        named = [str(v) for label, v in asked if label == person]
        if named:
            return f"{named[0]}'s {noun}"
    return None


def _names(label: str, noun: str) -> bool:
    """Is the noun a word for the label ("project", "projects" for its label)?"""
    regex = default_lexicon().label(label)
    return noun.lower().rstrip("s") == label.lower() or bool(regex and re.fullmatch(regex, noun))
