"""The package's type hints hold: mypy (pinned in the test extras) passes over course/."""
from __future__ import annotations

import subprocess
import sys

import pytest

from course.foundation.config import PROJECT_ROOT

# mypy keeps what it learnt in the project's .mypy_cache (git-ignored), so a run after the
# first checks only what changed: seconds instead of most of a minute.
MYPY_CACHE = PROJECT_ROOT / ".mypy_cache"
MYPY_COMMAND = [sys.executable, "-m", "mypy", "--no-error-summary", "--cache-dir", str(MYPY_CACHE)]


@pytest.mark.slow
def test_mypy_passes_over_the_package():
    done = subprocess.run(MYPY_COMMAND, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]
