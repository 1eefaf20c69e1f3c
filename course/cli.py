"""What each command of `python -m course` does (load, info, stop, ask, demo, eval, plan, ...).

The parser that reads the command line is `course.__main__.build_parser`. Each command is a
function of the parsed arguments that prints its output and returns the exit status;
every failure the learner can cause or meet ends with one sentence, never a traceback.

>>> import argparse
>>> args = argparse.Namespace(command="ask", questions=["Who", "is", "Payal?"], one=True)
>>> _questions(args)
['Who is Payal?']
"""
from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any

from course.foundation.connection import default_db_path
from course.foundation.errors import CourseError, InvalidInput
from course.pipeline.results import Result, json_line, printable

if TYPE_CHECKING:
    from course.agents.agentic import AgenticAgent
    from course.agents.tools import ToolAgent
    from course.foundation.db import Database
    from course.pipeline.agent import Agent, Memory
    from course.pipeline.schema import GraphSchema
    from course.planner.peers import Peers
    from course.planner.plans import Plan


DEFAULT_ATTEMPTS = 2   # the pipeline's attempts per question when --attempts is not given


def log_path() -> Path:
    """Where unexpected errors are written for a developer: beside the default database."""
    return default_db_path().parent / "course.log"


def cmd_load(args: argparse.Namespace) -> int:
    from course.foundation.connection import connect
    from course.foundation.dataset import load_college

    from course.retrieval.text_layer import text_layer_builder

    # The text layer (notebook 13) is built in the staging graph too; an embedder that cannot
    # run stops the load before anything is written.
    counts = load_college(connect(), reset_first=args.reset, also=text_layer_builder(args.embedder),
                          keep_ingested=args.keep_ingested)
    if args.json:
        print_json(counts)
    else:
        print(printable(f"{counts['nodes']} nodes, {counts['relationships']} relationships "
                        f"in graph {counts['graph']!r}"))
        for label, n in counts["labels"].items():
            print(printable(f"  {label:<10} {n}"))
        for kind, n in counts["types"].items():
            print(printable(f"  {kind:<16} {n}"))
        if "chunks" in counts:  # notebook 13's text layer, beside the course graph
            print(printable(f"text layer: {counts['chunks']} chunks PART_OF notes, embedded with "
                            f"{counts['embedder']} ({counts['dimension']} dimensions)"))
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from course.foundation.config import configured_keys
    from course.foundation.connection import connect, where_data_lives
    from course.llm.registry import chosen_name, describe_llm, make_llm

    try:
        info = {**connect().info(), "status": "running"}
    except CourseError as exc:  # still say where the data should be, and why it is not there
        info = {**where_data_lives(), "status": str(exc)}
    try:
        provider = f"{chosen_name()}: {describe_llm(make_llm())}"
    except CourseError as exc:  # an unknown name, a missing key: say so, keep the rest
        provider = f"{chosen_name()}: {exc}"
    shown: dict[str, object] = {**info, "llm": provider, "keys": configured_keys()}
    if args.json:
        print_json(shown)
    else:
        for key, value in shown.items():
            if isinstance(value, dict):
                value = ", ".join(f"{name} {state}" for name, state in value.items())
            print(printable(f"{key:>7}: {value}"))
    return 0 if info["status"] == "running" else 1


def cmd_stop(args: argparse.Namespace) -> int:
    from course.foundation.connection import where_data_lives
    from course.foundation.server import EmbeddedServer

    place = where_data_lives()
    if place["mode"] == "server":
        print("FALKORDB_URL is set: stop that server yourself (`docker compose down`).")
        return 0
    server = EmbeddedServer(Path(place["file"]))
    print("stopped the embedded FalkorDB" if server.stop() else "the embedded FalkorDB was not running")
    return 0


def _questions(args: argparse.Namespace, *, what: str = "question") -> list[str]:
    """The QUESTION arguments, or one question per line from standard input."""
    if args.questions:
        if getattr(args, "one", False):
            return [" ".join(args.questions)]
        if len(args.questions) > 2 and all(len(q.split()) == 1 for q in args.questions):
            print(printable(f"note: {len(args.questions)} one-word questions; to ask one question, "
                            f"quote it (\"{' '.join(args.questions)}\") or add --one."),
                  file=sys.stderr)
        return list(args.questions)
    if sys.stdin is None or sys.stdin.isatty():
        raise InvalidInput(f"No {what} given: `python -m course {args.command} \"Who is Payal?\"`, "
                           f"or one {what} per line on standard input.")
    data = sys.stdin.buffer.read()
    lines = [line for line in data.decode("utf-8", errors="replace").splitlines() if line.strip()]
    if not lines:
        raise InvalidInput(f"Standard input held no {what}: give one {what} per line.")
    return lines


def print_json(data: Any) -> None:
    """The one JSON writer of every command: one object on one line (`json_line`), flushed.

    >>> print_json({"nodes": 75, "name": "Payal"})
    {"nodes": 75, "name": "Payal"}
    """
    print(json_line(data), flush=True)


def _print_result(result: Result, as_json: bool) -> None:
    if as_json:
        print_json(result.to_dict())
    else:
        print(result.summary() + "\n", flush=True)


def _failed(question: str, error: str, *, rows_only: bool) -> Result:
    """A failed Result saying why: with `--rows` its answer is None, as every other one's is."""
    return Result(printable(question, limit=200), status="failed", error=error,
                  answer=None if rows_only else f"Sorry, I couldn't answer that. {error}")


def _answer_safely(agent: Agent | ToolAgent | AgenticAgent, question: str) -> Result:
    """One question's Result, whatever happens: a bug in one answer must not end the session.

    The learner gets a sentence; the traceback goes to the log file for a developer.
    """
    try:
        return agent.answer(question)
    except Exception as exc:  # noqa: BLE001 - the one place that catches everything
        log = log_path()
        try:
            log.parent.mkdir(parents=True, exist_ok=True)
            with log.open("a", encoding="utf-8") as handle:
                handle.write(f"--- {type(exc).__name__} answering {question!r}\n")
                handle.write(traceback.format_exc())
            where = f"the details are in {log}"
        except OSError:
            where = "the details could not be written to a log"
        error = (f"Something unexpected went wrong while answering this question "
                 f"({type(exc).__name__}); {where}. The other questions are not affected.")
        return _failed(question, error, rows_only=not agent.writes_answer)


def cmd_ask(args: argparse.Namespace) -> int:
    from course.foundation.connection import connect
    from course.foundation.dataset import ensure_college
    from course.foundation.graphs import require_data_graph
    from course.pipeline.answer_cache import AnswerCache
    from course.pipeline.graph_memory import GraphMemory, check_id
    from course.pipeline.memory import ShortTermMemory

    for value, what in ((args.session, "session id"), (args.user, "user id")):
        if value is not None:
            check_id(value, what=what)  # a bad id is a usage error: refused before any question
    check_agent_options(args)
    questions = _questions(args)
    try:
        db = connect()
        require_data_graph(db.graph_name)  # never load into, or answer from, a memory graph
        ensure_college(db)  # the first run loads the graph
        memory: ShortTermMemory
        if args.session or args.user:  # notebook 10: the conversation is kept in the graph
            memory = GraphMemory(db, session=args.session or "default", user=args.user or "default",
                                 cache=AnswerCache(db))
        else:
            memory = ShortTermMemory()
        agent = _make_agent(args, db, memory)
    except CourseError as exc:  # a stopped server, a missing key: each question fails, saying why
        for question in questions:
            _print_result(_failed(question, str(exc), rows_only=args.rows), args.json)
        return 1
    failed = 0
    for question in questions:
        if args.fresh:
            memory.clear()
        result = _answer_safely(agent, question)
        failed += result.status == "failed"
        _print_result(result, args.json)
    return 1 if failed and failed == len(questions) else 0


UNUSED = {  # (option, the agent that takes it, why another agent does not)
    "attempts": ("--attempts", "pipeline", "the {agent} agent retries through its own steps"),
    "max_steps": ("--max-steps", "tools", "the {agent} agent does not count tool calls"),
}


def check_agent_options(args: argparse.Namespace) -> None:
    """Refuse an option the chosen `--agent` does not use, saying what to do: never ignore it.

    >>> check_agent_options(argparse.Namespace(agent="tools", attempts=3, max_steps=None))
    Traceback (most recent call last):
    course.foundation.errors.InvalidInput: --attempts is for --agent pipeline (the tools agent \
retries through its own steps): drop --attempts, or use --agent pipeline.
    """
    for field, (option, agent, why) in UNUSED.items():
        if getattr(args, field) is not None and args.agent != agent:
            raise InvalidInput(f"{option} is for --agent {agent} ({why.format(agent=args.agent)}): "
                               f"drop {option}, or use --agent {agent}.")


def _make_agent(args: argparse.Namespace, db: Database, memory: Memory,
                schema: GraphSchema | None = None) -> Agent | ToolAgent | AgenticAgent:
    """The notebook-05 pipeline, notebook 11's tool loop (`--agent tools`) or notebook 14's
    learner agent (`--agent agentic`: notebook 12's router, updater and critic with the
    planner's tools). Each sees the verified facts ingested documents give a question
    (notebook 15)."""
    from course.ingest.context import facts_context
    from course.llm.registry import make_llm
    from course.pipeline.agent import Agent

    llm, answer = make_llm(args.provider), not args.rows
    if args.agent == "tools":
        from course.agents.tools import DEFAULT_MAX_STEPS, ToolAgent

        return ToolAgent(db, llm, memory=memory, max_steps=args.max_steps or DEFAULT_MAX_STEPS,
                         answer=answer, schema=schema, context_for=facts_context)
    if args.agent == "agentic":   # with the planner's tools and notebook 13's note search
        from course.planner.planner_tools import learner_agent

        return learner_agent(db, llm, memory=memory, answer=answer, schema=schema,
                             context_for=facts_context)
    return Agent(db, llm, memory=memory, max_attempts=args.attempts or DEFAULT_ATTEMPTS,
                 answer=answer, schema=schema, context_for=facts_context)


def cmd_demo(args: argparse.Namespace) -> int:
    from course.ui.demo import run_demo

    results = run_demo(provider=args.provider)
    return 1 if any(r.status == "failed" for r in results) else 0


def cmd_eval(args: argparse.Namespace) -> int:
    from course.foundation.connection import connect
    from course.foundation.dataset import ensure_college
    from course.llm.registry import make_llm
    from course.pipeline.evaluation import DEFAULT_SET, ProgressBar, evaluate, load_questions

    path = Path(args.file) if args.file else DEFAULT_SET
    questions = load_questions(path)
    db = connect()
    ensure_college(db)
    # The bar redraws one line: only on a terminal, not into a CI log.
    progress = ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    report = evaluate(db, make_llm(args.provider), questions,
                      max_attempts=args.attempts or DEFAULT_ATTEMPTS, progress=progress,
                      source=path.name)
    if args.json:
        print_json(report.to_dict())
    else:
        print(printable(report.table()))
    return 0


def _college() -> Database:
    """The college graph, loaded on the first run."""
    from course.foundation.connection import connect
    from course.foundation.dataset import ensure_college

    db = connect()
    ensure_college(db)
    return db


def _show(found: Plan | Peers, as_json: bool) -> None:
    """A planner record as JSON (its `to_dict()`) or as the text of its `summary()`."""
    if as_json:
        print_json(found.to_dict())
    else:
        print(printable(found.summary()))


def cmd_plan(args: argparse.Namespace) -> int:
    from course.planner.plans import plan

    found = plan(_college(), args.student, args.subject, args.days)
    _show(found, args.json)
    if args.json and not found.days and not found.unscheduled:
        print(found.headline(), file=sys.stderr)   # nothing to plan: say why, beside the JSON
    return 0


def cmd_peers(args: argparse.Namespace) -> int:
    from course.planner.peers import peers

    _show(peers(_college(), args.student), args.json)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from course.foundation.connection import connect
    from course.foundation.dataset import load_college
    from course.retrieval.search import query_embedder, search
    from course.retrieval.text_layer import ensure_text_layer

    queries = _questions(args, what="query")
    db = connect()
    if db.graph_name not in db.client.list_graphs():
        load_college(db)  # the first run
    ensure_text_layer(db, args.embedder)  # built on first use, as the load would have
    embedder = query_embedder(db, args.embedder).name  # another model than the graph's: refused
    failed = 0
    for query in queries:
        shown = printable(query, limit=200)
        try:
            hits, error = search(db, query, mode=args.mode, k=args.k, embedder=args.embedder), None
        except InvalidInput as exc:  # an empty or overlong query: say so, go on with the next
            hits, error = [], str(exc)
            failed += 1
        if args.json:
            record = {"query": shown, "mode": args.mode, "embedder": embedder,
                      "results": [hit.to_dict() for hit in hits], **({"error": error} if error else {})}
            print_json(record)
            continue
        print(f"{shown}  ({args.mode}, {embedder})")
        if error:
            print(f"  error: {error}")
        for rank, hit in enumerate(hits, 1):
            via = f" [{hit.via}]" if hit.via else ""
            print(f"  {rank}. {hit.note} {hit.concept or '-'} ({hit.score:.3f}){via}: "
                  f"{printable(hit.text, limit=110)}")
        print(flush=True)
    return 1 if failed else 0
