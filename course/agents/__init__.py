"""Agents that choose their own steps (notebooks 11-12).

`tools` is the tool loop (notebook 11): the model calls tools until it can answer, and
`cost` prices its tokens. `agentic` (notebook 12) splits a question, routes each part to a
tool of `agentic_tools` and reviews the answer, keeping one question's record in
`agentic_run`; its router, updater and critic (`agentic_roles`) are one `chat()` call each,
whatever the model. With no key the offline provider plays both loops from their prompts
(`course.llm.offline.tools` and `course.llm.offline.roles`). `agentic_eval` scores
multi-part questions.

>>> from course.agents.tools import TOOLS
>>> [tool.name for tool in TOOLS]
['execute_cypher', 'get_schema']
"""
