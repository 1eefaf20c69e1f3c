"""The offline provider's roles in the agentic agent: router, updater and critic.

Introduced in notebook 12. `policy` reads a role's prompt (as a model does) and answers with
the rules of `router`, `updater` and `critic`, which read the words of `words`.

>>> from course.llm.offline.roles.updater import RuleUpdater
>>> RuleUpdater().split("Who is Payal; also what year is Aarav in?")
['Who is Payal?', 'what year is Aarav in?']
"""
