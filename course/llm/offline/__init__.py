"""The offline provider: a deterministic, rule-based text-to-Cypher baseline. No LLM service.

Introduced in notebook 05 (the agent runs on it when no key is set) and measured in
notebook 09 (evaluation). It reads exactly the prompt a real LLM gets and nothing else:

- the schema in the system message (node labels and properties, relationship patterns,
  listed values and the VALUE SCALES used for ranking);
- the user message: LINKED VALUES (the names in the question, as stored in the graph),
  CONVERSATION SO FAR and RECENTLY MENTIONED (for "uska", "her", "that project", "and DSA?"),
  the PREVIOUS ATTEMPT FAILED hint, and the QUESTION.

Its code knows no name of the graph: the words it understands are data
(data/college/lexicon.yaml, keyed by the names the schema prompt shows), and every label,
relationship type and value it writes comes from the prompt. It recognises a question by a
table of intents (cue words -> a Cypher builder); when none fits, or when its query would
leave out a word that names something, it answers with the sentinel
`RETURN 'OUT_OF_SCOPE' AS status`. It never writes a write query: a request to change the
data gets `RETURN 'READ_ONLY' AS status`. For the answer step it writes a short factual
sentence from the rows, in the language of the question, and never follows text inside them.

One module per idea: `prompt` (what the prompt says), `lexicon` (the words), `reading`
(a question as the rules see it), `cypher` (small writers), `hops` (which relationship),
`filters` (values and numbers), `negation` (a "not" by a value), `intents` (the builders
and their table), `aggregates` (the builders that count and rank), `conversation` (pronouns
and follow-ups), `coverage` (refuse rather than half-answer), `translate` (the order of the
checks), `answer` (the answer step), `provider` (`OfflineLLM`), `tools` (its tool-loop
policy, notebook 11) and `roles` (the agentic agent's router, updater and critic, notebook 12).

>>> llm = OfflineLLM()
>>> user = 'LINKED VALUES (...):\\n- "zoya" -> Person.name = \\'Zoya\\'\\n\\nQUESTION: Who is Zoya?'
>>> print(llm.generate(user, system=SCHEMA_EXAMPLE))
MATCH (e:Person {name: 'Zoya'})
RETURN e.name AS name, e.year AS year, e.city AS city
"""
from __future__ import annotations

from course.llm.offline.answer import is_answer_prompt, write_answer
from course.llm.offline.intents import INTENTS, Intent
from course.llm.offline.lexicon import DEFAULT_LEXICON, Lexicon, default_lexicon
from course.llm.offline.prompt import (SCHEMA_EXAMPLE, Entity, Pattern, Prompt, Schema,
                                       parse_prompt, parse_schema)
from course.llm.offline.provider import OfflineLLM, OfflineToolLLM
from course.llm.offline.reading import Reading, read
from course.llm.offline.translate import translate
from course.llm.sentinels import READ_ONLY_QUERY, SENTINEL_QUERY

__all__ = ["OfflineLLM", "OfflineToolLLM", "Lexicon", "default_lexicon", "DEFAULT_LEXICON", "INTENTS", "Intent",
           "SCHEMA_EXAMPLE", "Entity", "Pattern", "Prompt", "Schema", "Reading", "parse_prompt",
           "parse_schema", "read", "translate", "write_answer", "is_answer_prompt",
           "READ_ONLY_QUERY", "SENTINEL_QUERY"]
