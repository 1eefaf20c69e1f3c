"""Settings and keys: an explicit argument beats the environment, which beats `.env`.

Introduced in notebook 01 (where the database lives) and notebook 07 (keys).
Nothing here ever prints a key: `mask()` is the only way a key is shown.

>>> get_setting("COURSE_GRAPH", default="college")
'college'
"""
from __future__ import annotations

import os
import stat
from functools import lru_cache
from pathlib import Path
from typing import overload

PROJECT_ROOT = Path(__file__).resolve().parents[2]   # course/foundation/config.py -> the repository

_PROJECT_DOTENV = str(PROJECT_ROOT / ".env")
# Every variable the course reads; .env.example lists the same names.
KEY_VARIABLES = ("GEMINI_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY")


def _parse_dotenv(text: str) -> dict[str, str]:
    """`KEY=value` lines; `#` comments, blank lines, `export ` and quotes allowed."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        values[name.strip()] = value
    return values


@lru_cache(maxsize=8)
def _dotenv(path: Path) -> dict[str, str]:
    try:
        return _parse_dotenv(path.read_text(encoding="utf-8"))
    except OSError:
        return {}


def dotenv_path() -> Path:
    """The `.env` in the working directory if there is one, else the project's."""
    return Path(dotenv_stamp()[0])


def dotenv_stamp() -> tuple[str, tuple[int, int] | None]:
    """`dotenv_path()` as text, and that file's (time, size), None when it is not there.

    Asked each time a text is shown (`course.llm.errors.configured_secrets`): one stat per
    place looked at, plain `os` calls.
    """
    for place in (os.path.join(os.getcwd(), ".env"), _PROJECT_DOTENV):
        try:
            found = os.stat(place)
        except OSError:
            continue
        if stat.S_ISREG(found.st_mode):
            return place, (found.st_mtime_ns, found.st_size)
    return _PROJECT_DOTENV, None


@overload
def get_setting(name: str, *, value: str | None = None, default: str) -> str: ...
@overload
def get_setting(name: str, *, value: str | None = None, default: None = None) -> str | None: ...
def get_setting(name: str, *, value: str | None = None, default: str | None = None) -> str | None:
    """Resolve one setting: `value` (an argument) > environment > `.env` > `default`.

    An empty value means unset, so `GROQ_API_KEY=` in `.env` means "no key"; an empty value
    set in the environment is final: `FALKORDB_URL= make test` never reads the server from
    `.env`.
    """
    if value is not None and value.strip():
        return value.strip()
    found = os.environ[name] if name in os.environ else _dotenv(dotenv_path()).get(name)
    return found.strip() if found is not None and found.strip() else default


def get_key(variable: str, *, value: str | None = None) -> str | None:
    """An API key by its variable name, or None when it is not set anywhere."""
    return get_setting(variable, value=value)


def mask(secret: str | None) -> str:
    """What may be shown of a key: whether it is set, never any of its characters."""
    return "not set" if not secret else f"set ({len(secret)} characters)"


def configured_keys() -> dict[str, str]:
    """Each key variable -> 'set (N characters)' or 'not set'."""
    return {name: mask(get_key(name)) for name in KEY_VARIABLES}
