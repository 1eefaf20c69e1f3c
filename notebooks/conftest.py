"""nbval settings for the notebooks, wherever pytest is started from.

The sanitizers replace what is inherently unstable between runs (timings, object
addresses) and nothing else: a changed answer still fails.
"""
from pathlib import Path

import pytest

from course.db import throwaway_problem

SANITIZERS = Path(__file__).resolve().parent.parent / "tests" / "nbval_sanitize.cfg"


def pytest_configure(config):
    problem = throwaway_problem()  # the notebooks reset graphs: only on a throw-away database
    if problem:
        pytest.exit(problem, returncode=2)
    if getattr(config.option, "nbval_sanitize_with", None) is None and hasattr(config.option, "nbval"):
        config.option.nbval_sanitize_with = str(SANITIZERS)
