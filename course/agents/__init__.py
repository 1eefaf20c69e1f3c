"""Agents that choose their own steps (notebooks 11-12).

`tools` is the tool loop (notebook 11): the model calls tools until it can answer;
`offline_tools` plays the model in it with no key.
`agentic` splits a question, routes each part to a tool of `agentic_tools`, and reviews the
answer (notebook 12); `agentic_rules` plays router, updater and critic without a model;
`agentic_eval` scores multi-part questions.

>>> from course.agents.tools import TOOLS
>>> [tool.name for tool in TOOLS]
['execute_cypher', 'get_schema']
"""
