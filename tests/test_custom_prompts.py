"""The prompts and worked examples as constructor arguments: `Agent(db, llm, prompt=...,
examples=..., answer_prompt=...)`; the defaults are the texts of `course.pipeline.prompts`.

A ScriptedLLM keeps what it was sent (`systems`), so each test reads the model's own input.
"""
from __future__ import annotations

import json

import pytest

from course.agents.agentic import AgenticAgent
from course.agents.tools import ToolAgent, system_prompt
from course.llm.base import ToolCall
from course.llm.offline import OfflineLLM
from course.llm.scripted import ScriptedLLM
from course.pipeline import prompts
from course.pipeline.agent import Agent
from course.pipeline.prompts import Example

PAYAL = "MATCH (s:Student {name: 'Payal'}) RETURN s.name AS name, s.year AS year"
MINE = Example("Which students are in the Robotics Club?",
               "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN s.name")
TEMPLATE = "You write Cypher for FalkorDB, e.g. {name: 'Payal'} in a MATCH.\n{schema}\n{examples}"


def test_the_defaults_are_unchanged(college_db):
    agent = Agent(college_db, ScriptedLLM([]))
    assert agent.system_prompt == prompts.cypher_system_prompt(agent.schema.render())
    tools = ToolAgent(college_db, OfflineLLM())
    assert tools.system_prompt == system_prompt(tools.schema.render())


def test_a_custom_prompt_and_examples_reach_the_model(college_db):
    llm = ScriptedLLM([PAYAL, "Payal is in year 2."])
    agent = Agent(college_db, llm, prompt=TEMPLATE, examples=[MINE])
    agent.answer("Who is Payal?")
    sent = llm.systems[0]
    assert sent.startswith("You write Cypher for FalkorDB, e.g. {name: 'Payal'} in a MATCH.")
    assert agent.schema.render() in sent and MINE.question in sent and MINE.cypher in sent
    assert prompts.load_examples()[0].question not in sent and "RULES:" not in sent


def test_examples_as_pairs_or_a_file(college_db, tmp_path):
    pairs = Agent(college_db, ScriptedLLM([]), examples=[(MINE.question, MINE.cypher)])
    assert MINE.cypher in pairs.system_prompt
    path = tmp_path / "mine.yaml"
    path.write_text(f"- question: {MINE.question}\n  cypher: |\n    {MINE.cypher}\n")
    from_file = Agent(college_db, ScriptedLLM([]), examples=path)
    assert from_file.system_prompt == pairs.system_prompt
    none = Agent(college_db, ScriptedLLM([]), examples=[])
    assert prompts.load_examples()[0].cypher not in none.system_prompt


def test_a_custom_answer_prompt_reaches_the_answer_call(college_db):
    llm = ScriptedLLM([PAYAL, "Payal: year 2, arr!"])
    Agent(college_db, llm, answer_prompt="Answer like a pirate, from the rows alone.").answer(
        "Who is Payal?")
    assert llm.systems[1] == "Answer like a pirate, from the rows alone."


@pytest.mark.parametrize("prompt, says", [
    ("Write Cypher. {examples}", "{schema}"),
    (42, "text"),
])
def test_a_prompt_the_model_could_not_use_is_refused_with_a_sentence(college_db, prompt, says):
    with pytest.raises(ValueError, match="prompt") as caught:
        Agent(college_db, ScriptedLLM([]), prompt=prompt)
    assert says in str(caught.value)


@pytest.mark.parametrize("examples", [["just a question"], [{"question": "q"}], 7])
def test_examples_in_another_shape_are_refused_with_a_sentence(college_db, examples):
    with pytest.raises(ValueError, match="example"):
        Agent(college_db, ScriptedLLM([]), examples=examples)


def test_the_tool_agent_takes_its_prompt_and_examples(college_db):
    llm = ScriptedLLM([ToolCall("execute_cypher", {"query": PAYAL}), "Year 2."])
    template = "Answer with tools. Say {out_of_scope} when out of scope.\n{schema}\n{examples}"
    ToolAgent(college_db, llm, prompt=template, examples=[MINE]).answer("Who is Payal?")
    assert llm.systems[0].startswith("Answer with tools. Say OUT_OF_SCOPE when out of scope.")
    assert MINE.cypher in llm.systems[0]


def test_the_agentic_agents_text2cypher_takes_them(college_db):
    llm = ScriptedLLM([json.dumps({"questions": ["Who is Payal?"]}),
                       ToolCall("text2cypher", {"question": "Who is Payal?"}),
                       PAYAL, "Payal, year 2.", json.dumps({"complete": True, "missing": []})])
    AgenticAgent(college_db, llm, prompt=TEMPLATE, examples=[MINE],
                 answer_prompt="Be brief.").answer("Who is Payal?")
    assert llm.systems[2].startswith("You write Cypher for FalkorDB") and MINE.cypher in llm.systems[2]
    assert llm.systems[3] == "Be brief."
