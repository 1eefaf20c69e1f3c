"""`python -m course mcp`: the college graph's tools for any MCP client, on the official SDK.

Introduced in notebook 16. `make_server()` registers `course.ui.mcp_tools.CollegeTools`'s
methods with the MCP SDK's `MCPServer`: six tools (each with a description a model can act
on and a JSON schema for its arguments), two resources (the schema text and the data facts)
and one prompt (the course's text-to-Cypher rules). The SDK speaks the protocol; this module
only turns the course's refusals into tool errors of one sentence, with nothing in them that
looks like a key or a password, and no traceback over the wire.

>>> import asyncio
>>> server = make_server(CollegeTools(db))
>>> sorted(tool.name for tool in asyncio.run(server.list_tools()))
['ask', 'execute_cypher', 'get_schema', 'search_notes', 'study_partners', 'study_plan']
"""
from __future__ import annotations

import functools
import json
import logging
import socket
import sys
from collections.abc import Callable
from importlib.metadata import version
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import parse_qsl, urlsplit

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import (INVALID_PARAMS, CallToolResult, GetPromptResult, InputRequiredResult,
                       ToolAnnotations)
from pydantic import Field, ValidationError

from course.foundation.config import get_setting
from course.foundation.errors import CourseError, InvalidInput
from course.llm.errors import redact
from course.pipeline.agent import check_question
from course.planner.plans import MAX_DAYS
from course.retrieval.search import MAX_K
from course.ui.mcp_tools import (MAX_NAME_CHARS, MAX_QUERY_CHARS, CollegeTools, open_college,
                                 refusal)

logger = logging.getLogger(__name__)
T = TypeVar("T")
INSTRUCTIONS = (
    "Tools over a college knowledge graph in FalkorDB (students, subjects, clubs, skills, "
    "projects, concepts and notes). Read the schema (get_schema, or the resource "
    "college://schema) before writing Cypher for execute_cypher; everything is read-only.")
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                            open_world_hint=False)

Query = Annotated[str, Field(max_length=MAX_QUERY_CHARS, description=(
    "ONE read-only Cypher query; pass values as $parameters, e.g. "
    "MATCH (s:Student {name: $name}) RETURN s.year AS year"))]
Params = Annotated[dict[str, Any] | None, Field(description=(
    'Values for the $parameters of the query, e.g. {"name": "Payal"}: text, numbers, '
    "true/false, null or lists of these."))]
Student = Annotated[str, Field(max_length=MAX_NAME_CHARS,
                               description="A student's name or id, e.g. Sneha or S04")]
Subject = Annotated[str, Field(max_length=MAX_NAME_CHARS,
                               description="A subject's name or code, e.g. DBMS or CS201")]
Question = Annotated[str, Field(max_length=2_000, description=(
    "One question in English or Hinglish, e.g. 'Who should I learn ML from?'"))]


def scrub(value: T) -> T:
    """Every text in `value` with anything that looks like a key or a password taken out.

    >>> scrub({"error": "Invalid API Key gsk_abc123def456xyz"})
    {'error': 'Invalid API Key [redacted]'}
    """
    if isinstance(value, str):
        return redact(value, url_secrets())  # type: ignore[return-value]
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items()}  # type: ignore[return-value]
    if isinstance(value, list):
        return [scrub(v) for v in value]  # type: ignore[return-value]
    return value


def url_secrets() -> list[str]:
    """The password of FALKORDB_URL, in its user-info or as a parameter (none: [])."""
    url = urlsplit(get_setting("FALKORDB_URL") or "")
    found = [url.password or ""] + [v for k, v in parse_qsl(url.query) if k.lower() in
                                    ("password", "pass", "pwd", "secret", "token", "auth")]
    return [secret for secret in found if secret]


class CourseMCPServer(MCPServer):
    """The SDK's server, with arguments that fail the schema (a tool's or the prompt's) refused
    in one sentence that does not echo the value."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None
                        ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(f"Error executing tool {name}: "
                                f"{invalid_arguments(name, exc.__cause__)}") from None
            raise

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None,
                         context: Context[Any, Any] | None = None
                         ) -> GetPromptResult | InputRequiredResult:
        try:
            return await super().get_prompt(name, arguments, context)
        except ValueError as exc:   # the SDK's wrapper of every failure: a sentence instead
            cause: BaseException | None = exc
            while cause is not None and not isinstance(cause, ValidationError):
                cause = cause.__cause__
            sentence = (invalid_arguments(name, cause, kind="prompt")
                        if isinstance(cause, ValidationError)
                        else str(exc).splitlines()[0])
            raise invalid_params(sentence) from None


def invalid_params(message: str) -> MCPError:
    """A protocol error the client reads: the request's parameters cannot be used, and why."""
    return MCPError(INVALID_PARAMS, message)


def invalid_arguments(tool: str, error: ValidationError, *, kind: str = "tool") -> str:
    """The first argument that fails the schema, in one sentence (its value is not echoed)."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "arguments"
    message = str(first["msg"]).rstrip(".")
    if first["type"] == "missing":
        return f"{tool} needs the argument {where!r}: see the {kind}'s input schema."
    return f"The argument {where!r} of {tool} is not valid ({message}): see the {kind}'s input schema."


class Door:
    """The tools, opened on the first call: a database that is down, or a memory graph named
    by COURSE_GRAPH, is each call's one-sentence error, and the next call tries again."""

    def __init__(self, tools: CollegeTools | None = None) -> None:
        self.tools = tools

    def call(self, method: Callable[[CollegeTools], T],
             error: Callable[[str], Exception] = ToolError) -> T:
        try:
            if self.tools is None:
                self.tools = CollegeTools(open_college())
            with self.tools.lock:
                return scrub(method(self.tools))
        except CourseError as exc:
            raise error(scrub(refusal(exc))) from None
        except Exception as exc:  # noqa: BLE001 - a bug must not send a traceback to the client
            logger.exception("unexpected error in a course MCP call")
            raise error(f"Something unexpected went wrong ({type(exc).__name__}); the server's "
                        "log has the details, and the other tools still work.") from None


def make_server(tools: CollegeTools | None = None) -> MCPServer:
    """The MCP server over `tools` (default: the course graph, opened on the first call)."""
    door = Door(tools)
    # A refusal is the tool's answer, not an event to log: the SDK logs each one at INFO.
    logging.getLogger("mcp.server.mcpserver").setLevel(logging.WARNING)
    server = CourseMCPServer("graphrag-course", instructions=INSTRUCTIONS, log_level="WARNING",
                             version=version("graphrag-course"))
    _register_tools(server, door)
    _register_context(server, door)
    return server


def _register_tools(server: MCPServer, door: Door) -> None:
    tool = functools.partial(server.tool, annotations=READ_ONLY)

    @tool(description="The graph's schema: labels, properties, relationships, listed values and "
                      "value scales (grades, skill levels). Read it before writing Cypher.")
    def get_schema() -> str:
        return door.call(lambda t: t.get_schema())

    @tool(description="Run ONE read-only Cypher query on the college graph (FalkorDB) and get "
                      "{recordCount, records, truncated}. Writes, unbounded paths and other "
                      "runaway queries are refused; a query is stopped after 5 s and at most "
                      "200 rows are read. An error carries FalkorDB's own message: fix the "
                      "query and call again.")
    def execute_cypher(query: Query, params: Params = None) -> dict[str, Any]:
        return door.call(lambda t: t.execute_cypher(query, params))

    @tool(description="Find the notes that explain a topic, best first: {query, mode, results: "
                      "[{note, concept, score, text}]}. e.g. 'What is a race condition?'")
    def search_notes(
            query: Annotated[str, Field(max_length=2_000, description="What to find notes about")],
            mode: Annotated[Literal["vector", "parent", "fulltext", "hybrid", "graph"], Field(
                description="vector, parent (whole notes), fulltext (words), hybrid (both, "
                            "the default), graph (also the notes of prerequisites)")] = "hybrid",
            k: Annotated[int, Field(ge=1, le=MAX_K, description="How many notes")] = 3,
    ) -> dict[str, Any]:
        return door.call(lambda t: t.search_notes(query, mode, k))

    @tool(description="A day-by-day plan for a student to learn a subject, from the "
                      "prerequisite graph (what the student does not know yet, prerequisites "
                      "first): {student, subject, days: [{day, concepts, notes}], known, "
                      "unscheduled, summary}. An unknown student or subject is an error that "
                      "lists the known ones.")
    def study_plan(student: Student, subject: Subject,
                   days: Annotated[int, Field(ge=1, le=MAX_DAYS,
                                              description="At most this many days")] = 30
                   ) -> dict[str, Any]:
        return door.call(lambda t: t.study_plan(student, subject, days))

    @tool(description="Study partners (weak in the same subject) and mentors (strong in it) for "
                      "a student, each with the grade that is the reason: {student, peers: "
                      "[{student, kind, subject, reason}], summary}.")
    def study_partners(student: Student, subject: Subject | None = None) -> dict[str, Any]:
        return door.call(lambda t: t.study_partners(student, subject))

    @tool(description="Ask the course's agentic agent a question in English or Hinglish; it "
                      "routes it over reviewed queries, note search and text-to-Cypher, and "
                      "replies with the answer and a footer saying how it was found. Give a "
                      "session id to keep a conversation ('uska year kya hai?' after 'Who is "
                      "Payal?').")
    def ask(question: Question,
            session: Annotated[str | None, Field(description=(
                "A conversation id (letters, digits, _ and -), e.g. 'demo'; none: a fresh "
                "conversation"))] = None) -> str:
        return door.call(lambda t: t.ask(question, session))


def _register_context(server: MCPServer, door: Door) -> None:
    @server.resource("college://schema", name="schema", mime_type="text/plain",
                     description="The graph's schema as the agent's prompt gives it.")
    def schema() -> str:
        return door.call(lambda t: t.get_schema(), ResourceError)

    @server.resource("college://facts", name="facts", mime_type="application/json",
                     description="What the graph holds: nodes and relationships by label and type.")
    def facts() -> str:
        return json.dumps(door.call(lambda t: t.facts(), ResourceError))

    @server.prompt(name="text_to_cypher", description=(
        "The course's text-to-Cypher rules for this graph (schema, rules, worked examples), "
        "followed by a question: what the course's pipeline sends its LLM."))
    def text_to_cypher(question: Question) -> str:
        return door.call(lambda t: f"{t.cypher_rules()}\n\nQUESTION: {check_question(question)}",
                         invalid_params)


def check_port(port: int) -> int:
    """The port, if nothing on 127.0.0.1 listens on it yet; else InvalidInput saying what to do."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            raise InvalidInput(f"Port {port} on 127.0.0.1 is in use (another server?): pick "
                               f"another with --port, e.g. --port {port + 1}.") from None
    return port


def serve(*, http: bool = False, port: int = 8000) -> None:
    """Serve over stdio (the default), or over streamable HTTP on 127.0.0.1:`port` at /mcp."""
    server = make_server()
    if http:
        check_port(port)
        print(f"MCP server at http://127.0.0.1:{port}/mcp (Ctrl-C stops it)", file=sys.stderr,
              flush=True)
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        if sys.stdin is not None and sys.stdin.isatty():   # a learner typed the command
            print("This MCP server speaks JSON-RPC on standard input and output: start it from "
                  "an MCP client (see the README), or add --http. Ctrl-C stops it.",
                  file=sys.stderr, flush=True)
        server.run("stdio")
