"""From a whole prompt to one query: the order of the checks (notebooks 05 and 09).

A blocked retry, a request to change the data, an unknown attribute or word, negation and
opinion come first; then a follow-up is filled in from the conversation, the intents are
tried in order, and a query that leaves out a word that names something is refused
(`coverage.unused`), and so is one that does not follow the question's chain of relations
(`chain.unfollowed`: "Aarav's friends" is not Aarav); before refusing, a chain of two links
the schema allows and the words name is tried (`compose`). Whatever happens inside, `translate` returns a query: a question the
rules trip over gets the sentinel, never an exception.

>>> from course import Agent, OfflineLLM
>>> Agent(db, OfflineLLM()).answer("What is the weather in Delhi?").status
'out_of_scope'
"""
from __future__ import annotations

import logging
import re
from typing import Sequence

from course.foundation.language import THAT_ALONE, WORDS, sets_apart
from course.llm.offline.absent import absent_link
from course.llm.offline.chain import unfollowed
from course.llm.offline.chain_steps import every_step
from course.llm.offline.changes import asks_how_a_change_works, asks_when_done, change_verb
from course.llm.offline.comparisons import ONE_TO_THE_OTHER
from course.llm.offline.compose import compose
from course.llm.offline.conversation import follow_up, is_follow_up, readings
from course.llm.offline.coverage import unused
from course.llm.offline.cypher import valid
from course.llm.offline.filters import value_words_before
from course.llm.offline.hops import both_ways
from course.llm.offline.intents import INTENTS, Intent
from course.llm.offline.joined import unjoined
from course.llm.offline.lexicon import Lexicon, default_lexicon
from course.llm.offline.negation import negated
from course.llm.offline.ordering import in_the_order_asked
from course.llm.offline.plainly import without_comparisons
from course.llm.offline.prompt import Prompt
from course.llm.offline.said_of_a_group import all_of_a_group, fits_the_number_said
from course.llm.offline.reading import Reading, read, speaks_of_the_speaker
from course.llm.offline.rereadings import people_in_general, without_own_kinds
from course.llm.sentinels import READ_ONLY_QUERY, SENTINEL_QUERY

log = logging.getLogger(__name__)


def unknown_attribute(reading: Reading) -> bool:
    """'Payal ki age', "Payal's boyfriend": an attribute the schema has no word for."""
    lex = reading.lexicon
    known = lex.known_after | set(lex.vocab) | lex.filler | {p for ps in reading.schema.labels.values() for p in ps}
    for word in re.findall(r"§\d+(?:'s| ka| ki| ke) ([a-z]+)", reading.text) + \
            re.findall(r"\b([a-z]+) of §\d+", reading.text):
        if word in known or any(re.search(t, word) for t in lex.all_patterns):
            continue
        return True
    return False


def unknown_words(reading: Reading) -> list[str]:
    """Words the rules do not know: no cue, label, property or listed value accounts for them.

    A question with one ("Who is the smartest student?") gets the sentinel: better to say
    "I can't answer that" than to answer another question.
    """
    schema, lex = reading.schema, reading.lexicon
    known = set(lex.vocab) | lex.filler | lex.known_after | set(lex.ordinals) | {w.lower() for w in schema.labels}
    known |= {p.lower() for ps in schema.labels.values() for p in ps}
    known |= {p.type.lower() for p in schema.patterns} | {q for p in schema.patterns for q in p.props}
    for values in [*schema.values.values(), *schema.scales.values()]:
        known |= {w for v in values for w in re.findall(r"[a-z]+", str(v).lower())}
    # "aren't", "don't", "can't": the verb is "are", "do", "can" (the n belongs to "not"); a
    # prefix the patterns join to a word ("sub-?topics?") is known before a hyphen, not alone
    prefixes = {w for p in lex.all_patterns for w in re.findall(r"([a-z]{2,})-", p)}
    text = re.sub(rf"\b(?:{'|'.join(sorted(prefixes)) or '(?!)'})-(?=[a-z])", " ", reading.text)
    words = [w if not nt or w in known else w[:-1]
             for w, nt in re.findall(r"(?<![§\w'])([a-z]+)('t\b)?", text)]
    known |= value_words_before(reading)   # "the DevOps engineer": a value's own word
    return [w for w in dict.fromkeys(words) if w not in known and len(w) > 1
            and not any(re.search(p, w) for p in lex.all_patterns)]


# The intents that compare two things: the only ones that may answer a "pairing" question.
PAIRING_INTENTS = ("in common", "shared with someone")


def build(reading: Reading, intents: Sequence[Intent] = INTENTS) -> tuple[str, str] | None:
    """(intent name, query) from the first intent whose cue is present and whose builder fits."""
    for name, cue, builder in intents:
        if cue is not None and not reading.has(cue):
            continue
        query = builder(reading)
        if query:
            return name, in_the_order_asked(reading, query)
    return None


def translate(prompt: Prompt, *, lexicon: Lexicon | None = None,
              intents: Sequence[Intent] = INTENTS) -> tuple[str, str]:
    """(intent name, Cypher) for a parsed prompt; the sentinel when no intent fits, or when
    the rules trip over the question (logged for a developer)."""
    try:
        return _translate(prompt, lexicon or default_lexicon(), intents)
    except Exception:  # noqa: BLE001 - a question must never crash the provider
        log.exception("the offline rules failed on %r", prompt.question)
        return "rules failed (a bug; see the log)", SENTINEL_QUERY


def asked(question: str, lexicon: Lexicon) -> str:
    """The question without the words before its question word when they ask nothing ("I want
    to know", "ok so", "bro"): what it asks.

    >>> asked("I want to know who Aarav is friends with", default_lexicon())
    'who Aarav is friends with'
    >>> asked("I have a chart of which courses depend on which", default_lexicon())[:6]
    'I have'
    """
    words = question.split()
    first = lexicon.opening([w.lower().strip(",.!") for w in words])
    return " ".join(words[first:]) if first else question


def _translate(prompt: Prompt, lexicon: Lexicon, intents: Sequence[Intent]) -> tuple[str, str]:
    # ("Of those, who ...": the choice is no opening that asks nothing, but "who of those")
    # (a comparison from the learner's world, "like two batsmen at the crease", asks nothing)
    question = asked(Lexicon.choice_in_front(without_comparisons(prompt.question, lexicon)), lexicon)
    reading = people_in_general(read(question, prompt.linked, prompt.schema, lexicon))
    reading.relaxed = bool(prompt.hint and "0 rows" in prompt.hint)
    if prompt.hint and "Safety violation" in prompt.hint:
        return "refused after a blocked query", READ_ONLY_QUERY   # as the hint asks
    names = [str(e.value) for _, e in prompt.linked]
    changes = change_verb(reading.text) is not None
    if changes and asks_how_a_change_works(prompt.question.lower(), names):
        return "a question about a change, not a request", SENTINEL_QUERY   # not for a query
    if changes and not asks_when_done(prompt.question):   # "when was it set up?"
        return "write request", READ_ONLY_QUERY
    if unknown_attribute(reading) or reading.has("place"):
        return "unknown attribute", SENTINEL_QUERY
    if reading.has("negation"):       # "not finished": the other values; any other "not": refused
        reading = negated(reading) or reading
    if reading.has("negation") and not reading.has("opinion"):   # "no note", "not in any club"
        lacking = absent_link(reading)
        if lacking and valid(lacking, prompt.schema) and not unknown_words(reading) \
                and unused(reading, lacking) is None:
            return "without a link", lacking
    if reading.has("negation") or reading.has("opinion"):
        return "not supported (negation or opinion)", SENTINEL_QUERY
    if reading.has("all_of"):        # "who has all the skills §0 needs": not any one of them
        return "not supported (every one of a kind)", SENTINEL_QUERY
    speaker = speaks_of_the_speaker(reading)
    if speaker:                       # "what are my subjects?": everyone's rows would be wrong
        return f"{speaker!r} names no one", SENTINEL_QUERY
    unknown = unknown_words(reading)
    if unknown:
        return f"unknown word {unknown[0]!r}", SENTINEL_QUERY
    if is_follow_up(reading) and prompt.turns:
        reading = follow_up(prompt, reading)
    elif THAT_ALONE.search(reading.text):     # "how many topics is that?": of what came before,
        return "'that' with nothing before it", SENTINEL_QUERY    # not of every topic
    refusal = "not understood"
    candidates = [all_of_a_group(c) for c in readings(prompt, reading)    # ("all of them": each one)
                  if fits_the_number_said(c)]       # ("those two" of three: no reading)
    candidates += [other for c in candidates if (other := without_own_kinds(c)).text != c.text]
    for i, candidate in enumerate(candidates):
        found = build(candidate, intents)
        if found and candidate.has("whole_chain") and (steps := every_step(found[1])):   # "even indirectly"
            found = (f"{found[0]}, every step", steps)
        if found and valid(found[1], prompt.schema):
            wrong = objection(candidate, *found)
            if wrong is None:
                return found
            refusal, candidates = f"{found[0]}, but {wrong}", candidates[:i + 1]
            if wrong.startswith(BOTH_WAYS):
                return refusal, SENTINEL_QUERY     # no chain follows words that contradict
            break
    if reading.has("second_ask"):     # one chain answers one ask, never two fused into one
        return refusal, SENTINEL_QUERY
    for candidate in candidates:      # before refusing: a chain of links the words name
        chain = compose(candidate, lambda r, q: valid(q, prompt.schema) and objection(r, "", q) is None)
        if chain is not None:
            return "a chain composed from the schema", chain
    return refusal, SENTINEL_QUERY


def _cannot_do(reading: Reading) -> tuple[str, str] | None:
    """(the kind, the verb) when "what does §0 <verb>" names a link §0's kind only ever
    receives ("What does TCP/IP cover?": a subject covers a concept, never the other way), else
    None: read the other way round, the question would be answered with what covers it."""
    for m in re.finditer(r"\b(?:do|does|did)\s+§(\d+)\s+([a-z]+)", reading.text):
        if int(m[1]) >= len(reading.entities):
            continue
        label = reading.entities[int(m[1])].label
        if any(re.fullmatch(reading.lexicon.label(kind), m[2]) for kind in reading.schema.labels):
            continue     # "what do §0 members study": a noun of the name's, not its verb
        named = [p for p in reading.schema.patterns
                 if (regex := reading.lexicon.relation(p.type)) and re.fullmatch(regex, m[2])]
        if named and all(p.start != label for p in named) and any(p.end == label for p in named):
            return label, m[2]
    return None


BOTH_WAYS = "the words point both ways"   # an objection no other chain can answer


def _chooses_among_unnamed(reading: Reading) -> bool:
    """A choice among things the question does not name ("dono mein se kaun", "which of
    them"), left as it was said: the conversation did not say whom, so any rows would be
    everyone's."""
    asked, labels = reading.targets()[:1], [e.label for e in reading.entities]
    if any(isinstance(e.value, tuple) or e.label in asked or labels.count(e.label) > 1 for e in reading.entities):
        return False     # "which of those ... each of X, Y and Z": named after all
    pointers = "|".join(map(re.escape, sorted({*WORDS.all_of_them, *WORDS.plural_demonstrative, "them"})))
    return bool(re.search(rf"\b(?:{pointers})\s+(?:{reading.cue('among_after')})\b", reading.text)
                or re.search(rf"(?:{reading.cue('among')})\s+(?:{pointers})\b", reading.text))


def _lists_for_a_yes_or_no(reading: Reading, query: str) -> bool:
    """Does the query list what is linked for a question that asks yes or no in English ("is
    ...", "does ...") of nothing whose being there it asks ("are there any ...", "does she have
    a project")?

    The projects answer "Does §0 work on a project?", but no one linked answers "Is a §0 log n
    or n?", nor a list of skills "does §0 have all the skills his project needs?" (what a thing
    is, its status, answers "Is §0 finished?")
    """
    quantified = re.search(r"\b(?:which|who|what)\b|\b(?:any\w*|there|some\w*|a|an)\b(?!\s+§)", reading.text)
    return bool(re.match(r"(?:is|are|was|were|does|do|did|has|have)\b", reading.text)) \
        and " AS answer" not in query and not quantified


def differs_by_a_kind(reading: Reading) -> bool:
    """"Which concept from a different subject is a prerequisite for §0?": "different" before a
    kind other than the one asked compares two things' links ("how many different topics" asks
    for the topics themselves)."""
    asked, lexicon = reading.targets()[:1], reading.lexicon
    return any(re.search(rf"\bdifferent\s+(?:{lexicon.label(label)})", reading.text)
               for label in lexicon.labels if label not in asked and lexicon.label(label))


def objection(reading: Reading, intent: str, query: str) -> str | None:
    """Why a query does not answer the question (a reason to refuse), or None."""
    left_out = unused(reading, query)
    if left_out is not None:
        return f"the query leaves out {left_out!r}"
    acting = _cannot_do(reading)
    if acting is not None:
        return f"a {acting[0]} never does what {acting[1]!r} names"
    step = unfollowed(reading.text, query, reading.lexicon)
    if step is not None:
        return f"the query does not follow {step!r}"
    loose = unjoined(reading, query)
    if loose is not None:
        return f"the query does not join {loose!r} to the name after it"
    loop = both_ways(reading, query)
    if loop is not None:
        return f"{BOTH_WAYS} along {loop}"
    # ("§0 vs §1, who is in a higher year?": the one of the two the comparison picks)
    if (reading.has("pairing") or reading.has("contrast")) and intent not in PAIRING_INTENTS \
            and not (intent == "which of them" and not reading.has("pairing")) \
            and not (not reading.has("pairing") and _side_by_side(reading, intent, query)):
        return "the question compares two things"
    if _chooses_among_unnamed(reading):     # "dono mein se kaun ...": among whom, unresolved
        return "the question chooses among what came before"
    if reading.has("modal_about") and " AS answer" not in query:   # "can §0 help me?": not who else
        return "the question asks yes or no of the one it names"
    if reading.has("about_the_speaker"):     # "can I join §0?": not who is in it
        return "the question asks yes or no of the one asking"
    if intent in ("related nodes", "") and _lists_for_a_yes_or_no(reading, query):   # "": a chain
        return "the question asks yes or no"
    if re.match(r"(?:is|are|was|were|does|do|did|has|have)\s+(?:every|each|all)\b", reading.text) \
            and " AS answer" not in query:    # "Is every subject taken by ...?": of all, not a list
        return "the question asks whether every one does"
    if reading.has("reason_or_manner") and intent in ("related nodes", "list or filter", ""):   # "": a chain
        return "the question asks why or how, which a list of what is linked does not say"
    if reading.has("whole_chain") and intent != "learning path" and not intent.endswith("every step"):
        return "the question asks for every step of a chain, not the first"
    if reading.has("average") and intent != "average":   # "average grade": letters
        return "the question asks for an average"
    if differs_by_a_kind(reading):   # "a concept from a different subject": no rule compares two links
        return "the question compares what two things link to"
    if sets_apart(reading.text) and "<>" not in query:   # "who else is in it?": else than whom?
        return "the query leaves out who 'else' sets apart"
    if _someone_else_for_the_named(reading, query):
        return "the query reads 'he' or 'she' as someone other than the one named"
    if ONE_TO_THE_OTHER.search(reading.text):   # "is one of them a prerequisite for the other?"
        return "the question asks how two things stand to each other"
    if _advice_read_as_fact(reading, query):    # "which subject should §0 have studied before §1?"
        return "the question asks what ought to be, and the query reads what is"
    if (kind := _things_for_who(reading, query)) is not None:
        return f"'who' asks for people, and the query lists a {kind}'s names"
    return None


def _advice_read_as_fact(reading: Reading, query: str) -> bool:
    """Does the query take a link from someone named after "should" or "must" ("which subject
    should §0 have studied before §1?": what ought to be studied, not what §0 studies)?"""
    return any(re.search(rf"\(x{m[1]}:\w+[^)]*\)<?-\[", query)
               for m in re.finditer(r"\b(?:should|must|ought to)\s+§(\d+)\s+(?:have\s+)?[a-z]+", reading.text)
               if int(m[1]) < len(reading.entities) and reading.entities[int(m[1])].label == reading.person)


def _things_for_who(reading: Reading, query: str) -> str | None:
    """The label of the names a query lists for a question asked with "who" ("who among the
    workshop's members has used the lathe?" answered with the workshop's name; "kis kis ke paas
    hai?"), or None: people among them (or a kind without words in the lexicon), a count, or no
    "who" asked."""
    # (the ask's first word, not a relative "who": "students who study §0 work on which projects?")
    first = re.sub(r"^(?:(?:and|so|also|ok|then|but)\s+)+", "", reading.text).split(" ", 1)[0]
    first = "who" if re.search(r"\bkis(?:\s+kis)?\s*ke\s+paas\b|\bkisne\b", reading.text) else first
    returned = query.rsplit("RETURN", 1)[-1] if "RETURN" in query else ""
    labels = [found[1] for var in re.findall(r"\b(\w+)\.name\b", returned)
              if (found := re.search(rf"\({var}:(\w+)", query))]
    # (a person's name anywhere in the rows answers "who": "who's in each of X and Y" groups by club)
    things = [label for label in labels if label in reading.lexicon.labels and label != reading.person]
    return things[0] if first in ("who", "whom") and things and len(things) == len(labels) else None


def _side_by_side(reading: Reading, intent: str, query: str) -> bool:
    """Does the query set a property of each thing compared beside its name ("compare Aarav's
    and Payal's DBMS grades": each one's grade, named)? That is the comparison's data."""
    named = [e for e in reading.entities if not isinstance(e.value, tuple)]
    compared = {e.label for e in named if sum(f.label == e.label for f in named) > 1}
    return intent in ("property of a link", "property or profile") and len(compared) == 1 \
        and re.search(r"\bIN \[", query) is not None and re.search(r"\.name AS \w+,", query) is not None


def _someone_else_for_the_named(reading: Reading, query: str) -> bool:
    """"§0's grades in all her subjects + what skills does she have": "she" in a later ask, after
    the one person named, is that person, never another one a chain reaches (her classmates'
    skills)."""
    # a later ask's subject ("+ what skills does she have"; not "her project", nor "the people
    # she's friends with": the chain is hers)
    pronoun = re.search(r"(?:[+&,;?]|\band\b|\balso\b)\s+(?:\w+\s+){0,3}?(?:he|she)\b", reading.text)
    named = [e for e in reading.entities if e.label == reading.person and not isinstance(e.value, tuple)]
    people = re.findall(rf"\(\w+:{re.escape(reading.person)}\b", query)
    return pronoun is not None and len(named) == 1 and len(people) > 1 \
        and re.search(r"§\d+", reading.text[:pronoun.start()]) is not None
