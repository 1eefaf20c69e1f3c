"""What the committed notebooks show: no key, no machine path, no traceback; small; each with a goal,
a summary and exercises. (nbval, run beside these tests, checks the outputs are still true.)"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SPINE = ["01_load_graph", "02_schema_prompt", "03_safety", "04_cleaning", "05_retry",
         "06_memory", "07_router", "08_five_questions"]

# What a key looks like for the providers the course uses, and where a machine path starts.
KEY_PATTERN = re.compile(r"\b(gsk_[A-Za-z0-9]{20,}|AIza[0-9A-Za-z_-]{30,}|sk-[A-Za-z0-9_-]{20,})")
PATH_PATTERN = re.compile(r"(/home/|/root/|/Users/|/tmp/|/work/|/var/folders/|[A-Z]:\\\\Users)")


def _outputs(path: Path) -> str:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    texts = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            texts.append(json.dumps(output))
    return "\n".join(texts)


def _markdown(path: Path) -> list[str]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown"]


def test_the_spine_is_all_there():
    assert [p.stem for p in NOTEBOOKS][:len(SPINE)] == SPINE


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_outputs_hold_no_key_path_or_traceback(path):
    text = _outputs(path)
    assert not KEY_PATTERN.search(text), "an output looks like an API key"
    assert not PATH_PATTERN.search(text), f"an output shows a machine path: {PATH_PATTERN.search(text)}"
    assert '"output_type": "error"' not in text and "Traceback (most recent call last)" not in text


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_small_and_was_run_top_to_bottom(path):
    assert path.stat().st_size < 150_000, "pictures belong in files, not inline in the notebook"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    counts = [c.get("execution_count") for c in notebook["cells"] if c["cell_type"] == "code"]
    assert counts == list(range(1, len(counts) + 1)), "commit the outputs of one fresh run"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_states_its_goal_and_ends_with_summary_and_exercises(path):
    cells = _markdown(path)
    assert cells[0].startswith("# "), "the first cell is the title"
    opening = cells[0].lower()
    assert "goal" in opening or "you will learn" in opening or "you will" in opening
    ending = "\n".join(cells[-3:]).lower()
    assert "summary" in ending and "exercise" in ending
