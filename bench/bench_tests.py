"""The quick loop against the full test run, one after the other on the same machine.

    python bench/bench_tests.py [--rounds N] [--quick-only]

Runs what a contributor runs while working (`python -m pytest -n auto -m "not slow" tests
course`, as the README says) and what `make test` runs (`python -m pytest -n auto -p nbval
--nbval ...`: doctests, tests, mypy and every notebook under nbval), each in a process of its own with the offline
settings the Makefile gives, and prints each one's wall time and the quick loop's share of the
full run (issue 21's goal: at most 0.25, and the full run under 5 minutes on an idle 2-core
machine). Both are measured in one run; with `--rounds N` the two alternate N times and the
ratio of the medians is given. The processor time of each (pytest, its workers and kernels; not
the database servers, which run on their own) is given beside it: on a machine other work
shares, the wall times depend on that work, the processor times much less. The quick tests
that took half a second or more (the slow marker's line) are listed under the quick loop.

Each run uses the project's throw-away test database (.course/test.db), as `make test` does.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OFFLINE = {"COURSE_DB": str(ROOT / ".course" / "test.db"), "COURSE_LLM": "offline",
           "GEMINI_API_KEY": "", "GROQ_API_KEY": "", "MISTRAL_API_KEY": "",
           "OPENROUTER_API_KEY": "", "FALKORDB_URL": ""}
QUICK = ["-m", "pytest", "-n", "auto", "-m", "not slow", "tests", "course", "-q"]
SLOW_S = 0.5   # the slow marker's line: a quick test that takes longer is listed
TIMINGS = ["--durations=0", f"--durations-min={SLOW_S}"]
FULL = ["-m", "pytest", "-n", "auto", "-q",     # the Makefile's NBVAL: the notebooks too
        "-p", "nbval", "--nbval", "--nbval-current-env", "--nbval-cell-timeout=300"]
GOAL_SHARE, GOAL_FULL_S = 0.25, 300


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(arguments: list[str]) -> tuple[float, float, str, list[str]]:
    """(wall seconds, processor seconds, pytest's last summary line, its duration lines) of
    one pytest process, as `make test` runs it."""
    environment = {**os.environ, **OFFLINE}
    started, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run([sys.executable, *arguments], cwd=ROOT, env=environment,
                          capture_output=True, text=True)
    seconds, cpu = time.perf_counter() - started, _children_cpu() - cpu
    subprocess.run([sys.executable, "-m", "course", "stop"], cwd=ROOT, env=environment,
                   capture_output=True)
    lines = [line for line in done.stdout.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    summary = lines[-1].strip("= ") if lines else f"no summary (exit code {done.returncode})"
    if done.returncode != 0:
        summary += "  <- NOT GREEN: the time is not a fair one"
    timed = [line for line in done.stdout.splitlines() if re.match(r"[\d.]+s call ", line)]
    return seconds, cpu, summary, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=1, help="quick and full runs, alternating")
    parser.add_argument("--quick-only", action="store_true", help="time the quick loop alone")
    options = parser.parse_args()
    quick: list[tuple[float, float]] = []
    full: list[tuple[float, float]] = []
    for round_ in range(1, options.rounds + 1):
        for name, arguments, times in (("quick loop", QUICK, quick), ("full run  ", FULL, full)):
            if options.quick_only and times is full:
                continue
            seconds, cpu, summary, timed = run(arguments + (TIMINGS if times is quick else []))
            times.append((seconds, cpu))
            print(f"round {round_}: {name} {seconds:.1f} s, processor {cpu:.1f} s   ({summary})",
                  flush=True)
            if times is quick:   # the marker's definition, checked where it can be: by a clock
                print(f"  quick tests of {SLOW_S} s or more (mark them slow, or make them "
                      f"quicker; a loaded machine lists more): {len(timed)}", *timed[:20],
                      sep="\n    ", flush=True)
    if full:
        wall = statistics.median(t[0] for t in quick) / statistics.median(t[0] for t in full)
        cpu = statistics.median(t[1] for t in quick) / statistics.median(t[1] for t in full)
        print(f"quick loop / full run = {wall:.2f} in wall time, {cpu:.2f} in processor time "
              f"(goal <= {GOAL_SHARE}); full run {statistics.median(t[0] for t in full):.0f} s "
              f"(goal < {GOAL_FULL_S} s on an idle 2-core machine; {os.cpu_count()} cores here)")


if __name__ == "__main__":
    main()
