"""Search the notes by meaning: vector, parent-document, full-text, hybrid and graph.

Introduced in notebook 13. `search(db, query, mode=..., k=..., embedder=...)` is the one
function: the CLI's `python -m course search` and the agentic agent's search_notes tool
(`agent_search`) call it. Each mode is a small function of its own:

- vector: the k chunks closest to the question (FalkorDB's HNSW index, read closest-first:
  its score is a cosine DISTANCE, lower is closer);
- parent: k*4 chunks, traced up PART_OF to their notes, deduplicated to the best k notes;
- fulltext: the question's words joined with `|` (the index ANDs terms otherwise);
- hybrid (the default, the best measured): the parent similarity plus a keyword score (BM25
  over the notes' words, scaled by the question's own weight: `course.retrieval.keywords`);
- graph: the hybrid notes, then the notes of their concepts' prerequisites
  ("to understand BCNF, read 3NF first").

Every Hit's score is higher-is-better: 1 - distance for vector and parent, the index's
score for fulltext, the fused score for hybrid and graph.

`BEST_MODE` (bench/bench_notes.py: retrieval.jsonl MRR hybrid 0.98, parent 0.94; fused by rank
with the index's TF-IDF, 0.81) is what `course search` and the agent's search_notes use.

>>> [hit.note for hit in search(db, "What is a race condition?", k=1)]
['N17']
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from course.agents.agentic_tools import NOTE_HITS, grounded, note_terms, search_notes
from course.agents.named_in_notes import note_question
from course.agents.note_holds import note_holds
from course.foundation.config import get_setting
from course.foundation.db import Database, Rows
from course.foundation.definitions import defined
from course.foundation.errors import CourseError, InvalidInput
from course.foundation.language import WORDS, in_english
from course.foundation.graphs import require_data_graph
from course.llm.offline.answer import names_topic
from course.llm.offline.roles.clauses import REQUEST, is_question
from course.llm.offline.roles.words import note_evidence_line, points_only, tokens
from course.pipeline.questions import check_question
from course.retrieval.embeddings import DEFAULT_EMBEDDER, Embedder, chosen_embedder, make_embedder
from course.retrieval.keywords import note_keywords
from course.retrieval.mentioned import mentioned_term, notes_mentioning
from course.retrieval.other_topics import closer_topic
from course.retrieval.compared_topics import compared_hits
from course.retrieval.named_topics import NAMED_MIN_SCORE, named_last, names_its_topic, subject_first
from course.retrieval.overview_notes import leads_an_overview, own_note_first
from course.retrieval.rereading import other_readings
from course.retrieval.second_opinion import (BUILT_ON, agreeing_bar, built_on_first, margin_needed,
                                              prefers_what_it_builds_on)
from course.retrieval.short_forms import short_forms_written_out
from course.retrieval.text_layer import CHUNK_LABEL, CHUNK_LINK, ensure_text_layer, stored_embedder

MODES = ("vector", "parent", "fulltext", "hybrid", "graph")
DEFAULT_MODE, DEFAULT_K, MAX_K = "hybrid", 3, 50
BEST_MODE = "hybrid"    # measured: tests/test_retrieval.py checks it is still the best
PARENT_POOL = 4   # parent mode: k * 4 chunks become at most k notes
RRF_K = 60        # reciprocal-rank fusion: 1 / (60 + rank), the usual constant
HYBRID_POOL = 20  # hybrid: at least this many notes from each half are fused
KEYWORD_WEIGHT = 0.5   # hybrid: similarity + 0.5 x scaled BM25 (chosen in bench/bench_notes.py)


class EmbedderMismatch(CourseError):
    """The question would be embedded by another model than the graph's chunks were."""


@dataclass(frozen=True)
class Hit:
    """One search result: the note, the concept it explains, a score (higher is better), a text."""

    note: str
    concept: str | None
    score: float
    text: str
    via: str = ""  # how it was found, when not directly: "prerequisite of BCNF"

    def to_dict(self) -> dict[str, Any]:
        return {"note": self.note, "concept": self.concept, "score": round(self.score, 4),
                "text": self.text}


def check_query(query: str) -> str:
    """The query, trimmed; empty, overlong or binary input is refused with a sentence (the
    agent's own check, notebook 05).

    >>> check_query("  what is paging?  ")
    'what is paging?'
    """
    return " ".join(check_question(query).split())


def query_embedder(db: Database, name: str | None = None) -> Embedder:
    """The embedder for questions: the one the graph's chunks were made with. Naming another
    (argument or COURSE_EMBEDDER) is refused: vectors of two models do not compare."""
    stored = stored_embedder(db)
    if stored is None:
        raise CourseError(f"The graph {db.graph_name!r} has no notes to search: load the college "
                          "graph with `python -m course load` (or `course.load_college(db)`).")
    asked = get_setting("COURSE_EMBEDDER", value=name)
    if asked is not None and chosen_embedder(asked) != stored:
        raise EmbedderMismatch(
            f"The notes in graph {db.graph_name!r} were embedded with {stored}, not "
            f"{chosen_embedder(asked)}: search with --embedder {stored}, or embed them again "
            f"with `python -m course load --embedder {chosen_embedder(asked)}`.")
    return make_embedder(stored)


# --- the modes ------------------------------------------------------------------------------

_CHUNK_HITS = f"""
CALL db.idx.vector.queryNodes('{CHUNK_LABEL}', 'embedding', $k, vecf32($vector)) YIELD node, score
MATCH (node)-[:{CHUNK_LINK}]->(n:Note)
OPTIONAL MATCH (n)-[:EXPLAINS]->(c:Concept)
RETURN n.id, collect(c.name)[0], node.text, n.text, score
ORDER BY score ASC
"""


def vector_search(db: Database, query: str, *, k: int, embedder: Embedder) -> list[Hit]:
    """The k chunks nearest the question, closest first (score = 1 - cosine distance)."""
    vector = [float(x) for x in embedder.embed([query])[0]]
    rows = db.run(_CHUNK_HITS, {"k": k, "vector": vector}).rows
    # The index's score is a distance (lower is closer): ascending, then turned around.
    return [Hit(note, concept, 1.0 - distance, chunk)
            for note, concept, chunk, _, distance in sorted(rows, key=lambda r: r[4])]


def parent_search(db: Database, query: str, *, k: int, embedder: Embedder) -> list[Hit]:
    """k*4 chunks -> their parent notes, each once at its best chunk's score, top k."""
    vector = [float(x) for x in embedder.embed([query])[0]]
    rows = db.run(_CHUNK_HITS, {"k": k * PARENT_POOL, "vector": vector}).rows
    best: dict[str, Hit] = {}
    for note, concept, _, text, distance in sorted(rows, key=lambda r: r[4]):
        best.setdefault(note, Hit(note, concept, 1.0 - distance, text))
    return list(best.values())[:k]


_WORD = re.compile(r"[a-z0-9]+")
_STOP = WORDS.search_stop_words   # data/language/words.yaml


def fulltext_terms(query: str) -> str:
    """The query's words as a full-text OR: the index ANDs plain terms, so a whole question
    would match nothing.

    >>> fulltext_terms("What is a race condition?")
    'race|condition'
    """
    words = [w for w in _WORD.findall(query.lower()) if len(w) > 1 and w not in _STOP]
    return "|".join(dict.fromkeys(words))


_FULLTEXT_HITS = f"""
CALL db.idx.fulltext.queryNodes('{CHUNK_LABEL}', $terms) YIELD node, score
MATCH (node)-[:{CHUNK_LINK}]->(n:Note)
OPTIONAL MATCH (n)-[:EXPLAINS]->(c:Concept)
WITH n, collect(c.name)[0] AS concept, max(score) AS score
RETURN n.id, concept, n.text, score ORDER BY score DESC, n.id LIMIT $k
"""


def fulltext_search(db: Database, query: str, *, k: int, embedder: Embedder | None = None) -> list[Hit]:
    """Notes whose chunks contain the question's words, best-scoring chunk first."""
    terms = fulltext_terms(query)
    if not terms:
        return []
    rows = db.run(_FULLTEXT_HITS, {"terms": terms, "k": k}).rows
    return [Hit(note, concept, float(score), text) for note, concept, text, score in rows]


def reciprocal_rank_fusion(*rankings: Sequence[Hit], k: int) -> list[Hit]:
    """Notes scored by the sum of 1 / (60 + rank) over the rankings they appear in, top k."""
    fused: dict[str, float] = {}
    first: dict[str, Hit] = {}
    for ranking in rankings:
        for rank, hit in enumerate(ranking, 1):
            fused[hit.note] = fused.get(hit.note, 0.0) + 1.0 / (RRF_K + rank)
            first.setdefault(hit.note, hit)
    order = sorted(fused, key=lambda note: (-fused[note], note))[:k]
    return [Hit(n, first[n].concept, fused[n], first[n].text, first[n].via) for n in order]


def hybrid_search(db: Database, query: str, *, k: int, embedder: Embedder) -> list[Hit]:
    """Parent similarity plus KEYWORD_WEIGHT times the note's scaled BM25 score (0 to 1): the
    keywords lift a note whose rare words the question uses. A note outside the parent pool
    counts the pool's lowest similarity."""
    parents = parent_search(db, query, k=max(k * PARENT_POOL, HYBRID_POOL), embedder=embedder)
    keywords = {n: Hit(n, c, score, text) for n, c, score, text in   # BM25 over a note and its concept
                note_keywords(db, fulltext_terms(query).split("|"))[:max(k * PARENT_POOL, HYBRID_POOL)]}
    floor = min((h.score for h in parents), default=0.0)
    similarity = {h.note: h.score for h in parents}
    found = keywords | {h.note: h for h in parents}      # a parent hit carries the note's text
    fused = [Hit(n, h.concept, similarity.get(n, floor) + KEYWORD_WEIGHT * (
        keywords[n].score if n in keywords else 0.0), h.text) for n, h in found.items()]
    return sorted(fused, key=lambda h: (-h.score, h.note))[:k]


_PREREQUISITE_NOTES = """
UNWIND $concepts AS name
MATCH (p:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: name})
MATCH (n:Note)-[:EXPLAINS]->(p)
RETURN name, n.id, p.name, n.text ORDER BY p.name
"""


def graph_search(db: Database, query: str, *, k: int, embedder: Embedder) -> list[Hit]:
    """The hybrid notes, then the notes of their concepts' prerequisites (half the score)."""
    seeds = hybrid_search(db, query, k=k, embedder=embedder)
    rows = db.run(_PREREQUISITE_NOTES, {"concepts": [h.concept for h in seeds if h.concept]}).rows
    score = {h.concept: h.score for h in seeds}
    found = {h.note: h for h in seeds}
    for concept, note, prerequisite, text in rows:
        if note not in found:
            found[note] = Hit(note, prerequisite, score[concept] / 2, text,
                              via=f"prerequisite of {concept}")
    return sorted(found.values(), key=lambda h: -h.score)[:2 * k]


_SEARCHES = {"vector": vector_search, "parent": parent_search, "fulltext": fulltext_search,
             "hybrid": hybrid_search, "graph": graph_search}


def search(db: Database, query: str, *, mode: str = DEFAULT_MODE, k: int = DEFAULT_K,
           embedder: str | None = None) -> list[Hit]:
    """The notes (or, in vector mode, chunks) that answer `query`, best first."""
    require_data_graph(db.graph_name)
    if mode not in _SEARCHES:
        raise InvalidInput(f"Unknown search mode {str(mode)[:40]!r}: choose one of {', '.join(MODES)}.")
    if not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise InvalidInput(f"k must be a whole number from 1 to {MAX_K}, e.g. --k 3.")
    text = short_forms_written_out(db, in_english(check_query(query)))   # Hindi words, "DP": for the encoder
    ensure_text_layer(db, embedder)  # the first search of a graph builds its text layer
    model = query_embedder(db, embedder)  # also for fulltext: a mismatch is refused in every mode
    return _SEARCHES[mode](db, text, k=k, embedder=model)


# --- the agentic agent's search_notes (notebook 12's tool, now on this search) ---------------

AGENT_MODE = BEST_MODE   # its score is a similarity, so a threshold on it means something
# A note answers when it is this similar to the question and leads the next by this share of
# its score (bench/bench_evidence.py: calibrated on one split, reported on another). Each model
# has its own bar, their similarities being on different scales; a model never calibrated (bow,
# fastembed) gets WordLlama's, the stricter.
NOTE_BARS = {"minilm": (0.61, 0.13), "wordllama": (0.63, 0.22)}
NOTE_MIN_SCORE, NOTE_MIN_MARGIN = NOTE_BARS[DEFAULT_EMBEDDER]
SIMILARITY_MODES = ("vector", "parent", "hybrid")   # whose score is (or starts from) 1 - distance


def clears(hits: Sequence[Hit], *, min_score: float = NOTE_MIN_SCORE,
           min_margin: float = NOTE_MIN_MARGIN) -> bool:
    """Is the best hit evidence enough: similar enough, and ahead of the next note by a share?

    >>> clears([Hit("N1", "A", 0.8, ""), Hit("N2", "B", 0.5, "")])
    True
    >>> clears([Hit("N1", "A", 0.8, ""), Hit("N2", "B", 0.795, "")])   # two notes alike
    False
    >>> clears([Hit("N1", "A", 0.5, ""), Hit("N2", "B", 0.1, "")])   # far ahead, but not close
    False
    """
    if not hits or hits[0].score < min_score:
        return False
    second = next((h.score for h in hits[1:] if h.note != hits[0].note), 0.0)
    return hits[0].score - second >= min_margin * hits[0].score


def note_bar(db: Database) -> dict[str, float]:
    """The evidence bar of the model the graph's notes were embedded with, as `clears` takes it."""
    score, margin = NOTE_BARS.get(stored_embedder(db) or "", NOTE_BARS["wordllama"])
    return {"min_score": score, "min_margin": margin}


def is_defined_topic(query: str, hit: Hit) -> bool:
    """Is the hit's topic the very thing a definition question asks about ("what is 2NF in
    simple words?" of the note on 2NF; "what is a graph?" of the note on Graphs)?

    >>> is_defined_topic("what is 2NF in simple words?", Hit("N03", "2NF", 0.6, ""))
    True
    >>> is_defined_topic("what is 2NF?", Hit("N01", "Normalization", 0.7, ""))
    False
    """
    thing = " ".join(defined(query))
    return bool(thing) and hit.concept is not None and names_topic(thing, str(hit.concept)) \
        and names_topic(str(hit.concept), thing)


def defined_topic_first(query: str, hits: Sequence[Hit]) -> list[Hit]:
    """The hits, the note on the thing a definition asks about first: an encoder may put a note
    that names it in passing nearer ("what is 2NF in simple words?": the note on normalization,
    whose last sentence lists the normal forms)."""
    own = next((h for h in hits if is_defined_topic(query, h)), None)
    return list(hits) if own is None else [own, *(h for h in hits if h is not own)]


def note_search(*, mode: str = AGENT_MODE, k: int = NOTE_HITS) -> Callable[[Database, str], Rows]:
    """A `search=` for `AgenticToolbox` / `AgenticAgent`: `search` as the tool's rows, best first.

    It weighs its own evidence (`weighs_evidence`): in a similarity mode every note when the
    best one `clears` the threshold, else only the notes that hold every term asked
    (`grounded`); in another mode, that rule alone; never for a question the graph must answer
    (`note_question`: "Who is the youngest student?"). `evidence` tells the router.

    >>> found = note_search()(db, "What is a race condition?")
    >>> found.columns, found.rows[0][:2]
    (['note', 'concept', 'score', 'text'], ['N17', 'Threads'])
    """
    kept: dict[tuple[str, str], list[Hit]] = {}   # the evidence's search, reused once by run

    def found(db: Database, query: str) -> list[Hit]:
        if points_only(query):      # "what is that?", "explain this": of nothing said, no topic
            return []
        hits = built_on_first(db, query, own_note_first(db, query, subject_first(db, query, defined_topic_first(
            query, named_last(db, query, compared_hits(db, query, search(db, query, mode=mode, k=k)))))))
        holding = notes_mentioning(db, term) if (term := mentioned_term(query)) else []   # "Which note
        return sorted(hits, key=lambda h: h.note not in holding)     # mentions X?": those holding X first

    def answers(db: Database, query: str, hits: list[Hit]) -> bool:
        if (term := mentioned_term(query)) is not None:    # one note holds it: of several, one
            return bool(hits) and notes_mentioning(db, term) == [hits[0].note]   # is no answer
        return mode in SIMILARITY_MODES and (_answers(db, query, hits) or note_question(db, query) and any(
            alone[:1] and alone[0].note == hits[0].note and _answers(db, sentence, alone, lower=False)
            for sentence in other_readings(query) for alone in [found(db, sentence)]))

    def run(db: Database, query: str) -> Rows:
        hits = kept.pop((db.graph_name, query), None) or found(db, query)
        columns = ["note", "concept", "score", "text"]
        rows = [[h.note, h.concept, round(h.score, 4), h.text] for h in hits]
        if not answers(db, query, hits):
            # then: does it hold what is asked (of a question a note may answer at all)? One
            # word shared answers a question ("What is a mutex used for?"), not a fragment: "date
            # and time" asks nothing of the note on indexes, which keeps a table "up to date"
            asks = len(note_terms(query).split("|")) > 1 or is_question(tokens(query), opening=True) \
                or REQUEST.match(query) is not None
            rows = grounded(query, columns, rows) if asks and note_question(db, query) else []
        rows = rows if rows and note_holds(db, query, str(rows[0][0])) else []
        return Rows(columns, rows,
                    cypher=f"// course.retrieval.search.search(query, mode={mode!r}, k={k})")

    def evidence(db: Database, query: str) -> str:
        """The line the router reads: the best note, its score and lead, the bar's verdict."""
        kept.clear()
        hits = kept[db.graph_name, query] = found(db, query)
        best, second = [*hits, Hit("-", None, 0.0, ""), Hit("-", None, 0.0, "")][:2]
        return note_evidence_line(best.note, best.concept, best.score, best.score - second.score,
                                  bool(hits) and answers(db, query, hits) and note_holds(db, query, best.note))
    def clear_note(db: Database, query: str) -> str | None:
        """The note that answers the query on its own evidence (the bar, the rules), or None."""
        hits = found(db, query)
        clear = bool(hits) and answers(db, query, hits)
        return hits[0].note if clear and note_holds(db, query, hits[0].note) else None
    run.weighs_evidence = True    # type: ignore[attr-defined]
    run.evidence = evidence       # type: ignore[attr-defined]
    run.clear_note = clear_note   # type: ignore[attr-defined]
    return run


def _answers(db: Database, query: str, hits: Sequence[Hit], *, lower: bool = True) -> bool:
    """May the best note answer: it clears the bar (less likeness when the question names its
    topic: `course.retrieval.named_topics`; a larger lead when a second encoder prefers another
    note, a smaller one when it agrees: `margin_needed`, or, agreeing, less likeness with a
    clear lead: `agreeing_bar`; over no note of a topic the question names beside its own: "bfs
    vs dfs" ties, both answer), the question is one a note may answer, and no topic the notes do
    not explain is closer to it (`closer_topic`)? Not `lower` for a reading in fewer words
    ("... And what problem does that solve?" alone): that is the second chance already."""
    bar = note_bar(db)   # (a topic built on the one named, in its place: `built_on_first`)
    if hits and (is_defined_topic(query, hits[0]) or hits[0].via.startswith(BUILT_ON)
                 or leads_an_overview(db, query, hits) and hits[1].score >= bar["min_score"]):
        # its own note: no lead over a neighbour to show, nor a score ("2NF in plain words": a
        # short name, a few words, a low similarity), but the overview that lists it was near
        return note_question(db, query) and closer_topic(db, query, hits[0].note) is None
    if hits and names_its_topic(db, query, hits[0]):   # the topic said: less likeness needed,
        if prefers_what_it_builds_on(db, query, str(hits[0].concept),    # unless it may be the
                                     or_a_part=hits[0].score < bar["min_score"]):
            return False                          # ground of what is described ("processes stuck")
        bar["min_score"] = min(bar["min_score"], NAMED_MIN_SCORE)
    if not hits:
        return False
    if hits[0].score >= bar["min_score"]:
        bar["min_margin"] = margin_needed(db, query, hits[0].note, bar["min_margin"])
    elif lower and (agreeing := agreeing_bar(db, query, hits[0].note)) and hits[0].score >= agreeing["min_score"]:
        bar = agreeing      # under the likeness, but both encoders put this note first
    else:
        return False
    named = names_topic(query, str(hits[0].concept))   # then not the notes of other topics named
    rivals = [h for h in hits if h is hits[0] or not (named and names_topic(query, str(h.concept)))]
    return clears(rivals, **bar) and note_question(db, query) and \
        closer_topic(db, query, hits[0].note) is None


def agent_search(db: Database) -> Callable[[Database, str], Rows]:
    """The agent's note search: this lesson's (its text layer built on first use), else, for a
    graph with no notes to chunk, notebook 12's full-text `search_notes`.

    >>> agent_search(db) is search_notes
    False
    """
    return note_search() if ensure_text_layer(db)["embedder"] is not None else search_notes
