"""Notebook 16 (the MCP server): the server it starts serves the notebook's own database."""
from __future__ import annotations

import json
import os
import sys

from course.foundation.config import PROJECT_ROOT

NOTEBOOK = PROJECT_ROOT / "notebooks" / "16_mcp_server.ipynb"


def server_statement() -> str:
    """The notebook's statement that says how its MCP client starts the server."""
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    lines = [line for cell in cells if cell["cell_type"] == "code"
             for line in "".join(cell["source"]).splitlines()]
    return next(line for line in lines if line.startswith("server = StdioServerParameters("))


def test_the_server_the_notebook_starts_gets_its_environment(monkeypatch):
    # The MCP SDK starts a stdio server with a bare environment (HOME, PATH, ...) unless told:
    # COURSE_DB and COURSE_LLM would be lost, and the server would open the learner's database.
    from mcp.client.stdio import StdioServerParameters
    monkeypatch.setenv("COURSE_DB", "/elsewhere/test.db")
    monkeypatch.setenv("COURSE_LLM", "offline")
    names = {"StdioServerParameters": StdioServerParameters, "sys": sys, "os": os}
    exec(server_statement(), names)
    env = names["server"].env
    assert env is not None and env["COURSE_DB"] == "/elsewhere/test.db"
    assert env["COURSE_LLM"] == "offline"
