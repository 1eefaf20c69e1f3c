"""Agentic RAG (notebook 12): the tools, the router, the query updater, the critic, the agent.

Offline the three roles are rules; with a provider they are LLM calls, tested here with a
ScriptedLLM queuing tool calls and JSON, and once through a real SDK against the loopback
server. Every case runs on the real college graph.
"""
from __future__ import annotations

import ast
import csv
import inspect
import json
import re
from pathlib import Path

import pytest

from course.agents.agentic import AgenticAgent
from course.agents.agentic_eval import MULTIPART_SET, NOTES_SET, evaluate_parts, judge, load_parts
from course.agents.agentic_roles import ChatRoles, RuleRoles
from course.agents.agentic_run import Run, SubQuestion
from course.agents.agentic_tools import AGENTIC_TOOLS, Tool, AgenticToolbox, ToolOutput, free_tool, search_notes
from course.agents.tools import ToolAgent
from course.foundation.config import PROJECT_ROOT
from course.llm.base import ToolCall
from course.llm.offline import OfflineLLM
from course.llm.offline.roles import critic as rule_critic
from course.llm.offline.roles import policy as rule_policy
from course.llm.offline.roles import router as rule_router
from course.llm.offline.roles import updater as rule_updater
from course.llm.offline.roles import words as agentic_rules
from course.llm.offline.roles.critic import RuleCritic
from course.llm.offline.roles.router import RuleRouter
from course.llm.offline.roles.updater import RuleUpdater
from course.llm.scripted import ScriptedLLM
from course.pipeline.agent import Agent
from course.pipeline.linking import link_entities
from course.pipeline.memory import ShortTermMemory
from course.pipeline.schema import introspect
from fake_llm_server import fake_server, llm_settings_cleared  # noqa: F401  (fixtures)
from test_cli_ask import ask, records

SPECS = [t.spec() for t in AGENTIC_TOOLS]


def agentic(db, **options) -> AgenticAgent:
    return AgenticAgent(db, OfflineLLM(), **options)


# --- the tools ---------------------------------------------------------------------------------


def test_every_tool_has_a_description_and_typed_arguments():
    names = [t.name for t in AGENTIC_TOOLS]
    assert len(names) == len(set(names))
    assert {"text2cypher", "search_notes", "answer_given"} <= set(names)
    for tool in AGENTIC_TOOLS:
        spec = tool.spec()
        assert len(spec.description) > 40, tool.name
        assert spec.parameters["required"] == list(spec.parameters["properties"])


def test_template_arguments_are_linked_to_graph_values(college_db):
    box = AgenticToolbox(college_db)
    out = box.run("best_in_subject", {"subject": "dbms"})
    assert out.arguments == {"subject": "DBMS"} and out.rows[:2] == [["Payal", "A+"], ["Aarav", "A"]]
    assert box.run("learning_path", {"start": "1nf", "goal": "bcnf"}).rows == [[["1NF", "2NF", "3NF", "BCNF"]]]
    assert [r[0] for r in box.run("learn_skill_from", {"skill": "ML"}).rows] == ["Rahul", "Karan"]


def test_template_arguments_are_parameters_never_text(college_db):
    before = college_db.counts()
    hostile = "DBMS'}) MATCH (n) DETACH DELETE n //"
    out = AgenticToolbox(college_db).run("best_in_subject", {"subject": hostile})
    assert out.arguments == {"subject": "DBMS"}       # linked to a value; the rest is not a value
    assert AgenticToolbox(college_db).run("club_members", {"club": "x') DETACH DELETE n"}).status == "failed"
    for tool in AGENTIC_TOOLS:
        cypher = inspect.getclosurevars(tool.run).nonlocals.get("cypher")
        if cypher is not None:   # a template: each argument is a $parameter of the query
            assert all(f"${arg}" in cypher for arg in tool.parameters["required"]), tool.name
    assert college_db.counts() == before


def test_a_bad_tool_call_is_an_output_with_an_error(college_db):
    box = AgenticToolbox(college_db)
    assert "no tool named" in box.run("drop_tables", {}).error
    assert "needs the argument" in box.run("best_in_subject", {}).error
    assert "needs the argument" in box.run("best_in_subject", {"subject": "  "}).error


def test_search_notes_joins_terms_with_or_and_a_note_must_hold_them_all(college_db):
    assert search_notes(college_db, "What is a race condition?").rows[0][0] == "N17"
    out = AgenticToolbox(college_db).run("search_notes", {"query": "What is Payal's branch?"})
    assert out.rows == [] and not out.found     # N14 says "branch", not "Payal"


def test_a_search_can_be_swapped_for_another(college_db):
    from course.foundation.db import Rows

    def fake(db, query):   # a stand-in search, named as one
        return Rows(["note", "concept", "score", "text"], [["N99", "Testing", 1.0, "A race is on."]])

    out = AgenticToolbox(college_db, search=fake).run("search_notes", {"query": "race"})
    assert out.rows[0][0] == "N99"


def test_a_tool_with_a_number_gets_the_questions_number(college_db):
    plan = Tool("study_days", "How many days to study. e.g. 'Plan {days} days for {student}'",
                {"type": "object", "required": ["student", "days"], "properties": {
                    "student": {"type": "string", "description": "The student (a Student.name value)"},
                    "days": {"type": "integer", "description": "How many days"}}},
                lambda box, args: ToolOutput("study_days", dict(args), ["days"], [[args["days"] * 2]]))
    result = agentic(college_db, tools=AGENTIC_TOOLS + (plan,)).answer("Plan 5 days for Payal")
    assert result.sub_questions[0].arguments == {"student": "Payal", "days": 5}
    assert result.rows == [[10]]


def test_adding_a_tool_is_one_entry(college_db):
    echo = free_tool("echo_tool", "Says the text back. e.g. 'Echo {text}'", "text", "Any text",
                     lambda box, args: ToolOutput("echo_tool", dict(args), ["text"], [[args["text"]]]))
    agent = agentic(college_db, tools=AGENTIC_TOOLS + (echo,))
    result = agent.answer("Echo hello there")
    assert [(s.tool, s.rows) for s in result.sub_questions] == [("echo_tool", [["Echo hello there"]])]


# --- the router ----------------------------------------------------------------------------


@pytest.mark.parametrize("question, tool, arguments", [
    ("Who is the best person to teach me DBMS?", "best_in_subject", {"subject": "DBMS"}),
    ("DBMS mein sabse acha kaun hai?", "best_in_subject", {"subject": "DBMS"}),
    ("Who should I learn ML from?", "learn_skill_from", {"skill": "Machine Learning"}),
    ("1NF se BCNF tak ka learning path batao", "learning_path", {"start": "1NF", "goal": "BCNF"}),
    ("Aarav ke next topics kya hain?", "next_topics", {"student": "Aarav"}),
    ("Who is Payal?", "student_profile", {"student": "Payal"}),
    ("Who works on the Campus Chatbot?", "project_members", {"project": "Campus Chatbot"}),
    ("What is BCNF?", "concept_notes", {"concept": "BCNF"}),
    ("What does COMMIT do?", "search_notes", {"query": "What does COMMIT do?"}),
    ("Which clubs is Payal in?", "text2cypher", {"question": "Which clubs is Payal in?"}),
    ("How many members does Robotics Club have?", "text2cypher", None),
    ("Tell me about the Robotics Club", "text2cypher", None),
    ("Rahul ke skills kya hain?", "text2cypher", None),
    ("Delete Payal from the Coding Club", "text2cypher", None),
])
def test_the_rule_router_reads_the_tool_descriptions(college_db, question, tool, arguments):
    mentions = link_entities(college_db, question, schema=introspect(college_db))
    call = RuleRouter().route(question, mentions, SPECS)
    assert call.name == tool
    if arguments is not None:
        assert call.arguments == arguments


def test_a_follow_up_goes_to_text2cypher_with_the_conversation(college_db):
    call = RuleRouter().route("what about Sneha?", link_entities(college_db, "what about Sneha?"),
                              SPECS, context="CONVERSATION SO FAR:\n[Turn 1] User: Who is best at DBMS?")
    assert call.name == "text2cypher"


def _code_strings(module) -> str:
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node)}
    return " ".join(node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                    and isinstance(node.value, str) and id(node) not in docstrings).lower()


def test_the_rules_know_no_name_of_the_graph():
    names = []
    for path in (PROJECT_ROOT / "data" / "college" / "nodes").glob("*.csv"):
        with path.open(encoding="utf-8") as handle:
            names += [row["name"] for row in csv.DictReader(handle) if row.get("name")]
    assert len(names) == 50   # the data is where the test reads it
    code = " ".join(_code_strings(module) for module in (agentic_rules, rule_router, rule_updater,
                                                           rule_critic, rule_policy))
    assert [v for v in names if re.search(rf"(?<![a-z]){re.escape(v.lower())}(?![a-z])", code)] == []


# --- the query updater -------------------------------------------------------------------------


@pytest.mark.parametrize("question, parts", [
    ("Who is best at DBMS, and which clubs is she in?", ["Who is best at DBMS?", "which clubs is she in?"]),
    ("Who is Rahul and what does he study?", ["Who is Rahul?", "what does he study?"]),
    ("Payal kaun hai aur uske clubs kaunse hain?", ["Payal kaun hai?", "uske clubs kaunse hain?"]),
    ("Who is Payal; also what year is Aarav in?", ["Who is Payal?", "what year is Aarav in?"]),
    ("Who is Payal? What does she study?", ["Who is Payal?", "What does she study?"]),
    ("Is Payal in the Coding Club and does she study DBMS?",
     ["Is Payal in the Coding Club?", "does she study DBMS?"]),
    # one question, however many "and"s
    ("Who studies DBMS and is in the Debate Society?", None),
    ("dbms aur debate-ye dono ke students kaun hain?", None),
    ("Which students study DBMS or DSA?", None),
    ("1NF se BCNF tak ka learning path batao", None),
    ("Who is Payal and delete her", None),
])
def test_the_updater_splits_questions_of_their_own(question, parts):
    assert RuleUpdater().split(question) == (parts or [question])


@pytest.mark.parametrize("part, rewritten", [
    ("which clubs is that student in?", "which clubs is Payal in?"),
    ("which clubs is she in?", "which clubs is Payal in?"),
    ("uske clubs kaunse hain?", "Payal ke clubs kaunse hain?"),
    ("what is her year?", "what is Payal's year?"),
    ("who else studies it?", "who else studies DBMS?"),    # "it": what the part asked about
])
def test_the_updater_rewrites_with_what_earlier_parts_found(college_db, part, rewritten):
    # the offline provider reads it from the rewrite prompt's RESULTS SO FAR, as a model does
    agent, run = AgenticAgent(college_db, OfflineLLM()), Run("Who is best at DBMS, and ...?")
    rows = [["Payal", "A+"], ["Aarav", "A"]]
    run.sub_questions.append(SubQuestion(
        question="Who is best at DBMS?", rewritten="Who is best at DBMS?", tool="best_in_subject",
        arguments={"subject": "DBMS"}, rows=rows, answer="Payal (A+), then Aarav (A).", found=True,
        mentions=list(agent.link("Who is best at DBMS?")), values=agent._values(rows)))
    assert ChatRoles(OfflineLLM()).rewrite(part, agent.link(part), run, "")[0] == rewritten


# --- the agent, offline --------------------------------------------------------------------


@pytest.mark.parametrize("question, tools, values", [
    ("Who is best at DBMS and which clubs is she in?", ["best_in_subject", "text2cypher"],
     ["Payal", "Debate Society", "Coding Club"]),
    ("Who is Rahul and what does he study?", ["student_profile", "text2cypher"],
     ["Rahul", "Computer Networks", "DSA"]),
])
def test_the_issues_multi_part_questions_are_answered_in_full(college_db, question, tools, values):
    result = agentic(college_db).answer(question)
    assert result.status == "answered" and [s.tool for s in result.sub_questions] == tools
    assert all(v in result.answer for v in values)
    assert result.critic[0].complete


@pytest.mark.slow   # a whole question set
def test_every_multi_part_question_of_the_set_is_answered_in_full(college_db):
    questions = load_parts(MULTIPART_SET)
    report = evaluate_parts(college_db, lambda db, schema: agentic(db, schema=schema), questions,
                            agent="agentic")
    assert report.counts()["full"] == len(questions) == 22


@pytest.mark.slow   # a whole question set
def test_the_pipeline_answers_at_most_part_of_them(college_db):
    report = evaluate_parts(college_db, lambda db, schema: Agent(db, OfflineLLM(), schema=schema),
                            load_parts(MULTIPART_SET), agent="pipeline")
    assert report.counts()["full"] == 0


@pytest.mark.parametrize("question, note", [("What is a race condition?", "N17"),
                                            ("What does COMMIT do?", "N08"),
                                            ("What is thrashing?", "N20")])
def test_a_question_answered_from_a_notes_text_names_the_note(college_db, question, note):
    result = agentic(college_db).answer(question)
    assert result.status == "answered" and result.rows[0][0] == note
    assert f"note {note}" in result.answer


@pytest.mark.slow   # a whole question set
def test_most_note_questions_are_answered_from_the_right_note(college_db):
    report = evaluate_parts(college_db, lambda db, schema: agentic(db, schema=schema),
                            load_parts(NOTES_SET), agent="agentic")
    assert report.counts()["full"] >= 27 and report.counts()["wrong"] == 0
    assert report.row()["full_and_note_named"] == report.counts()["full"]


def test_two_questions_in_a_row_share_no_answers(college_db):
    agent = agentic(college_db)
    first = agent.answer("Who is best at DBMS and which clubs is she in?")
    parts = list(first.sub_questions)
    second = agent.answer("Who should I learn ML from?")
    assert [s.question for s in second.sub_questions] == ["Who should I learn ML from?"]
    assert first.sub_questions == parts and len(second.critic) == 1
    assert "Payal" not in second.answer
    # and no method keeps state in a default argument (the book's `answers=[]`)
    for cls in (AgenticAgent, RuleRoles, ChatRoles, RuleRouter, RuleUpdater, RuleCritic, AgenticToolbox):
        for _, method in inspect.getmembers(cls, inspect.isfunction):
            for parameter in inspect.signature(method).parameters.values():
                assert not isinstance(parameter.default, (list, dict, set)), (cls, method)


def test_a_follow_up_to_a_multi_part_answer_resolves_her(college_db):
    agent = agentic(college_db, memory=ShortTermMemory())
    agent.answer("Who is best at DBMS, and which clubs is she in?")
    follow_up = agent.answer("What year is she in?")
    assert follow_up.status == "answered" and 2 in follow_up.values() and "Payal" in follow_up.answer


def test_the_critic_asks_for_the_missing_part(college_db):
    result = agentic(college_db).answer("Who is the best at DBMS and DSA?")
    assert [(c.round, c.complete, c.missing) for c in result.critic] == [
        (1, False, ["Who is the best at DSA?"]), (2, True, [])]
    assert [s.arguments for s in result.sub_questions] == [{"subject": "DBMS"}, {"subject": "DSA"}]
    without = agentic(college_db, critic=False).answer("Who is the best at DBMS and DSA?")
    question = next(q for q in load_parts(MULTIPART_SET) if q.question == "Who is the best at DBMS and DSA?")
    assert judge(college_db, question, result).verdict == "full"
    assert judge(college_db, question, without).verdict == "half" and without.critic == []


def test_the_answer_says_which_part_could_not_be_answered(college_db):
    result = agentic(college_db).answer("Who is best at DBMS, and what is the capital of France?")
    assert result.status == "answered" and "Payal" in result.answer
    assert "I could not answer this part: what is the capital of France?" in result.answer
    assert len(result.critic) <= 2


def test_a_request_to_change_the_data_is_refused_whole(college_db):
    before = college_db.counts()
    for question in ("Who is Payal and delete her", "Who is Payal? Also remove Aarav from the Coding Club."):
        result = agentic(college_db).answer(question)
        assert result.status == "blocked", question
    assert college_db.counts() == before


def test_the_critic_has_at_most_two_rounds(college_db):
    critic_always_missing = json.dumps({"complete": False, "missing": ["Who is Payal?"]})
    llm = ScriptedLLM([json.dumps({"questions": ["Who is Payal?"]}),
                       ToolCall("student_profile", {"student": "Payal"}), "Payal is in year 2.",
                       critic_always_missing,
                       ToolCall("student_profile", {"student": "Payal"}), "Payal is in year 2.",
                       critic_always_missing,
                       ToolCall("student_profile", {"student": "Payal"}), "Payal is in year 2."])
    result = AgenticAgent(college_db, llm).answer("Who is Payal?")
    assert [c.round for c in result.critic] == [1, 2] and result.status == "answered"


# --- with a model: the roles as LLM calls --------------------------------------------------------


def test_with_a_model_each_role_is_a_call(college_db):
    llm = ScriptedLLM([
        json.dumps({"questions": ["Who is best at DBMS?", "Which clubs is she in?"]}),
        ToolCall("best_in_subject", {"subject": "dbms"}),
        "Payal (A+), then Aarav (A).",
        '```json\n{"question": "Which clubs is Payal in?"}\n```',
        ToolCall("text2cypher", {"question": "Which clubs is Payal in?"}),
        "MATCH (s:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) RETURN c.name AS club",
        "Coding Club and Debate Society.",
        json.dumps({"complete": True, "missing": []}),
    ])
    result = AgenticAgent(college_db, llm).answer("Who is best at DBMS, and which clubs is she in?")
    assert [(s.rewritten, s.tool) for s in result.sub_questions] == [
        ("Who is best at DBMS?", "best_in_subject"), ("Which clubs is Payal in?", "text2cypher")]
    assert sorted(map(tuple, result.sub_questions[1].rows)) == [("Coding Club",), ("Debate Society",)]
    assert result.llm_calls == 8 and llm.remaining == 0
    routed = [tools for tools in llm.tool_lists if tools]
    assert routed[0] == [t.name for t in AGENTIC_TOOLS]            # the router saw the whole table
    assert "LINKED VALUES" in llm.histories[1][0].content  # and the linked values


def test_a_reply_that_is_not_json_is_decided_by_the_rules(college_db):
    llm = ScriptedLLM(["Sure! Here are the parts: one, two.",
                       ToolCall("student_profile", {"student": "Rahul"}), "Rahul is in year 3.",
                       "I think it is complete."])
    result = AgenticAgent(college_db, llm).answer("Who is Rahul?")
    assert result.status == "answered" and result.critic[0].complete
    assert result.sub_questions[0].tool == "student_profile"


def test_a_model_that_calls_no_tool_gets_text2cypher(college_db):
    llm = ScriptedLLM([json.dumps({"questions": ["Who is Payal?"]}), "Payal is a student.",
                       "MATCH (s:Student {name: 'Payal'}) RETURN s.name, s.year", "Payal, year 2.",
                       json.dumps({"complete": True, "missing": []})])
    result = AgenticAgent(college_db, llm).answer("Who is Payal?")
    assert result.sub_questions[0].tool == "text2cypher" and result.rows == [["Payal", 2]]


def test_the_roles_through_a_real_sdk(fake_server, college_db):
    from course.llm import GroqLLM
    from fake_llm_server import chat_answer, chat_tool_calls  # noqa: F811

    fake_server.script("groq",
                       chat_answer(json.dumps({"questions": ["Who should I learn ML from?"]})),
                       chat_tool_calls(("learn_skill_from", {"skill": "ml"})),
                       chat_answer("Rahul (Advanced), then Karan (Intermediate)."),
                       chat_answer(json.dumps({"complete": True, "missing": []})))
    result = AgenticAgent(college_db, GroqLLM()).answer("Who should I learn ML from?")
    assert result.rows == [["Rahul", "Advanced"], ["Karan", "Intermediate"]]
    assert result.sub_questions[0].arguments == {"skill": "Machine Learning"}
    sent = fake_server.calls("groq")
    assert [t["function"]["name"] for t in sent[1].body["tools"]] == [t.name for t in AGENTIC_TOOLS]
    assert "tools" not in sent[0].body and result.input_tokens > 0


# --- the command line -----------------------------------------------------------------------------


@pytest.mark.slow
def test_ask_agent_agentic_json(college_db):
    done = ask(college_db, "--agent", "agentic", "--json",
               "Who is best at DBMS, and which clubs is she in?", "What year is she in?")
    first, second = records(done)
    assert done.returncode == 0 and first["agent"] == "agentic"
    for key in ("steps", "tool_calls", "stopped", "input_tokens", "output_tokens", "cost_usd"):
        assert key in first
    assert [set(s) for s in first["sub_questions"]] == [
        {"question", "rewritten", "tool", "arguments", "rows", "answer", "source"}] * 2
    assert first["sub_questions"][1]["rewritten"] == "which clubs is Payal in?"
    assert first["critic"] == [{"round": 1, "complete": True, "missing": []}]
    assert second["status"] == "answered" and 2 in [v for r in second["rows"] for v in r]


# --- faults --------------------------------------------------------------------------------------


def test_a_provider_that_fails_gives_a_sentence_not_a_traceback(college_db):
    from course.llm.errors import RateLimited

    result = AgenticAgent(college_db, ScriptedLLM([RateLimited(retry_after=30)])).answer("Who is Payal?")
    assert result.status == "failed" and "rate limit" in result.answer and "try again" in result.answer


def test_answer_given_with_nothing_found_is_not_an_answer(college_db):
    llm = ScriptedLLM([json.dumps({"questions": ["Who is Payal?"]}),
                       ToolCall("answer_given", {"answer": "Payal is the principal."}),
                       json.dumps({"complete": True, "missing": []})])
    result = AgenticAgent(college_db, llm).answer("Who is Payal?")
    assert result.status == "failed" and "principal" not in result.answer


def test_a_tool_the_table_does_not_have_is_tried_no_further(college_db):
    llm = ScriptedLLM([json.dumps({"questions": ["Who is Payal?"]}),
                       ToolCall("drop_everything", {}),
                       json.dumps({"complete": False, "missing": ["Who is Payal?"]}),
                       ToolCall("student_profile", {"student": "Payal"}), "Payal, year 2, CSE.",
                       json.dumps({"complete": True, "missing": []})])
    result = AgenticAgent(college_db, llm).answer("Who is Payal?")
    assert [s.tool for s in result.sub_questions] == ["drop_everything", "student_profile"]
    assert "drop_everything" not in llm.tool_lists[-2] and result.status == "answered"


def test_a_question_in_many_parts_answers_five_and_says_so(college_db):
    names = ["Aarav", "Payal", "Rahul", "Sneha", "Karan", "Aarav"]
    question = "? ".join(f"What year is {n} in" for n in names) + "?"
    result = agentic(college_db).answer(question)
    assert len(result.sub_questions) == 6 and result.sub_questions[-1].tool == ""
    assert "Only the first 5 parts" in result.answer


def test_a_question_about_friends_is_never_answered_with_the_persons_own_rows(college_db):
    result = agentic(college_db).answer("Which subjects do Aarav's friends study?")
    assert result.status == "out_of_scope" or set(result.values()) == {"DBMS", "DSA"}, \
        (result.cypher, result.answer)


@pytest.mark.parametrize("question, template", [
    ("What are the next topics for Aarav's friends?", "next_topics"),
    ("Who are the friends of the members of the Robotics Club?", "club_members"),
])
def test_the_router_never_picks_a_template_that_drops_a_step_of_the_chain(college_db, question,
                                                                          template):
    call = RuleRouter().route(question, link_entities(college_db, question), [t.spec() for t in AGENTIC_TOOLS])
    assert call.name != template


def test_the_router_still_picks_a_template_that_follows_the_chain(college_db):
    question = "Who are the members of the Robotics Club?"
    call = RuleRouter().route(question, link_entities(college_db, question), [t.spec() for t in AGENTIC_TOOLS])
    assert call.name == "club_members"


# --- the judge -----------------------------------------------------------------------------------


GRADE = ("MATCH (s:Student {name: 'Payal'})-[r:STUDIES]->(sub:Subject {name: 'DBMS'}) "
         "RETURN sub.name, r.grade")


def test_a_column_that_repeats_a_value_the_reference_pins_is_not_asked_of_the_answer(college_db):
    from course.agents.agentic_eval import Part, part_right

    grade = college_db.run(GRADE).rows[0][1]
    assert part_right(college_db, Part("What grade did Payal get in DBMS?", GRADE), [[[grade]]])
    assert part_right(college_db, Part("What grade did Payal get in DBMS?", GRADE), [[["DBMS", grade]]])
    assert not part_right(college_db, Part("What grade did Payal get in DBMS?", GRADE), [[["DBMS"]]])
    wrong = "A" if grade != "A" else "B"
    assert not part_right(college_db, Part("What grade did Payal get in DBMS?", GRADE), [[[wrong]]])


def test_a_value_the_reference_chooses_among_given_names_is_still_asked(college_db):
    from course.agents.agentic_eval import Part, part_right

    older = ("MATCH (s:Student) WHERE s.name IN ['Rahul', 'Karan'] "
             "RETURN s.name, s.year ORDER BY s.year DESC, s.name LIMIT 1")
    name, year = college_db.run(older).rows[0]
    assert part_right(college_db, Part("Who is older, Rahul or Karan?", older), [[[name, year]]])
    assert not part_right(college_db, Part("Who is older, Rahul or Karan?", older), [[[year]]])


def test_a_reference_whose_every_column_is_pinned_keeps_them(college_db):
    from course.agents.agentic_eval import Part, part_right

    pinned = "MATCH (s:Student {name: 'Payal'})-[:STUDIES]->(sub:Subject {name: 'DBMS'}) RETURN sub.name"
    assert part_right(college_db, Part("Does Payal study DBMS?", pinned), [[["DBMS"]]])
    assert not part_right(college_db, Part("Does Payal study DBMS?", pinned), [[]])
