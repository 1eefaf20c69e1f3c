"""Prompt size at 1x, 10x and 100x the graph: the course text's hand-written prompt vs the generated one.

    python bench/bench_prompt.py

The hand-written prompt is the course text's SCHEMA, with its EXISTING DATA VALUES section
rebuilt from the graph's own values the way the course text wrote it (every student,
subject, club, skill, project and concept by name), built exactly as notebook 02 builds it.
The generated prompt is what the agent sends for one question: the system message (schema
read from the graph, rules, worked examples) plus the user message (linked values, question).

Tokens are counted the same way for both, two ways, with no tokenizer download:
"words+punct" counts runs of letters/digits and single punctuation marks (regex
`\\w+|[^\\w\\s]`), and "chars/4" is the usual rule of thumb. A real tokenizer (BPE) gives
other numbers (names such as "Payal 37" split into several tokens), but the growth is the point.

The 1x graph is the college graph; 10x and 100x are `synthetic_college(scale)` written into
graphs of their own on the same database (COURSE_DB, or a temporary one), deleted afterwards.

It also times building them: reading the schema (`introspect`, which counts every value of
every property on the server, one query per label and per relationship pattern) and the whole
generated prompt (the schema, then linking the question's names), each the median of
several runs, given as a ratio to the 1x graph's time in the same run.
"""
from __future__ import annotations

import statistics
import time

from _database import bench_database
from course.foundation.dataset import load_college, write_synthetic_college
from course.pipeline.prompt_size import generated_prompt, handwritten_prompt, size
from course.pipeline.schema import introspect

QUESTION = "dbms and debate-ye dono ke students kaun hain?"
SCALES = (1, 10, 100)
REPEATS = 7

def graph_at(db, scale: int):
    """The college graph (1x) or a synthetic one `scale` times larger, freshly written."""
    if scale == 1:
        load_college(db)
        return db
    graph = db.select(f"bench_prompt_x{scale}")
    if graph.graph_name in graph.client.list_graphs():
        graph.graph.delete()
    return write_synthetic_college(graph, scale)


def median_seconds(build, *args) -> float:
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        build(*args)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(db) -> tuple[list[tuple], list[tuple]]:
    rows, times = [], []
    for scale in SCALES:
        graph = graph_at(db, scale)
        counts = graph.counts()
        hand, made = size(handwritten_prompt(graph, QUESTION)), size(generated_prompt(graph, QUESTION))
        rows.append((scale, counts["nodes"], *hand.values(), *made.values()))
        times.append((scale, median_seconds(introspect, graph),
                      median_seconds(generated_prompt, graph, QUESTION)))
        if scale != 1:
            graph.graph.delete()
    return rows, times


def main() -> None:
    started = time.perf_counter()
    with bench_database() as db:
        rows, times = measure(db)
    print(f"prompt size for {QUESTION!r}")
    print("tokens: words+punct = regex \\w+|[^\\w\\s]; chars/4 = characters / 4 (no tokenizer)")
    print(f"{'scale':>5} {'nodes':>6} | {'hand-written: chars':>19} {'w+p':>7} {'c/4':>7}"
          f" | {'generated: chars':>16} {'w+p':>6} {'c/4':>6}")
    for scale, nodes, h_chars, h_wp, h_c4, g_chars, g_wp, g_c4 in rows:
        print(f"{scale:>4}x {nodes:>6} | {h_chars:>19,} {h_wp:>7,} {h_c4:>7,}"
              f" | {g_chars:>16,} {g_wp:>6,} {g_c4:>6,}")
    first, last = rows[0], rows[-1]
    print(f"1x -> {last[0]}x: hand-written x{last[3] / first[3]:.1f}, "
          f"generated x{last[6] / first[6]:.2f} (words+punct)")
    print(f"time to build, as a ratio to the 1x graph's (median of {REPEATS} runs each):")
    for scale, schema_s, prompt_s in times:
        print(f"{scale:>4}x  schema (introspect) x{schema_s / times[0][1]:.2f}   "
              f"generated prompt x{prompt_s / times[0][2]:.2f}")
    print(f"({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
