"""The specialised tools of agentic RAG: reviewed Cypher templates and three others.

Introduced in notebook 12. Each tool is one entry of `AGENTIC_TOOLS`: a name, the description the
router reads, its arguments, and what runs. A template is a reviewed, parameterised query:
the model chooses the tool and fills the arguments, never the Cypher; every argument is
linked to a graph value first ("dbms" finds DBMS) and sent as a query parameter, never
formatted into the text. Beside the templates:

- `search_notes(query)`: full-text search over the notes' text, terms joined with `|`
  (FalkorDB's full-text search ANDs the terms of a query otherwise); a note counts only when
  it holds every term asked about (`grounded`);
- `text2cypher(question)`: the notebook-05 agent, with its guard and its retry;
- `answer_given(answer)`: the answer is already in what the conversation found.

A tool's description shows example questions with its arguments as `{placeholders}`: the
router (a model, or the offline rules) reads them. Adding a tool is adding one `Tool` to the
table, e.g. `Tool("study_plan", "...", {...}, run=...)`.

>>> toolbox = AgenticToolbox(db)
>>> out = toolbox.run("best_in_subject", {"subject": "dbms"})
>>> out.arguments, out.rows[:2]
({'subject': 'DBMS'}, [['Payal', 'A+'], ['Aarav', 'A']])
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from course.agents.named_in_notes import named_in_the_ask, speak_of
from course.foundation.db import Database, Rows
from course.foundation.errors import CourseError
from course.foundation.language import WORDS
from course.llm.base import LLM, ToolSpec
from course.llm.offline.chain import walked
from course.pipeline.agent import Agent
from course.pipeline.linking import link_entities
from course.pipeline.results import Result, Status, printable
from course.pipeline.schema import GraphSchema, introspect

LINKED = re.compile(r"\(a (\w+)\.(\w+) value")    # how a parameter names the graph value it takes
NOTE_HITS = 5                                      # notes search_notes returns


@dataclass
class ToolOutput:
    """What one tool call gave: rows (or an answer), the arguments as linked, and its cost."""

    tool: str
    arguments: dict[str, Any]
    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    cypher: str | None = None
    answer: str = ""               # text2cypher and answer_given bring their own
    status: Status = "answered"
    error: str | None = None
    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    parameters: dict[str, Any] = field(default_factory=dict)   # the query's, to run it again

    def unsure(self) -> ToolOutput:
        """No answer: asked whole it found nothing, and its ask without the words around it
        ("Before I teach deadlocks, ...") found something. Which is meant, the rules cannot tell."""
        return replace(self, status="out_of_scope", error="asked whole it finds nothing, and without "
                       "the words around its ask it finds something: ask it in one sentence")

    def set_aside(self, why: str) -> ToolOutput:
        """The output as no answer, for `why` (what it found is about something else)."""
        return replace(self, rows=[], status="out_of_scope", answer=why, error=why)

    @property
    def found(self) -> bool:
        """True when the tool answered: with rows; text2cypher also with none (after its own
        retry on an empty result, "nothing in the graph" is its answer); answer_given with text;
        a tool that computed its answer and says in words why it is empty ("nothing to plan")."""
        if self.tool == "answer_given":
            return bool(self.answer.strip())
        return self.status == "answered" and (bool(self.rows) or self.tool == "text2cypher"
                                              or bool(self.answer.strip()))


@dataclass(frozen=True)
class Tool:
    """One entry of the tool table: what the router reads, and what runs."""

    name: str
    description: str
    parameters: dict[str, Any]
    run: Callable[[AgenticToolbox, dict[str, Any]], ToolOutput]
    cypher: str = ""               # a reviewed template's query (what it traverses is visible)

    def spec(self) -> ToolSpec:
        """What the router is shown; a template also says which relationships it follows."""
        follows = walked(self.cypher)
        said = f" It follows: {', '.join(follows)}." if follows else ""
        return ToolSpec(self.name, self.description + said, self.parameters)


def _string(description: str) -> dict[str, str]:
    return {"type": "string", "description": description}


def template(name: str, description: str, cypher: str, **arguments: tuple[str, str, str]) -> Tool:
    """A reviewed query as a tool; each argument is (label, property, description).

    >>> tool = template("club_members", "Members of a club.", "MATCH ...",
    ...                 club=("Club", "name", "The club"))
    >>> tool.parameters["properties"]["club"]["description"]
    'The club (a Club.name value)'
    """
    properties = {arg: _string(f"{text} (a {label}.{prop} value)")
                  for arg, (label, prop, text) in arguments.items()}
    links = {arg: (label, prop) for arg, (label, prop, _) in arguments.items()}

    def run(toolbox: AgenticToolbox, given: dict[str, Any]) -> ToolOutput:
        return toolbox.run_template(name, cypher, links, given)

    return Tool(name, description, {"type": "object", "properties": properties,
                                    "required": list(arguments)}, run, cypher)


def free_tool(name: str, description: str, argument: str, text: str,
              run: Callable[[AgenticToolbox, dict[str, Any]], ToolOutput]) -> Tool:
    """A tool that takes one piece of free text."""
    return Tool(name, description, {"type": "object", "properties": {argument: _string(text)},
                                    "required": [argument]}, run)


# --- the reviewed templates ----------------------------------------------------------------

# A scale from the schema (grades, levels, best first) ranks by position, never as text.
RANK = "[i IN range(0, size($scale) - 1) WHERE $scale[i] = {value}][0]"

PROFILE = """\
MATCH (s:Student {name: $student})
OPTIONAL MATCH (s)-[:MEMBER_OF]->(c:Club)
WITH s, collect(DISTINCT c.name) AS clubs
OPTIONAL MATCH (s)-[:STUDIES]->(sub:Subject)
WITH s, clubs, collect(DISTINCT sub.name) AS subjects
OPTIONAL MATCH (s)-[:HAS_SKILL]->(k:Skill)
WITH s, clubs, subjects, collect(DISTINCT k.name) AS skills
OPTIONAL MATCH (s)-[:WORKS_ON]->(p:Project)
RETURN s.name AS name, s.year AS year, s.branch AS branch, clubs, subjects, skills,
       collect(DISTINCT p.name) AS projects"""
BEST_IN_SUBJECT = f"""\
MATCH (s:Student)-[r:STUDIES]->(:Subject {{name: $subject}})
RETURN s.name AS student, r.grade AS grade
ORDER BY {RANK.format(value='r.grade')}, s.name"""
LEARN_SKILL_FROM = f"""\
MATCH (s:Student)-[h:HAS_SKILL]->(:Skill {{name: $skill}})
RETURN s.name AS student, h.level AS level
ORDER BY {RANK.format(value='h.level')}, s.name"""
LEARNING_PATH = """\
MATCH (a:Concept {name: $start}), (b:Concept {name: $goal})
CALL algo.SPpaths({sourceNode: a, targetNode: b, relTypes: ['PREREQUISITE_FOR', 'INCLUDES'],
                   relDirection: 'both', pathCount: 1}) YIELD path
RETURN [n IN nodes(path) | n.name] AS route"""
NEXT_TOPICS = """\
MATCH (s:Student {name: $student})-[:STUDIES]->(sub:Subject)-[:COVERS]->(c:Concept)
MATCH (c)-[:PREREQUISITE_FOR*1..2]->(next:Concept)
WHERE NOT (sub)-[:COVERS]->(next)
RETURN DISTINCT next.name AS next_topic"""
CLUB_MEMBERS = """\
MATCH (s:Student)-[m:MEMBER_OF]->(:Club {name: $club})
RETURN s.name AS student, m.role AS role ORDER BY s.name"""
PROJECT_MEMBERS = """\
MATCH (s:Student)-[w:WORKS_ON]->(:Project {name: $project})
RETURN s.name AS student, w.role AS role ORDER BY s.name"""
CONCEPT_NOTES = """\
MATCH (n:Note)-[:EXPLAINS]->(c:Concept {name: $concept})
RETURN n.id AS note, c.name AS concept, n.text AS text ORDER BY n.id"""
SEARCH_NOTES = """\
CALL db.idx.fulltext.queryNodes('Note', $terms) YIELD node, score
MATCH (node)-[:EXPLAINS]->(c:Concept)
RETURN node.id AS note, c.name AS concept, score, node.text AS text
ORDER BY score DESC, note LIMIT $k"""

SCALES = {"best_in_subject": "STUDIES.grade", "learn_skill_from": "HAS_SKILL.level"}


# --- search_notes, the one function the retrieval lesson can replace ------------------------

_TERM = re.compile(r"[a-z0-9]+")


def note_terms(query: str) -> str:
    """The query's words as a full-text query that matches any of them (`|`).

    >>> note_terms("What is a race condition?")
    'race|condition'
    """
    said = " ".join(WORDS.shorthand.get(w, w) for w in _TERM.findall(query.lower()))   # "wat", "abt"
    words = [w for w in _TERM.findall(said) if w not in WORDS.not_terms and len(w) > 1]
    return "|".join(dict.fromkeys(words))


def search_notes(db: Database, query: str, *, k: int = NOTE_HITS) -> Rows:
    """The notes whose text best matches the query: note, concept, score, text; best first.

    >>> search_notes(db, "What does COMMIT do?").rows[0][:2]
    ['N08', 'Transactions']
    """
    terms = note_terms(query)
    if not terms:
        return Rows(["note", "concept", "score", "text"], [])
    return db.run(SEARCH_NOTES, {"terms": terms, "k": k})


def grounded(query: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """The rows whose `text` holds every term of the query (a term's first five letters, so
    "conditions" holds "condition"): a note that shares one word with the question is not
    an answer to it.

    >>> grounded("What is Payal's branch?", ["note", "text"], [["N14", "One branch at a time."]])
    []
    """
    stems = [t[:5] for t in note_terms(query).split("|") if t]
    where = list(columns).index("text") if "text" in columns else None
    if where is None or not stems:
        return []
    return [list(r) for r in rows   # a word of the text begins with the term ("folders" holds no "older")
            if all(re.search(rf"\b{re.escape(s)}", str(r[where]).lower()) for s in stems)]


# --- running the tools -----------------------------------------------------------------------


@dataclass
class AgenticToolbox:
    """The tools over one graph, with the LLM text2cypher uses and the search search_notes uses."""

    db: Database
    llm: LLM | None = None
    schema: GraphSchema | None = None
    tools: Sequence[Tool] = ()
    search: Callable[[Database, str], Rows] = search_notes
    context: str = ""             # the conversation so far, for text2cypher
    timeout_ms: int = 5_000
    max_rows: int = 200
    pipeline: dict[str, Any] = field(default_factory=dict)   # text2cypher's Agent(**pipeline)

    def __post_init__(self) -> None:
        self.schema = self.schema or introspect(self.db)
        self.tools = tuple(self.tools) or AGENTIC_TOOLS

    def specs(self, *, without: Sequence[str] = ()) -> list[ToolSpec]:
        """The tools as the router sees them, less those already tried on this part."""
        return [t.spec() for t in self.tools if t.name not in without]

    def names(self, *, without: Sequence[str] = ()) -> set[str]:
        """The names of the tools `specs` offers."""
        return {t.name for t in self.tools if t.name not in without}

    def run(self, name: str, arguments: dict[str, Any]) -> ToolOutput:
        """One call; a bad name or argument is an output with an error, never an exception."""
        tool = next((t for t in self.tools if t.name == name), None)
        if tool is None:
            names = ", ".join(t.name for t in self.tools)
            return ToolOutput(name, arguments, status="failed",
                              error=f"There is no tool named {printable(name, limit=60)!r}; "
                                    f"the tools are {names}.")
        missing = [a for a in tool.parameters.get("required", [])
                   if arguments.get(a) is None or not str(arguments[a]).strip()]
        if missing:
            return ToolOutput(name, arguments, status="failed",
                              error=f"{name} needs the argument(s) {', '.join(missing)}.")
        try:
            return tool.run(self, arguments)
        except CourseError as exc:   # the database down, a timeout: this part fails, saying why
            return ToolOutput(name, arguments, status="failed", error=str(exc))

    def link(self, label: str, prop: str, text: str) -> str | None:
        """The graph value of `label` that `text` names ("dbms" -> 'DBMS'), or None."""
        found = link_entities(self.db, text, schema=self.schema, labels={label: prop})
        return found[0].value if found else None

    def run_template(self, name: str, cypher: str, links: dict[str, tuple[str, str]],
                     given: dict[str, Any]) -> ToolOutput:
        """Link each argument to a graph value, then run the reviewed query with parameters."""
        linked: dict[str, Any] = {}
        for arg, (label, prop) in links.items():
            value = self.link(label, prop, str(given[arg]))
            if value is None:
                return ToolOutput(name, dict(given), status="failed",
                                  error=f"No {label} matches {printable(given[arg], limit=60)!r}; "
                                        f"give a {label}.{prop} from the linked values, or use "
                                        "text2cypher.")
            linked[arg] = value
        params = dict(linked)
        if name in SCALES and self.schema is not None:
            params["scale"] = self.schema.scales().get(SCALES[name], [])
        rows = self.db.run(cypher, params, timeout_ms=self.timeout_ms, max_rows=self.max_rows)
        return ToolOutput(name, linked, rows.columns, rows.rows, cypher, parameters=params)

    def text2cypher(self, question: str) -> ToolOutput:
        """The notebook-05 agent on one question: it writes Cypher, the guard checks, it retries."""
        agent = Agent(self.db, self.llm, memory=_ReadOnly(self.context) if self.context else None,
                      timeout_ms=self.timeout_ms, max_rows=self.max_rows, schema=self.schema,
                      **self.pipeline)
        result = agent.answer(question)
        return ToolOutput("text2cypher", {"question": question}, result.columns, result.rows,
                          result.cypher, result.answer or "", result.status, result.error,
                          result.llm_calls, result.input_tokens, result.output_tokens)

    def evidence(self, query: str) -> str:
        """The note search's evidence for the router's prompt ("" when the search gives none)."""
        tell = getattr(self.search, "evidence", None)
        return tell(self.db, query) if callable(tell) and self.db is not None else ""

    def notes(self, query: str) -> ToolOutput:
        """The notes the search finds that hold every term asked about (`grounded`); a search
        that weighs its own evidence (notebook 13's, by similarity) is taken at its word."""
        rows = self.search(self.db, query)
        kept = (list(map(list, rows.rows)) if getattr(self.search, "weighs_evidence", False)
                else grounded(query, rows.columns, rows.rows))
        kept = speak_of(self.db, named_in_the_ask(self.db, query, self.schema), rows.columns, kept)
        return ToolOutput("search_notes", {"query": query}, rows.columns, kept,
                          getattr(rows, "cypher", None) or SEARCH_NOTES)


class _ReadOnly:
    """The conversation's context for text2cypher, which must not add turns of its own."""

    def __init__(self, context: str) -> None:
        self._context = context

    def context(self) -> str:
        return self._context

    def remember(self, result: Result, mentions: Sequence[Any] = (), link: Any = None) -> dict[str, str]:
        return {}

    def clear(self) -> None:
        pass


AGENTIC_TOOLS: tuple[Tool, ...] = (
    template("student_profile",
             "Who a student is: year, branch, clubs, subjects, skills and projects, in one row. "
             "e.g. 'Who is {student}?', 'Tell me about {student}', '{student} kaun hai?', "
             "'{student} ke baare mein batao'",
             PROFILE, student=("Student", "name", "The student")),
    template("best_in_subject",
             "The students of a subject ranked by grade, best first: who is best at it, who "
             "can teach it. e.g. 'Who is the best at {subject}?', 'Who is best in {subject}?', "
             "'Who is the best person to teach me {subject}?', "
             "'Who should teach me {subject}?', 'Who is the topper in {subject}?', "
             "'{subject} mein sabse acha kaun hai?'",
             BEST_IN_SUBJECT, subject=("Subject", "name", "The subject")),
    template("learn_skill_from",
             "The students who have a skill, ranked by level, best first: who to learn it from. "
             "e.g. 'Who should I learn {skill} from?', 'Who is the best at {skill}?', "
             "'Who can teach me {skill}?', '{skill} kisse seekhu?'",
             LEARN_SKILL_FROM, skill=("Skill", "name", "The skill")),
    template("learning_path",
             "The learning path between two concepts, in order (the shortest chain of "
             "prerequisites and parts). e.g. 'What is the learning path from {start} to {goal}?', "
             "'How do I get from {start} to {goal}?', '{start} se {goal} tak ka learning path batao'",
             LEARNING_PATH, start=("Concept", "name", "Where the path starts"),
             goal=("Concept", "name", "Where the path ends")),
    template("next_topics",
             "A student's next topics: concepts that their subjects' concepts lead to, in other "
             "subjects. e.g. 'What are the next topics for {student}?', 'What should {student} "
             "learn next?', '{student} ke next topics kya hain?'",
             NEXT_TOPICS, student=("Student", "name", "The student")),
    template("club_members",
             "The members of a club and their roles. e.g. 'Who is in the {club}?', 'Who are the "
             "members of the {club}?', '{club} mein kaun hai?'",
             CLUB_MEMBERS, club=("Club", "name", "The club")),
    template("project_members",
             "The students working on a project and their roles. e.g. 'Who works on the "
             "{project}?', 'Who is on the {project} team?', '{project} pe kaun kaam karta hai?'",
             PROJECT_MEMBERS, project=("Project", "name", "The project")),
    template("concept_notes",
             "The notes that explain a concept, with their text. e.g. 'What is {concept}?', "
             "'Explain {concept}', 'What does {concept} mean?', '{concept} kya hai?', "
             "'{concept} samjhao'",
             CONCEPT_NOTES, concept=("Concept", "name", "The concept")),
    free_tool("search_notes",
              "Search the text of the study notes for a term that is not a name in the graph, and "
              "return the notes that mention it, best first. e.g. 'What is {query}?', 'What does "
              "{query} do?', 'What does {query} mean?', 'Explain {query}', '{query} kya hai?'",
              "query", "The term or question to look for in the notes' text",
              lambda box, args: box.notes(str(args["query"]))),
    free_tool("text2cypher",
              "Any other question about the graph: a model writes one read-only Cypher query, "
              "checked by the guard and retried on an error. Use when no other tool fits.",
              "question", "The question, complete and on its own",
              lambda box, args: box.text2cypher(str(args["question"]))),
    free_tool("answer_given",
              "The answer is already in what the conversation has found: give it, no query.",
              "answer", "The answer, from the results already found",
              lambda box, args: ToolOutput("answer_given", dict(args), answer=str(args["answer"]))),
)
