"""Does the note hold what the question asks for? (issue 23, with the agentic note search)

Introduced in notebook 12, with the agentic agent's note search and its evidence bar.
A note can be far ahead of every other note because the question names its topic, and still
not hold the thing asked: "Which port does HTTPS use by default?" finds the note on HTTP, which
names HTTPS but no port; "What's new in HTTP/3?" finds it too, and it names no version. Two
general marks of what is asked, read from the question's grammar, not from any topic:

- the kind of thing a "which"/"what"/"how much" asks for, when a verb follows it ("which port
  does", "what year was", "how much weightage does"), or when it is a kind the graph does not
  hold ("which professor teaches ..."): the note must use that word (or a form of it), or it
  cannot say which (or how much);
- a specific name made of letters and digits, a dotted number, or letters and a symbol
  ("HTTP/2", "IPv6", "1.3", "B+ tree", "C++"):
  the note must name it, or it speaks of something else;
- the thing a definition asks about ("What is a red-black tree?"): the note must name it
  (`course.foundation.definitions`), or it defines a neighbour.

Everything else a learner says in their own words is left to the search's score.
"""
from __future__ import annotations

import re

from course.foundation.db import Database
from course.foundation.definitions import names_what_is_defined
from course.foundation.language import WORDS
from course.llm.offline.lexicon import default_lexicon

# "which port does", "what year was", "which algorithm of X is", "how much weightage does":
# the noun before the verb. (Not "how many": "how many machines can ..." of a subnet is asked
# in the learner's words, "hosts" in the note's.)
_ASKED_KIND = re.compile(r"\b(?:which|what|how much)\s+([a-z]+)\s+(?:of\s+\w+\s+)?"
                         r"(?:does|do|did|is|are|was|were|has|have|can|should|will|would)\b")
# "http/2", "ipv6", "tls1.3" (letters then digits), "1.2" (a dotted number), "b+", "c++", "c#"
# (letters then a symbol): a version or an id.
_SPECIFIC = re.compile(r"(?<![\w/.])(?:[a-z]+/?\d+(?:\.\d+)*|\d+(?:\.\d+)+|[a-z]+(?:\+\+?|#))(?![\w.+#]*\w)")
_STEM = 5   # a word's first letters: "ports" holds "port", "years" holds "year"


def _unheld_kinds(text: str) -> list[str]:
    """A kind the lexicon says the graph does not hold, asked for by "which" ("Which professor
    teaches the Computer Networks course?", "which IP address ..."), whatever verb follows, or
    the very thing a "when"/"who"/"what is" asks of ("When is the Operating Systems exam?":
    a note that names the subject, not the exam, says nothing of it)."""
    lexicon = default_lexicon()
    unheld, which = lexicon.cues.get("out_of_scope"), lexicon.cues.get("which")
    if unheld is None or which is None:
        return []
    the_thing = (rf"\b(?:when|where|who|what)(?:'s|\s+(?:is|are|was|were))\s+(?:the\s+)?"
                 rf"(?:[\w/+-]+\s+){{0,3}}?({unheld})")
    return [m[m.lastindex or 0] for m in re.finditer(rf"{which}\s+(?:\w+\s+)?({unheld})|{the_thing}", text)]


def names_an_unheld_kind(text: str) -> bool:
    """Does the text name anything the lexicon says the graph does not hold (a teacher, a phone
    number, a salary), asked for or not?

    >>> names_an_unheld_kind("what is the phone number of the admission office?")
    True
    """
    unheld = default_lexicon().cues.get("out_of_scope")
    return unheld is not None and re.search(unheld, text.lower()) is not None


def asked_for(question: str) -> list[str]:
    """What the question asks for that a note answering it must name.

    >>> asked_for("Which port does HTTPS use by default?"), asked_for("How much weightage does it get?")
    (['port'], ['weightage'])
    >>> asked_for("What's the difference between HTTP/2 and HTTP/3?")
    ['http/2', 'http/3']
    >>> asked_for("How does a B+ tree stay balanced?"), asked_for("Is C++ faster?")
    (['b+'], ['c++'])
    >>> asked_for("Why does my laptop crawl when I open many apps?")
    []
    >>> asked_for("In which situation can a table pass one rule and fail the other?")
    []
    >>> asked_for("Which professor teaches the Computer Networks course?")
    ['professor']
    >>> asked_for("When is the Operating Systems exam?"), asked_for("Explain paging for my exam")
    (['exam'], [])
    >>> asked_for("How many credits is the subject that teaches welding?"), asked_for("Which note should I send?")
    (['credits'], [])
    """
    text = " ".join(question.lower().split())
    notes = default_lexicon().label("Note")     # ("which note should I send?": any note is one)
    kinds = [w for w in _ASKED_KIND.findall(text) if w not in WORDS.not_terms | WORDS.vague_kinds
             and not re.fullmatch(notes, w)]
    return list(dict.fromkeys(kinds + _counted_properties(text) + _unheld_kinds(text) + _SPECIFIC.findall(text)))


def _counted_properties(text: str) -> list[str]:
    """A property of the graph that "how many" counts ("how many credits is the subject that
    teaches it worth?"): a number the graph holds, which a note that never names it cannot give.
    (Any other noun counted may be asked in the learner's words: "how many machines".)"""
    properties = [r for r in default_lexicon().properties.values() if r]
    return [w for w in re.findall(r"\bhow many ([a-z]+)", text)
            if any(re.fullmatch(r, w) for r in properties)]


def holds_what_is_asked(question: str, note_text: str) -> bool:
    """Does the note's text name everything `asked_for` finds in the question?

    >>> holds_what_is_asked("Which port does DNS use?", "DNS mostly uses UDP on port 53.")
    True
    >>> holds_what_is_asked("Which port does HTTPS use?", "HTTPS adds TLS encryption on top.")
    False
    """
    text = " ".join(note_text.lower().split())
    if not names_what_is_defined(question, text):
        return False
    return all((re.search(rf"(?<![\w/.]){re.escape(term)}(?![\w.]*\w)", text)
                if _SPECIFIC.fullmatch(term) else re.search(rf"\b{re.escape(term[:_STEM])}", text))
               for term in asked_for(question))


def note_holds(db: Database, question: str, note: str) -> bool:
    """`holds_what_is_asked` over the whole text of the note with this id (a search hit may
    be one of its sentences).

    >>> note_holds(db, "Which port does DNS use?", "N23"), note_holds(db, "What's new in HTTP/3?", "N22")
    (True, False)
    """
    found = db.run("MATCH (n:Note {id: $id}) RETURN n.text", {"id": note}).rows
    return bool(found) and holds_what_is_asked(question, str(found[0][0]))
