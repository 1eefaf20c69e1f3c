"""The offline query updater: a question split into parts, a later part rewritten.

Introduced in notebook 12. A question splits at `;`, at `?` followed by more, and at "and" /
"aur" / "or" when both sides ask on their own; "she", "that student", "uske" in a later part
become what an earlier part found. Rules, not a model: see `course.llm.offline.roles.words`.

>>> RuleUpdater().split("Who is best at DBMS, and which clubs is she in?")
['Who is best at DBMS?', 'which clubs is she in?']
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from course.foundation.language import WORDS, language_of, question_key
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.groups import (BOTH, Found, all_found, both_found, chooses_among,
                                             each_of, as_group, the_ones)
from course.llm.offline.roles.words import (AFTER_OBJECT, ALL_OF_THEM, AUXILIARY, CONJUNCTIONS,
                                            DEMONSTRATIVE, EACH_OF_THEM,
                                            ENGLISH_ONLY, FIRST_PERSON, HE_SHE, HINDI_CASE, PEOPLE,
                                            PERSONAL, PLURAL, POSSESSIVE, QUESTION_WORDS, REFERRING,
                                            REQUESTS, LINK_ENTRY, Named, asks_for_a_change,
                                            asks_only_a_property, names_nothing, reached_by_links,
                                            tokens)


# "Tell me", "show me", "list": a request whose list of things ("X's year, the project she
# is on and her friends") is one request per thing, each thing a possessive or "the" phrase
_REQUEST = re.compile(r"^\s*(?:" + "|".join(sorted(REQUESTS)) + r")\s+(?:me\s+|us\s+)?", re.I)
_LISTED = re.compile(r"^(?:the|" + "|".join(sorted(POSSESSIVE | {"her"})) + r")\s+\w", re.I)


def _is_question(words: Sequence[str], *, opening: bool) -> bool:
    """Words that ask on their own: a question word first, a Hinglish one anywhere, an
    auxiliary verb first ("Is Payal ..."), or, after a conjunction, an auxiliary verb followed
    by a pronoun ("... and does she ...", not "... and is in the club")."""
    if not words:
        return False
    if len(words) > 1 and words[0] in WORDS.after_object | WORDS.subordinating \
            and words[1] in QUESTION_WORDS:
        words = words[1:]     # "in which semester ...", "since when ...": the question word asks
    if opening and words[0] in AUXILIARY:
        return True
    if words[0] in QUESTION_WORDS or any(w in QUESTION_WORDS for w in words[1:] if w.isalpha()
                                         and w not in ENGLISH_ONLY):
        return True
    return not opening and len(words) > 1 and words[0] in AUXILIARY and (
        words[1] in PERSONAL or words[1] in DEMONSTRATIVE)


def _sets_the_scene(words: Sequence[str]) -> bool:
    """A clause the question after it rests on ("when I type a site's name", "if I cut a /24",
    "to find the fewest hops"), not a question of its own: a verb or a question word right
    after it asks ("when was", "when did", "since when")."""
    if len(words) > 1 and words[0] == "to":    # "to find ...", not "to which club ..."
        return words[1] not in {"which", "what", "who", "whom", "whose", "where", "when", "how"}
    return bool(words) and words[0] in WORDS.subordinating and (
        len(words) < 2 or words[1] not in AUXILIARY | QUESTION_WORDS)


class RuleUpdater:
    """Splits a question into parts and rewrites later parts with what earlier ones found."""

    name, model = "Offline", "rules"

    def split(self, question: str) -> list[str]:
        """The atomic questions, in order; one part when the question is one question.

        >>> RuleUpdater().split("Payal kaun hai aur uske clubs kaunse hain?")
        ['Payal kaun hai?', 'uske clubs kaunse hain?']

        A request to change the data is never split: it goes whole to be refused whole (a
        question about how a change works is no such request).
        """
        if asks_for_a_change(question.lower()):
            return [question]
        pieces: list[str] = []
        for piece in (p for p in re.split(r";|\?(?=\s*\S)", question) if p.strip()):
            if pieces and names_nothing(piece):   # "... in a subject? Who, and which one?"
                pieces[-1] = f"{pieces[-1]}?{piece}"
            else:
                pieces.append(piece)
        parts: list[str] = []
        for piece in pieces:
            parts += self._split_conjunctions(piece.strip())
        parts = [p for p in parts if tokens(p)]
        if len(parts) <= 1:
            return [question]
        return [_as_question(p) if "?" in question else p for p in parts]

    def _split_conjunctions(self, text: str) -> list[str]:
        pattern = r",?\s+\b(" + "|".join(CONJUNCTIONS) + r")\b\s+|,\s+(?=\w)"
        for match in re.finditer(pattern, text, flags=re.I):
            left, right = text[:match.start()], text[match.end():]
            if _sets_the_scene(tokens(left)):
                continue
            after = re.search(pattern, right, flags=re.I)   # "Who took DSA, in which semester,
            if after and asks_only_a_property(right[:after.start()]):   # and ...": one ask
                joined, rest = f"{left.strip()}, {right[:after.start()].strip()}", \
                    self._split_conjunctions(right[after.end():].strip())
                while rest and asks_only_a_property(rest[0]):     # "... and with what grade?"
                    joined, rest = f"{joined} and {rest[0]}", rest[1:]
                return [joined] + rest
            if names_nothing(left) or names_nothing(right) or asks_only_a_property(right):
                continue     # "Which, and when ...", "... and at what level?": one ask of the sentence
            if _is_question(tokens(left), opening=True) and _is_question(tokens(right), opening=False):
                return [left.strip()] + self._split_conjunctions(right.strip())
            request = _REQUEST.match(left)
            if request and _LISTED.match(right):     # "Tell me X's year, the project she ..."
                return [left.strip()] + self._split_conjunctions(f"{request[0]}{right.strip()}")
        return [re.sub(r"^(also|and|aur|plus)\s+", "", text, flags=re.I).strip()]

    def rewrite(self, part: str, found: Sequence[Found], *, named: int = 0,
                properties: Mapping[str, Sequence[str]] | None = None) -> str:
        """The part with "she", "it", "that student" or "uske" replaced by what it stands for.

        `found` holds (question, the values it named, the graph values of its rows) as
        (label, value) pairs for the parts answered so far, in order (the RESULTS SO FAR of the
        prompt). A person's pronoun ("she", "his", "uske") stands for what the last
        part found when it asked "who" (the first value of its rows that names a graph value),
        else for what it asked about; so do "it" and "its"; "that student" stands for the
        last value of that label. "each of them" stands for every value the latest part found;
        so do "both" and "dono" in a part that names no value of its own (`named`: how many the
        part's LINKED VALUES hold). "its status", "uska status": a thing that has a status
        (`properties`: what each kind of thing has), not the person asked about.

        >>> person = default_lexicon().person
        >>> found = [("Which tool does Asha use?", [(person, "Asha")], [("Tool", "Lathe")])]
        >>> RuleUpdater().rewrite("uska status kya hai?", found,
        ...                       properties={person: ["name"], "Tool": ["name", "status"]})
        'Lathe ka status kya hai?'
        """
        part = the_ones(part, found) or part    # "which ones": of the kind found before
        grouped = each_of(part, found, named)   # "each of them", "both": every value found
        if grouped is None and BOTH.search(part):
            return both_found(part, found) or part   # "both" of one value found would be nonsense
        part = grouped or part        # then "their" is each one's: "each of A and B ... their X"
        words = part.rstrip().rstrip("?").split()
        out: list[str] = []
        skip = False
        for i, word in enumerate(words):
            bare = word.lower().strip(",.!")
            nxt = words[i + 1].lower().strip(",.!?") if i + 1 < len(words) else ""
            if skip:
                skip = False
                continue
            said = _stands_for("person", nxt, found) if bare[:-2] in HE_SHE and \
                bare.endswith("'s") else None
            if said is not None:           # "the club he's in": he is
                out.append(f"{said} is")
                continue
            kind = _kind_of(bare, nxt)
            one = kind == "that" and nxt in WORDS.pronoun_nouns   # "that one": what "it" is
            kind = "one" if one else kind
            owners = _owners(nxt, properties) if bare not in WORDS.third_person else None
            if owners is None and kind == "person" and bare in PERSONAL:   # "woh ... kaam karta"
                owners = reached_by_links(part, properties)
            value = _stands_for(kind, nxt, found, bare, owners) if kind else None
            skip = one and value is not None
            if kind == "that" and bare in WORDS.plural_demonstrative:   # "those skills"
                value = _every_one(kind, nxt, found, language_of(part)) or value
            if chooses_among(bare, nxt, out):   # "who among them", "unmein se kaun": a choice
                listed = all_found(found, language_of(part), words, each=False)
                if listed is not None:
                    out.append(listed + (f" {HINDI_CASE[bare]}" if bare in HINDI_CASE else ""))
                    continue
            if bare in WORDS.place_pointer and not _exists(out, nxt):   # "her role there"
                place = _stands_for("it", "", found, "it")
                if place is not None:
                    out.append(WORDS.place_pointer[bare].format(place))
                    continue
            if grouped is not None and bare in PLURAL:
                out.append(word)
                continue
            group = all_found(found, language_of(part), words) if bare in PLURAL else None
            value = group or value
            if value is None:
                out.append(word)
            elif kind == "that":
                out.append(value)
                skip = True            # "that student" -> the value, noun and all
            elif bare in HINDI_CASE:
                out.append(f"{value} {HINDI_CASE[bare]}")
            elif kind in ("possessive", "its"):
                out.append(f"{value}'s")
            else:
                out.append(value)
        text = " ".join(out)
        if not named:   # a part that names a value of its own ("... in DSA?") sets its own scope
            text = _in_scope(text, found, properties or {}, language_of(part))
        return text + "?" if part.rstrip().endswith("?") else text


_INTRODUCED = re.compile(WORDS.introducing, re.I)   # "I am Sneha", "main Sneha hoon"
_RECENT = re.compile(r"^- (\w+): (.+)$", re.M)
_USER = re.compile(r"^\[Turn \d+\] User: (.*)$", re.M)


def _person_in(context: str, person: str) -> tuple[str | None, str | None]:
    """(who "she"/"uska" stands for, who "me"/"mujhe" stands for), from what a model is given:
    the conversation's RECENTLY MENTIONED block; the speaker only when a turn said so ("I am
    Sneha", "main Sneha hoon"), with a name: capitalised words, or a value mentioned."""
    recent = [v.strip() for label, v in _RECENT.findall(context.split("RECENTLY MENTIONED", 1)[-1])
              if label == person] if "RECENTLY MENTIONED" in context else []
    speaker = None
    for line in _USER.findall(context):
        said = _INTRODUCED.match(line.strip())
        name = said.group(1).strip() if said else ""
        known = next((v for v in recent if v.lower() == name.lower()), None)
        if known or (name and len(name.split()) <= 3 and all(w[:1].isupper() for w in name.split())):
            speaker = known or name
    return (recent[0] if recent else None), speaker


def resolve_pronouns(part: str, context: str, mentions: Sequence[Named]) -> str:
    """The part with "she", "her", "uska" replaced by the person the conversation mentioned
    last (left alone when the part names a person itself), and "me", "mujhe", "my" by the person the
    user said they are. What cannot be resolved stays as it is.

    >>> ctx = chr(10).join(["[Turn 1] User: I am Sneha", "RECENTLY MENTIONED:", "- Student: Payal"])
    >>> resolve_pronouns("make her a plan; mujhe partner chahiye", ctx, [])
    'make Payal a plan; Sneha ko partner chahiye'
    """
    person = default_lexicon().person
    third, speaker = _person_in(context, person)
    if any(m.label == person for m in mentions):
        third = None      # the part names its person: its "her" points there, not back
    words = part.split()
    out = []
    for i, word in enumerate(words):
        bare = word.lower().strip(",.!?;")
        nxt = words[i + 1].lower().strip(",.!?;") if i + 1 < len(words) else ""
        tail = word[len(word.rstrip(",.!?;")):]
        if bare in FIRST_PERSON and speaker:
            out.append(speaker + FIRST_PERSON[bare] + tail)
        elif bare in HE_SHE and third and _kind_of(bare, nxt) in ("person", "possessive"):
            case = (" " + HINDI_CASE[bare]) if bare in HINDI_CASE else \
                "'s" if _kind_of(bare, nxt) == "possessive" else ""
            out.append(third + case + tail)
            third = None    # named once: a later "her" points at the name, as a pronoun
        else:
            out.append(word)
    return " ".join(out)


def speaks_of_someone(part: str) -> bool:
    """Does the part say "she", "uska", "me", "mujhe"... (someone the words alone do not name)?

    >>> speaks_of_someone("mujhe DBMS ke liye study partner chahiye"), speaks_of_someone("Who is Payal?")
    (True, False)
    """
    return any(w in HE_SHE or w in FIRST_PERSON for w in question_key(part).split())


def _kind_of(word: str, nxt: str) -> str | None:
    """What a word points back with: that (+ noun), it, its, possessive, person, or None
    ("one", what was found, is the rewrite's: "that one")."""
    if word in DEMONSTRATIVE and nxt and nxt not in QUESTION_WORDS | AUXILIARY or \
            word in WORDS.hindi_demonstrative and _names_a_kind(nxt):   # "ye club"
        return "that"
    if word in ("it", "this", "that"):
        return "it"
    if word == "its":
        return "its"
    if word in POSSESSIVE or (word == "her" and nxt and nxt not in AFTER_OBJECT):
        return "possessive"
    if word in PERSONAL or word in ("her", "hers", "them") or word in HINDI_CASE:
        return "person"
    return None


def _names_a_kind(word: str) -> bool:
    """Is the word a noun for a kind of thing the graph holds ("club", "project")?"""
    lexicon = default_lexicon()
    return any(lexicon.label(label) and re.fullmatch(lexicon.label(label), word)
               for label in lexicon.labels)


def _exists(before: Sequence[str], nxt: str) -> bool:
    """Is "there" saying that something exists ("is there anyone", "there are"), pointing
    nowhere? At the end ("who else is there?") it is a place."""
    return nxt in AUXILIARY or bool(nxt and before) and before[-1].lower() in AUXILIARY


def _in_scope(text: str, found: Sequence[Found], properties: Mapping[str, Sequence[str]],
              language: str) -> str:
    """A property of the link the part before took, at the value it named there: "Who uses
    the Lathe, and how often do they use it?" asks how often at the Lathe.

    >>> person = default_lexicon().person
    >>> found = [("Who studies Chemistry?", [("Course", "Chemistry")], [(person, "Asha"), (person, "Ben")])]
    >>> _in_scope("what grades did each of Asha and Ben get", found,
    ...           {f"{person}-TAKES->Course": ["grade"]}, "en")
    'what grades did each of Asha and Ben get in Chemistry'
    """
    lexicon = default_lexicon()   # (a part that found only a number: the ends it named)
    latest = next(((asked, got) for _, asked, got in reversed(found) if got or asked), None)
    if latest is None:
        return text
    asked, got = latest
    found_labels = {lab for lab, _ in got or [a for a in asked if str(a[1]).lower() in text.lower()]}
    for key, names in properties.items():
        link = LINK_ENTRY.fullmatch(key)
        if link is None or not any(re.search(lexicon.prop(name), text.lower())
                                   for name in names if name in lexicon.properties):
            continue
        for near, far in ((link[1], link[3]), (link[3], link[1])):
            there = [v for label, v in asked if label == far]
            if near in found_labels and len(there) == 1 and str(there[0]).lower() not in text.lower():
                return f"{text} {there[0]} mein" if language == "hi" else f"{text} in {there[0]}"
    return text


def _owners(word: str, properties: Mapping[str, Sequence[str]] | None) -> set[str] | None:
    """The labels that have the property a word names ("status": the ones with a status), or
    None when it names none."""
    lexicon = default_lexicon()
    owners = {label for label, names in (properties or {}).items() if not LINK_ENTRY.fullmatch(label)
              and any(re.fullmatch(lexicon.prop(name), word) for name in names if name in lexicon.properties)}
    return owners or None


def _stands_for(kind: str, noun: str, found: Sequence[Found], word: str = "",
                owners: set[str] | None = None) -> str | None:
    """The value a pointing word stands for, from the latest part that found something: "he",
    "her" a person, "it", "its" never one ("what grade did he get in DBMS, and which semester
    did he take it in?": it is the subject), "them" what was found or a person (after "how
    many students know Python?", "which of them" is not Python).

    >>> person = default_lexicon().person
    >>> found = [("What grade did Asha get in Chemistry?", [(person, "Asha"), ("Course", "Chemistry")], [])]
    >>> _stands_for("it", "in", found, "it"), _stands_for("person", "take", found, "she")
    ('Chemistry', 'Asha')
    >>> _stands_for("person", "", [("How many take Chemistry?", [("Course", "Chemistry")], [])], "them")
    """
    person = default_lexicon().person
    for question, asked_values, got_values in reversed(found):
        asked, got = list(asked_values), list(got_values)
        if word in WORDS.third_person:
            asked, got = [v for v in asked if v[0] == person], [v for v in got if v[0] == person]
        elif word in PLURAL:   # "them" is several things found, or a person ("they" for one)
            asked = [v for v in asked if v[0] == person]
        if owners is not None:   # "its status": something that has one
            asked, got = [v for v in asked if v[0] in owners], [v for v in got if v[0] in owners]
        elif kind in ("it", "its"):
            asked, got = [v for v in asked if v[0] != person], [v for v in got if v[0] != person]
            if len({v for _, v in got}) > 1:
                got = []   # "it" is one thing, never one of several found
        if kind == "that":   # "that student", "that person": a label by its name or its nouns
            labels = {noun.rstrip("s").lower()} | {
                label.lower() for label in default_lexicon().labels
                if re.fullmatch(default_lexicon().label(label), noun)}
            hit = [v for lab, v in got + asked if lab.lower() in labels]
            if hit:
                return hit[0]
            continue
        by_people = kind in ("person", "possessive") and bool(set(tokens(question)) & PEOPLE)
        # "which subject comes after §0, and who studies it?": "it" is the subject found
        by_things = kind in ("it", "its") and _asks_for_nodes(question) or kind == "one"
        ordered = got + asked if by_people or by_things else asked + got
        if ordered:
            return ordered[0][1]
    return None


def _every_one(kind: str, noun: str, found: Sequence[Found], language: str) -> str | None:
    """"those skills", "these concepts": every value of the noun's label the latest part that
    found several found ("each of SQL and Python"), or None."""
    for _, asked, got in reversed(found):
        first = _stands_for(kind, noun, [("", asked, got)])
        if first is None:
            continue
        label = next(lab for lab, v in list(got) + list(asked) if v == first)
        values = [str(v) for v in dict.fromkeys(v for lab, v in got if lab == label)]
        return as_group(values, language) if len(values) > 1 else None
    return None


def _asks_for_nodes(question: str) -> bool:
    """Does a question ask "which <label>" ("which subject comes after DSA?")?"""
    lexicon = default_lexicon()
    nouns = "|".join(f"(?:{regex})" for regex in lexicon.labels.values() if regex) or r"(?!)"
    which = lexicon.cues.get("which", r"(?!)")
    return bool(re.search(rf"(?:{which})\s+(?:{nouns})", question.lower()))


def _as_question(text: str) -> str:
    text = text.strip().rstrip(",")
    return text if text.endswith("?") or not _is_question(tokens(text), opening=True) else text + "?"


def refers_back(part: str) -> bool:
    """Does the part point at something found before ("she", "that student", "uske")?

    >>> refers_back("which clubs is that student in?"), refers_back("Who is Payal?")
    (True, False)
    """
    return any(w in REFERRING or w in HINDI_CASE for w in question_key(part).split()) or \
        bool(EACH_OF_THEM.search(part) or ALL_OF_THEM.search(part))
