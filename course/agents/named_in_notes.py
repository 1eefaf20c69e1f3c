"""Which notes may answer a question that names graph values: those that speak of each one.

Introduced in notebook 12, with the agentic agent's note search: a note answers a concept
question, and a question that names a student, a club or a project asks about that node.
"What's Sneha's phone number?" is no note question though a note mentions phone numbers: no
note speaks of Sneha. Nor is a question that asks for nodes of the graph ("Who is the youngest
student?", "Which clubs ...?", "which subject teaches that?"): the graph answers it, whatever
a note says about students (`asks_for_nodes`).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from course.foundation.db import Database
from course.foundation.language import WORDS, in_full, question_key
from course.foundation.scenes import SENTENCE_BREAK, scene_and_ask, scene_before_the_ask
from course.llm.offline.comparisons import ONE_TO_THE_OTHER
from course.llm.offline.plainly import shared_as_given
from course.llm.offline.coverage import properties_only
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.roles.elided import counts_the_unsaid
from course.llm.offline.roles.words import asks_for_a_change, names_nothing, tokens
from course.pipeline.linking import Mention, link_entities
from course.pipeline.schema import introspect

NEAR_NOTES = """\
MATCH (n:Note)-[*1..2]-(x)
WHERE n.id IN $notes AND x.name IS NOT NULL
RETURN n.id AS note, collect(DISTINCT toLower(x.name)) AS near"""
OWN_TOPICS = "MATCH (:Note {id: $note})--(x) WHERE x.name IS NOT NULL RETURN DISTINCT x.name, labels(x)[0]"
NOTES_OF = "MATCH (n:Note)--(x {name: $name}) RETURN n.id LIMIT 1"

NOTES_REACH = """\
MATCH (:Note)-[*1..2]-(x)
UNWIND labels(x) AS label
RETURN DISTINCT label"""
ALL_LABELS = "CALL db.labels() YIELD label RETURN label"


def beyond_notes(db: Database) -> list[str]:
    """The graph's labels more than two links from every note (not the notes themselves):
    what no note speaks of. In the college graph, notes explain concepts of subjects.

    >>> sorted(beyond_notes(db))
    ['Club', 'Project', 'Skill', 'Student']
    """
    near = {label for (label,) in db.run(NOTES_REACH).rows} | {"Note"}
    return [label for (label,) in db.run(ALL_LABELS).rows if label not in near]


def asks_for_nodes(db: Database, question: str) -> bool:
    """Does the question ask for nodes of the graph rather than for what a note explains:
    "who" (the person label, which no note reaches), or a "which"/"what" word before a label's
    noun ("Which clubs ...?", "which subject teaches that?", "kaunse projects")? The graph
    answers such a question, whatever a note says about students or subjects.

    >>> asks_for_nodes(db, "Who is the youngest student?"), asks_for_nodes(db, "Which clubs meet?")
    (True, True)
    >>> asks_for_nodes(db, "Why does my table repeat the student's name on every row?")
    False
    >>> asks_for_nodes(db, "prereqs for routing (concept level)")
    True
    >>> asks_for_nodes(db, "IT students n their clubs"), asks_for_nodes(db, "Student count by branch.")
    (True, True)
    >>> asks_for_nodes(db, "is that taught in the same subject as paging?")
    True
    >>> asks_for_nodes(db, "Is every subject taken by at least two students?")
    True
    >>> asks_for_nodes(db, "For each student, what is the total number of credits?")
    True
    >>> asks_for_nodes(db, "How many friendship links are there?")
    True
    >>> asks_for_nodes(db, "How many conditions cause it?")
    False
    >>> asks_for_nodes(db, "Subjects covering prerequisites of Routing?")
    True
    >>> asks_for_nodes(db, "Students often ask why")
    False
    >>> asks_for_nodes(db, "CN ke saare prerequisite subjects kya hain?"), asks_for_nodes(db, "ye topic kya hai?")
    (True, False)
    """
    lexicon, text = default_lexicon(), shared_as_given(" ".join(question.lower().split()))   # ("share the note")
    which = lexicon.cues.get("which", r"(?!)")
    if lexicon.person in beyond_notes(db) and re.search(lexicon.cues.get("who", r"(?!)"), text):
        return True
    labels = [label for (label,) in db.run(ALL_LABELS).rows
              if label in lexicon.labels and label != "Note"]
    # "IT students n their clubs": two kinds no note speaks of, named with no question or
    # scene around them (not "When members type our club's website name, how ...?")
    said = set(tokens(text))
    beyond = [label for label in beyond_notes(db) if label in lexicon.labels
              and re.search(rf"\b(?:{lexicon.label(label)})\b", text)] \
        if not said & (WORDS.question_words | WORDS.auxiliary | WORDS.subordinating) else []
    # "Is every subject taken by at least two students?": yes or no of two kinds of the graph
    kinds = [label for label in labels if re.search(rf"\b(?:{lexicon.label(label)})\b", text)]
    whether = bool(said) and tokens(text)[0] in WORDS.auxiliary and len(kinds) > 1
    # ("which more specific topics", "what's the prereq topic": the noun a word or two on; "how
    # many students": a count of them)
    count = lexicon.cues.get('count', '(?!)')     # ("student count by branch": the count after its noun)
    # ("in the same subject as paging", "share a club": whether two things share a node)
    pairing = lexicon.cues.get("pairing", "(?!)")
    each = lexicon.cues.get("each", "(?!)")    # ("for each student, the total credits": one row each)
    asking = rf"(?:{which}(?:'s|\s+is|\s+are)?|{count}|(?:{pairing}|{each})(?:\s+an?)?)"
    # ("how many friendship links are there": a count of the graph's links, which no note keeps)
    links = "|".join(f"(?:{r})" for r in lexicon.relationships.values() if r) or "(?!)"
    if re.search(rf"(?:{count})\s+(?:the\s+)?(?:\w+\s+){{0,1}}(?:{links})\b", text):
        return True
    # ("§0 ke prerequisite subjects kya hain": Hindi asks after its noun, a plural one)
    hindi = "|".join(sorted(WORDS.question_words - WORDS.english_question_words))
    return any(re.search(rf"{asking}\s+(?:the\s+)?(\w+\s+){{0,2}}"
                         rf"(?:{lexicon.label(label)})|\b(?:{lexicon.label(label)})\s+(?:{count})\b", text)
               or re.search(rf"\b(?=\w+s\b)(?:{lexicon.label(label)})\s+(?:{hindi})\b", text)
               for label in labels) or len(beyond) > 1 or whether or _names_linked_nodes(db, text) \
        or _asks_what_a_link_reaches(db, text) or _names_a_value_and_its_property(db, question) \
        or any(re.match(rf"\s*(?i:{lexicon.label(label)})\s+(?:[a-z]+ing\b|[A-Z])", question) and
               re.match(r"\s*\w+s\b", text) and not re.search(SENTENCE_BREAK, question.strip())
               for label in labels)    # "Subjects covering X?" (not "Candidates applying .... Which note?")


def _names_a_value_and_its_property(db: Database, question: str) -> bool:
    """"Which of us are from the IT branch?": a property's word and one of its values, of a
    kind no note speaks of, ask for the nodes that hold it (a note on DFS says "branch" too).
    A value of three letters or fewer counts only as written ("IT", not "it")."""
    lexicon, text = default_lexicon(), question.lower()
    for label in beyond_notes(db):
        for prop, words in lexicon.properties.items():
            if not words or not re.search(rf"\b(?:{words})\b", text):
                continue
            values = [v for (v,) in db.run(f"MATCH (n:`{label}`) RETURN DISTINCT n.`{prop}` LIMIT 50").rows
                      if isinstance(v, str) and v]
            if any(re.search(rf"(?<![\w+]){re.escape(v)}(?![\w+])", question if len(v) <= 3 else text,
                             0 if len(v) <= 3 else re.I) for v in values):
                return True
    return False


# what comes before a plural noun ("prereqs for", "the subtopics of", "list subtopics of"), not
# before a verb ("the primary key consists of ...": its subject)
_AS_A_NOUN = re.compile(r"(?:^|[^\w\s]|\b(?:the|all|its|their|his|her|any|some|what|which|are|is|list|show|"
                        r"give|me|and|or|of|for|about))\s*$")


def _names_linked_nodes(db: Database, text: str) -> bool:
    """"prereqs for routing", "the subtopics of trees": a plural noun of a link between two
    things of one kind, before "of" or "for", asks for the things at its other end, as
    "which concepts" does; a note on the one named is no answer to it ("the key consists of
    two columns" is a verb).

    >>> _names_linked_nodes(db, "prereqs for routing")
    True
    >>> _names_linked_nodes(db, "if the key consists of two columns")
    False
    """
    lexicon = default_lexicon()
    loops = {p.type for p in introspect(db).patterns if p.start == p.end and p.start != lexicon.person}
    for link in loops:
        for m in re.finditer(lexicon.relation(link) or r"(?!)", text):
            if m[0].endswith("s") and re.fullmatch(lexicon.relation(link) or "", m[0][:-1]) \
                    and re.match(r"\s+(?:of|for)\b", text[m.end():]) and _AS_A_NOUN.search(text[:m.start()]):
                return True
    return False


# "what does §0 include (in os)", "what is §0 a prerequisite for?": an auxiliary, the name, and
# the link's word ending the ask (but for a place or a name); "what leads to §0", "what comes
# after §0", "what should I learn before §0": the link's word before the name, a verb or two
# between only when that word is a preposition ("what 4 conditions needed for §0" asks for
# conditions); "§0 ke baad kya aata hai": Hindi puts the question word between ("§0 wala
# concept kya hai": the concept that §0 is, no link).
_AFTER_THE_NAME = (r"\b(?:what|which)(?:\s+all)?\s+(?:{aux})\s+(?:\w+\s+){{0,2}}?(?:§|it)\s+"
                   r"(?:\w+\s+){{0,2}}?(?:{link})(?:\s+it(?=\s*(?:[?.!,;]|$)))?"
                   r"(?:\s+(?:in|for|of|to|on|with)(?:\s+(?:the\s+)?(?:§|\w+))?)?\s*(?:[?.!,;]|$)")
# ("what does my son need to know before tackling §0": a verb of the learner's before the name;
# "what should i learn right before that stricter form", "... before that": a pointer in the
# name's place)
_BEFORE_THE_NAME = (r"\b(?:what|which)\s+(?:(?:\w+\s+){{1,6}}?(?:{prep})(?:\s+\w+ing)?|(?:{link}))\s+"
                    r"(?:the\s+§|§|th(?:at|is|ose|ese)(?:\s+\w+|\s*[?.!]*\s*$)|it\b|them\b)")
_HINDI_ORDER = (r"§\s+(?!wal[aie]\b)(?:\w+\s+){{0,2}}?(?:(?:{link})\s+(?:\w+\s+)?(?:kya|kaun\w*)|"
                r"(?:kya|kaun\w*)\s+(?:\w+\s+)?(?:{link}))\b")
# "does Graphs contain BST?", "is DNS part of TCP/IP?": whether a link joins two names
_WHETHER = r"^\s*(?:{aux})\s+(?:the\s+)?§\s+(?:\w+\s+){{0,2}}?(?:{link})\s+(?:\w+\s+){{0,2}}?§"


def _asks_what_a_link_reaches(db: Database, text: str) -> bool:
    """"what does memory management include", "what comes after trees": the question word
    asks for what a link of a named value's kind reaches from it (the link's word beside the
    name, nothing else asked between); or it chooses among named values ("which of paging
    and threads ..."). The graph answers that; a note on the value, or on one of the things
    it reaches, is half an answer at best. "what does DFS do before it backtracks?" asks what
    DFS does: its link word points at no name.

    >>> _asks_what_a_link_reaches(db, "what comes after trees?")
    True
    >>> _asks_what_a_link_reaches(db, "what does dp need before it?")
    True
    >>> _asks_what_a_link_reaches(db, "what does dfs do before it backtracks?")
    False
    >>> _asks_what_a_link_reaches(db, "what 4 conditions needed for deadlocks?")
    False
    >>> _asks_what_a_link_reaches(db, "what should i study next once i have understood threads?")
    True
    >>> _asks_what_a_link_reaches(db, "does graphs contain bst, even indirectly?")
    True
    >>> _asks_what_a_link_reaches(db, "what does my son need to know before tackling routing?")
    True
    """
    mentions = [m for m in link_entities(db, text, schema=introspect(db)) if m.score >= 1.0]   # ("dp")
    for m in sorted(mentions, key=lambda m: -len(m.text)):   # as written: "tcp/ip" links as "tcp ip"
        written = r"[\W_]+".join(map(re.escape, m.text.lower().split()))
        text = re.sub(rf"\b{written}\b", "§", text)
    if re.search(r"\b(?:which|who)\s+(?:of|among)\s+(?:the\s+)?§", text) or \
            ONE_TO_THE_OTHER.search(text):   # ("is one of them a prerequisite for the other?")
        return True
    kinds = {m.label for m in mentions}
    patterns = introspect(db).patterns
    # "what should I study next once I have understood Threads?": the next along a same-kind link
    after = default_lexicon().cues.get("next")
    if after and any(p.start == p.end and p.start in kinds for p in patterns) and \
            re.search(rf"\b(?:what|which)\s+(?:\w+\s+){{0,4}}?(?:{after})\b", text):
        return True
    # (naming nothing, "what comes right after that rule?": a link of a kind to itself, from what it points at)
    regexes = [default_lexicon().relation(p.type) for p in patterns
               if kinds & {p.start, p.end} or not kinds and p.start == p.end]
    link = "|".join(r for r in regexes if r and not re.search(r, "explain"))
    if not link:
        return False
    prep = "|".join(w for w in sorted(WORDS.prepositions | WORDS.subordinating) if re.fullmatch(link, w))
    words = {"link": link, "prep": prep or r"(?!)", "aux": "|".join(sorted(WORDS.auxiliary))}
    return any(re.search(pattern.format(**words), text)
               for pattern in (_AFTER_THE_NAME, _BEFORE_THE_NAME, _HINDI_ORDER, _WHETHER))


def note_question(db: Database, question: str) -> bool:
    """May a note answer it at all: it names something (`names_nothing`: "in which one?" has
    no topic), asks for no graph nodes (`asks_for_nodes`) and reads as no change to the data
    ("How do I insert a new student?" is refused, not explained).

    >>> note_question(db, "Why does an index make lookups fast?")
    True
    >>> note_question(db, "How do I insert a new student?"), note_question(db, "and in which one?")
    (False, False)
    """
    text, found = question.lower(), scene_and_ask(question)
    # the ask decides, not its scene ("I'd map who's friends with whom. What is that structure?");
    # a property of what a pointer stands for ("what's its status?") is the graph's, never a note's
    # (in full: "wt topic do i need it for" asks for nodes as "what topic ..." does)
    if names_nothing(text) or not tokens(text) or asks_for_nodes(db, in_full(found[1] if found else question)) \
            or properties_only(text, default_lexicon(), pronouns=True) \
            or counts_the_unsaid(text):      # ("and how many does DBMS?": what a part before counted)
        return False
    return not asks_for_a_change(text, [str(m.value) for m in link_entities(db, question)])


def named_in_the_ask(db: Database, question: str, schema: Any = None) -> list[Mention]:
    """The graph values the question names, less the projects and people (what no note speaks
    of) that only its scene names ("The Chatbot team says their server uses threads. What's a
    thread exactly?"); all of them when the ask speaks of someone the scene names ("My friend
    Sneha asked me. What's her phone number?": Sneha's).

    >>> [m.value for m in named_in_the_ask(db, "Sneha said her lab was slow. What is an index?")]
    []
    >>> [m.value for m in named_in_the_ask(db, "My friend Sneha asked me. What's her phone number?")]
    ['Sneha']
    >>> [m.value for m in named_in_the_ask(db, "Sneha says pages are the same size. What is she talking about?")]
    []
    """
    named = link_entities(db, question, schema=schema)
    # ("Aarav said the computer cuts its memory into pieces ... what is he talking about?": the
    # one who says it is where the learner heard of it, not what is asked about)
    speakers = {m.value for m in named if re.search(rf"\b{re.escape(m.text)}\s+(?:\w+\s+){{0,2}}?{_SAYING}",
                                                    question, re.I)}
    found = scene_before_the_ask(question)    # ("the laptop at the robotics stall ..., is there a name?")
    ask = re.sub(rf"\b(?:he|she)\s+(?:\w+\s+)?{_SAYING}", " ", question_key(found[1])) if found else ""
    if found is None or set(ask.split()) & (WORDS.third_person | set(WORDS.hindi_case)):
        return [m for m in named if m.value not in speakers] if found is None or speakers else named
    asked, beyond = {m.value for m in link_entities(db, found[1], schema=schema)}, set(beyond_notes(db))
    return [m for m in named if m.label not in beyond or m.value in asked and m.value not in speakers]


_SAYING = r"(?:said|says|told|tells|telling|explained|explains|mentioned|mentions|talking|talks|saying|laughed)\b"


def _says(text: str, word: str) -> bool:
    """Does the text say the word, from a word's start: a short name in capitals as written
    ("IT", a branch, is not the "it" of "its index").

    >>> _says("any element is read by its index", "IT"), _says("Deadlocks happen", "deadlock")
    (False, True)
    """
    cased = word.isupper() and len(word) <= 3
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(word)}", text, 0 if cased else re.I) is not None


def speak_of(db: Database, mentions: Sequence[Mention], columns: Sequence[str],
             rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """The note rows, when the best one speaks of every graph value the question names in full
    (by its name or the question's word for it in the note's text, or as a node at most two
    links from the note: its concept, that concept's subject); else none. A weaker note is
    not promoted in its place: it did not answer the question either. "What's Sneha's phone
    number?" asks about Sneha, whom no note speaks of: a note on phone numbers is no answer.

    >>> sneha = link_entities(db, "What is Sneha's phone number?")
    >>> speak_of(db, sneha, ["note", "text"], [["N02", "One row per phone number."]])
    []
    """
    named = [m for m in mentions if m.score >= 1.0]    # a partial link names nothing for sure
    if not named or not rows or "note" not in columns or "text" not in columns:
        return [list(r) for r in rows]
    note, text = list(columns).index("note"), list(columns).index("text")
    best = rows[0]
    near = dict(db.run(NEAR_NOTES, {"notes": [best[note]]}).rows)

    def spoken(m: Mention) -> bool:
        return str(m.value).lower() in near.get(best[note], []) or \
            any(_says(str(best[text]), w) for w in (str(m.value), m.text) if w.strip())
    # A question that names the note's own topic may set another beside it ("as slow as a
    # linked list", "BFS or DFS"): the note need not speak of that one. Every value of a label
    # no note reaches (a student, a club) must be spoken of all the same.
    beyond = set(beyond_notes(db))
    own = {str(x).lower(): str(label) for x, label in db.run(OWN_TOPICS, {"note": best[note]}).rows}
    names_own = any(str(m.value).lower() in own for m in named)
    ok = all(spoken(m) for m in named if m.label in beyond or not names_own)
    # A topic of the kind the notes explain that no note explains, named with none of the
    # note's own: the note is a neighbour's ("Explain CPU scheduling" finds the note on
    # threads, which names the scheduler)
    neighbour = not names_own and any(m.label in own.values() and not db.run(
        NOTES_OF, {"name": m.value}).rows for m in named)
    return [list(r) for r in rows] if ok and not neighbour else []
