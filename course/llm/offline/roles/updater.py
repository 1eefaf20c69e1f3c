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

from course.foundation.definitions import defined, only_how_said
from course.foundation.language import WORDS, language_of, question_key
from course.foundation.scenes import after_opening_clause
from course.llm.offline.chain_steps import NEXT_STEP, the_next_step
from course.llm.offline.lexicon import Lexicon, default_lexicon
from course.llm.offline.plainly import chosen_from, it_of_each
from course.llm.offline.roles.clauses import (AND_FIRST, DOES_A_NAME, FIRST_OF_A_LIST, IF_SO, LISTED, OWNED,
                                              REQUEST, RESTATED, WHOSE, as_question, cleft_fragment,
                                              describes_the_one, fragment, is_question, of_an_unsaid_kind,
                                              plain_request, says_only, sentences_that_ask, sets_the_scene,
                                              spelled_out, joins_no_asks, who_of_anyone, asks_within)
from course.llm.offline.roles.asides import (COUNT_OF_ASKS, ORDINALS, numbered_as_asks, remark_as_scene,
                                             scene_before_semicolon, without_asides, without_parentheses)
from course.llm.offline.roles.groups import (BOTH, Found, all_found, both_found, chooses_among, each_of,
                                             named_of_the_kind_asked, the_counted, the_counted_ones,
                                             the_listed_counted, the_ones, theirs_counted)
from course.llm.offline.roles.pointing import (a_thing_as_one, asks_for_several, each_of_several, each_one_found,
                                               every_one, exists, found_of_kinds, kind_of, last_thing_named,
                                               link_of_named, others_than_before, owners_in,
                                               owners_of, set_apart, stands_for, the_one_named)
from course.llm.offline.roles.correlatives import correlative_as_two_asks
from course.llm.offline.roles.elided import of_the_same, the_same_count
from course.llm.offline.roles.kinds import columns_of, kinds_only, names_a_kind
from course.llm.offline.roles.restated import asked_once
from course.llm.offline.roles.scope import in_scope
from course.llm.offline.roles.speaker import who_asks_said
from course.llm.offline.roles.topics import topic_first
from course.llm.offline.roles.words import (AUXILIARY, CONJUNCTIONS, HE_SHE, HINDI_CASE, PERSONAL,
                                            PLURAL, SOME, Named, asks_for_a_change, asks_its_name,
                                            asks_only_a_property, names_a_link, names_a_property_of, names_nothing,
                                            pronouns_in_full, reached_by_links, requested_after_its_object,
                                            tokens)


class RuleUpdater:
    """Splits a question into parts and rewrites later parts with what earlier ones found."""

    name, model = "Offline", "rules"

    def split(self, question: str) -> list[str]:
        """The atomic questions, in order; one part when the question is one question. A request
        to change the data is never split: it goes whole to be refused whole.

        >>> RuleUpdater().split("Payal kaun hai aur uske clubs kaunse hain?")
        ['Payal kaun hai?', 'uske clubs kaunse hain?']
        """
        if asks_for_a_change(question.lower()):
            return [question]
        question = chosen_from(it_of_each(question), default_lexicon())   # "for each of them, who studies it?"
        question = ORDINALS.sub(" ", without_parentheses(plain_request(numbered_as_asks(question))))   # "1) .."
        question = pronouns_in_full(question)     # "which clubs hes in"
        question = scene_before_semicolon(question)   # "X studies here; ..."
        question = IF_SO.sub(r"\1", who_asks_said(question))   # "i'm Sneha"
        # ("two things: ...", "first what is X, then ...")
        question = asked_once(FIRST_OF_A_LIST.sub("", COUNT_OF_ASKS.sub("", question)))
        question = correlative_as_two_asks(cleft_fragment(question))   # "and in which one was it?"; "jo, wo"
        # "X + Y", "X & Y" (not "O(V + E)")
        question = spelled_out(topic_first(re.sub(r"\s+[+&]\s+(?![^()]*\))", " and ", question)))
        question = remark_as_scene(question)     # "sorry long msg, can you ...": the scene
        pieces: list[str] = []
        joined_to_the_ask = False
        for piece in (s for p in re.split(r";|\?(?=\s*\S)", question) if p.strip()
                      for s in sentences_that_ask(p)):
            if pieces and (merged := who_of_anyone(pieces[-1], piece)) is not None:
                pieces[-1], joined_to_the_ask = merged, True   # "Did anyone get an A+? Who, and in which
                # subject?"
            elif pieces and RESTATED.match(piece) and is_question(tokens(RESTATED.sub("", piece)), opening=True):
                continue     # "... under graphs? like what does it include": said again, asked once
            elif pieces and (names_nothing(piece) and not of_an_unsaid_kind(piece, pieces[-1]) or fragment(piece)
                             or only_how_said(piece) or asks_its_name(piece) or describes_the_one(piece)):
                pieces[-1] = f"{pieces[-1]}?{piece}"     # "...? In which subject?", "...? the queue one"
            elif pieces and (nouns := kinds_only(piece)) and all(
                    re.search(rf"\b(?:which|what)\s+{re.escape(n)}\b", pieces[-1], re.I) for n in nouns):
                continue     # "... in which subjects? just subjects tell": the kind asked, said again
            elif pieces and (more := columns_of(piece, pieces[-1])):   # "Who has an Advanced skill?
                pieces[-1], joined_to_the_ask = f"{pieces[-1].rstrip()}, {more}", True   # Name and skill pls."
            else:
                pieces.append(piece)
        if len(pieces) > 1 and says_only(pieces[-1]):   # "... needs React? I did a little React.":
            said = pieces.pop().rstrip()                   # no part of its own, the last ask's scene,
            pieces[-1] = f"{pieces[-1]}? {said.lstrip()}" + ("" if said.endswith((".", "!")) else ".")
            # said as said (no "?" put after "I need to know if it'll kill my CGPA"): the ask is
            # asked again without it when its words leave the ask unread (`scene_and_ask`)
        parts = [p for piece in pieces for p in self._split_conjunctions(without_asides(piece.strip()))
                 if tokens(p)]
        if len(parts) == 1 and joined_to_the_ask:    # one ask, with what a sentence after it asked
            return [as_question(parts[0]) if "?" in question else parts[0]]
        if len(parts) <= 1:   # one ask: as written, less an aside after it
            asked = question.strip().rstrip("?").rstrip()
            kept = without_asides(asked) if len(pieces) == 1 else asked
            if kept == asked:
                return [question]
            return [kept + "?" if question.rstrip().endswith("?") else kept]
        return [as_question(p) if "?" in question else p for p in parts]

    def _split_conjunctions(self, text: str) -> list[str]:
        pattern = r",?\s+\b(" + "|".join(CONJUNCTIONS) + r")\b\s+|,\s+(?=\w)"
        for match in re.finditer(pattern, text, flags=re.I):
            left, right = text[:match.start()], text[match.end():]
            if left.count("(") > left.count(")"):
                continue     # "(the PCB, the states it moves through etc)": no ask of its own
            last = re.split(r"\s[-\u2013]\s|\s*\u2014\s*|[.!:]\s+", left)[-1]     # its last sentence
            head = re.split(pattern, right, maxsplit=1, flags=re.I)[0]    # (", simple words pls, and ...")
            asked_after = "," in last and is_question(tokens(last.rsplit(",", 1)[1]), opening=True) \
                and any(names_a_kind(w) for w in tokens(right)[:3])   # "If ..., why ..., and which topic"
            if sets_the_scene(tokens(last)) and not asked_after or only_how_said(head) \
                    or match[1] and joins_no_asks(match[1], last, right):
                continue
            last = after_opening_clause(last)      # "For the lab, which ...": the question
            # "Who took DSA, in which semester, and ...", "who got an A+ and in which subject, plus who
            # got a B?": one ask, then the next (not "... on which project, and in what role, is he ...?")
            after = re.search(pattern, right, flags=re.I)
            if after and (asks_only_a_property(right[:after.start()]) or fragment(right[:after.start()])
                          and not fragment(re.split(r"[,?]", right[after.end():])[0])) \
                    and not one_clause(right[after.end():]) and not (
                        after[1] and joins_no_asks(after[1], right[:after.start()], right[after.end():])):
                joined, rest = f"{left.strip()}, {right[:after.start()].strip()}", \
                    self._split_conjunctions(right[after.end():].strip())
                while rest and asks_only_a_property(rest[0]):     # "... and with what grade?"
                    joined, rest = f"{joined} and {rest[0]}", rest[1:]
                return [joined] + rest
            if NEXT_STEP.match(right):    # "..., and before that?": the step before, a part of its own
                return [left.strip(), right.strip()]
            shared = the_predicate(left, right)    # "In which year and which branch is Karan?"
            if shared:
                return [f"{left.strip()} {shared}"] + self._split_conjunctions(right.strip())
            if names_nothing(left) or names_nothing(right) or asks_only_a_property(right) \
                    or fragment(re.split(r"[?!.]\s", right)[0]) or columns_of(right, left):
                continue     # "Which, and when ...", "... and at what level?": one ask of the sentence
            # ("attendance tracker - whats its status, ...": the topic, then the question)
            opening = tokens(last)
            # a question (after a scene too: "the tree where ..., why is ..."), a request ("explain 2NF
            # and then what ..."), someone's things named ("aarav's grades in his subjects + who ..."),
            # things described ("the topics we need before indexing, which ...", "skills needed for X,
            # plus ..."), or a topic and how to say it ("2NF in plain words, and ...")
            asks = is_question(opening, opening=True) or OWNED.match(last) is not None or bool(defined(last)) \
                or (asked := REQUEST.match(last)) is not None and not asked[0].lower().startswith("what") \
                or LISTED.match(last) is not None or bool(opening) and names_a_kind(opening[0]) \
                or asks_within(last) or names_a_property_of(last) \
                or requested_after_its_object(opening)   # "X samjha de na, aur ..."
            if asks and (is_question(tokens(right), opening=False) or DOES_A_NAME.match(right)):
                return [left.strip()] + self._split_conjunctions(right.strip())
            request = REQUEST.match(left)
            asks_what = request is not None and request[0].lower().startswith("what")
            listed = (LISTED.match(right) or OWNED.match(right)) if request and not asks_what \
                else WHOSE.match(right)           # "what is X's year and her branch": hers only
            # ("list the clubs by age, the oldest first": the order of the one list)
            if request and listed and not re.match(r"(?i)the\s+\w+est\s+(?:ones?\s+)?(?:first|last)\b", right):
                return [left.strip()] + self._split_conjunctions(f"{request[0]}{right.strip()}")
            if request is None and (OWNED.match(last) or opening and names_a_kind(opening[0])) \
                    and WHOSE.match(right):   # "payal ke grades and also her skills", "subjects
                return [left.strip()] + self._split_conjunctions(right.strip())   # X takes and their ..."
        return [AND_FIRST.sub("", text).strip()]

    def rewrite(self, part: str, found: Sequence[Found], *, named: int = 0,
                properties: Mapping[str, Sequence[str]] | None = None,
                linked: Sequence[Named] = ()) -> str:
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
        again = asked_again(part, found, linked) or the_counted(part, found) or \
            the_listed_counted(part, found) or of_the_same(part, found, linked) or the_next_step(part, found) \
            or the_same_count(part, found, linked) or theirs_counted(part, found)
        if again is not None:   # "what about Payal?", "how many ..., and who are they?": the ask before
            return again
        # "of those, who ...": who of those; "which ones": of the kind found before
        part = the_ones(part := Lexicon.choice_in_front(part), found) or part
        if found and not re.search(r"\b(?:which|who|what)\s+of\s+th(?:ose|ese)\b", part, re.I):
            part = default_lexicon().those_as_them(part)   # "any of those at ...", not a choice
        grouped = each_of(part, found, named)   # "each of them", "both": every value found
        if grouped is None and BOTH.search(part):
            return both_found(part, found) or part   # "both" of one value found would be nonsense
        part = grouped or part        # then "their" is each one's: "each of A and B ... their X"
        words = part.rstrip().rstrip("?").split()
        reached = reached_by_links(part, properties)   # the kinds the part's verbs reach
        out: list[str] = []
        skip, named_once, placed = False, set[str](), set[str]()
        for i, word in enumerate(words):
            bare = word.lower().strip(",.!")
            nxt = words[i + 1].lower().strip(",.!?") if i + 1 < len(words) else ""
            if skip:
                skip = False
                continue
            if bare in ("woh", "wo", "vo") and "jo" in (w.lower() for w in out):
                out.append(word)     # "jo skill chahiye woh kiske paas hai": "woh" is what "jo" said
                continue
            if (apart := set_apart(bare, out, nxt, found)) is not None:    # "who else": besides
                out.append(apart)                                            # the one asked about
                continue
            said = stands_for("person", nxt, found) if bare[:-2] in HE_SHE and \
                bare.endswith("'s") else None
            if said is not None:           # "the club he's in": he is
                out.append(f"{said} is")
                continue
            after = " ".join(words[i + 1:]).lower()     # "..., and when did the club start?": the one
            if bare == "the" and (the_one := the_one_named(after, found, language_of(part))) is not None:
                out.append(the_one)
                skip = True
                continue
            # "project ko kaunsi skills chahiye?": Hinglish has no "the"; a kind's noun bare
            # before a case ending, first in its part, is the one named before
            if not out and nxt in set(HINDI_CASE.values()) and language_of(part) == "hi" \
                    and (the_one := the_one_named(" ".join(words[i:]).lower(), found, "hi")) is not None:
                out.append(the_one)
                continue
            if a_thing_as_one(bare, out, nxt) and (thing := last_thing_named(found)) is not None:
                out.append(thing)        # "what is an index, and the trade-off in using one?"
                continue
            kind = kind_of(bare, nxt, out[-1].lower() if out else "")
            one = kind == "that" and nxt in WORDS.pronoun_nouns   # "that one": what "it" is
            kind = "one" if one else kind
            owners = owners_of(nxt, properties) if bare not in WORDS.third_person else None
            if owners is None and kind == "person" and bare in PERSONAL - WORDS.third_person:   # "woh ... kaam karta"
                owners = reached
            # "who knows it", "who works on it": a skill, a project; not after a preposition no
            # verb takes ("who on each of them knows it")
            objects = reached if not (i and words[i - 1].lower() in WORDS.prepositions
                                      and not (i > 1 and names_a_link(words[i - 2], words[i - 1]))) else set()
            verb_says = kind == "it" and owners is None and objects
            value = (named_of_the_kind_asked(part, found) if kind in ("it", "its") else None) or \
                (link_of_named(nxt, found, properties) if kind == "that" else None) or \
                (stands_for("it", nxt, found, bare, objects) if verb_says else None) or \
                (stands_for(kind, nxt, found, bare, owners) if kind else None)
            if value is None and kind in ("it", "its"):   # "every project ..., the skills it needs"
                kinds = objects or owners     # ("it" is never people: "who works on it, and what
                value = each_one_found(found, language_of(part)) or each_of_several(   # skills does it need?")
                    found, kinds - {default_lexicon().person} if kinds else None, language_of(part))
            if value is None and kind in ("person", "possessive") and bare in HE_SHE:
                value = each_of_several(found, {default_lexicon().person}, language_of(part))
            skip = one and value is not None
            several_said = bare in WORDS.plural_demonstrative | WORDS.hindi_demonstrative or nxt.endswith("s")
            if kind == "that" and several_said:
                # "those skills", "woh skill(s)"; "which of those friends": a choice among them, not each
                among = len(out) > 1 and out[-1].lower() in ("of", "among") and \
                    out[-2].lower() in WORDS.question_words
                value = every_one(kind, nxt, found, language_of(part), each=not among) or value
            later = {w.lower().strip(",.!?") for w in words[i + 1:]}
            if chooses_among(bare, nxt, out) and not (bare in WORDS.plural_demonstrative and later & PLURAL):
                # "who among them", "unmein se kaun": a choice ("which of those ... them": them)
                listed = the_counted_ones(found) or all_found(found, language_of(part), words, each=False)
                if listed is not None:
                    out.append(listed + (f" {HINDI_CASE[bare]}" if bare in HINDI_CASE else ""))
                    continue
            if bare in WORDS.place_pointer and not exists(out, nxt):   # "her role there"
                place = stands_for("it", "", found, "it")
                if place is not None:
                    out.append(WORDS.place_pointer[bare].format(place))
                    placed.add(place)
                    continue
            if grouped is not None and bare in PLURAL:
                out.append(word)
                continue
            several = nxt != "own" and (bare in PLURAL or bare in WORDS.plural_demonstrative and not nxt or
                                        bare in WORDS.hindi_demonstrative and (bool(   # "woh ... hain";
                {w.lower().strip(",.!?") for w in words} & WORDS.hindi_plural_verbs)   # "... teach those?"
                or bool(found) and asks_for_several(found[-1][0]) and not names_a_kind(nxt)))
            #     "kaun kaun ..., woh ... hai": all of them; "..., ye club ...": the club
            some = len(out) > 1 and out[-1].lower() == "of" and out[-2].lower() in SOME   # "any of them"
            group = (found_of_kinds(found, objects or owners_in(part, properties), language_of(part))
                     or all_found(found, language_of(part), words, pointer=bare, each=not some)) if several else None
            value = group or value
            if value is None and bare in PLURAL and bare not in WORDS.possessive | set(HINDI_CASE):
                value = the_counted_ones(found)      # "how many ..., and who works on them?"
            # "wahan uska role": "there" took the club, so "her" is the person
            if kind and value is not None and value in placed:
                value = stands_for(kind, nxt, found, bare, {default_lexicon().person})
            if value is not None and bare in WORDS.third_person and value in named_once:
                value = None     # named once: a later "his" points at the name, as a pronoun
            if kind == "person" and bare in ("him", "her") and value \
                    and re.search(rf"\b{re.escape(value)}\b", part):   # "does Asha share a club with her?":
                value = None     # an object is never the one its own clause names (that is "herself")
            named_once |= {value} if value is not None and bare in WORDS.third_person else set()
            stop = word[len(word.rstrip(",.!")):]      # "... worth it. Second, ...": the stop stays
            if value is None:
                out.append(word)
            elif kind == "that":       # "that student('s)" -> the value('s), noun and all
                out.append(f"{value}'s" if nxt.endswith("'s") else value)
                skip = True
            elif bare in HINDI_CASE:
                out.append(f"{value} {HINDI_CASE[bare]}{stop}")
            elif kind in ("possessive", "its"):
                out.append(f"{value}'s{stop}")
            else:
                out.append(value + stop)
        text = " ".join(out).rstrip(".!")     # ("... and when each joined."): its scope before the stop
        text = others_than_before(text, found) or text    # "which other club": besides the one before
        if not named:   # a part that names a value of its own ("... in DSA?") sets its own scope
            text = in_scope(text, found, properties or {}, language_of(part))
        return text + "?" if part.rstrip().endswith("?") else text


def follows_up(part: str, linked: Sequence[Named], restated: str = "") -> bool:
    """Is the part only a follow-up opener and the values it names ("what about Payal?", "and
    for DSA?", "aur Sneha?", "how does that compare with Payal?"): the ask of the part before,
    of another value? Words of that ask (`restated`), a kind's noun and "same" add nothing
    ("... compare with Payal's grade in the same subject?").

    >>> from course.llm.offline.roles.words import Linked
    >>> follows_up("what about Asha?", [Linked("Asha", "Person", "name", "Asha")])
    True
    >>> follows_up("and what is Asha's?", [Linked("Asha", "Person", "name", "Asha")])
    True
    >>> follows_up("what about her grades?", []), follows_up("Who is Asha?", [])
    (False, False)
    """
    key, opened = question_key(part) + " ", False
    while opener := next((o for o in WORDS.continuing if key.startswith(o)), None):
        key, opened = key[len(opener):], True      # "and what about", "aur phir"
    whose = key.endswith(" s ")       # "what is Sneha's?": a possessive with nothing after it
    if not (opened or whose) or not linked:
        return False
    named = {w for m in linked for w in question_key(m.text).split()}
    rest = set(key.split()) - {"for", "then", "too", "also", "ka", "ki", "ke", "s", "same"}
    if restated:
        rest -= (set(question_key(restated).split()) | WORDS.function | {w for w in rest if names_a_kind(w)}) - named
    if whose:
        rest -= WORDS.question_words | WORDS.auxiliary
    return bool(rest) and rest <= named


def one_clause(rest: str) -> bool:
    """Does what follows a property's "and" finish that ask's clause ("what branch and year
    is Aarav in?": a verb, and no question word of its own)? Then the two properties are one
    ask of the name after them, not a property of the ask before.

    >>> one_clause("year is Aarav in?"), one_clause("with what grade?")
    (True, False)
    """
    words = tokens(rest)
    return bool(set(words) & AUXILIARY) and not is_question(words, opening=False)


def the_predicate(left: str, right: str) -> str:
    """When an ask names a property and no verb ("In which year of study", "what year") and
    the ask after it has its verb and subject ("which branch is Karan"), the verb and subject
    they share: "is Karan"; else "".

    >>> the_predicate("In which year of study", "which branch is Karan")
    'is Karan'
    >>> the_predicate("Who is Payal", "which branch is she in")
    ''
    """
    left = re.split(r"[.!:]\s+", left)[-1]     # its last sentence
    if set(tokens(left)) & AUXILIARY or not asks_only_a_property(left) or \
            not is_question(tokens(right), opening=True):
        return ""
    verb = re.search(r"\s(?:" + "|".join(sorted(AUXILIARY)) + r")\s[^,;?]*", right, flags=re.I)
    return verb[0].strip().rstrip("?") if verb else ""


def asked_again(part: str, found: Sequence[Found], linked: Sequence[Named]) -> str | None:
    """A follow-up part as the part before, with the value it names in place of the one of its
    kind that part asked about: "What branch is Rahul in?" + "what about Payal?" -> "What
    branch is Payal in?"; None when it is no follow-up, or the part before named no single
    value of that kind in its own words.

    >>> from course.llm.offline.roles.words import Linked
    >>> found = [("What branch is Ben in?", [("Person", "Ben")], [("Person", "Ben")])]
    >>> asked_again("and what about Asha?", found, [Linked("Asha", "Person", "name", "Asha")])
    'What branch is Asha in?'
    """
    if not found or not follows_up(part, linked, found[-1][0]):
        return None
    question, asked, _ = found[-1]
    out = question
    for mention in linked:
        before = [str(v) for label, v in asked if label == mention.label]
        if len(before) != 1 or not re.search(rf"\b{re.escape(before[0])}\b", out, re.I):
            return None
        out = re.sub(rf"\b{re.escape(before[0])}\b", str(mention.value), out, flags=re.I)
    return out
