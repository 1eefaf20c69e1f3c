"""Where notebook 12 imports the offline updater from: it is `course.llm.offline.roles.updater`.

Introduced in notebook 12. The offline updater is one role the offline provider plays; it
lives with the provider, under llm/offline/roles/. This name stays for the notebook's import.

>>> RuleUpdater.__module__
'course.llm.offline.roles.updater'
"""
from course.llm.offline.roles.updater import RuleUpdater

__all__ = ["RuleUpdater"]
