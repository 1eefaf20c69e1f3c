"""Reading a question: names replaced by §0, §1 ..., cue typos corrected (notebooks 05 and 09).

>>> read("Who studdies Quantum Physics?", [("quantum physics", Entity("Course", "name", "Quantum Physics"))],
...      Schema()).text
'who studies §0 ?'
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from course.foundation.graphs import THE_GRAPH_ITSELF
from course.foundation.language import WORDS, asks_of_the_speaker
from course.llm.offline.lexicon import Lexicon, default_lexicon
from course.llm.offline.plainly import said_plainly
from course.llm.offline.prompt import Entity, Schema
from course.llm.offline.typos import corrected


@dataclass
class Reading:
    """A question as the rules see it: its text with names replaced, and its entities."""

    text: str                      # lower case, names as §0, §1 ..., cue words' typos corrected
    entities: list[Entity]         # in the order of the question (and resolved pronouns)
    schema: Schema
    relaxed: bool = False          # after a failed attempt: match names loosely
    lexicon: Lexicon = field(default_factory=default_lexicon)
    excluded: list[Entity] = field(default_factory=list)   # "who else": left out of the answer
    negated: str = ""              # "not finished": this property's named values are left out
    negated_values: tuple[str, ...] = ()   # ... those the "not" stands by (others still asked)
    said_besides: tuple[str, ...] = ()     # ... and those its other words name ("but started")
    # "which of them got below A?" after "who got B or above in OS?": the last query's links and
    # the names they were narrowed to, kept when the same link is asked of those it found
    narrowed_by: tuple[tuple[str, Entity], ...] = ()

    def has(self, cue: str) -> bool:
        """Whether the question has the lexicon's cue (a cue the lexicon lacks: never)."""
        regex = self.lexicon.cues.get(cue)
        return bool(regex and re.search(regex, self.text))

    def cue(self, name: str) -> str:
        return self.lexicon.cues.get(name, r"(?!)")

    @property
    def person(self) -> str:
        return self.lexicon.person

    def relations(self) -> list[str]:
        """Relationship types the question's words name, in schema order."""
        found = []
        for t in dict.fromkeys(p.type for p in self.schema.patterns):
            regex = self.lexicon.relation(t)
            if regex and re.search(regex, self.text):
                found.append(t)
        return found

    def targets(self) -> list[str]:
        """Labels the question asks for, in the order their nouns appear. A kind's noun right
        before a person's role ("the club presidents", "project leads") names whose role: the
        people are asked for."""
        found = []
        # a value of a property a person has on a link to a thing (a club member's role)
        roles = "|".join(f"(?:{self.lexicon.value_words[prop]})" for p in self.schema.patterns
                         if p.start == self.person for prop in p.props if self.lexicon.value_words.get(prop))
        for label in self.schema.labels:
            said = (m for m in re.finditer(self.lexicon.label(label), self.text)
                    if not self.describes_a_kind(m, label) and not self.described_by_a_name(m))
            if m := next(said, None):
                by_role = roles and label != self.person and re.match(rf"\s+(?:{roles})", self.text[m.end():])
                found.append((m.start(), self.person if by_role else label))
        return list(dict.fromkeys(label for _, label in sorted(found)))

    def describes_a_kind(self, noun: re.Match[str], label: str) -> str | None:
        """The other kind a noun of `label`, in the singular, stands right before and only
        describes ("the student clubs": clubs; "student projects"), or None.

        >>> from course.llm.offline.prompt import parse_schema
        >>> schema = parse_schema("NODES:\\n- Author {name}: A writer.\\n- Book {name}: A book.")
        >>> read("which author books are oldest", [], schema).targets()
        ['Book']
        """
        if noun[0].endswith("s") or noun[0] in WORDS.question_words:
            return None
        after = self.text[noun.end():]
        return next((other for other in self.schema.labels
                     if other != label and re.match(rf"\s+{self.lexicon.label(other)}", after)), None)

    def described_by_a_name(self, noun: re.Match[str]) -> bool:
        """A kind's noun that a link's word hangs on, said which one by a name's clause ("what's
        needed for the project §0 works on"): a step on the way, not what is asked ("the credits
        of the subjects §0 studies" are theirs: asked).

        >>> from course.llm.offline.prompt import parse_schema
        >>> schema = parse_schema("NODES:\\n- Person {name}: Someone.\\n- Task {name}: Work.")
        >>> reading = read("what is needed for the task Asha works on",
        ...                [("asha", Entity("Person", "name", "Asha"))], schema)
        >>> reading.described_by_a_name(re.search("task", reading.text))
        True
        """
        links = "|".join(f"(?:{r})" for r in self.lexicon.relationships.values() if r) or r"(?!)"
        return bool(re.search(rf"\b(?:{links})\s+(?:for|of|on|in|to|from|with|by|at|behind) the $",
                              self.text[:noun.start()])
                    and re.match(r"\s+(?:that\s+|which\s+)?§\d+\s+(?!'|s\b|ka\b|ki\b|ke\b)[a-z]",
                                 self.text[noun.end():]))

    def asked_properties(self, owner: str, names: list[str] | tuple[str, ...]) -> list[str]:
        """Properties of `owner` the question asks for ("when" asks a named node's `when` ones)."""
        when = bool(owner) and bool(re.search(self.lexicon.cues.get("when", r"(?!)"), self.text))
        return [p for p in names if re.search(self.lexicon.prop(p), self.text)
                or (when and p in self.lexicon.when)]

    def self_loop(self, label: str) -> str | None:
        """The relationship type the words name that links `label` to itself ("friends")."""
        named = self.relations()
        return next((p.type for p in self.schema.patterns
                     if p.start == p.end == label and p.type in named), None)


def _numbers_in_words(text: str, lexicon: Lexicon) -> str:
    """A number written as a word beside a property's word, as digits ("three credits", "year
    two", "teen credits"): the filter reads digits.

    >>> _numbers_in_words("which subjects have three credits ?", default_lexicon())
    'which subjects have 3 credits ?'
    >>> _numbers_in_words("how many credits do i get ?", default_lexicon())
    'how many credits do i get ?'
    >>> _numbers_in_words("when was that one founded ?", default_lexicon())
    'when was that one founded ?'
    """
    if not lexicon.count_words or not lexicon.properties:
        return text
    numbers = "|".join(map(re.escape, sorted(lexicon.count_words, key=len, reverse=True)))
    props = "|".join(f"(?:{regex})" for regex in lexicon.properties.values() if regex)
    text = re.sub(rf"(?<!that )(?<!this )(?<!same )\b(?P<n>{numbers})\b(?=\s+(?:{props}))",   # ("that one
                  lambda m: str(lexicon.count_words[m["n"]]), text)                   # founded": a pointer)
    after = "|".join(map(re.escape, sorted(set(lexicon.count_words) - WORDS.auxiliary, key=len, reverse=True)))
    return re.sub(rf"(?P<p>(?:{props})\s+)(?P<n>{after})\b",    # ("credits do I get": the verb, not 2)
                  lambda m: m["p"] + str(lexicon.count_words[m["n"]]), text)


def cased_values(schema: Schema) -> set[str]:
    """Short listed values kept in capitals while reading (IT is a branch, "it" a pronoun)."""
    listed = [*schema.values.values(), *schema.scales.values()]
    return {v for vs in listed for v in vs if isinstance(v, str) and len(v) <= 3}


def _value_before_its_property(raw: list[str], i: int, schema: Schema, lexicon: Lexicon) -> str | None:
    """A short listed value written in small letters, between an article or a preposition and
    its property's word ("from the it branch": IT), as it is stored; else None ("is it",
    "which branch is it": a pronoun).

    >>> schema = Schema(values={"Person.team": ["HR", "IT"]})
    >>> raw = "list the people from the it team".split()
    >>> _value_before_its_property(raw, 5, schema, default_lexicon())
    'IT'
    >>> _value_before_its_property("is it".split(), 1, schema, default_lexicon()) is None
    True
    """
    if not 0 < i < len(raw) - 1 or raw[i - 1].lower() not in {"the", "from", "in", "of"}:
        return None
    for key, values in [*schema.values.items(), *schema.scales.items()]:
        for value in values:
            if isinstance(value, str) and value.lower() == raw[i].lower() \
                    and re.fullmatch(lexicon.prop(key.split(".")[1]), raw[i + 1].lower()):
                return value
    return None


def _joins(tokens: list[str], i: int) -> bool:
    """Does the token at i stand between two words, neither of them a conjunction? Only then can
    a one-letter shorthand be "and" ("sneha n karan"), not in "log n or n?".

    >>> _joins(["sneha", "n", "karan"], 1), _joins(["log", "n", "or", "n", "?"], 1)
    (True, False)
    """
    def a_word(j: int) -> bool:
        return 0 <= j < len(tokens) and bool(re.fullmatch(r"§\d+|[a-z0-9+#.'-]+", tokens[j], re.I)) \
            and WORDS.shorthand.get(tokens[j].lower(), tokens[j].lower()) not in WORDS.conjunctions
    return a_word(i - 1) and a_word(i + 1)


def read(question: str, linked: list[tuple[str, Entity]], schema: Schema,
         lexicon: Lexicon | None = None) -> Reading:
    """Lower-case the question, replace each linked name by §i and correct cue typos."""
    lexicon = lexicon or default_lexicon()
    text = " " + THE_GRAPH_ITSELF.sub("", question.replace("\u2019", "'")) + " "   # ("... in the graph?")
    entities: list[Entity] = []
    for written, entity in linked:
        # the stored name if written in full, else as written, else the words of it the kind's
        # noun does not say ("which club was founded first, coding or robotics?": "club coding")
        kind = lexicon.label(entity.label) or r"(?!)"
        own = " ".join(w for w in written.lower().split()
                       if w in str(entity.value).lower().split() and not re.fullmatch(kind, w))
        for form in dict.fromkeys(f for f in (str(entity.value), written, own) if f):
            words = re.findall(r"[a-z0-9+#]+", form.lower())
            span = re.compile(r"(?<![a-z0-9+#])" + r"[^a-z0-9+#]{1,3}".join(map(re.escape, words))
                              + r"(?![a-z0-9+#])", re.I)
            # "rahuls friends": a person's name and an "s" is their name's possessive, its
            # apostrophe left out (as "arent" is "are not")
            bare_s = form.lower() == f"{str(entity.value).lower()}s"
            owner = "'s" if entity.label == lexicon.person and bare_s else ""
            # every mention: a name said twice ("the members of X joined X first") is one value
            text, n = span.subn(f" §{len(entities)}{owner} ", text) if words else (text, 0)
            if n:
                entities.append(entity)
                break
    # "who besides §0 studies §1": who studies §1, §0 left out (before typos are corrected:
    # "apart" is no "part")
    set_apart = [entities[int(n)] for m in _SET_APART.finditer(text) for n in re.findall(r"§(\d+)", m[0])]
    text = re.sub(r"^[\s,;:-]+", " ", _SET_APART.sub(" ", text))
    cased = cased_values(schema)
    single = {v.lower() for vs in [*schema.values.values(), *schema.scales.values()] for v in vs
              if isinstance(v, str) and v.isalpha() and len(v) > 3}
    tokens: list[str] = []
    raw = re.findall(r"§\d+|[a-z0-9+#.'-]+|[^\sa-z0-9]", text, re.I)
    for i, token in enumerate(raw):
        bare = token.strip(".'-") or token
        if token.startswith("§") or (bare in cased and (len(bare) > 1 or tokens)):
            tokens.append(token if token.startswith("§") else bare)
        elif value := _value_before_its_property(raw, i, schema, lexicon):
            tokens.append(value)
        else:   # "ppl", "frnds": the word a learner's shorthand stands for
            word = WORDS.shorthand.get(bare.lower(), bare.lower())
            if word in WORDS.conjunctions and not _joins(raw, i):
                word = bare.lower()   # "log n or n?": an "n" that joins nothing is no "and"
            word = word[:-1] if word.endswith("s") and word[:-1] in single else word   # "beginners"
            tokens.append(corrected(word, lexicon))
    text = re.sub(r" ?'s\b", "'s", " ".join(tokens))
    text = _speaker_named(text, entities, lexicon)
    text = re.sub(r"\b(where|who|how|when)'s\b", r"\1 is", text)   # "where's §0 at?": not a possessive
    text = _owned_after_of(text, lexicon)
    text = re.sub(r"([<>]) =", r"\1=", text)
    text = _numbers_in_words(text, lexicon)
    text = re.sub(r"\bat least (?:one|1) ", "a ", text)   # one or more: any ("in at least one skill")
    # "before the year 2024": a date, no year of study (a calendar year has four digits)
    text = re.sub(r"\b(?:the )?year (?=(?:1[89]|2\d)\d\d\b)", "", text)
    # "is anyone in the fourth year?", "does anybody know §0?": who is, who knows (the answer
    # names them; none found says so), unless the question asks "who?" itself
    if not re.search(r"\bwho\b", text):
        text = re.sub(r"^(is|are|was|were|has|have) (?:anyone|anybody|someone|somebody) ", r"who \1 ", text)
        text = re.sub(r"^(?:does|do|did) (?:anyone|anybody|someone|somebody) ", "who ", text)
    text = _whether_one_of_theirs(text, lexicon)
    text = said_plainly(text, lexicon)
    # "how many are in the club?": people are in places (the lexicon's person label)
    if lexicon.person:
        text = re.sub(r"^how many (are|were) (?:there )?(in|on)\b", rf"how many {lexicon.person.lower()}s \1 \2", text)
    order = list(dict.fromkeys(int(i) for i in re.findall(r"§(\d+)", text)))
    remap = {old: new for new, old in enumerate(order)}
    text = re.sub(r"§(\d+)", lambda m: f"§{remap[int(m[1])]}", text)
    return Reading(text.strip(), [entities[i] for i in order], schema, lexicon=lexicon, excluded=set_apart)


def _whether_one_of_theirs(text: str, lexicon: Lexicon) -> str:
    """"does §0 have a friend who studies §1?": which of §0's friends do (the answer names them;
    none found says so), as "does anyone ..." asks who does: the friends are a step of it.

    >>> from course.llm.offline.lexicon import default_lexicon
    >>> _whether_one_of_theirs("does §0 have any friends that study §1 ?", default_lexicon())
    "which of §0's friends study §1 ?"
    >>> _whether_one_of_theirs("kya §0 ka koi dost §1 jaanta hai ?", default_lexicon())
    '§0 ke kaunse dost §1 jaanta hai ?'
    """
    links = "|".join(f"(?:{r})" for r in lexicon.relationships.values() if r)
    def among_theirs(m: re.Match[str]) -> str:     # ("a friend": one of the friends)
        return f"which of {m[1]}'s {m[2] if m[2].endswith('s') else m[2] + 's'} "
    if not links:
        return text
    text = re.sub(rf"^kya (§\d+) (?:ka|ki|ke) koi ((?:{links})\w*) ", r"\1 ke kaunse \2 ", text)   # Hindi
    return re.sub(rf"^(?:does|do|did) (§\d+) (?:have|has) (?:a|an|any|some) ((?:{links})\w*) "
                  r"(?:who|that|which) ", among_theirs, text)


def _owned_after_of(text: str, lexicon: Lexicon) -> str:
    """"which of §0 friends ...": a name, then a kind's noun or a link's, after "which of" is a
    possessive with no "'s" ("which of §0's friends"), not a choice among the names ("the
    concept of §0 taught in": a verb, no possessive).

    >>> from course.llm.offline.lexicon import default_lexicon
    >>> _owned_after_of("which of §0 friends study §1 ?", default_lexicon())
    "which of §0's friends study §1 ?"
    >>> _owned_after_of("which of §0 and §1 study §2 ?", default_lexicon())
    'which of §0 and §1 study §2 ?'
    >>> _owned_after_of("who among the §0 members studies §1 ?", default_lexicon())
    "who among §0's members studies §1 ?"
    """
    nouns = "|".join(f"(?:{r})" for r in [*lexicon.relationships.values(), *lexicon.labels.values()] if r)
    return re.sub(rf"\b((?:which|who|what|how many) of|among) (?:the )?(§\d+) (?=(?:{nouns})\b)",
                  r"\1 \2's ", text) if nouns else text


# "besides §0", "except §0 and §1", "§0 ke alawa": names the answer leaves out
_NAMES = r"(?:the\s+)?§\d+(?:(?:\s*,\s*|\s*,?\s+(?:and|aur|or|ya)\s+)(?:the\s+)?§\d+)*"    # "§0", "§0 and §1", "§0, §1 aur §2"
_SET_APART = re.compile(rf"(?i)\b(?:{'|'.join(WORDS.besides)})\s+{_NAMES}\b"
                        rf"|{_NAMES}\s+(?:ke alawa|ke siwa|ke siwaay|ko chhodkar)\b")


def _listed(joiners: str) -> str:
    """More names after a first one, each after a comma or a joining word ("§0, §1 and §2"; a
    comma is its own word once the question is read): the tail of a list of names."""
    return rf"(?:(?: ?,(?: (?:{joiners}))?| (?:{joiners})) §\d+)+"


_OWNING = {w: ending for w, ending in WORDS.first_person.items() if ending.strip() in ("'s", "ka", "ki", "ke")}


def _speaker_named(text: str, entities: list[Entity], lexicon: Lexicon) -> str:
    """"i'm §0 . which of my friends ..." -> "which of §0's friends ...": a person who says who
    they are in the question owns its "my", "mera" (the clause that said so is then left out,
    so the name is read once). Elsewhere "my" stays, for `speaks_of_the_speaker`.

    >>> person = Entity(default_lexicon().person, "name", "Sneha")
    >>> _speaker_named("i'm §0 . what are my subjects ?", [person], default_lexicon())
    "what are §0's subjects ?"
    """
    owning = "|".join(_OWNING)
    for said in re.finditer(rf"(?:^|[.!?,;-] )(?:hi |hello |namaste )?(?:i'm|i am|my name is|mera naam"
                            rf"(?: hai)?|main|mai) §(\d+)(?: (?:hoon|hun|hu|hai|here))?(?: [.!?,;-]|$)", text):
        k = int(said[1])
        if entities[k].label != lexicon.person or not re.search(rf"\b(?:{owning})\b", text):
            continue
        rest = (text[:said.start()] + " " + text[said.end():]).strip(" .,;-")
        return re.sub(rf"\b({owning})\b", lambda m: f"§{k}{_OWNING[m[1]]}", rest)
    return text


def speaks_of_the_speaker(reading: Reading) -> str | None:
    """The word by which the question speaks of the one asking ("my friends", "mera club"),
    when they have not said who they are; None otherwise. Rows for "my subjects" would be
    everyone's.

    >>> speaks_of_the_speaker(read("what is my grade ?", [], Schema()))
    'my'
    >>> speaks_of_the_speaker(read("why does my query get slow ?", [], Schema())) is None
    True
    """
    owned = [f"(?:{reading.lexicon.label(label)})" for label in reading.schema.labels]
    owned += [f"(?:{r})" for r in (reading.lexicon.relation(p.type) for p in reading.schema.patterns) if r]
    owned += [f"(?:{r})" for r in reading.lexicon.properties.values() if r]
    if not owned:
        return None
    m = re.search(rf"\b({'|'.join(_OWNING)}) (?:{'|'.join(owned)})", reading.text)
    return m[1] if m else "I" if asks_of_the_speaker(reading.text) else None   # "which clubs am I in?"


def each_of(reading: Reading) -> Reading:
    """"What skills do §0 and §1 each have?" (or, of people, "What skills do §0 and §1 have?"):
    every name on its own, as one group whose rows say whose they are (not the skills both
    have). Other readings are returned as they are."""
    people = reading.entities
    if len(people) < 2 or len({e.label for e in people}) != 1 \
            or any(isinstance(e.value, tuple) for e in people):
        return reading
    # people named together with no word of sharing ("What skills do §0 and §1 have?"): each
    # one's, as with "each"; "both", "in common", "share" ask what they have together
    # ("who among §0 and §1", "§0 aur §1 mein se kaun": a choice, some of them are the answer)
    sharing = reading.has("in_common") or reading.has("pairing") or reading.has("among") \
        or bool(re.search(r"§\d+ (?:mein|me) se\b|\ball (?:of )?§0\b", reading.text))   # "all of §0, §1": at once
    # and of other things, once the query for what they share found nothing ("the notes on
    # §0 and §1": no note explains both, so "nothing" would answer another question)
    if not (reading.has("each") or (people[0].label == reading.person or reading.relaxed) and not sharing):
        return reading
    # "§0 and §1", "§0, §1 and §2" (a comma is its own word once the question is read)
    listed = re.search(rf"§0{_listed('and|aur|&')}", reading.text)
    if listed is None or len(re.findall(r"§\d+", listed[0])) != len(people):
        return reading
    first = people[0]
    group = replace(first, value=tuple(str(e.value) for e in people))
    text = reading.text[:listed.start()] + "§0" + reading.text[listed.end():]
    return replace(reading, text=text, entities=[group])


# "§1 and §2", "§1, §2 or §3": names listed together
_LISTED = re.compile(rf"§(\d+){_listed('and|aur|or|ya|&')}")


def listed_together(reading: Reading) -> Reading:
    """"Does §0 know §1 and §2?": names of one label listed together ("§1 and §2", "§1 or §2")
    as one group, for a question about each of them (or, with "or", any). Other readings are
    returned as they are.

    >>> named = [Entity("Person", "name", "Asha"), Entity("Tool", "name", "Saw"), Entity("Tool", "name", "Vice")]
    >>> grouped = listed_together(Reading("does §0 use §1 and §2", named, None))  # type: ignore[arg-type]
    >>> grouped.text, [e.value for e in grouped.entities]
    ('does §0 use §1', ['Asha', ('Saw', 'Vice')])
    """
    people, text = list(reading.entities), reading.text
    for listed in reversed(list(_LISTED.finditer(text))):
        numbers = [int(n) for n in re.findall(r"§(\d+)", listed[0])]
        if numbers != list(range(numbers[0], numbers[-1] + 1)) or numbers[-1] >= len(people) \
                or len({people[n].label for n in numbers}) != 1:
            continue
        group = replace(people[numbers[0]], value=tuple(str(people[n].value) for n in numbers))
        people[numbers[0]:numbers[-1] + 1] = [group]
        text = text[:listed.start()] + f"§{numbers[0]}" + re.sub(
            r"§(\d+)", lambda m: f"§{int(m[1]) - len(numbers) + 1}" if int(m[1]) > numbers[-1] else m[0],
            text[listed.end():])
    return replace(reading, text=text, entities=people)
