"""Where notebook 12 imports the offline router from: it is `course.llm.offline.roles.router`.

Introduced in notebook 12. The offline router is one role the offline provider plays; it lives
with the provider, under llm/offline/roles/. This name stays for the notebook's import.

>>> RuleRouter.__module__
'course.llm.offline.roles.router'
"""
from course.llm.offline.roles.router import RuleRouter

__all__ = ["RuleRouter"]
