"""Where one ask of a question ends and the next begins (the offline query updater's split).

Introduced in notebook 12, with `course.llm.offline.roles.updater`: a clause asks on its own when
a question word opens it (after words that ask nothing: "ok so", "I want to know"), or an
auxiliary verb ("Is Payal ..."); a clause that sets the scene ("if I cut a /24"), a fragment
("in what order?") or a topic before a dash ("attendance tracker - whats its status") is part
of the ask next to it. Rules, not a model: see `course.llm.offline.roles.words`.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from course.foundation.language import WORDS
from course.foundation.scenes import after_opening_clause
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.scale_ranges import OR_A_RANGE
from course.llm.offline.roles.elided import object_as_it
from course.llm.offline.roles.kinds import last_kind
from course.llm.offline.roles.words import (AUXILIARY, DEMONSTRATIVE, ENGLISH_ONLY, FIRST_PERSON,
                                            PERSONAL, POSSESSIVE, QUESTION_WORDS, REQUESTS, SOME,
                                            asks_in_place, graph_nouns, tokens)

# "Tell me", "show me", "list": a request whose list of things ("X's year, the project she
# is on and her friends") is one request per thing, each thing a possessive or "the" phrase
# (asked politely too: "could you give me X's grade and Y's grade")
REQUEST = re.compile(r"^\s*(?:(?:(?:could|can|would|will)\s+you\s+)?(?:(?:please|pls|kindly)\s+)?(?:"
                     + "|".join(sorted(REQUESTS))    # ("please share the list"; "what are X's skills, ...")
                     + r"|share(?=\s+(?:the|a)\s))\s+(?:me\s+|us\s+)?|what(?:\s+(?:are|is)|'s|s)\s+)", re.I)
_OWNER_WORDS = "|".join(sorted(POSSESSIVE | {"her"}))
WHOSE = re.compile(r"^(?:" + _OWNER_WORDS + r")\s+\w", re.I)   # "his clubs"
# "aarav's grades", "payal ke grades", "his level in each"
OWNED = re.compile(r"^\s*(?:[a-z]+(?:'s|\s+(?:ke|ka|ki))|" + _OWNER_WORDS + r")\s+[a-z]+\b"
                   r"(?!\s+(?:is|are|was|were)\b)", re.I)
# "..., and does Aarav have them?": do-support and a name open a yes/no question of their own
# ("... and is Payal's friend" may still be more of the same ask)
DOES_A_NAME = re.compile(r"(?i:do|does|did)\s+[A-Z][a-z]")
# "..., and if so, when did he join?": the ask follows from the one before, and says no more.
# Only where a clause opens, before a comma or the next ask ("what goes wrong if not indexed?",
# "if no one does" keep theirs); `IF_SO.sub(r"\1", ...)` keeps what opened the clause.
IF_SO = re.compile(r"(?i)(^\s*|[?.!,;]\s*|\band\s+)(?:if (?:so|yes|not|no)|agar (?:haan|han|nahi|nahin))"
                   r"(?:\s*,\s*|\s+(?=(?:toh\s+)?(?:who|what|which|when|where|how|kaun|kya|kab|uska|uski)\b))")
LISTED = re.compile(r"^the\s+\w|" + WHOSE.pattern[1:], re.I)                             # or "the ..."
# "... under graphs? like what does it include": the ask before, said again in other words
RESTATED = re.compile(r"(?i)^\s*\(?\s*(?:like|i\s+mean|matlab|that\s+is|in\s+other\s+words)\b[,:]?\s+")
# "and", "also", "n" opening a clause of its own: "... ? n wt did karan get"
AND_FIRST = re.compile(r"^(?:also|and|aur|plus|n|nd)\s+", re.I)
# "find her something on ...", "get him the note on it", "find an explanation for her": the one
# it is for, who owns nothing asked
_GIVE, _A_THING = r"(?:find|get|give|send|show|bring|fetch)", r"(?:the|a|an|some|something|anything|any)\b"
FOR_SOMEONE = re.compile(rf"(?i)\b({_GIVE})\s+(?:her|him|them)\s+(?={_A_THING})")
FOR_SOMEONE_AFTER = re.compile(rf"(?i)(\b{_GIVE}\s+(?:me\s+)?{_A_THING}[^?.!]*?)\s+for\s+(?:her|him|them)\b")
# "and while you're at it, ...": a stock phrase, no "it" to stand for anything
WHILE_AT_IT = re.compile(r"(?i)\bwhile\s+(?:you'?re|you\s+are)\s+at\s+it\b,?\s*")
# "first what is X, then what comes before it": "first" orders the asks, and asks nothing
FIRST_OF_A_LIST = re.compile(r"^\s*(?:first(?:ly)?|to (?:start|begin) with),?\s+"
                             r"(?=(?:what|which|who|whom|whose|when|where|why|how|tell|explain|show|list|give"
                             r"|describe|can|could)\b)", re.I)


def asks_within(text: str) -> bool:
    """Does a question word with its verb ask inside the text, after a scene ("the tree where
    small ones go left, why is search slow sometimes")? Not a relative "where" or "which"
    before a noun ("the tree where smaller stuff goes left").

    >>> asks_within("the tree where small ones go left why is search slow")
    True
    >>> asks_within("the tree where it goes")
    False
    """
    return re.search(r"\b(?:why|how|what|which|who|when|where)\s+(?:is|are|was|were|does|do|did|can|could|would|"
                     r"should|will)\b", text, re.I) is not None


def is_question(words: Sequence[str], *, opening: bool) -> bool:
    """Words that ask on their own: a question word first, a Hinglish one anywhere, an
    auxiliary verb first ("Is Payal ..."), or, after a conjunction, an auxiliary verb followed
    by a pronoun or "anyone" ("... and does she ...", "... and can you list ...", not "... and
    is in the club")."""
    if not words:
        return False
    words = [WORDS.shorthand.get(w, w).split()[0] for w in words]    # "whats", "wat"
    if opening and len(words) > 2 and words[0] in REQUESTS and words[1] in ("me", "us") \
            and words[2] in QUESTION_WORDS:
        words = words[2:]     # "tell me what ...": the question word asks
    if opening:   # "ok so who ...", "bro which club ...", "I want to know (in) which ..."
        words = words[default_lexicon().opening(list(words)):]
    while len(words) > 1 and words[0] in WORDS.spoken_fillers:   # "... and like whats her role"
        words = words[1:]
    # "... and after learning arrays which topics come next?": a time phrase, then the ask
    timed = next((i for i, w in enumerate(words[2:6], 2) if w in ("which", "what", "who")), 0) \
        if len(words) > 3 and words[0] in ("before", "after") and words[1].endswith("ing") else 0
    words = words[timed:]
    if len(words) > 1 and words[0] in WORDS.after_object | WORDS.subordinating | WORDS.prepositions \
            and words[1] in QUESTION_WORDS:
        words = words[1:]     # "in which semester ...", "since when ...": the question word asks
    if opening and words[0] in AUXILIARY:
        return True
    if words[0] in QUESTION_WORDS or any(w in QUESTION_WORDS for w in words[1:] if w.isalpha()
                                         and w not in ENGLISH_ONLY):
        return True
    # "Sneha is in which year": the question word asks where it stands, a noun after it (in
    # "the order in which a student ...", a subject after it: a relative clause, no ask)
    subjects = {"a", "an", "the"} | PERSONAL | DEMONSTRATIVE | WORDS.possessive
    if any(a in WORDS.prepositions | {"before", "after"} and b in ("which", "what") and c not in subjects
           for a, b, c in zip(words, words[1:], [*words[2:], ""])):
        return True
    if asks_in_place(words, subjects):   # "ravi is which year", "welding has how many credits"
        return True
    last = WORDS.hindi_in_english.get(words[-1], words[-1])
    negated = len(words) > 1 and words[-2] in ("cant", "can't", "cannot", "dont", "don't", "not", "never")
    if len(words) > 1 and not negated and (opening and last in ("explain", "describe") or last in ("tell", "show")
                           and any(w in WORDS.hindi_in_english for w in words[:-1])):
        return True     # "arrays basics explain", "unki branch bhi bata": the request, last as
        #                 in Hindi word order (not "i say it but cant explain")
    return not opening and len(words) > 1 and words[0] in AUXILIARY and (
        words[1] in PERSONAL or words[1] in DEMONSTRATIVE or words[1] in WORDS.quantifiers
        or words[1] in WORDS.second_person    # "... and could you explain ..."
        or words[1] == "there"    # "... and is there a note on each?"
        or words[1] in ("any", "some") and len(words) > 2   # "... and does any student have ...?"
        or words[2:3] == ["of"] and words[1] in SOME)   # "... and are any of them ..."


def spelled_out(question: str) -> str:
    """"Who would suit a Docker role: which students have Docker, and at what level?": a
    question, then after a colon the question that spells it out in the graph's terms, which
    is the one to answer (when it stands alone: no pointer back at the first).

    >>> spelled_out("Who could mentor me: which students know Rust?")
    'which students know Rust?'
    >>> spelled_out("Quick one: who knows Rust?"), spelled_out("Who leads it: what year is she in?")
    ('Quick one: who knows Rust?', 'Who leads it: what year is she in?')
    """
    first, colon, then = question.partition(": ")
    asks = colon and is_question(tokens(first), opening=True) and is_question(tokens(then), opening=True)
    if not asks or set(tokens(then)) & WORDS.referring:
        return question
    return then.strip()


def fragment(text: str) -> bool:
    """A preposition, a question word and a word or two, no verb ("in what order?", "for how
    long?"): more of the ask before it, not an ask of its own.

    >>> fragment("in what order?"), fragment("in which year did she join?"), fragment("in what kind of graph?")
    (True, False, True)
    >>> fragment("and in which subject?"), fragment("and in which skill(s) for each of them")
    (True, True)
    """
    kinds = "|".join(sorted(WORDS.vague_kinds))    # ("in which skill(s) for each of them": each one's)
    text = re.sub(r"\(s\)|,?\s+for\s+(?:each|every\s+one)(?:\s+of\s+(?:them|those|these))?\s*(?=[?.!]|$)",
                  "", text)
    words = tokens(re.sub(rf"\b(?:{kinds})\s+of\s+", "", AND_FIRST.sub("", text.strip().lower())))
    return 3 <= len(words) <= 4 and words[0] in WORDS.prepositions and words[1] in QUESTION_WORDS \
        and not set(words) & AUXILIARY


# "the queue wala one", "the one with the queue", "that go-deep one": one thing, described
_THE_ONE = re.compile(r"^(?:the|that|this)\s+"
                      r"(?:(?:[\w'/+-]+\s+){0,6}ones?|ones?\s+(?:with|that|which|where|using)\b.*)$")


def describes_the_one(text: str) -> bool:
    """A noun phrase that describes one thing and asks nothing ("which traversal do I use? the
    queue wala one"): the thing the ask before it asks for, not an ask of its own.

    >>> describes_the_one("the queue wala one"), describes_the_one("the one with the queue")
    (True, True)
    >>> describes_the_one("which one is it?"), describes_the_one("the one that is done is which?")
    (False, False)
    """
    words = tokens(text.lower())
    return bool(_THE_ONE.match(" ".join(words))) and not set(words) & (QUESTION_WORDS | AUXILIARY)


def of_an_unsaid_kind(piece: str, before: str) -> bool:
    """Does the piece ask "in what" or "in which one" of a kind the ask before it never named
    ("who got an A+ in something? and in what")? Then it is no more of that ask, which answers
    who alone: an ask of its own, said to be unanswered if nothing can answer it.

    >>> of_an_unsaid_kind("and in what", "who got an A in something?")
    True
    >>> of_an_unsaid_kind("in which one?", "who got an A in a course?")
    False
    """
    words = tokens(AND_FIRST.sub("", piece.strip().lower()))
    return 2 <= len(words) <= 3 and words[0] in WORDS.prepositions and words[1] in ("what", "which") \
        and words[2:] in ([], ["one"]) and last_kind(before) is None


def plain_request(question: str) -> str:
    """The question in plain words: without the words of a request that ask nothing of the graph
    (the one it is for, "get her the note on it"; "while you're at it"), "No." written out as
    "number" (no sentence ends there), and "it" for an object left out ("..., how to fix").

    >>> plain_request("And while you're at it, could you find her something on indexes?")
    'And could you find something on indexes?'
    >>> plain_request("Could you find an explanation for her?"), plain_request("No. of students in IT?")
    ('Could you find an explanation?', 'number of students in IT?')
    """
    question = object_as_it(re.sub(r"\b[Nn]o\.\s+(?=of\b|[a-z])", "number ", question))   # ("how to fix": it)
    return WHILE_AT_IT.sub("", FOR_SOMEONE_AFTER.sub(r"\1", FOR_SOMEONE.sub(r"\1 ", question)))


def asked_in(text: str) -> str:
    """The question inside a request ("could you tell me what year": "what year"), else `text`.

    >>> asked_in("could you tell me what year"), asked_in("what is his year")
    ('what year', 'what is his year')
    """
    opening = REQUEST.match(text)
    rest = text[opening.end():] if opening else ""
    return rest if rest and tokens(rest)[:1] and tokens(rest)[0] in QUESTION_WORDS else text


def awaits_its_verb(text: str) -> bool:
    """A question word and a noun or two, no verb ("which other students"): the subject of a
    verb still to come ("which other students also have this skill?"), no ask of its own.

    >>> awaits_its_verb("which other students"), awaits_its_verb("which clubs is she in")
    (True, False)
    >>> awaits_its_verb("what's his branch")      # "what's": "what is"
    False
    """
    words = tokens(text)
    return 2 <= len(words) <= 4 and words[0] in QUESTION_WORDS and not set(words) & AUXILIARY \
        and words[1] != "s"


_CLEFT = re.compile(r"([,?]?\s+(?:and\s+)?)((?:(?:in|on|at|for|from|with|of)\s+)?(?:which|what)(?:\s+[\w-]+)?)"
                    r"(?:\s+(?:was|is|were|are)\s+(?:it|that|they))?(?=\s*(?:[?.!,;]|$))", re.I)   # not "that X"


def cleft_fragment(question: str) -> str:
    """"Which students got an A+ in any subject, and in which one was it?": a cleft whose "it"
    is what the ask before it asked is a fragment of that ask ("in which subject"), its "one"
    the last kind that ask named, as in English.

    >>> cleft_fragment("Which students got an A+ in any subject, and in which one was it?")
    'Which students got an A+ in any subject, and in which subject?'
    >>> cleft_fragment("Which club is it?"), cleft_fragment("Asha has a skill, and which skill is it?")
    ('Which club is it?', 'Asha has a skill, and which skill?')
    >>> cleft_fragment("Who got an A in some course? in which one?")
    'Who got an A in some course? in which course?'
    """
    def fragment_of(m: re.Match[str]) -> str:
        said = m[2].lower().split()
        if said[-1] not in ("one", "which", "what"):
            return m[1] + m[2]     # a noun of its own: "... and which skill is it?"
        kind = last_kind(question[:m.start()])
        if kind is None or said[-1] != "one" and len(said) < 2:
            return m[0]    # "... in something? and in what": no kind said; "What is it?": no fragment
        return m[1] + (re.sub(r"\bone\b", kind[1], m[2]) if said[-1] == "one" else f"{m[2]} {kind[1]}")
    return _CLEFT.sub(fragment_of, question)


def sets_the_scene(words: Sequence[str]) -> bool:
    """A clause the question after it rests on ("when I type a site's name", "if I cut a /24",
    "to find the fewest hops"), not a question of its own: a verb or a question word right
    after it asks ("when was", "when did", "since when")."""
    if len(words) > 1 and words[0] == "to":    # "to find ...", not "to which club ..."
        return words[1] not in {"which", "what", "who", "whom", "whose", "where", "when", "how"}
    if words and words[0] in ("before", "after") and any(
            w in ("which", "what") and graph_nouns([n]) for w, n in zip(words, words[1:])):
        return False    # "before welding what topics needed": a phrase put first, then the ask
    return bool(words) and words[0] in WORDS.subordinating and (
        len(words) < 2 or words[1] not in AUXILIARY | QUESTION_WORDS)


def says_only(text: str) -> bool:
    """Sentences that say something of the speaker or of someone named before ("I did a little
    React over the holidays.", "He offered to help me.") and ask nothing: what a learner adds
    after their questions, no part to answer. A sentence with no such subject may be a request
    in few words ("gimme the note on trees", "example pls").

    >>> says_only("I feel like I skipped something."), says_only("also is anyone advanced in python")
    (True, False)
    >>> says_only("gimme the note on trees"), says_only("maybe i can ask one of them to help")
    (False, True)
    >>> says_only("semester he took OS")     # (a property's noun: an ask in few words)
    False
    >>> says_only("want to put it on their poster"), says_only("want to know who leads it")
    (True, False)
    """
    sentences = [tokens(AND_FIRST.sub("", s))
                 for s in re.split(r"(?<=[.!])\s+", text.strip()) if tokens(s)]
    subjects = set(FIRST_PERSON) | PERSONAL | DEMONSTRATIVE | {"we", "i'm", "i've", "my", "our"}
    # (the subject may come second, after a word that asks nothing: "maybe i can ask them"; or
    # be left out of a plan: "want to put it on their poster", not "want to know ...")
    return bool(sentences) and not text.rstrip().endswith("?") and all(
        (words[0] in subjects or words[1:2] and words[1] in subjects and not graph_nouns(words[:1])
         and words[0] not in QUESTION_WORDS | AUXILIARY | set(REQUESTS) or _PLAN.match(" ".join(words)))
        and not is_question(words, opening=True) for words in sentences)


_PLAN = re.compile(r"(?:(?:want|going|planning|hoping)\s+to|gonna|wanna)\s+(?!know|find|see|ask|learn|check)\w")


def sentences_that_ask(piece: str) -> list[str]:
    """A piece cut after each sentence (ending in "." or "!") that asks on its own, when the
    sentence after it says more than something of the speaker: "Explain routing please.
    Before routing what should I finish?" is two asks; "I'm Sneha. Which clubs am I in?" one
    (a statement sets the scene of the ask after it).

    >>> sentences_that_ask("Explain routing please. Before routing what should I finish")
    ['Explain routing please.', 'Before routing what should I finish']
    >>> sentences_that_ask("I'm in DBMS. Who else takes it")
    ["I'm in DBMS. Who else takes it"]
    >>> sentences_that_ask("Tell me about BFS. I skipped that class.")
    ['Tell me about BFS. I skipped that class.']
    >>> sentences_that_ask("Need the explanation of BFS for a quiz. Also who takes DSA")
    ['Need the explanation of BFS for a quiz.', 'Also who takes DSA']
    """
    sentences = re.split(r"(?<=[a-z0-9)][.!])\s+(?=\S)", piece, flags=re.I)
    parts = [sentences[0]]
    for sentence in sentences[1:]:
        last = re.split(r"(?<=[.!])\s+", parts[-1])[-1]
        words = tokens(last)     # (not "When I open many apps, it crawls.", "Hi, I want to find X.")
        asks = is_question(words, opening=False) or REQUEST.match(last) is not None \
            or ASKED_FOR.search(last) is not None \
            or "," in last and (tokens(last.rsplit(",", 1)[1]) or [""])[0] in REQUESTS   # "X, explain pls."
        asks = asks and not sets_the_scene(words)
        if asks and not says_only(sentence):
            parts.append(sentence)
        else:
            parts[-1] = f"{parts[-1]} {sentence}"
    return parts


# "Need the explanation of the 1NF rule for a quiz.": an explanation asked for is an ask too
ASKED_FOR = re.compile(r"(?i)^\s*(?:i\s+)?(?:need|want|would like)\s+(?:the|an|a)\s+"
                       r"(?:explanation|definition|summary|note)\s+(?:of|on|for|about)\b")


# "... because the pdf won't open", "... so I can share it with them": why they ask, not what
REASON = re.compile(r"^(?P<ask>.*\S)\s*,?\s+(?:(?:because|bc|coz|cuz|cos)\s+(?!of\b)"
                     r"|so\s+(?:that\s+)?(?:i|we|they|he|she|you)\s+"
                     r"(?:can|could|will|may|might|'ll)\b|in\s+order\s+to\b|taaki\b)[^,;?]*[.!?]*\s*$", re.I)


# "... decide which order to join and which index to pick": a wh- word and "to", the verb's object
_WH_TO = re.compile(r"\s*(?:which|what|how|where|when|whom?)\s+(?:\w+\s+)?to\s+\w+\s*(?:[?.!,]|$)", re.I)


def joins_no_asks(conjunction: str, last: str, right: str) -> bool:
    """Does the conjunction between `last` (the clause before) and `right` join no two asks: an
    adverb before the verb ("which other students also have it?"), the end of a value's range
    ("a B or lower"), one of two options ("store it as a matrix or list, and ..."), a second
    object of a verb ("decide which order to use and which index to pick"), a value said
    aloud ("a b plus"), or two nouns one question word asks for
    before their verb ("what branch and year is she in", "could you tell me what year and
    branch Sneha is in")?

    >>> joins_no_asks("and", "what branch", "year is she in")
    True
    >>> joins_no_asks("and", "who all study dsa", "wht grade"), joins_no_asks("plus", "who got a b", "in dsa")
    (False, True)
    >>> joins_no_asks("or", "how is a graph kept, matrix", "list, and why?")
    True
    """
    word, after = conjunction.lower(), tokens(right)
    option = re.match(r"\s*[\w+/-]+(?:\s+[\w+/-]+)?\s*(?:[,?.!]|$)", right) \
        and not set(after[:2]) & WORDS.question_words
    return word == "also" and awaits_its_verb(last) or word == "or" and OR_A_RANGE.match(right) is not None \
        or word in ("and", "or") and _WH_TO.match(right) is not None \
        or word in ("or", "ya") and bool(option) \
        or word == "plus" and re.search(r"\b[a-z]$", last.strip(), re.I) is not None \
        or word in ("and", "aur") and awaits_its_verb(asked_in(last)) and len(after) > 1 \
        and after[0] not in QUESTION_WORDS and (after[1] in AUXILIARY or len(after) > 2 and after[2] in AUXILIARY
                                                and set(after[3:4]) <= WORDS.prepositions)   # "Sneha is in"


def as_question(text: str) -> str:
    text = text.strip().rstrip(",")
    done = text.endswith(("?", ".", "!"))     # "... needs React? I did a little React."
    asked = after_opening_clause(re.split(r"\s[-\u2013]\s|\s*\u2014\s*|[.!:]\s+", text)[-1])   # "For X, which ..."
    asks = is_question(tokens(asked), opening=True) or asks_within(asked)   # ("In CS terms what is it")
    return text if done or not asks else text + "?"


_ANYONE = re.compile(r"^\s*(?:(?:did|does|do)|(has|have|is|was))\s+(?:anyone|anybody|someone|somebody)\s+(.+?)\s*$",
                     re.I)
_WHO = re.compile(r"^\s*(?:if so,?\s*)?(?:who|whom)\b[\s,]*(.*?)\s*$", re.I)   # ("whom?" too)


def who_of_anyone(asked: str, piece: str) -> str | None:
    """"Did anyone get an A+? Who, and in which subject?": one ask, who did and the rest, not a
    yes and a fragment; None when the first is no "did anyone" or the second opens with no "who".

    >>> who_of_anyone("Did anyone use the Saw", " Who, and on which day?")
    'who use the Saw, and on which day'
    >>> who_of_anyone("Has anyone used the Saw", " who?"), who_of_anyone("Is Asha here", " who?")
    ('who has used the Saw', None)
    """
    anyone, who = _ANYONE.match(asked), _WHO.match(piece)
    if anyone is None or who is None:
        return None
    rest = who[1].strip(" ?")
    return " ".join(filter(None, ["who", (anyone[1] or "").lower(), anyone[2]])) + (f", {rest}" if rest else "")

