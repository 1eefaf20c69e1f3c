"""What MCP costs: a tool called directly, through the SDK's client in this process, and over stdio.

    python bench/bench_mcp.py [--calls 30]

The same three tools on the same college graph, in one run: `CollegeTools`'s method called
directly; the SDK's `Client` connected to the server object in this process (the protocol's
objects and validation, no process); and the SDK's `Client` talking to `python -m course mcp`
over stdio (JSON-RPC through a pipe), as an MCP client does. Each time is the median of
`--calls` calls; the ratios to the direct call are what to read. Starting the stdio server
(process, imports, initialize) is timed on its own, once.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from _database import bench_database
from course.foundation.dataset import ensure_college
from course.ui.mcp_server import make_server
from course.ui.mcp_tools import CollegeTools

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("execute_cypher", {"query": "MATCH (s:Student {name: $name}) RETURN s.year AS year",
                        "params": {"name": "Payal"}}),
    ("study_partners", {"student": "Sneha"}),
    ("get_schema", {}),
]


async def median_ms(call: Callable[[], Awaitable[Any]], n: int) -> float:
    times = []
    for _ in range(n):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def measure(db: Any, n: int) -> tuple[dict[str, list[float]], float]:
    tools = CollegeTools(db)
    rows: dict[str, list[float]] = {}
    for name, arguments in CALLS:
        method = getattr(tools, name)

        async def direct(method: Any = method, arguments: dict[str, Any] = arguments) -> Any:
            return method(**arguments)
        rows[name] = [await median_ms(direct, n)]
    async with Client(make_server(tools)) as client:
        for name, arguments in CALLS:
            rows[name].append(await median_ms(lambda: client.call_tool(name, arguments), n))
    environment = {**os.environ, "COURSE_DB": db.location, "COURSE_GRAPH": db.graph_name}
    server = StdioServerParameters(command=sys.executable, args=["-m", "course", "mcp"],
                                   env=environment)
    started = time.perf_counter()
    async with Client(server, mode="legacy") as client:
        await client.call_tool("get_schema", {})   # the first call opens the graph
        startup_ms = (time.perf_counter() - started) * 1000
        for name, arguments in CALLS:
            rows[name].append(await median_ms(lambda: client.call_tool(name, arguments), n))
    return rows, startup_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=30)
    args = parser.parse_args()
    with bench_database() as db:
        ensure_college(db)
        rows, startup_ms = asyncio.run(measure(db, args.calls))
    print(f"{'tool':<16} {'direct ms':>10} {'in-process':>11} {'stdio':>8} {'in-proc x':>10} "
          f"{'stdio x':>8}")
    for name, (direct, inproc, stdio) in rows.items():
        print(f"{name:<16} {direct:10.2f} {inproc:11.2f} {stdio:8.2f} {inproc / direct:10.1f} "
              f"{stdio / direct:8.1f}")
    print(f"starting the stdio server and its first call: {startup_ms:.0f} ms "
          f"({startup_ms / rows['get_schema'][2]:.0f}x a get_schema call over stdio)")


if __name__ == "__main__":
    main()
