"""The package's type hints hold: mypy (pinned in the test extras) passes over course/."""
from __future__ import annotations

import subprocess
import sys

import pytest

from course.foundation.config import PROJECT_ROOT


@pytest.mark.slow
def test_mypy_passes_over_the_package():
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=PROJECT_ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]
