"""The notebooks as teaching text: the lesson's code on the page, few asserts, the text layer
in notebook 13, and the boxes and sentences the lessons owe their readers."""
from __future__ import annotations

import ast
import inspect
import json
import re
from pathlib import Path

import pytest

from course.agents.agentic import AgenticAgent
from course.agents.tools import run_loop
from course.pipeline.agent import Agent
from course.pipeline.cleaning import clean
from course.pipeline.guard import check
from course.retrieval.text_layer import build_text_layer
from course.ui.source import show_source, source_of

FOLDER = Path(__file__).resolve().parent.parent / "notebooks"
# notebook -> the package functions it teaches, each shown beside where it runs
ON_THE_PAGE = {"03_safety": [check], "04_cleaning": [clean], "05_retry": [Agent._loop, Agent._attempt],
               "11_tool_loop": [run_loop], "12_agentic_rag": [AgenticAgent._answer],
               "13_vector_vs_graph": [build_text_layer]}
MAX_SHOWN_LINES = 40         # a function read on the page, docstring included
MAX_ASSERTS = 6              # a notebook confirms a few facts; implementation checks live in tests/


def cells(stem: str, kind: str | None = None) -> list[str]:
    notebook = json.loads((FOLDER / f"{stem}.ipynb").read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in notebook["cells"] if kind is None or c["cell_type"] == kind]


def notebooks() -> list[str]:
    return sorted(p.stem for p in FOLDER.glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("stem, functions", ON_THE_PAGE.items())
def test_each_notebook_shows_the_function_it_teaches(stem, functions):
    code = "\n".join(cells(stem, "code"))
    for function in functions:
        assert f"show_source({function.__qualname__})" in code, (stem, function.__qualname__)


@pytest.mark.parametrize("function", [f for fs in ON_THE_PAGE.values() for f in fs],
                         ids=lambda f: f.__qualname__)
def test_a_function_shown_on_the_page_is_short_enough_to_read(function):
    assert len(inspect.getsource(function).splitlines()) <= MAX_SHOWN_LINES


def test_show_source_prints_the_packages_own_code_under_its_dotted_name(capsys):
    show_source(check)
    printed = capsys.readouterr().out
    assert printed.startswith("# course.pipeline.guard.check\ndef check(cypher: str) -> Verdict:")
    assert inspect.getsource(check).strip() in printed


def test_show_source_of_something_without_source_is_a_sentence():
    with pytest.raises(TypeError, match="has no source to show: pass a function or class"):
        source_of(len)


@pytest.mark.parametrize("stem", notebooks())
def test_a_notebook_keeps_only_a_few_asserts(stem):
    found = sum(len(re.findall(r"^\s*assert\b", cell, re.M)) for cell in cells(stem, "code"))
    assert found <= MAX_ASSERTS, f"{stem}: {found} asserts; move implementation checks to tests/"


@pytest.mark.parametrize("stem", ["01_load_graph", "02_schema_prompt"])
def test_notebooks_01_and_02_never_meet_the_text_layer(stem):
    text = "\n".join(cells(stem)).lower()
    assert "chunk" not in text and "text layer" not in text


def test_notebook_13_builds_the_text_layer_itself():
    assert any("build_text_layer(db)" in cell for cell in cells("13_vector_vs_graph", "code"))


def test_notebook_03_says_read_only_mode_alone_does_not_stop_load_csv():
    text = " ".join(" ".join(cells("03_safety", "markdown")).split())
    assert "Read-only mode alone does not stop `LOAD CSV`" in text
    assert "outbound connection" in text and "import folder" in text
    assert "The guard is the layer that refuses it, in every door" in text


def test_notebook_05_says_what_the_offline_provider_is_before_it_first_answers():
    all_cells = cells("05_retry")
    box = next(i for i, c in enumerate(all_cells) if "> **What the offline provider is.**" in c)
    first_use = next(i for i, c in enumerate(all_cells) if "make_llm()" in c and "```" not in c
                     and not c.startswith(("#", ">")) and "=" in c)
    assert box < first_use
    text = all_cells[box]
    assert "*not* an LLM" in text and "**It can**" in text and "**It cannot**" in text
    assert "**With a key**" in text


def test_notebook_12_binds_no_list_through_a_default_argument_but_the_books_own():
    """The only default argument in notebook 12 is the book's `answers=[]`, which it warns against."""
    with_defaults = []
    for cell in cells("12_agentic_rag", "code"):
        for node in ast.walk(ast.parse(cell)):
            if isinstance(node, ast.FunctionDef) and (node.args.defaults or any(node.args.kw_defaults)):
                with_defaults.append(node.name)
    assert with_defaults == ["books_agent"]
