"""Shared fixtures: every test gets its own environment and, when it asks, its own database."""
from __future__ import annotations

import hashlib
import itertools
import platform
import subprocess
from pathlib import Path

import pytest

from course.foundation import dataset, versioning
from course.foundation.config import KEY_VARIABLES, _dotenv
from course.foundation.connection import connect, throwaway_problem
from course.foundation.dataset import load_college
from course.foundation.db import version_key
from course.foundation.versioning import fingerprint
from course.pipeline import safety
from course.retrieval.text_layer import text_layer_builder

# Variables the course reads: no test sees the developer's keys, server or choices.
COURSE_VARIABLES = KEY_VARIABLES + (
    "FALKORDB_URL", "COURSE_DB", "COURSE_GRAPH", "COURSE_LLM",
    "GROQ_BASE_URL", "GOOGLE_GEMINI_BASE_URL", "MISTRAL_BASE_URL", "OPENROUTER_BASE_URL",
    "OLLAMA_HOST", "GOOGLE_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL",
    "GEMINI_MODEL", "GROQ_MODEL", "GROQ_SMALL_MODEL", "MISTRAL_MODEL", "OPENROUTER_MODEL",
    "OLLAMA_MODEL", "COURSE_LLM_TIMEOUT", "GOOGLE_GENAI_USE_VERTEXAI", "GROQ_CUSTOM_HEADERS",
    "COURSE_EMBEDDER", "FASTEMBED_CACHE_PATH",
)


def pytest_configure(config):
    """Refuse, in one sentence, to run against anything but the run's own throw-away database.

    The notebooks nbval runs connect as a learner would (environment, then `.env`), so a
    FALKORDB_URL in `.env` or a learner's COURSE_DB would have them reset a real graph.
    """
    problem = throwaway_problem()
    if problem:
        pytest.exit(problem, returncode=2)


@pytest.fixture(autouse=True)
def isolated_environment(tmp_path, monkeypatch):
    """No keys, no server URL, no .env: the working directory is an empty temp folder.

    FALKORDB_URL is set empty rather than removed, so that a `python -m course` process a
    test starts does not read one from the project's `.env` either.
    """
    for name in COURSE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("FALKORDB_URL", "")
    monkeypatch.chdir(tmp_path)
    # The project's own .env (if a developer has one) must not leak into tests either.
    monkeypatch.setattr("course.foundation.config.dotenv_path", lambda: tmp_path / ".env")
    _dotenv.cache_clear()
    yield
    _dotenv.cache_clear()


@pytest.fixture(scope="session")
def _shared_server(tmp_path_factory):
    """One embedded FalkorDB for the whole run; each test gets a graph of its own on it."""
    db = connect(path=tmp_path_factory.mktemp("falkordb") / "tests.db")
    # A throw-away server keeps nothing: no background save, no append-only file, so no fork
    # of the server (and its disk writes) competes with the tests.
    db.command("CONFIG", "SET", "appendonly", "no")
    db.command("CONFIG", "SET", "save", "")
    yield db
    db.server.stop()


_numbers = itertools.count(1)


@pytest.fixture
def empty_db(_shared_server):
    """A graph of this test's own, empty, deleted afterwards."""
    db = _shared_server.select(f"college_test_{next(_numbers)}")
    yield db
    if db.graph_name in db.client.list_graphs():
        db.graph.delete()


@pytest.fixture(scope="session")
def _college_template(_shared_server, tmp_path_factory):
    """The college graph loaded once, as `python -m course load` loads it (notebook 13's text
    layer built beside it), with no keys, server or choices."""
    with pytest.MonkeyPatch.context() as patch:
        for name in COURSE_VARIABLES:
            patch.delenv(name, raising=False)
        patch.setattr("course.foundation.config.dotenv_path",
                      lambda: tmp_path_factory.mktemp("env") / ".env")
        _dotenv.cache_clear()
        template = _shared_server.select("college_template")
        load_college(template, also=text_layer_builder())
    _dotenv.cache_clear()
    return template


class SpareCopy:
    """A copy of the loaded college graph that the last test left exactly as it got it.

    Most tests only read their college graph. Making a copy forks the server (some 0.1 s), so
    a copy is handed to the next test when the last one changed nothing: the same nodes,
    relationships, properties and indexes (`content`), no write counted, no key come or gone
    on the server. Anything else, and the copy is deleted, as before.

    What the process worked out from a copy handed on (its data version, schema, names,
    procedures: `versioning.per_version`) is handed on with it: the content is the same, so
    it is still true, and the next test does not read it all again. It stays only while the
    version stamped beside the copy is nothing or the one its content has (the template's,
    worked out once); a copy deleted takes its caches and its version key with it. (No test
    needs a copy seen as by its first reader: the ones that count commands warm up first.)

    Reading the copy whole takes longer than most tests, so it is done only when the server's
    own count of commands shows one since the copy was handed out that could change a graph:
    reads and HSET (the data version a reader stamps; any other hash a key check sees) cannot.
    """

    def __init__(self, server, template: str):
        self.server, self.template = server, template
        self.kept: tuple[str, str | None] | None = None   # (graph name, its content) when idle
        self.commands: dict[str, int] | None = None       # the server's counts when handed out
        self.version = fingerprint(server.select(template))   # of every copy handed out

    def take(self):
        """(a database on a college copy, the keys the server holds now) for one test."""
        if self.kept is None:
            db = self.server.select(f"college_test_{next(_numbers)}")
            restore_copy(db, self.template)
            self.kept = (db.graph_name, content(db))
        keys = self._keys()
        self.commands = self._commands()
        return self.server.select(self.kept[0]), keys

    def give_back(self, db, keys_before: set[str]) -> None:
        name, before = self.kept or ("", None)
        self.kept = None
        untouched = self.commands is not None and self._only_reads_since(self.commands)
        raw = db.client.connection   # not the course's Database, which a test may have patched
        writes, stamped = raw.execute_command("HMGET", version_key(name), "writes", "version")
        there = name in db.client.list_graphs()
        if (there and before is not None and int(writes or 0) == 0
                and self._keys() == keys_before and (untouched or content(db) == before)):
            self.kept = (name, before)
            if stamped is None or _text(stamped) == f"0 {self.version}":
                return                     # its caches and version key are still true
        forget_cached(db)
        raw.execute_command("DEL", version_key(name))   # a fresh copy has no version key yet
        if there and self.kept is None:
            db.client.select_graph(name).delete()

    def _commands(self) -> dict[str, int]:
        """How many times the server has run each command (INFO commandstats), by name."""
        stats = self.server.client.connection.execute_command("INFO", "commandstats")
        return {name.removeprefix("cmdstat_").lower(): entry["calls"] for name, entry in stats.items()}

    def _only_reads_since(self, before: dict[str, int]) -> bool:
        """Has the server run nothing since `before` but commands that leave every graph as it was?"""
        return all(name in UNCHANGING for name, calls in self._commands().items()
                   if calls != before.get(name, 0))

    def _keys(self) -> set[str]:
        """The server's keys but the version keys and FalkorDB's own query telemetry."""
        return {key for key in self.server.client.connection.execute_command("KEYS", "*")
                if not key.startswith(("course:version:", "telemetry{"))}


# Commands that change no graph: reads, and HSET (a reader stamps the data version it worked
# out; a graph's key is not a hash, and a new hash is a new key, which the key check sees).
UNCHANGING = frozenset({
    "graph.ro_query", "graph.explain", "graph.list", "hget", "hmget", "hgetall", "hexists",
    "hset", "get", "mget", "exists", "keys", "scan", "type", "ttl", "pttl", "ping", "echo",
    "info", "dbsize", "time", "lastsave", "hello", "client|setinfo", "client|setname",
    "client|getname", "client|id", "client|info", "config|get", "memory|usage", "object|encoding",
})
CONTENT_QUERIES = (
    "MATCH (n) RETURN id(n), labels(n), properties(n) ORDER BY id(n)",
    "MATCH (a)-[r]->(b) RETURN id(r), type(r), id(a), id(b), properties(r) ORDER BY id(r)",
    "CALL db.indexes() YIELD label, properties, types, options, entitytype "
    "RETURN label, properties, types, options, entitytype ORDER BY label, entitytype",
    "CALL db.constraints() YIELD type, label, properties, entitytype "
    "RETURN type, label, properties, entitytype ORDER BY type, label, entitytype",
)
ROW_LIMIT = 10_000   # the server's RESULTSET_SIZE: a read of that many rows may be cut short


def restore_copy(db, template: str) -> None:
    """Copy the template graph into db's (new) graph without forking the server: DUMP, then
    RESTORE under a scratch key renamed to db's graph in one transaction (the rename gives the
    graph its name inside FalkorDB too; RENAMENX leaves a graph that is there alone).

    FalkorDB's GRAPH.COPY forks the server, and the copy can hang for good (a CI run's setup
    waited 80 s for one that never came: bench/bench_copy.py). A RESTORE is safe here, where
    nobody reads the template while it is copied; the course's loader, whose graph may be read
    meanwhile, keeps GRAPH.COPY (`course.foundation.dataset.copy_graph` says why).
    """
    raw = db.client.connection
    scratch = db.graph_name + ":restoring"
    with raw.pipeline(transaction=True) as pipe:
        pipe.restore(scratch, 0, raw.dump(template))
        pipe.renamenx(scratch, db.graph_name)
        pipe.delete(scratch)
        _, renamed, _ = pipe.execute()
    assert renamed, f"{db.graph_name} was there already"


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def content(db) -> str | None:
    """A digest of everything in db's graph: every node, relationship, property and index
    (None for a graph too large to read whole: never taken for unchanged). The rows come as
    the server writes them (its verbose text): the client's parsing of every embedding would
    take longer than the queries."""
    digest = hashlib.sha1()
    for cypher in CONTENT_QUERIES:
        rows = db.client.connection.execute_command("GRAPH.RO_QUERY", db.graph_name, cypher)[1]
        if len(rows) >= ROW_LIMIT:
            return None
        digest.update(repr(rows).encode())   # in a set order: the same content, the same text
    return digest.hexdigest()


def forget_cached(db) -> None:
    """Drop what this process worked out from db's graph (its versions, procedures)."""
    for key in [key for key in versioning._CACHE if key[:2] == (db.location, db.graph_name)]:
        del versioning._CACHE[key]
    safety._MODES.pop((db.location, db.graph_name), None)


@pytest.fixture(scope="session")
def _spare_copy(_shared_server, _college_template):
    return SpareCopy(_shared_server, _college_template.graph_name)


@pytest.fixture
def college_db(_spare_copy):
    """A graph of this test's own with the college graph loaded: a copy of one loaded graph,
    indexes and all, or the copy the last test read without changing (`SpareCopy`)."""
    db, keys = _spare_copy.take()
    yield db
    _spare_copy.give_back(db, keys)


# The LLM SDKs name the platform in their requests, and Python finds the processor's name by
# running `uname -p` once a process: run it now, before any test, where no guard stops it.
platform.processor()


@pytest.fixture(autouse=True)
def _processes_are_slow(request, monkeypatch):
    """A test that starts a process (`python -m course ...`, a kernel, a database server of its
    own) is what the `slow` marker says it covers: it must be marked, so that
    `pytest -m "not slow"` stays the quick loop. Unmarked, it fails here with that sentence.

    The check is where every Popen starts its process, not on the name `subprocess.Popen`: a
    library that imported Popen by name (jupyter_client's kernel launcher) uses the class."""
    if request.node.get_closest_marker("slow"):
        return

    def quick_start(self, args, executable, *rest, **kwargs):
        program = executable or (args[0] if isinstance(args, (list, tuple)) else str(args).split()[0])
        pytest.fail(f"This test starts a process ({Path(str(program)).name}): mark it "
                    "@pytest.mark.slow (the quick loop, -m 'not slow', skips those).", pytrace=False)

    monkeypatch.setattr(subprocess.Popen, "_execute_child", quick_start)


# The college graph is 207 rows (75 nodes, 132 relationships); 25 times it writes in moments,
# a hundred times takes seconds.
QUICK_ROWS = 10_000


@pytest.fixture(autouse=True)
def _large_graphs_are_slow(request, monkeypatch):
    """A test that writes a graph of over QUICK_ROWS rows (the 100-times look-alike) takes
    seconds: it must be marked `slow`. Unmarked, it fails here with that sentence."""
    if request.node.get_closest_marker("slow"):
        return
    batches, written = dataset._batches, [0]

    def counted(rows, *args, **kwargs):
        written[0] += len(rows)
        if written[0] > QUICK_ROWS:
            pytest.fail(f"This test writes a graph of over {QUICK_ROWS:,} rows: mark it "
                        "@pytest.mark.slow (the quick loop, -m 'not slow', skips those).",
                        pytrace=False)
        return batches(rows, *args, **kwargs)

    monkeypatch.setattr(dataset, "_batches", counted)
