"""The pipeline: a question -> Cypher -> rows -> an answer (notebooks 02-10).

`schema` reads the graph's schema and `linking` the question's names; `prompts` (and
`prompt_size`) write the prompt; `safety` is the one guarded door (`guard` checks a query
read as tokens by `cypher_tokens`); `cleaning` takes a query out of a model's reply; `agent`
runs the loop of notebook 05 and keeps its `results`; `memory`, `graph_memory` and
`answer_cache` remember; `evaluation` scores a question set, comparing rows as
`comparison` does.

>>> from course.pipeline.guard import check
>>> check("MATCH (n) DETACH DELETE n").clause
'DETACH DELETE'
"""
