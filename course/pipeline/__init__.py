"""The pipeline: a question -> Cypher -> rows -> an answer (notebooks 02-10).

`schema` and `prompts` write the prompt, `safety` is the one guarded door, `cleaning`
takes a query out of a model's reply, `agent` runs the loop of notebook 05 and keeps its
`results`; `memory` and `graph_memory` remember a conversation; `evaluation` scores a set.

>>> from course.pipeline.guard import check
>>> check("MATCH (n) DETACH DELETE n").clause
'DETACH DELETE'
"""
