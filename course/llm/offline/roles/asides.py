"""What a learner says around an ask: asides in parentheses, courtesies, reasons, scenes.

Introduced in notebook 12, with the agentic agent's updater. "For a slide (yes, during exams,
don't ask), can you list the clubs?" asks for the clubs; "..., he keeps saying he failed lol"
and "... bc the syllabus pdf wont open" say why, not what; "My friend Aarav studies here; what
are his clubs?" sets the scene of its ask. None of them is a part to answer (a comparison to the
learner's own world: `course.llm.offline.plainly.without_comparisons`).
"""
from __future__ import annotations

import re

from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.clauses import (AND_FIRST, REASON, REQUEST, is_question, says_only,
                                              sets_the_scene)
from course.llm.offline.roles.words import FIRST_PERSON, WORDS, graph_nouns, tokens


_PARENTHESIS = re.compile(r"\s*\(([^()]*)\)")
# ", first, why ...; and second, which ...": the order of the asks, which asks nothing
ORDINALS = re.compile(r"(?i)(?<=[,;.])\s*(?:and\s+)?(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|lastly|finally)"
                      r"\s*,\s*")
# "1) which students ... 2) for each of them ...": a numbered list of asks, each ask its own part
_NUMBERED = re.compile(r"(?:^|(?<=\s))\(?\d{1,2}\)\s+")


def numbered_as_asks(question: str) -> str:
    """The asks of a numbered list apart (";"), their numbers and what opens the list gone.

    >>> numbered_as_asks("Study Qs: 1) who studies DSA 2) for each of them, what grade?")
    'who studies DSA; for each of them, what grade?'
    >>> numbered_as_asks("is O(n) fine?")
    'is O(n) fine?'
    """
    marks = list(_NUMBERED.finditer(question))
    if not marks or (len(marks) == 1 and marks[0].start() > 0):
        return question
    return "; ".join(p.strip() for p in _NUMBERED.split(question[marks[0].end():]) if p.strip())


# "Two things, if you please.", "two quick questions:": a count of the asks to come asks nothing
# (not "Three questions about arrays: ...", which names what "it" will stand for)
COUNT_OF_ASKS = re.compile(r"^\s*(?:(?:ok(?:ay)?|so|just)\s+)?"
                           r"(?:two|three|four|[234]|a\s+couple(?:\s+of)?|a\s+few)\s+"
                           r"(?:(?:small|quick|little|short)\s+)?(?:things|questions|qs|doubts|queries)"
                           r"(?:\s*,?\s*(?:if\s+you\s+please|please|pls))?\s*[:.!,\u2013\u2014-]+\s*", re.I)


def without_parentheses(text: str) -> str:
    """The text without an aside in parentheses ("(bad idea I know)", "(yes, during exams, don't
    ask)"): two words or more, none written with a capital but "I", that ask nothing. A short
    form, a name or an ask stays ("(OS)", "(Payal or Karan)", "(and how good is he at them)").
    Nor a courtesy between commas (", if you would,").

    >>> without_parentheses("For a slide (yes, during exams, don't ask), can you list the clubs?")
    'For a slide, can you list the clubs?'
    >>> without_parentheses("Who are her friends (I'd like to know what they study)?")
    'Who are her friends?'
    >>> without_parentheses("Who takes Operating Systems (OS)?")
    'Who takes Operating Systems (OS)?'
    >>> without_parentheses("Kindly explain, if you would, the situation in which ...")
    'Kindly explain the situation in which ...'
    """
    def aside(m: re.Match[str]) -> str:
        words = m[1].split()
        said = len(words) > 1 and not any(w[0].isupper() and w.rstrip("'mdve") != "I" for w in words)
        # ("I'd like to know what she might pick up": why the speaker asks, in their own words)
        asks = is_question(said_of := tokens(AND_FIRST.sub("", m[1])), opening=True) and not (
            said_of and said_of[0] in _SPEAKER)
        return "" if said and not asks else m[0]
    return _COURTESY.sub(" ", _PARENTHESIS.sub(aside, text))


_SPEAKER = {*FIRST_PERSON, "i'd", "i'm", "i've", "i'll", "we", "we'd", "we're", "our"}


def scene_before_semicolon(question: str) -> str:
    """A clause that only says something ("My daughter Sneha has mentioned her friends here;")
    before a semicolon is the scene of the ask after it, as before a full stop.

    >>> scene_before_semicolon("My friend Aarav studies here; what are his clubs?")
    'My friend Aarav studies here. what are his clubs?'
    >>> scene_before_semicolon("Who is Aarav; what are his clubs?")
    'Who is Aarav; what are his clubs?'
    """
    pieces = question.split(";")
    out = pieces[0]
    for piece in pieces[1:]:
        last = re.split(r"(?<=[.!?])\s+", out.strip())[-1]
        out += (". " if says_only(last) else ";") + (piece.lstrip() if says_only(last) else piece)
    return out


# a remark, then ", " or "but" or "so", then the first ask ("sorry long msg, can you ...")
_REMARK = re.compile(r"^\s*(?P<remark>[^,?.!;:()\u2013\u2014-]+?)(?:\s*,\s*|\s+(?:but|so)\s+)(?P<ask>\S.*)$",
                     re.I | re.S)


def remark_as_scene(question: str) -> str:
    """A remark before the first ask ("sorry long msg, ...", "basic question but ...", "i want
    to bring it up in the interview so ...") is said as a sentence of its own: the scene of
    the asks after it (as the first words of the first ask, it hid the asks that one joins;
    words that ask nothing, "ok quick one, ...", open a question already). A remark
    is no question and no request, names no one (a capital after its first word: "Asha and
    Ravi, ..."), and either says something of the speaker or names no kind of thing the graph
    holds ("Apart from the students on the team, ..." is a condition of the ask). Nor is it
    what the ask points back at ("two programs stuck waiting, what's that called?").

    >>> remark_as_scene("sorry long msg, can you explain paging and which subject covers it?")
    'sorry long msg. can you explain paging and which subject covers it?'
    >>> remark_as_scene("basic question but what is a tree?")
    'basic question. what is a tree?'
    >>> remark_as_scene("Asha and Ravi, what are their years?")
    'Asha and Ravi, what are their years?'
    >>> remark_as_scene("two tasks stuck waiting, what's that called and how is it fixed?")
    "two tasks stuck waiting, what's that called and how is it fixed?"
    """
    m = _REMARK.match(question)
    if m is None:
        return question
    words, ask = tokens(m["remark"]), tokens(re.split(r"[?.!,]|\s(?:and|aur)\s", m["ask"])[0])   # its first ask
    named = any(w[:1].isupper() and w != "I" for w in m["remark"].split()[1:])
    remark = bool(words) and not set(words) <= default_lexicon().common and not named \
        and not set(words) & (WORDS.question_words | set(WORDS.requests)) \
        and not sets_the_scene(words) and words[0] not in WORDS.prepositions | set(WORDS.conjunctions) \
        and (says_only(m["remark"]) or not graph_nouns(words, properties=False))
    asks = bool(ask) and ask[0] not in set(WORDS.conjunctions) | WORDS.subordinating \
        and (is_question(ask, opening=True) or REQUEST.match(m["ask"]) is not None) \
        and not set(ask) & (WORDS.referring | set(WORDS.pronouns))
    return f"{m['remark'].strip()}. {m['ask']}" if remark and asks else question


# ", if you would,", ", if you don't mind,", ", please,": a courtesy between commas asks nothing
_COURTESY = re.compile(r"\s*,\s*(?:if\s+you\s+(?:would|could|will|may|please|don't\s+mind|do\s+not\s+mind)|"
                       r"if\s+possible|please|kindly|ji)\s*,\s*", re.I)


# (after a comma or a dash: "what skills does she have - I might ask her to help me")
_LAST_CLAUSE = re.compile(r"^(?P<ask>.*\S)(?:\s*,|\s+[-\u2013\u2014]|\s*\u2014)\s*"
                          r"(?P<aside>[^,;?\u2013\u2014-]+?)\s*[.!]*\s*$")
# "..., trying to figure out who to team up with", "..., hoping to pick a project": what the
# speaker means to do, not an ask
_MEANING_TO = re.compile(r"^\s*\w+ing\s+to\b", re.I)
def without_asides(text: str) -> str:
    """The ask without the statements a learner tacks on after a comma ("..., i need to ask
    her for notes lol", "..., he keeps saying he failed"): a clause that says something of
    someone (`says_only`) after a question asks nothing of the graph.

    >>> without_asides("what grade did aarav get in os, he keeps saying he failed lol")
    'what grade did aarav get in os'
    >>> without_asides("who is in the coding club, and what do they study")
    'who is in the coding club, and what do they study'
    >>> without_asides("what skills does payal have, trying to figure out who to team up with")
    'what skills does payal have'
    >>> without_asides("explain memoization briefly, I need to tell a student")
    'explain memoization briefly'
    >>> without_asides("what topics does os cover bc the syllabus pdf wont open")
    'what topics does os cover'
    >>> without_asides("can you explain 2NF simply so I can share it with them")
    'can you explain 2NF simply'
    >>> without_asides("what skills does she have - I might ask her to help me")
    'what skills does she have'
    >>> without_asides("why is it slow because of the index")
    'why is it slow because of the index'
    """
    while (m := _LAST_CLAUSE.match(text)) and (says_only(m["aside"]) or _MEANING_TO.match(m["aside"])) \
            and (is_question(tokens(last := re.split(r"(?<=[.!?])\s+", m["ask"])[-1]), opening=True)
                 or REQUEST.match(last) is not None):     # (its last sentence: "sorry. which ...")
        text = m["ask"]
    reason = REASON.match(text)     # "... bc the syllabus pdf wont open": why they ask, not what
    if reason and is_question(words := tokens(reason["ask"]), opening=True) \
            and words[0] not in WORDS.manner_words:
        text = reason["ask"]
    return text
