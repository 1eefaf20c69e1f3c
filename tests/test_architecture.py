"""The package's shape: imports follow the lessons, one guarded door, a small public API."""
from __future__ import annotations

import ast
import doctest
import functools
import importlib
import inspect
import pkgutil
import re
import sys
from pathlib import Path

import pytest

import course

PACKAGE = Path(course.__file__).parent

# The lesson of a module is the notebook its docstring says introduces it ("Introduced in
# notebook 05"); a module whose docstring names none belongs to the nearest package that
# does (course/llm/offline/__init__.py for the offline provider's modules). That docstring is
# the one place a module's lesson is written. A module may import only modules of its own
# lesson or an earlier one, so a lesson never depends on what a later lesson teaches.
INTRODUCED = re.compile(r"Introduced in notebook (\d+)")
# The parts, lowest first: a module imports only from its own part or a lower one, so the
# folders read as layers (the foundation knows nothing of LLMs; the pipeline nothing of the
# agents built on it; a picture or a widget may use everything).
PARTS = ("foundation", "llm", "pipeline", "agents", "retrieval", "planner", "ingest", "ui")
# The entry points gather what the lessons built: they have no lesson of their own.
TOP = {"course", "course.llm", "course.__main__", "course.cli", "course.cli_doors"}
# Named exceptions, each a lazy import inside a function, each with its reason.
ALLOWED_LATER = {
    # `Agent(db)` with no provider picks one the way `course ask` does (COURSE_LLM, keys,
    # else offline): the choice is taught in notebook 07, the default is used from 05 on.
    ("course.pipeline.agent", "course.llm.registry"),
    # Linking (02) reads Hinglish from the start: a word of the language ("kahan", where) is
    # never a typo of a name (Karan), and which words those are is the list 05 teaches.
    ("course.pipeline.linking", "course.foundation.language"),
    # The chat of notebook 08 answers with the pipeline; a learner who has built the tool loop
    # (11) or the agentic agent (12-14) may chat with it instead, by name.
    ("course.ui.widgets", "course.planner.planner_tools"),
    # The offline provider (05) plays every part a model plays: its `chat()` is the tool
    # loop's policy (taught in 11) and the agentic agent's roles (taught in 12), as a
    # model's chat() is there from the start.
    ("course.llm.offline.provider", "course.llm.offline.tools"),
    ("course.llm.offline.provider", "course.llm.offline.roles.policy"),
}
ALLOWED_UPWARD: set[tuple[str, str]] = set()


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
    return {module: set(imported) for module, imported in _read_graph().items()}   # a copy


@functools.cache   # the package's source does not change during a run: parsed once
def _read_graph() -> dict[str, frozenset[str]]:
    return {_module_name(p): frozenset(_imports(p)) for p in PACKAGE.rglob("*.py")}


@functools.cache
def _read_docstrings() -> tuple[tuple[str, str], ...]:
    return tuple((_module_name(p), ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) or "")
                 for p in PACKAGE.rglob("*.py"))


def _docstrings() -> dict[str, str]:
    return dict(_read_docstrings())


def lessons(docstrings: dict[str, str]) -> dict[str, int]:
    """Each module's lesson: its docstring's "Introduced in notebook NN", else its package's."""
    own = {m: int(found[1]) for m, doc in docstrings.items() if (found := INTRODUCED.search(doc))}
    found: dict[str, int] = {}
    for module in docstrings:
        packages = [".".join(module.split(".")[:n]) for n in range(module.count(".") + 1, 0, -1)]
        lesson = next((own[p] for p in packages if p in own), None)
        if lesson is not None:
            found[module] = lesson
    return found


def late_imports(graph: dict[str, set[str]], lesson: dict[str, int],
                 allowed: set[tuple[str, str]] = ALLOWED_LATER) -> list[str]:
    """Every import of a module from a later lesson than the importer's (named exceptions aside)."""
    return sorted(f"{module} (lesson {lesson[module]}) imports {other} (lesson {lesson[other]})"
                  for module, imported in graph.items() if module in lesson
                  for other in imported if other in lesson and lesson[other] > lesson[module]
                  and (module, other) not in allowed)


def part_of(module: str) -> str | None:
    """The part a module belongs to: the folder under course/ (None: an entry point)."""
    part = module.split(".")[1] if module.count(".") >= 1 else None
    return part if part in PARTS else None


def upward_imports(graph: dict[str, set[str]],
                   allowed: set[tuple[str, str]] = ALLOWED_UPWARD) -> list[str]:
    """Every import of a module from a higher part than the importer's (named exceptions aside)."""
    rank = {part: n for n, part in enumerate(PARTS)}
    return sorted(f"{module} ({part_of(module)}) imports {other} ({part_of(other)})"
                  for module, imported in graph.items() if (mine := part_of(module)) is not None
                  for other in imported if (theirs := part_of(other)) is not None
                  and rank[theirs] > rank[mine] and (module, other) not in allowed)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles a depth-first walk finds: each as the chain of modules that closes it."""
    state: dict[str, int] = {}
    found: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for other in sorted(graph.get(module, ())):
            if state.get(other) == 1:
                found.append(path[path.index(other):] + [other] if other in path
                             else [module, other])
            elif other not in state:
                visit(other, path + [other])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return found


@pytest.mark.slow   # half a second or more
def test_every_module_has_a_lesson():
    graph, lesson = _graph(), lessons(_docstrings())
    folders = {f"course.{part}" for part in PARTS} - TOP   # a part's __init__: its docstring only
    missing = sorted(set(graph) - set(lesson) - TOP - folders)
    assert not missing, f'say "Introduced in notebook NN" in the docstring of: {missing}'
    assert not [folder for folder in folders if graph[folder]], "a part's __init__ imports nothing"


def test_every_module_is_in_a_part():
    assert not [m for m in _graph() if m not in TOP and part_of(m) is None]


def test_a_lesson_is_read_from_the_docstring_or_the_package():
    found = lessons({"course.x": "Introduced in notebook 05 (the agent).", "course.x.y": "Rules.",
                     "course.x.z": "Introduced in notebook 09.", "course.w": "No lesson here."})
    assert found == {"course.x": 5, "course.x.y": 5, "course.x.z": 9}


def test_modules_import_only_earlier_lessons():
    late = late_imports(_graph(), lessons(_docstrings()))
    assert not late, "\n".join(late)


def test_a_later_lesson_import_is_found():
    graph = {"course.pipeline.agent": {"course.planner.plans", "course.llm.registry"}}
    lesson = {"course.pipeline.agent": 5, "course.planner.plans": 14, "course.llm.registry": 7}
    assert late_imports(graph, lesson) == [
        "course.pipeline.agent (lesson 5) imports course.planner.plans (lesson 14)"]
    assert len(late_imports(graph, lesson, allowed=set())) == 2   # the named exception counts


def test_parts_import_only_their_own_or_lower_parts():
    upward = upward_imports(_graph())
    assert not upward, "\n".join(upward)


def test_an_import_from_a_higher_part_is_found():
    graph = {"course.llm.offline.answer": {"course.pipeline.prompts", "course.foundation.config"},
             "course.pipeline.agent": {"course.llm.base"}, "course": {"course.ui.viz"}}
    assert upward_imports(graph) == [
        "course.llm.offline.answer (llm) imports course.pipeline.prompts (pipeline)"]


def test_no_import_cycles():
    assert not cycles(_graph())


def test_an_import_cycle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]


def test_the_build_finds_every_part():
    import tomllib

    from setuptools import find_packages

    settings = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    include = settings["tool"]["setuptools"]["packages"]["find"]["include"]
    found = set(find_packages(where=str(PACKAGE.parent), include=include))
    folders = {_module_name(p.parent / "__init__.py") for p in PACKAGE.rglob("*.py")}
    assert folders <= found, f"not packaged: {sorted(folders - found)}"
    assert all((PACKAGE.parent / f.replace(".", "/") / "__init__.py").is_file() for f in folders)
    assert {f"course.{part}" for part in PARTS} <= found


def test_no_module_is_over_400_lines():
    long = {_module_name(p): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert not long, f"split these along their ideas: {long}"


def test_the_executor_knows_nothing_of_the_guard():
    executor = PACKAGE / "foundation" / "db.py"
    source = executor.read_text(encoding="utf-8")
    assert not {"course.pipeline.safety", "course.pipeline.guard"} & _imports(executor)
    assert "guard" not in inspect.signature(course.foundation.db.Database.run).parameters
    assert "ensure_safe" not in source


SWITCH = re.compile(r"guard|unsafe|allow_write")   # a parameter that could turn the guard off


def switches(source: str) -> list[str]:
    """The functions of `source` with a parameter named like a switch for the guard."""
    return [f"{node.name}({arg.arg})" for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            if SWITCH.search(arg.arg)]


@pytest.mark.slow   # half a second or more
def test_nothing_has_a_switch_for_the_guard():
    found = [f"{_module_name(p)}.{f}" for p in PACKAGE.rglob("*.py")
             for f in switches(p.read_text(encoding="utf-8"))]
    assert not found, f"the guard has no off switch; take out: {found}"


def test_a_switch_for_the_guard_is_found():
    source = ("def run_guarded(db, query, *, guard=True): ...\n"
              "def run(db, query, allow_writes=False): ...\n"
              "def check(query, strict=True): ...\n")
    assert switches(source) == ["run_guarded(guard)", "run(allow_writes)"]


def test_model_written_cypher_goes_through_the_one_guarded_door(college_db):
    from course.foundation.errors import UnsafeQuery
    from course.pipeline.safety import run_guarded

    with pytest.raises(UnsafeQuery) as caught:
        run_guarded(college_db, "MATCH (n) DETACH DELETE n")
    assert caught.value.clause == "DETACH DELETE"
    assert run_guarded(college_db, "MATCH (s:Student) RETURN count(s)").rows == [[5]]
    assert college_db.counts() == {"nodes": 75, "relationships": 132}


def test_unsafe_query_is_a_course_error_from_errors():
    from course.foundation import errors
    from course.pipeline import safety

    assert issubclass(errors.UnsafeQuery, errors.CourseError)
    assert safety.UnsafeQuery is errors.UnsafeQuery


def test_the_public_api_is_what_learners_meet():
    expected = {"connect", "load_college", "Agent", "make_llm", "ScriptedLLM",
                "ShortTermMemory", "GraphMemory", "AnswerCache", "CourseError"}
    assert expected <= set(course.__all__)
    assert not {"Database", "Rows"} & set(course.__all__)
    used = _names_the_notebooks_take_from_course()
    assert {"connect", "load_college", "Agent"} <= used   # the reader finds the notebooks' imports
    missing = sorted(used - set(course.__all__))
    assert not missing, f"the notebooks use course.{missing}: export them from course/__init__.py"


def _names_the_notebooks_take_from_course() -> set[str]:
    """Every `from course import X` and `course.X` (X not a subpackage) in the notebooks' code."""
    import json

    subpackages = {m.name for m in pkgutil.iter_modules(course.__path__)}
    names: set[str] = set()
    for path in (PACKAGE.parent / "notebooks").glob("*.ipynb"):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for cell in (c for c in cells if c["cell_type"] == "code"):
            lines = "".join(cell["source"]).splitlines()
            tree = ast.parse("\n".join(l for l in lines if not l.lstrip().startswith(("%", "!"))))
            names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                      and n.module == "course" and not n.level for a in n.names}
            names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                      and isinstance(n.value, ast.Name) and n.value.id == "course"}
    return names - subpackages


def test_one_way_to_make_an_llm():
    import course.llm

    assert course.make_llm is course.llm.make_llm
    notebooks = (PACKAGE.parent / "notebooks").glob("*.ipynb")
    deep = [p.name for p in notebooks if "course.llm.registry" in p.read_text(encoding="utf-8")]
    assert not deep, f"import make_llm from course or course.llm: {deep}"


def test_memory_is_one_module_per_lesson():
    import course.pipeline.answer_cache
    import course.pipeline.graph_memory
    import course.pipeline.memory

    assert not hasattr(course.pipeline.memory, "GraphMemory")
    assert course.pipeline.graph_memory.GraphMemory.__module__ == "course.pipeline.graph_memory"
    assert course.pipeline.answer_cache.AnswerCache.__module__ == "course.pipeline.answer_cache"


def test_docstrings_name_the_notebook_that_introduces_them():
    import course.llm.base
    import course.llm.scripted

    for module in (course.llm.base, course.llm.scripted):
        assert "notebook 02" in (module.__doc__ or ""), module.__name__


# A function whose body is only `pass`, `...` or `raise NotImplementedError` is a placeholder,
# except where the language wants one: a Protocol's or an abstract method, an @overload.
# Named exceptions, each a real do-nothing with its reason.
STUB_ALLOWED = {
    # The base of the chat-completions providers: each subclass names its SDK.
    ("course.llm.openai_compat", "_sdk"),
    # The context handed to text2cypher is read-only: it must not add turns or forget any.
    ("course.agents.agentic_tools", "clear"),
}


def _placeholder(statement: ast.stmt) -> bool:
    text = ast.unparse(statement)
    unwritten = re.fullmatch(r"raise NotImplementedError(\(.*\))?", text)
    return text in ("pass", "...") or unwritten is not None


def stubs(module: str, source: str) -> list[str]:
    """The placeholder functions of `source`: body only `pass`, `...` or NotImplementedError."""
    tree = ast.parse(source)
    protocols = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
                 and any("Protocol" in ast.unparse(b) for b in c.bases) for f in c.body}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or id(node) in protocols:
            continue
        decorators = {ast.unparse(d).rsplit(".", 1)[-1] for d in node.decorator_list}
        if decorators & {"overload", "abstractmethod"}:
            continue
        body = node.body[1:] if ast.get_docstring(node) else node.body
        if all(_placeholder(s) for s in body) and (module, node.name) not in STUB_ALLOWED:
            found.append(f"{module}.{node.name} (line {node.lineno})")
    return found


@pytest.mark.slow   # half a second or more
def test_no_placeholder_left():
    found = [stub for p in PACKAGE.rglob("*.py")
             for stub in stubs(_module_name(p), p.read_text(encoding="utf-8"))]
    assert not found, f"write these or remove them: {found}"
    marked = [str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("*.py")
              if re.search(r"\b(TODO|FIXME)\b", p.read_text(encoding="utf-8"))]
    assert not marked, f"finish or remove the TODO/FIXME in: {marked}"


def test_a_placeholder_is_found():
    source = ("from typing import Protocol, overload\n"
              "class P(Protocol):\n    def a(self) -> int: ...\n"
              "def b() -> None:\n    \"\"\"Soon.\"\"\"\n    raise NotImplementedError('later')\n"
              "def c() -> None:\n    pass\n"
              "@overload\ndef d(x: int) -> int: ...\n"
              "def e() -> int:\n    return 1\n")
    assert stubs("m", source) == ["m.b (line 4)", "m.c (line 7)"]


def test_a_memory_is_a_protocol():
    from course.pipeline.agent import Memory, RecallingMemory
    from course.pipeline.graph_memory import GraphMemory
    from course.pipeline.memory import ShortTermMemory

    assert getattr(Memory, "_is_protocol", False)
    assert isinstance(ShortTermMemory(), Memory)
    assert not isinstance(ShortTermMemory(), RecallingMemory)
    assert all(hasattr(GraphMemory, name) for name in ("context", "remember", "clear", "recall"))
    assert "getattr" not in inspect.getsource(course.pipeline.agent.Agent.answer)


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
                           "-o", "addopts=", "course/foundation/db.py",
                           "course/pipeline/results.py"],
                          cwd=PACKAGE.parent, capture_output=True, text=True, timeout=120)
    assert "course/foundation/db.py::course.foundation.db" in done.stdout
    assert "course/pipeline/results.py::course.pipeline.results.printable" in done.stdout


# Two doors touch the data: the loader writes the course's own CSV data, the ingest write door
# writes reviewed diffs. Named exceptions write what is not course data, each with its reason.
WRITERS = {
    "course.foundation.dataset": "the CSV loader",
    "course.ingest.write_door": "the ingest write door",
    # Notebook 13's chunks, derived from the notes by the loader (and the write door).
    "course.retrieval.text_layer": "the text layer the loader builds",
    # Stored conversations live in memory graphs, never in the course graph.
    "course.pipeline.graph_memory": "memory graphs",
}
_WRITE_COMMANDS = re.compile(r"^(GRAPH\.(DELETE|COPY)|RENAME|DEL|HSET|HDEL)$")


def writes(source: str) -> list[str]:
    """What a module's source does that writes: a write-access query call, a graph command."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("query", "transaction"):
            found.append(f".{node.func.attr}() on line {node.lineno}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and _WRITE_COMMANDS.match(node.value):
            found.append(f"{node.value!r} on line {node.lineno}")
    return found


@pytest.mark.slow   # half a second or more
def test_only_the_loader_and_the_write_door_write():
    found = {_module_name(p): w for p in PACKAGE.rglob("*.py")
             if (w := writes(p.read_text(encoding="utf-8")))}
    # The executor defines the write path and the version key's bookkeeping; it is not a writer.
    found.pop("course.foundation.db", None)
    found.pop("course.foundation.versioning", None)   # the data version kept beside the graph
    assert not set(found) - set(WRITERS), {m: w for m, w in found.items() if m not in WRITERS}
    assert {m for m in found if m.startswith("course.ingest.")} == {"course.ingest.write_door"}


def test_a_write_is_found():
    source = ("def f(db):\n    db.run('MATCH (n) RETURN n')\n    db.query('CREATE (n)')\n"
              "    db.command('GRAPH.DELETE', 'college')\n")
    assert writes(source) == [".query() on line 3", "'GRAPH.DELETE' on line 4"]
def test_the_llm_part_imports_only_the_foundation_and_itself():
    # the offline provider's roles read their prompt, as a model does: no pipeline, no agent
    above = sorted(f"{m} imports {o}" for m, imported in _graph().items() if part_of(m) == "llm"
                   for o in imported if part_of(o) not in ("foundation", "llm"))
    assert not above, "\n".join(above)


def test_the_agentic_loop_never_asks_which_model_it_has():
    import course.agents.agentic as agentic
    import course.agents.agentic_roles as roles

    for module in (agentic, roles):
        tree = ast.parse(inspect.getsource(module))
        checks = [text for n in ast.walk(tree) if isinstance(n, ast.Call)
                  and ast.unparse(n.func) in ("isinstance", "type")
                  and re.search(r"LLM|Roles|Offline|Scripted|Gemini|Groq|llm", text := ast.unparse(n))]
        assert not checks, f"{module.__name__} branches on the model: {checks}"
    source = inspect.getsource(agentic)
    assert "RuleRoles" not in source and not re.search(r"llm_calls\s*[-+]=", source)
    assert "offline" not in " ".join(_imports(Path(agentic.__file__)))


def word_lists(source: str, words: set[str]) -> list[str]:
    """The string constants of `source` that are lists of the language's words."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
                  and ast.get_docstring(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            tokens = node.value.split()
            known = sum(t in words for t in tokens)
            if len(tokens) >= 6 and all(t.isalpha() and t.islower() for t in tokens) \
                    and known >= 0.9 * len(tokens):
                found.append(" ".join(tokens[:6]))
    return found


@pytest.mark.slow   # half a second or more
def test_the_language_words_are_one_data_file():
    from course.foundation.language import WORDS

    words = {w for value in vars(WORDS).values() for w in value if isinstance(w, str)}
    found = {_module_name(p): lists for p in PACKAGE.rglob("*.py")
             if (lists := word_lists(p.read_text(encoding="utf-8"), words))}
    assert not found, f"read these from data/language/words.yaml: {found}"


def test_a_word_list_in_the_code_is_found():
    source = ('"""Words: who what which where when why."""\n'
              'PEOPLE = frozenset("who whom whose kaun kon kisne".split())\n'
              'QUERY = "MATCH (s:Student) RETURN s.name"\n')
    assert word_lists(source, {"who", "whom", "whose", "kaun", "kon", "kisne", "the", "a"}) == [
        "who whom whose kaun kon kisne"]


def untyped_statuses(source: str) -> list[str]:
    """The `status` fields and variables of `source` annotated with anything but `Status`."""
    return [ast.unparse(n) for n in ast.walk(ast.parse(source)) if isinstance(n, ast.AnnAssign)
            and ast.unparse(n.target).rsplit(".", 1)[-1] == "status"
            and "Status" not in ast.unparse(n.annotation)]


@pytest.mark.slow   # half a second or more
def test_every_status_is_the_one_status_type():
    from course.pipeline.results import STATUSES, Result

    assert STATUSES == ("answered", "out_of_scope", "blocked", "failed")
    assert "Status" in str(Result.__annotations__["status"])
    found = {_module_name(p): bad for p in PACKAGE.rglob("*.py")
             if (bad := untyped_statuses(p.read_text(encoding="utf-8")))}
    assert not found, f"annotate these with course.pipeline.results.Status: {found}"


def test_an_untyped_status_is_found():
    source = ("class A:\n    status: str = 'answered'\n"
              "class B:\n    status: Status = 'failed'\n    kind: str = ''\n")
    assert untyped_statuses(source) == ["status: str = 'answered'"]


def test_a_refusal_and_a_questions_cost_are_written_in_one_place():
    # the refusal answers are set by Result.refuse, the token totals by agents.cost.add_up
    for path in PACKAGE.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        if path.name not in ("results.py", "prompts.py"):
            assert not re.search(r"(OUT_OF_SCOPE|BLOCKED)_ANSWER\[", source), path.name
        if path.name != "cost.py":
            assert "sum(s.input_tokens" not in source, path.name


def test_the_system_prompt_template_is_written_once():
    sources = [p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py")]
    assert sum(s.count("RULES:\n{rules}\n\nEXAMPLES:\n{examples}") for s in sources) == 1


@pytest.mark.slow   # half a second or more
def test_a_part_of_an_agentic_answer_is_built_by_name():
    calls = [f"{_module_name(p)}: {ast.unparse(n)[:60]}" for p in PACKAGE.rglob("*.py")
             for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))) if isinstance(n, ast.Call)
             and ast.unparse(n.func).endswith("SubQuestion") and len(n.args) > 2]
    assert not calls, calls


def test_a_step_says_its_role_in_one_type():
    from typing import get_args

    from course.agents.agentic_run import Run
    from course.pipeline.results import Step, StepKind

    assert {"updater", "router", "critic", "text2cypher", "answer"} <= set(get_args(StepKind))
    assert Step.__annotations__["kind"] == "StepKind"
    assert inspect.signature(Run.step).parameters["role"].annotation == "StepKind"


def _public_classes(part: str) -> dict[str, list[str]]:
    """Each public class name defined in a part, with the modules that define it."""
    found: dict[str, list[str]] = {}
    for path in sorted((PACKAGE / part).rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                found.setdefault(node.name, []).append(_module_name(path))
    return found


@pytest.mark.parametrize("part", PARTS)
def test_a_part_names_each_class_once(part):
    # The tool loop's Toolbox and the agentic agent's were two unrelated classes of one name.
    assert not {name: where for name, where in _public_classes(part).items() if len(where) > 1}


def test_two_classes_of_one_name_are_found(tmp_path, monkeypatch):
    (tmp_path / "x").mkdir()
    for module in ("a", "b"):
        (tmp_path / "x" / f"{module}.py").write_text("class Toolbox:\n    pass\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path)
    found = _public_classes("x")
    assert list(found) == ["Toolbox"] and len(found["Toolbox"]) == 2
