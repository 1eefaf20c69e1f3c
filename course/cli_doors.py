"""The commands of the course's doors beyond the agent: `ingest` (notebook 15) and `mcp` (16).

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

from course.cli import print_json
from course.foundation.errors import CourseError, InvalidInput
from course.pipeline.results import printable

if TYPE_CHECKING:
    from course.foundation.db import Database


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

