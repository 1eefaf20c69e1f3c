"""Which graphs hold course data: `require_data_graph(name)`, the one check every door calls.

Introduced in notebook 01 (where the data lives). Notebook 10 keeps each user's stored
conversation in a graph of its own (`memory_user_<id>`); that graph is nobody else's data, so
no verb and no library entry point loads into it, searches it, plans from it or answers from
it: `connect()`, `load_college`, the agents, `search`, `plan`, `peers` and `evaluate` call this
check first, and so does any new door (ingest, the web app, the MCP server).

>>> require_data_graph("college")
'college'
>>> require_data_graph("memory_user_u2")
Traceback (most recent call last):
course.foundation.errors.InvalidInput: The graph 'memory_user_u2' holds a user's stored conversation, not course data, so the course will not load into it, search it or answer from it: set COURSE_GRAPH to a course graph (default college), or unset it.
"""
from __future__ import annotations

import re

from course.foundation.errors import InvalidInput

# One user's stored conversations live in a graph of this prefix (notebook 10).
MEMORY_GRAPH_PREFIX = "memory_user_"


def is_memory_graph(name: str) -> bool:
    """True for a graph that holds a user's conversation (whatever the case of its prefix).

    >>> is_memory_graph("memory_user_alice"), is_memory_graph("college")
    (True, False)
    """
    return name.strip().lower().startswith(MEMORY_GRAPH_PREFIX)


def require_data_graph(name: str) -> str:
    """The graph name, if it may hold course data; InvalidInput (one sentence) for a memory graph."""
    if is_memory_graph(name):
        shown = name if len(name) <= 80 else name[:77] + "..."
        raise InvalidInput(f"The graph {shown!r} holds a user's stored conversation, not course "
                           "data, so the course will not load into it, search it or answer from "
                           "it: set COURSE_GRAPH to a course graph (default college), or unset it.")
    return name


# "how many students are in the graph?", "total kitne students hain in the graph", "... in this
# college system altogether?", "in our college data, who ...": the knowledge graph itself, at the
# end of its clause or before the question word, names no value of it (no topic named Graphs)
THE_GRAPH_ITSELF = re.compile(r"\s*\b(?:in|on|from|across|inside)\s+(?:the|this|your|our)\s+(?:knowledge\s+)?"
                              r"(?:college\s+)?(?:graph|database|db|system|data)\b"
                              r"(?=\s*(?:[?.!,;]|$|(?:and|or|aur|right|please|pls|from|altogether|overall"
                              r"|in\s+total|who|whom|how|kaun|kon|\w+ed)\b))",   # ("in the graph listed as")
                              re.I)
