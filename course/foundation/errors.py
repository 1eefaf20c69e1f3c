"""The course's exceptions. Every message says what to do next.

Introduced in notebook 01 (a database that does not answer says how to start it); each
lesson adds the errors of its own step (the guard's `UnsafeQuery` in notebook 03, ...).

>>> raise DatabaseUnavailable("FalkorDB is not running at redis://localhost:6379: start it ...")
Traceback (most recent call last):
course.foundation.errors.DatabaseUnavailable: FalkorDB is not running at redis://localhost:6379: start it ...
>>> issubclass(DatabaseUnavailable, CourseError)
True
"""
from __future__ import annotations


class CourseError(Exception):
    """Base of every error the course raises on purpose."""


class DatabaseUnavailable(CourseError):
    """The database could not be reached or started."""


class QueryFailed(CourseError):
    """FalkorDB refused or could not run a query; `server_message` is its own words."""

    def __init__(self, message: str, *, server_message: str = "", cypher: str = ""):
        super().__init__(message)
        self.server_message = server_message or message
        self.cypher = cypher


class QueryTimedOut(QueryFailed):
    """A query ran longer than its time limit and was stopped by the server."""


class DataFileError(CourseError):
    """A CSV or YAML file of the dataset is broken; the message names the file and line."""


class UnsafeQuery(CourseError):
    """The guard refused a query; `reason` says why and `clause` names what it refused."""

    def __init__(self, reason: str, *, clause: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.clause = clause


class InvalidInput(CourseError):
    """A question, id or argument that cannot be used as given."""
