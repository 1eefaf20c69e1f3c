"""What can go wrong when asking an LLM, as a small hierarchy the router understands.

Introduced in notebook 02 (the scripted model fails with them on cue) and taught with the
router in notebook 07. Every provider turns its SDK's exceptions into one of these, so the
router needs to know only four things: rate limited (wait, then try again; meanwhile ask
someone else), unavailable, bad response, or missing key.
No message here ever contains a key: provider messages go through `redact()` first.

>>> str(MissingKey("GROQ_API_KEY"))
'GROQ_API_KEY is not set: put it in .env (see .env.example) or export it in your shell.'
"""
from __future__ import annotations

import base64
import math
import os
import re
from collections.abc import Iterable, Mapping
from email.utils import parsedate_to_datetime
from datetime import datetime, timezone
from functools import lru_cache
from urllib.parse import quote, quote_plus

from course.foundation.config import KEY_VARIABLES, dotenv_stamp, get_key
from course.foundation.errors import CourseError


class LLMError(CourseError):
    """A provider could not give an answer; `provider` names which one, when known."""

    label = "failed"  # the router's word for this kind of failure

    def __init__(self, message: str, *, provider: str | None = None) -> None:
        super().__init__(message)
        self.provider = provider

    @property
    def reason(self) -> str:
        """The message without the provider's name: what went wrong, in one line."""
        return str(self).splitlines()[0] if str(self) else type(self).__name__


class RateLimited(LLMError):
    """HTTP 429: the provider's quota is used up; `retry_after` is its wait in seconds, if known.

    When no `retry_after` is given, it is read from the message if the message says it:

    >>> RateLimited(retry_after=416).retry_after, RateLimited("Please try again in 6m56s.").retry_after
    (416.0, 416.0)
    """

    label = "rate limited"

    def __init__(self, message: str | None = None, *, retry_after: float | None = None,
                 provider: str | None = None) -> None:
        if retry_after is None and message:
            retry_after = parse_retry_after({}, message)  # "... Please try again in 6m56s."
        if message is None:
            message = "rate limit reached"
            if retry_after is not None:
                message += f" (retry in {format_wait(retry_after)})"
        super().__init__(message, provider=provider)
        self.retry_after = None if retry_after is None else float(retry_after)


class CoolingDown(RateLimited):
    """Why the router passed a provider over: it was rate limited earlier and its wait is not over."""

    label = "skipped"


class Unavailable(LLMError):
    """The service could not be reached or failed on its side: 5xx, a timeout, a refused connection."""

    label = "unavailable"


class BadResponse(LLMError):
    """The service answered, but not with usable text: not JSON, empty, cut off or blocked."""

    label = "bad response"


def not_json(detail: str, *, provider: str | None = None) -> BadResponse:
    """An HTTP 200 whose body is not JSON (a captive portal, a proxy): a bad response the
    router moves past, never a json.JSONDecodeError traceback.

    >>> not_json("Expecting value: line 1 column 1 (char 0)", provider="Groq-120b").label
    'bad response'
    """
    return BadResponse(f"the reply was not JSON: {shorten(detail, 120)}", provider=provider)


class ModelNotFound(LLMError):
    """The service has no such model for this key (HTTP 404); the message names the models it
    does have and the variable that picks one. Waiting will not help; another provider may.

    >>> print(ModelNotFound("llama-9", ["llama-3.3-70b-versatile"], variable="GROQ_MODEL"))
    model 'llama-9' is not one this key can use. Set GROQ_MODEL to one it can: llama-3.3-70b-versatile.
    """

    label = "model not found"
    SHOWN = 12

    def __init__(self, model: str, available: Iterable[str] | None, *, variable: str | None,
                 provider: str | None = None) -> None:
        self.model, self.variable = model, variable
        self.available = sorted(available) if available is not None else None
        pick = f"Set {variable} to one it can" if variable else "Pick one it can"
        if self.available:
            shown = ", ".join(self.available[:self.SHOWN])
            more = f" and {len(self.available) - self.SHOWN} more" if len(self.available) > self.SHOWN else ""
            which = f": {shown}{more}."
        else:
            which = " (the service's model list could not be read: see its documentation)."
        super().__init__(f"model {model!r} is not one this key can use. {pick}{which}",
                         provider=provider)


class MissingKey(LLMError):
    """A provider needs a key that is set nowhere; the message names the variable."""

    label = "missing key"

    def __init__(self, variable: str, *, provider: str | None = None) -> None:
        super().__init__(
            f"{variable} is not set: put it in .env (see .env.example) or export it in your shell.",
            provider=provider,
        )
        self.variable = variable


class NoProviderConfigured(LLMError):
    """`auto` found no key and no offline provider: nothing can answer."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or (
            "No LLM provider is configured: set GEMINI_API_KEY, GROQ_API_KEY, MISTRAL_API_KEY "
            "or OPENROUTER_API_KEY in .env (see .env.example), or pick one with COURSE_LLM "
            "(for example COURSE_LLM=ollama for a model on your own machine)."
        ))


class UnknownProvider(LLMError):
    """A provider name (from --provider or COURSE_LLM) that the course does not know."""

    def __init__(self, name: str, valid: list[str]) -> None:
        super().__init__(f"Unknown LLM provider {name!r}: use one of {', '.join(valid)} "
                         "(with --provider NAME or COURSE_LLM=NAME).")
        self.name = name


class AllProvidersFailed(LLMError):
    """Every provider in the chain failed; the message lists each one and why, one per line.

    >>> print(AllProvidersFailed([("Gemini", RateLimited(retry_after=60)),
    ...                           ("Groq-120b", Unavailable("HTTP 503"))]))
    All 2 LLM providers failed:
      Gemini: rate limit reached (retry in 1m)
      Groq-120b: HTTP 503
    """

    def __init__(self, failures: list[tuple[str, LLMError]]) -> None:
        self.failures = list(failures)
        if not self.failures:
            super().__init__("No LLM provider to try: the chain is empty.")
            return
        lines = [f"  {name}: {_with_wait(error)}" for name, error in self.failures]
        count = len(self.failures)
        head = "The only LLM provider failed:" if count == 1 else f"All {count} LLM providers failed:"
        super().__init__("\n".join([head, *lines]))


def _with_wait(error: LLMError) -> str:
    """The error's reason, plus its wait when it is rate limited and the reason does not say it."""
    reason = error.reason
    wait = getattr(error, "retry_after", None)
    if wait is None or re.search(r"retry|try again", reason, re.IGNORECASE):
        return reason
    return f"{reason} (retry in {format_wait(wait)})"


# --- the wait a rate limit asks for ---------------------------------------------------

_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?"
                       r"(?:(\d+(?:\.\d+)?)ms)?")
_TRY_AGAIN = re.compile(r"(?:try again|retry) in\s+([0-9hms.]+)", re.IGNORECASE)


def parse_duration(text: str) -> float | None:
    """Seconds in a Go-style duration such as the services write.

    >>> parse_duration("6m56s"), parse_duration("46.5s"), parse_duration("1h2m"), parse_duration("250ms")
    (416.0, 46.5, 3720.0, 0.25)
    """
    match = _DURATION.fullmatch(text.strip().rstrip("."))
    if not match or not any(match.groups()):
        return None
    hours, minutes, seconds, millis = (float(g) if g else 0.0 for g in match.groups())
    return hours * 3600 + minutes * 60 + seconds + millis / 1000


def _header_seconds(headers: Mapping[str, str]) -> float | None:
    """`retry-after-ms`, or `retry-after` as seconds or as an HTTP date."""
    lowered = {k.lower(): v for k, v in headers.items()}
    if "retry-after-ms" in lowered:
        try:
            return float(lowered["retry-after-ms"]) / 1000
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def parse_retry_after(headers: Mapping[str, str] | None = None, message: str = "",
                      *, retry_delay: str | None = None) -> float | None:
    """The wait a 429 asked for, in seconds: headers first, then Gemini's retryDelay, then the text.

    >>> parse_retry_after({"Retry-After": "30"})
    30.0
    >>> parse_retry_after({}, "Used 198126, Requested 2838. Please try again in 6m56s.")
    416.0
    >>> parse_retry_after(retry_delay="46s")
    46.0
    """
    seconds = _header_seconds(headers or {})
    if seconds is None and retry_delay:
        seconds = parse_duration(retry_delay)
    if seconds is None:
        match = _TRY_AGAIN.search(message or "")
        seconds = parse_duration(match.group(1)) if match else None
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return None
    return seconds


def format_wait(seconds: float) -> str:
    """A wait the way the services write it, to the second.

    >>> format_wait(416), format_wait(46.2), format_wait(3720), format_wait(0.25)
    ('6m56s', '47s', '1h2m', '1s')
    """
    total = max(1, math.ceil(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours}h" if hours else "", f"{minutes}m" if minutes else "", f"{secs}s" if secs else ""]
    return "".join(parts)


# --- keys never leave ------------------------------------------------------------------

# Shapes of real keys (Groq gsk_, OpenAI-style sk-, Google AIza), even partly starred out.
_KEY_SHAPES = re.compile(r"\b(?:gsk_|sk-|sk_|AIza)[A-Za-z0-9_\-*]{6,}")
RUN = 8  # a run of this many characters of a secret, in any of its forms, is redacted


def configured_secrets() -> tuple[str, ...]:
    """The keys set in the environment or .env (course.foundation.config.KEY_VARIABLES).

    Every text shown is redacted with them, dozens of times an answer: they are worked out
    again only when the environment's keys or the .env in use (its place, time and size) change.
    """
    path, stamp = dotenv_stamp()
    return _secrets(tuple(os.environ.get(name) for name in KEY_VARIABLES), path, stamp)


@lru_cache(maxsize=16)
def _secrets(environment: tuple[str | None, ...], dotenv: str,
             stamp: tuple[int, int] | None) -> tuple[str, ...]:
    return tuple(key for key in (get_key(name) for name in KEY_VARIABLES) if key)


@lru_cache(maxsize=64)
def secret_forms(secret: str) -> tuple[str, ...]:
    """The forms an HTTP stack may show a secret in, lower-cased: as is (so upper-cased too,
    and any tail of it), URL-encoded, and base64 at each of its three alignments.

    >>> "c2stc2vjcmv0" in secret_forms("sk-secret")       # base64 of sk-secret, lower-cased
    True
    """
    forms = {secret, quote(secret, safe=""), quote_plus(secret), secret.encode().hex()}
    for pad in range(3):  # inside a longer base64 text the secret starts at any byte offset
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            encoded = encode(b"\0" * pad + secret.encode()).decode().rstrip("=")
            forms.add(encoded[-(-pad * 8 // 6):] if pad else encoded)  # drop the pad's characters
    return tuple(sorted(form.lower() for form in forms if len(form) >= RUN))


def _secret_spans(text: str, secrets: Iterable[str]) -> list[bool]:
    """Which characters of `text` belong to a run of RUN or more characters of a secret's form."""
    lowered, marked = text.lower(), [False] * len(text)
    for secret in secrets:
        for form in secret_forms(secret):
            for i in range(len(form) - RUN + 1):
                piece, start = form[i:i + RUN], lowered.find(form[i:i + RUN])
                while start >= 0:
                    marked[start:start + RUN] = [True] * RUN
                    start = lowered.find(piece, start + 1)
    return marked


# One character as text may show it: an HTML entity (&#103; &#x67; &amp;), a \\u or \\x escape.
_ESCAPED_CHAR = re.compile(r"&#(\d{1,7});|&#[xX]([0-9a-fA-F]{1,6});|&(amp|lt|gt|quot|apos);"
                           r"|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def _skeleton(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The letters and digits of `text` in order, escapes decoded, lower-cased, with where each
    came from: what sits between a key's characters (spaces, newlines, zero-width joiners,
    quotes, punctuation) is dropped, so the key's characters in order can be found."""
    chars, spans, i = [], [], 0
    while i < len(text):
        found = _ESCAPED_CHAR.match(text, i) if text[i] in "&\\" else None
        if found:
            decimal, hexa, named, u, x = found.groups()
            ch = (_NAMED[named] if named else chr(int(decimal)) if decimal
                  else chr(int(hexa or u or x, 16)) if int(hexa or u or x, 16) < 0x110000 else "")
            end = found.end()
        else:
            ch, end = text[i], i + 1
        if ch.isalnum():
            chars.append(ch.lower())
            spans.append((i, end))
        i = end
    return "".join(chars), spans


def _spread_spans(text: str, secrets: Iterable[str]) -> list[bool]:
    """Which characters of `text` belong to RUN or more of a secret's letters and digits in
    order, whatever sits between them (see `_skeleton`)."""
    skeleton, spans = _skeleton(text)
    marked = [False] * len(text)
    for secret in secrets:
        for form in secret_forms(secret):
            letters = "".join(ch for ch in form if ch.isalnum())
            for i in range(len(letters) - RUN + 1):
                piece = letters[i:i + RUN]
                start = skeleton.find(piece)
                while start >= 0:
                    first, last = spans[start][0], spans[start + RUN - 1][1]
                    marked[first:last] = [True] * (last - first)
                    start = skeleton.find(piece, start + 1)
    return marked


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """The text with every run of 8 or more characters of a secret (given, or configured in
    the environment) in any form an HTTP stack produces (upper-cased, a tail, URL-encoded,
    base64, hex), or spread out with anything between its characters (chunks on lines, spaces,
    zero-width joiners, HTML entities, \\u escapes), and anything shaped like an API key,
    replaced by [redacted].

    >>> redact("Invalid API Key gsk_abc123def456 for org", ["gsk_abc123def456"])
    'Invalid API Key [redacted] for org'
    >>> redact("key ...BC123DEF456 rejected", ["gsk_abc123def456"])
    'key ...[redacted] rejected'
    """
    chosen = {s for s in (*secrets, *configured_secrets()) if s and len(s) >= RUN}
    for secret in secrets:
        if secret and 4 <= len(secret) < RUN:
            text = text.replace(secret, "[redacted]")
    if chosen and text:
        marked = [a or b for a, b in zip(_secret_spans(text, sorted(chosen)),
                                         _spread_spans(text, sorted(chosen)))]
        if any(marked):
            text = "".join(_join_marked(text, marked))
    return _KEY_SHAPES.sub("[redacted]", text)


def _join_marked(text: str, marked: list[bool]) -> Iterable[str]:
    for i, ch in enumerate(text):
        if not marked[i]:
            yield ch
        elif i == 0 or not marked[i - 1]:
            yield "[redacted]"


def shorten(text: str, limit: int = 300) -> str:
    """One line of at most `limit` characters, for error messages.

    >>> shorten("a\\n  b" + "c" * 400, 10)
    'a bcccccc…'
    """
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
