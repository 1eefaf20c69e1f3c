"""The command line: `python -m course load | info | stop | ask | demo | eval | plan | peers | search | serve | mcp`.

The options of each command are here (`build_parser`): the ones several commands share
(`--json`, `--provider`, `--attempts`, `--agent`, `--embedder`) are defined once, in `SHARED`,
each in one parent parser that every command taking it shares; each value is checked by its
option's `type=` function while the line is read. What each command does is in `course.cli`.
Every failure the learner can cause or meet (a bad value, a stopped server, a broken CSV, no
key) ends with one sentence on standard error and exit status 1 (2 for a command line argparse
cannot read), never a traceback.

>>> args = build_parser().parse_args(["ask", "--fresh", "Who is Payal?", "uska year?"])
>>> args.questions, args.fresh, args.attempts, args.rows, args.agent
(['Who is Payal?', 'uska year?'], True, None, False, 'pipeline')
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from course.cli import (cmd_ask, cmd_demo, cmd_eval, cmd_info, cmd_load, cmd_peers, cmd_plan,
                        cmd_search, cmd_stop)
from course.cli_doors import cmd_ingest, cmd_mcp, cmd_serve
from course.foundation.errors import CourseError, InvalidInput
from course.pipeline.results import printable


def whole_number(option: str, example: int, *, most: int | None = None) -> Callable[[str], int]:
    """The `type=` check of a whole-number option: 1 or more (and at most `most`).

    >>> whole_number("--k", 3, most=50)("7")
    7
    >>> whole_number("--k", 3, most=50)("0")
    Traceback (most recent call last):
    course.foundation.errors.InvalidInput: --k must be from 1 to 50, e.g. --k 3.
    """
    bounds = f"from 1 to {most}" if most else "1 or more"

    def check(text: str) -> int:
        value = int(text) if text.strip().lstrip("+-").isdigit() else 0
        if value < 1 or (most is not None and value > most):
            raise InvalidInput(f"{option} must be {bounds}, e.g. {option} {example}.")
        return value
    return check


def provider_name(text: str) -> str:
    """The `type=` check of `--provider`: a name the course knows, in any case.

    >>> provider_name(" Offline ")
    'offline'
    """
    from course.llm.errors import UnknownProvider
    from course.llm.registry import provider_names

    name = text.strip().lower()
    if name not in provider_names():
        raise UnknownProvider(name, provider_names())
    return name


def days(text: str) -> int:
    """The `type=` check of `plan --days`: the planner's own rule (1 to 365)."""
    from course.planner.plans import check_days

    return check_days(int(text) if text.strip().isdigit() else text)


DESCRIPTION = ("The GraphRAG course from the command line: load the college graph, ask it "
               "questions in English or Hinglish, search its notes, plan a student's study.")
AGENTS = "pipeline (default: notebook 05's loop, retried up to --attempts times), tools " \
         "(notebook 11's tool loop, up to --max-steps calls) or agentic (notebook 14's learner " \
         "agent: notebook 12's router, query updater and critic with the planner's tools and " \
         "notebook 13's note search)"
SHARED: dict[str, dict[str, Any]] = {
    "--json": dict(action="store_true", help="print JSON: one object per line"),
    "--provider": dict(type=provider_name, default=None, metavar="NAME",
                       help="auto (default: every provider with a key, else offline), offline, "
                            "gemini, groq, ... (or COURSE_LLM)"),
    "--attempts": dict(type=whole_number("--attempts", 2), default=None, metavar="N",
                       help="attempts per question, for the pipeline (default 2)"),
    "--agent": dict(choices=("pipeline", "tools", "agentic"), default="pipeline", help=AGENTS),
    "--embedder": dict(default=None, metavar="NAME",
                       help="bow, wordllama, minilm (default) or fastembed: the model the notes' text "
                            "layer is embedded with (or COURSE_EMBEDDER)"),
}


def _parent(name: str) -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(name, **SHARED[name])
    return parent


PARENTS = {name: _parent(name) for name in SHARED}   # each shared option: one parser, one action


def shared(*names: str) -> list[argparse.ArgumentParser]:
    """The parent parsers of the shared options `names`: every command gets the same action.

    >>> [action.dest for parent in shared("--json", "--provider") for action in parent._actions]
    ['json', 'provider']
    """
    return [PARENTS[name] for name in names]


def _questions(verb: argparse.ArgumentParser, what: str = "question") -> None:
    verb.add_argument("questions", nargs="*", metavar=what.upper(),
                      help=f"{what.replace('y', 'ie')}s (quote each); none: one per line from "
                           "standard input")


def _load(verb: argparse.ArgumentParser) -> None:
    verb.add_argument("--reset", action="store_true", help="delete the graph first")
    verb.add_argument("--keep-ingested", action="store_true",
                      help="keep what `ingest --apply` wrote (a reload drops it otherwise)")


def _ask(verb: argparse.ArgumentParser) -> None:
    _questions(verb)
    verb.add_argument("--fresh", action="store_true", help="forget between questions")
    verb.add_argument("--rows", action="store_true", help="the rows without an answer written "
                      "(one model call fewer; with --json, answer is null)")
    verb.add_argument("--one", action="store_true", help="join all words into one question")
    verb.add_argument("--max-steps", type=whole_number("--max-steps", 8), default=None,
                      metavar="N", help="--agent tools: LLM calls with tools before the final "
                                        "answer (default 8)")
    verb.add_argument("--session", default=None, metavar="ID",
                      help="keep the conversation in the graph under this id, and resume it")
    verb.add_argument("--user", default=None, metavar="ID",
                      help="whose memory (one graph per user; default 'default')")


def _eval(verb: argparse.ArgumentParser) -> None:
    verb.add_argument("file", nargs="?", default=None, metavar="FILE",
                      help="a JSONL question set (default data/eval/questions.jsonl)")


def _student(verb: argparse.ArgumentParser) -> None:
    verb.add_argument("--student", required=True, help="name or id, e.g. Sneha or S04")


def _plan(verb: argparse.ArgumentParser) -> None:
    _student(verb)
    verb.add_argument("--subject", required=True, help="name or code, e.g. DBMS or CS201")
    verb.add_argument("--days", type=days, default=30, metavar="N",
                      help="at most this many days, 1-365 (default 30)")


def _search(verb: argparse.ArgumentParser) -> None:
    from course.retrieval.search import BEST_MODE, DEFAULT_K, MAX_K, MODES

    _questions(verb, "query")
    verb.add_argument("--mode", choices=MODES, default=BEST_MODE,
                      help=f"how to search (default {BEST_MODE}, the best measured)")
    verb.add_argument("--k", type=whole_number("--k", DEFAULT_K, most=MAX_K), default=DEFAULT_K,
                      help=f"how many results, 1-{MAX_K} (default {DEFAULT_K})")


def port(text: str) -> int:
    """The `type=` check of `serve --port`: 0 (any free port) to 65535.

    >>> port("8000")
    8000
    """
    value = int(text) if text.strip().isdigit() else -1
    if not 0 <= value <= 65535:
        raise InvalidInput("--port must be a number from 0 to 65535, e.g. --port 8000.")
    return value


def _serve(verb: argparse.ArgumentParser) -> None:
    verb.add_argument("--host", default="127.0.0.1",
                      help="where to listen (default 127.0.0.1: this machine only; any other "
                           "host prints an address with a token)")
    verb.add_argument("--port", type=port, default=8000, help="the port (default 8000)")


def _mcp(verb: argparse.ArgumentParser) -> None:
    verb.add_argument("--http", action="store_true",
                      help="serve over streamable HTTP on 127.0.0.1 (at /mcp) instead of stdio")
    verb.add_argument("--port", type=whole_number("--port", 8000, most=65535), default=None,
                      metavar="N", help="--http: the port (default 8000)")
def _ingest(verb: argparse.ArgumentParser) -> None:
    verb.add_argument("files", nargs="*", metavar="FILE",
                      help="documents: .txt, .md, .pdf, or a .csv export (e.g. data/ingest/*)")
    verb.add_argument("--apply", action="store_true",
                      help="write each reviewed diff (a document whole or not at all)")
    verb.add_argument("--undo", default=None, metavar="DOCUMENT",
                      help="take out what an applied document added (its id or file name)")
    verb.add_argument("--include-unverified", action="store_true",
                      help="keep relationships the judge scored below 0.5 in the diff")


# name, command, summary, shared options, its own options (None: it has none)
Verb = tuple[str, Callable[[argparse.Namespace], int], str, tuple[str, ...],
             Callable[[argparse.ArgumentParser], None] | None]
VERBS: list[Verb] = [
    ("load", cmd_load, "load the college graph (idempotent) and print the counts",
     ("--json", "--embedder"), _load),
    ("info", cmd_info, "where the data lives and which provider is used", ("--json",), None),
    ("ask", cmd_ask, "answer questions, in order, as one conversation",
     ("--json", "--provider", "--agent", "--attempts"), _ask),
    ("demo", cmd_demo, "ask the five demo questions and print the answers", ("--provider",),
     None),
    ("eval", cmd_eval, "score a provider on a question set (notebook 09)",
     ("--json", "--provider", "--attempts"), _eval),
    ("plan", cmd_plan, "a day-by-day study plan from the prerequisite graph (notebook 14)",
     ("--json",), _plan),
    ("peers", cmd_peers, "study partners and mentors for a student's weak subjects (notebook 14)",
     ("--json",), _student),
    ("search", cmd_search, "find the notes that answer a question (notebook 13)",
     ("--json", "--embedder"), _search),
    ("serve", cmd_serve, "the web app: a chat that streams each answer and lights it up in "
     "the graph", ("--provider", "--agent"), _serve),
    ("mcp", cmd_mcp, "serve the graph's tools to MCP clients, over stdio (notebook 16)", (),
     _mcp),
    ("ingest", cmd_ingest, "documents into the graph: the diff, then --apply, or --undo (notebook 15)",
     ("--json", "--provider"), _ingest),
    ("stop", cmd_stop, "save and stop the embedded database", (), None),
]


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: one sub-parser per verb, its shared options given as a parent."""
    parser = argparse.ArgumentParser(prog="python -m course", description=DESCRIPTION,
                                     epilog="`python -m course COMMAND --help` shows a "
                                            "command's options.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, run, summary, options, own in VERBS:
        verb = commands.add_parser(name, help=summary, description=summary,
                                   parents=shared(*options))
        if own:
            own(verb)
        verb.set_defaults(run=run)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)   # a bad value: its `type=` check says why
        return int(args.run(args))
    except CourseError as exc:
        print(printable(f"error: {exc}"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `python -m course demo | head`: the reader left, nothing to say
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
