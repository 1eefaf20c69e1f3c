"""Where the data lives and how to reach it: `connect()`, embedded by default, a server by URL.

Introduced in notebook 01. `connect()` starts (or finds) the embedded database at
`.course/college.db`, or connects to the FalkorDB server at FALKORDB_URL; an argument beats
the environment, which beats `.env`. A URL is checked and shown with its password hidden;
a test or notebook run may use only its own throw-away database.

>>> db = connect()                       # embedded, .course/college.db
>>> db.run("MATCH (s:Student) RETURN count(s) AS n").rows
[[5]]
"""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import falkordb
import redis

from course.foundation.config import PROJECT_ROOT, get_setting
from course.foundation.db import (DEFAULT_GRAPH, CheckedPool, Database, password_message,
                                  unavailable_message)
from course.foundation.errors import DatabaseUnavailable
from course.foundation.graphs import require_data_graph
from course.foundation.server import NO_RETRY, SOCKET_TIMEOUT_S, EmbeddedServer


def default_db_path() -> Path:
    """`.course/college.db` in the project, or in the user's cache when installed elsewhere."""
    if (PROJECT_ROOT / "pyproject.toml").is_file():
        return PROJECT_ROOT / ".course" / "college.db"
    return Path.home() / ".cache" / "graphrag-course" / "college.db"


_SECRET_PARAMETERS = ("password", "pass", "pwd", "secret", "token", "auth")


def redact_url(url: str) -> str:
    """The URL without its password, in the user-info, as a parameter (after `?`, `;` or
    `&`) or in a `#fragment`, whatever its shape; it never raises.

    >>> redact_url("redis://:secret@host:6379")
    'redis://***@host:6379'
    >>> redact_url("redis://x@127.0.0.1:notaport")
    'redis://***@127.0.0.1:notaport'
    >>> redact_url("redis://host:6379/?password=secret")
    'redis://host:6379/?password=***'
    >>> redact_url("redis://host:6379/;password=secret#pw")
    'redis://host:6379/;password=***#***'
    """
    url, hash_mark, _ = url.partition("#")   # a fragment is never sent: it can only hide a secret
    if "@" in url:
        scheme, sep, rest = url.partition("://")
        if not sep:
            scheme, rest = "", url
        url = f"{scheme}{sep}***@{rest.rpartition('@')[2]}"
    url = _SECRET_PARAMETER.sub(lambda m: m[1] + "=***", url)
    return url + ("#***" if hash_mark else "")


# name=value after ?, ; or &, where the name says it is a secret
_SECRET_PARAMETER = re.compile(r"([?;&](?:%s))=[^?;&#]*" % "|".join(_SECRET_PARAMETERS), re.I)


_SCHEMES = ("redis", "rediss", "falkor", "falkors", "unix")


def url_problem(url: str) -> str | None:
    """Why a FALKORDB_URL cannot be used, in a sentence; None when it looks right.

    >>> url_problem("redis://localhost:6379") is None
    True
    >>> url_problem("redis://x@127.0.0.1:notaport")[:60]
    'FALKORDB_URL (redis://***@127.0.0.1:notaport) is not a valid'
    """
    try:
        parts = urlsplit(url)
        if parts.scheme not in _SCHEMES:
            reason = f"it should start with redis:// (not {parts.scheme or 'nothing'}://)"
        elif parts.scheme != "unix" and not parts.hostname:
            reason = "it names no host"
        else:
            parts.port  # noqa: B018 - raises ValueError for a port that is not a number
            return None
    except ValueError as exc:  # urlsplit's words may quote the URL's text: never shown
        reason = ("its port is not a number" if "port" in str(exc).lower()
                  else "it cannot be read as a URL (a bracket or a character out of place)")
    return (f"FALKORDB_URL ({redact_url(url)}) is not a valid URL: {reason}. It should look like "
            "redis://localhost:6379, or redis://:PASSWORD@HOST:6379 for a server with a password.")


def _resolve(url: str | None, path: str | os.PathLike | None,
             graph: str | None) -> tuple[str, str | None, Path | None]:
    """(graph name, server URL or None, embedded file or None): argument > environment > default."""
    graph_name = get_setting("COURSE_GRAPH", value=graph, default=DEFAULT_GRAPH)
    url = get_setting("FALKORDB_URL", value=url)
    if url and path is None:
        return graph_name, url, None
    db_path = Path(get_setting("COURSE_DB", value=str(path) if path else None,
                               default=str(default_db_path())))
    return graph_name, None, db_path


def where_data_lives() -> dict[str, str]:
    """Where `connect()` would look, without connecting: for `python -m course info`."""
    graph_name, url, path = _resolve(None, None, None)
    if url:
        return {"mode": "server", "url": redact_url(url), "graph": graph_name}
    assert path is not None  # no URL: an embedded file, always
    return {"mode": "embedded", "file": str(path.resolve()), "graph": graph_name}


def throwaway_database(worker: str | None = None) -> Path:
    """The throw-away database of `make test` and `make notebooks`: `.course/test.db` here.

    A parallel test run (pytest-xdist) gives each worker a file of its own beside it, so two
    notebooks running at once never reset each other's graph.

    >>> throwaway_database().name, throwaway_database("gw1").name
    ('test.db', 'test-gw1.db')
    """
    if worker is None:
        return PROJECT_ROOT / ".course" / "test.db"
    if not re.fullmatch(r"gw\d+", worker):
        raise ValueError(f"A test worker is named gw0, gw1, ..., not {worker!r}.")
    return PROJECT_ROOT / ".course" / f"test-{worker}.db"


def _is_throwaway(path: Path) -> bool:
    """Is `path` the project's throw-away database (or a parallel worker's), or in the temp folder?"""
    path = path.resolve()
    own = throwaway_database().resolve()
    if path.parent == own.parent:   # the project's own folder (even when the project is in /tmp)
        return path == own or re.fullmatch(r"test-gw\d+\.db", path.name) is not None
    return path.is_relative_to(Path(tempfile.gettempdir()).resolve())


def throwaway_problem() -> str | None:
    """Why a test or notebook run must not start here, in a sentence; None when it may.

    A run may use only its own throw-away database: the embedded `.course/test.db` of the
    project (or a file in the temp folder), never a FalkorDB server or a learner's file,
    whatever `.env` says.
    """
    graph_name, url, path = _resolve(None, None, None)
    if url:
        where = f"the FalkorDB server at {redact_url(url)}"
    elif path is not None and _is_throwaway(path):
        return None
    else:
        where = f"the database file {path}"
    return (f"Tests and notebook runs use only their own throw-away database, not {where}: run "
            "`make test`, or set COURSE_DB=.course/test.db and FALKORDB_URL= (empty) first.")


def connect(*, url: str | None = None, path: str | os.PathLike | None = None,
            graph: str | None = None) -> Database:
    """Connect to the course database.

    `url` (or FALKORDB_URL) selects a FalkorDB server; otherwise the embedded database at
    `path` (or COURSE_DB, default `.course/college.db`). `graph` (or COURSE_GRAPH) names the
    graph, default "college"; a memory graph (notebook 10) is refused (`require_data_graph`).
    """
    graph_name, url, db_path = _resolve(url, path, graph)
    require_data_graph(graph_name)   # a user's stored conversation is no verb's data
    if url:
        return _connect_server(url, graph_name)
    assert db_path is not None  # no URL: an embedded file, always
    return _connect_embedded(db_path, graph_name)


def _connect_server(url: str, graph_name: str) -> Database:
    shown = redact_url(url)
    problem = url_problem(url)
    if problem:
        raise DatabaseUnavailable(problem)
    try:
        # No automatic retries: a query is sent once (see Database._call).
        client = falkordb.FalkorDB.from_url(url, socket_connect_timeout=3,
                                            socket_timeout=SOCKET_TIMEOUT_S, retry=NO_RETRY)
        client.connection.ping()
    except redis.AuthenticationError as exc:  # WRONGPASS or NOAUTH: it runs, the password is wrong
        raise DatabaseUnavailable(password_message(shown, exc)) from exc
    except (redis.ConnectionError, redis.TimeoutError, ValueError) as exc:
        raise DatabaseUnavailable(unavailable_message("server", shown)) from exc
    except redis.ResponseError as exc:
        if "AUTH" in str(exc):  # a password given to a server that has none
            raise DatabaseUnavailable(password_message(shown, exc)) from exc
        raise DatabaseUnavailable(_not_falkordb(shown, exc)) from exc
    except redis.RedisError as exc:  # something answers there, but it does not speak Redis
        raise DatabaseUnavailable(_not_falkordb(shown, exc)) from exc
    return Database(client, graph_name, mode="server", location=shown)


def _not_falkordb(shown: str, exc: Exception) -> str:
    return (f"What answers at {shown} is not FalkorDB ({exc}). FALKORDB_URL should name the "
            "database port (6379 with docker compose), not the browser UI (3000).")


def db_path_problem(path: Path) -> str | None:
    """Why the embedded database cannot live at `path`, in a sentence; None when it can.

    Its server keeps a lock, a log, a pid file and a socket beside the file, so the path
    must name a file (or nothing yet), never a folder (/tmp) or a device (/dev/null).

    >>> db_path_problem(Path("/tmp"))[:40]
    'COURSE_DB (/tmp) is a folder, not a data'
    """
    shown = f"COURSE_DB ({path})"
    if path.is_dir():
        return (f"{shown} is a folder, not a database file: name a file in it, such as "
                f"{path / 'college.db'}.")
    if path.exists() and not path.is_file():
        return (f"{shown} is not a regular file (a device or a pipe): name a database file, "
                "such as .course/college.db.")
    return None   # a folder that cannot be written: the server's start says so (`server.py`)


def _connect_embedded(path: Path, graph_name: str) -> Database:
    problem = db_path_problem(path)
    if problem:
        raise DatabaseUnavailable(problem)
    server = EmbeddedServer(path)
    server.ensure_running()
    # No automatic retries: Database._call sends a query once (see there).
    pool = CheckedPool(connection_class=redis.UnixDomainSocketConnection, path=str(server.socket),
                       socket_timeout=SOCKET_TIMEOUT_S, retry=NO_RETRY, decode_responses=True)
    client = falkordb.FalkorDB(connection_pool=pool)
    return Database(client, graph_name, mode="embedded", location=str(server.path), server=server)
