"""The web app under a room's load, and what a room shares: the answer cache (kept apart per
agent), a question asked by many at once (answered once), the rate limit (per browser and per
address), the graph read again when it changes. bench/bench_serve.py measures the load."""
from __future__ import annotations

import json

import pytest

from course.cli_doors import web_chat
from test_web_app import client_for, events, of

def at_once(ask, count: int) -> None:
    """Call ask(0) ... ask(count - 1), each in a thread of its own, all at once."""
    import threading

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)



@pytest.fixture
def no_cached_answers(college_db):
    """The answer cache empty before the test and after it."""
    from course.pipeline.answer_cache import AnswerCache

    AnswerCache(college_db).clear()
    yield
    AnswerCache(college_db).clear()


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


def test_dropping_the_cookie_does_not_sidestep_the_rate_limit(college_db):
    now = [0.0]
    chat = web_chat(college_db, per_minute=2, per_address=3, clock=lambda: now[0],
                    limit_key=lambda address: address)      # the test client's address counts
    client = client_for(chat)
    assert of(events(client, "Who is Payal?"), "answer")
    assert of(events(client, "Who is Rahul?"), "answer")
    client.cookies.clear()
    client.get("/")                                   # a new session, from the same address
    assert of(events(client, "Who is Sneha?"), "answer")
    client.cookies.clear()
    client.get("/")
    refused = events(client, "Who is Karan?")
    assert refused == [{"type": "error", "message": "Too many questions: this server, from one "
                                                     "address, takes 3 a minute. Wait 20 s, then "
                                                     "ask again."}]
    now[0] += 20
    assert of(events(client, "Who is Karan?"), "answer")


def test_only_other_machines_addresses_are_limited_by_default():
    from course.ui.web.sessions import address_key

    assert address_key("192.168.1.20") == "192.168.1.20"
    assert address_key("127.0.0.1") is None and address_key("::1") is None


def test_a_graph_changed_while_serving_is_seen_on_the_next_question(college_db):
    client = client_for(web_chat(college_db))
    assert of(events(client, "Who is Payal?"), "answer")          # this browser's agent is made
    college_db.query("CREATE (:Student {id: 'S06', name: 'Zoya', year: 1, branch: 'ECE'})")
    found = events(client, "Who is Zoya?")
    answer, = of(found, "answer")
    assert answer["status"] == "answered" and "Zoya" in answer["answer"]
    graph, = of(found, "graph")
    assert "Zoya" in {n["name"] for n in graph["nodes"] if n["lit"]}
    assert "Zoya" in {n["name"] for n in client.get("/api/history").json()["graph"]["nodes"]}


@pytest.mark.parametrize("agent", ["pipeline", "tools"])
def test_the_schema_the_agent_is_told_follows_the_data_version(college_db, agent):
    from test_web_app import SESSION_COOKIE

    chat = web_chat(college_db, agent=agent)
    client = client_for(chat)
    assert of(events(client, "Who is Payal?"), "answer")
    session = chat.sessions.get(client.cookies[SESSION_COOKIE])
    assert "- Lab {name}" not in session.agent.system_prompt
    college_db.query("CREATE (:Lab {name: 'Robotics Lab'})")
    assert of(events(client, "Who is Payal?"), "answer")
    assert "- Lab {name}" in session.agent.system_prompt
    again, = of(events(client, "Who is Payal?"), "answer")   # the memory went on: a repeat
    assert again["answer"].startswith("As I said in turn 2")


def test_the_servers_connections_send_each_stage_at_once():
    """Nagle's algorithm off (TCP_NODELAY) on every connection the app accepts: otherwise each
    stage after the first of a kept-alive connection waits for the browser's delayed ACK."""
    import asyncio
    import socket

    from course.ui.web.serve import open_socket

    async def accepted_nodelay() -> int:
        found: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                found.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

        sock = open_socket("127.0.0.1", 0)       # as `serve` opens it, then as uvicorn serves it
        server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
        _, writer = await asyncio.open_connection(*sock.getsockname()[:2])
        try:
            return await asyncio.wait_for(found, 10)
        finally:
            writer.close()
            server.close()

    assert asyncio.run(accepted_nodelay()) == 1


def test_a_rooms_turns_are_saved_under_one_holding_of_the_lock(college_db, monkeypatch):
    import threading
    import time
    from contextlib import contextmanager

    from course.pipeline.graph_memory import GraphMemory
    from course.pipeline.group_save import waiting
    from course.pipeline.results import Result

    user = "room-" + college_db.graph_name
    memories = [GraphMemory(college_db, session=f"browser-{i}", user=user) for i in range(8)]
    key = ("saving turns", college_db.location, memories[0].store.graph_name)
    held: list[str] = []
    real_lock = GraphMemory._saving

    @contextmanager
    def spy(self):   # a spy around the real lock: its first holder waits for the room to queue
        if not held:
            deadline = time.monotonic() + 10
            while waiting(key) < len(memories) - 1 and time.monotonic() < deadline:
                time.sleep(0.01)
        held.append(self.session)
        with real_lock(self):
            yield

    monkeypatch.setattr(GraphMemory, "_saving", spy)
    answered = Result(question="Who is Payal?", answer="Payal is a second-year CSE student.",
                      status="answered", rows=[["Payal", 2, "CSE"]], cypher="RETURN 1")
    try:
        room = [threading.Thread(target=m.remember, args=(answered,)) for m in memories]
        for browser in room:
            browser.start()
        for browser in room:
            browser.join(30)
        assert len(held) == 2          # the first alone, then the seven that came meanwhile
        for memory in memories:        # every turn stored, each numbered in its own session
            again = GraphMemory(college_db, session=memory.session, user=user)
            assert [(t["n"], t["question"]) for t in again.history()] == [(1, "Who is Payal?")]
    finally:
        GraphMemory.forget_user(college_db, user)


def test_a_group_write_hands_each_writer_its_own_outcome():
    from contextlib import nullcontext

    from course.pipeline.group_save import together

    def broken() -> int:
        raise ValueError("this write failed")

    assert together(("t",), nullcontext, lambda: 7) == 7
    with pytest.raises(ValueError, match="this write failed"):
        together(("t",), nullcontext, broken)

    def no_lock():
        raise RuntimeError("the lock was not had")

    with pytest.raises(RuntimeError, match="not had"):
        together(("t",), no_lock, lambda: 7)


def test_a_room_asking_the_same_first_question_at_once_gets_one_answer_computed(college_db):
    import time

    from course.foundation.versioning import data_version
    from course.llm.base import Completion
    from course.llm.offline import OfflineLLM
    from course.pipeline.agent import Agent, provider_config
    from course.pipeline.answer_cache import AnswerCache
    from course.pipeline.graph_memory import GraphMemory
    from course.pipeline.in_flight import waiting

    room, user = 6, "flight-" + college_db.graph_name
    calls: list[str] = []
    key = AnswerCache(college_db).key("Who is Payal?", version=data_version(college_db),
                                      provider=provider_config(OfflineLLM()))

    class CountingLLM(OfflineLLM):   # a mock provider: the offline one, counted; its first
        def complete(self, prompt: str, *, system: str | None = None) -> Completion:
            if not calls:            # call waits until the rest of the room waits for it
                deadline = time.monotonic() + 10
                while waiting(key) < room - 1 and time.monotonic() < deadline:
                    time.sleep(0.01)
            calls.append(prompt)
            return super().complete(prompt, system=system)

    agents = [Agent(college_db, CountingLLM(), memory=GraphMemory(
        college_db, session=f"browser-{i}", user=user, cache=AnswerCache(college_db)))
        for i in range(room)]
    results: list = [None] * room

    def ask(i: int) -> None:
        results[i] = agents[i].answer("Who is Payal?")

    try:
        at_once(ask, room)
        assert len(calls) == 2                       # one query written, one answer written
        assert all(r.status == "answered" and r.rows[0][0] == "Payal" for r in results)
        assert sorted(r.provider for r in results) == ["Offline"] + ["answer cache"] * (room - 1)
    finally:
        GraphMemory.forget_user(college_db, user)
        AnswerCache(college_db).clear()


def test_a_follow_up_never_waits_for_nor_gets_another_sessions_answer(college_db):
    from course.foundation.versioning import data_version
    from course.pipeline.agent import Agent, provider_config
    from course.pipeline.answer_cache import AnswerCache
    from course.pipeline.graph_memory import GraphMemory
    from course.pipeline.in_flight import land, take_off

    user = "follow-" + college_db.graph_name
    memory = GraphMemory(college_db, session="s", user=user, cache=AnswerCache(college_db))
    agent = Agent(college_db, memory=memory)
    try:
        agent.answer("Who is Payal?")
        key = AnswerCache(college_db).key("uska year kya hai?", version=data_version(college_db),
                        provider=provider_config(agent.llm))
        assert take_off(key)          # as if another browser were answering this text now
        try:
            follow = agent.answer("uska year kya hai?")   # returns at once: it does not wait
        finally:
            land(key)
        assert follow.status == "answered" and not follow.from_memory
    finally:
        GraphMemory.forget_user(college_db, user)
        AnswerCache(college_db).clear()


def test_the_keys_every_shown_text_is_cleaned_of_follow_the_environment_and_dotenv(
        tmp_path, monkeypatch):
    """configured_secrets is worked out once while nothing changes (it runs dozens of times an
    answer); a key set, changed or written to .env afterwards is still never shown."""
    from course.llm.errors import configured_secrets
    from course.ui.web.access import page_text

    monkeypatch.chdir(tmp_path)
    for name in ("GEMINI_API_KEY", "GROQ_API_KEY", "MISTRAL_API_KEY", "OPENROUTER_API_KEY"):
        monkeypatch.setenv(name, "")
    assert configured_secrets() == ()
    monkeypatch.setenv("GROQ_API_KEY", "gsk_first" + "1" * 30)
    assert configured_secrets() == ("gsk_first" + "1" * 30,)
    monkeypatch.setenv("GROQ_API_KEY", "gsk_second" + "2" * 30)
    assert "2222222222" not in page_text("the key is gsk_second" + "2" * 30)
    monkeypatch.delenv("MISTRAL_API_KEY")
    (tmp_path / ".env").write_text("MISTRAL_API_KEY=mistral-" + "m" * 30 + "\n")
    assert "mistral-" + "m" * 30 in configured_secrets()
    assert "mmmmmmmmmm" not in page_text("the key is mistral-" + "m" * 30)


def test_a_question_that_failed_leaves_nobody_waiting_for_it(college_db):
    from course.foundation.versioning import data_version
    from course.llm.base import Completion
    from course.llm.errors import NoProviderConfigured
    from course.llm.offline import OfflineLLM
    from course.pipeline.agent import Agent, provider_config
    from course.pipeline.answer_cache import AnswerCache
    from course.pipeline.graph_memory import GraphMemory
    from course.pipeline.in_flight import land, take_off

    class DownLLM(OfflineLLM):     # a mock provider that is down
        def complete(self, prompt: str, *, system: str | None = None) -> Completion:
            raise NoProviderConfigured()

    user = "down-" + college_db.graph_name
    agent = Agent(college_db, DownLLM(), memory=GraphMemory(
        college_db, session="s", user=user, cache=AnswerCache(college_db)))
    try:
        assert agent.answer("Who is Payal?").status == "failed"
        key = AnswerCache(college_db).key("Who is Payal?", version=data_version(college_db),
                                          provider=provider_config(agent.llm))
        assert take_off(key)     # nobody is answering it: the next asker need not wait
        land(key)
    finally:
        GraphMemory.forget_user(college_db, user)


# --- a question that stands alone is one computation for the room --------------------------

def _strip_cache_note(answer: str) -> str:
    from course.pipeline.graph_memory import CACHE_NOTE

    note = CACHE_NOTE["en"].format(answer="")
    return answer[:-len(note)] if answer.endswith(note) else answer


@pytest.mark.parametrize("agent", ["pipeline", "tools", "agentic"])
def test_sessions_with_different_conversations_share_a_stand_alone_answer(college_db, agent,
                                                                          no_cached_answers):
    chat = web_chat(college_db, agent=agent)
    first, second = client_for(chat), client_for(chat)
    assert of(events(first, "Who is Rahul?"), "answer")       # two different conversations
    assert of(events(second, "Who is Sneha?"), "answer")
    computed, = of(events(first, "Who should I learn ML from?"), "answer")
    shared, = of(events(second, "Who should I learn ML from?"), "answer")
    assert computed["status"] == "answered" and computed["provider"] != "answer cache"
    assert (shared["provider"], shared["from_memory"], shared["llm_calls"]) == \
        ("answer cache", True, 0)
    assert _strip_cache_note(shared["answer"]) == computed["answer"]
    assert shared["rows"] == computed["rows"] and shared["rows"][0][0] == "Rahul"


@pytest.mark.parametrize("agent", ["pipeline", "tools", "agentic"])
def test_a_follow_up_still_resolves_in_its_own_conversation_and_is_not_shared(college_db, agent,
                                                                             no_cached_answers):
    chat = web_chat(college_db, agent=agent)
    rahul, sneha = client_for(chat), client_for(chat)
    assert of(events(rahul, "Who is Rahul?"), "answer")
    assert of(events(sneha, "Who is Sneha?"), "answer")
    his, = of(events(rahul, "What project does he work on?"), "answer")
    hers, = of(events(sneha, "What project does she work on?"), "answer")
    again, = of(events(sneha, "What project does he work on?"), "answer")   # Rahul's words
    assert his["status"] == hers["status"] == "answered"
    assert "Campus Chatbot" in his["answer"] and "Attendance Tracker" in hers["answer"]
    assert again["provider"] != "answer cache" and "Campus Chatbot" not in again["answer"]


def test_a_stand_alone_questions_prompt_is_the_same_after_any_conversation(college_db):
    """The Cypher prompt of a question that stands alone holds no conversation, so every session
    sends the model the same prompt (and gets the same answer); a follow-up keeps its own."""
    from course.llm.scripted import ScriptedLLM
    from course.pipeline.agent import Agent
    from course.pipeline.memory import ShortTermMemory

    class RecordingLLM(ScriptedLLM):   # a mock provider: the offline answers, prompts recorded
        def __init__(self) -> None:
            super().__init__([])
            from course.llm.offline import OfflineLLM
            self.offline = OfflineLLM()

        def complete(self, prompt: str, *, system: str | None = None):
            self.prompts.append(prompt)
            return self.offline.complete(prompt, system=system)

    question = "Who is the best person to teach me DBMS?"
    alone = Agent(college_db, RecordingLLM(), memory=ShortTermMemory())
    first = alone.answer(question)
    talked = Agent(college_db, RecordingLLM(), memory=ShortTermMemory())
    talked.answer("Who is Rahul?")
    later = talked.answer(question)
    assert later.answer == first.answer and later.rows == first.rows
    assert talked.llm.prompts[2] == alone.llm.prompts[0]          # its Cypher prompt
    assert "CONVERSATION SO FAR" not in talked.llm.prompts[2]
    follow = talked.answer("uska year kya hai?")
    assert "CONVERSATION SO FAR" in talked.llm.prompts[-2] and follow.rows[0][-1] == 2


def test_a_room_with_different_conversations_computes_a_stand_alone_question_once(college_db):
    import time

    from course.foundation.versioning import data_version
    from course.llm.base import Completion
    from course.llm.offline import OfflineLLM
    from course.pipeline.agent import Agent, provider_config
    from course.pipeline.answer_cache import AnswerCache
    from course.pipeline.graph_memory import GraphMemory
    from course.pipeline.in_flight import waiting

    question, user = "Who is the best person to teach me DBMS?", "talked-" + college_db.graph_name
    openers = ["Who is Rahul?", "Who is Sneha?", "Which club is Karan in?", "Aarav kaun hai?"]
    calls: list[str] = []
    key = AnswerCache(college_db).key(question, version=data_version(college_db),
                                      provider=provider_config(OfflineLLM()))

    class CountingLLM(OfflineLLM):   # a mock provider: the offline one, its calls for the
        def complete(self, prompt: str, *, system: str | None = None) -> Completion:
            if prompt.endswith(f"QUESTION: {question}") and not calls:   # question counted; the
                deadline = time.monotonic() + 10   # first waits until the room waits for it
                while waiting(key) < len(openers) - 1 and time.monotonic() < deadline:
                    time.sleep(0.01)
            if question in prompt:
                calls.append(prompt)
            return super().complete(prompt, system=system)

    AnswerCache(college_db).clear()
    agents = [Agent(college_db, CountingLLM(), memory=GraphMemory(
        college_db, session=f"talked-{i}", user=user, cache=AnswerCache(college_db)))
        for i in range(len(openers))]
    results: list = [None] * len(agents)

    def ask(i: int) -> None:
        agents[i].answer(openers[i])
        results[i] = agents[i].answer(question)

    try:
        at_once(ask, len(agents))
        assert len(calls) == 2                       # one query written, one answer written
        assert all(r.status == "answered" and r.rows[0][0] == "Payal" for r in results)
        assert sorted(r.provider for r in results) == ["Offline"] + ["answer cache"] * 3
        for agent in agents:                          # each session still remembers its turn
            assert [turn.question for turn in agent.memory.turns][-1] == question
    finally:
        GraphMemory.forget_user(college_db, user)
        AnswerCache(college_db).clear()


def test_an_answer_that_lands_between_the_miss_and_the_take_off_is_served(college_db, monkeypatch):
    """The cache missed, then another session stored the answer and landed before this one took
    off: this one reads the cache again rather than computing the answer a second time."""
    import course.pipeline.graph_memory as graph_memory
    from course.llm.offline import OfflineLLM
    from course.pipeline.agent import Agent
    from course.pipeline.answer_cache import AnswerCache
    from course.pipeline.graph_memory import GraphMemory

    user, question = "race-" + college_db.graph_name, "Who should I learn ML from?"
    first, late = (Agent(college_db, OfflineLLM(), memory=GraphMemory(
        college_db, session=name, user=user, cache=AnswerCache(college_db)))
        for name in ("first", "late"))
    real_take_off = graph_memory.take_off

    def take_off_after_the_first_landed(key: str) -> bool:   # a spy around the real take-off
        monkeypatch.setattr(graph_memory, "take_off", real_take_off)
        assert first.answer(question).provider != "answer cache"   # computed, stored, landed
        return real_take_off(key)

    AnswerCache(college_db).clear()
    try:
        monkeypatch.setattr(graph_memory, "take_off", take_off_after_the_first_landed)
        served = late.answer(question)
        assert (served.provider, served.llm_calls) == ("answer cache", 0)
        assert graph_memory.take_off is real_take_off
    finally:
        GraphMemory.forget_user(college_db, user)
        AnswerCache(college_db).clear()


def _check_key(db, stored):
    from course.pipeline.recheck import _as_json

    return ("still given", db.location, db.graph_name, stored["cypher"],
            _as_json(stored.get("parameters") or None), len(stored["rows"]) + 1,
            _as_json(stored["rows"]))


PAYAL_STORED = {"cypher": "MATCH (s:Student {name: $name}) RETURN s.name, s.year",
                "parameters": {"name": "Payal"}, "rows": [["Payal", 2]]}


def test_a_room_served_one_cached_answer_runs_its_check_once_per_round(college_db, monkeypatch):
    """Six sessions served the same stored answer at once: its query runs twice (the first
    asker's round, then one round for the five who came while it ran), not six times."""
    import threading
    import time

    from course.pipeline import safety
    from course.pipeline.recheck import still_given
    from course.pipeline.joined_check import waiting

    room, runs, real = 6, [], safety.run_guarded
    key = _check_key(college_db, PAYAL_STORED)

    def counted(*args, **kwargs):     # a spy around the real guarded door: its first run waits
        if not runs:                  # until the rest of the room has asked
            deadline = time.monotonic() + 10
            while waiting(key) < room - 1 and time.monotonic() < deadline:
                time.sleep(0.01)
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(safety, "run_guarded", counted)
    found: list[bool] = []
    asked = [threading.Thread(target=lambda: found.append(still_given(college_db, PAYAL_STORED)))
             for _ in range(room)]
    for one in asked:
        one.start()
        time.sleep(0.02)              # the first asker's run has begun before the others ask
    for one in asked:
        one.join(30)
    assert found == [True] * room and len(runs) == 2


def test_a_check_begun_before_a_write_is_not_handed_to_one_who_asked_after_it(college_db,
                                                                              monkeypatch):
    """The first check reads Payal's year 2, then a write around the course makes it 3; whoever
    asks after the write gets a check of its own, which the stored rows fail."""
    import threading
    import time

    from course.pipeline import safety
    from course.pipeline.recheck import still_given
    from course.pipeline.joined_check import waiting

    key, real = _check_key(college_db, PAYAL_STORED), safety.run_guarded
    first_ran, go = threading.Event(), threading.Event()

    def held(*args, **kwargs):       # a spy around the real door: the first run, once read,
        rows = real(*args, **kwargs)  # is held until the second asker has asked
        if not first_ran.is_set():
            first_ran.set()
            go.wait(10)
        return rows

    monkeypatch.setattr(safety, "run_guarded", held)
    found: dict[str, bool] = {}
    before = threading.Thread(target=lambda: found.update(before=still_given(college_db,
                                                                             PAYAL_STORED)))
    before.start()
    assert first_ran.wait(10)
    college_db.graph.query("MATCH (s:Student {name: 'Payal'}) SET s.year = 3")   # not counted
    after = threading.Thread(target=lambda: found.update(after=still_given(college_db,
                                                                           PAYAL_STORED)))
    after.start()
    deadline = time.monotonic() + 10
    while waiting(key) < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    go.set()
    before.join(30)
    after.join(30)
    assert found == {"before": True, "after": False}


def test_a_failing_check_fails_everyone_who_joined_it():
    from course.pipeline.joined_check import joined

    def broken() -> bool:
        raise ValueError("the check could not run")

    with pytest.raises(ValueError, match="could not run"):
        joined(("broken",), broken)
    assert joined(("broken",), lambda: True) is True      # the next round runs again


def test_a_rooms_shared_picture_is_written_out_once(college_db, monkeypatch):
    """Three browsers asking the same question get the same picture; its event (the graph's
    nodes, a few kilobytes of JSON, cleaned of any key) is written out once, not per answer."""
    from course.ui.web import app

    written: list[str] = []
    real = app.json_line

    def counted(event):              # a spy around the real json_line: which events it wrote
        written.append(event.get("type", "") if isinstance(event, dict) else "")
        return real(event)

    monkeypatch.setattr(app, "json_line", counted)
    chat = web_chat(college_db)
    pictures = [of(events(client_for(chat), "Who is Payal?"), "graph")[0] for _ in range(3)]
    assert pictures[0] == pictures[1] == pictures[2] and pictures[0]["lit"] == ["Payal"]
    assert written.count("graph") == 1 and written.count("answer") == 3


def test_the_stages_queued_at_once_go_out_in_one_piece(college_db):
    """Stages that queued up while the stream was not looking (a remembered answer's come
    from the worker all at once) are sent in one piece (one write to the socket), not one
    piece per stage. Here the event loop is held until the worker is done, so all have queued."""
    import asyncio
    import threading

    chat = web_chat(college_db)
    session_id, real_work = "stream-" + "a" * 16, chat.work
    held, done = threading.Event(), threading.Event()

    def spied(*args):                 # a spy around the real work: starts once the loop is
        assert held.wait(30)          # held, says when it has ended
        real_work(*args)
        done.set()

    chat.work = spied                 # type: ignore[method-assign]

    async def pieces() -> list[str]:
        stream = chat.stream(session_id, "Who is Payal?")
        first = asyncio.ensure_future(stream.__anext__())
        for _ in range(5):
            await asyncio.sleep(0)    # the stream hands the question to the worker, then waits
        held.set()
        assert done.wait(30)          # the loop is held: every stage queues up meanwhile
        return [await first] + [piece async for piece in stream]

    for _ in range(2):                # the second time, the answer comes from the memory
        held.clear()
        done.clear()
        sent = asyncio.run(pieces())
    stages = [line for piece in sent for line in piece.split("\n\n") if line.startswith("data: ")]
    assert [json.loads(s[6:])["type"] for s in stages] == ["linked", "answer", "graph"]
    assert len(sent) == 1


def test_the_names_in_a_text_are_linked_once_per_data_version(college_db, monkeypatch):
    """A room's questions and shared answers are the same texts: their names are looked up once
    per data version; a counted write (a new student) gives a new version, so a new lookup."""
    from course.pipeline import linking
    from course.pipeline.schema import introspect

    looked_up: list[int] = []
    real = linking._best_mentions

    def counted(found, words):        # a spy around the real ranking: one call per lookup
        looked_up.append(1)
        return real(found, words)

    monkeypatch.setattr(linking, "_best_mentions", counted)
    schema, text = introspect(college_db), "Who is Zoya, and who is Payal?"
    first = linking.link_entities(college_db, text, schema=schema)
    assert linking.link_entities(college_db, text, schema=schema) == first
    assert len(looked_up) == 1 and [m.value for m in first] == ["Payal"]
    college_db.query("CREATE (:Student {id: 'S06', name: 'Zoya', year: 1, branch: 'ECE'})")
    again = linking.link_entities(college_db, text, schema=introspect(college_db))
    assert len(looked_up) == 2 and [m.value for m in again] == ["Zoya", "Payal"]
