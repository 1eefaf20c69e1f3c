"""`OfflineLLM`: the rule-based provider, deterministic, no service, no key (notebooks 05 and 09).

`complete(prompt, system=...)` takes the prompt a real LLM gets and returns a Cypher query (or
a sentinel) for a Cypher prompt, and a short answer for an answer prompt. `chat()` plays the
tool loop's policy (`course.llm.offline.tools`, notebook 11) and the agentic agent's roles
(`course.llm.offline.roles.policy`, notebook 12), each read from the prompt alone. It never raises for
a question: what the rules trip over gets the sentinel. Each instance has its own words and
intents, so an exercise extends one instance and leaves the others alone:

>>> from course.llm.offline.lexicon import default_lexicon
>>> llm = OfflineLLM(lexicon=default_lexicon().with_words("common_words", "", ["aaya"]))
>>> llm.lexicon is default_lexicon(), OfflineLLM().lexicon is default_lexicon()
(False, True)
"""
from __future__ import annotations

import logging
import time
from typing import Sequence

from course.llm.base import LLM, ChatTurn, Completion, Message, ToolSpec, Usage, elapsed_ms
from course.llm.offline.answer import is_answer_prompt, write_answer
from course.llm.offline.intents import INTENTS, Intent
from course.llm.offline.lexicon import Lexicon, default_lexicon
from course.llm.offline.prompt import parse_prompt
from course.llm.offline.translate import translate
from course.llm.sentinels import SENTINEL_QUERY

log = logging.getLogger(__name__)


ANSWER_FAILED = ("The offline provider could not write this answer from the rows (a bug in its "
                 "rules; the details are in the log): the rows themselves are the answer.")


class OfflineLLM(LLM):
    """Rule-based text-to-Cypher and answer writer: deterministic, no service, no key.

    `lexicon` (default data/college/lexicon.yaml) holds the words it understands; `intents`
    (default `INTENTS`) the kinds of question it answers, tried in order. `last_intent` names
    the intent that wrote the last query ("ranking", "unknown word 'oldest'", ...); the answer
    step leaves it as it was.
    """

    name = "Offline"
    model = "rules"
    max_queries = 2       # queries the tool loop's policy writes for one question

    def __init__(self, *, lexicon: Lexicon | None = None, intents: Sequence[Intent] | None = None) -> None:
        self.lexicon = lexicon or default_lexicon()
        self.intents: tuple[Intent, ...] = tuple(INTENTS if intents is None else intents)
        self.last_intent: str | None = None

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        started = time.perf_counter()
        answering = is_answer_prompt(prompt)
        try:
            if answering:
                text = write_answer(prompt)
            else:
                self.last_intent, text = translate(parse_prompt(prompt, system), lexicon=self.lexicon,
                                                   intents=self.intents)
        except Exception:  # noqa: BLE001 - a question must never crash the provider
            log.exception("the offline provider failed on a prompt")
            if answering:   # an answer is prose: never the sentinel query
                text = ANSWER_FAILED
            else:
                self.last_intent, text = "rules failed (a bug; see the log)", SENTINEL_QUERY
        return Completion(text, self.name, self.model, Usage(None, None, elapsed_ms(started)))

    def chat(self, system: str | None, messages: Sequence[Message],
             tools: Sequence[ToolSpec] = ()) -> ChatTurn:
        """One step of a conversation with tools: a role of the agentic agent when the prompt
        asks for one, else the tool loop's policy over `writer` (this provider)."""
        from course.llm.offline.roles.policy import play_role, role_of   # notebook 12
        from course.llm.offline.tools import tool_turn                    # notebook 11

        started = time.perf_counter()
        if role_of(system, tools) is not None:
            text, calls = play_role(system, messages, tools)
        else:
            text, calls = tool_turn(self.writer, system, list(messages), {t.name for t in tools},
                                    self.max_queries)
        return ChatTurn(text, tuple(calls), self.name, self.model,
                        Usage(None, None, elapsed_ms(started)))

    @property
    def writer(self) -> LLM:
        """What writes the tool loop's queries: this provider."""
        return self


class OfflineToolLLM(OfflineLLM):
    """The offline tool policy over another writer of queries (`offline`: anything with
    `complete()`), for exercises that change how the queries are written."""

    def __init__(self, offline: LLM | None = None, *, max_queries: int = 2) -> None:
        super().__init__()
        self.offline = offline if offline is not None else OfflineLLM()
        self.max_queries = max_queries

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        return self.offline.complete(prompt, system=system)

    @property
    def writer(self) -> LLM:
        return self.offline
