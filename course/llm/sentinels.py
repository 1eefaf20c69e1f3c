"""What a model answers instead of a query: the two sentinels of the Cypher prompt.

Introduced in notebook 02, in the prompt's rule 7: a question the graph cannot answer gets
`RETURN 'OUT_OF_SCOPE' AS status`, a request to change the data `RETURN 'READ_ONLY' AS
status`. Every model says them the same way, the offline provider included, and the agent
(notebook 05) turns them into an answer instead of running them.

>>> SENTINEL_QUERY
"RETURN 'OUT_OF_SCOPE' AS status"
>>> READ_ONLY_QUERY
"RETURN 'READ_ONLY' AS status"
"""
from __future__ import annotations

OUT_OF_SCOPE = "OUT_OF_SCOPE"
SENTINEL_QUERY = f"RETURN '{OUT_OF_SCOPE}' AS status"
READ_ONLY = "READ_ONLY"  # the model's own refusal of a request to change the data
READ_ONLY_QUERY = f"RETURN '{READ_ONLY}' AS status"
