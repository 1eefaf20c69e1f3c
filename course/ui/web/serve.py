"""`python -m course serve`: open the socket, print where the app is, run it with uvicorn.

On 127.0.0.1 (the default) the address is enough; on any other host a token is made and
printed in the address, as JupyterLab does, and the app refuses every request without it.

>>> addresses("127.0.0.1", 8000, None)
['http://127.0.0.1:8000/']
>>> addresses("0.0.0.0", 8000, "abc")[-1]
'http://127.0.0.1:8000/?token=abc'
"""
from __future__ import annotations

import socket
import sys
from typing import TextIO

from course.foundation.errors import InvalidInput
from course.ui.web.access import Gate, is_loopback, new_token
from course.ui.web.app import Chat, create_app


def open_socket(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: any free one); one sentence if it cannot be."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(host, port,
                                                                 type=socket.SOCK_STREAM)[0]
        # The protocol too (TCP): asyncio turns Nagle's algorithm off only on a socket that
        # names it, and with it on, each stage after a connection's first waits for the
        # browser's delayed acknowledgement (40 ms on Linux).
        sock = socket.socket(family, kind, protocol)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except socket.gaierror:
        raise InvalidInput(f"--host {host!r} is not an address of this machine: use 127.0.0.1 "
                           "(this machine only) or 0.0.0.0 (every network, with a token).") from None
    except OSError as exc:
        raise InvalidInput(f"Cannot listen on {host}:{port} ({exc.strerror}): the port may be in "
                           "use; choose another with --port N.") from None
    return sock


def addresses(host: str, port: int, token: str | None) -> list[str]:
    """The addresses to open: the host itself, and this machine's own for any-address hosts."""
    shown = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    suffix = f"?token={token}" if token else ""
    found = [f"http://{shown}:{port}/{suffix}"]
    if token and not is_loopback(shown):
        found.append(f"http://127.0.0.1:{port}/{suffix}")
    return found


def serve(chat: Chat, *, host: str = "127.0.0.1", port: int = 8000, what: str = "",
          out: TextIO = sys.stdout) -> None:
    """Run the app until Ctrl+C, having printed its address (with the token it needs)."""
    import uvicorn

    sock = open_socket(host, port)
    port = sock.getsockname()[1]
    token = None if is_loopback(host) else new_token()
    print(f"The course's web app{what} is at:", file=out)
    for address in addresses(host, port, token):
        print(f"    {address}", file=out)
    if token:
        print("Anyone on your network who has this address (with its token) can use it.", file=out)
    print("Ctrl+C stops it.", file=out, flush=True)
    app = create_app(chat, Gate(token, port))
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=3)
    uvicorn.Server(config).run(sockets=[sock])
