"""The lesson's code on the page: print a function of the package where the notebook runs it.

Introduced in notebook 03. A notebook imports its machinery from `course`; `show_source` puts
the function it teaches on the page beside the call, the way the package has it (not a copy
that could drift), under a line that names where it lives.

>>> from course.pipeline.cleaning import naive_clean
>>> show_source(naive_clean)  # doctest: +ELLIPSIS
# course.pipeline.cleaning.naive_clean
def naive_clean(raw: str) -> str:
...
"""
from __future__ import annotations

import inspect
import textwrap


def source_of(obj: object) -> str:
    """The source of a function, method or class, dedented, under a `# module.name` line."""
    try:
        code = inspect.getsource(obj)  # type: ignore[arg-type]
    except (TypeError, OSError) as exc:
        raise TypeError(f"{obj!r} has no source to show: pass a function or class of the "
                        "course package, e.g. show_source(check).") from exc
    module = getattr(obj, "__module__", "")
    name = getattr(obj, "__qualname__", getattr(obj, "__name__", ""))
    return f"# {module}.{name}\n{textwrap.dedent(code).rstrip()}"


def show_source(obj: object) -> None:
    """Print `obj`'s source (see `source_of`), to read beside the cell that runs it."""
    print(source_of(obj))
