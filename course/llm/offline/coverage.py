"""Refuse rather than half-answer: every word that names something must reach the query.

Used by the offline provider (notebooks 05 and 09). A word of the question that names a label,
a relationship, a property, a listed value, a number, an ordinal ("first", "oldest") or a
comparison (`>`, "more than", "at least") is either used by the query, or the question gets
the sentinel: "Who is best at DBMS and which clubs is she in?" must not come back as the
ranking alone. A question with two asks ("X, and Y?", "X aur Y?") must have each ask's nodes
or properties among the columns the query returns.

>>> from course.llm.offline.prompt import Entity, parse_schema, SCHEMA_EXAMPLE
>>> from course.llm.offline.reading import read
>>> reading = read("Who knows Zoya, and what is her year?", [("zoya", Entity("Person", "name", "Zoya"))],
...                parse_schema(SCHEMA_EXAMPLE))
>>> unused(reading, "MATCH (t:Person)-[:KNOWS]->(:Person {name: 'Zoya'}) RETURN t.name AS person")
'year'
"""
from __future__ import annotations

import re
from collections.abc import Set
from dataclasses import dataclass, field

from course.foundation.language import WORDS
from course.llm.offline.aggregates import extreme_pick
from course.llm.offline.comparisons import compares_named
from course.llm.offline.cypher import lit, returned
from course.llm.offline.filters import filter_values, value_words_before
from course.llm.offline.numbers import compares_its_number, numbers, threshold
from course.llm.offline.lexicon import Lexicon, default_lexicon
from course.llm.offline.ordering import asked_order
from course.llm.offline.reading import Reading
from course.llm.offline.scale_ranges import a_choice_of_values, in_range, says_a_range


@dataclass
class Used:
    """What a query names: labels, relationship types, properties, literals and operators."""

    labels: set[str] = field(default_factory=set)
    types: set[str] = field(default_factory=set)
    props: set[str] = field(default_factory=set)
    literals: str = ""
    ops: set[str] = field(default_factory=set)
    extreme: bool = False

    @classmethod
    def of(cls, query: str) -> Used:
        types = set(re.findall(r"\[\w*:(\w+)", query))
        for listed in re.findall(r"relTypes: \[([^\]]*)\]", query):
            types |= set(re.findall(r"'(\w+)'", listed))
        bare = re.sub(r"<-\[[^\]]*\]-|-\[[^\]]*\]->|-\[[^\]]*\]-|<-|->", " ", query)
        # "count(r) > 0", "min(links) > 0": whether a link exists, no comparison of the question's
        bare = re.sub(r"\b(?:count|min)\(\w*\) > 0\b", " ", bare)
        return cls(labels=set(re.findall(r"\(\w*:(\w+)", query)), types=types,
                   props=set(re.findall(r"\.(\w+)\b", query)) | set(re.findall(r"\{(\w+):", query)),
                   literals=query, ops=set(re.findall(r"<>|>=|<=|>|<", bare)),
                   extreme=bool(re.search(r"\b(min|max)\(|ORDER BY", query)))


def in_the_learners_clause(reading: Reading, start: int, end: int) -> bool:
    """A relationship word in the learner's own clause: "should I study", "padhna chahiye",
    or a gerund after "before" or "after" once the learner speaks, or no person is named
    ("should I finish before taking §0": the learner's taking), or Hindi's verbal noun before
    "se pehle" ("§0 padhne se pehle") or "hai" ("kya padhna hai", "kaunse padhne hain")."""
    regex, before, word = reading.cue("learner"), reading.text[:start], reading.text[start:end]
    if re.fullmatch(rf"{reading.cue('direction_in')}|{reading.cue('next')}", word):
        return False    # "the subject you need to do before §0": "before" is the link, no verb
    # (no one named: "which subject should be done before taking §0" is the learner's too)
    gerund = word.endswith("ing") and re.search(r"\b(?:before|after)\s+$", before) \
        and (re.search(r"\b(?:i|me|we|you|someone|one)\b", before)
             or all(e.label != reading.person for e in reading.entities))
    # "§0 padhne se pehle": the verbal noun of a time clause, Hindi's "before taking §0"
    verbal_noun = word.endswith("ne") and re.match(r"\s+(?:se|ke)\s+(?:pehle|baad)\b", reading.text[end:]) \
        or word.endswith(("na", "ne", "ni")) and re.match(r"\s+(?:hai|hain|h|ho)\b", reading.text[end:])
    # ("kya padhna hai", "kaunse topics padhne hain": what is to be studied, of any number)
    return bool(re.search(regex, before) or re.match(regex, reading.text[end:]) or gerund or verbal_noun)


def _named_again_as(reading: Reading, after: str, used: Used) -> bool:
    """Does "as a <link the query takes>" say what the verb before it is ("which topics need
    §0 as a prerequisite?": the need is the prerequisite)?"""
    taken = "|".join(r for t in used.types if (r := reading.lexicon.relation(t)))
    said_as = rf"\s+(?:§\d+|it|them)\s+as\s+(?:an?\s+|the\s+)?(?:{taken})"
    return bool(taken) and re.match(said_as, after) is not None


def _joins_asked(reading: Reading, rel_type: str) -> bool:
    """Does a link of this type join a name's kind to the kind asked for? Then the learner's
    verb is that link ("what skills do I need to work on §0": what the project needs)."""
    named, asked = {e.label for e in reading.entities}, set(reading.targets())
    return any(p.type == rel_type and p.start != p.end and
               (p.start in named and p.end in asked or p.end in named and p.start in asked)
               for p in reading.schema.patterns)


def _no_other_end(reading: Reading, rel_type: str, used: Used) -> bool:
    """A link word with no other end, in a question a node's own properties answer: "In which
    year of study is §0 enrolled?" names a link to a subject, but no subject is named or asked
    for; the student's own year is the answer, and the word says nothing more."""
    if used.types:
        return False
    named = {e.label for e in reading.entities}
    ends = {end for p in reading.schema.patterns if p.type == rel_type for end in (p.start, p.end)}
    others = ends - named
    spoken = {label for label in others if re.search(reading.lexicon.label(label), reading.text)}
    return bool(ends & named) and bool(others) and not spoken and not others & set(reading.targets())


def _of_a_value(reading: Reading, end: int, used: Used) -> bool:
    """A link word whose object is a value of a property the query filters by ("enrolled in
    the IT branch", "belong to the IT branch"): the node's own property, no link to follow."""
    after = reading.text[end:]
    return any(key.split(".")[1] in used.props and re.match(
        rf"\s+(?:in|to|into|from|under|of)\s+(?:the\s+|an?\s+)?{re.escape(str(v))}\b", after, re.I)
        for key in reading.schema.values for v in filter_values(reading, key))


def _words(reading: Reading, text: str, used: Used) -> list[tuple[str, bool]]:
    """(word, used?) for each word of `text` that names a label, relationship or property."""
    lex, schema = reading.lexicon, reading.schema
    meanings: list[tuple[int, int, str, bool]] = []

    def note(m: re.Match[str], ok: bool) -> None:
        meanings.append((m.start(), m.end(), m[0], ok))

    types = {p.type for p in schema.patterns}
    props = {q for ps in schema.labels.values() for q in ps} | {q for p in schema.patterns for q in p.props}
    for label in schema.labels:
        for m in re.finditer(lex.label(label), text):   # ("the student clubs": the clubs')
            # ("§0, which clubs are her friends in?": a person's noun that is a link's word, the link)
            link = label == reading.person and any(re.fullmatch(r, m[0]) for t in types - used.types
                                                   if (r := lex.relation(t)))
            kind = label in used.labels or (reading.describes_a_kind(m, label) or "") in used.labels
            note(m, kind and not link)
    for rel_type in types:
        regex = lex.relation(rel_type)
        for m in re.finditer(regex, text) if regex else ():
            before_number = bool(re.match(r"\s+\d", text[m.end():]) or compares_its_number(reading, m.end())) \
                and bool(used.ops)   # "before 2016", "2016 se pehle"
            # (the learner's verb says nothing of the graph, but what it is for must be named:
            # "which skills do I need?" is not every skill)
            learner = in_the_learners_clause(reading, m.start(), m.end()) \
                and not _joins_asked(reading, rel_type) and bool(reading.entities)
            alone = _no_other_end(reading, rel_type, used) or _of_a_value(reading, m.end(), used)
            note(m, rel_type in used.types or before_number or learner or alone
                 or _named_again_as(reading, text[m.end():], used))
    for prop in props:
        for m in re.finditer(lex.prop(prop), text):
            note(m, prop in used.props)
    loops = {p.type for p in schema.patterns if p.start == p.end}
    for m in re.finditer(reading.cue("next"), text):     # "next", "aage": along a same-label link
        note(m, bool(loops & used.types) or bool(re.match(r"\s+\d", text[m.end():]) and used.ops))
    for m in re.finditer(reading.cue("when"), text):     # "what year" asks a `when` property,
        if any(re.search(lex.prop(prop), m[0]) for prop in props):   # not a year of its own
            note(m, bool(used.props & set(lex.when)))
    for prop, regex in lex.value_words.items():          # "team lead": a value of `prop`
        chosen = a_choice_of_values(text, regex) and prop in used.props   # ("finished or going on?")
        for m in re.finditer(regex, text) if regex else ():
            note(m, chosen or bool(re.search(rf"\.{prop}\)? (=|IN|CONTAINS)", used.literals)))
    # a word used in any meaning (any match overlapping it) is used: "needed for" the skills
    return [(word, ok or any(o and a < end and start < b for a, b, _, o in meanings))
            for start, end, word, ok in sorted(meanings)]


def unused(reading: Reading, query: str) -> str | None:
    """The first word the query leaves out (a reason to refuse), or None when it uses them all."""
    used = Used.of(query)
    for word, ok in _words(reading, reading.text, used):
        if not ok:
            return word
    for word in value_words_before(reading):    # "the vice president": not the president
        if word not in used.literals.lower():
            return word
    for regex in reading.lexicon.value_words.values():   # "the lead engineer": one value, not
        spans = [m.span() for m in re.finditer(regex, reading.text)] if regex else []   # two
        for (start, end), (after, stop) in zip(spans, spans[1:]):
            phrase = reading.text[start:stop]
            if not reading.text[end:after].strip() and phrase not in used.literals.lower():
                return phrase
    # "Is X finished?", "what is its status, is it started yet?": its status answers it
    whether = re.search(r"\b(?:is|are|was|were|has|have) (?:the )?(?:it|they|§\d+)(?: [\w'-]+){1,3}\W*$",
                        reading.text)
    answering = returned(query)[1] if reading.has("yes_no") or whether else set()
    for key in [*reading.schema.values, *reading.schema.scales]:
        prop, said = key.split(".")[1], filter_values(reading, key)
        chosen = a_choice_of_values(reading.text, reading.lexicon.value_words.get(prop)) \
            and prop in returned(query)[1]
        for value in said:   # or the same property of another link
            if lit(value) not in used.literals and not re.search(rf"\.{prop}\)? (=|IN|CONTAINS)", used.literals) \
                    and prop not in answering and not chosen:
                return str(value)
    for value, op in numbers(reading):
        shown = rf"{re.escape(op)} {value}\b" if op != "=" else rf"(= |IN \[[^\]]*){value}\b"
        if not re.search(shown, used.literals):
            return str(value)
    limit = threshold(reading)
    if limit and re.search(reading.lexicon.comparing, reading.text) \
            and f"{limit[0]} {limit[1]}" not in used.literals:
        return f"{limit[0]} {limit[1]}"
    if (compared := re.search(reading.lexicon.comparing, reading.text)) and not used.ops - {"<>"} \
            and not _a_range_asked(reading, used):
        return compared[0]
    props = "|".join(reading.lexicon.properties.values()) or r"(?!)"
    for m in re.finditer(r"\b(" + "|".join(map(re.escape, reading.lexicon.ordinals)) + r")\b", reading.text):
        extreme_word = any(re.fullmatch(regex, m[0]) for regex in reading.lexicon.extremes.values())
        if not extreme_word and not re.match(rf"[\s-]+(?:{props})", reading.text[m.end():]):
            return m[0]                        # "founded second": no rule ranks by position
    for regex in reading.lexicon.extremes.values() if not used.extreme else ():
        for m in re.finditer(regex, reading.text):      # "their last year": no number, no order
            if m[0] not in reading.lexicon.ordinals \
                    and re.match(rf"[\s-]+(?:{props})", reading.text[m.end():]):
                return m[0]
    if extreme_pick(reading) and not used.extreme:
        return "first / last"
    if any(reading.has(c) for c in ("higher", "lower", "better", "worse")) and compares_named(reading) \
            and not used.extreme and not says_a_range(reading.text):   # "which of them is older?", "...
        # is better?": one of them, not both (not "an A or better": a range)
        return "which of them"
    ranked = re.search(reading.cue("superlative"), reading.text)
    if ranked and not used.extreme:                   # "the best at §0 and §1": no ranking
        return ranked[0]
    if (reading.has("excluding") or reading.excluded) and "<>" not in used.ops:
        return "else"     # "how many besides §0 ...": a query that leaves no one out is not it
    ordered = asked_order(reading)
    if ordered and not re.search(r"\bORDER BY\b|\bSPpaths\b", query):
        return ordered       # "give me an order to take the courses in": a list in no order is not it
    # "kya §0 ne §1 ka prerequisite padha hai?", "§0 OS padh raha hai, kya usne ...": a list of
    # subjects is no yes (the ask is the last clause; a leading "kya" asks yes or no, no list); a
    # property returned may answer it ("is the chatbot done yet?", "kya status hai"), or what two share
    ask = re.split(r"[,;.]\s+", reading.text.strip())[-1].strip()
    listing = re.search(reading.cue("asking"), re.sub(r"^kya\b", "", ask))
    matched_by = set(re.findall(r"\{(\w+): '", query)) | set(re.findall(r"(\w+)\) CONTAINS", query))
    names_only = returned(query)[1] <= matched_by     # (the names the query matches things by)
    if re.search(reading.cue("yes_no"), ask) and not whether and not re.search(r"\bAS answer\b", query) \
            and not reading.has("generic") and not listing and names_only and not returned(query)[2] \
            and not reading.has("shared"):     # ("are §0 and §1 in the same club?": the one they share)
        return "yes or no"
    return _what_is_returned(reading, query, used, props) or _second_ask(reading, query)


def _what_is_returned(reading: Reading, query: str, used: Used, props: str) -> str | None:
    """The words that say what the answer is, when the query returns something else: the kind
    (or the property) after "which", a number for "how many", a ranking for "the most", a
    count for "more"."""
    kinds_returned, _, counted = returned(query)
    for kind in reading.schema.labels:
        which = re.search(rf"(?:{reading.cue('which')})\s+(?:[a-z]+\s+)?(?:{reading.lexicon.label(kind)})",
                          reading.text)   # ("which smaller topics": a word may stand between)
        if which and kinds_returned and kind not in kinds_returned and not counted:
            return which[0]   # "which students are in §0's club": not the club
    requests = "|".join(sorted(WORDS.requests))   # "list the members of ...": as "which members"
    request = re.match(rf"\s*(?:{requests})\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?([a-z]+)", reading.text)
    requested = next((k for k in reading.schema.labels if request
                      and re.fullmatch(reading.lexicon.label(k), request[1])), None)
    if request and requested and kinds_returned and requested not in kinds_returned and not counted:
        return request[0].strip()
    # "what grade did §0 get with?": a grade, not classmates (any property the words after the
    # "which" word may mean: "in which year did §0 join" is a year of joining)
    for m in re.finditer(rf"(?:{reading.cue('which')})\s+", reading.text):
        meant = [p for p, words in reading.lexicon.properties.items() if words and any(
            w.start() <= m.end() < w.end() for w in re.finditer(words, reading.text))]
        if re.match(reading.cue("when"), reading.text[m.start():]):   # "what year": or a date
            meant += list(reading.lexicon.when)
        if meant and not any(f".{p}" in query for p in meant):
            return reading.text[m.start():m.end()] + meant[0]
    counts = bool(re.search(r"\b(?:count|sum|size)\(", query, re.IGNORECASE))
    ranked_count = re.search(rf"(?<!at )(?:{reading.cue('most')})|{reading.cue('least')}", reading.text)
    after = re.match(r"\s+([\w+-]+)", reading.text[ranked_count.end():]) if ranked_count else None
    # "most advanced": the top value; "the most A or A+ grades": how many, each student's count
    rest = reading.text[ranked_count.end() + after.end():] if ranked_count and after else ""
    counted_values = re.match(r"\s+(?:or\s+\S+|[a-z]+s)\b", rest) is not None
    top_value = after is not None and f"'{after[1].lower()}'" in query.lower() and not counted_values
    if ranked_count and not (counts or used.extreme or top_value):
        return ranked_count[0]          # "which branch has the most students": not a list
    things = "|".join(f"(?:{r})" for r in [*reading.lexicon.labels.values(),
                                           *reading.lexicon.relationships.values()] if r)
    more = re.search(rf"\b(?:more|fewer|less)\s+(?:{things})", reading.text) if things else None
    better = used.extreme and (reading.has("better") or reading.has("worse"))   # "more skilled": on a scale
    if more and not (counts or used.ops - {"<>"} or better):      # "more skills, §0 or §1?": how many
        return more[0]
    # "how many people" is a count; "how many credits", "credits kitne" a number the graph holds
    counting = re.search(reading.cue("count"), reading.text)
    if counting and not counts and not re.match(rf"\s+(?:{props})", reading.text[counting.end():]) \
            and not re.search(rf"(?:{props})\s+$", reading.text[:counting.start()]) \
            and not re.match(rf"(?:{props})", reading.text[counting.start():]):   # "kitna aata": a level
        return counting[0]
    return None


# ("a b plus": a value said aloud, no join)
_JOINS = r"(?:,?\s+(?:and|aur|also|then|phir)\s+|(?<!\b[a-zA-Z]),?\s+plus\s+|;\s*|\?\s+(?=\S))"


def asks(reading: Reading) -> list[str]:
    """The parts of the question that each ask something ("who ...", "list ...", "kaun ...").

    One query answers one ask: a question with two is for the agentic agent (notebook 12).
    """
    parts = [p.strip() for p in re.split(_JOINS, reading.text) if p.strip()]
    return [p for p in parts if re.search(reading.cue("asking"), p)]


def properties_only(ask: str, lexicon: Lexicon, *, pronouns: bool = False) -> list[str]:
    """The properties an ask names when it names nothing else ("and at what level?",
    "aur kis role mein?": it asks them of what the ask before it finds); else []. With
    `pronouns`, a pronoun names nothing else either ("and what is her branch?": of whom the
    query is about; a follow-up's "it" may be another thing, so only a query's check says so).

    >>> lexicon = default_lexicon()
    >>> properties_only("and at what level?", lexicon), properties_only("who is in it?", lexicon)
    (['level'], [])
    >>> properties_only("and what is her branch?", lexicon, pronouns=True)
    ['branch']
    >>> properties_only("and as what?", lexicon), properties_only("and how good?", lexicon)
    (['role'], ['level'])
    """
    asking = WORDS.question_words | WORDS.auxiliary | {w for c in WORDS.conjunctions for w in c.split()}
    function = asking | WORDS.function | WORDS.pronoun_nouns | (WORDS.pronouns if pronouns else set())
    words = _without_a_request(re.findall(r"[\w+#§]+", re.sub(r"'s\b", " is", ask.lower())), function, lexicon)
    rest = " ".join(w for w in words if w not in function)
    if not rest:     # "and as what?": a property said in function words alone (a role)
        return [p for p, regex in lexicon.properties.items() if regex and re.search(regex, " ".join(words))]
    named = [p for p, regex in lexicon.properties.items() if regex and re.search(regex, rest)] or \
        [p for p, regex in lexicon.properties.items()       # ("how good": a question word of the property's)
         if regex and re.search(regex, " ".join(words))]
    if re.match(r"\s*(?:and\s+|aur\s+)?which\b", ask.lower()) and any(
            re.search(lexicon.value_words.get(p) or r"(?!)", ask.lower()) for p in named):
        return []     # "and which is completed?": a choice by a value, not the status asked
    # what is left when the properties' own words are taken out ("year of study" holds "of")
    alone = "|".join(f"(?:{lexicon.properties[p]})" for p in named)
    left = re.sub(rf"\b(?:{alone})\b", " ", " ".join(words)) if named else rest
    return named if named and rest and set(left.split()) - asking <= function else []


def _without_a_request(words: list[str], function: Set[str], lexicon: Lexicon) -> list[str]:
    """The words less a request at either end ("kis level pe, bata do": "tell me"), which asks
    nothing of its own; not a request word that names a property ("and their name?").

    >>> _without_a_request(["kis", "level", "pe", "bata", "do"], {"kis", "pe", "do"}, default_lexicon())
    ['kis', 'level', 'pe', 'do']
    """
    def is_request(word: str) -> bool:
        english = WORDS.hindi_in_english.get(word, WORDS.shorthand.get(word, word))
        return english in WORDS.requests \
            and not any(regex and re.fullmatch(regex, word) for regex in lexicon.properties.values())
    meaning = [i for i, w in enumerate(words) if w not in function]
    ends = {meaning[0], meaning[-1]} if len(meaning) > 1 else set()
    return [w for i, w in enumerate(words) if not (i in ends and is_request(w))]


def _second_ask(reading: Reading, query: str) -> str | None:
    """For "X, and Y?": the second ask, when the question has two; else the first ask none
    of whose nodes or properties the query returns."""
    asked = asks(reading)
    if len(asked) >= 2:
        labels, props, _ = returned(query)
        # "... and at what level?" is answered when the level is a column of the first ask's query
        # ("at which level each?": each one's level), "... and in (at) which subject?" when they are
        def answered(ask: str) -> bool:
            # ("..., also in which semester in §2": the name the scope put after it is the query's)
            ask = re.sub(r"\s+(?:in|of|for)\s+§\d+(?=\s*\??\s*$)", "", ask)
            only = properties_only(re.sub(r"\s+each(?=\s*\??\s*$)", "", ask), reading.lexicon,
                                   pronouns=True)
            kind = re.fullmatch(r"\s*(?:and\s+)?(?:(\w+)\s+)?which\s+(\w+)(?:\s+each)?\s*\??\s*", ask)
            kind = kind if kind and (kind[1] or "in") in WORDS.prepositions else None   # ("at which skill")
            kinds = {label for label in reading.schema.labels
                     if kind and re.fullmatch(reading.lexicon.label(label), kind[2])}
            return bool(only) and set(only) <= props or bool(kinds) and kinds <= labels
        pending = [ask for ask in asked[1:] if not answered(ask)]
        if pending:
            return pending[0]
    cuts = [m.start() for m in re.finditer(reading.cue("second_ask"), reading.text)]
    if not cuts:
        return None
    labels, props, counts = returned(query)
    bounds = [0, *cuts, len(reading.text)]
    for start, end in zip(bounds, bounds[1:]):
        part = reading.text[start:end]
        named_labels = [label for label in reading.schema.labels
                        if re.search(reading.lexicon.label(label), part)]
        named_props = [p for p in {q for ps in reading.schema.labels.values() for q in ps}
                       | {q for p in reading.schema.patterns for q in p.props}
                       if re.search(reading.lexicon.prop(p), part)]
        if not named_labels and not named_props:
            continue
        count_asked = bool(re.search(reading.cue("count"), part))
        if not (set(named_labels) & labels or set(named_props) & props or (count_asked and counts)):
            return part.strip()
    return None


def _a_range_asked(reading: Reading, used: Used) -> bool:
    """Does the query ask for the values of a scale a comparison names ("at least a B": the
    IN list of A+ to B)?"""
    for key, scale in reading.schema.scales.items():
        found = filter_values(reading, key)
        ranged = in_range(reading.text, found[0], scale) if len(found) == 1 else None
        if ranged is not None and f"IN [{', '.join(map(lit, ranged))}]" in used.literals:
            return True
    return False
