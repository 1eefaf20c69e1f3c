"""The command line: `python -m course load | info | stop | ask | demo | eval | plan | peers | search`.

The options of each command are here (`build_parser`); what each command does is in
`course.cli`. Every failure the learner can cause or meet (a stopped server, a broken CSV, no
key) ends with one sentence on standard error and exit status 1 or 2, never a traceback.

>>> args = build_parser().parse_args(["ask", "--fresh", "Who is Payal?", "uska year?"])
>>> args.questions, args.fresh, args.attempts, args.rows
(['Who is Payal?', 'uska year?'], True, 2, False)
"""
from __future__ import annotations

import argparse
import sys

from course.cli import (cmd_ask, cmd_demo, cmd_eval, cmd_info, cmd_load, cmd_peers, cmd_plan,
                        cmd_search, cmd_stop)
from course.foundation.errors import CourseError
from course.pipeline.results import printable


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m course", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    load = commands.add_parser("load", help="load the college graph (idempotent) and print the counts")
    load.add_argument("--json", action="store_true", help="print the counts as JSON")
    load.add_argument("--reset", action="store_true", help="delete the graph first")
    load.add_argument("--embedder", default=None, help="bow, wordllama (default) or fastembed; "
                      "the notes' text layer is embedded with it (or COURSE_EMBEDDER)")
    load.set_defaults(run=cmd_load)

    info = commands.add_parser("info", help="where the data lives and which provider is used")
    info.add_argument("--json", action="store_true")
    info.set_defaults(run=cmd_info)

    ask = commands.add_parser("ask", help="answer questions, in order, as one conversation")
    ask.add_argument("questions", nargs="*", metavar="QUESTION",
                     help="questions (quote each); none: one per line from standard input")
    ask.add_argument("--provider", default=None, help="auto (default), offline, gemini, groq, ...")
    ask.add_argument("--json", action="store_true", help="one JSON object per question, per line")
    ask.add_argument("--fresh", action="store_true", help="forget between questions")
    ask.add_argument("--rows", action="store_true",
                     help="the rows without an answer written (one model call fewer; "
                          "with --json, answer is null)")
    ask.add_argument("--one", action="store_true", help="join all words into one question")
    ask.add_argument("--attempts", type=int, default=2, help="attempts per question (default 2)")
    ask.add_argument("--agent", choices=("pipeline", "tools", "agentic"), default="pipeline",
                     help="pipeline (default: notebook 05's loop), tools (notebook 11's tool loop) "
                          "or agentic (notebook 12's router, query updater and critic)")
    ask.add_argument("--max-steps", type=int, default=None, metavar="N",
                     help="--agent tools: LLM calls with tools before the final answer (default 8)")
    ask.add_argument("--session", default=None, metavar="ID",
                     help="keep the conversation in the graph under this id, and resume it")
    ask.add_argument("--user", default=None, metavar="ID",
                     help="whose memory (one graph per user; default 'default')")
    ask.set_defaults(run=cmd_ask)

    demo = commands.add_parser("demo", help="ask the five demo questions and print the answers")
    demo.add_argument("--provider", default=None, help="auto (default), offline, gemini, groq, ...")
    demo.set_defaults(run=cmd_demo)

    evaluation = commands.add_parser("eval", help="score a provider on a question set (notebook 09)")
    evaluation.add_argument("file", nargs="?", default=None, metavar="FILE",
                            help="a JSONL question set (default data/eval/questions.jsonl)")
    evaluation.add_argument("--provider", default=None, help="auto (default), offline, gemini, groq, ...")
    evaluation.add_argument("--attempts", type=int, default=2, help="attempts per question (default 2)")
    evaluation.add_argument("--json", action="store_true", help="print the report as JSON")
    evaluation.set_defaults(run=cmd_eval)

    study = commands.add_parser("plan", help="a day-by-day study plan from the prerequisite graph")
    study.add_argument("--student", required=True, help="name or id, e.g. Sneha or S04")
    study.add_argument("--subject", required=True, help="name or code, e.g. DBMS or CS201")
    study.add_argument("--days", type=int, default=30, help="at most this many days, 1-365 (default 30)")
    study.add_argument("--json", action="store_true", help="print the plan as JSON")
    study.set_defaults(run=cmd_plan)

    partners = commands.add_parser("peers", help="study partners and mentors for a student's weak subjects")
    partners.add_argument("--student", required=True, help="name or id, e.g. Sneha or S04")
    partners.add_argument("--json", action="store_true", help="print the peers as JSON")
    partners.set_defaults(run=cmd_peers)

    from course.retrieval.search import DEFAULT_K, DEFAULT_MODE, MODES

    find = commands.add_parser("search", help="find the notes that answer a question (notebook 13)")
    find.add_argument("questions", nargs="*", metavar="QUERY",
                      help="queries (quote each); none: one per line from standard input")
    find.add_argument("--mode", choices=MODES, default=DEFAULT_MODE,
                      help=f"how to search (default {DEFAULT_MODE})")
    find.add_argument("--k", type=int, default=DEFAULT_K, help=f"how many results (default {DEFAULT_K})")
    find.add_argument("--embedder", default=None,
                      help="the model the graph was embedded with (or COURSE_EMBEDDER)")
    find.add_argument("--json", action="store_true", help="one JSON object per query, per line")
    find.set_defaults(run=cmd_search)

    stop = commands.add_parser("stop", help="save and stop the embedded database")
    stop.set_defaults(run=cmd_stop)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
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
