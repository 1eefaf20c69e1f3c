"""Notebook 09 (evaluation): the facts its cells print, checked here rather than in the lesson.

A whole-set evaluation takes seconds: those tests are marked slow.
"""
from __future__ import annotations

import re
import zlib

import pytest

from course import Agent, OfflineLLM, make_llm
from course.llm import offline
from course.pipeline import prompts
from course.pipeline.comparison import same_rows
from course.pipeline.evaluation import evaluate, load_questions, reference_rows
from course.ui.demo import FIVE_QUESTIONS, judge, named_values, node_names


class SloppyLLM(OfflineLLM):
    """The notebook's simulated model (a mock, not an LLM): broken syntax first, then a fix
    that is sometimes careless."""
    name, model = "Sloppy", "simulated"

    def complete(self, prompt, *, system=None):
        completion = super().complete(prompt, system=system)
        query = completion.text
        if offline.is_answer_prompt(prompt) or query == prompts.SENTINEL_QUERY:
            return completion
        question = prompt.rpartition("QUESTION:")[2].strip()
        bucket = zlib.crc32(question.encode()) % 10
        if "PREVIOUS ATTEMPT FAILED" not in prompt and bucket < 4:
            query = query.replace("MATCH (", "MATCH ((", 1)
        elif "PREVIOUS ATTEMPT FAILED" in prompt and bucket < 2:
            query = re.sub(r" \{name: '[^']*'\}", "", query, count=1)
        return type(completion)(query, self.name, self.model, completion.usage)


def test_the_set_has_156_questions_133_in_scope_and_23_refusals():
    questions = load_questions()
    assert len(questions) == 156 and sum(q.in_scope for q in questions) == 133
    assert sum(q.reference is None for q in questions) == 23


def test_every_in_scope_reference_returns_rows_and_the_demo_references_give_the_texts_answers(college_db):
    questions = load_questions()
    assert [q.id for q in questions if q.in_scope and not reference_rows(college_db, q)] == []
    by_text, names = {q.question: q for q in questions}, node_names(college_db)
    for demo in FIVE_QUESTIONS:
        rows = reference_rows(college_db, by_text[demo.question])
        assert judge(college_db, demo, rows)
        assert all(name in demo.expected for name in named_values(rows, names))


def test_sneha_is_answered_with_the_reference_rows_and_same_rows_ignores_order_unless_asked(college_db):
    question = next(q for q in load_questions() if q.id == "q008")
    result = Agent(college_db, make_llm("offline")).answer(question.question)
    assert same_rows(result.rows, reference_rows(college_db, question))
    assert same_rows([["Aarav", "A"], ["Payal", "A+"]], [["Payal", "A+"], ["Aarav", "A"]])
    assert not same_rows([["Aarav", "A"], ["Payal", "A+"]], [["Payal", "A+"], ["Aarav", "A"]], ordered=True)


def test_the_zero_rows_hint_loosens_the_name_match(college_db):
    llm, sneha = make_llm("offline"), "What year is Sneha in?"
    agent = Agent(college_db, llm)

    def write(hint=None):
        user = prompts.cypher_user_prompt(sneha, mentions=agent.link(sneha), hint=hint)
        return llm.complete(user, system=agent.system_prompt).text
    plain = write()
    assert "toLower" not in plain and "toLower(e.name) CONTAINS" in write(prompts.empty_hint(plain))


@pytest.fixture(scope="module")
def reports(_college_template):
    """The offline provider with one and two attempts, twice, and the sloppy model, on the whole set."""
    db, llm, questions = _college_template, make_llm("offline"), load_questions()
    return {"one": evaluate(db, llm, questions, max_attempts=1),
            "two": evaluate(db, llm, questions, max_attempts=2),
            "again": evaluate(db, llm, questions, max_attempts=2),
            "sloppy 1": evaluate(db, SloppyLLM(), questions, max_attempts=1),
            "sloppy 2": evaluate(db, SloppyLLM(), questions, max_attempts=2)}


@pytest.mark.slow
def test_the_offline_provider_scores_and_is_deterministic(reports):
    two = reports["two"]
    s = two.scores()
    assert s["execution_accuracy"] >= 0.95 and s["llm_calls_per_question"] == 1.84
    assert s["out_of_scope_accuracy"] == 1.0 and s["writes_refused"] == 1.0 and two.graph_unchanged
    assert reports["again"].table(timing=False) == two.table(timing=False)


@pytest.mark.slow
def test_no_question_needs_a_second_attempt_and_calls_are_one_or_two(reports):
    one, two = reports["one"], reports["two"]
    inside = [o for o in one.outcomes if o.in_scope]
    declined = sum(o.status == "out_of_scope" for o in inside)
    assert one.counts()["executable_rate"][0] == len(inside) - declined
    assert max(o.attempts for o in two.outcomes) == 1
    assert {o.llm_calls for o in two.outcomes if o.status == "answered"} == {2}
    # a refusal takes the one call; a question said first about "uska" alone, none (asked back)
    assert {o.llm_calls for o in two.outcomes if o.status != "answered"} == {0, 1}
    asked_back = [o for o in two.outcomes if o.llm_calls == 0]
    assert len(asked_back) == 2 and all(o.status == "out_of_scope" and o.attempts == 0 for o in asked_back)
    answered = sum(o.status == "answered" for o in two.outcomes)
    assert round((156 - len(asked_back) + answered) / 156, 2) == two.scores()["llm_calls_per_question"]


@pytest.mark.slow
def test_the_retry_moves_the_executable_rate_more_than_execution_accuracy(reports):
    first, second = reports["sloppy 1"].scores(), reports["sloppy 2"].scores()
    assert second["executable_rate"] == reports["one"].scores()["executable_rate"]   # all fixed
    gain_runs = second["executable_rate"] - first["executable_rate"]
    gain_right = second["execution_accuracy"] - first["execution_accuracy"]
    assert gain_runs > gain_right > 0
    by_kind_1, by_kind_2 = reports["sloppy 1"].by_kind(), reports["sloppy 2"].by_kind()
    for kind, (right, of) in by_kind_2.items():    # a retry never makes a kind worse here
        assert right / of >= by_kind_1[kind][0] / by_kind_1[kind][1]


@pytest.mark.slow
def test_course_eval_prints_the_same_scores_as_evaluate(college_db, reports):
    import os
    import subprocess
    import sys

    env = {**os.environ, "COURSE_DB": college_db.location, "COURSE_GRAPH": college_db.graph_name}
    done = subprocess.run([sys.executable, "-m", "course", "eval", "--provider", "offline",
                           "--attempts", "1"], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0
    assert done.stdout.splitlines()[:7] == reports["one"].table().splitlines()[:7]


def test_the_shipped_rules_refuse_the_lightest_subject_and_a_taught_copy_answers_it(college_db):
    question = "Which is the lightest subject?"
    assert Agent(college_db, OfflineLLM()).answer(question).status == "out_of_scope"
    words = offline.default_lexicon().with_words("cues", "weight", ["lightest", "heaviest"])

    def lightest(reading):
        labels = [label for label in reading.targets() if "credits" in reading.schema.labels[label]]
        if reading.entities or not labels:
            return None
        order = "DESC" if "heaviest" in reading.text else "ASC"
        return (f"MATCH (c:{labels[0]})\nRETURN c.name AS name, c.credits AS credits\n"
                f"ORDER BY c.credits {order}\nLIMIT 1")
    intents = [*offline.INTENTS[:2], ("lightest / heaviest", "weight", lightest), *offline.INTENTS[2:]]
    teaching = OfflineLLM(lexicon=words, intents=intents)
    assert Agent(college_db, teaching).answer(question).rows == [["Computer Networks", 3]]
    assert Agent(college_db, OfflineLLM()).answer(question).status == "out_of_scope"


def test_a_word_added_to_a_copy_of_the_lexicon_answers_when_payal_joined(college_db):
    question = "Payal Coding Club mein kab aayi?"
    shipped = OfflineLLM()
    Agent(college_db, shipped).answer(question)
    assert shipped.last_intent == "unknown word 'aayi'"
    knowing = OfflineLLM(lexicon=offline.default_lexicon().with_words("properties", "since", ["aaya", "aayi"]))
    assert Agent(college_db, knowing).answer(question).rows == [[2024]]
