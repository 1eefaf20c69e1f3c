"""Retrieval: the notes as chunks with embeddings, searched by meaning and by graph (notebook 13).

`embeddings` turns text into vectors, `text_layer` stores the chunks beside the graph,
`search` finds them: vector, full-text, hybrid and graph-expanded search.

>>> from course.retrieval.text_layer import CHUNK_LABEL
>>> CHUNK_LABEL
'Chunk'
"""
