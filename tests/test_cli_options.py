"""The command line's options, read in-process: each shared option defined once, checked where
it is read, and an option the chosen agent does not use refused instead of ignored."""
from __future__ import annotations

import inspect

import pytest

import course.__main__ as entry
import course.cli as cli
from course.__main__ import build_parser, main


def _verbs() -> dict:
    return build_parser()._subparsers._group_actions[0].choices   # type: ignore[union-attr]


@pytest.mark.parametrize("option, commands", [
    ("--json", 8), ("--provider", 4), ("--attempts", 2), ("--embedder", 2), ("--agent", 1)])
def test_each_shared_option_is_defined_once(option, commands):
    """Every command that takes the option holds the very same action: one definition."""
    actions = [action for verb in _verbs().values() for action in verb._actions
               if option in action.option_strings]
    assert len(actions) == commands and len({id(action) for action in actions}) == 1
    assert inspect.getsource(entry).count(f'"{option}": dict(') == 1


def test_one_json_writer_serves_every_verb():
    source = inspect.getsource(cli)
    assert "json.dumps" not in source
    assert source.count("json_line(") == 1   # inside the one writer


def test_build_parser_is_short():
    assert len(inspect.getsource(build_parser).splitlines()) <= 40


@pytest.mark.parametrize("argv, says", [
    (["ask", "--agent", "tools", "--attempts", "3", "Who is Payal?"], "--attempts"),
    (["ask", "--agent", "agentic", "--attempts", "1", "Who is Payal?"], "--attempts"),
    (["ask", "--agent", "agentic", "--max-steps", "3", "Who is Payal?"], "--max-steps"),
    (["ask", "--max-steps", "3", "Who is Payal?"], "--max-steps"),
])
def test_an_option_the_agent_does_not_use_is_an_error(argv, says, capsys):
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"error: {says}") and err.count(".") >= 1
    assert "--agent" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv, says", [
    (["ask", "--attempts", "0", "Who is Payal?"], "error: --attempts must be 1 or more"),
    (["eval", "--attempts", "zero"], "error: --attempts must be 1 or more"),
    (["ask", "--agent", "tools", "--max-steps", "0", "Who?"],
     "error: --max-steps must be 1 or more"),
    (["ask", "--provider", "nosuch", "Who is Payal?"], "error: Unknown LLM provider 'nosuch'"),
    (["search", "--k", "0", "paging"], "error: --k must be from 1 to"),
    (["plan", "--student", "Sneha", "--subject", "DBMS", "--days", "0"], "from 1 to 365"),
])
def test_a_bad_value_is_refused_while_parsing(argv, says, capsys):
    """Refused by the option's `type=` check: before any database or question is touched."""
    with pytest.raises(Exception) as refused:
        build_parser().parse_args(argv)
    assert says.removeprefix("error: ") in str(refused.value)
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == "" and says in err and "Traceback" not in err


def test_a_provider_name_is_read_in_any_case():
    assert build_parser().parse_args(["demo", "--provider", " Offline "]).provider == "offline"


def test_the_agentic_help_names_the_agent_it_builds():
    text = _verbs()["ask"].format_help()
    assert "notebook 14" in text and "planner" in text


def test_every_help_reads(capsys):
    for name, verb in _verbs().items():
        text = verb.format_help()
        assert text.startswith("usage: python -m course " + name)
        for action in verb._actions:
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"
