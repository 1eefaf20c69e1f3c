"""Who may use the web app, and what text may reach the page.

The app listens on 127.0.0.1 unless told otherwise. There, only a browser on the same machine
reaches it, and a request must name the machine itself as its Host (a web page elsewhere
cannot point a name of its own at 127.0.0.1 and read the answers). On any other host a token
is printed at start, as JupyterLab does: the first visit brings it in the address, the page
keeps it in a cookie, and every request without it is refused with one sentence.

Everything shown passes through `page_text`: `printable` (no control codes, no configured
key), and no password in a URL or path of this machine.

>>> page_text("FalkorDB is not running at redis://:s3cret@db:6379")
'FalkorDB is not running at redis://…@db:6379'
"""
from __future__ import annotations

import ipaddress
import os
import re
import secrets
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from course.foundation.config import PROJECT_ROOT
from course.pipeline.results import printable

TOKEN_COOKIE = "course_token"
_CREDENTIALS = re.compile(r"(\b[a-z][a-z0-9+.-]*://)[^/@\s]*@", re.I)
# An absolute path of three or more parts (not the end of a URL, not a Cypher division).
_PATH = re.compile(r"(?<![\w:/.])/(?:[\w.~-]+/)+[\w.~-]+")


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.1, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    """A fresh secret for a non-loopback server (48 hex characters)."""
    return secrets.token_hex(24)


def token_matches(given: str | None, token: str) -> bool:
    """Does `given` equal the server's token? (Compared in constant time.)"""
    return bool(given) and secrets.compare_digest(str(given).encode(), token.encode())


def host_allowed(host_header: str | None, port: int) -> bool:
    """A loopback server answers only requests addressed to this machine by name or number.

    >>> host_allowed("localhost:8000", 8000), host_allowed("evil.example:8000", 8000)
    (True, False)
    """
    if not host_header:
        return False
    name, _, given_port = host_header.rpartition(":") if not host_header.endswith("]") \
        else (host_header, "", "")
    if not name or not given_port.isdigit():
        name, given_port = host_header, str(port)
    return is_loopback(name) and int(given_port) == port


def _machine_paths() -> tuple[str, ...]:
    """Folders of this machine that a message might name: never shown on the page.

    Asked for every shown text: worked out again only when HOME or the temp folder changes."""
    return _folders(os.environ.get("HOME"), tempfile.gettempdir())


@lru_cache(maxsize=8)
def _folders(home: str | None, temp: str) -> tuple[str, ...]:
    places = {str(PROJECT_ROOT), str(Path.home()), sys.prefix, temp}
    return tuple(sorted((p for p in places if len(p) > 1), key=len, reverse=True))


def page_text(text: object, limit: int | None = None) -> str:
    """Text that may be shown in the page: `printable`, no password in a URL, no machine path.

    >>> page_text("the details are in /home/learner/course/.course/course.log")
    'the details are in …/course.log'
    """
    shown = printable(text, limit=limit)
    shown = _CREDENTIALS.sub(lambda m: m.group(1) + "…@", shown)
    shown = _PATH.sub(lambda m: "…/" + m.group(0).rsplit("/", 1)[-1], shown)
    for place in _machine_paths():
        shown = shown.replace(place, "…")
    return shown


# Every response: nothing but this app's own files runs or loads in the page.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; "
     b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
     b"frame-ancestors 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),     # the token in an address never leaves the page
    (b"x-frame-options", b"DENY"),
]


@dataclass(frozen=True)
class Gate:
    """Who may use the app: on loopback, requests addressed to this machine; else the token.

    >>> Gate(None, 8000).refusal("GET", "/", {"host": "127.0.0.1:8000"}, {}, {}) is None
    True
    >>> Gate("abc", 8000).refusal("GET", "/", {"host": "0.0.0.0:8000"}, {}, {})[0]
    403
    """

    token: str | None      # None: a loopback server, checked by its Host header
    port: int

    def refusal(self, method: str, path: str, headers: Mapping[str, str],
                query: Mapping[str, str], cookies: Mapping[str, str]) -> tuple[int, str] | None:
        """(status, sentence) for a request that may not pass, else None."""
        if self.token is None and not host_allowed(headers.get("host"), self.port):
            return 403, (f"This server answers only at this machine's own address: open "
                         f"http://127.0.0.1:{self.port}/ .")
        if self.token is not None and not (token_matches(query.get("token"), self.token)
                                           or token_matches(cookies.get(TOKEN_COOKIE), self.token)):
            return 403, ("This server needs its token: open the address `python -m course serve` "
                         "printed when it started (it ends in ?token=...).")
        if method == "POST":
            if not headers.get("content-type", "").startswith("application/json"):
                return 415, "Send the question as JSON (Content-Type: application/json)."
            origin = headers.get("origin")
            if origin and origin.split("://", 1)[-1] != headers.get("host"):
                return 403, "A page from another site may not ask this server questions."
        return None


class GateMiddleware:
    """The ASGI middleware around the app: `Gate.refusal`, the token cookie, the headers."""

    def __init__(self, app: ASGIApp, gate: Gate) -> None:
        self.app, self.gate = app, gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refused = self.gate.refusal(request.method, request.url.path, request.headers,
                                    request.query_params, request.cookies)
        if refused is not None:
            response: Response = PlainTextResponse(refused[1], status_code=refused[0])
        elif self.gate.token is not None and "token" in request.query_params:
            response = RedirectResponse("/", status_code=303)   # the token leaves the address
            response.set_cookie(TOKEN_COOKIE, self.gate.token, httponly=True, samesite="strict")
        else:
            await self.app(scope, receive, _with_headers(send))
            return
        await response(scope, receive, _with_headers(send))


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": list(message.get("headers", [])) + SECURITY_HEADERS}
        await send(message)
    return sending
