"""Ingestion: documents into the graph through one reviewed write door (notebook 15).

A document (text, Markdown, PDF, an LMS export as CSV) is read into sentences
(`documents`), its facts are extracted into a typed proposal (`proposal`; offline by the
`rules`, with a key by a model's structured output, `structured`), checked against
data/college/schema.yaml (`validation`), its names resolved against the graph
(`resolution`), each relationship given a judge's confidence (`verification`), and the
result shown as a diff (`diff`, put together by `review`). Nothing is written until the
diff is applied, by `write_door`, the only module of the package that writes what a
document said into the graph.

>>> from course.ingest.spec import Spec
>>> Spec.load().types_between("Note", "Concept")
['EXPLAINS']
"""
