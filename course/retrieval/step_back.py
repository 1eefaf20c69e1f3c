"""Step-back prompting: a narrow question searched with the broader question behind it.

Introduced in notebook 13. "Why do two threads writing one variable give a race condition?"
is about threads; "Tell me about Processes" brings the background its notes rest on. With a
model, the model writes the broader question (`course.pipeline.prompts.STEP_BACK_SYSTEM`);
offline, the graph knows it: the concept that INCLUDES the question's concept.

>>> step_back(db, "Why do two threads writing one variable give a race condition?").broader
'Tell me about Processes.'
"""
from __future__ import annotations

from dataclasses import dataclass

from course.foundation.db import Database
from course.llm.base import LLM
from course.llm.errors import LLMError
from course.pipeline.linking import link_entities
from course.pipeline.prompts import STEP_BACK_SYSTEM
from course.pipeline.questions import MAX_QUESTION_CHARS
from course.retrieval.search import DEFAULT_K, DEFAULT_MODE, Hit, check_query, search


@dataclass(frozen=True)
class StepBack:
    """A question and the broader one behind it, and how the broader one was found."""

    question: str
    broader: str
    how: str


_BROADER = "MATCH (c:Concept {name: $name}) OPTIONAL MATCH (p:Concept)-[:INCLUDES]->(c) RETURN p.name"


def step_back(db: Database, question: str, *, llm: LLM | None = None,
              embedder: str | None = None) -> StepBack:
    """The broader question: rewritten by `llm` when given, else from the INCLUDES hierarchy.

    Offline, the question's concept (named in it, else the concept of the best note) is
    replaced by the concept that includes it: BCNF -> Normalization, Paging -> Memory Management.
    """
    text = check_query(question)
    if llm is not None:
        try:
            rewritten = " ".join(llm.generate(text, system=STEP_BACK_SYSTEM).split())
            if rewritten and len(rewritten) <= MAX_QUESTION_CHARS:
                return StepBack(text, rewritten, f"rewritten by {llm.name}")
        except LLMError:
            pass  # no model answer: the graph still knows the broader concept
    # Only a concept named in full: "memory" alone is not Memory Management.
    linked = [m for m in link_entities(db, text, labels={"Concept": "name"}) if m.score == 1.0]
    concept = linked[0].value if linked else None
    if concept is None:
        hits = search(db, text, mode="parent", k=1, embedder=embedder)
        concept = hits[0].concept if hits else None
    if concept is None:
        return StepBack(text, text, "no concept found: the question is kept")
    parents = [p for (p,) in db.run(_BROADER, {"name": concept}).rows if p]
    if not parents:
        return StepBack(text, f"Tell me about {concept}.", f"{concept} is in no broader concept")
    return StepBack(text, f"Tell me about {parents[0]}.", f"{parents[0]} INCLUDES {concept}")


def search_with_step_back(db: Database, question: str, *, llm: LLM | None = None,
                          mode: str = DEFAULT_MODE, k: int = DEFAULT_K,
                          embedder: str | None = None) -> tuple[StepBack, list[Hit]]:
    """The question's own notes, then the broader question's as background (marked `via`)."""
    broader = step_back(db, question, llm=llm, embedder=embedder)
    direct = search(db, broader.question, mode=mode, k=k, embedder=embedder)
    if broader.broader == broader.question:
        return broader, direct
    seen = {h.note for h in direct}
    background = [Hit(h.note, h.concept, h.score, h.text, via=f"step-back: {broader.broader}")
                  for h in search(db, broader.broader, mode=mode, k=k, embedder=embedder)
                  if h.note not in seen]
    return broader, direct + background
