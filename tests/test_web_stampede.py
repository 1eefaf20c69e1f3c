"""The web app under a room's load, and what a room shares: the answer cache (kept apart per
agent), a question asked by many at once (answered once), the rate limit (per browser and per
address), the graph read again when it changes. bench/bench_serve.py measures the load."""
from __future__ import annotations

import pytest

from course.cli_doors import web_chat
from test_web_app import client_for, events, of


def test_the_answer_cache_keeps_each_agents_answers_apart(college_db):
    events(client_for(web_chat(college_db, agent="pipeline")), "Who is Payal?")   # cached
    for agent in ("tools", "agentic"):
        answer, = of(events(client_for(web_chat(college_db, agent=agent)), "Who is Payal?"),
                     "answer")
        assert answer["status"] == "answered"
        assert not answer["from_memory"] and answer["provider"] != "answer cache", agent
    again, = of(events(client_for(web_chat(college_db, agent="tools")), "Who is Payal?"),
                "answer")
    assert again["from_memory"] and again["provider"] == "answer cache"   # its own answer
