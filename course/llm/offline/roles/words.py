"""The offline router, query updater and critic: deterministic rules, not a model.

Introduced in notebook 12. They read only what a model would be given: the question and its
linked values, the tools' descriptions and parameters, and the results found so far. They
know no name of the graph: the values come from the entity linking, the tools' examples
from their descriptions, and the words below are English and Hinglish, not the college's.

This module holds the words they read (English and Hinglish function words, pronouns,
question words) and the question as tokens; one module per role:

- `RuleRouter` (`course.llm.offline.roles.router`): writes the question with its linked values as
  `{Label}` (a Subject as `{Subject}`) and compares it with each tool's example questions,
  whose `{arguments}` the parameters type ("a Subject.name value"); a free-text argument
  matches any words (less well when they hold a linked value). The closest example wins when it is close enough
  (overlap of the words that say what is asked, `MIN_SIMILARITY`); else `text2cypher`. A
  question asked before gets `answer_given`.
- `RuleUpdater` (`course.llm.offline.roles.updater`): (a request to change the data stays whole)
  splits at `;`, at `?` followed by more, and at ", and" / "and" / "aur" / "or" when both
  sides are questions of their own; rewrites "she", "that student", "uske" with
  what an earlier part found, and "it" with what it asked about.
- `RuleCritic` (`course.llm.offline.roles.critic`): a part that found nothing is missing; so is a
  value the question names that no part used or found ("best at DBMS and DSA" answered for
  DBMS alone asks for DSA).

>>> from course.agents.agentic_tools import TOOLS
>>> from course.llm.offline.roles.router import RuleRouter
>>> from course.llm.offline.roles.updater import RuleUpdater
>>> from course.pipeline.linking import link_entities
>>> router = RuleRouter()
>>> call = router.route("Who is best in DBMS?", link_entities(db, "Who is best in DBMS?"),
...                     [t.spec() for t in TOOLS])
>>> call.name, call.arguments
('best_in_subject', {'subject': 'DBMS'})
>>> RuleUpdater().split("Who is best at DBMS, and which clubs is she in?")
['Who is best at DBMS?', 'which clubs is she in?']
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from course.llm.offline import default_lexicon
from course.pipeline.linking import Mention

FALLBACK = "text2cypher"
NUMBER = "{#}"                # a number in a question, and a number argument in an example
REFUSED = ("out_of_scope", "blocked")
NOTES = "search_notes"

_TOKEN = re.compile(r"\{\w+\}|[\w+#/]+")
# A request to change the data goes whole to text2cypher (whose guard refuses it).
WRITE_REQUEST = re.compile(default_lexicon().cues["write"])

REQUESTS = frozenset("list show name tell give find".split())   # "... and list the members"
# Words that open (English) or carry (Hinglish) a question of its own.
QUESTION_WORDS = frozenset("""who whom whose what which where when why how kya kaun kaunsa kaunse
    kaunsi kon konsa konse konsi kitne kitna kitni kis kisne kiska kiske kisse kab kahan kaise
    batao""".split()) | REQUESTS
AUXILIARY = frozenset("is are was were does do did can could should has have will".split())
COUNTING = frozenset("many much number count total kitne kitna kitni".split())
PEOPLE = frozenset("who whom whose kaun kon kisne kisse kiska kiske".split())  # answered by people
FUNCTION_WORDS = QUESTION_WORDS | AUXILIARY | frozenset("""i me my we you to of in on at for from
    with about by and or the a an ke ka ki hai hain mein me se tak ko ne pe par kya please""".split())
CONJUNCTIONS = ("and also", "and", "aur", "or", "also", "plus", "then", "phir")
PERSONAL = frozenset("he she him they them it woh wo vo voh yeh ye".split())
POSSESSIVE = frozenset("his hers their its".split())
DEMONSTRATIVE = frozenset("that this those these same".split())
HINDI_CASE = {"uska": "ka", "uski": "ki", "uske": "ke", "iska": "ka", "iski": "ki", "iske": "ke",
              "unka": "ka", "unki": "ki", "unke": "ke", "inka": "ka", "inki": "ki", "inke": "ke",
              "usne": "ne", "unhone": "ne", "isne": "ne", "usko": "ko", "unko": "ko", "isko": "ko",
              "inko": "ko", "usme": "mein", "isme": "mein", "unme": "mein", "inme": "mein",
              "usse": "se"}
AFTER_OBJECT = frozenset("in at to from and or on with for of by a an the".split())   # "make her a plan"
HE_SHE = frozenset("he she him her his hers".split()) | frozenset(HINDI_CASE)
FIRST_PERSON = {"i": "", "me": "", "my": "'s", "mine": "'s", "myself": "", "mujhe": " ko",
                "mujhko": " ko", "mera": " ka", "meri": " ki", "mere": " ke"}
ENGLISH_ONLY = frozenset("who whom whose what which where when why how".split()) | REQUESTS


def tokens(text: str) -> list[str]:
    """Lower-case words, `{placeholders}` kept whole: `tokens("Who is {Student}?")`."""
    return [t if t.startswith("{") else t.lower() for t in _TOKEN.findall(text)]


def placeholders(question: str, mentions: Sequence[Mention]) -> list[str]:
    """The question's words with each linked value as one `{Label}` token (a number as `{#}`).

    >>> placeholders("Who is best at dbms?", [Mention("dbms", "Subject", "name", "DBMS", 1.0)])
    ['who', 'is', 'best', 'at', '{Subject}']
    """
    words = [NUMBER if t.isdigit() else t for t in tokens(question)]
    for mention in mentions:
        target = tokens(mention.text)
        for start in range(len(words) - len(target) + 1):
            if target and words[start:start + len(target)] == target:
                words[start:start + len(target)] = ["{" + mention.label + "}"]
                break
    return words
