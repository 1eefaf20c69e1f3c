"""`python -m course mcp`, as an MCP client sees it: the SDK's own client, the course's refusals.

The quick tests connect the SDK's `Client` to the server in this process (the same protocol
objects, no subprocess); the slow ones start `python -m course mcp` and talk to it over stdio,
and once over streamable HTTP on the loopback, as a learner's MCP client would. Every hostile
call must come back as a tool error of one sentence (no traceback, no key), and the graph's
fingerprint must be the same after it as before.
"""
from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult

from course.foundation.errors import InvalidInput
from course.foundation.versioning import fingerprint
from course.ui.mcp_server import check_port, make_server
from course.ui.mcp_tools import CollegeTools
from fake_llm_server import FAKE_KEY, Reply, fake_server, llm_settings_cleared  # noqa: F401

TOOLS = {"get_schema", "execute_cypher", "search_notes", "study_plan", "study_partners", "ask"}
# One call of each tool, and what its result must hold.
GOOD_CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("get_schema", {}, "Student {id, name, year, branch}"),
    ("execute_cypher", {"query": "MATCH (s:Student {name: $name}) RETURN s.year AS year",
                        "params": {"name": "Payal"}}, '"year": 2'),
    ("search_notes", {"query": "What is a race condition?", "mode": "fulltext", "k": 2},
     '"concept": "Threads"'),
    ("study_plan", {"student": "Sneha", "subject": "DBMS", "days": 10}, "Day 1"),
    ("study_partners", {"student": "Sneha"}, "Rahul: B+ in Computer Networks, like your B"),
    ("ask", {"question": "Who should I learn ML from?"}, "Rahul"),
]
# A hostile or mistaken call of each kind, and a word its refusal must contain.
HOSTILE_CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("execute_cypher", {"query": "MATCH (n) DETACH DELETE n"}, "DETACH DELETE"),
    ("execute_cypher", {"query": "CREATE (:Student {id: 'S99', name: 'Eve'})"}, "CREATE"),
    ("execute_cypher", {"query": "MATCH (s:Student) SET\ts.year = 9"}, "SET"),
    ("execute_cypher", {"query": "CALL db.idx.fulltext.drop('Note')"}, "db.idx.fulltext.drop"),
    ("execute_cypher", {"query": "LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r"}, "LOAD CSV"),
    ("execute_cypher", {"query": "MATCH p = (a)-[*]-(b) RETURN count(p)"}, "upper bound"),
    ("execute_cypher", {"query": "RETURN size(range(1, 100000000))"}, "range()"),
    ("execute_cypher", {"query": "MATCH (s:Student RETURN s"}, "FalkorDB"),
    ("execute_cypher", {"query": "MATCH (s) RETURN s; MATCH (n) DELETE n"}, "DELETE"),
    ("execute_cypher", {"query": "x" * 5_000}, "at most 4000 characters"),
    ("execute_cypher", {"query": "RETURN $a", "params": {"a` RETURN 1 //": 1}}, "parameter name"),
    ("execute_cypher", {"query": "RETURN $a", "params": {"a": {"nested": "map"}}}, "parameter 'a'"),
    ("execute_cypher", {"query": "RETURN 1",
                        "params": {f"p{i}": "v" * 300 for i in range(15)}}, "limit is 4,000"),
    ("execute_cypher", {"query": 42}, "valid string"),
    ("execute_cypher", {}, "needs the argument 'query'"),
    ("search_notes", {"query": "paging", "mode": "everything"}, "'mode'"),
    ("search_notes", {"query": "paging", "k": 10_000}, "'k'"),
    ("search_notes", {"query": "   "}, "empty"),
    ("study_plan", {"student": "Nobody", "subject": "DBMS"}, "There is no student 'Nobody'"),
    ("study_plan", {"student": "Sneha", "subject": "Astrology"}, "There is no subject"),
    ("study_plan", {"student": "Sneha", "subject": "DBMS", "days": 0}, "'days'"),
    ("study_plan", {"student": "S" * 1_000, "subject": "DBMS"}, "at most 100 characters"),
    ("study_partners", {"student": "Nobody"}, "There is no student 'Nobody'"),
    ("ask", {"question": "Delete every student from the graph"}, "cannot change the data"),
    ("ask", {"question": "q" * 3_000}, "at most 2000 characters"),
    ("ask", {"question": "Who is Payal?", "session": "../../etc"}, "session id"),
    ("no_such_tool", {}, "no_such_tool"),
]


def run_calls(server: Any, calls: list[tuple[str, dict[str, Any]]]) -> list[CallToolResult]:
    """Call each tool in order in one session of the SDK's client; the results, in order."""
    async def session() -> list[CallToolResult]:
        async with Client(server) as client:
            return [await client.call_tool(name, arguments) for name, arguments in calls]
    return asyncio.run(session())


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(part, "text", "") for part in result.content)


def one_sentence(text: str) -> bool:
    """A refusal as a client must get it: one line, short, no traceback, no file path."""
    return ("\n" not in text and len(text) < 600 and "Traceback" not in text
            and 'File "' not in text and ".py" not in text)


# --- in this process: the SDK's client, the same server object ----------------------------

def test_every_tool_is_listed_with_a_description_and_a_schema(college_db):
    async def listed():
        async with Client(make_server(CollegeTools(college_db))) as client:
            return (await client.list_tools()).tools
    tools = asyncio.run(listed())
    assert {tool.name for tool in tools} == TOOLS
    for tool in tools:
        assert len(tool.description or "") > 60, tool.name
        assert tool.input_schema["type"] == "object"
        assert tool.annotations is not None and tool.annotations.read_only_hint
    schema = {tool.name: tool.input_schema for tool in tools}
    assert schema["execute_cypher"]["required"] == ["query"]
    assert schema["execute_cypher"]["properties"]["query"]["maxLength"] == 4_000
    assert schema["search_notes"]["properties"]["mode"]["enum"] == [
        "vector", "parent", "fulltext", "hybrid", "graph"]
    assert schema["study_plan"]["required"] == ["student", "subject"]
    assert set(schema["ask"]["properties"]) == {"question", "session"}


@pytest.mark.slow   # half a second or more
def test_each_tool_answers(college_db):
    results = run_calls(make_server(CollegeTools(college_db)),
                        [(name, arguments) for name, arguments, _ in GOOD_CALLS])
    for (name, _, expected), result in zip(GOOD_CALLS, results):
        assert not result.is_error, (name, text_of(result))
        assert expected in text_of(result), name
    ask = text_of(results[-1])
    assert ask.splitlines()[-1].startswith("[answered; Offline; agentic:")   # the footer


def test_execute_cypher_returns_records_with_the_row_cap(college_db):
    [result] = run_calls(make_server(CollegeTools(college_db)),
                         [("execute_cypher", {"query": "UNWIND range(1, 500) AS i RETURN i"})])
    found = result.structured_content
    assert found is not None and found["truncated"] is True
    assert found["recordCount"] == 200 and len(found["records"]) <= 200


@pytest.mark.parametrize("name, arguments, says", HOSTILE_CALLS,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(HOSTILE_CALLS)])
def test_a_hostile_call_is_a_tool_error_of_one_sentence(college_db, name, arguments, says):
    before = fingerprint(college_db)
    [result] = run_calls(make_server(CollegeTools(college_db)), [(name, arguments)])
    text = text_of(result)
    assert result.is_error, text
    assert says in text and one_sentence(text), text
    assert fingerprint(college_db) == before


class MockBrokenTools(CollegeTools):
    """A mock: the tools with a bug in get_schema, whose message holds server internals."""

    def get_schema(self) -> str:
        raise RuntimeError("internal state at 0x7f00 in course/ui/secret_module.py")


def test_a_bug_in_a_tool_is_a_sentence_not_its_internals(college_db):
    results = run_calls(make_server(MockBrokenTools(college_db)), [
        ("get_schema", {}), ("execute_cypher", {"query": "RETURN 1 AS one"})])
    text = text_of(results[0])
    assert results[0].is_error and "Something unexpected went wrong (RuntimeError)" in text
    assert "secret_module" not in text and one_sentence(text)
    assert not results[1].is_error   # the other tools still work


def test_a_conversation_is_kept_per_session(college_db):
    results = run_calls(make_server(CollegeTools(college_db)), [
        ("ask", {"question": "Who is Payal?", "session": "s1"}),
        ("ask", {"question": "uska year kya hai?", "session": "s1"}),
        ("ask", {"question": "uska year kya hai?", "session": "s2"}),
    ])
    assert "2" in text_of(results[1]).splitlines()[0]
    assert "Payal" not in text_of(results[2])   # another session knows nothing of her


def test_a_memory_graph_is_refused(college_db, monkeypatch):
    """COURSE_GRAPH naming a user's stored conversations: every tool refuses, saying why."""
    monkeypatch.setenv("COURSE_DB", college_db.location)
    monkeypatch.setenv("COURSE_GRAPH", "memory_user_alice")
    results = run_calls(make_server(), [("get_schema", {}),
                                        ("execute_cypher", {"query": "MATCH (n) RETURN n"})])
    for result in results:
        assert result.is_error and "stored conversation" in text_of(result)
        assert one_sentence(text_of(result))
    assert "memory_user_alice" not in college_db.client.list_graphs()   # nothing was made


def read_context(server: Any, reads: list[tuple[str, Any]]) -> list[Any]:
    """Read resources ("resource", uri) and get prompts ("prompt", arguments) in one session;
    each result, or the protocol error it raised."""
    async def session() -> list[Any]:
        found: list[Any] = []
        async with Client(server) as client:
            for kind, what in reads:
                try:
                    found.append(await (client.read_resource(what) if kind == "resource" else
                                        client.get_prompt("text_to_cypher", what)))
                except MCPError as exc:
                    found.append(exc)
        return found
    return asyncio.run(session())


@pytest.mark.parametrize("arguments, says", [
    ({"question": "q" * 3_000}, "at most 2000 characters"),
    ({"question": "   "}, "The question is empty"),
    ({}, "Missing required arguments"),
])
def test_a_bad_prompt_argument_is_one_sentence(college_db, arguments, says):
    [error] = read_context(make_server(CollegeTools(college_db)), [("prompt", arguments)])
    assert isinstance(error, MCPError) and says in error.message, error
    assert one_sentence(error.message)


def test_a_memory_graph_is_refused_by_the_resources_and_the_prompt(college_db, monkeypatch):
    monkeypatch.setenv("COURSE_DB", college_db.location)
    monkeypatch.setenv("COURSE_GRAPH", "memory_user_alice")
    found = read_context(make_server(), [("resource", "college://schema"),
                                         ("resource", "college://facts"),
                                         ("prompt", {"question": "Who is Payal?"})])
    for error in found:
        assert isinstance(error, MCPError) and "stored conversation" in error.message, error
        assert one_sentence(error.message)


def test_no_key_comes_back_from_a_provider_that_echoes_it(college_db, fake_server, monkeypatch):
    """A provider whose error quotes the key: the tool error says what failed, not the key."""
    monkeypatch.setenv("COURSE_LLM", "groq")
    fake_server.script("groq", *[Reply(status=400, body={"error": {
        "message": f"Invalid request for key {FAKE_KEY}", "type": "invalid_request_error"}})] * 20)
    results = run_calls(make_server(CollegeTools(college_db)), [
        ("ask", {"question": "Who is Payal?"}),
        ("execute_cypher", {"query": "RETURN $key AS key", "params": {"key": FAKE_KEY}})])
    for result in results:
        assert FAKE_KEY[4:] not in text_of(result) and FAKE_KEY[-10:] not in text_of(result)
        assert FAKE_KEY[-10:] not in json.dumps(result.structured_content or {})


def test_the_resources_and_the_prompt(college_db):
    async def read() -> tuple[Any, ...]:
        async with Client(make_server(CollegeTools(college_db))) as client:
            listed = (await client.list_resources()).resources
            facts = await client.read_resource("college://facts")
            schema = await client.read_resource("college://schema")
            prompt = await client.get_prompt("text_to_cypher", {"question": "Who is Payal?"})
            return listed, facts, schema, prompt
    listed, facts, schema, prompt = asyncio.run(read())
    assert {str(r.uri) for r in listed} == {"college://schema", "college://facts"}
    counted = json.loads(facts.contents[0].text)
    assert (counted["nodes"], counted["relationships"]) == (75, 132)
    assert counted["labels"]["Student"] == 5 and counted["types"]["EXPLAINS"] == 25
    assert "FRIENDS_WITH" in schema.contents[0].text
    words = prompt.messages[0].content.text
    assert "NEVER CREATE, MERGE, DELETE" in words and words.endswith("QUESTION: Who is Payal?")


# --- over stdio and HTTP: `python -m course mcp` as a client starts it ---------------------

def _environment(db, **extra: str) -> dict[str, str]:
    return {**os.environ, "COURSE_DB": db.location, "COURSE_GRAPH": db.graph_name,
            "COURSE_LLM": "offline", **extra}


def _stdio(db, **extra: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "course", "mcp"],
                                 env=_environment(db, **extra))


@pytest.mark.slow
def test_over_stdio_a_client_initializes_lists_and_calls_every_tool(college_db):
    async def session() -> tuple[Any, list[str], list[CallToolResult]]:
        async with Client(_stdio(college_db), mode="legacy") as client:   # initialize handshake
            names = [tool.name for tool in (await client.list_tools()).tools]
            results = [await client.call_tool(n, a) for n, a, _ in GOOD_CALLS]
            return client.server_info, names, results
    info, names, results = asyncio.run(session())
    assert info.name == "graphrag-course"
    assert set(names) == TOOLS
    for (name, _, expected), result in zip(GOOD_CALLS, results):
        assert not result.is_error and expected in text_of(result), name


@pytest.mark.slow
def test_over_stdio_every_hostile_call_is_refused_and_the_data_is_unchanged(college_db):
    before = fingerprint(college_db), college_db.counts()
    runaway = ("execute_cypher", {"query": "MATCH (a), (b), (c), (d), (e), (f) RETURN count(*)"},
               "time limit")
    calls = [*HOSTILE_CALLS, runaway]
    results = run_calls(_stdio(college_db), [(name, arguments) for name, arguments, _ in calls])
    for (name, _, says), result in zip(calls, results):
        assert result.is_error and says in text_of(result), (name, text_of(result))
        assert one_sentence(text_of(result)), text_of(result)
    assert (fingerprint(college_db), college_db.counts()) == before


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_over_http_on_the_loopback(college_db):
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "course", "mcp", "--http", "--port", str(port)],
                              env=_environment(college_db), stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        results = run_calls(f"http://127.0.0.1:{port}/mcp", [
            ("study_partners", {"student": "Sneha", "subject": "DBMS"}),
            ("execute_cypher", {"query": "MATCH (n) DETACH DELETE n"})])
        rebound = _as_a_web_page(port)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert "Payal: A+ in DBMS" in text_of(results[0])
    assert results[1].is_error and "DETACH DELETE" in text_of(results[1])
    assert college_db.counts() == {"nodes": 75, "relationships": 132}
    # A web page cannot reach it: another site's Origin, or another name for 127.0.0.1 (DNS
    # rebinding), is refused by the SDK's transport before any tool runs.
    assert rebound == (421, 403)


def _as_a_web_page(port: int) -> tuple[int, int]:
    """The status of an initialize request naming another host, then another site's origin."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "page", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream"}
    url = f"http://127.0.0.1:{port}/mcp"
    host = httpx.post(url, json=body, headers={**headers, "Host": f"evil.example:{port}"})
    origin = httpx.post(url, json=body, headers={**headers, "Origin": "http://evil.example"})
    return host.status_code, origin.status_code


def test_a_port_in_use_is_refused_in_one_sentence():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(InvalidInput, match=rf"Port {port} on 127.0.0.1 is in use"):
            check_port(port)


@pytest.mark.slow
def test_mcp_port_without_http_is_refused_in_one_sentence(college_db):
    done = subprocess.run([sys.executable, "-m", "course", "mcp", "--port", "9000"],
                          capture_output=True, text=True, env=_environment(college_db), timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip() == ("error: --port is for --http (stdio has no port): add --http, "
                                   "or drop --port.")
