"""The language of a question: its words, English or Hinglish (Hindi in the Latin alphabet).

Introduced in notebook 05, where the agent answers in the language of the question; the
offline provider (notebook 05), memory (notebook 06), graph memory's notes (notebook 10) and
the agentic agent's roles (notebook 12) use it too. The words themselves are data, in one
file: data/language/words.yaml (function words, pronouns, question words); the graph's own
words are in data/college/lexicon.yaml.

>>> language_of("Payal ka year kya hai?"), language_of("What year is Payal in?")
('hi', 'en')
>>> "uske" in WORDS.referring, WORDS.hindi_case["uske"]
(True, 'ke')
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from course.foundation.config import PROJECT_ROOT
from course.foundation.errors import DataFileError

WORDS_FILE = PROJECT_ROOT / "data" / "language" / "words.yaml"


@dataclass(frozen=True)
class Words:
    """The words of data/language/words.yaml, each list as a set (see the file's comments)."""

    hinglish: frozenset[str]
    referring: frozenset[str]
    each_of_them: tuple[str, ...]
    all_of_them: tuple[str, ...]
    one_of_them: tuple[str, ...]
    places: dict[str, int]
    setting_apart: frozenset[str]
    pronouns: frozenset[str]
    person_pronouns: frozenset[str]
    quantifiers: frozenset[str]
    continuing: tuple[str, ...]
    question_words: frozenset[str]
    english_question_words: frozenset[str]
    manner_words: frozenset[str]
    requests: frozenset[str]
    auxiliary: frozenset[str]
    counting: frozenset[str]
    noun_asking: frozenset[str]
    count_fillers: frozenset[str]
    spoken_fillers: frozenset[str]
    people: frozenset[str]
    function: frozenset[str]
    conjunctions: tuple[str, ...]
    subordinating: frozenset[str]
    sentence_openers: frozenset[str]
    personal: frozenset[str]
    plural: frozenset[str]
    possessive: frozenset[str]
    demonstrative: frozenset[str]
    plural_demonstrative: frozenset[str]
    hindi_demonstrative: frozenset[str]
    hindi_oblique_demonstrative: frozenset[str]
    hindi_plural_verbs: frozenset[str]
    pronoun_nouns: frozenset[str]
    hindi_case: dict[str, str]
    third_person: frozenset[str]
    place_pointer: dict[str, str]
    after_object: frozenset[str]
    prepositions: frozenset[str]
    first_person: dict[str, str]
    second_person: frozenset[str]
    not_terms: frozenset[str]
    vague_kinds: frozenset[str]
    embedding_stop_words: frozenset[str]
    search_stop_words: frozenset[str]
    excluding: frozenset[str]
    leaving_out: frozenset[str]
    besides: tuple[str, ...]
    some_of: frozenset[str]
    introducing: str
    unsaid_count: str
    shorthand: dict[str, str]
    hindi_in_english: dict[str, str]


def load_words(path: Path | str = WORDS_FILE) -> Words:
    """Read a word list file (a space-separated string is a set; a list keeps its order)."""
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        fields: dict[str, Any] = {}
        for name, kind in Words.__annotations__.items():
            value = raw[name]
            fields[name] = (dict(value) if kind.startswith("dict") else tuple(value)
                            if kind.startswith("tuple") else str(value) if kind == "str"
                            else frozenset(str(value).split()))
        return Words(**fields)
    except (OSError, yaml.YAMLError, KeyError, TypeError) as exc:
        raise DataFileError(f"The word list {path} cannot be read ({exc}): restore "
                            "data/language/words.yaml from the repository.") from exc


@lru_cache(maxsize=1)
def default_words() -> Words:
    """The course's word list, read once."""
    return load_words()


WORDS = default_words()

def language_of(question: str) -> str:
    """'hi' for Hinglish (two or more Hindi function words, or one in a short question), else 'en'."""
    words = [w.strip("?!.,").lower() for w in question.split()]
    hits = sum(w in WORDS.hinglish for w in words)
    return "hi" if hits >= 2 or (hits == 1 and len(words) <= 4) else "en"


def in_english(question: str) -> str:
    """A Hinglish question with its common Hindi words in English (for an encoder that reads
    English); any other question as it is.

    >>> in_english("Deadlock kyun hota hai? Simple mein samjhao na"), in_english("Who is she?")
    ('Deadlock why happens is? Simple in explain', 'Who is she?')
    """
    if language_of(question) != "hi":
        return question
    glossed = re.sub(r"[a-z]+", lambda m: WORDS.hindi_in_english.get(m[0].lower(), m[0]), question, flags=re.I)
    return re.sub(r"\s+(?=[?!.,]|$)", "", " ".join(glossed.split()))


def without_not_prefix(word: str) -> str | None:
    """The word a "not" prefix negates ("indirect": "direct", "unfinished": "finished"), or
    None: a word with no such prefix, or too little after it to be a word ("index", "under").

    >>> without_not_prefix("indirect"), without_not_prefix("non-linear"), without_not_prefix("index")
    ('direct', 'linear', None)
    """
    negated = re.fullmatch(r"(?:in|un|im|non|dis)-?([a-z]{4,})", word.lower())
    return negated[1] if negated else None


def in_full(text: str) -> str:
    """The text with a learner's chat shorthand written out ("wt does tcp add").

    >>> in_full("wt does tcp add, n wen")
    'what does tcp add, and when'
    """
    return re.sub(r"[\w']+", lambda word: WORDS.shorthand.get(word[0], word[0]), text)


def question_key(question: str) -> str:
    """The question as a key: lower case, punctuation and extra spaces gone; comparisons
    (`>`, `<`, `=`, `!`) and signs (`A+`, `A-`) kept, since they change the question.

    >>> question_key("  Who is  PAYAL?? "), question_key("year > 2?") == question_key("year < 2?")
    ('who is payal', False)
    """
    return " ".join(re.findall(r"[\w+#-]+|[<>=!]+", question.lower()))


def depends_on_context(question: str, mentions: Sequence[Any] = ()) -> bool:
    """True when the question cannot be understood alone: a pronoun, "and ...?", or too short
    (`mentions`: the values linked in it; a short question that names one stands alone).

    >>> depends_on_context("uska year kya hai?"), depends_on_context("Who is Payal in DBMS?")
    (True, False)
    """
    text = question_key(question)
    words = text.split()
    if any(word in WORDS.referring and not _names_what_follows(words, i) for i, word in enumerate(words)):
        return True
    if follows_on(question):
        return True
    opening = next((p for p in (*WORDS.all_of_them, *WORDS.each_of_them) if (text + " ").startswith(p + " ")), "")
    if opening and not any(text[len(opening):].strip().startswith(str(m.text).lower()) for m in mentions):
        return True    # "dono mein se kaun ...", "both of them ...": not "both Aarav and Payal ..."
    return len(words) <= 3 and not mentions   # "year?", "kitne credits?"


def _names_what_follows(words: Sequence[str], i: int) -> bool:
    """Is the "it" at `i` the one that names what follows ("what is it called when ...", "it
    is known as", "usko kya kehte hain"), or an "its" after a thing the question brings in itself ("when a system
    spends most of its time"), which point at nothing said before?"""
    after = [w for w in words[i + 1:i + 3] if w not in ("is", "s", "was", "kya")][:1]   # ("usko kya kehte")
    brought_in = any(w in ("a", "an") for w in words[:max(i - 1, 0)])
    naming = bool(after) and after[0] in ("called", "known", "named", "termed", "kehte", "kahte", "bolte")
    return words[i] in ("it", "usko", "isko") and naming or words[i] == "its" and brought_in


def follows_on(question: str) -> bool:
    """Does the question open as a follow-up ("what about Payal?", "aur Sneha?"), count with
    nothing said of what ("and how many does DSA?"), or end on a bare possessive ("Payal's?")?

    >>> follows_on("what about Payal?"), follows_on("what is Payal's?"), follows_on("Who is Payal?")
    (True, True, False)
    """
    return (question_key(question) + " ").startswith(WORDS.continuing) \
        or re.search(WORDS.unsaid_count, question, re.I) is not None \
        or bool(re.search(r"\w's\s*[?.!]*\s*$", question.replace("\u2019", "'")))


def points_elsewhere(question: str) -> bool:
    """Does the question say someone or something it does not name ("she", "that student",
    "uske", "mujhe")? Then it needs what came before to stand on its own.

    >>> points_elsewhere("mujhe DBMS ke liye partner chahiye"), points_elsewhere("Who is Payal?")
    (True, False)
    """
    key = f" {question_key(question)} "
    return points_back(question) or any(word in WORDS.first_person for word in key.split())


def each_alone(question: str) -> re.Match[str] | None:
    """"each" standing for every value found before: with no noun after it ("how good is he at
    each?", "since when has each been a member?"), as the subject of a verb after an auxiliary
    ("when did each join?", "did each one join the club?"), not "each club".

    >>> bool(each_alone("since when has each been a member?")), bool(each_alone("who leads each club?"))
    (True, False)
    >>> bool(each_alone("when did each join?")), bool(each_alone("did each student join the club?"))
    (True, False)
    >>> [bool(each_alone(q)) for q in ("when each joined", "when each club left", "har ek ka?", "har ek club")]
    [True, False, True, False]
    """
    after = "|".join(sorted(WORDS.auxiliary | {"been"}))
    alone = re.search(rf"(?<!they )(?<!them )(?<!we )\beach\b(?=\s*(?:[?.!,;]|$|(?:{after})\b))",
                      question, re.I)   # ("what do they each have?": "they" stands for them)
    # after an auxiliary: "each" and one word that ends the clause or meets an article or a
    # preposition is a subject and its verb; "each student join" is a noun
    auxiliary = "|".join(rf"(?<=\b{w} )" for w in sorted(WORDS.auxiliary))
    # after "when", "how": "each" and a verb in the past ("when each joined"), not "each club"
    asked = re.search(r"(?:(?<=\bwhen )|(?<=\bhow ))each\b(?=\s+\w+ed\b)", question, re.I)
    after = "|".join(sorted({*WORDS.hindi_case.values(), "par", "pe"} | WORDS.question_words))  # "har ek ka"
    hindi = re.search(rf"\bhar\s+ek\b(?=\s*(?:[?.!,;]|$|(?:{after})\b))", question, re.I)
    return alone or asked or hindi or re.search(rf"(?:{auxiliary})each(?: one)?\b(?=\s+\w+(?:\s*(?:[?.!,;]|$)|\s+"
                              r"(?:the|a|an|in|on|at|to|for|with|from|into)\b))", question, re.I)


# "how many topics is that?", "who are those?": a demonstrative that ends its clause points back
THAT_ALONE = re.compile(r"\b(?:is|are|was|were) (that|this|those|these)(?= ?(?:[?.!,]|$|in total|altogether))")
_SPEAKER_ASKED = re.compile(r"^\s*(?:(?:which|what)\b[^?.!]*?\b(?:am|do|did) i|am i)\b"
                            r"(?! (?:need|have to|want|should|must|learn|supposed|meant|required|allowed|to)\b)", re.I)


def asks_of_the_speaker(question: str) -> bool:
    """Does the question ask what holds of the one asking, with "I" its subject ("which clubs
    am I in?", "what grade did I get?"), not what they should do ("what do I need before X?")?

    >>> asks_of_the_speaker("which clubs am I in?"), asks_of_the_speaker("what do I need before OS?")
    (True, False)
    >>> asks_of_the_speaker("which subject am I supposed to do first?")
    False
    """
    return _SPEAKER_ASKED.search(question) is not None


def points_at_a_person(question: str) -> bool:
    """Does the question point back only with a person's pronoun ("on which project is she
    working?", "uska year")?

    >>> points_at_a_person("and which project is she on?"), points_at_a_person("when was it founded?")
    (True, False)
    """
    words = set(question_key(question).split())
    pointers = words & (WORDS.referring | set(WORDS.hindi_case))
    return bool(pointers) and pointers <= WORDS.third_person | {w for w in WORDS.hindi_case if w.startswith("us")}


def points_back(question: str) -> bool:
    """Does the question point at something said before ("it", "that", "uske", "each of
    them")? Not "I" or "mujhe": the learner is always there to point at.

    >>> points_back("and why is that slow?"), points_back("what should I learn next?")
    (True, False)
    >>> points_back("list the projects that are completed"), points_back("is that done?")
    (False, True)
    >>> points_back("what is it called when pages move all the time?")
    False
    """
    pointing = WORDS.referring | set(WORDS.hindi_case)
    key = f" {question_key(question)} "
    words = key.split()
    # ("the projects that are completed": a noun's "that", then its verb, points nowhere)
    relative = {i for i, (before, word, after) in enumerate(zip(["", *words], words, [*words[1:], ""]))
                if word == "that" and after in WORDS.auxiliary and before
                and before not in WORDS.auxiliary | WORDS.question_words}
    return any(word in pointing and not _names_what_follows(words, i) for i, word in enumerate(words)
               if i not in relative) or \
        each_alone(question) is not None or \
        any(f" {words} " in key for words in WORDS.each_of_them + WORDS.all_of_them) or \
        points_by_place(question) or \
        " which one " in key     # "and which one is the oldest?": one of those found


def points_by_place(question: str) -> bool:
    """Does a short question point at one of the values found before by its place ("explain
    the first one", "doosra wala kya hai?")? Its words then name no topic of their own. In a
    longer one the place is the learner's own ("... passes the checks up to the third one").

    >>> points_by_place("explain the first one"), points_by_place("which one is first?")
    (True, False)
    """
    key = f" {question_key(question)} "
    for words in WORDS.one_of_them:
        if f" {words} " in key:
            return len(key.replace(f" {words} ", " ").split()) <= _FEW_WORDS
    return False


_FEW_WORDS = 5   # besides the place: "tell me more about the last one"


# a clause of purpose or occasion, then a comma ("For the talk tomorrow, which ..."); not "In a
# network of friends, how ..." nor "If the server dies, how ...", which the ask needs, nor
# "Between A and B, who ...", which it chooses among
# "who else is in 2nd year like me?", "besides me": what "else" sets apart is the one asking
SPEAKER_APART = re.compile(r"\b(?:like|besides|except|apart from|other than|than|alawa|siva)\s+"
                           r"(?:me|myself|mere|mujhe)\b")


def sets_apart(question: str) -> bool:
    """Does the question set someone apart ("who else is in it?", "baaki kaun hai?")? What it
    sets apart must then be left out of the answer.

    >>> sets_apart("and who else is in it?"), sets_apart("which other clubs are there?")
    (True, False)
    >>> sets_apart("who else is in 2nd year like me?")     # the one asking: no one the graph holds
    False
    """
    return any(word in WORDS.setting_apart for word in question_key(question).split()) \
        and not SPEAKER_APART.search(question.lower())


def counts_what_came_before(question: str) -> bool:
    """Does the question ask "how many" and name nothing to count ("how many is that?",
    "kitne hain?")? In a later part, it counts what the part before found.

    >>> counts_what_came_before("and how many are there altogether?"), counts_what_came_before("kitne hain")
    (True, True)
    >>> counts_what_came_before("how many students are there?"), counts_what_came_before("is that all?")
    (False, False)
    """
    words = question_key(question).split()
    nothing_named = WORDS.question_words | WORDS.auxiliary | WORDS.counting | WORDS.function | \
        WORDS.referring | WORDS.count_fillers | {word.strip() for word in WORDS.continuing}
    return any(w in WORDS.counting for w in words) and all(w in nothing_named for w in words)


def asks_who_unnamed(question: str) -> bool:
    """Does the question ask for people by a pronoun alone ("who are they?", "who among them
    has Python?")? A note holds no people: such a question is never answered from the notes.

    >>> asks_who_unnamed("who are they?"), asks_who_unnamed("Who decides which process runs?")
    (True, False)
    """
    words = question_key(question).split()
    asked = [w for w in words if w in WORDS.question_words]
    pronouns = WORDS.third_person | WORDS.plural
    return bool(asked) and asked[0] in WORDS.people and any(w in pronouns for w in words)


def introduces_speaker(text: str) -> bool:
    """Does the learner say who they are ("I am Sneha", "main Sneha hoon")? Then "I", "me" and
    "mujhe" in later questions name them.

    >>> introduces_speaker("I am Sneha"), introduces_speaker("Who should I learn ML from?")
    (True, False)
    """
    return re.match(WORDS.introducing, text.strip(), re.I) is not None


def stands_alone(question: str, mentions: Sequence[Any] = (), asked: Sequence[str] = ()) -> bool:
    """Can the question be understood with no conversation at all? Then its prompt leaves the
    conversation out, and its answer is the same for every session that asks it.

    Not when it depends on the context (`depends_on_context`), points at someone or something
    it does not name (`points_elsewhere`), leaves someone out ("who else ...?"), or asks nothing
    of its own ("Payal ka?", "DBMS?": names and small words, a follow-up). "I", "me", "mujhe"
    are the learner, whoever asks, unless an earlier question (`asked`) said who they are.

    >>> stands_alone("Who should I learn ML from?"), stands_alone("Who else knows ML?")
    (True, False)
    >>> stands_alone("Who should I learn ML from?", asked=["I am Rahul"])
    False
    """
    if depends_on_context(question, mentions):
        return False
    words = question_key(question).split()
    first_person = [word for word in words if word in WORDS.first_person]
    if first_person and any(introduces_speaker(earlier) for earlier in asked):
        return False
    others = " ".join(word for word in words if word not in WORDS.first_person)
    if points_elsewhere(others) or any(word in WORDS.excluding for word in words):
        return False
    return any(word in WORDS.question_words or word in WORDS.requests for word in words) \
        or (bool(words) and words[0] in WORDS.auxiliary)

