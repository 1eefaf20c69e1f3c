"""What the web app does per request, counted: each shown text, each answer, each stream.

A room's stampede is served by one process; what each request costs is paid forty times at
once. These tests count the work itself (system calls, reads, writes), not the time it takes.
"""
from __future__ import annotations

import os

from course.llm.errors import configured_secrets


def test_the_keys_look_stats_each_place_of_dotenv_once(tmp_path, monkeypatch):
    """Every shown text asks which keys to hide (`configured_secrets`): is .env here, and has it
    changed? One stat per place looked at answers both (a stat is a system call; a text shown
    dozens of times an answer, forty answers at once)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("MISTRAL_API_KEY=mistral-" + "m" * 30 + "\n")
    for name in ("GEMINI_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert configured_secrets() == ("mistral-" + "m" * 30,)
    looked: list[str] = []
    real_stat = os.stat

    def counted(path, *args, **kwargs):
        looked.append(os.fspath(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", counted)
    assert configured_secrets() == ("mistral-" + "m" * 30,)
    assert looked == [str(tmp_path / ".env")]
    (tmp_path / ".env").unlink()            # gone: the project's place is looked at too
    looked.clear()
    configured_secrets()
    assert len(looked) == 2 and looked[0] == str(tmp_path / ".env")
