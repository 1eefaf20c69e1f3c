"""The package's shape: imports follow the lessons, one guarded door, a small public API."""
from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import course

PACKAGE = Path(course.__file__).parent

# The notebook that introduces each module. A module may import only modules of its own
# lesson or an earlier one, so a lesson never depends on what a later lesson teaches.
LESSON = {
    "course.errors": 0, "course.config": 1, "course.db": 1, "course.dataset": 1,
    "course.viz": 1, "course.versioning": 2, "course.schema": 2, "course.prompts": 2, "course.prompt_size": 2,
    "course.llm.base": 2, "course.llm.errors": 2, "course.llm.scripted": 2,
    "course.safety": 3, "course.cleaning": 4, "course.results": 5, "course.agent": 5,
    "course.llm.offline": 5, "course.memory": 6, "course.llm.router": 7,
    "course.llm.gemini": 7, "course.llm.groq": 7, "course.llm.openai_compat": 7,
    "course.llm.registry": 7, "course.demo": 8, "course.widgets": 8,
    "course.evaluation": 9, "course.graph_memory": 10,
    "course.tools": 11, "course.llm.offline_tools": 11, "course.agentic": 12,
    "course.agentic_tools": 12, "course.agentic_rules": 12, "course.agentic_eval": 12,
    "course.embeddings": 13, "course.retrieval": 13, "course.text_layer": 13, "course.planner": 14,
    "course.planner_tools": 14,
}
# The entry points see everything.
TOP = {"course", "course.llm", "course.__main__"}
# Named exceptions, each a lazy import inside a function, each with its reason.
ALLOWED_LATER = {
    # `Agent(db)` with no provider picks one the way `course ask` does (COURSE_LLM, keys,
    # else offline): the choice is taught in notebook 07, the default is used from 05 on.
    ("course.agent", "course.llm.registry"),
    # Loading the notes (lesson 1) also builds notebook 13's text layer, so every notebook's
    # graph is ready to search; the learner meets chunks and embeddings only in lesson 13.
    ("course.dataset", "course.text_layer"),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _imports(path: Path) -> set[str]:
    """Every course module `path` imports (at the top or in a function), TYPE_CHECKING aside."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
               and _is_type_checking(block) for n in ast.walk(block)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("course")}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            if not target.startswith("course"):
                continue
            for alias in node.names:  # `from . import prompts` names a module
                sub = f"{target}.{alias.name}"
                found.add(sub if (PACKAGE.parent / sub.replace(".", "/")).with_suffix(".py").exists()
                          or (PACKAGE.parent / sub.replace(".", "/")).is_dir() else target)
    found.discard(name)
    return found


def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in PACKAGE.rglob("*.py")}


def test_every_module_has_a_lesson():
    missing = sorted(set(_graph()) - set(LESSON) - TOP
                     - {m for m in _graph() if m.startswith("course.llm.offline.")})
    assert not missing, f"give these a lesson in LESSON: {missing}"


def _lesson(module: str) -> int | None:
    if module in LESSON:
        return LESSON[module]
    if module.startswith("course.llm.offline."):
        return LESSON["course.llm.offline"]
    return None


def test_modules_import_only_earlier_lessons():
    late = []
    for module, imported in _graph().items():
        own = _lesson(module)
        if own is None:
            continue
        for other in imported:
            theirs = _lesson(other)
            if theirs is not None and theirs > own and (module, other) not in ALLOWED_LATER:
                late.append(f"{module} (lesson {own}) imports {other} (lesson {theirs})")
    assert not late, "\n".join(sorted(late))


def test_no_import_cycles():
    graph = _graph()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for other in sorted(graph.get(module, ())):
            if state.get(other) == 1:
                cycles.append(path[path.index(other):] + [other] if other in path else [module, other])
            elif other not in state:
                visit(other, path + [other])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles, cycles


def test_the_executor_knows_nothing_of_the_guard():
    source = (PACKAGE / "db.py").read_text(encoding="utf-8")
    assert "course.safety" not in _imports(PACKAGE / "db.py")
    assert "guard" not in inspect.signature(course.db.Database.run).parameters
    assert "ensure_safe" not in source


def test_no_caller_switches_the_guard_off():
    offenders = [str(p.relative_to(PACKAGE.parent)) for p in
                 list(PACKAGE.rglob("*.py")) + list((PACKAGE.parent / "notebooks").glob("*.ipynb"))
                 + list((PACKAGE.parent / "tests").glob("*.py")) + list((PACKAGE.parent / "bench").glob("*.py"))
                 if "guard=False" in p.read_text(encoding="utf-8") and p.name != Path(__file__).name]
    assert not offenders


def test_model_written_cypher_goes_through_the_one_guarded_door(college_db):
    from course.errors import UnsafeQuery
    from course.safety import run_guarded

    with pytest.raises(UnsafeQuery) as caught:
        run_guarded(college_db, "MATCH (n) DETACH DELETE n")
    assert caught.value.clause == "DETACH DELETE"
    assert run_guarded(college_db, "MATCH (s:Student) RETURN count(s)").rows == [[5]]
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


def test_unsafe_query_is_a_course_error_from_errors():
    from course import errors, safety

    assert issubclass(errors.UnsafeQuery, errors.CourseError)
    assert safety.UnsafeQuery is errors.UnsafeQuery


def test_the_public_api_is_what_learners_meet():
    expected = {"connect", "load_college", "Agent", "make_llm", "ScriptedLLM",
                "ShortTermMemory", "GraphMemory", "AnswerCache", "CourseError"}
    assert expected <= set(course.__all__)
    assert not {"Database", "Rows"} & set(course.__all__)
    for name in course.__all__:
        assert getattr(course, name) is not None


def test_one_way_to_make_an_llm():
    import course.llm

    assert course.make_llm is course.llm.make_llm
    notebooks = (PACKAGE.parent / "notebooks").glob("*.ipynb")
    deep = [p.name for p in notebooks if "course.llm.registry" in p.read_text(encoding="utf-8")]
    assert not deep, f"import make_llm from course or course.llm: {deep}"


def test_memory_is_one_module_per_lesson():
    import course.graph_memory
    import course.memory

    assert not hasattr(course.memory, "GraphMemory")
    assert course.graph_memory.GraphMemory.__module__ == "course.graph_memory"
    assert course.graph_memory.AnswerCache.__module__ == "course.graph_memory"


def test_docstrings_name_the_notebook_that_introduces_them():
    import course.llm.base
    import course.llm.scripted

    for module in (course.llm.base, course.llm.scripted):
        assert "notebook 02" in (module.__doc__ or ""), module.__name__


def test_no_scaffolding_left():
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "while course.memory is missing" not in text, path
        assert "not part of this version" not in text, path
    import course.graph_memory

    assert not hasattr(course.graph_memory.GraphMemory, "forget_session")


def test_a_memory_is_a_protocol():
    from course.agent import Memory, RecallingMemory
    from course.graph_memory import GraphMemory
    from course.memory import ShortTermMemory

    assert getattr(Memory, "_is_protocol", False)
    assert isinstance(ShortTermMemory(), Memory)
    assert not isinstance(ShortTermMemory(), RecallingMemory)
    assert all(hasattr(GraphMemory, name) for name in ("context", "remember", "clear", "recall"))
    assert "getattr" not in inspect.getsource(course.agent.Agent.answer)


def _examples(module) -> int:
    """The docstring examples of a module that run (not skipped)."""
    finder = doctest.DocTestFinder()
    return sum(1 for test in finder.find(module) for example in test.examples
               if not example.options.get(doctest.SKIP))


def test_every_module_has_a_true_example():
    modules = [importlib.import_module(m.name)
               for m in pkgutil.walk_packages(course.__path__, "course.")]
    counts = {module.__name__: _examples(module) for module in modules}
    assert not [name for name, n in counts.items() if n == 0]
    assert sum(counts.values()) >= 15


@pytest.mark.slow
def test_the_doctests_run_in_the_test_command():
    import subprocess
    import sys
    import tomllib

    settings = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "course" in settings["testpaths"]
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:nbval",
                           "-o", "addopts=", "course/db.py", "course/results.py"],
                          cwd=PACKAGE.parent, capture_output=True, text=True, timeout=120)
    assert "course/db.py::course.db" in done.stdout and "course/results.py::course.results.printable" in done.stdout
