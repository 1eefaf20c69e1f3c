"""The floor bench_serve.py's own client sets: its browsers against a server that does nothing.

    python bench/bench_serve_client.py [SESSIONS]

bench_serve.py's browsers (httpx's async client, one process) share the machine's cores with
the server they measure. Here the same browsers (`bench_serve.session`, the same niceness) ask
a server that does no work: a plain asyncio process that answers each request with the bytes
the web app sent for it (the page, and each demo question's stream of events, recorded from
`python -m course serve` once). What is left is the client's own cost and the loopback's.

It prints, as bench_serve.py does, one session alone (eight, one after the other) and a
stampede (SESSIONS at once, back to back): p95 per answer, the stampede's as a ratio to one
session alone, and the client's CPU per answer. Its stampede p95 is the part of
bench_serve's that no server can remove on this machine (bench_serve's stampede p95 less this
is the server's part); the numbers are from this one run.
"""
from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_serve  # noqa: E402 - the browsers measured, as they are
from course.ui.demo import FIVE_QUESTIONS  # noqa: E402


async def record(base: str) -> dict[str, object]:
    """The page and each question's events as the web app sends them."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        page = (await client.get("/")).content.decode()
        streams = {}
        for item in FIVE_QUESTIONS:
            response = await client.post("/api/ask", json={"question": item.question})
            lines = response.text.split("\n\n")
            streams[item.question] = [line + "\n\n" for line in lines if line]
        return {"page": page, "streams": streams}


def canned_server(recorded_file: str, port: int) -> None:
    """Answer every request with its recorded bytes: no work but reading and writing."""
    recorded = json.loads(Path(recorded_file).read_text())
    page = recorded["page"].encode()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):    # the browser closed
                break
            lines = head.decode().split("\r\n")
            headers = {k.lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:] if x)}
            body = await reader.readexactly(int(headers.get("content-length", 0)))
            if lines[0].startswith("GET"):
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\n"
                             b"set-cookie: course_session=recordedsessionid0000; Path=/\r\n"
                             b"content-length: %d\r\n\r\n" % len(page) + page)
            else:
                events = recorded["streams"][json.loads(body)["question"]]
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                             b"transfer-encoding: chunked\r\n\r\n")
                for event in (events[0], "".join(events[1:])):     # the first stage, the rest
                    data = event.encode()
                    writer.write(b"%x\r\n%s\r\n" % (len(data), data))
                writer.write(b"0\r\n\r\n")
            await writer.drain()
        writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", port)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


def main(sessions: int = 40) -> int:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "COURSE_DB": os.environ.get("COURSE_DB") or str(Path(folder) / "serve.db"),
               "COURSE_LLM": "offline", "FALKORDB_URL": ""}
        port = bench_serve.free_port()
        server = bench_serve.start_server(port, "pipeline", env)
        try:
            recorded = asyncio.run(record(f"http://127.0.0.1:{port}"))
        finally:
            server.terminate()
            server.wait(timeout=30)
        recorded_file = Path(folder) / "recorded.json"
        recorded_file.write_text(json.dumps(recorded))
        port = bench_serve.free_port()
        canned = subprocess.Popen([sys.executable, __file__, "--canned", str(recorded_file), str(port)])
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    httpx.get(base + "/", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            os.nice(bench_serve.CLIENT_NICENESS)          # as bench_serve's browsers
            asyncio.run(bench_serve.session(base))        # warm-up
            alone = [s for _ in range(8) for _, s, _ in asyncio.run(bench_serve.session(base))]

            async def stampede() -> list[float]:
                found = await asyncio.gather(*(bench_serve.session(base) for _ in range(sessions)))
                return [s for one in found for _, s, _ in one]
            cpu = time.process_time()
            rush = asyncio.run(stampede())
            cpu = time.process_time() - cpu
        finally:
            canned.terminate()
            canned.wait(timeout=30)
    p95_alone, p95_rush = bench_serve.p95(alone), bench_serve.p95(rush)
    print(f"bench_serve's client against a server that does no work; {sessions} sessions x the five")
    print(f"one session alone: p95 per answer {p95_alone * 1000:.1f} ms")
    print(f"a stampede ({sessions} back to back at once): p95 {p95_rush * 1000:.0f} ms, "
          f"{p95_rush / p95_alone:.1f}x one session alone (bench_serve's goal <= "
          f"{bench_serve.GOAL_P95:.0f}x)")
    print(f"the client's CPU in the stampede: {cpu / len(rush) * 1000:.1f} ms per answer "
          f"({cpu:.2f} s for {len(rush)} answers)", flush=True)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--canned"]:
        canned_server(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 40))
