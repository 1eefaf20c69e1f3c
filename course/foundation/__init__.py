"""The foundation: settings, errors, the database and the data (notebook 01 on).

Everything else stands on these modules, and they import nothing above them: `config`
(settings and keys), `errors` (the course's exceptions), `connection` (`connect()`: where
the data lives), `server` (the embedded database's background server), `db` (the read-only
executor), `dataset` (the college graph loaded from data/college/), `versioning` (the data
version of a graph) and `language` (English or Hinglish).

>>> from course.foundation.connection import connect
>>> connect().counts()
{'nodes': 75, 'relationships': 132}
"""
