"""Filler words: a word the rules do not know, whose removal leaves the question as it was.

Introduced in notebook 14, for the learner's agent. The offline rules refuse a question with a
word they do not know ("Who is the smartest student?": better "I can't answer that" than an
answer to another question). Many such words carry nothing asked: "Any idea which clubs Karan
is in?", "Which students have already joined?", "Sneha ka year kya hai yaar?". A sentence
encoder tells the two apart: without a filler word the question is nearly the same sentence;
without a word that carries what is asked ("Sneha's date of birth", "Who invented ...",
"Sneha's favourite subject") it is another one. On data/eval/filler_words.jsonl, written for
this before any threshold was chosen, MiniLM puts the question and the question without a
filler word 0.94 to 0.99 alike (one at 0.88, "these days"), and without a meaning-bearing word
0.61 to 0.92. So the agent asks a part it could not answer once more without its unknown words
only when the two are at least `FILLER_SIMILARITY` alike (bench/bench_filler.py), each word
taken out alone and all of them together ("Which concept is designated as the immediate
prerequisite of BCNF?"; "the annual fest" reads 0.97 alike without "annual" alone, 0.63 without
all three words), never a question that asks why or how, never the noun a question word asks for
("which purposes is DFS employed for", "how much money": 0.96 alike without their unknown words,
an encoder reads them as nearly nothing), and never a form of a value the graph holds ("leading"
of the role "Team Lead": "Who is leading the project?" without it is "Who is the project?", and
everyone on it was the answer), nor the first half of a comparison ("lower than an A"), nor the
verb a bare "where does" asks with ("Where does the project stand?" without it read 0.93 alike,
and its members were the answer), nor a word of the thing a definition asks about ("AVL tree kya
hota hai?" without "AVL" asks what a tree is: `course.foundation.definitions`), nor the verb of
a phrasal verb ("What skills does the project Karan is working on call for?" without "call"
asked for his teammates' skills), nor a word that leaves someone out ("Who besides Rahul studies
DSA?" without "besides" read 0.93 alike, and Rahul's classmate was the answer): an encoder reads
"besides", "except" and "not" as nearly nothing.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection

from course.foundation.db import Database
from course.foundation.definitions import defined, without_how_said
from course.foundation.language import WORDS, without_not_prefix
from course.llm.offline import OfflineLLM
from course.llm.offline.prompt import parse_prompt
from course.llm.offline.reading import read
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.translate import asked, unknown_words
from course.pipeline import prompts
from course.pipeline.agent import Agent
from course.retrieval.embeddings import Embedder, make_embedder
from course.retrieval.mentioned import mentioned_term

# The text values links hold ("Team Lead"), which the schema prompt lists only when few repeat
_LINK_VALUES = """\
MATCH ()-[r]->() UNWIND keys(r) AS key WITH r[key] AS value
WHERE value IS NOT NULL AND toString(value) = value
RETURN DISTINCT value LIMIT 2000"""
FILLER_SIMILARITY = 0.93   # between the closest meaning-bearing word (0.92) and the fillers (0.94)


def without(question: str, word: str) -> str:
    """The question with the first whole `word` taken out (and a comma after it).

    >>> without("Any idea which clubs Karan is in?", "idea")
    'Any which clubs Karan is in?'
    """
    text = re.sub(rf"(?i)\b{re.escape(word)}\b,?", "", question, count=1)
    return re.sub(r"\s+([?.!,])", r"\1", " ".join(text.split()))


def unknown_to_the_rules(db: Database, question: str) -> list[str]:
    """The words of the question the offline rules know nothing of (names in the graph are
    known: they are linked), as the pipeline would read it."""
    return _unknown(db, question)[0]


def _unknown(db: Database, question: str) -> tuple[list[str], set[str]]:
    """The unknown words, and the words of the values the graph holds ("Team Lead") and of
    the names the question links (a name said twice is no filler the second time)."""
    agent = Agent(db, OfflineLLM())
    mentions = agent.link(question)
    user = prompts.cypher_user_prompt(question, mentions=mentions)
    prompt = parse_prompt(user, agent.system_prompt)
    values = [*(v for vs in [*prompt.schema.values.values(), *prompt.schema.scales.values()] for v in vs),
              *(v for (v,) in db.run(_LINK_VALUES).rows), *(m.value for m in mentions)]
    listed = {w for v in values for w in re.findall(r"[a-z]+", str(v).lower())}
    return unknown_words(read(prompt.question, prompt.linked, prompt.schema)), listed


def compares(question: str, word: str) -> bool:
    """Is the word a comparison: the first half of one ("lower than an A", "more ... than"), or
    a comparative or superlative after "the" ("the stronger skill", "the fastest learner")?
    Without it, "than" compares nothing, or nothing is chosen among those named: never filler.

    >>> compares("Who scored lower than an A?", "lower"), compares("Any idea who?", "idea")
    (True, False)
    >>> compares("who has the stronger ML skill?", "stronger")
    True
    """
    than = re.search(rf"(?i)\b{re.escape(word)}\b(?:\s+\w+){{0,2}}\s+than\b", question)
    the = word.lower().endswith(("er", "est")) and re.search(rf"(?i)\bthe\s+{re.escape(word)}\s+\w", question)
    return bool(than or the)


def the_verb_asked(question: str, word: str) -> bool:
    """Is the word the verb a bare "where/what/how ... does" question asks with: in the
    auxiliary's clause, last or before a preposition? Without it the question asks nothing
    ("Where does the project stand?" is not "Where does the project?"): never filler, however
    alike the two sentences read. A question word with a noun ("what post does she hold")
    asks with that noun.

    >>> the_verb_asked("Where does the project stand?", "stand"), the_verb_asked("Where does Sneha live?", "live")
    (True, True)
    >>> the_verb_asked("Which subjects does Aarav actually study?", "actually")
    False
    >>> the_verb_asked("What post does she hold in the club?", "hold")
    False
    >>> the_verb_asked("since when has Coding Club lasted?", "lasted")
    True
    """
    clause = (rf"\b(?:what|where|how|why|when|who|whom)\s+(?:do|does|did|has|have|had)(?:n't| not)?\b"
              rf"[^,;.?!]*?\b{re.escape(word)}\b")
    return bool(re.search(rf"(?i){clause}\s*(?:[,;.?!]|$|(?:to|in|on|at|for|with|from|about)\b)",
                          question))


def a_phrasal_verb(question: str, word: str) -> bool:
    """Is the word a verb whose preposition closes the clause ("what does it call for?", "who
    does she look after?")? The two ask as one verb: without the word a dangling "for" asks
    something else, whatever an encoder makes of the rest.

    >>> a_phrasal_verb("What skills does the project call for?", "call")
    True
    >>> a_phrasal_verb("What post does she hold in the club?", "hold")
    False
    """
    return bool(re.search(rf"(?i)\b{re.escape(word)}\s+(?:{'|'.join(sorted(WORDS.prepositions))})\s*(?:[,;.?!]|$)",
                          question))


def the_noun_asked(question: str, word: str, unknown: Collection[str] = ()) -> bool:
    """Is the word the noun a question word asks for ("which purposes is ...", "what purposes
    precisely ...", "how much money did ...")? Without it the question asks for nothing: never
    filler. A word before a noun the rules know ("which narrower concepts") only describes what
    is asked.

    >>> the_noun_asked("For which purposes is DFS employed?", "purposes"), the_noun_asked("Any idea who?", "idea")
    (True, False)
    >>> the_noun_asked("Which narrower concepts are included?", "narrower")
    False
    >>> the_noun_asked("sabse kam subjects kis bacche ke hai", "bacche")
    True
    """
    m = re.search(rf"(?i)\b(?:{'|'.join(sorted(WORDS.noun_asking))})\s+{re.escape(word)}\b\s*([a-z]*)",
                  question)
    after = m[1].lower() if m else ""
    return m is not None and (not after or after in WORDS.auxiliary | WORDS.prepositions | WORDS.function
                              or after in {w.lower() for w in unknown})   # ("kis bacche ke": a case after it)


def asks_why_or_how(question: str) -> bool:
    """Does the question ask why or how ("why does a search end up O(n)?")? No query answers
    that, however many words are taken out: a note does.

    >>> asks_why_or_how("ok so why does a BST end up O(n)?"), asks_why_or_how("How many clubs are there?")
    (True, False)
    """
    first = re.findall(r"[a-z]+", asked(question, default_lexicon()).lower())[:2]   # after "ok so"
    return bool(first) and first[0] in WORDS.manner_words and first[1:] != [] \
        and first[1] not in WORDS.counting


def a_form_of(word: str, known: set[str]) -> bool:
    """Is the word another form of a known word of four letters or more ("leading" of "lead")?
    Such a word names what the graph holds in a form the rules cannot read: never filler.

    >>> a_form_of("leading", {"team", "lead"}), a_form_of("idea", {"team", "lead"})
    (True, False)
    """
    word = word.lower()
    return any(len(k) >= 4 and (word.startswith(k) or k.startswith(word) and len(word) >= 4)
               for k in known)


def filler_dropper(db: Database, embedder: Embedder | None = None,
                   threshold: float = FILLER_SIMILARITY) -> Callable[[str], str | None]:
    """A `simplify=` for `AgenticAgent`: the question without its unknown words when every one
    is filler, else None (no unknown word, or one that carries meaning). Each word must leave
    the sentence as it was taken out alone, and all of them together: words that each read as
    nothing alone may carry the ask together ("the annual fest": 0.97 alike without "annual",
    0.63 without all three words).

    >>> drop = filler_dropper(db)
    >>> drop("Any idea which clubs Karan is in?")
    'Any which clubs Karan is in?'
    >>> drop("What is Sneha's date of birth?") is None
    True
    """
    model = embedder or make_embedder("minilm")

    def never_filler(question: str, word: str, listed: set[str], unknown: list[str]) -> bool:
        word = word.lower()
        negated = without_not_prefix(word)     # "indirect": not "direct", whose meaning it carries
        return word in WORDS.leaving_out or a_form_of(word, listed) or compares(question, word) \
            or negated is not None and (a_form_of(negated, listed) or negated in default_lexicon().vocab) \
            or the_verb_asked(question, word) or a_phrasal_verb(question, word) \
            or the_noun_asked(question, word, unknown) \
            or word in defined(question)

    def simplify(question: str) -> str | None:
        unknown, listed = _unknown(db, question)    # ("which notes mention X?" asks the notes' words)
        if not unknown or asks_why_or_how(question) or mentioned_term(question) \
                or any(never_filler(question, word, listed, unknown) for word in unknown):
            return None
        shorter = without_how_said(question)   # (a phrase, whole: not "explain 3NF in?")
        for word in unknown:
            shorter = without(shorter, word)
        alone = [without(question, word) for word in unknown]   # each word taken out alone
        candidates = alone + [shorter] if len(unknown) > 1 else alone
        whole, *others = model.embed([question, *candidates])
        return shorter if all(float(whole @ other) >= threshold for other in others) else None
    return simplify
