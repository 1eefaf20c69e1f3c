"""Notebook 13 (vector vs graph): the facts its cells print, checked here rather than in the lesson."""
from __future__ import annotations

from typing import Callable

import numpy as np
import pytest

from course import Agent, make_llm
from course.agents.agentic import AgenticAgent
from course.foundation.dataset import load_college
from course.retrieval.embeddings import HashedBagOfWords, make_embedder
from course.retrieval.search_eval import load_search_questions, score_search
from course.retrieval.search import (Hit, agent_search, fulltext_search, parent_search,
                                     reciprocal_rank_fusion, search, vector_search)
from course.retrieval.step_back import search_with_step_back
from course.retrieval.text_layer import build_text_layer

TEXTS = ["A deadlock needs circular wait.",
         "Circular wait is needed for a deadlock.",
         "Processes stuck forever, each holding what another one wants."]


@pytest.mark.parametrize("name", ["wordllama", "minilm"])
def test_a_paraphrase_shares_no_word_and_a_learned_model_still_brings_it_closer(name):
    bow = HashedBagOfWords().embed(TEXTS)
    assert float(bow[0] @ bow[2]) == 0.0 < float(bow[0] @ bow[1])
    model = make_embedder(name)
    learned = model.embed(TEXTS)
    unrelated = model.embed(["HTTP is the protocol browsers use to talk to web servers."])[0]
    assert float(learned[0] @ learned[2]) > float(learned[0] @ unrelated)
    assert float(learned[0] @ learned[2]) > float(bow[0] @ bow[2])


def test_minilm_brings_the_paraphrase_closer_than_wordllama():
    closeness = {name: float(v[0] @ v[2]) for name in ("wordllama", "minilm")
                 for v in [make_embedder(name).embed(TEXTS)]}
    assert closeness["minilm"] > closeness["wordllama"]


def test_the_indexs_closest_chunk_is_numpys_closest_and_from_the_threads_note(college_db):
    model = make_embedder()   # the graph's own: the default
    q = [float(x) for x in model.embed(["Why do two threads writing one counter need a mutex?"])[0]]
    raw = college_db.run("CALL db.idx.vector.queryNodes('Chunk', 'embedding', 74, vecf32($q)) "
                         "YIELD node, score MATCH (node)-[:PART_OF]->(n:Note) "
                         "RETURN n.id, node.text, score ORDER BY score", {"q": q}).rows
    exact = model.embed([r[1] for r in raw]) @ np.array(q)
    assert raw[int(np.argmax(exact))][1] == raw[0][1] and raw[0][0] == "N17"


@pytest.mark.slow   # half a second or more
def test_the_cypher_agent_answers_at_most_two_note_questions_and_search_finds_25(college_db):
    agent = Agent(college_db, make_llm("offline"))
    questions = load_search_questions()
    answered = [q for q in questions if agent.answer(q.question).status == "answered"]
    found = [q for q in questions if set(q.notes) & {h.note for h in search(college_db, q.question, k=3)}]
    assert len(answered) <= 2 and len(found) >= 25


def test_vector_search_repeats_the_threads_note_and_parent_search_returns_four_notes(college_db):
    question, model = "How do threads differ from processes?", make_embedder()
    chunks = [h.note for h in vector_search(college_db, question, k=4, embedder=model)]
    parents = [h.note for h in parent_search(college_db, question, k=4, embedder=model)]
    assert chunks.count("N17") == 3 and "N16" in chunks
    assert len(set(parents)) == len(parents) == 4 and parents[:2] == ["N17", "N16"]


def test_a_whole_question_finds_nothing_in_full_text_and_hybrid_finds_the_http_note(college_db):
    whole = college_db.run("CALL db.idx.fulltext.queryNodes('Chunk', $q) YIELD node RETURN count(node)",
                           {"q": "What does a 404 status code mean"}).rows[0][0]
    assert whole == 0
    assert "N22" in [h.note for h in fulltext_search(college_db, "What does a 404 status code mean?", k=3)]
    assert search(college_db, "What does a 404 status code mean?", mode="hybrid", k=1)[0].note == "N22"


def test_fused_by_rank_hybrid_ranks_below_parent_and_the_courses_hybrid_above_it(college_db):
    """The summary's "measure before believing": reciprocal-rank fusion loses to plain parent."""
    model, questions = make_embedder(), load_search_questions()

    def mrr(ranked: Callable[[str], list[Hit]]) -> float:
        total = 0.0
        for q in questions:
            notes = list(dict.fromkeys(h.note for h in ranked(q.question)))
            total += next((1 / rank for rank, n in enumerate(notes, 1) if n in q.notes), 0.0)
        return total / len(questions)

    parent = mrr(lambda text: parent_search(college_db, text, k=3, embedder=model))
    fused = mrr(lambda text: reciprocal_rank_fusion(
        parent_search(college_db, text, k=12, embedder=model),
        fulltext_search(college_db, text, k=12), k=3))
    hybrid = mrr(lambda text: search(college_db, text, mode="hybrid", k=3))
    assert fused < parent < hybrid


def test_step_back_adds_the_virtual_memory_note_hybrid_missed(college_db):
    narrow = "Why is a TLB miss slow?"
    _, hits = search_with_step_back(college_db, narrow, k=3)
    assert "N20" not in [h.note for h in search(college_db, narrow, k=3)]
    assert "N20" in [h.note for h in hits]


def test_graph_search_adds_a_prerequisites_note(college_db):
    question = "When must the left side of every functional dependency be a superkey?"
    vias = {h.via for h in search(college_db, question, mode="graph", k=2)}
    assert any(v.startswith("prerequisite of") for v in vias)


@pytest.fixture(scope="module")
def scores(_shared_server):
    """The notebook's table: recall and MRR per embedder and mode, each embedder on its own graph."""
    questions, table = load_search_questions(), {}
    for name in ("bow", "wordllama", "minilm"):
        graph = _shared_server.select(f"nb13_test_{name}")
        load_college(graph, reset_first=True)
        build_text_layer(graph, make_embedder(name))
        for mode in ("vector", "parent", "fulltext", "hybrid"):
            table[name, mode] = score_search(graph, questions, mode=mode)
        graph.graph.delete()
    return table


@pytest.mark.parametrize("embedder", ["bow", "wordllama", "minilm"])
def test_the_tables_claims_hold_for_each_embedder(scores, embedder):
    mine = {mode: scores[embedder, mode] for mode in ("vector", "parent", "fulltext", "hybrid")}
    assert mine["fulltext"]["mrr"] == min(s["mrr"] for s in mine.values())       # full-text weakest
    assert mine["vector"]["recall@1"] == mine["parent"]["recall@1"]            # same first notes
    assert mine["hybrid"]["mrr"] == max(s["mrr"] for s in mine.values())       # hybrid the best


def test_the_bag_of_words_does_well_on_this_set(scores):
    assert scores["bow", "parent"]["recall@3"] >= 0.9


def test_the_agentic_agent_answers_from_the_note_and_refuses_what_no_note_holds(college_db):
    both = AgenticAgent(college_db, make_llm("offline"), search=agent_search(college_db))
    assert both.answer("What is a race condition?").answer.endswith("(note N17, on Threads)")
    assert both.answer("What is Payal's favourite colour?").status != "answered"


def test_both_in_one_agent_the_graph_answers_payal_and_a_note_answers_race_conditions(college_db):
    """The notebook's `answer_both`: Cypher first, else the best note (hybrid), naming it."""
    assert Agent(college_db, make_llm("offline")).answer(
        "Who studies the same subjects as Payal?").status == "answered"
    hit = search(college_db, "What is a race condition?", k=1)[0]
    assert (hit.note, hit.concept) == ("N17", "Threads") and "race conditions" in hit.text
    # The closest single chunk is the deadlocks note's "four conditions": the notebook shows why.
    assert search(college_db, "What is a race condition?", mode="vector", k=1)[0].note == "N18"


@pytest.mark.slow
def test_the_command_line_finds_the_thrashing_note_and_refuses_another_embedder(college_db):
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "COURSE_DB": college_db.location, "COURSE_GRAPH": college_db.graph_name}
    cli = subprocess.run([sys.executable, "-m", "course", "search", "--json", "--k", "2",
                          "What is thrashing?"], capture_output=True, text=True, timeout=300, env=env)
    assert cli.returncode == 0 and json.loads(cli.stdout.splitlines()[0])["results"][0]["note"] == "N20"
    bad = subprocess.run([sys.executable, "-m", "course", "search", "--embedder", "bow", "paging"],
                         capture_output=True, text=True, timeout=300, env=env)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
