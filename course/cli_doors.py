"""The commands of the course's doors beyond the agent: `ingest` (notebook 15), `mcp` (16)
and `serve` (the web app).

`course.__main__` reads the command line; each command here, like those of `course.cli`, prints
its output and returns the exit status, and every failure a learner can cause ends with one
sentence.

>>> cmd_mcp(argparse.Namespace(http=False, port=9000))
Traceback (most recent call last):
  ...
course.foundation.errors.InvalidInput: --port is for --http (stdio has no port): add --http, or drop --port.
"""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from course.cli import _make_agent, print_json
from course.foundation.errors import CourseError, InvalidInput
from course.pipeline.results import printable

if TYPE_CHECKING:
    from course.foundation.db import Database
    from course.pipeline.agent import Agent, Memory
    from course.ui.web.app import Chat


def cmd_mcp(args: argparse.Namespace) -> int:
    """Serve the graph's tools to MCP clients: over stdio, or HTTP on 127.0.0.1 (--http)."""
    from course.ui.mcp_server import serve

    if args.port is not None and not args.http:
        raise InvalidInput("--port is for --http (stdio has no port): add --http, or drop --port.")
    serve(http=args.http, port=args.port or 8000)
    return 0


def cmd_ingest(args: argparse.Namespace) -> int:
    """Review documents (the diff, nothing written), apply them (--apply), or undo one (--undo)."""
    from course.ingest.write_door import refuse_memory_graph

    if args.undo is not None and (args.files or args.apply or args.include_unverified):
        raise InvalidInput("--undo DOCUMENT takes no FILE, --apply or --include-unverified: "
                           "undo one document on its own.")
    if args.undo is None and not args.files:
        raise InvalidInput("No document given: `python -m course ingest data/ingest/grade_sheet.csv`, "
                           "or `--undo DOCUMENT` to take one out.")
    from course.foundation.connection import connect
    from course.foundation.dataset import ensure_college

    db = connect()
    refuse_memory_graph(db)   # before the first run's load: never load into a memory graph
    ensure_college(db)
    if args.undo is not None:
        from course.ingest.write_door import undo

        done = undo(db, args.undo)
        if args.json:
            print_json({"document": done.document, "removed": done.removed, "restored": True})
        else:
            print(printable(f"undone {done.document}: {done.removed} nodes and relationships "
                            "removed, changed properties restored"))
        return 0
    from course.ingest.review import models_for

    llm, judge = models_for(args.provider)
    failed = 0
    for path in args.files:
        failed += _ingest_one(db, path, args, llm, judge)
    return 1 if failed else 0


def _ingest_one(db: Database, path: str, args: argparse.Namespace, llm: Any, judge: Any) -> int:
    """One document reviewed (and applied); 1 if it could not be, saying why."""
    from course.ingest.review import review
    from course.ingest.write_door import apply

    try:
        found = review(db, path, llm=llm, judge=judge, include_unverified=args.include_unverified)
        if args.apply:
            done = apply(db, found)
            found.notes.append(f"already applied as {done.document}: nothing written" if done.already
                               else f"applied: {done.written} written as {done.document} "
                                    f"(undo: python -m course ingest --undo {done.document})")
    except CourseError as exc:   # one document refused; the others go on
        if args.json:
            print_json({"document": printable(path, limit=200), "error": str(exc)})
        else:
            print(printable(f"error: {exc}"), file=sys.stderr)   # the message names the file
        return 1
    if args.json:
        print_json(found.to_dict())
    else:
        print(printable(found.summary()) + "\n", flush=True)
    return 0


WEB_USER = "web"   # the browsers' conversations: one memory graph, a session per browser


def web_chat(db: Database, *, agent: str = "pipeline", provider: str | None = None,
             **options: Any) -> Chat:
    """What `serve` serves: a session per browser, its memory kept in the graph as
    `ask --session` keeps one, its agent made as `ask --agent` makes one. `options` go to
    `Chat` (`keepalive_s`) and `Sessions` (`per_minute`, `per_address`, `limit_key`, `clock`)."""
    from course.llm.registry import describe_llm, make_llm
    from course.pipeline.answer_cache import AnswerCache
    from course.pipeline.graph_memory import GraphMemory
    from course.foundation.versioning import data_version, per_version
    from course.pipeline.schema import introspect
    from course.ui.web.app import Chat
    from course.ui.web.picture import GraphSource
    from course.ui.web.sessions import Sessions

    llm = make_llm(provider)       # a missing key or an unknown name: said before serving
    chosen = argparse.Namespace(agent=agent, provider=provider, rows=False, attempts=None,
                                max_steps=None)

    def make_memory(session: str) -> Memory:
        return GraphMemory(db, session=session, user=WEB_USER, cache=AnswerCache(db))

    def make_agent(memory: Memory) -> Agent:   # the schema: read once per data version
        schema = per_version(db, "the web app's schema", lambda: introspect(db))
        return _make_agent(chosen, db, memory, schema)

    keepalive = {k: options.pop(k) for k in ("keepalive_s",) if k in options}
    sessions = Sessions(make_memory, make_agent, version=lambda: data_version(db), **options)
    return Chat(sessions, GraphSource(db), {"agent": agent, "provider": describe_llm(llm)},
                **keepalive)


def cmd_serve(args: argparse.Namespace) -> int:
    from course.foundation.connection import connect
    from course.foundation.dataset import ensure_college
    from course.foundation.graphs import require_data_graph
    from course.ui.web.serve import serve

    db = connect()
    require_data_graph(db.graph_name)   # never load into, answer from or draw a memory graph
    ensure_college(db)
    chat = web_chat(db, agent=args.agent, provider=args.provider)
    serve(chat, host=args.host, port=args.port,
          what=f" (agent {args.agent}, {chat.about['provider'].split(':')[0]})")
    return 0
