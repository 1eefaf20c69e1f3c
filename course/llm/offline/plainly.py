"""Ways of saying a thing that ask nothing more than the plain words would (notebook 05's reading).

A learner writes "which subject on this course teaches welding?", "which student projects are
done?", "for each of them, who studies it?" and "what do I need to unlock before welding?". The
course as a whole, a person's noun that says whose a project is, an "it" that stands for each of
several and the learner's own "unlock" (their learning) are no further things to find:
read as they are, each would be one more word the query leaves out, and the question refused.
Used by the offline provider's reading and, for "each of them ... it", by the agentic agent's
query updater.
"""
from __future__ import annotations

import re

from course.foundation.language import WORDS
from course.llm.offline.lexicon import Lexicon

# "for each of them, which students study it?": "it" is each of them, said first (not "what does
# each of them do on it?", where "it" is another thing)
_EACH_OF_THEM = re.compile(r"(?:^|(?<=[?.!,;]\s)|(?<=\band\s))"
                           r"for (?:each|every one) of (?:them|these|those)\b,?\s*", re.I)


def it_of_each(text: str) -> str:
    """"For each of them, which students study it?" -> "which students study them?": an "it"
    after "each of them" is every one of them, each (an answer lists them one by one).

    >>> it_of_each("For each of them, which students study it, and in which semester?")
    'which students study them, and in which semester?'
    >>> it_of_each("what does each of them do on it?")
    'what does each of them do on it?'
    """
    each = _EACH_OF_THEM.search(text)
    if each is None or not re.search(r"\bits?\b", text[each.end():], re.I):
        return text
    rest = re.sub(r"\bit\b", "them", re.sub(r"\bits\b", "their", text[each.end():]))
    return text[:each.start()] + rest


_ORDER = r"(?:order|ordering|chain|sequence|ladder)"
# "Among the projects, which ones ...", "Of all the clubs, which one ...": the group chosen from
_AMONG = re.compile(r"^\s*(?:among(?:st)?|of|out of|from)\s+(?:all\s+)?(?:(?:the|our|these|those)\s+)?"
                    r"([^,?;]+?)\s*,\s*(?=which\s+ones?\b)", re.I)


def chosen_from(text: str, lexicon: Lexicon) -> str:
    """"Among the projects, which ones are done, and which ones are planned?" -> "which projects
    are done, and which projects are planned?": the group an opening names, put in place of each
    "which ones" it chooses from (a group of a kind the graph has: not "of all things, which one").

    >>> from course.llm.offline.lexicon import default_lexicon
    >>> chosen_from("Of all the clubs, which one is the oldest?", default_lexicon())
    'which clubs is the oldest?'
    """
    among = _AMONG.match(text)
    kinds = "|".join(f"(?:{r})" for r in lexicon.labels.values() if r) or "(?!)"
    if among is None or not re.search(rf"\b(?:{kinds})$", among[1].lower()):
        return text
    return re.sub(r"\bwhich\s+ones?\b", lambda m: f"which {among[1]}", text[among.end():], flags=re.I)


def shared_as_given(text: str) -> str:
    """"Please share the list of ...": a list given, not a thing in common ("which students
    share a club").

    >>> shared_as_given("kindly share the note on BFS"), shared_as_given("who share a club")
    ('kindly give the note on BFS', 'who share a club')
    """
    return re.sub(r"\bshare (?:with (?:me|us) )?(?=(?:the|a) (?:list|names?|details|number|count|notes?)\b)",
                  "give ", text, flags=re.I)


def said_plainly(text: str, lexicon: Lexicon) -> str:
    """The question without what asks nothing more (linked names as §0, §1, ...).

    >>> from course.llm.offline.lexicon import default_lexicon
    >>> said_plainly("which subject on this course teaches §0 ?", default_lexicon())
    'which subject teaches §0 ?'
    >>> said_plainly("which student projects are done ?", default_lexicon())
    'which projects are done ?'
    >>> said_plainly("before §0 what topics needed ?", default_lexicon())
    'what topics needed before §0 ?'
    >>> said_plainly("what do i need to unlock before learning §0 ?", default_lexicon())
    'what do i need to learn before learning §0 ?'
    >>> said_plainly("before i can start §0 , what should i have learned first ?", default_lexicon())
    'before i can start §0 , what should i have learned ?'
    >>> said_plainly("what comes after §0 in the order of prerequisites ?", default_lexicon())
    'what comes after §0 ?'
    >>> said_plainly("my friend §0 , which clubs is she in ?", default_lexicon())
    '§0 , which clubs is she in ?'
    >>> said_plainly("which clubs is that girl §0 in ?", default_lexicon())
    'which clubs is §0 in ?'
    >>> said_plainly("how many in §0 ?", default_lexicon())
    'how many are in §0 ?'
    >>> said_plainly("kindly share the list of students in §0", default_lexicon())
    'kindly give the list of students in §0'
    """
    text = chosen_from(it_of_each(text), lexicon)
    # "what do I need to unlock before §0?": the learner's unlocking is their learning, and the
    # link is the "before" after it (a link's own word, said of §0, says its way: "what §0 unlocks")
    text = re.sub(r"\b(i|we|you|one) ((?:(?:need|have|has|ought|got) to |should |must |can )+)(?:have )?"
                  r"(?:unlock|open(?: up)?)(?= (?:before|first)\b)", r"\1 \2learn", text)
    text = re.sub(r"\bbefore (i|we|you|one) ((?:can |could )?)(?:unlock|open(?: up)?)(?= §)",
                  r"before \1 \2take", text)
    text = re.sub(r"\bun(?:me|mein) se\b", "un mein se", text)   # "unme se kiske paas ...": among them
    text = re.sub(r"\bhow many (?=(?:in|on) (?:the )?§\d)", "how many are ", text)   # "how many in §0?"
    text = shared_as_given(text)
    # "I need someone good at §0 for §1": the speaker's need of a person, no project's need
    text = re.sub(r"\b(?:i|we) (?:really |urgently )?(?:need|want)"
                  r"( someone| somebody| a student| people)\b", r"\1", text)
    # "before §0 what topics needed?": the phrase put first is the ask's own ("what topics
    # needed before §0?")
    # (after the learner's own words too: "before i can take on §0 what topics ...")
    text = re.sub(r"^(before|after) (?:(?:i|we|you|one) (?:can |could |should |must )?(?:\w+ ){1,2}?)?(§\d+) "
                  r"((?:what|which|who)\b.*?)(\s*[?.!]*)$", r"\3 \1 \2\4", text)
    # "before §0, what should I have learned first?": the learner's "first" says "before" again
    # (not "which club was founded first?", nor "who joined first, before §0?": no learner speaks)
    if re.search(r"\bbefore\b[^?]*§\d|§\d+ se pehle\b", text):
        text = re.sub(r"(\b(?:i|we|you|one)\b[^,?.!]*?\s\w+)\s+first\b(?=\s*(?:[,?.!]|$))", r"\1", text)
    # "the topics under §0 in the course": the whole course, after a kind or a name (a subject
    # is "a course" too: "who is on this course?" keeps it)
    kinds = "|".join(f"(?:{r})" for r in lexicon.labels.values() if r) or "(?!)"
    text = re.sub(rf"(§\d+|\b(?:{kinds})) (?:in|on|of) (?:this|the|our|my) "
                  rf"(?:course|syllabus|curriculum|timetable)\b",
                  r"\1", text)
    # "which student projects": the person's noun before another kind's says whose, asks for no person
    others = "|".join(f"(?:{r})" for label, r in lexicon.labels.items() if r and label != lexicon.person)
    if lexicon.person and others:
        text = re.sub(rf"\b{lexicon.person.lower()} (?=(?:{others}))", "", text)
    # "what comes before §0 in the prereq chain?", "in the order of prerequisites": the order a
    # link's word names is the link the ask already takes, no step of its own
    links = "|".join(f"(?:{r})" for r in lexicon.relationships.values() if r) or "(?!)"
    order = rf"(?:in|along|down|up) (?:the|that|this|its) " \
        rf"(?:(?:{links}) {_ORDER}|{_ORDER} of (?:the )?(?:{links}))"
    text = re.sub(rf"^{order}\s*,?\s*|\s*,?\s+{order}\b", "", text)
    # "my friend §0, ...": the speaker's word for someone the name says (not "my friends")
    people = lexicon.label(lexicon.person) or "(?!)"
    text = re.sub(rf"\b(?:my|our|mera|meri|mere|hamara|hamari) (?:{people}) (?=§\d)", "", text)
    # "that girl §0", "the student §0": one person, pointed at by the name (not "the students §0 and §1")
    return re.sub(rf"\b(?:that|this|the) ({people}) (?=§\d)", lambda m: m[0] if m[1].endswith("s") else "", text)


# "..., like two batsmen both refusing to leave the crease", "sort of like ...", "so to speak":
# a comparison from the learner's own world. ("would like", "looks like", "is like" are verbs.)
_COMPARISON = re.compile(
    r"(?P<before>(?:,\s*|\s+)(?:(?:sort|kind)\s+of\s+|a\s+(?:bit|little)\s+|just\s+|much\s+|rather\s+)?)"
    r"(?:like|similar\s+to|as\s+if|as\s+though)\s+(?P<clause>[^,;?!()\u2013\u2014]+?)"
    r"(?=\s*(?:[,;?!()\u2013\u2014]|\.(?:\s|$)|\s-\s|$))", re.I)
_A_VERB_BEFORE = {"would", "i'd", "you'd", "we'd", "they'd", "i", "you", "we", "they", "to", "do", "don't",
                  "dont", "did", "really", "look", "looks", "looked", "sound", "sounds", "feel", "feels", "felt",
                  "seem", "seems", "is", "are", "was", "were", "be", "it's", "its", "it"}
_FILLER_PHRASE = re.compile(r"(?i),?\s+(?:so\s+to\s+speak|as\s+it\s+were|if\s+you\s+will)\b")


def without_comparisons(text: str, lexicon: Lexicon) -> str:
    """The question without a comparison to the learner's own world ("like two batsmen both
    refusing to leave the crease", "sort of like the order of seniority", "so to speak"): it
    describes, and asks nothing of the graph. A comparison that names a value (a capital, a
    number: "like Asha", "like 200 and 404"), a kind or a property ("like the subjects she
    takes", "like highest year") or asks again ("like what year") says what is asked, and stays;
    so does "like" as a verb ("would like to know", "looks like"). The offline reading's, not the
    note search's: "like debiting one account and crediting another" says what a note is asked.

    >>> from course.llm.offline.lexicon import default_lexicon
    >>> without_comparisons("Which clubs are oldest, like the order of seniority in a dressing room?",
    ...                     default_lexicon())
    'Which clubs are oldest?'
    >>> without_comparisons("Which students are seniors, so to speak?", default_lexicon())
    'Which students are seniors?'
    >>> without_comparisons("Which subjects like Welding does Asha take?", default_lexicon())
    'Which subjects like Welding does Asha take?'
    >>> without_comparisons("I would like to know which clubs Asha is in", default_lexicon())
    'I would like to know which clubs Asha is in'
    """
    nouns = [r for r in (*lexicon.labels.values(), *lexicon.properties.values()) if r]
    def comparison(m: re.Match[str]) -> str:
        before = text[:m.start()].lower().split()
        words = re.findall(r"[\w+#/']+", m["clause"].lower())
        if not before or len(words) < 2 or before[-1] in _A_VERB_BEFORE and not m["before"].strip(" ,"):
            return m[0]
        names = any(w[:1].isupper() or w[:1].isdigit() for w in m["clause"].split()) \
            or any(re.fullmatch(n, w) for w in words for n in nouns)
        return m[0] if names or words[0] in WORDS.question_words else ""
    kept = _FILLER_PHRASE.sub("", _COMPARISON.sub(comparison, text))
    asks = re.findall(r"[\w']+", kept.lower())
    return kept if set(asks) & (WORDS.question_words | WORDS.requests) else text
