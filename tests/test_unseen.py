"""Questions a learner asked who had never seen the course's question sets (issue 23).

Each is judged by rows against a hand-written reference query, or, where the right answer is a
refusal or a question back, by what the answer says. A wrong answer is worse than a refusal:
where the rules cannot follow a question they must say so, not answer something nearby.
"""
from __future__ import annotations

import re

import pytest

from course.agents.agentic_roles import RuleRoles
from course.llm.base import ToolCall, Usage
from course.llm.offline import OfflineLLM
from course.llm.offline.lexicon import default_lexicon
from course.llm.offline.plainly import without_comparisons
from course.pipeline import prompts
from course.pipeline.agent import Agent
from course.pipeline.linking import link_entities
from course.pipeline.comparison import same_rows
from course.pipeline.memory import ShortTermMemory
from course.llm.offline.roles.updater import RuleUpdater
from course.pipeline.refusal import WHICH_IS_MEANT, WHO_IS_MEANT, pronoun as refusal_word


def rows_of(db, reference: str) -> list[list]:
    return db.run(reference).rows


def assert_answered_with(result, db, reference: str) -> None:
    """The question was answered, with the reference query's rows."""
    assert result.status == "answered", result.answer
    assert same_rows(result.rows, rows_of(db, reference))


@pytest.fixture
def chat(college_db):
    """A pipeline with short-term memory, as the chat and `course ask` have."""
    return Agent(college_db, OfflineLLM(), memory=ShortTermMemory())


# --- a follow-up that names someone new and asks something new --------------------------------

@pytest.mark.parametrize("conversation, reference", [
    (["Which club is Rahul in?", "Tell me about Karan"],
     "MATCH (k:Student) WHERE k.name = 'Karan' RETURN k.name, k.year, k.branch"),
    (["Who is Rahul?", "What project does he work on?", "Tell me about Sneha"],
     "MATCH (k:Student) WHERE k.name = 'Sneha' RETURN k.name, k.year, k.branch"),
], ids=["club-then-profile", "project-then-profile"])
def test_a_new_name_with_a_new_ask_does_not_inherit_the_old_intent(college_db, chat,
                                                                   conversation, reference):
    for question in conversation:
        result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


def test_and_a_new_name_still_borrows_the_last_question(college_db, chat):
    chat.answer("Which club is Rahul in?")
    result = chat.answer("and Payal?")
    reference = "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) RETURN c.name"
    assert same_rows(result.rows, rows_of(college_db, reference))


# --- a pronoun with nothing before it ----------------------------------------------------------

@pytest.mark.parametrize("question", ["uska year kya hai?", "What is her branch?",
                                      "Which subjects does she study?"])
def test_a_pronoun_with_nothing_before_it_asks_who_is_meant(chat, question):
    result = chat.answer(question)
    assert result.status == "out_of_scope"
    assert result.answer == WHO_IS_MEANT[result.language].format(word=refusal_word(question))
    assert "?" in result.answer and "outside" not in result.answer
    assert result.answer != prompts.OUT_OF_SCOPE_ANSWER[result.language]


# --- a refusal says what happened ---------------------------------------------------------------

def test_a_question_about_the_graph_it_cannot_follow_is_not_called_outside_the_graph(chat):
    result = chat.answer("Which subjects do Aarav's friends' friends' friends study?")
    assert result.status == "out_of_scope"
    assert "outside my knowledge graph" not in result.answer
    assert "Aarav" in result.answer


def test_a_question_about_nothing_in_the_graph_is_still_outside_it(chat):
    result = chat.answer("What is the weather in Delhi?")
    assert result.answer == prompts.OUT_OF_SCOPE_ANSWER["en"]


# --- a prerequisite read in the right direction -------------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Which subject has Operating Systems as its prerequisite?",
     "MATCH (:Subject {name: 'Operating Systems'})-[:PREREQUISITE_FOR]->(s:Subject) RETURN s.name"),
    ("Which subject has DSA as a prerequisite?",
     "MATCH (:Subject {name: 'DSA'})-[:PREREQUISITE_FOR]->(s:Subject) RETURN s.name"),
    ("What is the prerequisite of Operating Systems?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) RETURN s.name"),
])
def test_a_prerequisite_is_read_in_the_direction_asked(college_db, chat, question, reference):
    expected = rows_of(college_db, reference)
    assert expected, "the reference finds something, so 'I found nothing' would be a false claim"
    result = chat.answer(question)
    assert result.status == "answered"
    assert same_rows(result.rows, expected)


# --- two relationships in a chain ---------------------------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Which subjects do Aarav's friends study?",
     "MATCH (:Student {name: 'Aarav'})-[:FRIENDS_WITH]-(f:Student)-[:STUDIES]->(s:Subject) "
     "RETURN DISTINCT s.name"),
    ("Who works on a project that requires Docker?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project)-[:REQUIRES]->(:Skill {name: 'Docker'}) "
     "RETURN DISTINCT s.name"),
    ("Who is friends with the president of the Debate Society?",
     "MATCH (p:Student)-[m:MEMBER_OF]->(:Club {name: 'Debate Society'}) WHERE m.role = 'President' "
     "MATCH (p)-[:FRIENDS_WITH]-(f:Student) RETURN DISTINCT f.name"),
])
def test_a_chain_of_two_relationships_is_followed_or_refused(college_db, chat, question, reference):
    result = chat.answer(question)
    assert result.status in ("answered", "out_of_scope")
    if result.status == "answered":     # never answered along a shorter chain
        assert same_rows(result.rows, rows_of(college_db, reference))


@pytest.mark.parametrize("question, reference", [
    ("Which subjects do Aarav's friends study?",
     "MATCH (:Student {name: 'Aarav'})-[:FRIENDS_WITH]-(f:Student)-[:STUDIES]->(s:Subject) "
     "RETURN DISTINCT s.name"),
    ("Who works on a project that requires Docker?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project)-[:REQUIRES]->(:Skill {name: 'Docker'}) "
     "RETURN DISTINCT s.name"),
    ("Which projects require a skill that Karan has?",
     "MATCH (:Student {name: 'Karan'})-[:HAS_SKILL]->(:Skill)<-[:REQUIRES]-(p:Project) "
     "RETURN DISTINCT p.name"),
    ("Name the friends of the president of the Robotics Club.",
     "MATCH (p:Student)-[m:MEMBER_OF]->(:Club {name: 'Robotics Club'}) WHERE m.role = 'President' "
     "MATCH (p)-[:FRIENDS_WITH]-(f:Student) RETURN DISTINCT f.name"),
])
def test_a_chain_of_two_relationships_is_answered(college_db, chat, question, reference):
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


# --- an aggregate over a property ---------------------------------------------------------------

def test_the_average_of_a_number_property(college_db, chat):
    result = chat.answer("What is the average year of the students?")
    assert result.status == "answered"
    assert same_rows(result.rows, rows_of(college_db, "MATCH (s:Student) RETURN avg(s.year)"))


@pytest.mark.parametrize("question", ["Which students are in the IT branch?",
                                      "Which students are in the IT branch, and which clubs is each in?",
                                      "Which project has the fewest people working on it?"])
def test_a_word_that_only_looks_like_a_pronoun_does_not_ask_who_is_meant(chat, question):
    result = chat.answer(question)
    assert "do you mean" not in (result.answer or "")


# --- counting per value of a property -------------------------------------------------------

def test_how_many_per_value_of_a_property(college_db, chat):
    result = chat.answer("How many students are there in each branch?")
    reference = "MATCH (s:Student) RETURN s.branch, count(s)"
    assert_answered_with(result, college_db, reference)


# --- "part of X" and "X is part of": the direction is where the name stands -------------------

@pytest.mark.parametrize("question, reference", [
    ("Which topics are part of Graphs?",
     "MATCH (:Concept {name: 'Graphs'})-[:INCLUDES]->(c:Concept) RETURN c.name"),
    ("What topics come under Memory Management?",
     "MATCH (:Concept {name: 'Memory Management'})-[:INCLUDES]->(c:Concept) RETURN c.name"),
    ("What is Paging part of?",
     "MATCH (c:Concept)-[:INCLUDES]->(:Concept {name: 'Paging'}) RETURN c.name"),
])
def test_part_of_reads_the_direction_from_where_the_name_stands(college_db, chat, question, reference):
    expected = rows_of(college_db, reference)
    assert expected
    result = chat.answer(question)
    assert result.status == "answered"
    assert same_rows(result.rows, expected)


def test_an_average_of_something_that_is_not_a_number_is_refused(chat):
    assert chat.answer("What is the average grade in DBMS?").status == "out_of_scope"


# --- the chat takes any of the three agents, and says which answers ----------------------------

@pytest.mark.slow   # half a second or more
@pytest.mark.parametrize("kind, words", [("pipeline", "the pipeline"), ("tools", "the tool loop"),
                                         ("agentic", "the agentic agent")])
def test_the_chat_takes_any_agent_and_says_which_answers(college_db, tmp_path, kind, words):
    from course.ui.widgets import ChatSession, ChatWidget

    session = ChatSession.start(college_db, llm=OfflineLLM(), agent=kind)
    assert session.agent_name.startswith(words)
    chat = ChatWidget(session, background=False, directory=str(tmp_path))
    assert words in chat.title.value and words in chat.summary()
    chat.ask("Who is Payal?")
    assert chat.session.last_reply().status == "answered"


def test_the_chat_on_the_agentic_agent_finds_study_partners(college_db):
    from course.ui.widgets import ChatSession

    session = ChatSession.start(college_db, llm=OfflineLLM(), agent="agentic")
    _, reply = session.send("Who can be a study partner for Sneha in DBMS?")
    reference = ("MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DBMS'}) "
                 "WHERE r.grade IN ['A+', 'A'] RETURN s.name")
    assert reply.status == "answered"
    assert sorted(r[0] for r in reply.rows) == sorted(r[0] for r in rows_of(college_db, reference))


def test_the_chat_asks_who_is_meant_when_nothing_came_before(college_db):
    from course.ui.widgets import ChatSession

    _, reply = ChatSession.start(college_db, llm=OfflineLLM()).send("uska year kya hai?")
    assert reply.text.startswith('"uska" se kaun matlab hai?')


def test_an_unknown_agent_is_refused_with_a_sentence(college_db):
    from course.foundation.errors import InvalidInput
    from course.ui.widgets import ChatSession

    with pytest.raises(InvalidInput, match="choose one of pipeline, tools, agentic"):
        ChatSession.start(college_db, llm=OfflineLLM(), agent="robot")


def test_the_total_of_a_number_property(college_db, chat):
    result = chat.answer("What is the total number of credits of the subjects Aarav studies?")
    reference = "MATCH (:Student {name: 'Aarav'})-[:STUDIES]->(s:Subject) RETURN sum(s.credits)"
    assert_answered_with(result, college_db, reference)


# --- "each": every value on its own, never what they have in common -------------------------

@pytest.mark.parametrize("question, reference", [
    ("What skills do Aarav and Payal each have?",
     "MATCH (s:Student)-[:HAS_SKILL]->(k:Skill) WHERE s.name IN ['Aarav', 'Payal'] RETURN s.name, k.name"),
    ("Aarav aur Payal mein se har ek kaunsa subject padhta hai?",
     "MATCH (s:Student)-[:STUDIES]->(x:Subject) WHERE s.name IN ['Aarav', 'Payal'] RETURN s.name, x.name"),
])
def test_each_of_several_names_answers_for_every_one(college_db, chat, question, reference):
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("How many members does each of Robotics Club and Coding Club have?",
     "MATCH (c:Club)<-[:MEMBER_OF]-(s:Student) WHERE c.name IN ['Robotics Club', 'Coding Club'] "
     "RETURN c.name, count(DISTINCT s)"),
    ("How many skills do Karan and Sneha each have?",
     "MATCH (s:Student)-[:HAS_SKILL]->(k:Skill) WHERE s.name IN ['Karan', 'Sneha'] "
     "RETURN s.name, count(DISTINCT k)"),
    ("How many students take each of Operating Systems and DSA?",
     "MATCH (x:Subject)<-[:STUDIES]-(s:Student) WHERE x.name IN ['Operating Systems', 'DSA'] "
     "RETURN x.name, count(DISTINCT s)"),
])
def test_how_many_for_each_of_several_names_is_a_count_per_name(college_db, chat, question,
                                                                 reference):
    """Not the list of what each has: "how many" asks for a number (it was answered with the
    students of each subject, the count left to the reader)."""
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


def test_both_is_still_what_they_have_in_common(college_db, chat):
    result = chat.answer("Which subjects do Aarav and Payal both study?")
    reference = ("MATCH (:Student {name: 'Aarav'})-[:STUDIES]->(x:Subject)<-[:STUDIES]-"
                 "(:Student {name: 'Payal'}) RETURN x.name")
    assert same_rows(result.rows, rows_of(college_db, reference))


# --- the learner's agent: notes when no query fits, every value of "each of them" --------------

@pytest.fixture
def learner(college_db):
    from course.planner.planner_tools import learner_agent

    return learner_agent(college_db, OfflineLLM(), memory=ShortTermMemory())


@pytest.mark.parametrize("question, note", [("What is a page fault?", "N20"),
                                            ("How does DNS resolve a domain name?", "N23")])
def test_a_question_no_query_answers_is_answered_from_its_note(learner, question, note):
    result = learner.answer(question)
    assert result.status == "answered"
    assert result.rows[0][0] == note and f"note {note}" in result.answer


@pytest.mark.parametrize("question", ["What is the weather in Delhi?",
                                      "How do I bake sourdough bread?",
                                      "How does a firewall decide which packets to block?"])
def test_a_question_neither_a_query_nor_a_note_answers_is_refused(learner, question):
    assert learner.answer(question).status == "out_of_scope"


def parts_rows(result) -> list[list[list]]:
    return [s.rows for s in result.sub_questions if s.found]


@pytest.mark.parametrize("question, second", [
    ("Which students study DBMS and what clubs is each of them in?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DBMS'}) MATCH (s)-[:MEMBER_OF]->(c:Club) "
     "RETURN s.name, c.name"),
    ("Who works on the Campus Chatbot and what skills do both of them have?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) "
     "MATCH (s)-[:HAS_SKILL]->(k:Skill) RETURN s.name, k.name"),
    ("Robotics Club mein kaun hai, aur unmein se har ek kaunsa subject padhta hai?",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) "
     "MATCH (s)-[:STUDIES]->(x:Subject) RETURN s.name, x.name"),
])
def test_each_of_them_stands_for_every_value_found(college_db, learner, question, second):
    result = learner.answer(question)
    assert result.status == "answered"
    assert any(same_rows(rows, rows_of(college_db, second)) for rows in parts_rows(result))


def test_two_questions_about_two_people_are_both_answered(college_db, learner):
    result = learner.answer("Who is Aarav and what does Sneha study?")
    studies = "MATCH (:Student {name: 'Sneha'})-[:STUDIES]->(x:Subject) RETURN x.name"
    assert result.status == "answered" and len(parts_rows(result)) == 2
    assert any(same_rows(rows, rows_of(college_db, studies)) for rows in parts_rows(result))


def test_a_template_that_cannot_filter_on_a_named_role_is_not_picked(college_db, learner):
    """"the team lead of X" is not every member of X: a filter, or a refusal."""
    result = learner.answer("Who is the team lead of the Library Management System?")
    assert result.sub_questions[0].tool == "text2cypher"
    if result.status == "answered":
        reference = ("MATCH (s:Student)-[w:WORKS_ON]->(:Project {name: 'Library Management System'}) "
                     "WHERE w.role = 'Team Lead' RETURN s.name")
        assert same_rows(result.rows, rows_of(college_db, reference))


@pytest.mark.parametrize("question", [
    "Why do two threads that update the same variable sometimes lose an update?",
    "Jab do threads ek variable ko saath mein badalte hain toh kya galat hota hai, kyun?",
])
def test_a_question_about_why_data_changes_is_no_request_to_change_it(chat, question):
    result = chat.answer(question)
    assert result.status == "out_of_scope" and "cannot change the data" not in result.answer


def test_the_learners_agent_answers_a_why_question_from_its_note(learner):
    result = learner.answer("Why do two threads that update the same variable sometimes lose an update?")
    assert result.status != "blocked"


# --- the second fresh set's causes: every part answered, or said unanswered ---------------------

def every_part_found(result) -> bool:
    from course.agents.agentic_run import best_parts

    return all(s.found for s in best_parts(result.sub_questions))


def last_part_is(db, result, reference: str) -> None:
    """Every part was answered, the last with the reference query's rows."""
    assert result.status == "answered" and every_part_found(result), result.answer
    assert same_rows(parts_rows(result)[-1], rows_of(db, reference)), result.answer


@pytest.mark.parametrize("question, second", [
    ("Who studies DSA, and which club is each of them in?",          # three names: a list with commas
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) MATCH (s)-[:MEMBER_OF]->(c:Club) "
     "RETURN s.name, c.name"),
    ("Debate Society ke members kaun hain, aur dono kis branch mein hain?",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN s.name, s.branch"),
    ("Who works on the Library Management System, and what year are both in?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Library Management System'}) "
     "RETURN s.name, s.year"),
    ("Which students know SQL? In sab ka branch kya hai?",
     "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'SQL'}) RETURN s.name, s.branch"),
], ids=["each-of-three", "dono", "both", "in-sab-ka"])
def test_a_later_part_about_all_of_them_is_answered_for_every_value(college_db, learner, question,
                                                                    second):
    result = learner.answer(question)
    assert result.status == "answered" and every_part_found(result), result.answer
    assert any(same_rows(rows, rows_of(college_db, second)) for rows in parts_rows(result))


@pytest.mark.parametrize("question, reference", [
    ("Who is friends with the president of the Debate Society?",
     "MATCH (p:Student)-[m:MEMBER_OF]->(:Club {name: 'Debate Society'}) WHERE m.role = 'President' "
     "MATCH (p)-[:FRIENDS_WITH]-(f:Student) RETURN DISTINCT f.name"),
    ("Which students are friends with the secretary of the Coding Club?",
     "MATCH (p:Student)-[m:MEMBER_OF]->(:Club {name: 'Coding Club'}) WHERE m.role = 'Secretary' "
     "MATCH (p)-[:FRIENDS_WITH]-(f:Student) RETURN DISTINCT f.name"),
    ("Who is in the club whose secretary is Payal?",   # the others, as "the same club as" gives
     "MATCH (p:Student {name: 'Payal'})-[m:MEMBER_OF]->(c:Club) WHERE m.role = 'Secretary' "
     "MATCH (s:Student)-[:MEMBER_OF]->(c) WHERE s <> p RETURN DISTINCT s.name"),
    ("Who is in Payal's club?",     # was answered with her clubs
     "MATCH (p:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club)<-[:MEMBER_OF]-(s:Student) "
     "WHERE s <> p RETURN DISTINCT s.name"),
], ids=["friends-with-the-president", "friends-with-the-secretary", "club-whose-secretary",
        "who-is-in-her-club"])
def test_a_chain_through_a_role_is_answered(college_db, chat, question, reference):
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Payal kaunse saal mein padhti hai?", "MATCH (s:Student {name: 'Payal'}) RETURN s.year"),
    ("Kaun se students Python jaante hain?",
     "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Python'}) RETURN s.name"),
    ("Rahul kaunsa project banata hai?",
     "MATCH (:Student {name: 'Rahul'})-[:WORKS_ON]->(p:Project) RETURN p.name"),
    ("Karan ke paas kaunsi skills hain?",
     "MATCH (:Student {name: 'Karan'})-[:HAS_SKILL]->(k:Skill) RETURN k.name"),
    ("Campus Chatbot ke liye kaunsi skills chahiye?",
     "MATCH (:Project {name: 'Campus Chatbot'})-[:REQUIRES]->(k:Skill) RETURN k.name"),
    ("Aarav ki padhai kin subjects mein hai?",
     "MATCH (:Student {name: 'Aarav'})-[:STUDIES]->(x:Subject) RETURN x.name"),
    ("Library Management System ke liye kaun kaun si skills chahiye?",   # which, not who
     "MATCH (:Project {name: 'Library Management System'})-[:REQUIRES]->(k:Skill) RETURN k.name"),
], ids=["saal-padhti", "jaante", "banata", "ke-paas", "chahiye", "padhai-kin", "kaun-kaun-si"])
def test_hinglish_verb_forms_are_understood(college_db, chat, question, reference):
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


def test_a_relative_clause_names_the_first_link_of_a_chain(college_db, chat):
    result = chat.answer("Which topics does the subject that comes just before Computer Networks cover?")
    reference = ("MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) "
                 "MATCH (s)-[:COVERS]->(c:Concept) RETURN c.name")
    assert_answered_with(result, college_db, reference)


def test_a_hinglish_relative_clause_is_no_pronoun(college_db, chat):
    chat.answer("Who is Payal?")      # "woh" points at the "jo" clause, not at Payal
    result = chat.answer("Campus Chatbot ke liye jo skills chahiye, woh kis student ke paas hain?")
    reference = ("MATCH (:Project {name: 'Campus Chatbot'})-[:REQUIRES]->(:Skill)<-[:HAS_SKILL]-"
                 "(s:Student) RETURN DISTINCT s.name")
    assert_answered_with(result, college_db, reference)


def test_what_a_topic_must_be_learnt_before_is_what_it_leads_to(college_db, chat):
    result = chat.answer("What must Paging be learnt before?")
    reference = "MATCH (:Concept {name: 'Paging'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Sneha ke dost kaunse clubs mein hain?",
     "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(:Student)-[:MEMBER_OF]->(c:Club) "
     "RETURN DISTINCT c.name"),
    ("Karan ke doston ko kaun si skills aati hain?",
     "MATCH (:Student {name: 'Karan'})-[:FRIENDS_WITH]-(:Student)-[:HAS_SKILL]->(k:Skill) "
     "RETURN DISTINCT k.name"),
], ids=["dost-clubs", "doston-skills"])
def test_a_hinglish_chain_asks_for_the_noun_after_which(college_db, chat, question, reference):
    result = chat.answer(question)     # "X ke dost": a step of the chain, not what is asked
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("How many study notes does DBMS have?",
     "MATCH (:Subject {name: 'DBMS'})-[:COVERS]->(:Concept)<-[:EXPLAINS]-(n:Note) "
     "RETURN count(DISTINCT n)"),
    ("How many study notes are there for each subject?",
     "MATCH (s:Subject) OPTIONAL MATCH (s)-[:COVERS]->(:Concept)<-[:EXPLAINS]-(n:Note) "
     "RETURN s.name, count(DISTINCT n)"),
])
def test_a_count_of_notes_per_subject(college_db, chat, question, reference):
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


# --- grounded answers: each part says where it came from; a shorter chain is no answer ----------

def test_every_answered_part_names_where_it_came_from(learner):
    result = learner.answer("Who is best at DBMS, and what is a page fault?")
    best, note = result.sub_questions[0], result.sub_questions[-1]
    assert (best.source, note.source) == ("best_in_subject", "note N20")
    assert "(from best_in_subject)" in result.answer and "note N20" in result.answer
    assert [p["source"] for p in result.to_dict()["sub_questions"]] == ["best_in_subject", "note N20"]


def test_a_written_query_is_named_by_the_links_it_follows(learner):
    result = learner.answer("Who is Payal, and which subjects do Aarav's friends study?")
    assert result.sub_questions[-1].source == "a query over FRIENDS_WITH, STUDIES"
    assert "(from a query over FRIENDS_WITH, STUDIES)" in result.answer


class ShortcutRoles(RuleRoles):
    """A mock router (the rules otherwise): it first answers any question about a club with
    that club's members, as a model might, whatever chain the question names."""

    def route(self, question, mentions, tools, run, context, evidence=""):
        clubs = [m.value for m in mentions if m.label == "Club"]
        if clubs and not run.sub_questions and "club_members" in {t.name for t in tools}:
            return ToolCall("club_members", {"club": clubs[0]}), Usage()
        return super().route(question, mentions, tools, run, context, evidence)


def test_a_part_answered_along_a_shorter_chain_is_asked_again(college_db):
    from course.agents.agentic import AgenticAgent

    agent = AgenticAgent(college_db, OfflineLLM(), roles=ShortcutRoles())
    result = agent.answer("Who are the friends of the president of the Robotics Club?")
    shortcut = result.sub_questions[0]
    assert shortcut.tool == "club_members" and not shortcut.found   # the critic caught it
    assert "friends" in result.critic[0].missing[0] or not result.critic[0].complete
    reference = ("MATCH (p:Student)-[m:MEMBER_OF]->(:Club {name: 'Robotics Club'}) "
                 "WHERE m.role = 'President' MATCH (p)-[:FRIENDS_WITH]-(f:Student) "
                 "RETURN DISTINCT f.name")
    assert_answered_with(result, college_db, reference)


def test_the_critic_names_the_link_a_query_skips():
    from course.llm.offline.roles.critic import RuleCritic

    part = {"part": 0, "question": "Who are Sneha's friends' clubs?", "tool": "student_profile",
            "rewritten": "Which clubs are Sneha's friends in?", "arguments": {"student": "Sneha"},
            "rows": [["Debate Society"]], "found": True, "status": "answered",
            "asked": [["Student", "Sneha"]], "follows": ["MEMBER_OF"]}
    review = RuleCritic().review(part["rewritten"], [], [part])
    assert review.ungrounded == {0: "friends"} and not review.complete
    assert review.missing == [part["rewritten"]]


def test_that_person_stands_for_the_person_found(college_db, learner):
    result = learner.answer("Who knows React at an advanced level, and which club is that person in?")
    clubs = "MATCH (:Student {name: 'Sneha'})-[:MEMBER_OF]->(c:Club) RETURN c.name"
    assert result.status == "answered" and every_part_found(result), result.answer
    assert any(same_rows(rows, rows_of(college_db, clubs)) for rows in parts_rows(result))


# --- chains composed from the schema: any two links it allows, the words naming both ------------

@pytest.mark.parametrize("question, reference", [
    ("Which skills do the projects Rahul works on need?",      # "projects" is no second hop
     "MATCH (:Student {name: 'Rahul'})-[:WORKS_ON]->(:Project)-[:REQUIRES]->(k:Skill) "
     "RETURN DISTINCT k.name"),
    ("Which skills are needed for the projects Sneha is part of?",
     "MATCH (:Student {name: 'Sneha'})-[:WORKS_ON]->(:Project)-[:REQUIRES]->(k:Skill) "
     "RETURN DISTINCT k.name"),
    ("Which topics are covered in the subject that must be done before Computer Networks?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) "
     "MATCH (s)-[:COVERS]->(c:Concept) RETURN DISTINCT c.name"),
    ("Rahul ke doston ke projects kaunse hain?",
     "MATCH (:Student {name: 'Rahul'})-[:FRIENDS_WITH]-(:Student)-[:WORKS_ON]->(p:Project) "
     "RETURN DISTINCT p.name"),
], ids=["projects-he-works-on", "projects-she-is-part-of", "subject-done-before", "doston-ke-projects"])
def test_a_chain_the_schema_allows_is_composed(college_db, chat, question, reference):
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


def test_a_property_of_the_second_link_of_a_chain(college_db, chat):
    """"the grade Sneha's friend got in DBMS": the friend hop, then the grade on STUDIES."""
    result = chat.answer("What grade did Sneha's friend get in DBMS?")
    reference = ("MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(f:Student)-[e:STUDIES]->"
                 "(:Subject {name: 'DBMS'}) RETURN f.name, e.grade")
    assert_answered_with(result, college_db, reference)


# --- aggregates over a relationship or a property, composed from the schema ---------------------

@pytest.mark.parametrize("question, reference", [
    ("Which concept has the most subtopics?",       # was: the concepts the most students study
     "MATCH (c:Concept)-[:INCLUDES]->(d:Concept) WITH c, count(d) AS n "
     "WITH max(n) AS top MATCH (c:Concept)-[:INCLUDES]->(d:Concept) WITH c, count(d) AS n, top "
     "WHERE n = top RETURN c.name, n"),
    ("Which concept is divided into the fewest sub-topics?",
     "MATCH (c:Concept)-[:INCLUDES]->(d:Concept) WITH c, count(d) AS n "
     "WITH min(n) AS top MATCH (c:Concept)-[:INCLUDES]->(d:Concept) WITH c, count(d) AS n, top "
     "WHERE n = top RETURN c.name, n"),
    ("What is the total number of credits across all subjects?",
     "MATCH (s:Subject) RETURN sum(s.credits)"),
], ids=["most-subtopics", "fewest-sub-topics", "total-across"])
def test_an_aggregate_over_a_link_of_a_label_to_itself(college_db, chat, question, reference):
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("DSA lene se pehle kaunsa subject karna padega?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'DSA'}) RETURN s.name"),
    ("Attendance Tracker ka status kya chal raha hai abhi?",
     "MATCH (p:Project {name: 'Attendance Tracker'}) RETURN p.name, p.status"),
], ids=["lene-se-pehle", "chal-raha"])
def test_hinglish_words_that_carry_no_link(college_db, chat, question, reference):
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


# --- multi-part: a later part's plain plural pronoun stands for every value found ----------------

@pytest.mark.parametrize("question, second", [
    ("Who studies DBMS and which clubs are they in?",            # was: Payal's clubs alone
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DBMS'}) MATCH (s)-[:MEMBER_OF]->(c:Club) "
     "RETURN s.name, c.name"),
    ("Which skills does the Campus Chatbot need, and who has them?",   # was: who works on it
     "MATCH (:Project {name: 'Campus Chatbot'})-[:REQUIRES]->(k:Skill)<-[:HAS_SKILL]-(s:Student) "
     "RETURN k.name, s.name"),
    ("Who is in the Debate Society, and what are their branches?",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN s.name, s.branch"),
    ("What clubs is Aarav in and when did he join them?",        # was: "when did Aarav join Aarav?"
     "MATCH (:Student {name: 'Aarav'})-[m:MEMBER_OF]->(:Club) RETURN m.since"),
    ("What clubs is Payal in and when did she join both of them?",   # "she" too, not left as is
     "MATCH (:Student {name: 'Payal'})-[m:MEMBER_OF]->(c:Club) RETURN c.name, m.since"),
], ids=["they", "them-skills", "their", "he-them", "she-both"])
def test_a_plural_pronoun_in_a_later_part_stands_for_every_value(college_db, learner, question,
                                                                 second):
    result = learner.answer(question)
    assert result.status == "answered" and every_part_found(result), result.answer
    assert same_rows(parts_rows(result)[-1], rows_of(college_db, second)), result.answer


@pytest.mark.parametrize("question, parts", [
    ("Tell me Sneha's year, the project she works on, and who her friends are.", [
        "MATCH (s:Student {name: 'Sneha'}) RETURN s.name, s.year",
        "MATCH (:Student {name: 'Sneha'})-[:WORKS_ON]->(p:Project) RETURN p.name",
        "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(f:Student) RETURN f.name"]),
    ("Show me Rahul's branch, the club he's in and his skills", [
        "MATCH (s:Student {name: 'Rahul'}) RETURN s.name, s.branch",
        "MATCH (:Student {name: 'Rahul'})-[:MEMBER_OF]->(c:Club) RETURN c.name",
        "MATCH (:Student {name: 'Rahul'})-[:HAS_SKILL]->(k:Skill) RETURN k.name"]),
], ids=["tell-me-three", "show-me-three"])
def test_a_list_of_things_about_one_name_is_answered_part_by_part(college_db, learner, question,
                                                                   parts):
    result = learner.answer(question)
    assert result.status == "answered" and every_part_found(result), result.answer
    found = parts_rows(result)
    assert len(found) == len(parts), result.answer
    for rows, reference in zip(found, parts):
        assert same_rows(rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, second", [
    ("Which subject comes after Operating Systems, and who studies it?",   # "it": the one found
     "MATCH (:Subject {name: 'Operating Systems'})-[:PREREQUISITE_FOR]->(:Subject)<-[:STUDIES]-"
     "(s:Student) RETURN s.name"),
    ("Who is the third-year student in ECE, what skills do they have, and who are their friends?",
     "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(f:Student) RETURN f.name"),
], ids=["it-the-subject-found", "their-the-person-asked-about"])
def test_a_pointer_stands_for_what_the_part_before_was_about(college_db, learner, question, second):
    result = learner.answer(question)
    assert result.status == "answered" and every_part_found(result), result.answer
    assert same_rows(parts_rows(result)[-1], rows_of(college_db, second)), result.answer


def test_a_property_of_a_link_in_a_chain_says_whose_it_is(college_db, chat):
    result = chat.answer("What grades did Payal's friends get, subject by subject?")
    reference = ("MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(f:Student)-[r:STUDIES]->"
                 "(x:Subject) RETURN f.name, x.name, r.grade")
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Who are the friends of the people who know Docker?",     # was: who knows Docker
     "MATCH (:Skill {name: 'Docker'})<-[:HAS_SKILL]-(p:Student)-[:FRIENDS_WITH]-(f:Student) "
     "RETURN DISTINCT f.name"),
    ("Name the friends of the students working on the Attendance Tracker.",
     "MATCH (:Project {name: 'Attendance Tracker'})<-[:WORKS_ON]-(p:Student)-[:FRIENDS_WITH]-"
     "(f:Student) RETURN DISTINCT f.name"),
], ids=["friends-of-the-people-who", "friends-of-the-students-working"])
def test_a_step_that_hangs_on_a_label_noun_is_followed(college_db, chat, question, reference):
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


# --- a value of a property said with "not" ------------------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Which projects are not completed yet?",
     "MATCH (p:Project) WHERE p.status <> 'Completed' RETURN p.name"),
    ("How many projects haven't been finished?",
     "MATCH (p:Project) WHERE p.status <> 'Completed' RETURN count(p)"),
    ("Which projects are finished?",
     "MATCH (p:Project) WHERE p.status = 'Completed' RETURN p.name"),
], ids=["not-completed", "how-many-not-finished", "finished"])
def test_a_value_said_in_other_words_or_with_not_is_a_filter(college_db, chat, question, reference):
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


def test_not_with_a_value_in_a_multi_part_question(college_db, learner):
    result = learner.answer("Which projects aren't done yet, and who works on each of them?")
    second = ("MATCH (p:Project) WHERE p.status <> 'Completed' MATCH (s:Student)-[:WORKS_ON]->(p) "
              "RETURN p.name, s.name")
    assert result.status == "answered" and every_part_found(result), result.answer
    assert same_rows(parts_rows(result)[-1], rows_of(college_db, second)), result.answer


def test_not_before_a_named_link_is_answered(college_db, chat):
    # ("Which students are not in any club?": nodes with no link of a kind; this: no link to
    # the one node named, `absent._not_linked_to`)
    assert_answered_with(chat.answer("Which students do not study DBMS?"), college_db,
                         "MATCH (s:Student) WHERE NOT (s)-[:STUDIES]->(:Subject {name: 'DBMS'}) RETURN s.name")


def test_not_elsewhere_is_still_refused(chat):
    assert chat.answer("Which students got no A in DBMS?").status == "out_of_scope"


@pytest.mark.parametrize("question", ["Is the Attendance Tracker done?",
                                      "Is the Campus Chatbot finished?"])
def test_a_yes_no_question_about_a_value_word_shows_the_value(college_db, chat, question):
    """"done" names a value of the status: the status answers it, no filter needed."""
    result = chat.answer(question)
    name = question.split("the ", 1)[1].rsplit(" ", 1)[0]
    assert_answered_with(result, college_db,
                         f"MATCH (p:Project {{name: '{name}'}}) RETURN p.name, p.status")


def test_a_node_between_two_names_is_read_from_each_names_side(college_db, chat):
    result = chat.answer("Which topics of Operating Systems come before Deadlocks?")
    reference = ("MATCH (:Subject {name: 'Operating Systems'})-[:COVERS]->(c:Concept)"
                 "-[:PREREQUISITE_FOR]->(:Concept {name: 'Deadlocks'}) RETURN c.name")
    assert rows_of(college_db, reference), "the reference finds something"
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Which of Payal's friends study Operating Systems?",    # was: friends of its students
     "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(f:Student)-[:STUDIES]->"
     "(:Subject {name: 'Operating Systems'}) RETURN f.name"),
    ("Which of Karan's friends know Python?",
     "MATCH (:Student {name: 'Karan'})-[:FRIENDS_WITH]-(f:Student)-[:HAS_SKILL]->"
     "(:Skill {name: 'Python'}) RETURN f.name"),
], ids=["payals-friends-os", "karans-friends-python"])
def test_a_step_named_for_one_name_is_not_taken_by_the_other(college_db, chat, question, reference):
    assert rows_of(college_db, reference), "the reference finds something"
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


# --- a direction word belongs to the link it names ----------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Which clubs are Rahul's friends part of?",
     "MATCH (:Student {name: 'Rahul'})-[:FRIENDS_WITH]-(:Student)-[:MEMBER_OF]->(c:Club) "
     "RETURN DISTINCT c.name"),
    ("Which projects are Rahul's friends part of?",
     "MATCH (:Student {name: 'Rahul'})-[:FRIENDS_WITH]-(:Student)-[:WORKS_ON]->(p:Project) "
     "RETURN DISTINCT p.name"),
], ids=["clubs", "projects"])
def test_a_direction_word_of_another_link_does_not_turn_a_friendship(college_db, chat, question,
                                                                      reference):
    """'part of' says which way a concept's parts go; a friend is a friend either way."""
    assert rows_of(college_db, reference)
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_direction_word_of_the_link_itself_still_counts(college_db, chat):
    result = chat.answer("Which subject comes before Operating Systems?")
    assert_answered_with(result, college_db,
                         "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) "
                         "RETURN s.name")


# --- an age word orders nodes along the property that dates them --------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Which club is the newest?",
     "MATCH (c:Club) WITH max(c.founded) AS top MATCH (c:Club) WHERE c.founded = top RETURN c.name"),
    ("Sabse purana club kaunsa hai?",
     "MATCH (c:Club) WITH min(c.founded) AS top MATCH (c:Club) WHERE c.founded = top RETURN c.name"),
], ids=["newest", "hinglish-oldest"])
def test_an_age_word_picks_the_node_its_dating_property_makes_extreme(college_db, chat, question,
                                                                      reference):
    """'oldest' names no property: the one a "when" asks for (a club's founding year) dates it."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Sort the clubs from newest to oldest.",
     "MATCH (c:Club) RETURN c.name, c.founded ORDER BY c.founded DESC"),
    ("List every club, earliest founded first.",
     "MATCH (c:Club) RETURN c.name, c.founded ORDER BY c.founded"),
], ids=["newest-to-oldest", "earliest-first"])
def test_an_ordered_list_along_a_dating_property(college_db, chat, question, reference):
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    assert same_rows(result.rows, rows_of(college_db, reference), ordered=True), result.rows


def test_an_age_word_with_no_dating_property_is_still_refused(chat):
    """A student has a year of study, not a birth date: "the oldest student" is not a guess."""
    assert chat.answer("Who is the oldest student?").status == "out_of_scope"


# --- a prerequisite said in other words -------------------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Which subject should I complete before beginning Computer Networks?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) RETURN s.name"),
    ("Computer Networks se pehle kaunsa subject karna hoga?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) RETURN s.name"),
    ("Computer Networks se pehle kaunsa subject padhna padega?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) RETURN s.name"),
    ("Which topic can I move on to once I've learned Threads?",
     "MATCH (:Concept {name: 'Threads'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
], ids=["complete-before-beginning", "hinglish-karna-hoga", "hinglish-padhna-padega",
        "move-on-once-learned"])
def test_a_prerequisite_in_other_words(college_db, chat, question, reference):
    assert rows_of(college_db, reference)
    assert_answered_with(chat.answer(question), college_db, reference)


# --- aggregates: the average per node, a count of nodes without a link ------------------------

@pytest.mark.parametrize("question, reference", [
    ("What is the average number of credits per subject?",
     "MATCH (s:Subject) RETURN avg(s.credits)"),
    ("How many concepts have no note explaining them?",
     "MATCH (c:Concept) WHERE NOT (c)<-[:EXPLAINS]-(:Note) RETURN count(c)"),
    ("Kitne topics ka koi note nahi hai?",
     "MATCH (c:Concept) WHERE NOT (c)<-[:EXPLAINS]-(:Note) RETURN count(c)"),
], ids=["average-per-subject", "count-without-note", "hinglish-count-without-note"])
def test_an_aggregate_said_in_other_words(college_db, chat, question, reference):
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_total_per_node_is_not_one_sum(chat):
    """"The total credits per subject" is each subject's own: never the sum over all."""
    result = chat.answer("What is the total credits per subject?")
    assert [15] not in [[v for v in row if isinstance(v, (int, float))] for row in result.rows]


def test_no_link_with_a_filter_it_would_drop_is_refused(chat):
    """A "no club" question that also names a branch is not answered without the branch."""
    assert chat.answer("Which students in CSE have no club?").status == "out_of_scope"


# --- a role that is a value of a link's property ------------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Who is the team lead on the Library Management System?",
     "MATCH (s:Student)-[w:WORKS_ON]->(:Project {name: 'Library Management System'}) "
     "WHERE w.role = 'Team Lead' RETURN s.name"),
    ("Who runs the Robotics Club as its president?",
     "MATCH (s:Student)-[m:MEMBER_OF]->(:Club {name: 'Robotics Club'}) "
     "WHERE m.role = 'President' RETURN s.name"),
], ids=["team-lead-of-a-project", "runs-as-president"])
def test_a_role_named_by_its_value_filters_the_link(college_db, chat, question, reference):
    assert rows_of(college_db, reference)
    assert_answered_with(chat.answer(question), college_db, reference)


def test_what_role_after_a_profile_asks_for_the_role(college_db, learner):
    learner.answer("Tell me about Sneha")
    result = learner.answer("What role does she have in her club?")
    reference = ("MATCH (:Student {name: 'Sneha'})-[m:MEMBER_OF]->(c:Club) "
                 "RETURN c.name, m.role")
    assert result.status == "answered", result.answer
    assert same_rows(result.rows, rows_of(college_db, reference)), result.answer


# --- multi-part halves: "if so", "among", a pronoun no one was named for ------------------------

@pytest.mark.parametrize("question, second", [
    ("Did anyone get an A+ in a subject? If so, what skills does that student have?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject) WHERE r.grade = 'A+' "
     "MATCH (s)-[:HAS_SKILL]->(k:Skill) RETURN DISTINCT k.name"),
    ("Which skill does the Attendance Tracker require, and who among the students knows it?",
     "MATCH (:Project {name: 'Attendance Tracker'})-[:REQUIRES]->(k:Skill)<-[:HAS_SKILL]-"
     "(s:Student) RETURN s.name"),
    ("Which students are in CSE, and who are they friends with?",    # two 'student' columns
     "MATCH (s:Student {branch: 'CSE'})-[:FRIENDS_WITH]-(f:Student) RETURN s.name, f.name"),
], ids=["if-so", "among-the-students", "they-friends-with"])
def test_a_second_part_in_other_words_is_answered(college_db, learner, question, second):
    assert rows_of(college_db, second)
    result = learner.answer(question)
    assert result.status == "answered" and every_part_found(result), result.answer
    assert same_rows(parts_rows(result)[-1], rows_of(college_db, second)), result.answer


def test_who_are_they_after_a_count_is_not_answered_from_a_note(learner):
    """A count names no one: "who are they?" then has no one to stand for, and a note (which
    holds no people) must not answer it."""
    result = learner.answer("How many students are from IT, and who are they?")
    assert not any(s.tool == "search_notes" and s.found for s in result.sub_questions), \
        result.answer


# --- a later part's "they" after a part a note answered ------------------------------------------

@pytest.mark.parametrize("question", [
    "What is a page fault, and what bugs do I risk when they happen often?",
    "How does DNS resolve a domain name, and how long do they stay cached?",
])
def test_they_after_a_note_answer_is_not_every_note_the_search_ranked(learner, question):
    """A note answer is one note: the other notes the search ranked below it are not what
    "they" stands for (it was rewritten as "each of" five concepts, most unrelated). The
    question may also be answered whole, from the one note its evidence points to."""
    result = learner.answer(question)
    rewritten = [s.rewritten for s in result.sub_questions]
    assert result.status == "answered", result.answer
    assert not any("each of" in text for text in rewritten), rewritten


# --- a later part that points back at parts that found nothing ---------------------------------

@pytest.mark.parametrize("question", [
    "Who won the cricket match yesterday, and how does it break a table into smaller ones?",
    "What is the capital of France? And what problem does that solve?",
])
def test_a_part_pointing_back_at_nothing_found_is_not_answered(learner, question):
    """"it", "that" in a later part stand for what an earlier part found; when the parts before
    found nothing, the part is said to be unanswered, never answered about something else (the
    cricket match's "it" was answered from the normalisation note)."""
    result = learner.answer(question)
    later = [s for s in learner.last.sub_questions if s.part > 0]
    assert later and not any(s.found for s in later), result.answer
    assert all("points back" in s.answer for s in later) and result.status == "out_of_scope"


def test_a_part_pointing_back_at_a_part_that_found_something_is_still_answered(college_db, learner):
    result = learner.answer("Who is the president of the Debate Society, and what does she study?")
    reference = ("MATCH (:Club {name: 'Debate Society'})<-[:MEMBER_OF {role: 'President'}]-(s:Student)"
                 "-[:STUDIES]->(x:Subject) RETURN x.name")
    assert result.status == "answered" and same_rows(learner.last.sub_questions[-1].rows,
                                                     rows_of(college_db, reference))


# --- a clause that sets the scene is not a question of its own --------------------------------

@pytest.mark.parametrize("question, parts", [
    ("When my phone runs out of RAM, what does the operating system do with the pages?", 1),
    ("When two programs wait on each other, why can neither of them continue?", 1),
    ("Jab main DBMS padhta hoon, normalization kyun zaroori hai?", 1),
    ("When was the Robotics Club founded, and who is its president?", 2),
    ("When did Payal join the Coding Club, and what does she study?", 2),
])
def test_a_when_clause_before_the_question_is_not_split_off(question, parts):
    """"When I type a site's name, how does my computer find its address?" was split at the
    comma: the first half refused as a question of its own, the second, without it, answered from
    another note. "When" asks only when a verb comes next ("When was ...", "When did ...")."""
    from course.llm.offline.roles.updater import RuleUpdater
    assert len(RuleUpdater().split(question)) == parts


# --- a level named in a "who is good at" question filters -------------------------------------

@pytest.mark.parametrize("question, skill, answered", [
    ("Who's really good at Python, like at an advanced level?", "Python", True),
    # not followed by the rules ("I mean"): refused, never ranked
    ("Who knows Machine Learning well, advanced level I mean?", "Machine Learning", False),
])
def test_a_named_level_filters_instead_of_ranking(college_db, chat, question, skill, answered):
    """"Who's good at X" is a ranking, best first; a level the question names is a filter ("like
    advanced level" was answered with the intermediate ones listed second)."""
    reference = ("MATCH (s:Student)-[h:HAS_SKILL]->(:Skill {name: $skill}) "
                 "WHERE h.level = 'Advanced' RETURN s.name")
    result = chat.answer(question)
    assert (result.status == "answered") == answered, result.answer
    if answered:
        assert same_rows(result.rows, college_db.run(reference, {"skill": skill}).rows)


def test_an_article_is_not_the_grade_a(college_db, chat):
    """"a good person" named the grade A, so the ranking stood aside and every DBMS student was
    listed unranked."""
    result = chat.answer("Who is a good person to learn DBMS from?")
    assert result.cypher and "ORDER BY" in result.cypher, result.cypher


# --- a later part about what the part before found: a count, "those skills", "that one" ---------

@pytest.mark.parametrize("question, listed", [
    ("Which concepts does DSA cover, and how many is that?",
     "MATCH (:Subject {name: 'DSA'})-[:COVERS]->(c:Concept) RETURN c.name"),
    ("Who studies DBMS? How many are there altogether?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DBMS'}) RETURN s.name"),
    ("Operating Systems mein kaunse concepts aate hain, aur kitne hain?",
     "MATCH (:Subject {name: 'Operating Systems'})-[:COVERS]->(c:Concept) RETURN c.name"),
])
def test_how_many_naming_nothing_of_its_own_counts_what_the_part_before_found(college_db, learner,
                                                                             question, listed):
    """"how many are there?" after a list counts the list (it was answered from a note
    about arrays: the search's best note for words that name nothing)."""
    count = len(rows_of(college_db, listed))
    assert count > 1
    result = learner.answer(question)
    second = [s for s in learner.last.sub_questions if s.part == 1 and s.found]
    assert second and second[-1].rows == [[count]] and second[-1].tool != "search_notes", \
        result.answer


@pytest.mark.parametrize("question, values", [
    ("Which skills does the Campus Chatbot need, and who has those skills?",
     ["Machine Learning", "Docker"]),
    ("What do I have to know before Deadlocks, and which subject covers these concepts?",
     ["Processes", "Threads"]),
])
def test_those_and_a_plural_noun_stand_for_every_value_found(learner, question, values):
    """"those skills" is every skill the part before found, not the first of them."""
    learner.answer(question)
    later = [s.rewritten for s in learner.last.sub_questions if s.part == 1]
    assert later and all(v in later[0] for v in values), later


@pytest.mark.parametrize("question, reference", [
    ("What do I need before 3NF, and what comes before that one?",
     "MATCH (p:Concept)-[:PREREQUISITE_FOR]->(:Concept)-[:PREREQUISITE_FOR]->"
     "(:Concept {name: '3NF'}) RETURN p.name"),
    ("Which concept includes BFS, and which subject covers that one?",
     "MATCH (c:Concept)-[:INCLUDES]->(:Concept {name: 'BFS'}) "
     "MATCH (s:Subject)-[:COVERS]->(c) RETURN s.name"),
])
def test_that_one_stands_for_the_value_found(college_db, learner, question, reference):
    result = learner.answer(question)
    last_part_is(college_db, result, reference)


@pytest.mark.parametrize("question", [
    "Which concepts come under Operating Systems?",
    "Operating Systems mein kaunse concepts aate hain?",
    "What topics fall under Computer Networks?",
])
def test_a_link_named_only_by_its_noun_is_not_a_chain_with_the_verb(college_db, chat, question):
    """"concepts come under a subject" are the concepts it covers: "come under" names no second
    link (the query went through a concept's parts and left out the subject's own concepts)."""
    subject = "Computer Networks" if "Networks" in question else "Operating Systems"
    result = chat.answer(question)
    assert_answered_with(result, college_db, f"MATCH (:Subject {{name: '{subject}'}})"
                                              "-[:COVERS]->(c:Concept) RETURN c.name")


@pytest.mark.parametrize("question", [
    "When two transactions update the same row at once, how does the database keep it right?",
    "If I put an index on a column, why do the inserts get slower?",
])
def test_a_question_asking_why_or_how_about_a_change_is_not_a_request_to_change(learner, question):
    """A verb of change in a question that asks why or how is what it asks about, not a
    request: it was refused as a write ("I cannot change the data")."""
    result = learner.answer(question)
    assert result.status != "blocked", result.answer
    assert any(s.tool == "search_notes" and s.found for s in learner.last.sub_questions), \
        result.answer


# --- a question about a topic the notes do not explain ------------------------------------------

@pytest.mark.parametrize("question", [
    "What does a compiler do before my program runs?",
    "Why does my program crash with a segfault when I use memory after freeing it?",
    "How does git keep track of the changes in my project?",
])
def test_a_topic_no_note_explains_is_not_answered_from_the_nearest_note(learner, question):
    """The nearest note is only the least far: "a compiler" was answered from the note on
    depth-first search (its score cleared the evidence bar)."""
    result = learner.answer(question)
    assert not any(s.tool == "search_notes" and s.found for s in learner.last.sub_questions), \
        result.answer


@pytest.mark.parametrize("question", [
    "Two processes are stuck forever, each waiting for something the other one is holding. "
    "What's going on and how does the OS deal with it?",
    "My prof said 4 things all have to be true at once for processes to get stuck waiting on "
    "each other forever. What are they and how does the OS deal with it?",
])
def test_a_note_the_second_encoder_does_not_prefer_needs_a_larger_lead(learner, question):
    """A deadlock in a learner's words names processes: MiniLM put the note on processes first
    (14 % ahead, the bar asks 13 %) and it was the answer, wrong. WordLlama prefers the deadlock
    note, so the note on processes needs a larger lead and is not the answer."""
    result = learner.answer(question)
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert "N16" not in notes and "N16" not in [r[0] for r in result.rows[:1]], result.answer


@pytest.mark.parametrize("question, note", [
    ("which graph search gives u the shortest route when edges dont have weights, and does it "
     "use a queue or stack?", "N13"),
    ("when does a binary search tree get as slow as just walking a list?", "N11"),
    ("how does the database decide which order to join tables in, and how can i see what plan "
     "it picked?", "N07"),
    ("which traversal goes as deep as possible then backtracks?", "N14"),
])
def test_a_topic_only_one_encoder_finds_closer_leaves_the_note_its_answer(learner, question, note):
    """MiniLM put "Dijkstra's algorithm ..." (a topic the notes do not explain) nearer "the
    shortest route when edges don't have weights" than the note on BFS, which answers it, and
    the question was refused; WordLlama puts the note nearer. A topic must be the closer one
    for both encoders to take the note's place. (A second part the same note answers, "how can i
    see what plan it picked?", may be answered from it too.)"""
    result = learner.answer(question)
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes[:1] == [note] and set(notes) == {note}, result.answer


def test_the_second_encoder_agrees_on_a_note_question_it_answers(college_db):
    """The second opinion asks no more, and less, of a note both encoders put first."""
    from course.retrieval.second_opinion import margin_needed, second_choice
    from course.retrieval.text_layer import ensure_text_layer

    ensure_text_layer(college_db)
    question = "How do I decide which rows of a table should get an index?"
    assert second_choice(college_db, question) == "N06"
    assert margin_needed(college_db, question, "N06", 0.13) < 0.13
    assert margin_needed(college_db, question, "N07", 0.13) > 0.13


def test_a_topic_a_note_of_the_graph_explains_is_the_notes_own(college_db):
    """A learner who adds a note on a topic of the list gets it answered from that note: the
    topic leaves the list when a chunk of the graph explains it."""
    from course.retrieval.embeddings import make_embedder
    from course.retrieval.other_topics import other_topics, uncovered
    from course.retrieval.text_layer import build_text_layer

    embedder = make_embedder("minilm")
    before, _ = uncovered(college_db, embedder)
    assert len(before) == len(other_topics())
    college_db.query("CREATE (:Note {id: 'N99', text: $text})", {"text": other_topics()[0]})
    build_text_layer(college_db, embedder)            # its chunks, as ingestion writes them
    after, _ = uncovered(college_db, embedder)
    assert other_topics()[0] not in after and len(after) == len(before) - 1


# --- a choice among what was found: "who among them", "which of them", "unmein se kaun" ---------

@pytest.mark.parametrize("question, reference", [
    ("Who works on the Campus Chatbot, and who among them knows Docker?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) "
     "MATCH (s)-[:HAS_SKILL]->(:Skill {name: 'Docker'}) RETURN s.name"),
    ("Which students are in CSE, and which of them are in the Debate Society?",
     "MATCH (s:Student {branch: 'CSE'})-[:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN s.name"),
    ("Python kaun jaanta hai, aur unmein se kaun year 3 mein hai?",
     "MATCH (s:Student {year: 3})-[:HAS_SKILL]->(:Skill {name: 'Python'}) RETURN s.name"),
])
def test_which_of_them_chooses_among_what_the_part_before_found(college_db, learner, question,
                                                                reference):
    """"who among them knows Docker?" is which of the people found know it: it was read as
    "each of them" and as someone who is a friend of both, and answered "I found nothing"."""
    result = learner.answer(question)
    last_part_is(college_db, result, reference)


@pytest.mark.parametrize("question, reference", [
    ("who among Karan and Rahul knows Docker?",
     "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Docker'}) "
     "WHERE s.name IN ['Karan', 'Rahul'] RETURN s.name"),
    ("Which of Aarav and Sneha are in the Coding Club?",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Coding Club'}) "
     "WHERE s.name IN ['Aarav', 'Sneha'] RETURN s.name"),
])
def test_a_choice_among_named_people_filters_them(college_db, chat, question, reference):
    assert_answered_with(chat.answer(question), college_db, reference)


# --- "it" is a thing, "she" a person, "there" a place ---------------------------------------

@pytest.mark.parametrize("question, reference", [
    # "it" was read as the person the part before named: "which semester did Payal take Payal in?"
    ("Which grade did Payal get in DSA, and in which semester did she take it?",
     "MATCH (:Student {name: 'Payal'})-[r:STUDIES]->(:Subject {name: 'DSA'}) RETURN r.semester"),
    # "there" was left as it is: her role in every club she is in
    ("Since when is Sneha in the Debate Society, and what is her role there?",
     "MATCH (:Student {name: 'Sneha'})-[m:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN m.role"),
    ("Karan kis club mein hai, aur wahan uska role kya hai?",
     "MATCH (:Student {name: 'Karan'})-[m:MEMBER_OF]->(:Club) RETURN m.role"),
])
def test_it_stands_for_a_thing_and_there_for_a_place(college_db, learner, question, reference):
    result = learner.answer(question)
    last_part_is(college_db, result, reference)


def test_there_that_says_something_exists_points_nowhere():
    from course.llm.offline.lexicon import default_lexicon
    from course.llm.offline.roles.updater import RuleUpdater

    found = [("Which club is Asha in?", [(default_lexicon().person, "Asha")], [("Club", "Chess")])]
    assert RuleUpdater().rewrite("is there anyone else?", found) == "is there anyone else?"
    assert RuleUpdater().rewrite("who else is there?", found) == "who besides Asha is in Chess?"


# --- Hinglish "kab" asks when; "hui", "kiya" are verbs' endings, no unknown words ----------------

@pytest.mark.parametrize("question, reference", [
    ("Robotics Club kab start hua tha?", "MATCH (c:Club {name: 'Robotics Club'}) RETURN c.founded"),
    ("Rahul ne Robotics Club kab join kiya?",
     "MATCH (:Student {name: 'Rahul'})-[m:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN m.since"),
])
def test_kab_asks_when(college_db, question, reference):
    result = Agent(college_db, OfflineLLM()).answer(question)
    assert result.status == "answered", result.answer
    assert same_rows([row[-1:] for row in result.rows], rows_of(college_db, reference)), result.rows


def test_kab_in_the_first_part_and_uska_in_the_second(college_db, learner):
    """unseen8's u004 (a development set now): refused whole, for "hui"."""
    result = learner.answer("Debate Society kab start hui thi aur uska president kaun hai?")
    assert result.status == "answered" and every_part_found(result), result.answer
    assert same_rows(parts_rows(result)[0], [[2012]]), result.answer
    assert same_rows(parts_rows(result)[-1], [["Sneha"]]), result.answer


# --- "them" after a count: the things counted, never the one value the count named ----------------

def test_them_after_a_count_is_not_the_value_it_named(learner):
    """"which of them" was rewritten "which of Python are beginners?" and answered with
    Python: a part answered about something the question did not ask."""
    result = learner.answer("How many students know Python, and which of them are beginners?")
    later = [s for s in result.sub_questions if s.part > 0]
    named = [m.value for m in result.mentions]
    assert later and not any(re.search(rf"\b(?:of|among) {v}\b", s.rewritten) for s in later for v in named), \
        [s.rewritten for s in later]


# --- "its status", "uska status": the thing that has a status, not the person asked about ---------

@pytest.mark.parametrize("question, reference", [
    ("Aarav kis project pe kaam karta hai aur uska status kya hai?",
     "MATCH (:Student {name: 'Aarav'})-[:WORKS_ON]->(p:Project) RETURN p.status"),
])
def test_a_possessive_before_a_property_is_what_has_it(college_db, learner, question, reference):
    """"uska status" was read as Aarav's (the person the part named), and refused."""
    result = learner.answer(question)
    assert result.status == "answered" and every_part_found(result), result.answer
    got = [row[-1:] for row in parts_rows(result)[-1]]
    assert same_rows(got, rows_of(college_db, reference)), result.answer


# --- "lead to" is a link, not a leader; two words for one link side by side name it once -----------

@pytest.mark.parametrize("question, reference", [
    # "lead" read as a club's leader (its President), which the query then lacked: refused
    ("Which subject does DSA lead to?",
     "MATCH (:Subject {name: 'DSA'})-[:PREREQUISITE_FOR]->(s:Subject) RETURN s.name"),
    # "lead to" and "after" counted as two links: two hops, and "I found nothing"
    ("What does Operating Systems lead to after?",
     "MATCH (:Subject {name: 'Operating Systems'})-[:PREREQUISITE_FOR]->(s:Subject) RETURN s.name"),
])
def test_lead_to_is_what_comes_next(college_db, question, reference):
    result = Agent(college_db, OfflineLLM()).answer(question)
    assert result.status == "answered", result.answer
    assert same_rows(result.rows, rows_of(college_db, reference)), result.rows


# --- "both of them": the value found and the value named, together -------------------------------

def test_both_of_them_is_the_value_found_and_the_one_named(college_db, learner):
    """"both of them" after one value found was rewritten "both of DSA": the students of one
    subject, answered as the students of both."""
    result = learner.answer("What comes right before Computer Networks, and who studies both of them?")
    assert result.status == "answered" and every_part_found(result), result.answer
    reference = ("MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'Operating Systems'}) "
                 "MATCH (s)-[:STUDIES]->(:Subject {name: 'Computer Networks'}) RETURN s.name")
    assert same_rows(parts_rows(result)[-1], rows_of(college_db, reference)), result.answer


# --- a property of the link the part before took is asked at the value it named ------------------

@pytest.mark.parametrize("question, reference", [
    ("Who studies Operating Systems, and what grades did they get?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'Operating Systems'}) RETURN s.name, r.grade"),
    ("Computer Networks kaun padhta hai aur unke semester kya hain?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'Computer Networks'}) RETURN s.name, r.semester"),
])
def test_their_grades_after_who_studies_x_are_their_grades_in_x(college_db, learner, question, reference):
    """"their grades" was every grade of each student, in every subject they take."""
    result = learner.answer(question)
    last_part_is(college_db, result, reference)


def test_a_part_that_names_its_own_scope_keeps_it(college_db, learner):
    """"in DSA" is the part's own: "in DBMS" was added after it, and the part refused."""
    result = learner.answer("Who studies DBMS, and what grades did they get in DSA?")
    reference = ("MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DBMS'}) "
                 "MATCH (s)-[r:STUDIES]->(:Subject {name: 'DSA'}) RETURN s.name, r.grade")
    last_part_is(college_db, result, reference)


# --- "its" after a noun of the question; a longer word is no typo; words pointing both ways ----

@pytest.mark.parametrize("question, reference", [
    ("Which subject covers the most concepts as its topics?",
     "MATCH (s:Subject)-[:COVERS]->(c:Concept) WITH s, count(c) AS n WITH max(n) AS top "
     "MATCH (s:Subject)-[:COVERS]->(c:Concept) WITH s, count(c) AS n, top WHERE n = top RETURN s.name, n"),
    ("Which club has the most members in its ranks?",
     "MATCH (k:Club)<-[:MEMBER_OF]-(s:Student) WITH k, count(s) AS n WITH max(n) AS top "
     "MATCH (k:Club)<-[:MEMBER_OF]-(s:Student) WITH k, count(s) AS n, top WHERE n = top RETURN k.name, n"),
])
def test_its_after_a_noun_of_the_question_is_that_nodes_own(chat, college_db, question, reference):
    """"its" with a noun of a thing before it and no name between points inside the question
    (unseen9's "Which topic includes the most other topics as its parts?" was refused)."""
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    assert same_rows(result.rows, rows_of(college_db, reference))


def test_its_in_a_follow_up_still_points_at_the_conversation(chat, college_db):
    chat.answer("Tell me about the Robotics Club")
    result = chat.answer("who are its members?")
    reference = "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN s.name"
    assert same_rows(result.rows, rows_of(college_db, reference))


def test_a_word_longer_than_a_known_word_by_a_prefix_is_not_its_typo(chat):
    """"subconcepts" was corrected to "concepts", and "the concept with the most concepts" was
    answered with the concepts the most students study: confidently wrong."""
    result = chat.answer("Which concept has the most subconcepts?")
    assert result.status == "out_of_scope", result.answer


def test_words_that_point_both_ways_along_a_link_are_not_followed_one_way(chat):
    """"subtopics" are what a concept includes, "under" what includes it: the count went the
    way "under" says (each concept's one parent), a wrong answer. No direction can be trusted."""
    result = chat.answer("Which concept has the most subtopics under its name?")
    assert result.status == "out_of_scope", result.answer


@pytest.mark.parametrize("question, reference", [
    ("What topics come under TCP/IP, and what should I learn before it?",
     "MATCH (p:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'TCP/IP'}) RETURN p.name"),
    ("Which concepts does DSA cover? What comes after it?",
     "MATCH (:Subject {name: 'DSA'})-[:PREREQUISITE_FOR]->(s:Subject) RETURN s.name"),
])
def test_it_after_a_part_that_found_several_is_the_one_that_part_named(learner, college_db, question, reference):
    """"it" is one thing: after a part that found several it is the value that part named, not
    the first value found ("what should I learn before DFS?" found nothing: a claim, and wrong)."""
    learner.answer(question)
    assert same_rows(parts_rows(learner.last)[-1], rows_of(college_db, reference)), learner.last.answer


def test_unmein_in_a_later_part_is_every_value_the_part_before_found(learner, college_db):
    """"unme", "unmein" ("in them") point at several, as "they" and "unke" do: it was the first
    subject found, and the grades of one subject were the answer for all."""
    learner.answer("Karan kaun se subjects padhta hai aur unmein uska grade kya hai?")
    reference = "MATCH (:Student {name: 'Karan'})-[r:STUDIES]->(s:Subject) RETURN s.name, r.grade"
    assert same_rows(parts_rows(learner.last)[-1], rows_of(college_db, reference)), learner.last.answer


@pytest.mark.parametrize("question, reference", [
    ("What is Karan's year of study?", "MATCH (s:Student {name: 'Karan'}) RETURN s.name, s.year"),
    ("Which students are in their third year of study?", "MATCH (s:Student {year: 3}) RETURN s.name"),
])
def test_year_of_study_is_the_students_year(chat, college_db, question, reference):
    """"year of study" names a student's year, not the subjects studied (unseen9's "average year
    of study of IT students" was refused)."""
    result = chat.answer(question)
    assert same_rows(result.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question", [
    "Searching one column of a huge table is slow because every row gets read. What can I add so "
    "lookups are fast?",
    "What can I add to a table so finding rows by a column does not scan the whole table?",
])
def test_what_can_i_add_asks_for_knowledge_not_a_change(learner, question):
    """"What can I add ...", naming nothing the graph holds, asks what to do, not to change the
    graph's data: it was refused as a write ("I cannot change the data"), its note never asked."""
    result = learner.answer(question)
    assert result.status != "blocked", result.answer
    assert result.status != "answered" or result.rows[0][0] == "N06", result.answer


def test_a_request_to_add_to_the_graph_is_still_blocked(learner):
    assert learner.answer("Add Sneha to the Robotics Club as a member.").status == "blocked"


@pytest.mark.parametrize("question", [
    "How do I take a lock in one thread and release it safely in another?",
    "If a table has a composite key and a column depends on only one of them, is that a problem?",
])
def test_it_in_a_clause_after_another_of_the_same_question_asks_no_one(question):
    """A clause joined by "and", or opened by "if", may hold what "it" or "them" points at: the
    learner named it, and "Who do you mean by "it"? Name them in the question" told them to."""
    from course.pipeline.refusal import refusal

    assert refusal(question, [], language="en", context="") is None


def test_sabse_kam_grade_is_the_lowest_grade(chat, college_db):
    """"sabse kam" is "the least", as "lowest" is: the question was read without it, and every
    student of the subject came back best first."""
    result = chat.answer("DBMS mein sabse kam grade kiska hai?")
    lowest = rows_of(college_db, "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DBMS'}) "
                                 "WITH s, r ORDER BY CASE r.grade WHEN 'A+' THEN 0 WHEN 'A' THEN 1 "
                                 "WHEN 'B+' THEN 2 WHEN 'B' THEN 3 ELSE 4 END DESC LIMIT 1 RETURN s.name")
    assert result.rows and [result.rows[0][0]] in lowest, result.answer


@pytest.mark.parametrize("question, reference", [
    ("Any idea who works on the Attendance Tracker?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Attendance Tracker'}) RETURN s.name"),
    ("Rahul ke friends kaun hain yaar?",
     "MATCH (:Student {name: 'Rahul'})-[:FRIENDS_WITH]-(f:Student) RETURN DISTINCT f.name"),
])
def test_a_word_that_means_nothing_here_does_not_refuse_the_question(learner, college_db, question, reference):
    """"idea", "yaar", "already": a word the rules do not know, whose removal leaves the
    sentence as it was (`course.retrieval.filler`), no longer refuses the question."""
    result = learner.answer(question)
    assert same_rows(result.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question", ["What is Payal's favourite club?",
                                      "Which students were born in Delhi?"])
def test_a_word_that_carries_what_is_asked_still_refuses(learner, question):
    assert learner.answer(question).status == "out_of_scope"


def test_the_filler_rule_drops_no_meaning_bearing_word_of_the_calibration_set(college_db):
    """No meaning-bearing word of data/eval/filler_words.jsonl (one word, or several) is dropped:
    the similarity bar and the guards keep each of them."""
    import json

    from course.foundation.config import PROJECT_ROOT
    from course.retrieval.filler import filler_dropper

    drop = filler_dropper(college_db)
    lines = (PROJECT_ROOT / "data" / "eval" / "filler_words.jsonl").read_text().splitlines()
    meaning = [line["question"] for line in map(json.loads, lines) if not line["filler"]]
    assert len(meaning) >= 20 and [q for q in meaning if drop(q) is not None] == []


@pytest.mark.parametrize("question, reference", [
    ("Which courses teach the topics I should study before Transactions?",
     "MATCH (s:Subject)-[:COVERS]->(:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Transactions'}) "
     "RETURN DISTINCT s.name"),
    ("What subjects cover the topics we need before Routing?",
     "MATCH (s:Subject)-[:COVERS]->(:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Routing'}) "
     "RETURN DISTINCT s.name"),
])
def test_a_link_word_after_the_learners_clause_is_still_the_graphs(chat, college_db, question, reference):
    """"before" in "the concepts I have to learn before X" links two concepts, not the learner
    to anything: the learner's clause excuses only a link a person can be on. It was dropped,
    and the subjects covering X itself came back (unseen10's w046, confidently wrong)."""
    result = chat.answer(question)
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), \
        result.answer


@pytest.mark.parametrize("question", [
    "Has anybody got a B+ in some subject? Who, and which one?",
    "Is any club older than 2016? Which, and when was it founded?",
])
def test_a_part_that_names_nothing_belongs_to_the_sentence_before_it(question):
    """"Who, and in which one?" names nothing of its own: it asks more of the sentence before,
    and is not split off into parts asked alone ("in which one?" was answered from a note on
    graph search, unseen10's w011)."""
    from course.llm.offline.roles.updater import RuleUpdater

    parts = RuleUpdater().split(question)
    assert all(any(w.isalpha() and len(w) > 3 for w in p.split()) for p in parts), parts
    assert not any(p.strip("?").lower() in {"who", "which", "which one", "in which one"} for p in parts), parts


@pytest.mark.parametrize("question", ["in which one?", "Why, and how?", "And which one, and when?"])
def test_a_question_that_names_nothing_is_no_note_question(college_db, question):
    from course.agents.named_in_notes import note_question

    assert not note_question(college_db, question)


@pytest.mark.parametrize("question, reference", [
    ("Which clubs is Payal in, and what role does she have in each?",
     "MATCH (:Student {name: 'Payal'})-[r:MEMBER_OF]->(c:Club) RETURN c.name, r.role"),
    ("Karan has which skills? How good is he at each?",
     "MATCH (:Student {name: 'Karan'})-[r:HAS_SKILL]->(k:Skill) RETURN k.name, r.level"),
])
def test_each_with_no_noun_after_it_is_every_value_found(learner, college_db, question, reference):
    """"each" standing alone ("how good is he at each?") is each value the part before found,
    as "each of them" is: it was refused, and the skills alone judged the answer to it."""
    learner.answer(question)
    assert same_rows(parts_rows(learner.last)[-1], rows_of(college_db, reference)), learner.last.answer


@pytest.mark.parametrize("question, reference", [
    ("Which skills do the projects of Rahul's friends need?",
     "MATCH (:Student {name: 'Rahul'})-[:FRIENDS_WITH]-(:Student)-[:WORKS_ON]->(:Project)"
     "-[:REQUIRES]->(k:Skill) RETURN DISTINCT k.name"),
    ("Which concepts are covered by the subjects Aarav's friends study?",
     "MATCH (:Student {name: 'Aarav'})-[:FRIENDS_WITH]-(:Student)-[:STUDIES]->(:Subject)"
     "-[:COVERS]->(c:Concept) RETURN DISTINCT c.name"),
    ("Which clubs are the friends of the students working on the Campus Chatbot in?",
     "MATCH (:Project {name: 'Campus Chatbot'})<-[:WORKS_ON]-(:Student)-[:FRIENDS_WITH]-(:Student)"
     "-[:MEMBER_OF]->(c:Club) RETURN DISTINCT c.name"),
])
def test_a_chain_of_three_links_the_words_name_is_followed(chat, college_db, question, reference):
    """Three links, each named by a word ("friends", "projects", "need"): composed from the
    schema's patterns as a chain of two is (unseen10's w009 was refused)."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question", [
    "My classmate put three email addresses together in one column of a table. Why is that "
    "poor design?",
    "Someone on my team wants to add the customer's address to every row of the orders table; "
    "why would updates then go wrong?",
])
def test_a_person_who_made_a_change_is_not_what_the_change_is_to(question):
    """A person named before the write word did the change ("my teammate put ..."); the graph's
    data is not what is being changed, and a why question about it asks how a change works
    (unseen10's w002 was refused as a request to change the data)."""
    from course.llm.offline.changes import asks_how_a_change_works

    assert asks_how_a_change_works(question.lower())


def test_a_question_about_a_change_still_splits_into_its_parts():
    """Two asks about how a change works are two parts, as any two asks are: the write word
    kept them whole (unseen10's w016)."""
    from course.llm.offline.roles.updater import RuleUpdater

    assert len(RuleUpdater().split("When I add an index to a column, what does it speed up? "
                                   "And why do the inserts get slower?")) == 2
    assert len(RuleUpdater().split("Add Sneha to the Robotics Club and make her president?")) == 1


def test_an_adverb_after_what_is_no_kind_of_thing_asked_for():
    """"what exactly is it showing" asks for no "exactly": the note need not say the word."""
    from course.agents.note_holds import asked_for

    assert asked_for("What exactly does a page table store?") == []
    assert asked_for("Which port really does DNS use?") == []
    assert asked_for("Which port does DNS use?") == ["port"]


@pytest.mark.parametrize("question", [
    "When I put a LIMIT on a query, what is the database still doing for every row?",
    "If we add a second index on the same column, what does the planner then pick?",
])
def test_a_change_in_a_clause_that_sets_the_scene_is_no_request(learner, question):
    """"When I put EXPLAIN in front of a query, what is it showing me?" asks what happens, not
    for a change: it was refused as one ("I cannot change the data", unseen10's w016)."""
    assert learner.answer(question).status != "blocked"


def test_a_change_to_the_graphs_data_in_such_a_clause_is_still_one(learner):
    assert learner.answer("If I delete Rahul, what happens?").status == "blocked"


@pytest.mark.parametrize("question", ["Which students are in their last year?",
                                      "Who joined in the latest year?"])
def test_last_before_a_propertys_word_is_no_number_and_is_not_dropped(chat, college_db, question):
    """"first year" is year 1; "last year" names no number the rules know: every student came
    back with their year, a confident answer to another question."""
    result = chat.answer(question)
    everyone = rows_of(college_db, "MATCH (s:Student) RETURN s.name")
    assert result.status != "answered" or len(result.rows) < len(everyone), result.answer


NO_NOTE_IN_NETWORKS = ("MATCH (:Subject {name: 'Computer Networks'})-[:COVERS]->(c:Concept) "
                       "WHERE NOT (c)<-[:EXPLAINS]-(:Note) RETURN c.name")


@pytest.mark.parametrize("question", [
    "Which concepts of Computer Networks have no note?",
    "Which topics covered by Computer Networks don't have a study note?",
])
def test_nodes_without_a_link_among_those_a_name_links_to(chat, college_db, question):
    """"no note" among the concepts one subject covers: the concepts without a note, of that
    subject only (refused: the rule took no named value)."""
    assert_answered_with(chat.answer(question), college_db, NO_NOTE_IN_NETWORKS)


def test_which_of_the_values_found_have_no_note(learner, college_db):
    """"unme se kiska koi note nahi hai?" after a part that listed a subject's topics: those
    topics without a note (unseen10's w043, half answered)."""
    learner.answer("Which topics does Computer Networks cover, and which of them have no note?")
    assert same_rows(parts_rows(learner.last)[-1], rows_of(college_db, NO_NOTE_IN_NETWORKS)), \
        learner.last.answer


def test_a_name_the_words_only_resemble_does_not_narrow_nodes_without_a_link(chat, college_db):
    """"in the graph" links to a concept by its look: the count of concepts with no note was
    taken over that one concept ("0 concepts", wrong) when named values began to narrow it."""
    result = chat.answer("How many concepts in this graph have no note explaining them?")
    count = rows_of(college_db, "MATCH (c:Concept) WHERE NOT (c)<-[:EXPLAINS]-(:Note) RETURN count(c)")
    assert result.status != "answered" or result.rows == count, result.answer


@pytest.mark.parametrize("question, project", [
    ("Who's leading the Campus Chatbot?", "Campus Chatbot"),
    ("Which student is leading the Library Management System right now?", "Library Management System"),
])
def test_a_form_of_a_value_the_graph_holds_is_no_filler(learner, college_db, question, project):
    """"leading" is a form of "Team Lead", a role the graph holds: taken out as filler, the
    question became "Who is the ... project?" and everyone on it was the answer (unseen11's
    t005, one part confidently wrong)."""
    result = learner.answer(question)
    everyone = rows_of(college_db, f"MATCH (s:Student)-[:WORKS_ON]->(:Project {{name: '{project}'}}) RETURN s.name")
    assert result.status != "answered" or not same_rows(result.rows, everyone), result.answer


@pytest.mark.parametrize("question, reference", [
    ("What subjects do Karan and Rahul study?",
     "MATCH (s:Student)-[:STUDIES]->(x:Subject) WHERE s.name IN ['Karan', 'Rahul'] RETURN s.name, x.name"),
    ("What skills do Karan and Sneha have?",
     "MATCH (s:Student)-[:HAS_SKILL]->(k:Skill) WHERE s.name IN ['Karan', 'Sneha'] RETURN s.name, k.name"),
    ("Which clubs are Payal and Sneha members of?",
     "MATCH (s:Student)-[:MEMBER_OF]->(c:Club) WHERE s.name IN ['Payal', 'Sneha'] RETURN s.name, c.name"),
])
def test_people_named_together_are_each_answered_for_unless_asked_what_they_share(chat, college_db,
                                                                                question, reference):
    """"What skills do Karan and Sneha have?" asks for each one's: it was read as the skills
    they have in common, and "I found nothing" was said of two people with skills."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question", ["Which subjects do Karan and Rahul both study?",
                                      "What do Karan and Rahul have in common?"])
def test_people_asked_what_they_share_still_get_what_they_share(chat, college_db, question):
    """A subject only one of them studies is no answer to what the two share."""
    shared = {r[0] for r in rows_of(college_db, "MATCH (:Student {name: 'Karan'})-[:STUDIES]->(x:Subject)"
                                                "<-[:STUDIES]-(:Student {name: 'Rahul'}) RETURN x.name")}
    either = {r[0] for r in rows_of(college_db, "MATCH (s:Student)-[:STUDIES]->(x:Subject) "
                                                "WHERE s.name IN ['Karan', 'Rahul'] RETURN x.name")}
    result = chat.answer(question)
    values = {str(v) for row in result.rows for v in row}
    assert shared and either - shared, "the graph no longer tells sharing from having"
    assert result.status == "answered" and shared <= values and not (either - shared) & values, result.answer


def test_their_after_each_of_them_is_each_ones_own(learner, college_db):
    """"each of them ... their subjects": "their" is each one's, not the group again ("each of
    Karan and Rahul get in each of Karan and Rahul's subjects", refused; unseen11's t039)."""
    learner.answer("Who is in the Coding Club, and what grades did each of them get in their subjects?")
    reference = ("MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Coding Club'}) "
                 "MATCH (s)-[r:STUDIES]->(x:Subject) RETURN s.name, x.name, r.grade")
    assert same_rows(parts_rows(learner.last)[-1], rows_of(college_db, reference)), learner.last.answer


@pytest.mark.parametrize("question, reference", [
    ("Karan kaunse subjects padhta hai aur unme uske grades kya hain? Aur woh kis club mein hai?",
     "MATCH (:Student {name: 'Karan'})-[:MEMBER_OF]->(c:Club) RETURN c.name"),
    ("Sneha kaunse subjects padhti hai aur unme uske grades kya hain? Aur woh kis project pe kaam "
     "karti hai?", "MATCH (:Student {name: 'Sneha'})-[:WORKS_ON]->(p:Project) RETURN p.name"),
])
def test_a_pronoun_is_something_the_links_its_part_names_can_reach(learner, college_db, question, reference):
    """"woh kis project pe kaam karta hai": only a student works on a project, so "woh" is the
    student asked about, not a subject the part before found (unseen10's w030: the projects of
    a subject's students came back)."""
    learner.answer(question)
    assert same_rows(parts_rows(learner.last)[-1], rows_of(college_db, reference)), learner.last.answer


@pytest.mark.parametrize("question, reference", [
    ("Robotics Club mein kaun kaun hai, aur ye club kab bana tha?",
     "MATCH (c:Club {name: 'Robotics Club'}) RETURN c.founded"),
    ("Campus Chatbot pe kaun kaam karta hai, aur woh project kis status mein hai?",
     "MATCH (p:Project {name: 'Campus Chatbot'}) RETURN p.status"),
])
def test_ye_or_woh_before_a_kind_of_thing_is_the_one_of_that_kind(learner, college_db, question, reference):
    """"ye club" is the club, as "that club" is: "ye" alone was read as the person found, and
    "Aarav club kab start hua tha?" was answered with Aarav's club (unseen10's w049)."""
    result = learner.answer(question)
    last = parts_rows(learner.last)[-1]
    expected = rows_of(college_db, reference)[0][0]
    assert any(expected in row for row in last), result.answer


@pytest.mark.parametrize("question, grades", [
    ("Who scored lower than an A in DBMS?", ["B+", "B", "C"]),
    ("Who got a grade higher than B in DSA?", ["A+", "A", "B+"]),
])
def test_a_word_before_than_compares_and_is_no_filler(learner, college_db, question, grades):
    """"lower than an A": taken out as filler, "Who scored than an A in Operating Systems?"
    was answered with the students who got an A (unseen12's s047, confidently wrong)."""
    subject = question.rstrip("?").split(" in ")[-1]
    result = learner.answer(question)
    reference = (f"MATCH (s:Student)-[r:STUDIES]->(:Subject {{name: '{subject}'}}) "
                 f"WHERE r.grade IN {grades!r} RETURN s.name")
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, reference", [
    ("Which clubs is Payal in, and in what role?",
     "MATCH (:Student {name: 'Payal'})-[r:MEMBER_OF]->(c:Club) RETURN c.name, r.role"),
    ("Sneha ke paas kaunsi skills hain aur kis level pe?",
     "MATCH (:Student {name: 'Sneha'})-[r:HAS_SKILL]->(k:Skill) RETURN k.name, r.level"),
])
def test_an_ask_that_names_only_a_property_asks_it_of_what_the_first_ask_finds(learner, college_db,
                                                                                question, reference):
    """"and at what level?" names only a property: it is asked of the skills the first ask
    finds, in one query, not alone ("kis level pe?" was refused alone: unseen13's r027)."""
    result = learner.answer(question)
    assert any(same_rows(rows, rows_of(college_db, reference)) for rows in parts_rows(learner.last)), \
        result.answer


@pytest.mark.parametrize("question", ["Who is the best at DBMS and DSA?",
                                      "Who is strongest in Operating Systems and DSA?"])
def test_a_superlative_the_query_does_not_rank_by_is_not_dropped(chat, college_db, question):
    """"the best at DBMS and DSA" was answered with whoever studies both: no ranking at all."""
    result = chat.answer(question)
    assert result.status != "answered" or "ORDER BY" in (result.cypher or "") \
        or "max(" in (result.cypher or "") or "min(" in (result.cypher or ""), result.cypher


@pytest.mark.parametrize("question", ["What sub-topics fall under Trees?",
                                      "Which subtopics come under Graphs?"])
def test_words_that_contradict_each_other_are_not_answered_by_another_chain(chat, college_db, question):
    """"sub-topics" is what a topic includes and "under" what includes it: refused for that, the
    question was then answered along two COVERS links (the topics of Trees's subject: wrong,
    unseen13's r040)."""
    result = chat.answer(question)
    assert "COVERS" not in (result.cypher or ""), result.answer


@pytest.mark.parametrize("question", ["Who got a better grade than Karan in DSA?",
                                      "Which students scored worse than Payal in DBMS?"])
def test_a_comparison_the_query_does_not_make_is_not_dropped(chat, question):
    """"better than Karan" compares: it was answered with Karan's own grade ("B."), in every
    agent, since before issue 23's work (found with a fresh question after this change)."""
    result = chat.answer(question)
    compares = re.search(r"[<>]", re.sub(r"<-|->", "", result.cypher or ""))   # not an arrow
    assert result.status != "answered" or compares, result.answer


# --- the same link twice: "the members of Aarav's club" (a fresh question of review) ----------

def test_a_step_named_twice_must_be_traversed_twice():
    """"§0's club" is one step along a membership, "the members of" it a second: a query that
    follows the membership once answers the shorter chain."""
    from course.llm.offline.chain import unfollowed
    from course.llm.offline.lexicon import default_lexicon
    once = "MATCH (s {name: 'Aarav'})-[:MEMBER_OF]->(c) RETURN count(c)"
    twice = "MATCH (s {name: 'Aarav'})-[:MEMBER_OF]->(c)<-[:MEMBER_OF]-(m) RETURN count(m)"
    for asked in ("how many of the members of §0's club are there?", "who are §0's club's members?"):
        assert unfollowed(asked, once, default_lexicon()) is not None, asked
        assert unfollowed(asked, twice, default_lexicon()) is None, asked
    assert unfollowed("which club is §0 a member of?", once, default_lexicon()) is None


@pytest.mark.parametrize("question", ["How many members does Aarav's club have?",
                                      "How many people are in Sneha's club?"])
def test_a_count_of_the_members_of_someones_club_is_not_a_count_of_their_clubs(chat, college_db,
                                                                                question):
    name = re.search(r"(\w+)'s club", question).group(1)
    members = rows_of(college_db, "MATCH (:Student {name: $n})-[:MEMBER_OF]->(:Club)<-[:MEMBER_OF]-"
                      "(m:Student) RETURN count(DISTINCT m)".replace("$n", repr(name)))[0][0]
    result = chat.answer(question)
    assert result.status != "answered" or result.rows == [[members]], (result.cypher, result.rows)


@pytest.mark.parametrize("question, reference", [
    ("What skills do the members of Sneha's club have?",
     "MATCH (:Student {name: 'Sneha'})-[:MEMBER_OF]->(:Club)<-[:MEMBER_OF]-(:Student)"
     "-[:HAS_SKILL]->(k:Skill) RETURN DISTINCT k.name"),
    ("Which projects do the members of Karan's club work on?",
     "MATCH (:Student {name: 'Karan'})-[:MEMBER_OF]->(:Club)<-[:MEMBER_OF]-(:Student)"
     "-[:WORKS_ON]->(p:Project) RETURN DISTINCT p.name"),
], ids=["skills", "projects"])
def test_what_the_members_of_someones_club_have_is_a_chain_through_the_club(chat, college_db,
                                                                           question, reference):
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_word_that_means_a_leading_role_finds_it_where_the_prompt_lists_the_values(chat, college_db):
    """"leading", like "leads", means a club's President (the prompt lists the clubs' roles)."""
    assert_answered_with(chat.answer("Who is leading the Robotics Club?"), college_db,
                         "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Robotics Club'}) "
                         "WHERE r.role = 'President' RETURN s.name")


def test_a_link_of_a_kind_to_itself_is_not_walked_twice_in_a_composed_chain(chat, college_db):
    """"after" (a prerequisite) named twice in other words is one step, not a second
    prerequisite link between subjects (a chain of three composed that way answered wrongly)."""
    result = chat.answer("Which subjects teach the topics you can move on to after learning Paging?")
    reference = ("MATCH (:Concept {name: 'Paging'})-[:PREREQUISITE_FOR]->(:Concept)<-[:COVERS]-"
                 "(x:Subject) RETURN DISTINCT x.name")
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference))


@pytest.mark.parametrize("question, reference", [
    ("What is Sneha's branch and what is her year?",
     "MATCH (s:Student {name: 'Sneha'}) RETURN s.name, s.year"),
    ("What is Karan's year and which club is he in?",
     "MATCH (:Student {name: 'Karan'})-[:MEMBER_OF]->(c:Club) RETURN c.name"),
], ids=["property", "club"])
def test_a_pronoun_after_a_part_the_notes_could_not_answer_is_the_person_it_named(
        learner, college_db, question, reference):
    """The first part went to the notes first and found nothing; a query answers it. The
    second part's "her" is then the person the first named, not "nothing found before"."""
    learner.answer(question)
    assert same_rows(parts_rows(learner.last)[-1], rows_of(college_db, reference)), learner.last.answer


@pytest.mark.parametrize("question, reference", [
    ("Who works on the Campus Chatbot and what are their roles?",
     "MATCH (s:Student)-[r:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) RETURN s.name, r.role"),
    ("Which students know SQL, and what are their levels?",
     "MATCH (s:Student)-[r:HAS_SKILL]->(:Skill {name: 'SQL'}) RETURN s.name, r.level"),
], ids=["roles", "levels"])
def test_a_propertys_plural_is_that_property_on_the_link_the_part_before_took(
        learner, college_db, question, reference):
    """"their roles" after "Who works on the Campus Chatbot?" are their roles on it, not their
    roles in their clubs (the plural had named no property, and a club's "role" answered)."""
    learner.answer(question)
    assert same_rows(parts_rows(learner.last)[-1], rows_of(college_db, reference)), learner.last.answer


@pytest.mark.parametrize("question, reference", [
    ("What skills do the other members of Sneha's club have?",
     "MATCH (x:Student {name: 'Sneha'})-[:MEMBER_OF]->(:Club)<-[:MEMBER_OF]-(m:Student)"
     "-[:HAS_SKILL]->(k:Skill) WHERE m <> x RETURN DISTINCT k.name"),
    ("Which projects do the other members of Karan's club work on?",
     "MATCH (x:Student {name: 'Karan'})-[:MEMBER_OF]->(:Club)<-[:MEMBER_OF]-(m:Student)"
     "-[:WORKS_ON]->(p:Project) WHERE m <> x RETURN DISTINCT p.name"),
], ids=["skills", "projects"])
def test_the_other_members_leave_out_the_one_named(chat, college_db, question, reference):
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Which branch has the most students?",
     "MATCH (s:Student) WITH s.branch AS branch, count(s) AS n WITH max(n) AS top "
     "MATCH (s:Student) WITH s.branch AS branch, count(s) AS n, top WHERE n = top RETURN branch, n"),
    ("Which year has the fewest students?",
     "MATCH (s:Student) WITH s.year AS year, count(s) AS n WITH min(n) AS low "
     "MATCH (s:Student) WITH s.year AS year, count(s) AS n, low WHERE n = low RETURN year, n"),
], ids=["most", "fewest"])
def test_most_or_fewest_is_never_dropped_from_the_query(chat, college_db, question, reference):
    """A list of every student with their branch is no answer to which branch has the most."""
    result = chat.answer(question)
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), \
        result.cypher


@pytest.mark.parametrize("question", ["Who has more skills, Rahul or Karan?",
                                      "Does Aarav have fewer friends than Payal?",
                                      "Which of Sneha and Payal is in more clubs?"])
def test_more_or_fewer_of_something_is_never_dropped_from_the_query(chat, question):
    """"more skills" compares how many: a query that neither counts nor compares answered with
    the two people's skills together."""
    result = chat.answer(question)
    assert result.status != "answered" or re.search(r"count\(|size\(", result.cypher or "", re.I), \
        result.cypher


@pytest.mark.parametrize("question", ["Who studies the subjects that Rahul studies?",
                                      "Which students study the same subjects as Rahul's friends?"])
def test_a_chain_walks_a_kind_of_link_at_most_there_and_back(chat, college_db, question):
    """"studies" named three times is no chain of three studies: a composed chain that walked
    it so answered "who" with subjects."""
    result = chat.answer(question)
    assert result.status != "answered" or "student" in " ".join(result.columns), result.cypher


def test_other_with_no_one_named_to_leave_out_leaves_out_no_one(chat, college_db):
    result = chat.answer("Which topic includes the most other topics as its parts?")
    assert_answered_with(result, college_db,
                         "MATCH (c:Concept)-[:INCLUDES]->(p:Concept) WITH c, count(p) AS n "
                         "WITH max(n) AS top MATCH (c:Concept)-[:INCLUDES]->(p:Concept) "
                         "WITH c, count(p) AS n, top WHERE n = top RETURN c.name, n")


@pytest.mark.parametrize("question, reference", [
    ("Which students are in Sneha's club?",
     "MATCH (x:Student {name: 'Sneha'})-[:MEMBER_OF]->(:Club)<-[:MEMBER_OF]-(s:Student) "
     "WHERE s <> x RETURN s.name"),
    ("Which students work on Karan's project?",     # the others: as "who else" would
     "MATCH (x:Student {name: 'Karan'})-[:WORKS_ON]->(:Project)<-[:WORKS_ON]-(s:Student) "
     "WHERE s <> x RETURN s.name"),
], ids=["club", "project"])
def test_which_students_asks_for_students_not_the_thing_named_after_them(chat, college_db,
                                                                         question, reference):
    """"Which students are in Sneha's club?" had answered "Debate Society": the club, not who
    is in it. The kind after "which" is the kind the query returns, or it is refused."""
    result = chat.answer(question)
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), \
        result.cypher


@pytest.mark.parametrize("question", ["DBMS ke credits kitne hain?", "How many credits is DSA worth?"])
def test_how_many_of_a_number_property_is_its_value_not_a_count(chat, question):
    assert chat.answer(question).status == "answered"


def test_its_after_an_answer_that_found_several_of_a_kind_does_not_pick_one(chat, college_db):
    """"Which club is Payal in?" finds two clubs; "Who is its president?" had answered for one
    of them as though it were the only one."""
    clubs = rows_of(college_db, "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) RETURN c.name")
    assert len(clubs) > 1
    chat.answer("Which club is Payal in?")
    result = chat.answer("Who is its president?")
    assert result.status != "answered", result.answer
    assert result.answer == WHICH_IS_MEANT["en"].format(word="its")   # not "outside the graph"


def test_it_after_a_list_may_still_be_the_one_thing_named_before_it(chat, college_db):
    chat.answer("Which concepts does DBMS cover?")
    assert_answered_with(chat.answer("How many credits is it worth?"), college_db,
                         "MATCH (s:Subject {name: 'DBMS'}) RETURN s.name, s.credits")


@pytest.mark.parametrize("question, reference", [
    ("Which students have an intermediate level in at least one skill?",
     "MATCH (s:Student)-[r:HAS_SKILL]->(:Skill) WHERE r.level = 'Intermediate' RETURN DISTINCT s.name"),
    ("Who got an A+ in at least one subject?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject) WHERE r.grade = 'A+' RETURN DISTINCT s.name"),
], ids=["level", "grade"])
def test_at_least_one_is_any(chat, college_db, question, reference):
    """"at least one" is one or more: any, not a count to compare (the filter had been dropped)."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_link_word_inside_a_propertys_words_is_that_property(chat, college_db):
    """"year of study" is the year property: "study" in it is no step of a chain along
    STUDIES (the question was refused for not following it)."""
    assert_answered_with(chat.answer("What is the average year of study of the Coding Club members?"),
                         college_db, "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Coding Club'}) "
                         "RETURN avg(s.year)")


def test_it_after_an_answer_that_listed_no_names_does_not_break_the_rules(chat, caplog):
    """The offline rules had raised (and logged) on "it" after a count: no names listed."""
    chat.answer("How many students study DBMS?")
    with caplog.at_level("ERROR"):
        chat.answer("Who works on it?")
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text


@pytest.mark.parametrize("question, reference", [
    ("Which subject should I finish before taking Operating Systems?",
     "MATCH (p:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) RETURN p.name"),
    ("What is needed before I can learn Deadlocks?",
     "MATCH (p:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Deadlocks'}) RETURN p.name"),
    ("Which subject does DSA lead on to?",
     "MATCH (:Subject {name: 'DSA'})-[:PREREQUISITE_FOR]->(n:Subject) RETURN n.name"),
], ids=["before-taking", "needed-before", "lead-on-to"])
def test_a_learners_way_of_asking_for_a_prerequisite(chat, college_db, question, reference):
    """A gerund after "before" in the learner's clause ("before taking") is the learner's verb;
    "needed before" asks what comes before, not what a project needs (the Deadlocks note had
    answered it); "lead on to" is "leads to"."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_the_latest_of_one_names_links(chat, college_db):
    """A named person's link with the largest number the words name ("joined most recently")."""
    assert_answered_with(chat.answer("Which club did Payal join most recently?"), college_db,
                         "MATCH (:Student {name: 'Payal'})-[r:MEMBER_OF]->(c:Club) WITH max(r.since) AS top "
                         "MATCH (:Student {name: 'Payal'})-[r:MEMBER_OF]->(c:Club) WHERE r.since = top "
                         "RETURN c.name, r.since")


def test_the_first_of_one_names_links_with_no_number_named_is_not_guessed(chat, college_db):
    """"first" names no number of the link (semester?): right, or refused."""
    result = chat.answer("Which subject did Aarav take first?")
    reference = ("MATCH (:Student {name: 'Aarav'})-[r:STUDIES]->(s:Subject) WITH min(r.semester) AS low "
                 "MATCH (:Student {name: 'Aarav'})-[r:STUDIES]->(s:Subject) WHERE r.semester = low "
                 "RETURN s.name, r.semester")
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), \
        result.cypher


@pytest.mark.parametrize("question, reference", [
    ("Which project is still only in the planning stage?",
     "MATCH (p:Project {status: 'Planned'}) RETURN p.name"),
    ("Which club has been around the longest?",
     "MATCH (c:Club) WITH min(c.founded) AS first MATCH (c:Club {founded: first}) RETURN c.name, c.founded"),
], ids=["planning", "around-longest"])
def test_a_learners_words_for_what_comes_next_a_status_and_the_oldest(chat, college_db, question,
                                                                      reference):
    assert_answered_with(chat.answer(question), college_db, reference)


def test_two_words_for_one_step_after_a_topic_are_one_hop(chat, college_db):
    """"open up right after" names the step twice: one hop, not the topics two steps on."""
    result = chat.answer("Which topics open up right after 1NF?")
    reference = "MATCH (:Concept {name: '1NF'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), \
        result.cypher


@pytest.mark.parametrize("question, reference", [
    ("In which year did Sneha join the Debate Society?",
     "MATCH (:Student {name: 'Sneha'})-[r:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN r.since"),
    ("Which topics need Threads to be learned first?",
     "MATCH (:Concept {name: 'Threads'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
    ("Which subjects require DSA first?",
     "MATCH (:Subject {name: 'DSA'})-[:PREREQUISITE_FOR]->(s:Subject) RETURN s.name"),
], ids=["which-year-did", "need-first", "require-first"])
def test_which_year_of_a_joining_and_what_needs_a_topic_first(chat, college_db, question, reference):
    """"in which year did ... join" asks when the link began (it was read as a club's founding
    and refused); "first" after "needs §0" orders the learning, no smallest value."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_the_learners_verb_after_you_is_no_link_to_follow(chat, college_db):
    """"What do you need to study before §0?": "need" and "study" are what the learner does."""
    assert_answered_with(chat.answer("What do you need to study before Computer Networks?"), college_db,
                         "MATCH (p:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) "
                         "RETURN p.name")


@pytest.mark.parametrize("question", ["What skills do I need to work on the Campus Chatbot?",
                                      "What skills does someone need to work on the Campus Chatbot?"])
def test_a_learners_verb_whose_link_joins_the_name_to_what_is_asked_is_that_link(chat, college_db,
                                                                                question):
    """The skills one needs to work on a project are the ones it needs, not its members' skills
    (which every agent had answered, since before issue 23's work): that, or refused."""
    result = chat.answer(question)
    reference = "MATCH (:Project {name: 'Campus Chatbot'})-[:REQUIRES]->(k:Skill) RETURN k.name"
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), \
        result.cypher


@pytest.mark.parametrize("question, reference", [
    ("Which concepts does the subject you must finish before Computer Networks cover?",
     "MATCH (p:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) "
     "MATCH (p)-[:COVERS]->(c:Concept) RETURN c.name"),
    ("Who studies the subject I need to do before Operating Systems?",
     "MATCH (p:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) "
     "MATCH (s:Student)-[:STUDIES]->(p) RETURN s.name"),
], ids=["you-must", "i-need"])
def test_before_after_the_learners_verb_is_still_the_link(chat, college_db, question, reference):
    """"before" after "you must finish" is the prerequisite link, not the learner's verb: it had
    been excused, and the named subject's own concepts (or students) answered."""
    result = chat.answer(question)
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), \
        result.cypher


@pytest.mark.parametrize("question", [
    "What projects are the Debate Society president's friends working on?",
    "Which skills do the Robotics Club president's friends have?",
])
def test_a_chain_after_a_role_is_followed_and_the_role_filters_its_own_link(chat, college_db, question):
    """"the president's friends": "friends" is a step after a role's word, and "president"
    filters the membership only (it had filtered the project role too, and the query dropped the
    friends: "I found nothing", a false claim)."""
    club = re.search(r"the (.+?) president", question).group(1)
    far = "(x:Project)" if "projects" in question else "(x:Skill)"
    link = "WORKS_ON" if "projects" in question else "HAS_SKILL"
    reference = (f"MATCH (p:Student)-[:MEMBER_OF {{role: 'President'}}]->(:Club {{name: '{club}'}}) "
                 f"MATCH (p)-[:FRIENDS_WITH]-(f:Student)-[:{link}]->{far} RETURN DISTINCT x.name")
    result = chat.answer(question)
    assert rows_of(college_db, reference)
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), \
        result.cypher


def test_a_purpose_clause_first_is_no_part_of_its_own(learner):
    """"To find X, which ... and why ...?": the clause sets the scene; split off, the rest had
    been answered from the BST note ("which traversal should I use?" alone)."""
    question = ("To find the shortest route between two students in a friends network where every "
                "link counts the same, which search should I run and why is it right?")
    assert RuleUpdater().split(question) == [question]
    learner.answer(question)
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.found and s.tool == "search_notes"]
    assert notes in ([], ["N13"]), notes


# --- a word that only begins a name is that name only beside its kind's word -------------------

@pytest.mark.parametrize("question", ["How many students are there on campus?",
                                      "Which clubs are there on campus?",
                                      "What does EXPLAIN show about a query?",
                                      "How many machines fit in a /26 network?"])
def test_a_word_that_begins_a_longer_name_names_nothing_alone(college_db, question):
    from course.pipeline.linking import link_entities
    from course.pipeline.schema import introspect

    assert not [m for m in link_entities(college_db, question, schema=introspect(college_db))
                if m.score < 1.0], question


@pytest.mark.parametrize("question, value", [("Who works on the library project?", "Library Management System"),
                                             ("Is Sneha in the debate club?", "Debate Society")])
def test_and_beside_its_kinds_word_it_still_names_it(college_db, question, value):
    from course.pipeline.linking import link_entities
    from course.pipeline.schema import introspect

    assert value in {m.value for m in link_entities(college_db, question, schema=introspect(college_db))}


def test_a_count_of_everyone_on_campus_counts_every_student(college_db, learner):
    result = learner.answer("How many students are there on campus?")
    right = rows_of(college_db, "MATCH (s:Student) RETURN count(s)")    # or refused: never 2
    assert result.status == "out_of_scope" or result.rows == right, result.answer


# --- the verb a "does" question asks with is never filler ----------------------------------------

@pytest.mark.parametrize("question", ["Where does the Library Management System project stand?",
                                      "Where does Sneha live?"])
def test_the_verb_a_does_question_asks_with_is_not_dropped_as_filler(college_db, question):
    from course.retrieval.filler import filler_dropper

    assert filler_dropper(college_db)(question) is None


def test_where_a_project_stands_is_never_answered_with_its_members(college_db, learner):
    result = learner.answer(
        "Where does the Library Management System project stand?")
    members = rows_of(college_db, "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Library Management "
                                  "System'}) RETURN s.name")
    assert result.status == "out_of_scope" or not same_rows(result.rows, members), result.answer


# --- "their" after "anyone" is anyone's ----------------------------------------------------------

@pytest.mark.parametrize("question", ["Is anyone in their final year?",
                                      "Does everyone in the Coding Club list their skills?",
                                      "Has someone got an A+ in their DBMS?"])
def test_their_after_anyone_stands_for_that_anyone(question):
    assert refusal_word(question) is None


@pytest.mark.parametrize("question", ["Which clubs are they in?", "Who are their friends?"])
def test_their_with_no_anyone_before_it_still_asks_who_is_meant(question):
    assert refusal_word(question) == ("they" if "they" in question else "their")


def test_anyone_in_their_final_year_is_answered_or_refused_never_asked_who(college_db, learner):
    result = learner.answer("Is anyone in their final year?")
    assert WHO_IS_MEANT["en"].split("{")[0] not in result.answer, result.answer


# --- a project yet to begin is a planned one -------------------------------------------------------

@pytest.mark.parametrize("question", ["Which project is yet to begin?",
                                      "Which projects have not started yet?",
                                      "Which projects haven't begun?"])
def test_a_project_yet_to_begin_is_a_planned_one(college_db, chat, question):
    result = chat.answer(question)
    planned = "MATCH (p:Project) WHERE p.status = 'Planned' RETURN p.name"
    assert result.status == "out_of_scope" or same_rows(result.rows, rows_of(college_db, planned)), \
        result.answer
    assert result.status == "answered", result.answer


# --- what someone does in a club or a project is their role there -------------------------------

@pytest.mark.parametrize("question, reference", [
    ("What does Karan do in his project?",
     "MATCH (:Student {name: 'Karan'})-[r:WORKS_ON]->(:Project) RETURN r.role"),
    ("What does Payal do in the Coding Club?",
     "MATCH (:Student {name: 'Payal'})-[r:MEMBER_OF]->(:Club {name: 'Coding Club'}) RETURN r.role"),
])
def test_what_someone_does_in_a_club_or_project_is_their_role(college_db, chat, question, reference):
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    assert any(same_rows([[row[i]] for row in result.rows], rows_of(college_db, reference))
               for i in range(len(result.rows[0]))), result.answer


# --- "is anyone ...?" asks who is -----------------------------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Is anyone in the fourth year?", "MATCH (s:Student) WHERE s.year = 4 RETURN s.name"),
    ("Does anybody know Docker?", "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Docker'}) RETURN s.name"),
    ("Has anyone got an A+ in DBMS?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DBMS'}) WHERE r.grade = 'A+' RETURN s.name"),
    ("Did anyone score an A+ in any subject? Who?",      # asks "who?" itself: read as it was
     "MATCH (s:Student)-[r:STUDIES]->(:Subject) WHERE r.grade = 'A+' RETURN DISTINCT s.name"),
])
def test_is_anyone_asks_who_is(college_db, chat, question, reference):
    assert_answered_with(chat.answer(question), college_db, reference)


# --- "clear" a subject before another is passing it, not a write ---------------------------------

def test_a_subject_to_clear_before_another_is_its_prerequisite(college_db, chat):
    result = chat.answer("Which subject do I need to clear before Computer Networks?")
    assert_answered_with(result, college_db, "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: "
                                             "'Computer Networks'}) RETURN s.name")


@pytest.mark.parametrize("question", ["Please clear the graph", "Clear Aarav before anything else"])
def test_clearing_the_data_is_still_refused_as_a_write(chat, question):
    assert chat.answer(question).status == "blocked"


# --- a verb of change in another form is no request -----------------------------------------------

@pytest.mark.parametrize("question", [
    "Our spreadsheet repeats each customer's address in many rows and updates go out of sync. Why does splitting the table help?",
    "When rows are deleted from a table, what happens to the index?",
])
def test_a_verb_of_change_as_a_noun_or_past_form_is_not_a_request(chat, question):
    assert chat.answer(question).status != "blocked"


def test_a_verb_of_change_in_another_form_is_read_as_written():
    from course.llm.offline.lexicon import default_lexicon
    from course.llm.offline.typos import corrected

    assert [corrected(w, default_lexicon()) for w in ("updates", "deleted", "delet", "ranks")] == \
        ["updates", "deleted", "delete", "rank"]


# --- "padhaana" is to teach: what a subject covers -------------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Operating Systems mein kaunse topics padhaaye jaate hain?",
     "MATCH (:Subject {name: 'Operating Systems'})-[:COVERS]->(c:Concept) RETURN c.name"),
    ("Payal kaunse subjects padhti hai?",
     "MATCH (:Student {name: 'Payal'})-[:STUDIES]->(s:Subject) RETURN s.name"),
])
def test_teaching_in_hinglish_is_what_a_subject_covers(college_db, chat, question, reference):
    assert_answered_with(chat.answer(question), college_db, reference)


# --- the kind asked and the verb may name one link twice ------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("What subtopics does Memory Management include?",
     "MATCH (:Concept {name: 'Memory Management'})-[:INCLUDES]->(c:Concept) RETURN c.name"),
    ("Which sub-topics does Trees include?",
     "MATCH (:Concept {name: 'Trees'})-[:INCLUDES]->(c:Concept) RETURN c.name"),
    ("What are the subtopics of the subtopics of Trees?",
     "MATCH (:Concept {name: 'Trees'})-[:INCLUDES]->(:Concept)-[:INCLUDES]->(c:Concept) RETURN c.name"),
])
def test_the_kind_asked_and_its_verb_are_one_step(college_db, chat, question, reference):
    result = chat.answer(question)
    assert result.status == "out_of_scope" or same_rows(result.rows, rows_of(college_db, reference)), \
        result.answer
    assert rows_of(college_db, reference) == [] or result.status == "answered", result.answer


# --- a property asked between two asks goes with the ask before it --------------------------------

@pytest.mark.parametrize("question, parts", [
    ("Who took DSA, in which semester, and what grades did they get?",
     ["Who took DSA, in which semester?", "what grades did they get?"]),
    ("Who is in the Robotics Club, with what role, and which projects do they work on?",
     ["Who is in the Robotics Club, with what role?", "which projects do they work on?"]),
])
def test_a_property_asked_between_two_asks_goes_with_the_one_before(question, parts):
    assert RuleUpdater().split(question) == parts


# --- a role's word says whose role it is by where it stands -----------------------------------------

MEMBERS_WITH_ROLE = ("MATCH (:Student {{name: '{name}'}})-[:MEMBER_OF]->(:Club)<-[r:MEMBER_OF]-(p:Student) "
                     "WHERE r.role = 'President' RETURN DISTINCT p.name")


@pytest.mark.parametrize("question, name", [("Who is the president of Sneha's club?", "Sneha"),
                                            ("Who leads the club Karan is in?", "Karan")])
def test_a_role_asked_of_a_club_reached_through_a_name_is_the_clubs(college_db, chat, question, name):
    result = chat.answer(question)
    assert result.status == "out_of_scope" or same_rows(
        result.rows, rows_of(college_db, MEMBERS_WITH_ROLE.format(name=name))), result.answer


@pytest.mark.parametrize("question", ["Who is in the club that Rahul is president of?",
                                      "Who else is in the club that Rahul is president of?"])
def test_a_role_said_of_the_name_filters_the_names_own_link(college_db, chat, question):
    others = ("MATCH (x:Student {name: 'Rahul'})-[r:MEMBER_OF]->(:Club)<-[:MEMBER_OF]-(p:Student) "
              "WHERE r.role = 'President' AND p <> x RETURN p.name")
    assert_answered_with(chat.answer(question), college_db, others)


# --- from unseen17's misses, in other words -------------------------------------------------------

@pytest.mark.parametrize("question", ["How far along is the Attendance Tracker?",
                                      "Has the Library Management System started yet?"])
def test_how_far_a_project_has_got_is_its_status(college_db, chat, question):
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    status = {row[0] for row in rows_of(college_db, "MATCH (p:Project) RETURN p.status")}
    assert any(value in status for row in result.rows for value in row), result.rows


@pytest.mark.parametrize("question, reference", [
    ("What is Sneha doing in the Attendance Tracker project?",
     "MATCH (:Student {name: 'Sneha'})-[r:WORKS_ON]->(:Project {name: 'Attendance Tracker'}) RETURN r.role"),
    ("Which post does Payal hold in the Debate Society?",
     "MATCH (:Student {name: 'Payal'})-[r:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN r.role"),
])
def test_what_someone_is_doing_or_holds_there_is_their_role(college_db, question, reference, learner):
    result = learner.answer(question)
    assert result.status == "answered", result.answer
    assert any(same_rows([[row[i]] for row in result.rows], rows_of(college_db, reference))
               for i in range(len(result.rows[0]))), result.answer


# --- "how many are in ..." counts people ------------------------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("How many are in the ECE branch?", "MATCH (s:Student) WHERE s.branch = 'ECE' RETURN count(s)"),
    ("How many are in the Robotics Club?",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN count(s)"),
])
def test_how_many_are_in_a_place_counts_the_people_there(college_db, chat, question, reference):
    result = chat.answer(question)
    assert result.status == "answered" and result.rows == rows_of(college_db, reference), result.answer


@pytest.mark.parametrize("question", ["Where is the Attendance Tracker at right now?",
                                      "Where does the Campus Chatbot project stand?"])
def test_where_a_project_is_at_is_its_status_never_its_members(college_db, chat, question):
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    status = {row[0] for row in rows_of(college_db, "MATCH (p:Project) RETURN p.status")}
    assert any(value in status for row in result.rows for value in row), result.rows


def test_a_branch_of_engineering_is_a_branch(college_db, chat):
    assert_answered_with(chat.answer("Which branch of engineering is Sneha in?"), college_db,
                         "MATCH (s:Student {name: 'Sneha'}) RETURN s.branch")


# --- where a thing is: the graph holds no places --------------------------------------------------

@pytest.mark.parametrize("question", ["Where is the Coding Club?", "Where is Aarav?",
                                      "Where is the Debate Society located?", "Where is DSA taught?"])
def test_where_a_thing_is_is_no_fact_of_the_graph(college_db, learner, question):
    for agent in (Agent(college_db, OfflineLLM()), learner):
        assert agent.answer(question).status == "out_of_scope", question


def test_the_learners_own_done_is_no_status(college_db, chat):
    result = chat.answer("Once I'm done with 2NF, which topics can I move on to next?")
    assert_answered_with(result, college_db, "MATCH (:Concept {name: '2NF'})-[:PREREQUISITE_FOR]->(c:Concept) "
                                             "RETURN c.name")


# --- "which ones" is of the kind the part before found ------------------------------------------------

def test_which_ones_is_of_the_kind_found_before():
    found = [("Which projects are finished?", [], [("Project", "Library Management System")])]
    assert RuleUpdater().rewrite("and which ones are planned?", found) == "and which projects are planned?"


def test_a_second_ask_of_which_ones_is_answered(college_db, learner):
    result = learner.answer(
        "Which projects are in progress, and which ones are planned?")
    assert result.status == "answered" and "could not answer" not in result.answer, result.answer


# --- "what grade ..." is answered with a grade ------------------------------------------------------

@pytest.mark.parametrize("question", ["What grade did Payal get with?", "Which grade did Rahul share with?"])
def test_a_property_asked_after_which_is_what_the_query_returns(chat, question):
    result = chat.answer(question)
    assert result.status == "out_of_scope" or "grade" in " ".join(result.columns), (result.answer,
                                                                                     result.cypher)


# --- a link's property asked after a part that named both ends is asked at the same link ----------

def test_a_property_asked_next_stays_at_the_link_the_part_before_named(college_db, learner):
    result = learner.answer(
        "In which semester did Rahul take DSA, and what grade did he get?")
    grade = rows_of(college_db, "MATCH (:Student {name: 'Rahul'})-[r:STUDIES]->(:Subject {name: 'DSA'}) "
                                "RETURN r.grade")
    assert any(same_rows(s.rows, grade) for s in result.sub_questions), result.answer


def test_when_a_club_started_is_when_it_was_founded(college_db, chat):
    assert_answered_with(chat.answer("When did the Robotics Club start?"), college_db,
                         "MATCH (c:Club {name: 'Robotics Club'}) RETURN c.founded")


# --- after review: two roles on either side of the name are two links' roles ---------------------

def test_two_roles_on_either_side_of_the_name_are_never_one_filter(college_db, chat):
    result = chat.answer("Who is the secretary of the club Payal is president of?")
    assert result.status == "out_of_scope" or result.rows == [], result.answer   # Payal leads none


def test_a_project_still_going_on_is_one_in_progress(college_db, chat):
    assert_answered_with(chat.answer("Which projects are still going on?"), college_db,
                         "MATCH (p:Project) WHERE p.status = 'In Progress' RETURN p.name")


# --- a second part that points back: "that person's", "them" of the kind its verb reaches, "what about" -

def test_that_persons_is_the_person_the_part_before_found(college_db, learner):
    last_part_is(college_db, learner.answer("Who is the president of the Robotics Club, and who are that "
                                            "person's friends?"),
                 "MATCH (:Student {name: 'Rahul'})-[:FRIENDS_WITH]-(f:Student) RETURN f.name")


def test_them_is_what_the_verb_of_its_part_reaches(college_db, learner):
    """"which projects need them?": projects need skills, so "them" is the skills found, not Karan."""
    result = learner.answer("Which skills does Karan have, and which projects need them?")
    assert every_part_found(result), result.answer
    rows = parts_rows(result)[-1]
    reference = rows_of(college_db, "MATCH (:Student {name: 'Karan'})-[:HAS_SKILL]->(k:Skill)"
                                    "<-[:REQUIRES]-(p:Project) RETURN DISTINCT p.name")
    assert {r[-1] for r in rows} == {r[0] for r in reference}, rows


def test_what_about_a_new_name_asks_the_part_before_of_it(college_db, learner):
    result = learner.answer("What branch is Rahul in, and what about Payal?")
    assert every_part_found(result), result.answer
    branch = rows_of(college_db, "MATCH (s:Student {name: 'Payal'}) RETURN s.branch")[0][0]
    assert branch in str(parts_rows(result)[-1]) and "clubs:" not in result.answer, result.answer


@pytest.mark.parametrize("question", ["How did Sneha do in Computer Networks?",
                                      "How well did Sneha do in Computer Networks?",
                                      "What was Sneha's performance in Computer Networks?"])
def test_how_someone_did_in_a_subject_is_their_grade(college_db, chat, question):
    assert_answered_with(chat.answer(question), college_db,
                         "MATCH (:Student {name: 'Sneha'})-[r:STUDIES]->(:Subject {name: 'Computer Networks'}) "
                         "RETURN r.grade")



def test_woh_with_a_plural_verb_is_everyone_found(college_db, learner):
    result = learner.answer("Payal ke dost kaun kaun hain aur woh kya padhte hain?")
    assert every_part_found(result), result.answer
    friends = {r[0] for r in rows_of(college_db, "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(f) RETURN f.name")}
    assert friends <= {str(v) for row in parts_rows(result)[-1] for v in row}, result.answer


def test_it_after_every_thing_of_a_kind_is_each_of_them(college_db, learner):
    result = learner.answer("List every project with its status and the skills it needs.")
    assert every_part_found(result), result.answer
    assert {r[-1] for r in parts_rows(result)[-1]} == \
        {r[0] for r in rows_of(college_db, "MATCH (:Project)-[:REQUIRES]->(k:Skill) RETURN DISTINCT k.name")}, \
        result.answer


@pytest.mark.parametrize("question", ["What is the founding year of the Coding Club?",
                                      "What year was the Coding Club founded in?"])
def test_a_clubs_founding_year(college_db, chat, question):
    result = chat.answer(question)
    founded = rows_of(college_db, "MATCH (c:Club {name: 'Coding Club'}) RETURN c.founded")[0][0]
    assert result.status == "answered" and str(founded) in result.answer, result.answer


# --- "where's", "how's": a question word's 's is "is"; "how" asks no list of things -----------

@pytest.mark.parametrize("question", ["Where's the attendance project at right now?",
                                      "How's the attendance project going?",
                                      "How is the Attendance Tracker coming along?"])
def test_how_far_a_project_is_is_its_status(college_db, chat, question):
    assert_answered_with(chat.answer(question), college_db,
                         "MATCH (p:Project {name: 'Attendance Tracker'}) RETURN p.name, p.status")


@pytest.mark.parametrize("question", ["How's the Debate Society?", "How is the Coding Club doing?"])
def test_how_a_thing_is_is_never_the_list_of_its_links(chat, question):
    result = chat.answer(question)
    assert result.status == "out_of_scope", result.answer


# --- from unseen19's misses, in other words ------------------------------------------------------

def test_in_all_of_them_is_in_every_one_at_once(college_db, learner):
    last_part_is(college_db, learner.answer("Which subjects are there, and who takes all of them?"),
                 "MATCH (sub:Subject) WITH count(sub) AS subjects MATCH (s:Student)-[:STUDIES]->(x:Subject) "
                 "WITH s, subjects, count(x) AS taken WHERE taken = subjects RETURN s.name")


def test_how_good_after_what_someone_is_good_at_is_at_that(college_db, learner):
    last_part_is(college_db, learner.answer("What is Rahul good at, and how good is he?"),
                 "MATCH (:Student {name: 'Rahul'})-[h:HAS_SKILL]->(k:Skill) RETURN k.name, h.level")


def test_them_after_one_thing_found_is_the_thing_asked_about(college_db, learner):
    last_part_is(college_db, learner.answer("Which subject covers Paging, and what comes before them?"),
                 "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Paging'}) RETURN c.name")


def test_already_is_no_unknown_word(college_db, chat):
    assert_answered_with(chat.answer("Which projects are already finished?"), college_db,
                         "MATCH (p:Project {status: 'Completed'}) RETURN p.name")


@pytest.mark.parametrize("question", ["Which skills does the chatbot project need, and who is on that team?",
                                      "Which skills does the chatbot project need, and is anyone on that team?"])
def test_a_projects_team_is_the_project(college_db, question, learner):
    result = learner.answer(question)
    assert every_part_found(result), result.answer
    rows = parts_rows(result)[-1]
    assert {r[0] for r in rows} == {r[0] for r in rows_of(
        college_db, "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) RETURN s.name")}, rows


# --- fresh questions of my own (third batch) --------------------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("How many students take DBMS, and who are they?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DBMS'}) RETURN s.name"),
    ("How many friends does Payal have, and who are they?",
     "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(f:Student) RETURN f.name"),
])
def test_who_are_they_after_a_count_lists_what_was_counted(college_db, question, reference, learner):
    result = learner.answer(question)
    assert every_part_found(result), result.answer
    rows = parts_rows(result)[-1]
    assert same_rows(rows, rows_of(college_db, reference)), rows


@pytest.mark.parametrize("question, reference", [
    ("What do the members of the Robotics Club study?",
     "MATCH (:Club {name: 'Robotics Club'})<-[:MEMBER_OF]-(:Student)-[:STUDIES]->(s:Subject) RETURN DISTINCT s.name"),
    ("What do Sneha's friends know?",
     "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(:Student)-[:HAS_SKILL]->(k:Skill) RETURN DISTINCT k.name"),
])
def test_what_a_chain_of_people_does_is_the_far_end_of_the_verb(college_db, chat, question, reference):
    assert_answered_with(chat.answer(question), college_db, reference)


def test_tell_me_what_and_what_is_two_asks(college_db, learner):
    last_part_is(college_db, learner.answer("Tell me what Aarav does in the library project and what his "
                                            "grade in DBMS is."),
                 "MATCH (:Student {name: 'Aarav'})-[r:STUDIES]->(:Subject {name: 'DBMS'}) RETURN r.grade")


# --- fresh questions of my own (fourth batch) --------------------------------------------------------

def test_a_part_that_asks_only_for_a_kind_asks_it_of_the_one_before(college_db, learner):
    """"which clubs?" after a part about Payal listed every club (a confident error)."""
    last_part_is(college_db, learner.answer("What year is Sneha in, what branch, and which clubs?"),
                 "MATCH (:Student {name: 'Sneha'})-[:MEMBER_OF]->(c:Club) RETURN c.name")


def test_a_possessive_with_nothing_after_it_asks_the_part_before(college_db, learner):
    last_part_is(college_db, learner.answer("What is Aarav's grade in DBMS and what is Payal's?"),
                 "MATCH (:Student {name: 'Payal'})-[r:STUDIES]->(:Subject {name: 'DBMS'}) RETURN r.grade")


def test_which_of_them_chooses_among_what_was_found(college_db, learner):
    result = learner.answer("Which subjects does Aarav study, and which of them come before Computer Networks?")
    assert every_part_found(result), result.answer
    rows = parts_rows(result)[-1]
    before = rows_of(college_db, "MATCH (:Student {name: 'Aarav'})-[:STUDIES]->(s:Subject)-[:PREREQUISITE_FOR]->"
                                 "(:Subject {name: 'Computer Networks'}) RETURN s.name")
    assert {r[0] for r in rows} == {r[0] for r in before}, rows


# --- fresh questions of my own (fifth batch) ---------------------------------------------------------

def test_what_a_club_does_is_no_list_of_its_members(chat):
    """"What does the Debate Society do?" named no link and got its members (a confident error)."""
    assert chat.answer("What does the Coding Club do?").status == "out_of_scope"


def test_which_subject_to_take_before_another_is_its_prerequisite(college_db, chat):
    assert_answered_with(chat.answer("Which subject should I take before Computer Networks?"), college_db,
                         "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) RETURN s.name")


def test_their_names_after_a_count_lists_what_was_counted(college_db, learner):
    last_part_is(college_db, learner.answer("How many students are in CSE, and what are their names?"),
                 "MATCH (s:Student {branch: 'CSE'}) RETURN s.name")


def test_it_is_what_the_verb_of_its_part_reaches(college_db, learner):
    """"who knows it?" after "Which projects need SQL?": a skill is known, so it is SQL."""
    result = learner.answer("Which projects need Python, and who in the Robotics Club knows it?")
    assert every_part_found(result), result.answer
    rows = parts_rows(result)[-1]
    knowing = rows_of(college_db, "MATCH (:Club {name: 'Robotics Club'})<-[:MEMBER_OF]-(s:Student)"
                                  "-[:HAS_SKILL]->(:Skill {name: 'Python'}) RETURN s.name")
    assert {r[0] for r in rows} == {r[0] for r in knowing}, rows


def test_what_are_someones_things_listed_is_one_ask_each(college_db, learner):
    result = learner.answer("What are Karan's skills, his clubs and his project?")
    assert result.status == "answered" and {s.part for s in result.sub_questions if s.found} == {0, 1, 2}, \
        result.answer


# --- fresh questions of my own (sixth batch) ---------------------------------------------------------

def test_usmein_is_in_the_thing_found(college_db, learner):
    last_part_is(college_db, learner.answer("Sneha ka project kya hai aur usmein kaun kaun hai?"),
                 "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Attendance Tracker'}) RETURN s.name")


def test_and_is_there_is_a_second_ask(college_db, learner):
    result = learner.answer(
        "Which concepts does DBMS cover, and is there a note on each?")
    assert {s.part for s in result.sub_questions if s.found} == {0, 1}, result.answer


def test_they_is_the_kind_that_has_the_property_asked(college_db, learner):
    """"how many credits are they worth?": subjects have credits, so they are the subjects found."""
    last_part_is(college_db, learner.answer("Which subjects does Aarav take and how many credits are they worth?"),
                 "MATCH (:Student {name: 'Aarav'})-[:STUDIES]->(s:Subject) RETURN s.name, s.credits")


def test_it_of_a_verb_that_reaches_nothing_found_is_still_what_the_part_before_named(college_db, learner):
    """(Kept from a regression: "taking it" reaches people, who are not "it".)"""
    last_part_is(college_db, learner.answer("How many credits is Operating Systems worth, and which subject "
                                          "should I finish before taking it?"),
                 "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) RETURN s.name")


@pytest.mark.parametrize("question, reference", [
    ("how many ppl in the robotics club",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN count(s)"),
    ("karan's frnds", "MATCH (:Student {name: 'Karan'})-[:FRIENDS_WITH]-(f:Student) RETURN f.name"),
])
def test_a_learners_shorthand_is_read_as_its_word(college_db, chat, question, reference):
    result = chat.answer(question)
    assert result.status == "answered" and same_rows(result.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, reference", [
    ("What does Computer Networks depend on?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) RETURN s.name"),
    ("What does Computer Networks build on?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) RETURN s.name"),
    ("Which topics build on Paging?",
     "MATCH (:Concept {name: 'Paging'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
])
def test_what_a_thing_depends_or_builds_on_comes_before_it(college_db, chat, question, reference):
    assert_answered_with(chat.answer(question), college_db, reference)


def test_each_before_a_verb_is_every_value_found(college_db, learner):
    """"since when has each been a member?" (from unseen16's b003, in other words)."""
    last_part_is(college_db, learner.answer("Who is in the Robotics Club, and since when has each been a member?"),
                 "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN s.name, r.since")


def test_which_of_those_chooses_among_what_was_found(college_db, learner):
    result = learner.answer("What skills does the library project need, and which of those does Aarav have?")
    assert every_part_found(result), result.answer
    rows = parts_rows(result)[-1]
    had = rows_of(college_db, "MATCH (:Project {name: 'Library Management System'})-[:REQUIRES]->(k:Skill)"
                              "<-[:HAS_SKILL]-(:Student {name: 'Aarav'}) RETURN k.name")
    assert {r[-1] for r in rows} == {r[0] for r in had}, rows


def test_a_scope_goes_before_a_property_asked_after_a_comma(college_db, learner):
    last_part_is(college_db, learner.answer("Which subjects does Payal take, what grades did she get, and in "
                                            "which semester?"),
                 "MATCH (:Student {name: 'Payal'})-[r:STUDIES]->(s:Subject) RETURN s.name, r.semester, r.grade")


def test_they_each_is_they(college_db, learner):
    """(Kept from a regression on the development sets: "they each have" had become "they each of ...".)"""
    last_part_is(college_db, learner.answer("Who is working on the Campus Chatbot, and what skills do they each have?"),
                 "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) "
                 "MATCH (s)-[:HAS_SKILL]->(k:Skill) RETURN s.name, k.name")


def test_which_of_those_with_them_after_it_keeps_the_choice(college_db, learner):
    """(Kept from a regression: "which of those ... explaining them" wrote the list twice and was refused.)"""
    result = learner.answer("What topics does the DSA course cover, and which of those have a study note "
                            "explaining them?")
    assert every_part_found(result), result.answer
    noted = rows_of(college_db, "MATCH (:Subject {name: 'DSA'})-[:COVERS]->(c:Concept)<-[:EXPLAINS]-(n:Note) "
                                "RETURN c.name, n.id")
    assert {tuple(r[:2]) for r in parts_rows(result)[-1]} == {tuple(r) for r in noted}, result.answer


def test_a_question_that_names_a_link_is_asked_of_the_graph_before_the_notes(college_db, learner):
    """"what is Graphs a prerequisite for?" went to the Graphs note by its words (from unseen21's a006)."""
    last_part_is(college_db, learner.answer("What topics come under Memory Management, and what is Paging a "
                                            "prerequisite for?"),
                 "MATCH (:Concept {name: 'Paging'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name")


# --- after review: fresh questions on the final code ---------------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Which subjects have three credits?", "MATCH (s:Subject) WHERE s.credits = 3 RETURN s.name"),
    ("Which students are in year two?", "MATCH (s:Student) WHERE s.year = 2 RETURN s.name"),
])
def test_a_number_written_as_a_word_filters(college_db, chat, question, reference):
    """It had been dropped, and every subject listed with its credits (a confident error)."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_when_a_thing_was_set_up_is_no_request_to_change_it(college_db, chat):
    assert_answered_with(chat.answer("When was the Debate Society set up?"), college_db,
                         "MATCH (c:Club {name: 'Debate Society'}) RETURN c.name, c.founded")
    assert chat.answer("Set up a new club called Chess Club.").status == "blocked"


def test_do_after_a_property_word_is_the_verb_not_two(college_db, chat):
    """(Kept from a regression on the development sets: "credits do I get" had read "credits 2".)"""
    assert_answered_with(chat.answer("How many credits do I get for DSA?"), college_db,
                         "MATCH (s:Subject {name: 'DSA'}) RETURN s.name, s.credits")


# --- a later stop: fresh questions written before the rules changed -------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Which members of the Debate Society work on a project?",
     "MATCH (:Club {name: 'Debate Society'})<-[:MEMBER_OF]-(s:Student)-[:WORKS_ON]->(:Project) "
     "RETURN DISTINCT s.name"),
    ("Which students who know Python work on a project?",
     "MATCH (:Skill {name: 'Python'})<-[:HAS_SKILL]-(s:Student)-[:WORKS_ON]->(:Project) RETURN DISTINCT s.name"),
])
def test_a_link_to_any_thing_filters_the_people_asked_for(college_db, chat, question, reference):
    """"work on a project" is said of the members; the chain had walked on to the project and back to
    everyone on it (Aarav, who is in no such club, was named: a confident error)."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Which student is in the highest year?",
     "MATCH (s:Student) WITH max(s.year) AS top MATCH (s:Student) WHERE s.year = top RETURN s.name, s.year"),
    ("Who is in the lowest year?",
     "MATCH (s:Student) WITH min(s.year) AS top MATCH (s:Student) WHERE s.year = top RETURN s.name, s.year"),
    ("Which subject has the highest credits?",
     "MATCH (s:Subject) WITH max(s.credits) AS top MATCH (s:Subject) WHERE s.credits = top "
     "RETURN s.name, s.credits"),
    ("Who is in the final year?",
     "MATCH (s:Student) WITH max(s.year) AS top MATCH (s:Student) WHERE s.year = top RETURN s.name, s.year"),
])
def test_a_superlative_beside_a_number_property_is_its_largest_or_smallest(college_db, chat, question,
                                                                          reference):
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Who leads the Library Management System?",
     "MATCH (s:Student)-[r:WORKS_ON]->(:Project {name: 'Library Management System'}) "
     "WHERE toLower(r.role) CONTAINS 'lead' RETURN s.name"),
    ("Who is heading the Attendance Tracker project?",     # nobody leads it: nothing is found
     "MATCH (s:Student)-[r:WORKS_ON]->(:Project {name: 'Attendance Tracker'}) "
     "WHERE toLower(r.role) CONTAINS 'lead' RETURN s.name"),
    ("Who is heading the Campus Chatbot?",
     "MATCH (s:Student)-[r:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) "
     "WHERE toLower(r.role) CONTAINS 'lead' RETURN s.name"),
])
def test_a_word_that_means_a_role_filters_a_role_the_schema_does_not_list(college_db, chat, question,
                                                                          reference):
    """A project's roles are free text the prompt does not list. "leads" had named no value of them
    and been refused; it now asks for a role that holds a word it means (a query with no filter at
    all, every member, is still never written)."""
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)
    assert ".role) CONTAINS" in result.cypher


def test_what_year_a_thing_was_started_is_when_it_was_founded(college_db, chat):
    assert_answered_with(chat.answer("What year was the Coding Club started?"), college_db,
                         "MATCH (c:Club {name: 'Coding Club'}) RETURN c.name, c.founded")


@pytest.mark.parametrize("question, reference", [
    ("who is aarav friends with and what subjects is he doing",     # unseen22's i017
     "MATCH (:Student {name: 'Aarav'})-[:STUDIES]->(s:Subject) RETURN s.name"),
    ("Who is Karan friends with and what does he study?",
     "MATCH (:Student {name: 'Karan'})-[:STUDIES]->(s:Subject) RETURN s.name"),
])
def test_he_after_a_who_question_about_someone_is_that_someone(college_db, learner, question, reference):
    """The one named is the subject of "who is X friends with": "he" is X, not the friend found
    (the friend's subjects had been given: a confident error)."""
    last_part_is(college_db, learner.answer(question), reference)


def test_she_is_never_one_of_several_found(college_db, learner):
    """"she" is one person: of two friends found it had taken the first (a confident error)."""
    last_part_is(college_db, learner.answer("Who are Payal's friends, and what branch is she in?"),
                 "MATCH (s:Student {name: 'Payal'}) RETURN s.name, s.branch")


@pytest.mark.parametrize("question", [
    "Who are the members of the Coding Club and when did each join?",
    "Who is in the Coding Club, and what year did each one join the club?",
])
def test_each_after_an_auxiliary_is_every_one_found(college_db, learner, question):
    """"when did each join?" had gone to a note on query optimisation by its word "join" (a
    confident error): "each" with a verb after it stands for the members found."""
    last_part_is(college_db, learner.answer(question),
                 "MATCH (s:Student)-[m:MEMBER_OF]->(:Club {name: 'Coding Club'}) RETURN s.name, m.since")


@pytest.mark.parametrize("question", ["Which projects need Docker, and who on them knows Docker?",
                                      "Which projects need Python, and who on each of them knows Python?"])
def test_them_after_a_preposition_is_what_was_found_not_what_the_verb_reaches(college_db, learner, question):
    """"them" had become the skill ("who on Docker knows Docker?"), and the filler rule then
    dropped the name said twice: everyone who knows it was the answer (a confident error)."""
    skill = question.split()[-1].rstrip("?")
    last_part_is(college_db, learner.answer(question),
                 f"MATCH (:Skill {{name: '{skill}'}})<-[:REQUIRES]-(p:Project)<-[:WORKS_ON]-(s:Student) "
                 f"MATCH (s)-[:HAS_SKILL]->(:Skill {{name: '{skill}'}}) RETURN DISTINCT s.name")


def test_a_name_said_twice_is_no_filler(college_db):
    from course.retrieval.filler import filler_dropper

    assert filler_dropper(college_db)("who on Docker knows Docker?") is None


def _the_one_of(names: list[str], label: str, prop: str, pick: str) -> str:
    listed = ", ".join(f"'{n}'" for n in names)
    return (f"MATCH (t:{label}) WHERE t.name IN [{listed}] WITH {pick}(t.{prop}) AS top "
            f"MATCH (t:{label}) WHERE t.name IN [{listed}] AND t.{prop} = top RETURN t.name, t.{prop}")


@pytest.mark.parametrize("question, reference", [
    ("Who is in a higher year, Aarav or Karan?", _the_one_of(["Aarav", "Karan"], "Student", "year", "max")),
    ("Which of Aarav and Sneha is in a later year?", _the_one_of(["Aarav", "Sneha"], "Student", "year", "max")),
    ("Which club is older, the Coding Club or the Debate Society?",
     _the_one_of(["Coding Club", "Debate Society"], "Club", "founded", "min")),
    ("Which has more credits, DBMS or Computer Networks?",
     _the_one_of(["DBMS", "Computer Networks"], "Subject", "credits", "max")),
    ("Between Rahul and Karan, who joined the Robotics Club first?",
     "MATCH (t:Student)-[r:MEMBER_OF]->(:Club {name: 'Robotics Club'}) WHERE t.name IN ['Rahul', 'Karan'] "
     "WITH min(r.since) AS top MATCH (t:Student)-[r:MEMBER_OF]->(:Club {name: 'Robotics Club'}) "
     "WHERE t.name IN ['Rahul', 'Karan'] AND r.since = top RETURN t.name, r.since"),
    ("Who got the better grade in DSA, Payal or Karan?",
     "MATCH (t:Student)-[r:STUDIES]->(:Subject {name: 'DSA'}) WHERE t.name IN ['Payal', 'Karan'] "
     "RETURN t.name, r.grade ORDER BY CASE r.grade WHEN 'A+' THEN 0 WHEN 'A' THEN 1 WHEN 'B+' THEN 2 "
     "WHEN 'B' THEN 3 ELSE 4 END LIMIT 1"),
    ("Who is better at Python, Rahul or Payal?",
     "MATCH (t:Student)-[r:HAS_SKILL]->(:Skill {name: 'Python'}) WHERE t.name IN ['Rahul', 'Payal'] "
     "RETURN t.name, r.level ORDER BY CASE r.level WHEN 'Advanced' THEN 0 WHEN 'Intermediate' THEN 1 "
     "ELSE 2 END LIMIT 1"),
])
def test_a_comparison_of_named_things_answers_which_of_them(college_db, chat, question, reference):
    """Both had been listed with their values, the clubs they joined given for "who joined
    earlier", or the question refused: the answer is the one (or the tied ones) asked for."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_comparison_the_graph_holds_nothing_for_is_not_answered(college_db, learner):
    """"which of them is older?" of two students: the graph has no age, and both had been listed."""
    from course.agents.agentic_run import best_parts

    result = learner.answer("What year are Payal and Sneha in, and which of them is older?")
    first, last = result.sub_questions[0], best_parts(result.sub_questions)[-1]
    assert first.found and same_rows(first.rows, rows_of(
        college_db, "MATCH (s:Student) WHERE s.name IN ['Payal', 'Sneha'] RETURN s.name, s.year")), result.answer
    assert not last.found, result.answer


def test_a_word_between_which_and_its_noun_still_asks_for_that_noun(college_db, chat):
    """"Which smaller topics make up Graphs?" had been answered with the subject that covers
    Graphs once "smaller" was a known word: the noun after "which" is what is asked, a word
    between them or not. The topics it includes, or a refusal."""
    result = chat.answer("Which smaller topics make up Graphs?")
    included = "MATCH (:Concept {name: 'Graphs'})-[:INCLUDES]->(c:Concept) RETURN c.name"
    assert result.status == "out_of_scope" or same_rows(result.rows, rows_of(college_db, included)), \
        result.answer


def test_she_is_the_person_found_whatever_the_verb_of_her_part_reaches(college_db, learner):
    """"since when has she been a member?" had kept "she" (its verb reaches clubs, and no club is
    a she): from unseen22's i019."""
    last_part_is(college_db, learner.answer("Who is the president of the Debate Society, and since when "
                                            "has she been a member?"),
                 "MATCH (s:Student)-[m:MEMBER_OF {role: 'President'}]->(:Club {name: 'Debate Society'}) "
                 "RETURN m.since")


def test_a_topic_before_a_dash_and_an_it_after_an_it(college_db, learner):
    """"X - whats its status, ..." had been one part, refused (from unseen22's i027); then "who's
    on it?" had taken "it" for the skill the part before found, not the project both "it"s are."""
    result = learner.answer("attendance tracker - whats its status, what skills does it need, and who's on it?")
    assert len(parts_rows(result)) == 3, result.answer
    last_part_is(college_db, result,
                 "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Attendance Tracker'}) RETURN s.name")


def test_a_role_whose_words_hold_a_linked_name_is_not_read_as_that_name(college_db, chat):
    """"as an ML Engineer": "ML" was linked to the skill and the role read as any engineer, so
    both engineers on the project were named (a confident error). Unsure, it is refused."""
    result = chat.answer("Who works on the Campus Chatbot as an ML Engineer?")
    engineer = "MATCH (s:Student)-[r:WORKS_ON {role: 'ML Engineer'}]->(:Project {name: 'Campus Chatbot'}) " \
               "RETURN s.name"
    assert result.status == "out_of_scope" or same_rows(result.rows, rows_of(college_db, engineer)), \
        result.answer


@pytest.mark.parametrize("question, role", [
    ("Who is the DevOps Engineer?", "devops engineer"),
    ("Who is the Backend Developer on the library project?", "backend developer"),
    ("Which students are frontend developers?", "frontend developer"),
])
def test_a_role_named_with_a_word_of_its_own_text(college_db, chat, question, role):
    """"DevOps" is known only as a word of a role's text: it had been an unknown word, refused."""
    assert_answered_with(chat.answer(question), college_db,
                         f"MATCH (s:Student)-[r:WORKS_ON]->(:Project) WHERE toLower(r.role) CONTAINS '{role}' "
                         "RETURN DISTINCT s.name")


@pytest.mark.parametrize("question", ["Who is the lead engineer?", "Who is the head developer?",
                                      "Who is the vice president of the Coding Club?"])
def test_two_words_of_one_value_are_not_answered_by_one_of_them(chat, question):
    """"the lead engineer" had been answered with the clubs' presidents ("lead" alone: a
    confident error); "vice" must not be dropped from "vice president" either."""
    assert chat.answer(question).status == "out_of_scope"


@pytest.mark.parametrize("question, reference", [
    ("Payal's friends, which clubs are they in?",
     "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(f:Student)-[:MEMBER_OF]->(c:Club) RETURN DISTINCT c.name"),
    ("coding club members - what do they study?",
     "MATCH (:Club {name: 'Coding Club'})<-[:MEMBER_OF]-(s:Student)-[:STUDIES]->(t:Subject) RETURN DISTINCT t.name"),
])
def test_a_topic_first_is_what_the_question_after_it_points_at(college_db, learner, question, reference):
    """A topic, then a question about "they": refused before (from unseen22's i043, in fresh words)."""
    assert_answered_with(learner.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("How many projects are there, and which one is completed?",
     "MATCH (p:Project) WHERE p.status = 'Completed' RETURN p.name"),
    ("What clubs is Payal in, and which one is the oldest?",
     "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) WITH min(c.founded) AS top "
     "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) WHERE c.founded = top RETURN c.name, c.founded"),
    ("Which projects does Rahul work on, and which ones are in progress?",
     "MATCH (:Student {name: 'Rahul'})-[:WORKS_ON]->(p:Project) WHERE p.status = 'In Progress' RETURN p.name"),
])
def test_which_one_chooses_among_what_the_part_before_found_or_counted(college_db, learner, question, reference):
    """"which one is completed?" after a count had been one ask with it, refused; "which one is the
    oldest?" was asked of nothing; "which ones" had been every project, not Rahul's."""
    last_part_is(college_db, learner.answer(question), reference)


@pytest.mark.parametrize("question, reference", [
    ("Which clubs does Aarav belong to, and when was each founded?",
     "MATCH (:Student {name: 'Aarav'})-[:MEMBER_OF]->(c:Club) RETURN c.name, c.founded"),
    ("What's Karan's year, his branch and his skills?",
     "MATCH (:Student {name: 'Karan'})-[:HAS_SKILL]->(k:Skill) RETURN k.name"),
    ("Which students study DBMS, and which of them got an A+?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DBMS'}) WHERE r.grade = 'A+' RETURN s.name, r.grade"),
])
def test_each_of_one_a_list_after_whats_and_a_choice_by_a_value(college_db, learner, question, reference):
    """Refused or half before: "each" of the one club found, "What's" opening a list of asks, and
    "which of them got an A+" (their grades had been listed, unfiltered, so refused)."""
    last_part_is(college_db, learner.answer(question), reference)


@pytest.mark.parametrize("question, reference", [
    ("Which subjects have more than 3 credits?", "MATCH (s:Subject) WHERE s.credits > 3 RETURN s.name"),
    ("Which subjects have fewer than 4 credits?", "MATCH (s:Subject) WHERE s.credits < 4 RETURN s.name"),
])
def test_more_than_a_number_of_a_property_compares_the_property(college_db, chat, question, reference):
    """Read as "linked to more than 3 things" and refused as outside the graph (older than this stop)."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question", ["List the clubs and their founding years.",
                                      "Give me the names of all clubs and their founding years."])
def test_founding_years_is_when_each_was_founded(college_db, learner, question):
    """"years" had been the students' year of study, and the part refused."""
    last_part_is(college_db, learner.answer(question), "MATCH (c:Club) RETURN c.name, c.founded")


def test_a_property_of_a_kind_is_asked_of_the_graph_before_the_notes(college_db, learner):
    """"What is the highest year a student is in?" had been answered from the note on 2NF (its
    text speaks of student ids): a confident error older than this stop."""
    assert_answered_with(learner.answer("What is the highest year a student is in?"), college_db,
                         "MATCH (s:Student) WITH max(s.year) AS top MATCH (s:Student) WHERE s.year = top "
                         "RETURN s.name, s.year")


def test_a_superlative_of_a_number_is_no_ranking_by_a_scale(chat):
    """"Which subject has the lowest semester?" had been every student ranked by grade (a
    confident error older than this stop); whose semester is not said: refused."""
    assert chat.answer("Which subject has the lowest semester?").status == "out_of_scope"


def test_how_much_of_a_thing_no_note_names_is_not_answered_from_the_note(learner):
    """unseen23's o017: "how much weightage does normalization get?" had been answered with the
    normalization note, which says nothing of weightage (an out-of-scope question answered)."""
    result = learner.answer("when is the dbms end sem exam and how much weightage does normalization get?")
    assert not any(s.found and s.tool == "search_notes" for s in result.sub_questions), result.answer


@pytest.mark.parametrize("question, reference", [
    ("what should i learn before deadlocks, and what topic does deadlocks lead into after?",   # o041
     "MATCH (:Concept {name: 'Deadlocks'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
    ("when was the robotics club started and who is its prez",                                # o025
     "MATCH (s:Student)-[:MEMBER_OF {role: 'President'}]->(:Club {name: 'Robotics Club'}) RETURN s.name"),
])
def test_unseen23s_words_lead_into_and_prez(college_db, learner, question, reference):
    """"lead into" had been a leading role (President), and "prez" an unknown word."""
    last_part_is(college_db, learner.answer(question), reference)


def test_back_in_a_year_is_that_year(college_db, chat):
    """unseen23's o007: "who joined a club back in 2024" was refused for "back"."""
    assert_answered_with(chat.answer("who joined a club back in 2024"), college_db,
                         "MATCH (s:Student)-[m:MEMBER_OF]->(:Club) WHERE m.since = 2024 RETURN DISTINCT s.name")


@pytest.mark.parametrize("question, reference", [
    ("which projects arent finished yet?",                    # unseen24's l005
     "MATCH (p:Project) WHERE p.status <> 'Completed' RETURN p.name"),
    ("projects that havent started?", "MATCH (p:Project) WHERE p.status = 'Planned' RETURN p.name"),
])
def test_a_not_written_without_its_apostrophe_is_a_not(college_db, chat, question, reference):
    """"arent finished" had been read as "finished" and the one completed project given (a
    confident error, in every agent)."""
    assert_answered_with(chat.answer(question), college_db, reference)


# --- unseen26 (blind, then a development set), and fresh questions of the same kinds ----------

@pytest.mark.parametrize("question, reference", [
    ("when was robotics club started and who is the president",                          # aa021
     "MATCH (s:Student)-[:MEMBER_OF {role: 'President'}]->(:Club {name: 'Robotics Club'}) RETURN s.name"),
    ("who is in the coding club and who is the secretary",
     "MATCH (s:Student)-[:MEMBER_OF {role: 'Secretary'}]->(:Club {name: 'Coding Club'}) RETURN s.name"),
    ("who are aarav's friends and what grade did he get in os",                          # aa028
     "MATCH (:Student {name: 'Aarav'})-[r:STUDIES]->(:Subject {name: 'Operating Systems'}) RETURN r.grade"),
])
def test_a_later_part_is_of_what_the_part_before_asked_about(college_db, learner, question, reference):
    """"who is the president" after a part about the Robotics Club had been every club's
    president; "he" after "who are Aarav's friends" had been the one friend found."""
    last_part_is(college_db, learner.answer(question), reference)


@pytest.mark.parametrize("question", ["what does campus chatbot need and who is the team lead",
                                      "what is the status of the attendance tracker and who leads"])
def test_a_role_of_the_thing_asked_about_is_not_another_things(college_db, learner, question):
    """Neither project has a lead: the answer had been the Library Management System's team
    lead, then every club's president."""
    result = learner.answer(question)
    assert not any(s.rows for s in learner.last.sub_questions if s.found and s.part == 1), result.answer


@pytest.mark.parametrize("question, reference", [
    ("who is the team lead",
     "MATCH (s:Student)-[r:WORKS_ON]->(:Project) WHERE r.role = 'Team Lead' RETURN s.name"),
    ("what does graphs include as subtopics",                                            # aa025
     "MATCH (:Concept {name: 'Graphs'})-[:INCLUDES]->(c:Concept) RETURN c.name"),
    ("what skills do rahuls friends have",                                               # aa042
     "MATCH (:Student {name: 'Rahul'})-[:FRIENDS_WITH]-(:Student)-[:HAS_SKILL]->(k:Skill) RETURN DISTINCT k.name"),
    ("what is payals branch", "MATCH (s:Student {name: 'Payal'}) RETURN s.name, s.branch"),
])
def test_unseen26s_words(college_db, chat, question, reference):
    """"team lead" had been a club's President (for "lead"); "include as subtopics" two steps
    of INCLUDES (BST); "rahuls" a name without its possessive, so Rahul's own skills."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, note", [
    ("why are threads cheaper to create than processes?", "N17"),   # "create": no request to write
    ("what info does the os keep about each running program?", "N16"),   # "info" names no kind
    ("a router has a few entries in its table that all match the destination address of a packet. "
     "which one does it actually use to forward it?", "N24"),          # unseen20's j026: "one"
])
def test_a_note_question_is_not_refused_for_a_word_that_asks_nothing(learner, question, note):
    """"create ... than processes" had been a request to change the data (blocked); "which info
    does", "which one does" a kind of thing the note must name."""
    result = learner.answer(question)
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes == [note], result.answer


@pytest.mark.parametrize("question, reference", [
    ("which clubs is rahul in n what year is he in",
     "MATCH (s:Student {name: 'Rahul'}) RETURN s.name, s.year"),
    ("which sub does aarav study, n whos his frend",
     "MATCH (:Student {name: 'Aarav'})-[:FRIENDS_WITH]-(f:Student) RETURN f.name"),
])
def test_texting_shorthand_and_a_typo_of_a_word_with_an_optional_ending(college_db, learner,
                                                                      question, reference):
    """"n" for "and" had split nothing (the whole refused, or its second ask dropped unsaid),
    and "frend" was no typo of "friend": the lexicon writes "friends?", and only "friends" was
    a word to correct towards."""
    last_part_is(college_db, learner.answer(question), reference)


def test_the_first_one_is_no_topic_to_search_the_notes_for(learner):
    """"explain the first one" after DBMS's topics had been answered from the note on
    depth-first search (the search matched "first"): the place points back, it names nothing."""
    learner.answer("what does dbms cover")
    result = learner.answer("explain the first one")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert "N14" not in notes, result.answer


def test_woh_after_kaun_kaun_is_everyone_found(college_db, learner):
    """"payal ke dost kaun kaun hai aur woh kis club mein hai" had been asked of the first
    friend alone (Sneha): "kaun kaun" asks for several, and "woh" after it is all of them."""
    result = learner.answer("payal ke dost kaun kaun hai aur woh kis club mein hai")
    last_part_is(college_db, result,
                 "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(f:Student)-[:MEMBER_OF]->(c:Club) "
                 "RETURN f.name, c.name")


@pytest.mark.parametrize("question, reference", [
    ("What year did Payal join the Debate Society, and who else is in it?",      # who, not their role
     "MATCH (s:Student)-[m:MEMBER_OF]->(:Club {name: 'Debate Society'}) WHERE s.name <> 'Payal' "
     "RETURN s.name"),
    ("Which clubs is Payal in and who else is in the Coding Club?",              # multipart2's w12
     "MATCH (s:Student)-[m:MEMBER_OF]->(:Club {name: 'Coding Club'}) WHERE s.name <> 'Payal' "
     "RETURN s.name, m.role"),
])
def test_who_else_sets_apart_the_one_named_before(college_db, learner, question, reference):
    """"who else is in it?" had listed Payal herself among the others."""
    last_part_is(college_db, learner.answer(question), reference)


def test_who_else_with_no_one_to_set_apart_is_not_everyone(chat):
    """"who else knows python?" names no one to set apart: every student who knows it would
    answer another question."""
    assert chat.answer("who else knows python").status == "out_of_scope"


# --- unseen28 and unseen30 (blind sets, read after scoring) -----------------------------------

@pytest.mark.parametrize("question, note", [
    ("which graph traversal gives shortest path when edges have no weights and y does it use a "
     "queue", "N13"),                                     # unseen28 ae003
    ("why does a bst sometimes get as slow as searching a linked list, like O(n) instead of log n",
     "N11"),                                              # unseen30 ag013
    ("for shortest path in an unweighted graph do i use bfs or dfs, and what data structure does "
     "it run on", "N13"),                                 # unseen30 ag006
])
def test_a_topic_set_beside_the_notes_own_or_only_a_little_closer_does_not_refuse_it(learner,
                                                                                     question, note):
    """The sentence on Dijkstra's algorithm (a topic no note explains) was a hair closer to
    "shortest path when edges have no weights" than the BFS note, in both encoders, and set the
    note aside; "as slow as a linked list" and "bfs or dfs" name a second topic the note does
    not speak of, and the note was no answer for it though the question names its own topic."""
    result = learner.answer(question)
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes[:1] == [note], result.answer


def test_a_note_that_speaks_of_neither_named_topic_is_still_no_answer(learner):
    """The rule above needs the question to name the note's own topic: the note on indexes (it
    says "B+ tree") is no answer to a question about a binary search tree."""
    learner.answer("I inserted already-sorted numbers one by one into a binary search tree and "
                   "now every lookup is slow. What went wrong?")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert "N06" not in notes


@pytest.mark.parametrize("question, reference", [
    ("karan's subjects are prereqs for which other subjects?",          # unseen30 ag042
     "MATCH (:Student {name: 'Karan'})-[:STUDIES]->(:Subject)-[:PREREQUISITE_FOR]->(t:Subject) "
     "RETURN DISTINCT t.name"),
    ("dsa kiska prereq hai?",                                           # unseen30 ag045
     "MATCH (:Subject {name: 'DSA'})-[:PREREQUISITE_FOR]->(t:Subject) RETURN t.name"),
    ("What is a prereq for OS?",                                        # the other way still
     "MATCH (t:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) RETURN t.name"),
])
def test_what_a_named_thing_is_a_prerequisite_for(college_db, chat, question, reference):
    """"X's subjects are prereqs for which" and "X kiska prereq hai" (whose prerequisite is X)
    were read the other way: Karan's subjects' prerequisites (DSA, a confident wrong answer),
    and "nothing" for DSA."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("ok so what subjects is payal taking, and what grade did she get in each",     # ag019
     "MATCH (:Student {name: 'Payal'})-[r:STUDIES]->(s:Subject) RETURN s.name, r.grade"),
    ("quick q what skills does karan have and how good is he at them, also which club is he in",
     "MATCH (:Student {name: 'Karan'})-[:MEMBER_OF]->(c:Club) RETURN c.name"),     # ag025
    ("bro which club is rahul in and when was it founded",
     "MATCH (:Student {name: 'Rahul'})-[:MEMBER_OF]->(c:Club) RETURN c.name, c.founded"),
])
def test_words_that_open_a_question_and_ask_nothing_do_not_keep_it_whole(college_db, learner,
                                                                         question, reference):
    """"ok so", "quick q", "bro" before the first ask made it no question to split at its "and":
    the whole went to one query, which refused it."""
    last_part_is(college_db, learner.answer(question), reference)


@pytest.mark.parametrize("question, reference", [
    ("virtual memory comes in which subject again?",                                # ag035
     "MATCH (s:Subject)-[:COVERS]->(:Concept {name: 'Virtual Memory'}) RETURN s.name"),
    ("which subject is BFS in?",
     "MATCH (s:Subject)-[:COVERS]->(:Concept {name: 'BFS'}) RETURN s.name"),
])
def test_the_kind_asked_for_is_no_word_of_a_link(college_db, chat, question, reference):
    """"subject" is a word of studying too; a concept is in a subject by the one link between
    them, and the question was refused as a student's studies no student was named for."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_it_after_a_note_that_answered_which_thing_is_that_thing(learner):
    """"which graph search gives the shortest route ..., and does it use a queue or stack?":
    "it" is the search the note explains (BFS), not the graphs the question named; the second
    part had been "does Graphs use a queue or stack?", answered from the note on graphs."""
    learner.answer("which graph search gives u the shortest route when edges dont have weights, "
                   "and does it use a queue or stack?")
    parts = learner.last.sub_questions
    assert not any("Graphs" in s.rewritten for s in parts)
    assert [s.rows[0][0] for s in parts if s.tool == "search_notes" and s.found][:1] == ["N13"]
    assert all(s.rows[0][0] == "N13" for s in parts if s.tool == "search_notes" and s.found)


def test_a_part_that_points_back_is_no_evidence_against_the_whole_questions_note(learner):
    """unseen30 ag010: split, "how does it find the ip address?" asked alone clears the bar for
    the note on subnetting, and that kept the question from being asked whole (the DNS note
    answers it whole); a part whose "it" stands for another part's topic says nothing alone."""
    result = learner.answer("what actually happens when i type a website name in the browser, how "
                            "does it find the ip address? and which port does that use")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes and set(notes) == {"N23"}, result.answer


@pytest.mark.parametrize("question, reference", [
    ("wat skills does sneha have n at what level, also which project is she on and its status",
     "MATCH (:Student {name: 'Sneha'})-[:WORKS_ON]->(p:Project) RETURN p.name, p.status"),  # ae017
])
def test_a_property_of_the_thing_found(college_db, learner, question, reference):
    """"which project is she on and its status" left the status out (refused)."""
    last_part_is(college_db, learner.answer(question), reference)


def test_a_plus_between_two_asks_is_an_and(college_db, learner):
    """unseen30 ag020: "who is aarav friends with + which clubs are they in" was one ask, and
    its answer the friends' clubs alone: who the friends are went unsaid."""
    result = learner.answer("who is aarav friends with + which clubs are they in")
    friends = "MATCH (:Student {name: 'Aarav'})-[:FRIENDS_WITH]-(f:Student) RETURN f.name"
    assert same_rows(parts_rows(result)[0], rows_of(college_db, friends)), result.answer
    last_part_is(college_db, result, "MATCH (:Student {name: 'Aarav'})-[:FRIENDS_WITH]-(:Student)"
                 "-[:MEMBER_OF]->(c:Club) RETURN DISTINCT c.name")


def test_which_of_them_is_never_answered_from_a_note(learner):
    """unseen30 ag024: "which of them come under tcp/ip" after a list of topics was answered
    with the note on TCP/IP, which chooses none of them: a choice among values found is the
    graph's to answer, or no one's."""
    learner.answer("list the topics in computer networks pls, and which of them come under tcp/ip")
    last = [s for s in learner.last.sub_questions if s.part == 1]
    assert not any(s.tool == "search_notes" and s.found for s in last)


# --- unseen32 (blind, read after scoring) -------------------------------------------------------

def test_two_names_set_side_by_side_to_choose_one_are_no_route(learner):
    """unseen32 ai003: "bfs vs dfs which one for shortest path" was the shortest path in the
    graph from BFS to DFS ("BFS -> Graphs -> DFS"), a confident wrong answer; it is the note on
    BFS's question."""
    result = learner.answer("bfs vs dfs which one for shortest path")
    assert "→" not in (result.answer or "")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes[:1] == ["N13"], result.answer


@pytest.mark.parametrize("question, reference", [
    ("I want to know which clubs Rahul is in and when each was founded.",
     "MATCH (:Student {name: 'Rahul'})-[:MEMBER_OF]->(c:Club) RETURN c.name, c.founded"),
    ("I would like to know who Aarav is friends with and which clubs they are in.",
     "MATCH (:Student {name: 'Aarav'})-[:FRIENDS_WITH]-(:Student)-[:MEMBER_OF]->(c:Club) "
     "RETURN DISTINCT c.name"),
])
def test_i_want_to_know_opens_a_question_that_splits(college_db, learner, question, reference):
    """"I want to know which ... and ..." read as no question at all (its question word is not
    its first), so its two asks went whole to one query and were refused."""
    last_part_is(college_db, learner.answer(question), reference)


@pytest.mark.parametrize("question, reference", [
    ("I want to help out on the attendance tracker. what skills does it need, and is anyone "
     "already good at that?",                                                       # ai025
     "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'React'}) RETURN s.name"),
    ("I'm looking for a senior who's done DSA. what grade did Karan get in it and which semester "
     "did he take it?",                                                             # ai026
     "MATCH (:Student {name: 'Karan'})-[r:STUDIES]->(:Subject {name: 'DSA'}) RETURN r.semester"),
])
def test_an_ask_after_a_scene_is_about_what_the_scene_names(college_db, learner, question,
                                                             reference):
    """A sentence that says something, then an ask that points back at it: the scene's words
    were no query's, and the part was refused; asked again without them, "it" is what the scene
    named."""
    last_part_is(college_db, learner.answer(question), reference)


def test_a_scene_about_what_the_notes_explain_stays_with_its_note_question(learner):
    """The ask after a scene is asked alone only when the question names something no note
    speaks of: "Two of my processes ... what is this?" had become "what is Processes" (the
    profile of the concept, a wrong answer) while the scene made it the deadlock note's."""
    result = learner.answer("Two of my processes are each stuck waiting for something the other "
                            "one holds. what is this and what has to be true for it to happen?")
    assert not any("what is Processes" in s.rewritten for s in learner.last.sub_questions), \
        result.answer


@pytest.mark.parametrize("question, reference", [
    ("which clubs is Payal in, what's her role in each, and when was each club founded?",
     "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) RETURN c.name, c.founded"),  # ai029
    ("what should I learn before BCNF, and what does that topic need first?",          # ai030
     "MATCH (p:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: '3NF'}) RETURN p.name"),
])
def test_each_club_after_clubs_found_and_what_a_topic_needs_first(college_db, learner, question,
                                                                  reference):
    """"when was each club founded?" after Payal's clubs had been every club's founding year;
    "what does 3NF need first?" was refused."""
    last_part_is(college_db, learner.answer(question), reference)


def test_an_order_the_query_does_not_give_is_not_a_plain_list(chat):
    """"give me an order to take the courses in" had listed every subject, in no order."""
    result = chat.answer("give me an order to take the courses in?")
    assert result.status != "answered", result.answer


def test_texting_shorthand_is_read_before_the_notes_are_asked_to_hold_a_term(learner):
    """"wat is a race conditon" was refused: "wat" was a term the note must hold (the notes
    that hold every term answer a question the bar did not clear)."""
    result = learner.answer("wat is a race conditon")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes[:1] == ["N17"], result.answer


def test_which_of_those_friends_chooses_among_them(college_db, learner):
    """unseen33 aj031: "which of those friends is also in the coding club?" had been rewritten
    "which of each of Sneha and Aarav ..." and refused."""
    result = learner.answer("who is Payal friends with, and which of those friends is also in "
                            "the coding club?")
    last_part_is(college_db, result, "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(f:Student)"
                 "-[:MEMBER_OF]->(:Club {name: 'Coding Club'}) RETURN f.name")


def test_should_i_put_an_index_weighs_the_learners_own_change(learner):
    """unseen32 ai001: "... so should I put an index on the email column?" was blocked as a
    request to change the data; it weighs a change to the learner's own table (the note on
    indexes answers it). "I want to add Karan to the coding club" is still a request."""
    result = learner.answer("I'm building a login table and looking users up by email is getting "
                            "slow, so should I put an index on the email column? is there any "
                            "downside to doing that?")
    assert result.status == "answered", result.answer
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes[:1] == ["N06"], result.answer
    assert learner.answer("I want to add Karan to the coding club").status == "blocked"


@pytest.mark.parametrize("agent", ["learner", "chat"])
def test_what_a_subject_teaches_is_no_ranking_of_students(request, agent):
    """unseen33 aj026: "what does that subject teach?" (DSA) was answered with DSA's students
    ranked by grade: the template for "who should teach me X?" and the ranking both read
    "teach" and asked for no one. A part no query answers is said to be unanswered."""
    result = request.getfixturevalue(agent).answer("what does DSA teach?")
    assert not any(row and row[0] in ("Payal", "Rahul", "Karan") for row in result.rows), result.answer
    assert request.getfixturevalue(agent).answer("who can I learn python from?").status == "answered"


def test_a_fragment_is_more_of_the_ask_before_it(learner):
    """unseen34 ak013: "... which servers does it ask and in what order" split "in what order?"
    off as an ask of its own, and it cleared the bar for the note on binary search trees (an
    in-order traversal): a wrong answer. A preposition, a question word and a noun, no verb,
    belong to the ask before; the note on DNS answers the question whole."""
    result = learner.answer("how does my laptop figure out the IP address for a site like "
                            "example.com?? which servers does it ask and in what order")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes and set(notes) == {"N23"}, result.answer


@pytest.mark.parametrize("question, reference", [
    ("I'm planning a hackathon for the coding club - who are its members and what skills does "
     "each of them have?",                                                               # ak017
     "MATCH (:Club {name: 'Coding Club'})<-[:MEMBER_OF]-(s:Student)-[:HAS_SKILL]->(k:Skill) "
     "RETURN s.name, k.name"),
    ("for our anniversary poster: when was the coding club founded and how many members does it "
     "have right now?",                                                                  # ak027
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Coding Club'}) RETURN count(s)"),
])
def test_a_scene_before_a_colon_or_a_dash(college_db, learner, question, reference):
    """A clause that sets the scene before a colon or a dash kept the ask after it from being
    answered (its words are no query's): both had been refused whole."""
    last_part_is(college_db, learner.answer(question), reference)


def test_itself_after_a_name_is_emphasis(college_db, learner):
    """unseen34 ak023: "what do I need to learn before TCP/IP itself?" was refused by the query
    ("itself" an unknown word), and then answered from the note on TCP/IP, which names nothing
    that comes before it (a wrong part)."""
    result = learner.answer("Which concepts fall under TCP/IP, and what do I need to learn before "
                            "TCP/IP itself?")
    last_part_is(college_db, result, "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: "
                 "'TCP/IP'}) RETURN c.name")


def test_a_bare_property_after_a_question_about_someone_is_theirs(college_db, learner):
    """unseen35 al016: "rahul year? branch? clubs?" answered "branch?" from the note on
    depth-first search ("along one branch"), a wrong part: a part that names only a property
    asks it of the one the part before was about, as a part naming only a kind does."""
    result = learner.answer("rahul year? branch? clubs?")
    parts = parts_rows(result)
    assert same_rows(parts[1], [["Rahul", "IT"]]) or same_rows(parts[1], [["IT"]]), result.answer
    assert not any(s.tool == "search_notes" and s.found for s in learner.last.sub_questions)


@pytest.mark.parametrize("question, reference", [
    ("which subjects have a prereq that karan is studying",               # unseen29 af041
     "MATCH (:Student {name: 'Karan'})-[:STUDIES]->(:Subject)-[:PREREQUISITE_FOR]->(t:Subject) "
     "RETURN DISTINCT t.name"),
    ("Which subjects have a prerequisite which Aarav studies?",
     "MATCH (:Student {name: 'Aarav'})-[:STUDIES]->(:Subject)-[:PREREQUISITE_FOR]->(t:Subject) "
     "RETURN DISTINCT t.name"),
    ("which subjects are prerequisites of what karan studies",          # the other way still
     "MATCH (:Student {name: 'Karan'})-[:STUDIES]->(:Subject)<-[:PREREQUISITE_FOR]-(t:Subject) "
     "RETURN DISTINCT t.name"),
])
def test_a_prerequisite_restricted_by_a_clause_belongs_to_the_subject_asked(college_db, chat,
                                                                             question, reference):
    """unseen29 af041: "which subjects have a prereq that karan is studying" answered DSA (the
    prerequisites of Karan's subjects, a confident wrong answer in every agent): the clause after
    "a prereq" says which prerequisite, so the subjects asked are the ones it comes before."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question", [
    "what are my subjects?",
    "what is my grade in DBMS?",
    "which of my friends is in the coding club?",
    "mera club kaunsa hai?",
])
def test_my_with_no_one_named_is_not_everyone(chat, learner, question):
    """"what are my subjects?" listed every subject, "what is my grade in DBMS?" everyone's
    grade: "my" was a word that asks nothing. With no one named as the speaker the question
    cannot be answered (a question back, or a refusal), in the chat and in the learner's agent."""
    for agent in (chat, learner):
        result = agent.answer(question)
        assert result.status != "answered", result.answer


@pytest.mark.parametrize("question, reference", [
    ("which clubs are my friends in? i'm Sneha",                        # unseen35 al034
     "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(f:Student)-[:MEMBER_OF]->(c:Club) "
     "RETURN DISTINCT c.name"),
    ("I'm Sneha. which of my friends work on a project?",
     "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(f:Student)-[:WORKS_ON]->(:Project) "
     "RETURN DISTINCT f.name"),
    ("I am Karan. what is my grade in DSA?",
     "MATCH (:Student {name: 'Karan'})-[r:STUDIES]->(:Subject {name: 'DSA'}) RETURN r.grade"),
])
def test_my_is_the_speaker_the_question_names(college_db, learner, question, reference):
    """"I'm Sneha" in the same message makes "my" Sneha's: "which clubs are my friends in? i'm
    Sneha" had answered Sneha's own clubs (the friend hop dropped), "I'm Sneha. which of my
    friends work on a project?" the project, not the friend."""
    result = learner.answer(question)
    assert result.status == "answered", result.answer
    assert same_rows(parts_rows(result)[-1], rows_of(college_db, reference)) \
        or same_rows(result.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, reference", [
    ("Hello, I'm counting my credits for next semester and my sheet has a blank. How many "
     "credits is Computer Networks worth?",                                           # unseen38 ao030
     "MATCH (s:Subject {name: 'Computer Networks'}) RETURN s.name, s.credits"),
    ("Hi, I'm looking at the course plan and Operating Systems looks scary. Which subject is "
     "supposed to be done before Operating Systems?",                                 # ao037
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) RETURN s.name"),
    ("Hi, I want to find people one year above me. Which students are in year 2?",
     "MATCH (s:Student {year: 2}) RETURN s.name"),
])
def test_a_scene_before_an_ask_that_stands_alone(college_db, learner, question, reference):
    """A scene before an ask that names what it asks about (or a scene naming nothing) kept the
    ask from being answered: the scene's words are no query's, and the ask alone was tried only
    when the question named a person, a club or a project no note speaks of."""
    result = learner.answer(question)
    assert result.status == "answered", result.answer
    rows = rows_of(college_db, reference)
    assert same_rows(result.rows, rows) or same_rows(result.rows, [r[-1:] for r in rows]), result.answer


def test_a_statement_after_the_asks_is_no_part(college_db, learner):
    """unseen38 ao027: "... And which project needs React? I did a little React over the
    holidays." made the last sentence a part of its own, answered "I could not answer this
    part" (a half answer): a sentence that asks nothing is the last ask's scene."""
    result = learner.answer("What is the status of each project? And which project needs React? "
                            "I did a little React over the holidays.")
    assert len(learner.last.sub_questions) == 2 and every_part_found(result), result.answer
    last_part_is(college_db, result, "MATCH (p:Project)-[:REQUIRES]->(:Skill {name: 'React'}) "
                 "RETURN p.name")


def test_the_ask_without_its_scene_may_be_a_notes(learner):
    """unseen33 aj018: the scene's words ("packets from my lab network never reach the
    server's network") kept the note on routing below the bar; the ask alone, understood
    without the scene, clears it."""
    learner.answer("packets from my lab network never reach the server's network. how does a "
                   "router decide where to send each packet next?")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes == ["N24"]


def test_a_greeting_is_no_topic(college_db, learner):
    """unseen38 ao023: "Hi, ... Which students are in year 2, and what branch is each of them
    in?" read "Hi" as the topic "them" points at ("what branch is each of Hi in?")."""
    result = learner.answer("Hi, I want to find people one year above me. Which students are in "
                            "year 2, and what branch is each of them in?")
    assert "Hi in" not in learner.last.sub_questions[-1].rewritten
    last_part_is(college_db, result, "MATCH (s:Student {year: 2}) RETURN s.name, s.branch")


def test_at_what_time_is_no_notes_question(learner):
    """unseen39 ap047: "At what time and on which day ... the Operating Systems lecture?" had its
    part "At what time?" answered from the note on BFS ("runs in O(V + E) time"): "time", like
    "thing" or "info", is no term a note must hold, and "at" no term at all."""
    result = learner.answer("At what time and on which day of the week is the Operating Systems "
                            "lecture?")
    assert not any(s.tool == "search_notes" and s.found for s in learner.last.sub_questions), result.answer


def test_at_present_is_no_president(college_db, chat):
    """unseen39 ap032: "Which project is at present in the status Planned?" read "present" as a
    typo of "president" and answered "I found nothing" (a claim on a query that asked another
    thing)."""
    assert_answered_with(chat.answer("Which project is at present in the status Planned?"), college_db,
                         "MATCH (p:Project {status: 'Planned'}) RETURN p.name")


def test_at_what_level_each_is_each_ones_level(college_db, chat):
    """unseen39 ap022: "Which skills has Rahul, and at which level each?" was refused: "each"
    left "at which level" a second ask the query did not answer, though it returns the level."""
    assert_answered_with(chat.answer("Which skills does Rahul have, and at which level each?"), college_db,
                         "MATCH (:Student {name: 'Rahul'})-[h:HAS_SKILL]->(k:Skill) RETURN k.name, h.level")


def test_two_encoders_agreeing_need_a_smaller_lead(learner):
    """unseen31 ah004: the BCNF note is 6 % ahead of the 3NF note in MiniLM, below the bar's
    13 %, and WordLlama puts it first too: two encoders trained apart agreeing are evidence of
    their own (a lead of 4 %, calibrated in bench/bench_evidence.py)."""
    learner.answer("Please explain how it is possible that a table satisfies the third normal form "
                   "but still is not in the Boyce-Codd form. Can you show me a small example of such case?")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes[:1] == ["N05"]


def test_a_subject_that_should_be_studied_before_another_is_its_prerequisite(college_db, chat):
    """unseen39 ap023: "Which subject should be studied before Computer Networks?" was refused:
    "studied" in the passive is the learner's verb, as "should I study" is."""
    assert_answered_with(chat.answer("Which subject should be studied before Computer Networks?"), college_db,
                         "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) "
                         "RETURN s.name")


@pytest.mark.parametrize("question", [
    "Could you list the clubs from the oldest to the newest, with the year each was founded?",  # ao031
    "Order for me, please, the clubs from the oldest to the newest, by the year of founding.",  # ap038
])
def test_the_clubs_from_the_oldest_to_the_newest(college_db, chat, question):
    """Two fresh sets asked for the clubs in order of founding: "from the oldest" (with "the")
    was no order, so the oldest alone was found and refused; "the year of founding" named a
    student's year."""
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    assert [r[0] for r in result.rows] == [r[0] for r in rows_of(
        college_db, "MATCH (c:Club) RETURN c.name, c.founded ORDER BY c.founded, c.name")]


@pytest.mark.parametrize("question, reference", [
    ("Which student possesses Machine Learning at the Advanced level?",             # ap037
     "MATCH (s:Student)-[:HAS_SKILL {level: 'Advanced'}]->(:Skill {name: 'Machine Learning'}) RETURN s.name"),
    ("Which students received the grade B+, and in which subject each?",           # ap033
     "MATCH (s:Student)-[r:STUDIES {grade: 'B+'}]->(sub:Subject) RETURN s.name, sub.name"),
])
def test_a_formal_learners_words(college_db, chat, question, reference):
    """unseen39 (a formal speaker): "received" and "possesses" were unknown words, and "in which
    subject each?" after a filter on a grade was a second ask the query did not answer."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_the_clubs_friends_belong_to_follow_the_friends_either_way(college_db, learner):
    """unseen37 an039, on this stop's code before the mend: with "belong to" no club's word, its
    direction ("part of", "under") turned the friendship link one way and "Which clubs do Aarav's
    friends belong to?" answered "I found nothing"."""
    last_part_is(college_db, learner.answer("Which clubs do Aarav's friends belong to?"),
                 "MATCH (:Student {name: 'Aarav'})-[:FRIENDS_WITH]-(:Student)-[:MEMBER_OF]->(c:Club) "
                 "RETURN DISTINCT c.name")


def test_a_short_request_after_an_ask_is_a_part(college_db, learner):
    """unseen36 am023, on this stop's code before the mend: "what topics come under trees? and
    gimme the note on trees" read "gimme the note on trees" as a sentence that asks nothing, and
    the note was never given: only a sentence about the speaker or someone named ("I did a
    little React") is no part."""
    learner.answer("what topics come under trees? and gimme the note on trees")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert len(learner.last.sub_questions) == 2 and notes == ["N10"]


def test_two_asks_are_never_one_chain(college_db, learner, chat):
    """unseen36 am028: "aarav's grades in his subjects + who r his friends" was one part, and a
    chain composed from both asks answered his friend's grades (a confident wrong answer). A
    chain answers one ask; someone's things named before "and who ..." are an ask of their own."""
    result = learner.answer("aarav's grades in his subjects + who r his friends")
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[0], rows_of(college_db, "MATCH (:Student {name: 'Aarav'})-[r:STUDIES]->(s:Subject) "
                                                   "RETURN s.name, r.grade"))
    assert chat.answer("aarav's grades in his subjects and who are his friends").status != "answered"


def test_a_change_someone_else_made_is_told_not_asked(college_db, learner, chat):
    """unseen40 aq004, aq028: "Someone on the team put three phone numbers into a single cell ...
    What does that first rule actually require?" and "The library team wants to add indexes, so
    what concepts should someone learn before Indexing?" were blocked as requests to change the
    data: a change someone else made, or means to make, is told."""
    learner.answer("Someone on the team put three phone numbers into a single cell of our members "
                   "table and got told off for breaking the very first normal form. What does that "
                   "first rule actually require?")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes == ["N02"]
    assert chat.answer("The library team wants to add indexes, so what concepts should someone learn "
                       "before Indexing?").status != "blocked"
    assert chat.answer("can you put Rahul in the robotics club?").status == "blocked"
    assert chat.answer("the coding club should add Karan as a member").status == "blocked"


def test_asking_again_whole_keeps_the_parts_when_it_finds_nothing(learner):
    """unseen40 aq002: a part answered from the index note was set aside when the whole question
    was asked again (the note clears for the whole), and the whole, naming Payal, found nothing:
    the learner heard "I could not answer that". What the parts found stands then."""
    result = learner.answer("Payal mentioned the library app was crawling when searching books by "
                            "title, and someone said 'just add an index'. How does an index actually "
                            "make lookups quicker, and is there any downside to piling them on?")
    assert result.status == "answered", result.answer
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes and set(notes) == {"N06"}   # (the second part too: "piling them on", indexes)


# --- a session with the held-back pair and unseen39: asks that share a verb, a count's "them" --------

@pytest.mark.parametrize("question, references", [
    ("In which year of study and which branch is Karan, and what clubs is he in?",
     ["MATCH (s:Student {name: 'Karan'}) RETURN s.name, s.year",
      "MATCH (s:Student {name: 'Karan'}) RETURN s.name, s.branch",
      "MATCH (:Student {name: 'Karan'})-[:MEMBER_OF]->(c:Club) RETURN c.name"]),
    ("What year and which branch is Sneha in?",
     ["MATCH (s:Student {name: 'Sneha'}) RETURN s.name, s.year",
      "MATCH (s:Student {name: 'Sneha'}) RETURN s.name, s.branch"]),
], ids=["year-of-study", "what-year"])
def test_an_ask_with_no_verb_shares_the_verb_of_the_ask_after_it(college_db, learner, question, references):
    """unseen39 ap027 and the held-back unseen37: "In which year of study and which branch is
    Karan" was two parts, and "In which year of study?" alone was refused as outside the graph:
    an ask that names only a property shares the verb and subject of the ask after it."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == len(references), result.answer
    for got, reference in zip(parts, references):
        assert same_rows(got, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, reference", [
    ("How many members does the Coding Club have and which of them joined it the earliest?",
     "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Coding Club'}) WITH min(r.since) AS first "
     "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Coding Club'}) WHERE r.since = first "
     "RETURN s.name, r.since"),
    ("How many students are taking Operating Systems, and which of them scored an A in it?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'Operating Systems'}) WHERE r.grade = 'A' "
     "RETURN s.name"),
    ("How many students know Python, and which of them are advanced in it?",
     "MATCH (s:Student)-[r:HAS_SKILL]->(:Skill {name: 'Python'}) WHERE r.level = 'Advanced' "
     "RETURN s.name"),
    ("How many students know SQL, and which of them are intermediates?",
     "MATCH (s:Student)-[r:HAS_SKILL]->(:Skill {name: 'SQL'}) WHERE r.level = 'Intermediate' "
     "RETURN s.name"),
], ids=["club-earliest", "grade-a", "advanced", "intermediates"])
def test_which_of_them_after_a_count_chooses_among_what_was_counted(college_db, learner, question, reference):
    """unseen34 ak025, unseen37 an026, unseen39 ap026 and the held-back unseen37: a count finds a
    number, no names, so "which of them" had nothing to stand for and the part was refused. It
    stands for the things counted ("the members of the Coding Club"); a name said twice in the
    rewritten part ("... of the Coding Club joined Coding Club ...") is one value, and
    "intermediates" are those at the Intermediate level."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    expected = rows_of(college_db, reference)
    assert expected and (same_rows(parts[1], expected) or same_rows([r[:1] for r in parts[1]], [r[:1] for r in expected])), \
        result.answer



@pytest.mark.parametrize("question, references", [
    ("For the database part of the session, which concepts does the DBMS subject cover, and how many "
     "credits is it worth?",
     ["MATCH (:Subject {name: 'DBMS'})-[:COVERS]->(c:Concept) RETURN c.name",
      "MATCH (s:Subject {name: 'DBMS'}) RETURN s.name, s.credits"]),
    ("Since I want to show the juniors how the courses build on each other: which subject should be "
     "studied before Operating Systems, and which subject is Operating Systems itself a prerequisite for?",
     ["MATCH (p:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) RETURN p.name",
      "MATCH (:Subject {name: 'Operating Systems'})-[:PREREQUISITE_FOR]->(n:Subject) RETURN n.name"]),
], ids=["comma", "colon"])
def test_a_scene_before_two_asks_is_no_ask(college_db, learner, question, references):
    """The held-back unseen37 an017 and an020 were refused whole: a clause of purpose before a
    comma ("For the database part of the session, which ...") or a sentence before a colon
    ("Since I want to ...: which ...") is the scene, and the asks after it are the parts."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    for got, reference in zip(parts, references):
        assert same_rows(got, rows_of(college_db, reference)) or \
            same_rows([r[-1:] for r in got], [r[-1:] for r in rows_of(college_db, reference)]), result.answer


def test_found_nothing_is_no_answer_when_the_ask_alone_finds_something(learner):
    """unseen37 an025 (refused whole before, answered wrongly once a scene before a colon or a
    full stop was split off; this guards that): "Before I teach deadlocks, I want to know what the juniors should already
    have learned. Which concepts are prerequisites for Deadlocks, ..." read "before" and
    "prerequisites" as two hops and said "I found nothing" (Threads and Processes are): "found
    nothing" is a claim, and the ask alone finds something, so the part is not answered."""
    result = learner.answer("Before I teach deadlocks, I want to know what the juniors should already "
                            "have learned. Which concepts are prerequisites for Deadlocks, and which "
                            "concept does Deadlocks in turn lead on to?")
    first = [s for s in learner.last.sub_questions if s.part == 0 and s.found]
    assert all(s.rows for s in first), result.answer
    assert "found nothing" not in result.answer.lower()


@pytest.mark.parametrize("question, reference", [
    ("Which concepts lead to Deadlocks?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Deadlocks'}) RETURN c.name"),
    ("Which of Paging, Threads and Processes is a prerequisite for Deadlocks?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Deadlocks'}) "
     "WHERE c.name IN ['Paging', 'Threads', 'Processes'] RETURN c.name"),
    ("Which concepts are required for Deadlocks?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Deadlocks'}) RETURN c.name"),
    ("What does Deadlocks lead to?",
     "MATCH (:Concept {name: 'Deadlocks'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
], ids=["lead-to-name", "which-of-prerequisite-for", "required-for-name", "name-leads-to"])
def test_a_name_after_leads_to_is_where_it_leads(college_db, chat, question, reference):
    """Found while writing fresh questions for this stop: "Which concepts lead to Deadlocks?"
    was answered with what Deadlocks leads to (a confident wrong answer in every agent): a word
    of the way out ("leads to", "is a prerequisite for") with the name after it asks what comes
    before the name; with the name before it ("What does Deadlocks lead to?"), what comes after."""
    result = chat.answer(question)
    assert_answered_with(result, college_db, reference)


def test_a_prerequisite_for_the_most_counts_what_it_leads_to(college_db, chat):
    """Found while writing fresh questions for this stop: "Which concept is a prerequisite for the
    most concepts?" was answered with the concepts that have the most prerequisites (Firewalls,
    Indexing: a confident wrong answer), counted as "prerequisites"."""
    result = chat.answer("Which concept is a prerequisite for the most concepts?")
    reference = ("MATCH (c:Concept)-[:PREREQUISITE_FOR]->(k:Concept) WITH c, count(k) AS n "
                 "WITH max(n) AS top MATCH (c:Concept)-[:PREREQUISITE_FOR]->(k:Concept) "
                 "WITH c, count(k) AS n, top WHERE n = top RETURN c.name, n")
    assert_answered_with(result, college_db, reference)
    assert "prerequisites" not in result.answer


def test_when_each_joined_asks_for_every_member_found(college_db, learner):
    """Found while writing fresh questions for this stop: "List the members of the Debate Society
    and when each joined." left "when each joined" as it was (no auxiliary before "each") and
    refused it; a request's answer ran into its list ("... Debate Society Sneha and Payal")."""
    result = learner.answer("List the members of the Debate Society and when each joined.")
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    reference = "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN s.name, r.since"
    assert same_rows(parts[1], rows_of(college_db, reference)), result.answer
    assert result.answer.startswith("List the members of the Debate Society: ")


@pytest.mark.parametrize("question", ["what is my branch?", "which clubs am I in? and what is my year?",
                                      "which project do I work on?", "what grade did I get in DBMS?"])
def test_my_with_no_name_asks_who_is_asking(chat, learner, question):
    """The last stop's note: "what is my branch?" was refused as "outside my knowledge graph",
    which is false (the graph holds every student's branch): the learner is asked who they are.
    "which clubs am I in?" listed every club, "which project do I work on?" every project and
    "what grade did I get in DBMS?" everyone's grade (confident wrong answers: "I" asked of the
    speaker, as "my" does)."""
    for agent in (chat, learner):
        result = agent.answer(question)
        assert result.status == "out_of_scope", result.answer
        assert "who is asking" in result.answer and "outside" not in result.answer, result.answer
    assert "who is asking" not in chat.answer("why does my query get slow when the table grows?").answer


# --- unseen41 (a third-year helping a friend before a viva), first contact on 3a66370 ---------------

@pytest.mark.parametrize("question, references", [
    ("Matlab which topics come under Computer Networks, and which note explains DNS?",
     ["MATCH (:Subject {name: 'Computer Networks'})-[:COVERS]->(c:Concept) RETURN c.name",
      "MATCH (n:Note)-[:EXPLAINS]->(:Concept {name: 'DNS'}) RETURN n.id"]),
    ("Matlab what topic do I need to have covered before Transactions?",
     ["MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Transactions'}) RETURN c.name"]),
    ("When was Debate Society founded, who is its president, and who joined it most recently?",
     ["MATCH (c:Club {name: 'Debate Society'}) RETURN c.name, c.founded",
      "MATCH (s:Student)-[r:MEMBER_OF {role: 'President'}]->(:Club {name: 'Debate Society'}) RETURN s.name",
      "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Debate Society'}) WITH max(r.since) AS last "
      "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Debate Society'}) WHERE r.since = last "
      "RETURN s.name, r.since"]),
], ids=["matlab-opens", "need-to-have-covered", "who-joined-last"])
def test_unseen41_first_contact(college_db, learner, question, references):
    """unseen41 ar022, ar035 were refused: "matlab" ("I mean") opens a Hinglish speaker's
    question as "yaar" does, and "do I need to have covered before" is the learner's verb, not
    a subject covering a topic. ar025's "who joined it most recently?" was asked "in Sneha" (the
    president the part before found): a part that asks for a person is not scoped to one."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == len(references), result.answer
    for got, reference in zip(parts, references):
        expected = rows_of(college_db, reference)
        assert expected and (same_rows(got, expected) or same_rows([r[-1:] for r in got], [r[-1:] for r in expected])
                             or same_rows(got[:1], expected[:1])), result.answer


@pytest.mark.parametrize("question, reference", [
    ("Who are the members of the Robotics Club these days, and when did the club start?",
     "MATCH (c:Club {name: 'Robotics Club'}) RETURN c.name, c.founded"),
    ("Planning the Debate Society anniversary! Who is the president there, and what year was the "
     "society founded?", "MATCH (c:Club {name: 'Debate Society'}) RETURN c.name, c.founded"),
], ids=["the-club", "the-society"])
def test_the_club_in_a_later_part_is_the_one_named_before(college_db, learner, question, reference):
    """unseen40 aq023 and aq018, unseen35 al023: "and when did the club start?" was refused (or
    asked "in each of Karan and Rahul") and "what year was the society founded?" answered with
    every club's year: "the club" in a later part is the one club the question named."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[1], rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, reference", [
    ("which concepts does OS cover? also which of them leads to Virtual Memory?",
     "MATCH (:Subject {name: 'Operating Systems'})-[:COVERS]->(c:Concept)-[:PREREQUISITE_FOR]->"
     "(:Concept {name: 'Virtual Memory'}) RETURN c.name"),
    ("list the topics in computer networks pls, and which of them come under tcp/ip",
     "MATCH (:Concept {name: 'TCP/IP'})-[:INCLUDES]->(c:Concept) RETURN c.name"),
], ids=["leads-to", "come-under"])
def test_which_of_them_leaves_out_the_one_it_is_asked_against(college_db, learner, question, reference):
    """Mid-stop, from the last stop's own fresh questions and unseen30 ag024: "which of them leads
    to Virtual Memory?" after a list holding Virtual Memory was refused (the list named it twice):
    a choice among them is among the others."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[1], rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, note", [
    ("What sort of problems is depth-first search typically used for, such as finding cycles, and how "
     "is it usually implemented?", "N14"),
    ("In which situation can a table satisfy third normal form but not Boyce-Codd normal form? This "
     "difference precisely I do not understand.", "N05"),
    ("Under what conditions does searching a binary search tree degrade to O(n), and what does an "
     "in-order traversal of it give you?", "N11"),
    ("sorry if this is super basic but what problem does normalization actually solve? like what are "
     "these anomalies people keep mentioning", "N01"),
], ids=["what-sort-of", "which-situation", "what-conditions", "what-problem"])
def test_what_sort_of_asks_for_no_word_the_note_must_hold(learner, question, note):
    """unseen37 an009, unseen39 ap002 and unseen34 ak012 were refused though the right note led by
    far: "what sort of problems is ...", "in which situation can ..." and "under what conditions
    does ..." were read as asking for a "sort", a "situation", "conditions", words a note
    answering them must hold. They are the learner's words for
    a kind of answer, not the thing asked."""
    learner.answer(question)
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes and set(notes) == {note}, notes


@pytest.mark.parametrize("question, note", [
    ("The Campus Chatbot team says their server handles lots of users at once using threads rather than "
     "separate processes. What's a thread exactly, why is it cheaper, and why do they keep worrying about "
     "race conditions?", "N17"),
    ("The Robotics Club wants to split the lab network into a few smaller networks, and someone wrote "
     "'/26' on the whiteboard. Can you explain what splitting a network like that means and what the "
     "slash number tells you?", "N25"),
    ("I'd love to map out who's friends with whom across all our clubs as a big network diagram. In "
     "computer science terms what is that kind of structure, and how do people usually store it?", "N12"),
], ids=["chatbot-threads", "robotics-subnets", "who-in-the-scene"])
def test_a_project_the_scene_names_is_no_topic_a_note_must_speak_of(learner, question, note):
    """unseen40 aq010, aq015 (the last stop's "chatty organiser" notes, 5/16): the note search
    refused every note because the scene names a project or a club no note speaks of, and aq007
    because its scene says "who's friends with whom" (a question for the graph's people). Only
    the ask decides; "What's her phone number?" after "My friend Sneha asked me"
    still asks about Sneha."""
    learner.answer(question)
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes and set(notes) == {note}, notes
    result = learner.answer("My friend Sneha asked me. What's her phone number?")
    assert result.status != "answered", result.answer


@pytest.mark.parametrize("question, reference", [
    ("What skills does the Attendance Tracker need, and who works on it?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Attendance Tracker'}) RETURN s.name"),
    ("Which skills does the Library Management System require, and who is working on it?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Library Management System'}) RETURN s.name"),
], ids=["works-on-it", "working-on-it"])
def test_it_is_what_the_later_verb_can_take(college_db, learner, question, reference):
    """This stop's own fresh questions: "who works on it?" after a part that found a skill asked
    "who works on React?" and was refused. Students work on projects, not skills: "it" is the
    one thing found or named that the later part's verb can take."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[1], rows_of(college_db, reference)), result.answer


def test_its_after_several_found_is_each_of_them_not_one_from_earlier_in_the_chat(college_db, learner):
    """This stop's own fresh questions: after "Who is in the Robotics Club?", "Which club has the
    most members, and who is its president?" found three clubs tied and answered "Rahul", the
    Robotics Club's president, from the conversation. "its" stands for the clubs just found: each
    one's president."""
    learner.answer("Who is in the Robotics Club?")
    result = learner.answer("Which club has the most members, and who is its president?")
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[1], rows_of(college_db, "MATCH (s:Student)-[:MEMBER_OF {role: 'President'}]->"
                                                   "(c:Club) RETURN c.name, s.name")), result.answer


def test_she_after_several_tied_is_each_of_them(college_db, learner):
    """This stop's own fresh questions: "Which student has the most skills, and what club is she
    in?" found three students tied, and after an earlier question about the Robotics Club, "she"
    was answered from the conversation ("Robotics Club"). "she" is one of the three, which one not
    said: each one's club, never a club from before."""
    learner.answer("Kaun kaun Robotics Club mein hai?")
    result = learner.answer("Which student has the most skills, and what club is she in?")
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[1], rows_of(college_db, "MATCH (s:Student)-[:HAS_SKILL]->(k:Skill) WITH s, "
                                       "count(k) AS n WHERE n = 2 MATCH (s)-[:MEMBER_OF]->(c:Club) "
                                       "RETURN s.name, c.name")), result.answer


@pytest.mark.parametrize("question, reference", [
    ("Who besides Rahul studies DSA?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) WHERE s.name <> 'Rahul' RETURN s.name"),
    ("Which students except Payal know SQL?",
     "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'SQL'}) WHERE s.name <> 'Payal' RETURN s.name"),
    ("Who is in the Robotics Club excluding Karan?",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) WHERE s.name <> 'Karan' "
     "RETURN s.name"),
], ids=["besides", "except", "excluding"])
def test_a_word_that_leaves_someone_out_is_never_filler(college_db, learner, question, reference):
    """This stop's own fresh questions: "Who besides Rahul studies DSA?" was asked again without
    "besides" (the two sentences read 0.93 alike to the encoder) and answered "Karan": Rahul's
    classmate, not everyone but Rahul. A word that leaves someone out is never filler: the
    question is answered whole, or not at all."""
    result = learner.answer(question)
    if result.status == "answered":
        assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question", [
    "how does a B+ tree keep itself balanced?",
    "Why are B+ trees better than binary trees for disks?",
])
def test_a_name_with_a_symbol_must_be_in_the_note(learner, question):
    """This stop's own fresh questions: "how does a B+ tree keep itself balanced?" was answered
    from the note on binary search trees, which names no B+ tree ("B+" read as the letter "b").
    A name ending in a symbol (B+, C++, C#) is a specific name: a note answering must name it."""
    result = learner.answer(question)
    assert "N11" not in result.answer and "N10" not in result.answer, result.answer


@pytest.mark.parametrize("follow_up, expected", [
    ("does Aarav have all of them?", False), ("Does Payal have both of them?", True),
    ("does Aarav know any of them?", True), ("Does Sneha have either of them?", False),
], ids=["all-no", "both-yes", "any-yes", "either-no"])
def test_a_yes_no_over_several_asks_of_all_of_them_unless_it_says_any(chat, follow_up, expected):
    """This stop's own fresh questions: after "which skills does the Library Management System
    need?" (SQL and Python), "does Aarav have all of them?" was answered "Yes": Aarav has SQL
    alone, and the query asked whether he had any. A yes/no over several things asks of all of
    them, unless it says any or either."""
    chat.answer("which skills does the Library Management System need?")
    result = chat.answer(follow_up)
    assert result.status == "answered" and result.rows == [[expected]], (result.answer, result.cypher)


@pytest.mark.parametrize("question, first, second", [
    ("which skills does the Library Management System need, and does Aarav have all of them?",
     "MATCH (:Project {name: 'Library Management System'})-[:REQUIRES]->(k:Skill) RETURN k.name", False),
    ("Who works on the Campus Chatbot and does Karan know Docker?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) RETURN s.name", True),
], ids=["does-aarav", "does-karan"])
def test_does_and_a_name_after_and_is_a_question_of_its_own(college_db, learner, question, first, second):
    """This stop's own fresh questions: "which skills does the Library Management System need, and
    does Aarav have all of them?" was read as one ask and answered "SQL." (the skills Aarav has
    of them). "and does <name> ..." opens a yes/no question of its own."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[0], rows_of(college_db, first)), result.answer
    assert parts[1] == [[second]], result.answer


@pytest.mark.parametrize("question, expected", [
    ("Does Sneha study DSA?", False), ("Does Payal study DBMS?", True),
    ("Does Sneha study DSA and DBMS?", False),
], ids=["no", "yes", "both"])
def test_a_yes_no_question_gets_yes_or_no_not_a_list_of_people(learner, question, expected):
    """This stop's own fresh questions: "Does Sneha study DSA?" went to the study-partner tool
    (it takes a student and a subject) and was answered with mentors and partners, no "no". A
    yes/no question goes to a tool whose examples ask yes or no, or to text2cypher."""
    result = learner.answer(question)
    assert result.status == "answered" and result.rows == [[expected]], result.answer


@pytest.mark.parametrize("question, reference", [
    ("Machine Learning sabse achha kisko aata hai?",
     "MATCH (s:Student)-[:HAS_SKILL {level: 'Advanced'}]->(:Skill {name: 'Machine Learning'}) RETURN s.name"),
    ("Python kisko aata hai?", "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Python'}) RETURN s.name"),
], ids=["sabse-achha-kisko", "kisko"])
def test_kisko_asks_for_people(college_db, learner, question, reference):
    """unseen4 y078, a wrong answer on every run: "Machine Learning sabse achha kisko aata hai?"
    listed everyone with the skill. "kisko" ("to whom") asks for people like "kaun": the best
    of them is a ranking of people."""
    result = learner.answer(question)
    names = {row[0] for row in rows_of(college_db, reference)}    # the best first, then the rest
    assert result.status == "answered" and {row[0] for row in result.rows[:len(names)]} == names, result.answer


@pytest.mark.parametrize("question, reference", [
    ("Apart from Rahul, who studies DSA?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) WHERE s.name <> 'Rahul' RETURN s.name"),
    ("Rahul ke alawa DSA kaun padhta hai?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) WHERE s.name <> 'Rahul' RETURN s.name"),
    ("Which subjects other than DSA does Rahul study?",
     "MATCH (:Student {name: 'Rahul'})-[:STUDIES]->(s:Subject) WHERE s.name <> 'DSA' RETURN s.name"),
    ("How many students besides Rahul study DSA?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) WHERE s.name <> 'Rahul' RETURN count(s)"),
], ids=["apart-from", "ke-alawa", "other-than", "how-many-besides"])
def test_besides_a_name_leaves_it_out(college_db, chat, question, reference):
    """This stop's own fresh questions: "besides", "apart from", "other than", "ke alawa" before a
    name were refused (or, dropped as filler, answered as if not said). The name they set apart
    is left out of the answer, and a count leaves it out too."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("What is the grade of Rahul in DSA and who else studies it?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) WHERE s.name <> 'Rahul' RETURN s.name"),
    ("What subjects does Karan study, and who else studies them?",
     "MATCH (:Student {name: 'Karan'})-[:STUDIES]->(j:Subject)<-[:STUDIES]-(s:Student) "
     "WHERE s.name <> 'Karan' RETURN j.name, s.name"),
], ids=["else-it", "else-them"])
def test_who_else_in_a_later_part_sets_apart_the_one_asked_about(college_db, learner, question, reference):
    """This stop's own fresh questions: after "Who knows both Python and SQL?" (Payal), "What is
    the grade of Rahul in DSA and who else studies it?" left out Payal, whom the conversation
    named last, and listed Rahul: "who else" in a later part is besides the one the part before
    asked about."""
    learner.answer("Who knows both Python and SQL?")
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[1], rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, reference", [
    ("Who besides Rahul and Karan studies DSA?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) WHERE NOT s.name IN ['Rahul', 'Karan'] "
     "RETURN s.name"),
    ("Which clubs except the Coding Club does Payal belong to?",
     "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) WHERE c.name <> 'Coding Club' RETURN c.name"),
    ("Does Aarav know SQL or Python?", "RETURN true"),
    ("Does Karan know Docker, Python and SQL?", "RETURN false"),
], ids=["besides-two", "except-the", "or-is-any", "and-is-all"])
def test_names_listed_together_are_set_apart_or_asked_together(college_db, chat, question, reference):
    """This stop's own fresh questions: "Who besides Rahul and Karan studies DSA?" found nothing
    (only Rahul was set apart, "and Karan" left in the ask), and "Does Aarav know SQL or Python?"
    was "No" (he knows SQL): names listed together are set apart together, and a yes/no over
    "X or Y" asks of any of them, over "X, Y and Z" of all."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_besides_a_name_is_kept_when_the_question_also_says_else(college_db, chat):
    """This stop's own fresh questions: "And who else studies DSA besides Payal?" left out the
    conversation's last person instead of Payal, and listed Payal."""
    chat.answer("Is Karan in the Robotics Club?")
    assert_answered_with(chat.answer("And who else studies DSA besides Payal?"), college_db,
                         "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) WHERE s.name <> 'Payal' "
                         "RETURN s.name")


@pytest.mark.parametrize("question", [
    "Is Rahul in the Robotics Club, and if yes, what is his role?",
    "Is Karan in the Robotics Club? If so, when did he join?",
])
def test_if_so_opens_no_part_of_its_own(college_db, learner, question):
    """This stop's own fresh questions: "..., and if yes, what is his role?" was split into "Is
    Rahul in the Robotics Club, and if?" and the rest: "if so", "if yes" only say the second
    ask follows from the first. Each part is a whole question, both answered."""
    result = learner.answer(question)
    asked = [s.rewritten for s in result.sub_questions if s.found]
    assert len(asked) == 2 and not any(re.search(r"\bif\b", a, re.I) for a in asked), result.answer


@pytest.mark.parametrize("question, reference", [
    ("What branch is Rahul's friend in?",
     "MATCH (:Student {name: 'Rahul'})-[:FRIENDS_WITH]-(f:Student) RETURN f.name, f.branch"),
    ("What year are Payal's friends in?",
     "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(f:Student) RETURN f.name, f.year"),
], ids=["friends-branch", "friends-year"])
def test_a_property_of_someones_friends_is_the_friends(college_db, chat, question, reference):
    """unseen12 s034 (half) and this stop's own fresh questions: "What branch is Rahul's friend
    in?" was refused ("the query does not follow 'friend'"): a property asked of someone's
    friends is the friends' property."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_as_well_as_joins_two_asks(college_db, learner):
    """unseen31 ah022: "how many credits the Computer Networks subject is worth, as well as which
    subject should be studied before it" was one ask; read as one, it gave the prerequisite's
    credits as if they were Computer Networks'. "as well as" joins two asks."""
    result = learner.answer("Please tell me how many credits the Computer Networks subject is worth, "
                            "as well as which subject should be studied before it.")
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[0], rows_of(college_db, "MATCH (s:Subject {name: 'Computer Networks'}) "
                                                   "RETURN s.name, s.credits")), result.answer


@pytest.mark.parametrize("question, reference", [
    ("What sub-topics fall under Trees, and what should I learn before it?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Trees'}) RETURN c.name"),
    ("Which concepts does Routing include, and what comes before it?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Routing'}) RETURN c.name"),
], ids=["sub-topics", "concepts"])
def test_it_after_a_plural_ask_is_the_one_named(college_db, learner, question, reference):
    """unseen13 r040: "What sub-topics fall under Trees, and what should I learn before it?" asked
    before BST, the one sub-topic found: "it" is one thing, and a part that asks for things by a
    plural noun ("sub-topics") finds "them", however many it found; "it" is Trees."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[1], rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, reference", [
    ("How many students are there overall, how many of them are CSE, and who is in fourth year?",
     "MATCH (s:Student {branch: 'CSE'}) RETURN count(s)"),
    ("How many students study DSA, and how many of them are in third year?",
     "MATCH (s:Student {year: 3})-[:STUDIES]->(:Subject {name: 'DSA'}) RETURN count(s)"),
], ids=["overall", "study-dsa"])
def test_how_many_of_them_after_a_count_counts_among_the_counted(college_db, learner, question, reference):
    """unseen18 d028: "how many of them are CSE?" after "How many students are there overall?"
    asked who "them" was: after a count, "how many of them" counts among what was counted."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) >= 2, result.answer
    assert same_rows(parts[1], rows_of(college_db, reference)), result.answer


def test_an_opening_clause_before_can_you_is_a_scene(college_db, learner):
    """unseen40 aq031: "For the club fair banner, can you list our clubs from oldest to newest by
    founding year?" was refused for "fair": an opening clause of purpose ends at its comma when
    a request follows ("can you list"), not only a question word."""
    result = learner.answer("For the club fair banner, can you list our clubs from oldest to newest "
                            "by founding year?")
    assert_answered_with(result, college_db, "MATCH (c:Club) RETURN c.name, c.founded ORDER BY c.founded")


@pytest.mark.parametrize("question, reference", [
    ("Did anyone get an A+? Who, and in which subject?",
     "MATCH (s:Student)-[r:STUDIES]->(j:Subject) WHERE r.grade = 'A+' RETURN s.name, j.name"),
    ("did anyone get an A+ in anything? who",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject) WHERE r.grade = 'A+' RETURN s.name"),
], ids=["who-and-which-subject", "who"])
def test_who_after_did_anyone_is_one_ask(college_db, learner, question, reference):
    """unseen13 r049, unseen36 am036 (judged wrong: the subject asked was never given): "Did anyone
    get an A+? Who, and in which subject?" is one ask, who did and where, not a yes and a
    fragment."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_the_club_after_several_found_is_each_of_them(college_db, learner):
    """This stop's own fresh questions: "Which clubs is Payal in, and when was the club founded?"
    gave every club's year, the Robotics Club's among them: "the club" after several found is
    each of them, never every club."""
    result = learner.answer("Which clubs is Payal in, and when was the club founded?")
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[1], rows_of(college_db, "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) "
                                                   "RETURN c.name, c.founded")), result.answer


@pytest.mark.parametrize("question", ["what goes wrong if not indexed?",
                                      "Does anyone know SQL, and if no one does, who knows Python?"])
def test_if_not_inside_an_ask_is_kept(question):
    """Found on reading this stop's change: "if so" was taken out wherever it stood, so "what goes
    wrong if not indexed?" became "what goes wrong indexed?". Only "if so" opening a clause
    before the next ask says nothing of its own."""
    from course.llm.offline.roles.updater import RuleUpdater
    assert any(re.search(r"\bif no(?:t)?\b", part) for part in RuleUpdater().split(question))


@pytest.mark.parametrize("question, note, words", [
    ("what is the downside of an index?", "N06", "slow down inserts"),
    ("what does bfs use internally?", "N13", "queue"),
    ("how does dns figure out the ip address?", "N23", "resolver"),
], ids=["downside", "bfs-internally", "dns-how"])
def test_a_note_answer_keeps_the_sentence_that_answers(learner, question, note, words):
    """A learner's probe: the right note was found, but the answer kept the two sentences that
    repeat the question's words ("index", "DNS") and dropped the one that answers it (the cost,
    the queue, the resolver's steps). A short note is quoted whole: which of its sentences
    answers a question in other words is not something shared words can tell."""
    result = learner.answer(question)
    assert result.status == "answered" and f"note {note}" in result.answer, result.answer
    assert words in result.answer, result.answer


@pytest.mark.parametrize("question, reference", [
    ("do rahul and karan both study dsa? what grades did they get",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DSA'}) WHERE s.name IN ['Rahul', 'Karan'] "
     "RETURN s.name, r.grade"),
    ("Are Sneha and Payal in the same club? Which clubs are they in?",
     "MATCH (s:Student)-[:MEMBER_OF]->(c:Club) WHERE s.name IN ['Sneha', 'Payal'] RETURN s.name, c.name"),
], ids=["grades", "clubs"])
def test_they_after_two_people_named_is_both(college_db, learner, question, reference):
    """A learner's probe: "do rahul and karan both study dsa? what grades did they get" gave
    Rahul's grade alone. "they" after a part that named two people stands for both."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    assert same_rows(parts[1], rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, reference", [
    ("what does the dbms subject cover?",
     "MATCH (:Subject {name: 'DBMS'})-[:COVERS]->(c:Concept) RETURN c.name"),
    ("who works on the Campus Chatbot project?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) RETURN s.name"),
    ("What skills do the people on the Campus Chatbot team have?",
     "MATCH (:Project {name: 'Campus Chatbot'})<-[:WORKS_ON]-(:Student)-[:HAS_SKILL]->(k:Skill) RETURN k.name"),
], ids=["subject-covers", "project-members", "team-is-a-link"])
def test_a_kind_after_a_name_is_the_name(college_db, learner, question, reference):
    """A learner's probe: "what does the dbms subject cover?" was refused while "what does DBMS
    cover?" was answered: "the DBMS subject" is DBMS, its kind said after it, not a second
    thing asked for."""
    assert_answered_with(learner.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Sneha has a friend listed. Which clubs does that friend belong to?",
     "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(f:Student)-[:MEMBER_OF]->(c:Club) RETURN c.name"),
    ("Karan has one friend in the graph. What skills does that friend have?",
     "MATCH (:Student {name: 'Karan'})-[:FRIENDS_WITH]-(f:Student)-[:HAS_SKILL]->(k:Skill) RETURN k.name"),
], ids=["clubs", "skills"])
def test_that_friend_of_someone_named_is_their_friend(college_db, learner, question, reference):
    """unseen42 as039 (confidently wrong): "Sneha has a friend listed. Which clubs does that
    friend belong to?" gave Sneha's own club. "that friend" of a person named, never found, is
    that person's friend: a word for a link between people is not the person."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_that_friend_after_a_friend_found_is_the_one_found(college_db, learner):
    learner.answer("who is friends with sneha?")
    assert_answered_with(learner.answer("which clubs is that friend in?"), college_db,
                         "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) RETURN c.name")


def test_that_guy_is_the_person_found(college_db, learner):
    """A learner's probe: "what project is that guy on?" after a friend was found was refused."""
    learner.answer("who is friends with sneha?")
    assert_answered_with(learner.answer("what project is that guy on?"), college_db,
                         "MATCH (:Student {name: 'Payal'})-[:WORKS_ON]->(p:Project) RETURN p.name")


def test_a_scene_with_no_ask_after_it_is_not_answered_from_its_tail(learner):
    """unseen43 at048 (confidently wrong): "karan's phone no. need to call him re: project" was
    answered with Karan's project: the retry took "need to call him re: project" as the ask
    after a scene. When no sentence asks, there is no ask to keep: the phone number is what
    was wanted, and the graph has none."""
    result = learner.answer("karan's phone no. need to call him re: project")
    assert result.status != "answered", result.answer


def test_which_one_is_the_last_kind_named(college_db, learner):
    """unseen42 as038 (confidently wrong): "Which students got an A+ in any subject, and in which
    one was it?" read "which one" as "which student" and answered from the 2NF note. "in which
    one was it?" is a cleft, more of the ask before it, its "one" the last kind of thing said
    ("any subject"): who got an A+ and in which subject; never a note's answer."""
    result = learner.answer("Which students got an A+ in any subject, and in which one was it?")
    assert not any(s.tool == "search_notes" and s.found for s in learner.last.sub_questions), result.answer
    assert_answered_with(result, college_db, "MATCH (s:Student)-[r:STUDIES]->(j:Subject) "
                                             "WHERE r.grade = 'A+' RETURN s.name, j.name")


@pytest.mark.parametrize("question, references", [
    ("robotics club \u2014 who is president, and what year was it founded",
     ["MATCH (s:Student)-[m:MEMBER_OF]->(:Club {name: 'Robotics Club'}) WHERE m.role = 'President' RETURN s.name",
      "MATCH (c:Club {name: 'Robotics Club'}) RETURN c.founded"]),
    ("karan\u2014which year is he in, and which project is he on?",
     ["MATCH (s:Student {name: 'Karan'}) RETURN s.year",
      "MATCH (:Student {name: 'Karan'})-[:WORKS_ON]->(p:Project) RETURN p.name"]),
], ids=["spaced", "unspaced"])
def test_an_em_dash_sets_a_topic_apart(college_db, learner, question, references):
    """unseen43 at018, at027 (refused): a topic before an em dash ("robotics club \u2014 who is
    president, and ...") was read as part of the ask: only the en dash and the hyphen set a
    topic apart. A learner's keyboard gives either."""
    parts = parts_rows(learner.answer(question))
    assert len(parts) == len(references), learner.last.answer
    for rows, reference in zip(parts, references):
        assert same_rows(rows, rows_of(college_db, reference)), learner.last.answer


def test_a_topic_the_first_ask_does_not_point_at_is_not_lost(learner):
    """Found on this stop's em-dash change: "robotics club \u2014 who is president, and what year
    was it founded" put the topic in place of the second ask's "it" and asked "who is
    president" of every club. A topic goes in only where the first ask points at it."""
    result = learner.answer("robotics club \u2014 who is president, and what year was it founded")
    assert "Sneha" not in result.answer, result.answer


@pytest.mark.parametrize("question, reference", [
    ("I'm writing a quick update for my club: who is the president of the Robotics Club?",
     "MATCH (s:Student)-[m:MEMBER_OF]->(:Club {name: 'Robotics Club'}) WHERE m.role = 'President' RETURN s.name"),
    ("Hey! I'm putting together a team update. Who's working on the Campus Chatbot?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) RETURN s.name"),
], ids=["quick-update", "team-update"])
def test_a_word_of_change_used_as_a_noun_asks_no_change(college_db, learner, question, reference):
    """unseen40 aq017 (blocked as a write): "I'm putting together a team update" is the
    learner's own errand, "update" a noun after its article, no request to change the data."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_a_word_of_change_as_a_verb_is_still_refused(learner):
    assert learner.answer("please update the year of Rahul to 4").status == "blocked"
    assert learner.answer("add an update: Rahul joins the Coding Club").status == "blocked"


@pytest.mark.parametrize("question, reference", [
    ("which subjects does Rahul take, with grades?",
     "MATCH (:Student {name: 'Rahul'})-[r:STUDIES]->(j:Subject) RETURN j.name, r.grade"),
    ("What subjects is Rahul taking with which grades?",
     "MATCH (:Student {name: 'Rahul'})-[r:STUDIES]->(j:Subject) RETURN j.name, r.grade"),
], ids=["with-grades", "with-which-grades"])
def test_with_a_property_is_no_one_shared_with(college_db, chat, question, reference):
    """unseen40 aq021's ask, asked alone: "which subjects does Rahul take, with grades?" was
    answered with the students who share Rahul's subjects: "with" read as "with someone".
    What is shared is shared with a person, not with a property."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Who takes a subject with Rahul?",
     "MATCH (:Student {name: 'Rahul'})-[:STUDIES]->(:Subject)<-[:STUDIES]-(s:Student) "
     "WHERE s.name <> 'Rahul' RETURN DISTINCT s.name"),
    ("who does Karan work with?",
     "MATCH (:Student {name: 'Karan'})-[:WORKS_ON]->(:Project)<-[:WORKS_ON]-(s:Student) "
     "WHERE s.name <> 'Karan' RETURN DISTINCT s.name"),
], ids=["with-a-name", "with-at-the-end"])
def test_with_a_person_is_still_shared(college_db, chat, question, reference):
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    assert {r[0] for r in result.rows} == {r[0] for r in rows_of(college_db, reference)}, result.answer


@pytest.mark.parametrize("question", ["whats the oldest club in college?",
                                      "Which is the oldest club on campus?",
                                      "Which club is the oldest one at the institute?"])
def test_the_college_itself_is_everywhere_the_graph_holds(college_db, learner, question):
    """unseen24 l040, unseen13 r029, unseen42 as036 (refused): "in college", "on campus", "at the
    institute" name the whole graph, no place of its own; "the oldest club" is still asked."""
    assert_answered_with(learner.answer(question), college_db,
                         "MATCH (c:Club) WITH min(c.founded) AS first MATCH (c:Club) "
                         "WHERE c.founded = first RETURN c.name, c.founded")


def test_a_word_the_lexicon_reads_is_no_typo(college_db, learner):
    """unseen37 an045 (refused): "Computer Networks padhne se pehle kaunsa subject padhna
    chahiye?": "padhne" (to study), which the lexicon reads, was "corrected" to "padhaane" (to
    teach), a word the query then left out."""
    assert_answered_with(learner.answer("Computer Networks padhne se pehle kaunsa subject padhna chahiye?"),
                         college_db, "MATCH (p:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) "
                                     "RETURN p.name")


@pytest.mark.parametrize("question, reference", [
    ("which clubs is sneha in and who else is in them?",
     "MATCH (:Student {name: 'Sneha'})-[:MEMBER_OF]->(c:Club)<-[:MEMBER_OF]-(s:Student) "
     "WHERE s.name <> 'Sneha' RETURN s.name"),
    ("what skills does Karan have, and which projects need them?",
     "MATCH (:Student {name: 'Karan'})-[:HAS_SKILL]->(k:Skill)<-[:REQUIRES]-(p:Project) RETURN p.name"),
], ids=["who-else-in-them", "projects-need-them"])
def test_them_as_an_object_is_what_was_found(college_db, learner, question, reference):
    """This stop's own fresh questions: "which clubs is sneha in and who else is in them?" asked
    "who besides Sneha is in Sneha?". "them" as an object ("in them", "need them") stands for
    the things found, not the person the part was about (that is "their": "who are their
    friends?")."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    expected = {r[0] for r in rows_of(college_db, reference)}
    assert expected and {r[-1] for r in parts[1]} == expected, result.answer


@pytest.mark.parametrize("question", ["prerequisites for deadlocks (concept level)",
                                      "subtopics of trees (concept level)",
                                      "prereqs for routing (concept level)"])
def test_the_things_a_link_names_are_no_note_question(learner, question):
    """unseen43 at034 (confidently wrong): "prereqs for routing (concept level)" was answered
    with the Routing note: a query could not place "level", and the note search answered. A
    link's plural noun before "of" or "for" asks for the things at its other end, as "which
    concepts" does: the graph's question, answered by a query or refused, never by a note on
    the one named."""
    learner.answer(question)
    assert not any(s.tool == "search_notes" and s.found for s in learner.last.sub_questions), learner.last.answer


def test_those_at_the_end_of_a_part_is_every_value_found(college_db, learner):
    """A learner's probe (p021): "What concepts is Paging a prerequisite for, and which subjects
    teach those?" listed every subject: a bare "those" closing a part was read as no pointer.
    It stands for the concepts found, as "them" does."""
    result = learner.answer("What concepts is Paging a prerequisite for, and which subjects teach those?")
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    subjects = {r[0] for r in rows_of(college_db, "MATCH (:Concept {name: 'Paging'})-[:PREREQUISITE_FOR]->"
                                                  "(:Concept)<-[:COVERS]-(j:Subject) RETURN j.name")}
    assert subjects and {v for row in parts[1] for v in row} & {"Computer Networks", "Operating Systems",
                                                                "DSA", "DBMS"} == subjects, result.answer


@pytest.mark.parametrize("question, reference", [
    ("Which subject should students complete before they take Operating Systems?",
     "MATCH (p:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) RETURN p.name"),
    ("Which concepts should students learn before they get to Firewalls?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Firewalls'}) RETURN c.name"),
    ("What must a student finish before taking Computer Networks?",
     "MATCH (p:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) RETURN p.name"),
], ids=["students-they", "students-get-to", "a-student-taking"])
def test_students_in_general_are_the_learner(college_db, learner, question, reference):
    """unseen45 av033, av038 (refused): "which subject should students complete before they
    take Operating Systems?" asked for students too. Students in general as the subject of
    "should", "must", "need to" (and "they" after them) are the learner: their verb names no
    link, as "should I complete" does not."""
    assert_answered_with(learner.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Who is the Secretary of the Coding Club, and which other club is she a member of?",
     "MATCH (s:Student)-[:MEMBER_OF {role: 'Secretary'}]->(:Club {name: 'Coding Club'}) "
     "MATCH (s)-[:MEMBER_OF]->(c:Club) WHERE c.name <> 'Coding Club' RETURN c.name"),
    ("Which club is Sneha in, and what other clubs do her friends belong to?",
     "MATCH (:Student {name: 'Sneha'})-[:MEMBER_OF]->(own:Club) WITH collect(own.name) AS own "
     "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(:Student)-[:MEMBER_OF]->(c:Club) "
     "WHERE NOT c.name IN own RETURN c.name"),
    ("Who studies DBMS and which other subjects do they study?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DBMS'}) MATCH (s)-[:STUDIES]->(j:Subject) "
     "WHERE j.name <> 'DBMS' RETURN j.name"),
], ids=["other-club-she", "other-clubs-friends", "other-subjects-they"])
def test_other_in_a_later_part_leaves_out_what_came_before(college_db, learner, question, reference):
    """unseen45 av028 (half): "which other club is she a member of?" listed the Coding Club
    the first part named. "other" before a kind of thing, in a later part, leaves out the
    things of that kind the earlier parts named or found."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2, result.answer
    expected = {r[0] for r in rows_of(college_db, reference)}
    assert expected and {r[-1] for r in parts[1]} == expected, result.answer


@pytest.mark.parametrize("agent", ["chat", "learner"])
@pytest.mark.parametrize("first, follow_up, reference", [
    ("Who is the Secretary of the Coding Club?", "What other clubs is she a member of?",
     "MATCH (s:Student)-[:MEMBER_OF {role: 'Secretary'}]->(:Club {name: 'Coding Club'}) "
     "MATCH (s)-[:MEMBER_OF]->(c:Club) WHERE c.name <> 'Coding Club' RETURN c.name"),
    ("Which subjects does Payal study?", "Which other subjects does Aarav study?",
     "MATCH (:Student {name: 'Payal'})-[:STUDIES]->(p:Subject) WITH collect(p.name) AS before "
     "MATCH (:Student {name: 'Aarav'})-[:STUDIES]->(j:Subject) WHERE NOT j.name IN before RETURN j.name"),
], ids=["named-before", "found-before"])
def test_other_in_a_follow_up_leaves_out_what_came_before(college_db, request, agent, first, follow_up, reference):
    """This stop's fresh questions, as a chat goes on: "Who is the Secretary of the Coding
    Club?", then "What other clubs is she a member of?" listed the Coding Club too. "other"
    before a kind of thing leaves out the things of that kind the last turn named or found."""
    asking = request.getfixturevalue(agent)
    asking.answer(first)
    result = asking.answer(follow_up)
    assert rows_of(college_db, reference), reference
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("agent", ["chat", "learner"])
def test_a_choice_among_those_found_before(college_db, request, agent):
    """This stop's fresh questions: "Who is in the Robotics Club?", then "which of them is in
    the third year?" said "Nothing found": the two names found were written into the query
    as one quoted string, and a column named a node the query never matched."""
    asking = request.getfixturevalue(agent)
    asking.answer("Who is in the Robotics Club?")
    assert_answered_with(asking.answer("which of them is in the third year?"), college_db,
                         "MATCH (s:Student {year: 3})-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN s.name")


@pytest.mark.parametrize("first, follow_up, reference", [
    ("who are rahul and karan?", "what roles do they have in their clubs?",
     "MATCH (s:Student)-[m:MEMBER_OF]->(c:Club) WHERE s.name IN ['Rahul', 'Karan'] RETURN s.name, c.name, m.role"),
    ("Tell me about Rahul and Karan", "which projects are they on?",
     "MATCH (s:Student)-[:WORKS_ON]->(p:Project) WHERE s.name IN ['Rahul', 'Karan'] RETURN s.name, p.name"),
], ids=["roles", "projects"])
def test_they_after_a_turn_about_two_is_both(college_db, learner, first, follow_up, reference):
    """This stop's fresh questions: "who are rahul and karan?", then "what roles do they have in
    their clubs?" answered for Rahul alone, as if whole: the turn the memory kept was the
    first part's. A turn of two asks of one kind is remembered with the rows of both."""
    learner.answer(first)
    assert_answered_with(learner.answer(follow_up), college_db, reference)


@pytest.mark.parametrize("agent", ["chat", "learner"])
def test_a_link_property_of_several_says_whose(college_db, request, agent):
    """A learner's probe (p049): "Which students are working on the Library Management
    System?", then "and what grades did they get in DBMS?" answered "A+ and A.": two grades,
    not whose. A property of the links of several says whose each is."""
    asking = request.getfixturevalue(agent)
    asking.answer("Which students are working on the Library Management System?")
    assert_answered_with(asking.answer("and what grades did they get in DBMS?"), college_db,
                         "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Library Management System'}) "
                         "MATCH (s)-[r:STUDIES]->(:Subject {name: 'DBMS'}) RETURN s.name, r.grade")


@pytest.mark.parametrize("question, note", [
    ("Deadlock kyun hota hai? Simple mein samjhao na", "N18"),     # a learner's probe, p039
    ("Paging kaise kaam karta hai?", "N19"),
    ("Normalization kyun zaroori hai?", "N01"),
    ("Transaction ko rollback kab karte hain?", "N08"),
])
def test_a_hinglish_note_question_is_searched_in_english(learner, question, note):
    """A learner's probe (p039): "Deadlock kyun hota hai? Simple mein samjhao na" was refused,
    though the Deadlocks note led the search by far: the encoder reads English, and the Hindi
    words ("kyun", "hota", "samjhao") left the question too far from every note to clear the
    bar. The search reads a Hinglish question's common Hindi words in English."""
    result = learner.answer(question)
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes == [note], result.answer


@pytest.mark.parametrize("question", ["Which of Aarav and Payal study DBMS?",
                                      "Who is in the Coding Club, and which of them study DBMS?"])
def test_a_choice_among_named_values_is_one_query(college_db, learner, question):
    """This stop's fresh questions: "Which of Aarav and Payal study DBMS?" went to the study
    partners template (one student argument), split into "Which of Aarav study DBMS?" and
    "Which of Payal study DBMS?", each answered with partners. A choice among several named
    values needs every one of them in one call: a template that takes fewer cannot choose."""
    learner.answer(question)
    last = learner.last.sub_questions[-1]
    assert last.found and same_rows(last.rows, rows_of(
        college_db, "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DBMS'}) "
                    "WHERE s.name IN ['Aarav', 'Payal'] RETURN s.name")), learner.last.answer


@pytest.mark.parametrize("question, reference", [
    ("Which students work on completed projects?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {status: 'Completed'}) RETURN s.name"),
    ("What skills do planned projects need?",
     "MATCH (:Project {status: 'Planned'})-[:REQUIRES]->(k:Skill) RETURN k.name"),
    ("What skills are needed by projects that are not finished yet?",
     "MATCH (p:Project)-[:REQUIRES]->(k:Skill) WHERE p.status <> 'Completed' RETURN k.name"),
], ids=["completed", "planned", "not-finished"])
def test_a_kind_with_a_value_of_its_own_is_a_step(college_db, chat, question, reference):
    """This stop's fresh questions: "Which students work on completed projects?" was refused
    ("the query leaves out 'work'"): a kind named with a value of its own ("completed
    projects"), and no name, is a step along a link, filtered by that value."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_kind_a_number_describes_is_a_step_too(college_db, chat):
    """As above, with a number of the kind's own: "second year students"."""
    assert_answered_with(chat.answer("Which clubs do second year students belong to?"), college_db,
                         "MATCH (:Student {year: 2})-[:MEMBER_OF]->(c:Club) RETURN DISTINCT c.name")


def test_unki_after_an_answer_is_what_it_found(college_db, learner):
    """This stop's fresh questions: "Rahul kaun hai?", "uske dost kaun hain?" (Karan), then "aur
    unki skills?" gave Rahul's skills: "unki" (their), a plural, had been read as "uski", the
    person mentioned last. A plural pointer stands for what the last answer found."""
    learner.answer("Rahul kaun hai?")
    learner.answer("uske dost kaun hain?")
    assert_answered_with(learner.answer("aur unki skills?"), college_db,
                         "MATCH (:Student {name: 'Rahul'})-[:FRIENDS_WITH]-(f:Student)-[:HAS_SKILL]->(k:Skill) "
                         "RETURN k.name")


def test_us_before_a_kind_is_that(college_db, learner):
    """This stop's fresh questions: "Karan kis project pe kaam karta hai aur us project ko
    kaunsi skills chahiye?": "us project" (that project, Hindi's oblique "woh") was left as it
    was, and the part went unanswered."""
    result = learner.answer("Karan kis project pe kaam karta hai aur us project ko kaunsi skills chahiye?")
    parts = parts_rows(result)
    assert len(parts) == 2 and same_rows(parts[1], rows_of(
        college_db, "MATCH (:Student {name: 'Karan'})-[:WORKS_ON]->(:Project)-[:REQUIRES]->(k:Skill) "
                    "RETURN k.name")), result.answer


@pytest.mark.parametrize("agent", ["chat", "learner"])
def test_their_after_several_found_is_all_of_them(college_db, request, agent):
    """This stop's fresh questions: "Who knows Python?" (Rahul and Payal), then "what are their
    roles in their clubs?" answered for Rahul alone: the group reading failed and the pointer
    fell back to the last person mentioned. After an answer that listed several, "their" is
    all of them, or the question is refused."""
    asking = request.getfixturevalue(agent)
    asking.answer("Who knows Python?")
    assert_answered_with(asking.answer("what are their roles in their clubs?"), college_db,
                         "MATCH (:Skill {name: 'Python'})<-[:HAS_SKILL]-(s:Student)-[m:MEMBER_OF]->(c:Club) "
                         "RETURN s.name, c.name, m.role")


@pytest.mark.parametrize("agent", ["chat", "learner"])
def test_his_after_a_name_in_the_same_question_is_that_person(college_db, request, agent):
    """This stop's fresh questions: "What is Karan's role on his project?" was answered alone,
    but refused after any turn that had named people: "his" was first read as someone the
    conversation named. A person's pronoun after a person named in the same question is that
    person."""
    asking = request.getfixturevalue(agent)
    asking.answer("Who has worked on the Library Management System?")
    assert_answered_with(asking.answer("What is Karan's role on his project?"), college_db,
                         "MATCH (:Student {name: 'Karan'})-[r:WORKS_ON]->(p:Project) RETURN p.name, r.role")


@pytest.mark.parametrize("question, reference", [
    ("What grade did Aarav get in Operating Systems, and how does that compare with Sneha's grade "
     "in the same subject?",
     "MATCH (:Student {name: 'Sneha'})-[r:STUDIES]->(:Subject {name: 'Operating Systems'}) RETURN r.grade"),
    ("What year is Payal in, and how does that compare with Karan?",
     "MATCH (s:Student {name: 'Karan'}) RETURN s.name, s.year"),
], ids=["grade-same-subject", "year"])
def test_how_does_that_compare_asks_the_same_of_another(college_db, learner, question, reference):
    """unseen45 av020 (half): "..., and how does that compare with Sneha's grade in the same
    subject?" was left unanswered. "how does that compare with X" asks the part before again,
    of X (as "what about X?" does); the words that restate that ask change nothing."""
    result = learner.answer(question)
    parts = parts_rows(result)
    assert len(parts) == 2 and same_rows(parts[1], rows_of(college_db, reference)), result.answer


def test_are_any_of_them_after_a_conjunction_is_a_second_ask(college_db, learner):
    """This stop's fresh questions: "Who is friends with Payal, and are any of them in the
    Coding Club?" was one fused query, answered "Aarav." as if he were her only friend: an
    auxiliary verb and "any of them" after a conjunction ask on their own."""
    result = learner.answer("Who is friends with Payal, and are any of them in the Coding Club?")
    parts = parts_rows(result)
    assert len(parts) == 2 and same_rows(parts[0], rows_of(
        college_db, "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(f:Student) RETURN f.name")), result.answer


@pytest.mark.parametrize("question, reference", [
    ("Which project has the fewest people on it?",
     "MATCH (p:Project)<-[:WORKS_ON]-(s:Student) WITH p, count(s) AS n WITH min(n) AS least "
     "MATCH (p:Project)<-[:WORKS_ON]-(s:Student) WITH p, count(s) AS n, least WHERE n = least RETURN p.name, n"),
    ("Which subject has the most concepts in it?",
     "MATCH (j:Subject)-[:COVERS]->(c:Concept) WITH j, count(c) AS n WITH max(n) AS most "
     "MATCH (j:Subject)-[:COVERS]->(c:Concept) WITH j, count(c) AS n, most WHERE n = most RETURN j.name, n"),
], ids=["fewest-on-it", "most-in-it"])
def test_it_at_the_end_is_the_thing_asked_for(college_db, chat, question, reference):
    """This stop's fresh questions: "Which project has the fewest people on it?" was refused:
    "it" was read as something said before. An "it" closing a question that asks "which
    project" is that project."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("agent", ["chat", "learner"])
@pytest.mark.parametrize("follow_up", ["which of those does Paging lead to?", "which of these does Paging lead to?"])
def test_those_without_a_noun_after_an_answer_is_what_it_found(college_db, request, agent, follow_up):
    """This stop's fresh questions: "What does Operating Systems cover?", then "which of those
    does Paging lead to?" listed Indexing too, a concept of another subject: a bare "those"
    was no pointer at all. It stands for what the last answer found, as "them" does."""
    asking = request.getfixturevalue(agent)
    asking.answer("What does Operating Systems cover?")
    assert_answered_with(asking.answer(follow_up), college_db,
                         "MATCH (:Subject {name: 'Operating Systems'})-[:COVERS]->(c:Concept)"
                         "<-[:PREREQUISITE_FOR]-(:Concept {name: 'Paging'}) RETURN c.name")


@pytest.mark.parametrize("question", ["can Payal help me with DSA?", "Could Karan teach me Docker?"])
def test_can_someone_asks_about_them_not_for_others(college_db, chat, question):
    """This stop's fresh questions: "Who is best at DSA?" (Payal), then "can she help me with
    it?" answered "Karan and Rahul.": the others who study DSA with Payal, read from "with".
    "Can <someone> ...?" asks yes or no about that one: a list of others is no answer (the
    graph holds no one's willingness: a refusal is)."""
    named = question.split()[1]
    others = {r[0] for r in rows_of(college_db, "MATCH (s:Student) RETURN s.name")} - {named}
    result = chat.answer(question)
    assert not (result.status == "answered" and any(o in (result.answer or "") for o in others)), result.answer


@pytest.mark.parametrize("agent", ["chat", "learner"])
@pytest.mark.parametrize("place, index", [("explain the first one", 0), ("what is the second one?", 1)])
def test_the_first_one_is_the_first_value_found(college_db, request, agent, place, index):
    """This stop's fresh questions: "What does Operating Systems cover?", then "explain the
    first one" was refused. A place among the values the last answer listed ("the first one",
    "the second one", "the last one") is that value, in the order it was shown."""
    asking = request.getfixturevalue(agent)
    listed = asking.answer("What does Operating Systems cover?").rows
    chosen = listed[index][0]
    note = rows_of(college_db, f"MATCH (n:Note)-[:EXPLAINS]->(:Concept {{name: '{chosen}'}}) RETURN n.text")
    result = asking.answer(place)
    assert note and result.status == "answered" and note[0][0][:40] in result.answer, result.answer


# --- the blind sets unseen46 and unseen47: their confidently wrong answers ------------------------

@pytest.mark.parametrize("question", ["what does memory management include in os",
                                      "What comes after Trees in the learning order?",
                                      "what should i learn before routing",
                                      "What is Graphs a prerequisite for?"])
def test_a_question_for_what_a_link_reaches_asks_for_nodes(college_db, question):
    """unseen46 aw037: "what does memory management include in os" was refused by the query
    and answered from the note on Virtual Memory, one of the two things it includes. What a
    link of the graph reaches from a named value ("what does X include", "what comes after X")
    is the graph's to answer: a note on one of them, or on X itself, is half an answer at best."""
    from course.agents.named_in_notes import asks_for_nodes

    assert asks_for_nodes(college_db, question)


@pytest.mark.parametrize("question", ["what does DFS do before it backtracks?",
                                      "what are the 4 conditions needed for a deadlock",
                                      "What does a thread share with its process?"])
def test_a_link_word_inside_a_concept_question_does_not(college_db, question):
    """A link's word that does not ask for what the link reaches ("before it backtracks", "the
    conditions needed for a deadlock") leaves a note question a note question."""
    from course.agents.named_in_notes import asks_for_nodes

    assert not asks_for_nodes(college_db, question)


@pytest.mark.parametrize("question", ["what does memory management include in os",
                                      "What comes after Trees in the learning order?"])
def test_a_link_question_the_query_refuses_is_not_answered_from_a_note(learner, question):
    result = learner.answer(question)
    assert not any(s.tool == "search_notes" and s.found for s in learner.last.sub_questions), \
        result.answer


@pytest.mark.parametrize("agent", ["chat", "learner"])
@pytest.mark.parametrize("question, order", [("list clubs oldest to newest by founding year", ""),
                                             ("clubs newest to oldest please", " DESC")])
def test_oldest_to_newest_is_an_order(college_db, request, agent, question, order):
    """unseen46 aw038: "list clubs oldest to newest by founding year" answered the oldest club
    alone, as if asked for the first: "<one end> to <the other>" orders the list."""
    result = request.getfixturevalue(agent).answer(question)
    reference = f"MATCH (c:Club) RETURN c.name, c.founded ORDER BY c.founded{order}"
    assert result.status == "answered" and result.rows == rows_of(college_db, reference), result.answer


def test_a_phrasal_verb_is_no_filler(learner, college_db):
    """unseen47 ax040: "What skills does the project Karan is working on call for?" was asked
    again without "call" and answered with the skills of Karan's teammates. "call for" asks
    what the project requires: without "call" a dangling "for" asks something else."""
    from course.retrieval.filler import filler_dropper

    assert filler_dropper(college_db)("What skills does the project Karan is working on call for?") is None
    result = learner.answer("What skills does the project Karan is working on call for?")
    reference = ("MATCH (:Student {name: 'Karan'})-[:WORKS_ON]->(:Project)-[:REQUIRES]->(k:Skill) "
                 "RETURN DISTINCT k.name")
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


def test_two_properties_of_one_clause_are_one_ask():
    """unseen47 ax022: "Who is Aarav friends with, and what branch and year is Aarav in?" was
    split after "branch", which was then asked of the friend, and "year is Aarav in?" alone."""
    assert RuleUpdater().split("Who is Aarav friends with, and what branch and year is Aarav in?") == \
        ["Who is Aarav friends with?", "what branch and year is Aarav in?"]


def test_two_properties_of_one_clause_are_answered_of_the_one_named(learner, college_db):
    result = learner.answer("Who is Aarav friends with, and what branch and year is Aarav in?")
    parts = parts_rows(result)
    assert len(parts) == 2 and same_rows(parts[1], rows_of(
        college_db, "MATCH (s:Student {name: 'Aarav'}) RETURN s.name, s.branch, s.year")), result.answer


@pytest.mark.parametrize("question, notes", [
    ("What is the difference between paging and virtual memory?", ["N19", "N20"]),
    ("paging aur virtual memory mein kya farak hai?", ["N19", "N20"]),
    ("how are bfs and dfs different?", ["N13", "N14"]),
    ("compare processes and threads", ["N16", "N17"]),
    ("what is a thread, and how does it relate to processes?", ["N17"]),
])
def test_a_note_answer_covers_every_topic_the_question_compares(learner, college_db, question, notes):
    """This stop's fresh questions: "paging aur virtual memory mein kya farak hai?" was answered
    from the note on Virtual Memory alone, which does not speak of paging: half a comparison,
    said as a whole one. A note answer quotes the note of each topic the question names that
    the best note leaves out (the note on threads speaks of processes: it answers alone), and a
    comparison ("compare", "difference") the note of each topic it compares."""
    result = learner.answer(question)
    texts = dict(rows_of(college_db, "MATCH (n:Note) RETURN n.id, n.text"))
    quoted = {note for note, text in texts.items() if f"(note {note}," in (result.answer or "")}
    assert result.status == "answered" and quoted == set(notes), result.answer


@pytest.mark.parametrize("question, first", [
    ("explain deadlock and which subject covers it", "N18"),
    ("describe paging, and what does it lead to?", "N19"),
])
def test_explain_opens_an_ask_of_its_own(learner, question, first):
    """This stop's fresh questions: "explain deadlock and which subject covers it" was read as
    one ask and refused. "explain", "describe" ask as "tell" does: a part of its own."""
    result = learner.answer(question)
    found = [s for s in result.sub_questions if s.found]
    assert len(found) == 2 and found[0].rows[0][0] == first, result.answer


def test_could_you_after_a_conjunction_opens_a_request():
    """unseen47 ax023: "Which smaller topics fall under Graphs, and could you also explain what
    a graph actually is?" was cut after "could you": an auxiliary and "you" open the request."""
    assert RuleUpdater().split("Which smaller topics fall under Graphs, and could you also explain "
                               "what a graph actually is?") == \
        ["Which smaller topics fall under Graphs?", "could you also explain what a graph actually is?"]


@pytest.mark.parametrize("question, note", [
    ("Could you please explain breadth-first search to me?", "N13"),
    ("Which smaller topics fall under Graphs, and could you also explain what a graph actually is?", "N12"),
])
def test_could_you_explain_is_answered_from_the_note(learner, question, note):
    """unseen42 as008, unseen47 ax023: "Could you please explain X to me?" was read as a yes or
    no question (an auxiliary first), so no template fitted and a query listed the concept. "could
    you (please)" opens a request: the ask is "explain X", the note explains it."""
    result = learner.answer(question)
    found = [s for s in result.sub_questions if s.found]
    assert found[-1].tool in ("search_notes", "concept_notes") and found[-1].rows[0][0] == note, result.answer


def test_a_comparison_is_not_answered_by_whether_a_link_exists(college_db, chat):
    """This stop's fresh questions: "what grade did karan get in dsa and is it better than
    rahul's?" asked, second, "is DSA better than rahul's?", answered "Yes." by a query for
    whether Rahul studies DSA: the "> 0" of that test was taken for the comparison."""
    result = chat.answer("is DSA better than rahul's?")
    assert result.status != "answered", result.answer


@pytest.mark.parametrize("question, reference", [
    ("give me the notes on trees and graphs",
     "MATCH (c:Concept)<-[:EXPLAINS]-(n:Note) WHERE c.name IN ['Trees', 'Graphs'] RETURN c.name, n.id, n.text"),
    ("which subjects cover trees and paging?",
     "MATCH (c:Concept)<-[:COVERS]-(s:Subject) WHERE c.name IN ['Trees', 'Paging'] RETURN c.name, s.name"),
])
def test_two_things_that_share_nothing_are_answered_each(college_db, chat, question, reference):
    """This stop's fresh questions: "give me the notes on trees and graphs" asked for a note
    that explains both, found none and said "I found nothing": a claim about another question.
    Once nothing is shared, each one's rows answer it (what both share is still asked first,
    and "both" still asks only that)."""
    assert_answered_with(chat.answer(question), college_db, reference)
    both = ("MATCH (:Concept {name: 'Trees'})<-[:COVERS]-(s:Subject)-[:COVERS]->(:Concept {name: 'Paging'}) "
            "RETURN s.name")
    assert same_rows(chat.answer("which subjects cover both trees and paging?").rows, rows_of(college_db, both))


def test_led_is_the_past_of_lead(college_db, chat):
    """This stop's fresh questions: "is the library management system finished and who led
    it?" could not answer its second part: "led" was no word for a lead's role."""
    assert_answered_with(chat.answer("who led the library management system?"), college_db,
                         "MATCH (s:Student)-[w:WORKS_ON]->(:Project {name: 'Library Management System'}) "
                         "WHERE w.role CONTAINS 'Lead' RETURN s.name")


@pytest.mark.parametrize("question", ["Since which year has Karan been part of the Robotics Club?",
                                      "since what year is Karan in the Robotics Club?"])
def test_since_which_year_asks_when_someone_joined(college_db, chat, question):
    """unseen47 ax035: "Since which year ..." was refused: "which year" was read as a second
    property the query left out. "since which year" is the year a membership began."""
    assert_answered_with(chat.answer(question), college_db,
                         "MATCH (:Student {name: 'Karan'})-[m:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN m.since")


@pytest.mark.parametrize("question, reference", [
    ("List the students in descending order of year.",
     "MATCH (s:Student) RETURN s.name, s.year ORDER BY s.year DESC, s.name"),
    ("sort the subjects by credits, highest first",
     "MATCH (s:Subject) RETURN s.name, s.credits ORDER BY s.credits DESC, s.name"),
])
def test_descending_orders_from_the_larger_end(college_db, chat, question, reference):
    """This stop's fresh questions: "List the students in descending order of year." listed
    them from the first year up: the order's direction was read from age words alone."""
    result = chat.answer(question)
    assert result.status == "answered" and result.rows == rows_of(college_db, reference), result.answer


def test_the_greatest_number_is_the_most(college_db, chat):
    """This stop's fresh questions: "Which of the clubs has the greatest number of members?"
    was called outside the graph."""
    reference = ("MATCH (c:Club)<-[:MEMBER_OF]-(s:Student) WITH c, count(s) AS n WITH max(n) AS most "
                 "MATCH (c:Club)<-[:MEMBER_OF]-(s:Student) WITH c, count(s) AS n, most WHERE n = most RETURN c.name, n")
    assert_answered_with(chat.answer("Which of the clubs has the greatest number of members?"), college_db, reference)


def test_them_after_a_count_is_what_was_counted(college_db, learner):
    """This stop's fresh questions: "how many projects are in progress, and who works on them?"
    could not answer its second part: "them" after a count stands for the things counted."""
    last_part_is(college_db, learner.answer("how many projects are in progress, and who works on them?"),
                 "MATCH (s:Student)-[:WORKS_ON]->(p:Project {status: 'In Progress'}) RETURN s.name")


@pytest.mark.parametrize("question", ["who is older?", "Who is older, Rahul or Karan?"])
def test_a_word_inside_another_word_grounds_no_note(learner, question):
    """This stop's fresh questions: "who is older?" was answered with the note on trees, whose
    "folders" holds "older": a note holds a term when a word of it begins with the term, and a
    question for someone is never a note's to answer, whatever words it shares."""
    result = learner.answer(question)
    assert not any(s.tool == "search_notes" and s.found for s in learner.last.sub_questions), result.answer


def test_a_word_of_an_out_of_scope_phrase_is_not_known_alone(chat):
    """This stop's fresh questions: "what percentage of students are in CSE?" listed the CSE
    students: "percentage" was a known word for standing in "attendance percentage", a phrase
    the graph does not hold."""
    assert chat.answer("what percentage of students are in CSE?").status != "answered"


def test_the_people_on_someones_project_are_a_step_of_the_chain(college_db, chat):
    """This stop's fresh questions: "what are the roles of the people on karan's project?"
    answered Karan's own role: "the people on §0's project" walks the project's link twice
    (to Karan's project, back to its people), and the query walked it once."""
    result = chat.answer("what are the roles of the people on karan's project?")
    reference = ("MATCH (:Student {name: 'Karan'})-[:WORKS_ON]->(p:Project)<-[w:WORKS_ON]-(s:Student) "
                 "RETURN s.name, w.role")
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


def test_a_question_asked_again_whole_is_answered_by_the_note_or_not_at_all(college_db, learner):
    """unseen43 at028: "what does tcp/ip include in CN; and the note explaining tcp/ip layers"
    was asked again whole because one note answered the whole; whole, a query fused both asks
    and listed the notes of the concepts TCP/IP includes. Asked again whole, the question keeps
    only that note's answer (else the parts' own answers stand)."""
    result = learner.answer("what does tcp/ip include in CN; and the note explaining tcp/ip layers")
    firsts = [str(s.rows[0][0]) for s in result.sub_questions if s.found and s.rows]
    assert {n for n in firsts if re.fullmatch(r"N\d+", n)} <= {"N21"}, result.answer


def test_which_students_are_in_someones_clubs_asks_for_people(college_db, chat):
    """This stop's fresh questions: "which students are in payal's clubs?" was refused, though
    "who is in payal's club?" was answered: "which students" asks for people as "who" does."""
    assert_answered_with(chat.answer("which students are in payal's clubs?"), college_db,
                         "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(:Club)<-[:MEMBER_OF]-(s:Student) "
                         "WHERE s.name <> 'Payal' RETURN DISTINCT s.name")


@pytest.mark.parametrize("question", ["Who is not in the Coding Club?", "Which students aren't in the Debate Society?"])
def test_a_negation_is_never_answered_by_a_template(college_db, learner, question):
    """The learner's probe of this stop: "Who is not in the Coding Club?" was answered with the
    club's members: the template for members fitted its other words. No reviewed template
    negates: such a question goes to text2cypher, which answers it or refuses."""
    club = "Coding Club" if "Coding" in question else "Debate Society"
    members = {r[0] for r in rows_of(college_db, f"MATCH (s:Student)-[:MEMBER_OF]->(:Club {{name: '{club}'}}) RETURN s.name")}
    result = learner.answer(question)
    assert not (result.status == "answered" and {r[0] for r in result.rows} & members), result.answer


@pytest.mark.parametrize("question", ["Which students are in 3rd year or above?", "which students are in year 3 or above?"])
def test_or_above_after_a_property_is_at_least(college_db, chat, question):
    """The learner's probe of this stop: "Which students are in 3rd year or above?" listed the
    third years alone: "or above" after "3rd year" was not read."""
    assert_answered_with(chat.answer(question), college_db, "MATCH (s:Student) WHERE s.year >= 3 RETURN s.name")


@pytest.mark.parametrize("question", ["Explain CPU scheduling to me.", "What does memory management do?"])
def test_a_topic_no_note_explains_is_not_answered_by_a_neighbours_note(learner, question):
    """The learner's probe of this stop: "Explain CPU scheduling to me." quoted the note on
    threads, which names the CPU scheduler: no note explains scheduling, and the threads note
    is a neighbour's. A topic of the notes' kind that no note explains, named with none of the
    best note's own topics, is not answered from it."""
    result = learner.answer(question)
    assert not any(s.tool == "search_notes" and s.found for s in learner.last.sub_questions), result.answer


def test_a_choice_among_those_before_is_never_answered_for_everyone(college_db, learner):
    """The second learner's probe of this stop: "Payal ke dost kaun kaun hain?", then "Dono
    mein se kaun Debate Society mein hai?" listed the club's members, Payal among them: "dono
    mein se" was taken for words that ask nothing. A choice among what came before is made
    among those, or refused."""
    learner.answer("Payal ke dost kaun kaun hain?")
    result = learner.answer("Dono mein se kaun Debate Society mein hai?")
    assert not (result.status == "answered" and "Payal" in (result.answer or "")), result.answer


@pytest.mark.parametrize("agent", ["chat", "learner"])
def test_who_else_asks_the_last_question_again_less_its_answer(college_db, request, agent):
    """The second learner's probe of this stop: "Who is in the Coding Club?", "and the Robotics
    Club?", then "who else?" listed every student but Karan. A bare "who else?" asks the last
    question again, leaving out everyone its answer found: no one else is in the Robotics Club."""
    asking = request.getfixturevalue(agent)
    for question in ("Who is in the Coding Club?", "and the Robotics Club?"):
        asking.answer(question)
    result = asking.answer("who else?")
    assert not (result.status == "answered" and result.rows), result.answer


def test_andar_says_which_way_a_part_is(college_db, chat):
    """The second learner's probe of this stop: "Trees concept ke andar kaun sa concept aata
    hai?" listed Graphs too, the concept Trees is part of: "andar" (inside) says the direction."""
    assert_answered_with(chat.answer("Trees concept ke andar kaun sa concept aata hai?"), college_db,
                         "MATCH (:Concept {name: 'Trees'})-[:INCLUDES]->(c:Concept) RETURN c.name")


def test_a_difference_is_not_answered_by_a_description_of_one(chat):
    """The second learner's probe of this stop: "What is the difference between a firewall and
    a router?" was answered "Firewalls (Computer Networks)": a description of one of the two."""
    assert chat.answer("What is the difference between a firewall and a router?").status != "answered"


def test_a_choice_among_named_values_is_no_note_question(college_db, learner):
    """The second learner's probe of this stop: "..., and which ones should be learned before
    Deadlocks?" became "which of Virtual Memory, Paging, ... should be learned before
    Deadlocks?", was refused by the query and answered from the note on deadlocks. A choice
    among named values is the graph's to make."""
    from course.agents.named_in_notes import asks_for_nodes

    assert asks_for_nodes(college_db, "which of Paging, Threads and Processes should be learned before Deadlocks?")


def test_a_link_word_said_again_is_one_step(college_db, chat):
    """unseen48 ay022, found when it was scored: "what do i need to know before 3nf like the
    prereq concept" was read as two steps back ("before", then "prereq") and answered 1NF, the
    prerequisite of the prerequisite. A word that says the one before it again ("like the
    prereq") names the same step; "the prerequisites of the prerequisites" still names two."""
    assert_answered_with(chat.answer("what do i need to know before 3nf like the prereq concept"), college_db,
                         "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: '3NF'}) RETURN c.name")


@pytest.mark.parametrize("question, reference", [
    ("For which subject is Operating Systems a prerequisite?",
     "MATCH (:Subject {name: 'Operating Systems'})-[:PREREQUISITE_FOR]->(s:Subject) RETURN s.name"),
    ("Which students are enrolled in the subject for which Operating Systems is a prerequisite?",
     "MATCH (:Subject {name: 'Operating Systems'})-[:PREREQUISITE_FOR]->(:Subject)<-[:STUDIES]-(s:Student) "
     "RETURN DISTINCT s.name"),
])
def test_a_preposition_moved_to_the_front_still_says_the_direction(college_db, chat, question, reference):
    """unseen49 az034 and az041, found when it was scored (both wrong on the code before this
    stop too): "For which subject is Operating Systems a prerequisite?" answered DSA, the
    subject before it. The opening "for" was dropped as a word that asks nothing, and "the
    subject for which X is a prerequisite" was read the other way."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("what grade did aarav get in operating systems, he keeps saying he failed lol",
     "MATCH (:Student {name: 'Aarav'})-[s:STUDIES]->(:Subject {name: 'Operating Systems'}) RETURN s.grade"),
    ("ok so who actually has machine learning as a skill, i need someone to help with my ml assignment",
     "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Machine Learning'}) RETURN s.name"),
])
def test_an_aside_after_the_question_asks_nothing(college_db, learner, question, reference):
    """unseen48 (ay029, ay033; a development set since its scoring): a statement tacked on after
    a comma ("he keeps saying he failed lol") made the rules refuse the whole question for its
    unknown words. A clause that says something of someone, after a question, asks nothing."""
    last_part_is(college_db, learner.answer(question), reference)


@pytest.mark.parametrize("question, reference", [
    ("Which project hasn't started yet and is still only planned?",
     "MATCH (p:Project {status: 'Planned'}) RETURN p.name"),
    ("which projects are still just planned and havent started yet",
     "MATCH (p:Project {status: 'Planned'}) RETURN p.name"),
    ("Which projects haven't started yet?", "MATCH (p:Project {status: 'Planned'}) RETURN p.name"),
    ("Which projects are not completed?", "MATCH (p:Project) WHERE p.status <> 'Completed' RETURN p.name"),
])
def test_a_not_leaves_out_only_the_values_it_stands_by(college_db, chat, question, reference):
    """unseen41, unseen48 ay032 (six development questions in all): "hasn't started yet and is
    still only planned" turned the "not" on every value the question named, and the query read
    status <> 'Planned', the opposite (the coverage check refused it, by luck). The "not"
    leaves out the values of the word it stands by ("started"); a value named elsewhere in the
    question ("planned") is still asked for."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_not_never_turns_a_value_named_elsewhere(college_db):
    from course.llm.offline.filters import filters
    from course.llm.offline.negation import negated
    from course.llm.offline.prompt import parse_prompt
    from course.llm.offline.reading import read

    agent = Agent(college_db, OfflineLLM())
    question = "Which project hasn't started yet and is still only planned?"
    prompt = parse_prompt(prompts.cypher_user_prompt(question, mentions=agent.link(question)),
                          agent.system_prompt)
    conditions = filters(negated(read(prompt.question, prompt.linked, prompt.schema)), "Project.status", "t")
    assert "t.status = 'Planned'" in conditions and not any("'Planned'" in c for c in conditions if "NOT" in c
                                                           or "<>" in c)


# --- several filler words -----------------------------------------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Which concept is designated as the immediate prerequisite of BCNF?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'BCNF'}) RETURN c.name"),
    ("what skills does the project rahul is working on need, thinking of joining it",
     "MATCH (:Student {name: 'Rahul'})-[:WORKS_ON]->(:Project)-[:REQUIRES]->(k:Skill) RETURN DISTINCT k.name"),
])
def test_several_filler_words_do_not_refuse_the_question(learner, college_db, question, reference):
    """unseen49 az035, unseen48 ay040: two words the rules do not know, each of which leaves
    the sentence as it was when taken out ("designated", "immediate"; "thinking", "joining"),
    refused the question: the filler rule took out one word only."""
    last_part_is(college_db, learner.answer(question), reference)


@pytest.mark.parametrize("question", [
    "How much money did the Robotics Club spend this year?",       # each word alone reads 0.98 alike
    "For which purposes is depth-first search typically employed on a graph?",
    "Which club organises the annual fest?",
    "What is Rahul's favourite food and hobby?",
    "Which student is the most hardworking and punctual?",
])
def test_words_that_carry_the_ask_are_never_dropped_together(college_db, question):
    """The noun a question word asks for ("which purposes", "how much money") is what is asked;
    and words that each read as filler alone may carry the ask together."""
    from course.retrieval.filler import filler_dropper

    assert filler_dropper(college_db)(question) is None


@pytest.mark.parametrize("question, reference", [
    ("In which year of study is Karan enrolled?", "MATCH (s:Student {name: 'Karan'}) RETURN s.year"),
    ("What branch of engineering is Karan studying?", "MATCH (s:Student {name: 'Karan'}) RETURN s.branch"),
])
def test_a_link_word_with_no_other_end_says_nothing_more(college_db, chat, question, reference):
    """unseen49 az029 and a development question: "enrolled", "studying" name the link to a
    subject, but the question names no subject and asks none; it asks the student's own year
    or branch. The query that answers it needs no link, and was refused for leaving the word out."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question", ["Which subject is Karan enrolled in?", "Which students are enrolled?"])
def test_a_link_word_with_its_other_end_asked_still_asks_the_link(college_db, chat, question):
    result = chat.answer(question)
    assert result.status != "answered" or "STUDIES" in (result.cypher or ""), result.cypher


@pytest.mark.parametrize("question, meant, place", [
    ("Sneha kaun se club mein hai aur wahan uska role kya hai?", "Sneha ka role", "Debate Society mein"),
    ("Which club is Karan in, and what is his role there?", "Karan's role", "in Robotics Club"),
])
def test_two_pointing_words_point_at_two_things(learner, question, meant, place):
    """unseen49 az043: "wahan uska role" was rewritten "Debate Society mein Debate Society ka
    role kya hai Sneha mein?": "wahan" (there) took the club, and "uska" took it again. Two
    pointing words of one part stand for two things: "there" the place, "her" the person."""
    result = learner.answer(question)
    rewritten = result.sub_questions[-1].rewritten
    assert meant in rewritten and place in rewritten and rewritten.count("Debate Society") <= 1, rewritten


@pytest.mark.parametrize("question, second", [
    ("By whom is the presidency of the Robotics Club held, and in which year was that club founded?",
     "MATCH (c:Club {name: 'Robotics Club'}) RETURN c.founded"),
    ("Who is the president of the Debate Society, and in which year was that club founded?",
     "MATCH (c:Club {name: 'Debate Society'}) RETURN c.founded"),
])
def test_that_before_a_noun_is_no_cleft(learner, college_db, question, second):
    """unseen49 az020: "..., and in which year was that club founded?" was read as the cleft
    "in which year was it?" and cut to "in which year club founded?": every club's year came
    back. "was that" ends a cleft only when nothing follows it; "that club" points at one club."""
    last_part_is(college_db, learner.answer(question), second)


def test_a_bare_kind_noun_names_the_one_found_of_its_kind(learner, college_db):
    """unseen (aw021): "who is president of robotics club and when was club started" was
    rewritten "What are Robotics Club's club started?" and refused: "club" without an article
    is the club the part before was about, as "the club" is."""
    last_part_is(college_db, learner.answer("who is president of robotics club and when was club started"),
                 "MATCH (c:Club {name: 'Robotics Club'}) RETURN c.name, c.founded")


@pytest.mark.parametrize("question, reference", [
    ("bhai dbms mein kaun kaun se concepts aate hain, ek baar list kar do na",
     "MATCH (:Subject {name: 'DBMS'})-[:COVERS]->(c:Concept) RETURN c.name"),
    ("Rahul ke skills show kar do", "MATCH (:Student {name: 'Rahul'})-[:HAS_SKILL]->(k:Skill) RETURN k.name"),
])
def test_a_reading_verb_with_kar_do_is_no_change(learner, college_db, question, reference):
    """unseen48 ay044: "list kar do" ("list it") was read as a request to change the data and
    blocked: "kar do" makes a verb of the word before it, and listing changes nothing."""
    last_part_is(college_db, learner.answer(question), reference)


@pytest.mark.parametrize("question", ["list the members of the club that Rahul is president of",
                                      "show me the students in the club Rahul is president of"])
def test_a_request_asks_for_the_kind_it_names_first(chat, college_db, question):
    """A learner's probe: "list the members of the club that Rahul is president of" answered
    "Robotics Club.", the club, not its members. "list the members ...", like "which members
    ...", asks for the kind it names first: a query that returns another kind is refused, or
    one that returns the members answers."""
    result = chat.answer(question)
    reference = ("MATCH (r:Student {name: 'Rahul'})-[m:MEMBER_OF]->(c:Club)<-[:MEMBER_OF]-(s:Student) "
                 "WHERE m.role = 'President' RETURN DISTINCT s.name")
    members = rows_of(college_db, reference)     # with Rahul, or the others (as "who else" would)
    others = [row for row in members if row != ["Rahul"]]
    assert result.status != "answered" or same_rows(result.rows, members) or same_rows(result.rows, others), \
        result.answer


@pytest.mark.parametrize("question, reference", [
    ("who doesn't study DSA?",
     "MATCH (s:Student) WHERE NOT (s)-[:STUDIES]->(:Subject {name: 'DSA'}) RETURN s.name"),
    ("Who is not in the Coding Club?",
     "MATCH (s:Student) WHERE NOT (s)-[:MEMBER_OF]->(:Club {name: 'Coding Club'}) RETURN s.name"),
    ("Which students aren't in the Debate Society?",
     "MATCH (s:Student) WHERE NOT (s)-[:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN s.name"),
    ("Which projects don't need Python?",
     "MATCH (p:Project) WHERE NOT (p)-[:REQUIRES]->(:Skill {name: 'Python'}) RETURN p.name"),
])
def test_a_not_before_a_link_to_a_named_node_asks_for_the_others(college_db, chat, question, reference):
    """A learner's probe: "who doesn't study DSA?" was refused (any "not" but one by a value or
    before "any" was). A "not" right before the link word to one named node asks for the nodes
    of the asked kind without that link."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, answer", [
    ("Is Karan in a higher year than Sneha?", True),
    ("Is Sneha in a higher year than Karan?", False),
    ("Is Aarav in a lower year than Rahul?", None),
    ("Is DBMS worth more credits than DSA?", None),
])
def test_a_yes_or_no_comparison_of_two_named_compares_their_number(college_db, chat, question, answer):
    """A learner's probe: "Is Karan in a higher year than Sneha?" was refused (the yes/no rule
    asked whether the two are linked). Two named values of one kind, a "higher ... than" and
    a number they hold: the answer compares the two numbers."""
    import re as regex

    names = regex.findall(r"(Karan|Sneha|Aarav|Rahul|DBMS|DSA)", question)
    label, prop = ("Subject", "credits") if "credits" in question else ("Student", "year")
    op = "<" if "lower" in question else ">"
    expected = rows_of(college_db, f"MATCH (a:{label} {{name: '{names[0]}'}}), (b:{label} {{name: '{names[1]}'}}) "
                                   f"RETURN a.{prop} {op} b.{prop}")[0][0]
    assert answer is None or expected == answer      # the two written down agree with the graph
    result = chat.answer(question)
    assert result.status == "answered" and result.rows == [[expected]], result.answer


# --- found when unseen51 was scored (forced: confidently wrong answers) --------------------------

def test_what_a_name_does_is_never_read_as_what_is_done_to_it(learner, college_db):
    """unseen51 bb027: "What does TCP/IP cover?" answered "Computer Networks", the subject that
    covers TCP/IP: a concept covers nothing, and the question was read the other way round. A
    name before the verb of "what does X <verb>" is the one that does it: when its kind cannot,
    no query answers it (the note on TCP/IP does)."""
    result = learner.answer("What does TCP/IP cover?")
    assert not (result.status == "answered" and ["Computer Networks"] in result.rows), result.answer
    assert_answered_with(learner.answer("What does DBMS cover?"), college_db,
                         "MATCH (:Subject {name: 'DBMS'})-[:COVERS]->(c:Concept) RETURN c.name")


def test_a_comparative_before_a_noun_is_no_filler(learner, college_db):
    """unseen51 bb020: "Between Rahul and Karan, who has the stronger Machine Learning skill?"
    was asked again without "stronger", and the retry's query found nothing: "I found nothing in
    the graph". "the stronger X" compares: never filler."""
    from course.retrieval.filler import filler_dropper

    question = "Between Rahul and Karan, who has the stronger Machine Learning skill?"
    assert filler_dropper(college_db)(question) is None
    stronger = rows_of(college_db, "MATCH (s:Student)-[h:HAS_SKILL]->(:Skill {name: 'Machine Learning'}) "
                                   "WHERE s.name IN ['Rahul', 'Karan'] AND h.level = 'Advanced' RETURN s.name")
    result = learner.answer(question)
    assert result.status != "answered" or (result.rows and result.rows[0][:1] == stronger[0]), result.answer


def test_a_bare_which_in_a_series_of_choices_asks_the_same_kind(learner, college_db):
    """unseen50 ba048 (a development set since its scoring): "Which project is completed, which
    one is in progress, and which is only planned?" answered the first two and said it could not
    answer "which is only planned?". A bare "which is" after parts that each asked "which
    <kind>" asks for that kind too."""
    last_part_is(college_db, learner.answer(
        "Which project is completed, which one is in progress, and which is only planned?"),
        "MATCH (p:Project {status: 'Planned'}) RETURN p.name")


@pytest.mark.parametrize("question, reference", [
    ("Which subject must be completed before Operating Systems?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) RETURN s.name"),
])
def test_a_value_of_a_kind_not_spoken_of_is_no_filter(chat, college_db, question, reference):
    """unseen51 bb031 (a development set since its scoring): "completed" is a project's status,
    but the question speaks of subjects: the query was refused for leaving the value out. A
    value in lower case counts only when its kind is named, asked or linked, as a value's
    word ("started") already did."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_values_named_beside_a_not_are_all_still_asked(college_db, chat):
    """Two values named and a third "not": both named are asked for, the third left out."""
    result = chat.answer("Which projects are completed or planned, and not in progress?")
    assert result.status != "answered" or same_rows(result.rows, rows_of(
        college_db, "MATCH (p:Project) WHERE p.status IN ['Completed', 'Planned'] RETURN p.name")), result.answer


def test_a_second_ask_of_her_property_is_answered_by_the_query_that_returns_it(chat, college_db):
    """unseen50 ba042 (a development set since its scoring): "Sneha is in which year, and what is
    her branch?" was refused as leaving out "what is her branch?", though the query returned
    the branch: a pronoun in a second ask stands for whom the query is about."""
    assert_answered_with(chat.answer("Sneha is in which year, and what is her branch?"), college_db,
                         "MATCH (s:Student {name: 'Sneha'}) RETURN s.name, s.year, s.branch")


@pytest.mark.parametrize("question, reference", [
    ("Please list the subjects Payal has taken, in the order of the semesters she took them.",
     "MATCH (:Student {name: 'Payal'})-[r:STUDIES]->(s:Subject) RETURN s.name ORDER BY r.semester, s.name"),
    ("which subjects does Sneha study, latest semester first?",
     "MATCH (:Student {name: 'Sneha'})-[r:STUDIES]->(s:Subject) RETURN s.name ORDER BY r.semester DESC, s.name"),
    ("list the members of the Robotics Club ordered by year",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN s.name ORDER BY s.year, s.name"),
])
def test_a_list_in_the_order_asked_is_sorted_by_the_property_it_shows(chat, college_db, question, reference):
    """unseen51 bb044 (a development set since its scoring): the query found Payal's subjects
    with their semesters and was refused for leaving out "order". Whichever intent finds the
    rows, "in the order of", "sorted by" and "latest X first" sort them by the column named."""
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    assert [row[0] for row in result.rows] == [row[0] for row in rows_of(college_db, reference)]


@pytest.mark.parametrize("question, reference", [
    ("Explain me routing please. Before routing what topics I should finish?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Routing'}) RETURN c.name"),
    ("Show me Karan's skills. Also which club is he in?",
     "MATCH (:Student {name: 'Karan'})-[:MEMBER_OF]->(c:Club) RETURN c.name"),
])
def test_a_sentence_that_asks_ends_its_ask(learner, college_db, question, reference):
    """unseen50 ba022 (a development set since its scoring): "Explain me routing please." and
    the sentence after it were read as one ask, and refused. A sentence that asks on its own
    ends at its full stop; one that only sets the scene ("I'm revising DBMS.") does not."""
    last_part_is(college_db, learner.answer(question), reference)


def test_it_after_a_note_question_is_what_the_note_was_about_along_a_link_to_its_own_kind(learner, college_db):
    """unseen50 ba035 (a development set since its scoring): after "What is graph in DSA?",
    "Which topics are part of it?" was rewritten with DSA, and answered with DSA's topics. A
    topic is part of a topic too: a link of a kind to itself reaches that kind, so "it" is the
    graph the question was about."""
    last_part_is(college_db, learner.answer("What is graph in DSA? Which topics are part of it?"),
                 "MATCH (:Concept {name: 'Graphs'})-[:INCLUDES]->(c:Concept) RETURN c.name")


@pytest.mark.parametrize("question, parts", [
    ("Could you give me Payal's grade in DBMS and Aarav's grade in DBMS?",
     ["Could you give me Payal's grade in DBMS?", "Could you give me Aarav's grade in DBMS?"]),
    ("tell me Karan's year and Sneha's branch", ["tell me Karan's year", "tell me Sneha's branch"]),
])
def test_a_request_for_two_names_things_is_two_asks(question, parts):
    """unseen51 bb007 (a development set since its scoring): "Could you give me Payal's grade in
    DBMS and Aarav's grade in DBMS?" was one part, refused. A request (asked politely or not)
    for one name's thing and another's is one request per thing."""
    assert RuleUpdater().split(question) == parts


@pytest.mark.parametrize("question, reference", [
    ("Who would be best placed for a Docker-based deployment role: which students have Docker, and at what level?",
     "MATCH (s:Student)-[h:HAS_SKILL]->(:Skill {name: 'Docker'}) RETURN s.name, h.level"),
    ("Who could help me with networks: which students study Computer Networks?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'Computer Networks'}) RETURN s.name"),
])
def test_the_question_after_a_colon_spells_out_the_one_before(learner, college_db, question, reference):
    """unseen51 bb047 (a development set since its scoring): a question, a colon, and the
    question that says it in the graph's terms was refused for the first one's words
    ("placed"). The one after the colon is the one to answer."""
    assert_answered_with(learner.answer(question), college_db, reference)


@pytest.mark.parametrize("question, note", [
    ("What is an index, and what is the trade-off in using one?", "N06"),
    ("What is a deadlock, and how do I avoid one?", "N18"),
])
def test_one_after_a_note_question_stands_for_the_thing_it_named(learner, question, note):
    """unseen51 bb036 (a development set since its scoring): "... what is the trade-off in using
    one?" went to the note search as it was, and found nothing; "how do I avoid one?" was
    answered from the note on threads (its text holds "avoid"). "one" with no noun after it,
    and no word before it that makes it a choice, is the thing the part before named last."""
    result = learner.answer(question)
    last = [s for s in result.sub_questions if s.found][-1]
    assert last.rows and last.rows[0][0] == note, result.answer


@pytest.mark.parametrize("question", ["Which skills do I need?", "Which skills do I need to get into one?"])
def test_a_learners_need_for_nothing_named_is_not_every_node(chat, question):
    """A fresh question: "Which skills do I need?" was answered with every skill in the graph.
    The learner's own verb says nothing of the graph only when what it is for is named."""
    assert chat.answer(question).status != "answered"


def test_a_change_someone_made_told_before_a_question_is_no_request(learner):
    """unseen51 bb011 (a development set since its scoring): "A student has put breadth-first
    search on his resume. What is it, and what is it typically used for?" was refused as a
    request to change the data. A change "a student" made, told, is the scene of the question."""
    result = learner.answer("A student has put breadth-first search on his resume. What is it, "
                            "and what is it typically used for?")
    assert result.status == "answered", result.answer
    assert any(s.rows and s.rows[0][0] == "N13" for s in result.sub_questions if s.found), result.answer


def test_it_is_what_the_ask_named_not_its_scene(learner):
    """unseen40 aq010: a first part whose scene names a project and whose ask names threads;
    "why is it cheaper?" was rewritten with the project (the scene's name came first). Once the
    ask is answered without its scene, what it names is what the ask alone names."""
    result = learner.answer("The Campus Chatbot team says their server handles lots of users at once "
                            "using threads rather than separate processes. What's a thread exactly, "
                            "and why is it cheaper?")
    second = [s for s in result.sub_questions if s.part == 1]
    assert second and "Campus Chatbot" not in second[-1].rewritten, result.answer


@pytest.mark.parametrize("question, reference", [
    ("Campus Chatbot project pe kaun kaun kaam kar raha hai, aur har ek ka role kya hai?",
     "MATCH (s:Student)-[w:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) RETURN s.name, w.role"),
    ("Debate Society mein kaun kaun hai, aur har ek kis year mein hai?",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN s.name, s.year"),
])
def test_har_ek_alone_is_each_of_them(learner, college_db, question, reference):
    """unseen51 bb009 (a development set since its scoring): "aur har ek ka role kya hai?" was
    asked of the project alone, and refused. "har ek" (each one) before a postposition or a
    question word, with no noun after it, stands for every value the part before found."""
    last_part_is(college_db, learner.answer(question), reference)


@pytest.mark.parametrize("question", ["which subjects must be finished before DBMS?", "Who leads the Coding Club?"])
def test_none_is_said_as_none_when_every_name_is_there(chat, college_db, question):
    """A fresh question: "which subjects must be finished before DBMS?" was answered "I found
    nothing ... Check the names", though DBMS is spelled right and has no prerequisite. When
    every name the query matched on is in the graph, an empty result is an answer: none."""
    result = chat.answer(question)
    assert result.status == "answered" and not result.rows
    assert "Check the names" not in result.answer and "there is none" in result.answer, result.answer


def test_an_empty_result_over_a_name_the_graph_lacks_asks_to_check_it(college_db):
    from course.pipeline.empty import nothing_found

    said = nothing_found(college_db, "MATCH (c:Club {name: 'Chess Club'})<-[:MEMBER_OF]-(s:Student) "
                                     "RETURN s.name", "en")
    assert "no Chess Club" in said and "Check the names" in said


def test_a_ranking_by_a_property_is_in_its_order(chat, college_db):
    """A fresh question: "rank the clubs by founding year" listed the clubs with their years in
    no order (2012, 2017, 2015), as if ranked. "rank X by Y" asks an order, as "sort" does."""
    result = chat.answer("rank the clubs by founding year")
    assert result.status == "answered", result.answer
    assert [row[0] for row in result.rows] == [row[0] for row in rows_of(
        college_db, "MATCH (c:Club) RETURN c.name ORDER BY c.founded")]


def test_an_order_by_another_property_is_not_the_date_order(chat, college_db):
    """A fresh question: "list clubs ordered by name" was answered in the order of founding (the
    one number a club has). An order "by" words that do not name that number is not it."""
    result = chat.answer("list clubs ordered by name")
    assert result.status != "answered" or [r[0] for r in result.rows] == sorted(r[0] for r in result.rows)


def test_the_most_sorted_puts_the_most_first(chat, college_db):
    """A fresh question: "which subjects have the most credits, sorted?" put the fewest first."""
    result = chat.answer("which subjects have the most credits, sorted?")
    top = rows_of(college_db, "MATCH (s:Subject) RETURN max(s.credits)")[0][0]
    assert result.status == "answered" and result.rows[0][-1] == top, result.answer


def test_how_many_of_that_counts_what_the_part_before_listed(learner, college_db):
    """unseen15 g023: "What topics are taught in DSA, and how many topics is that in total?" was
    answered "30 concepts", every concept in the graph. "how many X is that" after a part that
    listed asks how many that part listed."""
    last_part_is(college_db, learner.answer("What topics are taught in DSA, and how many topics is that in total?"),
                 "MATCH (:Subject {name: 'DSA'})-[:COVERS]->(c:Concept) RETURN count(c)")


def test_that_with_nothing_before_it_asks_what_is_meant(chat):
    """The same ask alone, with nothing before it, counted every concept too. A demonstrative
    that ends its clause points back: with nothing to point at, the learner is asked."""
    result = chat.answer("how many topics is that in total?")
    assert result.status != "answered" and '"that"' in result.answer, result.answer


@pytest.mark.parametrize("question", ["Which students don't belong to any club?", "list all subjects by credits, lowest first"])
def test_fresh_learner_questions_on_none_and_order(chat, college_db, question):
    """A learner's fresh questions: "Which students don't belong to any club?" (none: the query
    names nothing that could be misspelled, so "Check the names" was wrong to say) and "list all
    subjects by credits, lowest first" (it listed only the subject with the fewest)."""
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    if "club" in question:
        assert not result.rows and "there is none" in result.answer, result.answer
    else:
        assert [r[0] for r in result.rows] == [r[0] for r in rows_of(
            college_db, "MATCH (s:Subject) RETURN s.name ORDER BY s.credits, s.name")]


@pytest.mark.parametrize("question", ["Which student has been in a club the longest, and which club is it?",
                                      "Who has been in the Robotics Club the longest?"])
def test_the_longest_member_is_never_every_member(learner, college_db, question):
    """unseen53 bd038 (found after its scoring): "Which student has been in a club the longest"
    listed every student. Being somewhere "the longest" picks the earliest: a query that picks
    none is refused, never answered with everyone."""
    club = "{name: 'Robotics Club'}" if "Robotics" in question else ""
    longest = rows_of(college_db, f"MATCH (:Student)-[r:MEMBER_OF]->(:Club {club}) WITH min(r.since) AS first "
                                  f"MATCH (s:Student)-[r:MEMBER_OF]->(:Club {club}) WHERE r.since = first RETURN s.name")
    result = learner.answer(question)
    found = [s for s in result.sub_questions if s.found]
    assert not found or same_rows([row[:1] for row in found[0].rows], longest), result.answer


def test_what_a_thing_adds_is_no_request_to_change_the_data(learner):
    """unseen53 bd008 (found after its scoring): "What are the layers of TCP/IP and what does TCP
    add on top of IP?" was refused as a request to change the data. What a thing adds, asked, is
    how it works."""
    result = learner.answer("What are the layers of TCP/IP and what does TCP add on top of IP?")
    assert result.status == "answered", result.answer


@pytest.mark.parametrize("question", ["is a bst log n or n?",
                                      "is searching in a binary search tree log n or n?? i'm so confused"])
def test_a_yes_or_no_about_a_thing_is_never_a_list_of_people(learner, question):
    """unseen52 bc005 (found on the re-read after its scoring): "is searching in a binary search
    tree log n or n?" was answered "Karan, Rahul and Payal": "n" was read as chat shorthand for
    "and" and "log" as the Hindi word for people. An "n" that joins no two words is no "and", and
    a question that asks yes or no of a thing is not answered by who is linked to it."""
    result = learner.answer(question)
    people = [s for s in result.sub_questions if s.found and "student" in [c.lower() for c in s.columns]]
    assert not people, result.answer


def test_a_fragment_after_a_question_is_not_answered_from_a_note_sharing_its_words(learner):
    """unseen52 bc048: "when is the os midsem exam scheduled?? date and time" answered the
    fragment "date and time" from the note on indexes, whose text holds both words. A fragment
    that only spells out what the question before wanted asks nothing of its own."""
    result = learner.answer("when is the os midsem exam scheduled?? date and time")
    assert not any(s.found for s in result.sub_questions), result.answer


def test_a_definition_of_a_named_topic_is_answered_from_its_own_note(learner):
    """A fresh question: "what is 2NF in simple words?" was answered from the note on
    normalization, which the encoder ranks above 2NF's own note. A definition asked of a topic a
    note is about is answered from that note."""
    result = learner.answer("what is 2NF in simple words?")
    assert result.status == "answered" and result.sub_questions[0].rows[0][0] == "N03", result.answer


def test_a_scene_before_it_does_not_turn_a_direction_into_both(learner, college_db):
    """A fresh question: "I am confused about routing. What does it depend on?" named Firewalls,
    which comes after routing: the retry without "confused" queried PREREQUISITE_FOR both ways."""
    last_part_is(college_db, learner.answer("I am confused about routing. What does it depend on?"),
                 "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Routing'}) RETURN c.name")


@pytest.mark.parametrize("question", ["hiii which club is rahul in", "hello! which club is Rahul in?"])
def test_a_greeting_before_a_question_is_no_part_of_it(chat, college_db, question):
    """unseen52: a greeting ("hiii") before the question was an unknown word, and the question
    was refused."""
    assert_answered_with(chat.answer(question), college_db,
                         "MATCH (:Student {name: 'Rahul'})-[:MEMBER_OF]->(c:Club) RETURN c.name")


@pytest.mark.parametrize("question", ["which data structure supports search and insert in log n time?",
                                      "why are inserts slower on a table with an index?"])
def test_a_question_about_an_operation_is_no_request_to_do_it(learner, question):
    """unseen53 bd009: "search and insert" was read as a request to change the data. An operation
    a question asks about is no command: only a request ("insert ...", "please add ...") is."""
    result = learner.answer(question)
    assert result.status != "blocked", result.answer


def test_it_after_a_note_answer_is_its_topic_not_a_name_in_notes_not_shown(learner, college_db):
    """A fresh question: after "what is 2NF in simple words?", "what should I learn before it?"
    asked what comes before DBMS: the other notes the search found (not shown) name databases,
    and memory took that for the latest thing talked about. What the answer showed is."""
    learner.answer("what is 2NF in simple words?")
    assert_answered_with(learner.answer("what should I learn before it?"), college_db,
                         "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: '2NF'}) RETURN c.name")


@pytest.mark.parametrize("question, note", [("explain 3NF quickly pls", "N04"),
                                            ("what even is a deadlock tbh", "N18"),
                                            ("can u explain dfs real quick", "N14"),
                                            ("explain tcp ip layers in simple terms", "N21")])
def test_a_definition_said_with_manners_is_answered_from_its_topics_note(learner, question, note):
    """unseen52 bc021 and bc025 (development sets): "explain 3NF quickly pls" was answered from
    the note on normalization, and "what even is a deadlock tbh" refused, "even" read as the
    kind of thing asked. A request to explain, a stressing adverb and words of manner or
    manners ("quickly", "pls", "in simple terms") leave the thing defined as it was."""
    result = learner.answer(question)
    assert result.status == "answered" and result.sub_questions[-1].rows[0][0] == note, result.answer


@pytest.mark.parametrize("question, reference", [
    ("what topics does os actually cover bc the syllabus pdf wont open",
     "MATCH (:Subject {name: 'Operating Systems'})-[:COVERS]->(c:Concept) RETURN c.name"),
    ("what skills does payal have, trying to figure out who to team up with",
     "MATCH (:Student {name: 'Payal'})-[:HAS_SKILL]->(k:Skill) RETURN k.name")])
def test_why_the_learner_asks_is_no_part_of_the_ask(learner, college_db, question, reference):
    """Development sets ay019 and ay024: a reason ("bc the syllabus pdf wont open") or what the
    learner means to do ("trying to figure out who to team up with") after the question made
    it unanswerable: an aside, not an ask."""
    last_part_is(college_db, learner.answer(question), reference)


@pytest.mark.parametrize("question", ["which narrower topics does Graphs include?",
                                      "Which narrower concepts are included under Graphs?",
                                      "Which subtopics are included under Graphs?",
                                      "tell me which concepts Graphs is a prerequisite for"])
def test_words_for_one_step_of_a_link_name_one_step(chat, college_db, question):
    """Development sets bd024, ap021 and bd027: "narrower topics" (a concept's subtopics) was an
    unknown word; "subtopics ... included under" named INCLUDES three times and was read as two
    steps, so the answer was "none"; "tell me which concepts ..." read "concepts" as the
    subject's topics. Words side by side for one link name one step; "tell me" asks what its
    question word asks."""
    link = "PREREQUISITE_FOR" if "prerequisite" in question else "INCLUDES"
    assert_answered_with(chat.answer(question), college_db,
                         f"MATCH (:Concept {{name: 'Graphs'}})-[:{link}]->(c:Concept) RETURN c.name")


# --- a new learner's fresh questions (this stop's probe) ------------------------------------

def test_the_role_asked_about_before_is_the_one_found(learner, college_db):
    """Development set ay021 and a new learner: "who is the president of robotics club ..., also
    what year is the president in" asked "what year is the president in in Robotics Club" and was
    refused; "who's the presdent" (a typo) after a part about the Robotics Club listed every
    club's president, and "what year is he in?" then answered for Sneha."""
    result = learner.answer("who is the president of robotics club, and what year is the president in?")
    last_part_is(college_db, result, "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Robotics Club'}) "
                                     "WHERE r.role = 'President' RETURN s.name, s.year")
    result = learner.answer("how many ppl are in robotics club and who's the presdent")
    last_part_is(college_db, result, "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Robotics Club'}) "
                                     "WHERE r.role = 'President' RETURN s.name")


def test_a_bare_hinglish_noun_before_its_case_ending_is_the_one_named(learner, college_db):
    """A new learner: "Aarav kis project pe hai, uska role kya hai aur project ko kaunsi skills
    chahiye?" refused its last part. Hinglish has no "the": "project ko" is the project found;
    "does he have all of them?" then answered "Yes" about his project, not its skills."""
    result = learner.answer("Aarav kis project pe hai, uska role kya hai aur project ko kaunsi skills chahiye?")
    last_part_is(college_db, result, "MATCH (:Student {name: 'Aarav'})-[:WORKS_ON]->(:Project)"
                                     "-[:REQUIRES]->(k:Skill) RETURN k.name")


def test_all_of_them_is_never_one_thing(learner):
    """A new learner: "does he have all of them?", after a turn whose first part named one project
    and whose last found its skills, was answered "Yes": he works on the project. "All of them"
    is several; it is never the one project (Aarav lacks Python: "Yes" is false either way)."""
    learner.answer("Aarav kis project pe hai, uska role kya hai aur project ko kaunsi skills chahiye?")
    result = learner.answer("does he have all of them?")
    assert not (result.status == "answered" and result.rows == [[True]]), result.answer


def test_names_after_a_count_are_the_names_counted(learner, college_db):
    """A new learner: "how many CSE students r there? names pls" refused "names pls"."""
    last_part_is(college_db, learner.answer("how many CSE students r there? names pls"),
                 "MATCH (s:Student {branch: 'CSE'}) RETURN s.name")


def test_a_question_word_after_its_preposition_asks(learner, college_db):
    """A new learner: "Sneha is in which year, what grade did she get in CN, and who is the
    president of her club?" was refused whole: "in which year" asks, where it stands."""
    result = learner.answer("Sneha is in which year, what grade did she get in CN, and who is the president "
                            "of her club?")
    assert len(result.sub_questions) == 3 and every_part_found(result), result.answer
    assert same_rows(parts_rows(result)[1], rows_of(
        college_db, "MATCH (:Student {name: 'Sneha'})-[r:STUDIES]->(:Subject {name: 'Computer Networks'}) "
                    "RETURN r.grade"))


@pytest.mark.parametrize("question", ["wich club was foundd first, coding or robotics?",
                                      "which club was founded first, coding or robotics?"])
def test_a_choice_between_names_said_in_part_picks_among_them(chat, college_db, question):
    """A new learner: "which club was founded first, coding or robotics?" was refused: the names
    were linked with the kind's noun ("club coding"), which the question never writes."""
    result = chat.answer(question)
    assert result.status == "answered" and [r[0] for r in result.rows] == ["Coding Club"], result.answer


@pytest.mark.parametrize("question, group, counted", [
    ("rank the clubs by how many members they have", "Club", "(g)<-[:MEMBER_OF]-(k:Student)"),
    ("sort the subjects by number of students", "Subject", "(g)<-[:STUDIES]-(k:Student)")])
def test_a_ranking_by_how_many_is_a_count_per_group_most_first(chat, college_db, question, group, counted):
    """A new learner: "rank the clubs by how many members they have" was refused ("they" are the
    clubs ranked, not someone before)."""
    result = chat.answer(question)
    reference = (f"MATCH (g:{group}) OPTIONAL MATCH {counted} "
                 "RETURN g.name, count(DISTINCT k) AS n ORDER BY n DESC, g.name")
    assert result.status == "answered" and result.rows == rows_of(college_db, reference), result.answer


def test_a_choice_among_them_with_one_found_is_no_answer(learner):
    """A second new learner: "compare Aarav and Sneha - year, branch, and subjects with grades"
    was refused, and then "who among them did better in Operating Systems?" answered "Aarav"
    (Sneha has the A): "them" was Aarav alone, and a choice among one is no choice."""
    learner.answer("compare Aarav and Sneha - year, branch, and subjects with grades")
    result = learner.answer("who among them did better in Operating Systems?")
    assert not (result.status == "answered" and [r[0] for r in result.rows] == ["Aarav"]), result.answer


def test_does_he_have_all_is_not_answered_with_a_list(learner):
    """A second new learner: "does he have all the skills his project needs?" (of Karan) was
    answered with the skills the project needs, as if asked which they are."""
    learner.answer("Tell me about Karan")
    result = learner.answer("does he have all the skills his project needs?")
    assert not any(s.found and s.rows and isinstance(s.rows[0][0], str) for s in result.sub_questions), \
        result.answer


def test_two_words_of_a_name_in_a_row_name_it_even_with_a_typo(chat, college_db):
    """A new learner: "who is the team lead of library managment" was outside the graph."""
    assert_answered_with(chat.answer("who is the team lead of library managment"), college_db,
                         "MATCH (s:Student)-[r:WORKS_ON]->(:Project {name: 'Library Management System'}) "
                         "WHERE r.role = 'Team Lead' RETURN s.name")


def test_two_kinds_no_note_speaks_of_ask_the_graph_not_a_note(learner):
    """A new learner's terse "IT students n their clubs" was answered with the note on graphs
    (it mentions students who are friends). Students and clubs, named with no question around
    them, ask the graph: never a note."""
    result = learner.answer("IT students n their clubs")
    assert not any(s.found and s.tool == "search_notes" for s in result.sub_questions), result.answer


# --- found on unseen54 after its one scoring (forced: confidently wrong) ---------------------

def test_a_fragment_after_a_question_asks_more_of_it(learner, college_db):
    """unseen54 be030: "Did anyone get an A+? In which subject?" answered "In which subject?"
    with every subject. A fragment ("in which subject?") asks more of the ask before it."""
    result = learner.answer("Did anyone get an A+? In which subject?")
    assert_answered_with(result, college_db, "MATCH (s:Student)-[r:STUDIES]->(j:Subject) "
                                             "WHERE r.grade = 'A+' RETURN s.name, j.name")


def test_a_value_named_with_its_property_asks_the_graph_not_a_note(learner):
    """unseen54 be035: "Which of us are from the IT branch?" was answered with the note on DFS
    (it says "branch"). A property's word and one of its values ask for who holds it."""
    result = learner.answer("Which of us are from the IT branch?")
    assert not any(s.found and s.tool == "search_notes" for s in result.sub_questions), result.answer


# --- unseen55, a development set after its scoring -------------------------------------------

@pytest.mark.parametrize("question, parts", [
    ("payal ke grades in each subject and also her skills", 2),
    ("arrays basics explain and what topics come after arrays", 2),
    ("dfs explain and dfs is needed before which topic", 2)])
def test_an_ask_in_hindi_word_order_is_an_ask(question, parts):
    """unseen55 bf018, bf021, bf024 (development set): "payal ke grades ... and also her skills",
    "arrays basics explain and ...", "... and dfs is needed before which topic" were one ask each,
    and refused whole: someone's things named the Hindi way, a request verb last, and a question
    word after its preposition each open an ask."""
    assert len(RuleUpdater().split(question)) == parts


def test_needed_before_which_reads_the_way_out(chat, college_db):
    """unseen55 bf024: "dfs is needed before which topic" asked what comes before DFS ("none")."""
    assert_answered_with(chat.answer("dfs is needed before which topic"), college_db,
                         "MATCH (:Concept {name: 'DFS'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name")


# --- found on unseen56 and unseen57 after their one scoring (forced: confidently wrong) -------

def test_a_relative_clause_after_in_which_is_no_ask_of_its_own():
    """unseen56 bg033: "Which subjects build on DSA, in the order in which a student should take
    them?" was cut in two at "in which", and its second half answered alone. A question word
    after its preposition asks only with a noun after it, not a clause's subject."""
    assert len(RuleUpdater().split("Which subjects build on DSA, in the order in which a student "
                                   "should take them?")) == 1


@pytest.mark.parametrize("question", ["Computer Networks kaun padhata hai is sem?", "DSA kaun padhaata hai?"])
def test_who_teaches_in_hinglish_is_not_who_studies(chat, question):
    """unseen57 bh049: "Computer Networks kaun padhata hai?" (who teaches it) was answered with
    the students who study it. "padhaana" is to teach, "padhna" to study; the graph holds no
    teachers."""
    result = chat.answer(question)
    assert result.status != "answered", result.answer


# --- unseen56's bg035, decided: "who got the best grade" is who has it, not everyone in order --

@pytest.mark.parametrize("question, subject, pick", [
    ("Who earned the best grade in Operating Systems?", "Operating Systems", "min"),
    ("Who got the highest grade in DSA?", "DSA", "min"),                    # a tie: both
    ("who got the lowest grade in computer networks", "Computer Networks", "max"),
    ("DBMS mein sabse best grade kisne liya?", "DBMS", "min"),
])
def test_who_got_the_best_grade_is_who_has_it_with_ties(learner, college_db, question, subject, pick):
    from test_first_contact import top_grades

    assert_answered_with(learner.answer(question), college_db, top_grades(subject, pick))


# --- unseen58 (a student revising the night before, long messages), a development set ---------

@pytest.mark.parametrize("question, reference", [
    ("what's the status of the attendance tracker? my team lead wants to know before the review",
     "MATCH (p:Project {name: 'Attendance Tracker'}) RETURN p.status"),
    ("when was the coding club founded? I want to say it right in my speech tomorrow",
     "MATCH (c:Club {name: 'Coding Club'}) RETURN c.founded"),
    ("Which club is Karan in, and what is his year? I don't really know him yet lol",
     "MATCH (s:Student {name: 'Karan'}) RETURN s.year"),
])
def test_a_statement_after_the_last_ask_is_no_part_of_it(learner, college_db, question, reference):
    """Why the learner asks, said after the question ("I need to know if it'll kill my CGPA"),
    asks nothing: answered whole, its words made the last ask a question no query reads."""
    result = learner.answer(question)
    last_part_is(college_db, result, reference)


def test_a_scene_before_an_ask_that_names_its_subject_by_a_short_name(learner, college_db):
    """The scene names Operating Systems, the ask "OS": the ask alone names it too (the
    schema's aliases link it), so the scene is no part of what is asked."""
    result = learner.answer("I'm trying to form a study circle for Operating Systems this week. "
                            "How many students take OS?")
    assert_answered_with(result, college_db, "MATCH (s:Student)-[:STUDIES]->(:Subject {name: "
                         "'Operating Systems'}) RETURN count(s)")


# --- unseen59 (a faculty advisor, short precise asks), a development set ------------------------

@pytest.mark.parametrize("question, thing", [
    ("explain 2NF in one line.", ["2nf"]),            # a full stop ends a request as a "?" does
    ("2NF in plain words", ["2nf"]),                  # the topic and how to say it: a definition
    ("dfs in short pls", ["dfs"]),
    ("DBMS in one semester?", []),                    # no way of saying it: no definition
])
def test_a_topic_said_with_how_to_say_it_is_a_definition(question, thing):
    from course.foundation.definitions import defined

    assert defined(question) == thing


def test_a_definition_part_in_a_few_words_is_answered_from_its_topics_note(learner, college_db):
    result = learner.answer("Sneha's grade in DSA? And explain 3NF in one line.")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert every_part_found(result) and notes == ["N04"], result.answer


def test_a_topic_in_plain_words_and_a_question_are_two_asks(learner, college_db):
    result = learner.answer("2NF in plain words, and which topics need 2NF first?")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes == ["N03"], result.answer
    last_part_is(college_db, result, "MATCH (:Concept {name: '2NF'})-[:PREREQUISITE_FOR]->(c:Concept) "
                 "RETURN c.name")


@pytest.mark.parametrize("question, note", [
    ("Explain memoization briefly, I need to tell a student.", "N15"),
    ("what is a TLB, I have to explain it to my lab partner", "N19"),
])
def test_whom_the_learner_will_tell_is_no_part_of_the_ask(learner, question, note):
    """"I need to tell a student" says what the speaker will do: it asks nothing, and its
    "student" is no reason to ask the graph."""
    result = learner.answer(question)
    assert result.status == "answered" and result.rows[0][0] == note, result.answer


@pytest.mark.parametrize("question, reference", [
    ("Which students are in their third year? I would like to invite them to our study group.",
     "MATCH (s:Student) WHERE s.year = 3 RETURN s.name"),
    ("Which projects are still in their planning stage? I'm thinking of joining one after exams.",
     "MATCH (p:Project) WHERE p.status = 'Planned' RETURN p.name"),
])
def test_a_statement_after_the_ask_is_not_what_its_words_point_at(learner, college_db, question, reference):
    """"their" in the ask is the students' own year: a sentence said after the ask is no scene
    the ask points back at, and the ask alone is asked when its words leave the whole unread."""
    assert_answered_with(learner.answer(question), college_db, reference)


@pytest.mark.parametrize("question, note", [
    ("What is an index really doing under the hood?", "N06"),
    ("how does a BST work under the hood?", "N11"),
])
def test_under_a_plain_noun_that_ends_the_ask_is_no_topic_above(learner, question, note):
    """"under the hood" is no "topic under X": read as one, the part asked for the topics
    above Indexing and claimed there were none."""
    result = learner.answer(question)
    assert result.status == "answered" and result.rows[0][0] == note, result.answer


@pytest.mark.parametrize("question", ["which projects haven't even started yet?",
                                      "Which project hasn't really begun?"])
def test_an_adverb_between_not_and_its_verb_keeps_the_not(chat, college_db, question):
    """"haven't even started": read without its "not" (the adverb between them), the query
    listed the projects that HAVE started; the "even" kept it from an answer by luck."""
    assert_answered_with(chat.answer(question), college_db,
                         "MATCH (p:Project) WHERE NOT p.status IN ['Completed', 'In Progress'] RETURN p.name")


@pytest.mark.parametrize("question", [
    "For the club fair poster (yes, I know, don't laugh), can you list the projects that are completed?",
    "For my club fair poster (yes, I know, don't laugh), can you list the projects that are completed?",
])
def test_an_aside_in_parentheses_is_no_part_of_the_ask(learner, college_db, question):
    """"(yes, I know, don't laugh)": an aside's "don't" is no negation of the ask, its words no
    words a query must read; "my" in the scene is no "my" of the ask, and "the projects that
    are" points at nothing said before."""
    result = learner.answer(question)
    assert_answered_with(result, college_db, "MATCH (p:Project {status: 'Completed'}) RETURN p.name")


@pytest.mark.parametrize("question, reference", [
    ("For Operating Systems tomorrow I need a checklist: which topics does the subject cover?",
     "MATCH (:Subject {name: 'Operating Systems'})-[:COVERS]->(c:Concept) RETURN c.name"),
    ("For DBMS next week I want a checklist: how many credits is the subject worth?",
     "MATCH (s:Subject {name: 'DBMS'}) RETURN s.credits"),
])
def test_an_ask_that_names_the_scenes_thing_by_its_kind_asks_about_it(learner, college_db, question, reference):
    """"the subject" after a scene that names Computer Networks is Computer Networks: a graph
    question about it, not a note's."""
    result = learner.answer(question)
    assert result.status == "answered", result.answer
    assert same_rows(result.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question", [
    "I have a viva tomorrow and I'm scared they'll ask me why adding an index on a column makes SELECTs "
    "faster but apparently makes inserts slower. What is an index really doing under the hood and what's "
    "the tradeoff? Please keep it short, I still have three subjects to revise",
    "My lab partner keeps asking me about it. What is an index really doing under the hood?",
])
def test_a_simpler_ask_that_finds_nothing_claims_nothing(learner, question):
    """Asked again without its scene and its unknown words ("hood"), the part read "under the" as
    the topics above Indexing, found none, and said so: a simpler ask's rows may answer, its
    empty result is no claim about what was asked."""
    result = learner.answer(question)
    assert "nothing in it matches" not in result.answer and "there is none" not in result.answer, result.answer


@pytest.mark.parametrize("question, first, second", [
    ("Credits for DBMS, and which subject comes after it?",
     "MATCH (s:Subject {name: 'DBMS'}) RETURN s.credits",
     "MATCH (:Subject {name: 'DBMS'})-[:PREREQUISITE_FOR]->(s:Subject) RETURN s.name"),
    ("status of the attendance tracker, and who works on it?",
     "MATCH (p:Project {name: 'Attendance Tracker'}) RETURN p.status",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Attendance Tracker'}) RETURN s.name"),
])
def test_a_property_of_something_named_without_a_verb_is_an_ask(learner, college_db, question, first, second):
    """"Credits for Operating Systems, and which subject should be done before it?" was one part:
    the credits read as the topic "it" points at, and only the credits were answered."""
    result = learner.answer(question)
    rows = parts_rows(result)
    assert len(rows) == 2 and every_part_found(result), result.answer
    assert same_rows(rows[0], rows_of(college_db, first)) and same_rows(rows[1], rows_of(college_db, second))


# --- a new learner's probe (this stop) --------------------------------------------------------

def test_which_one_after_a_list_is_among_the_others_than_the_one_it_asks_of(learner, college_db):
    """"which concepts does DBMS cover, and which one should i learn before 2NF": "which one"
    was every concept listed, 2NF too, and the choice swallowed the 2NF the part asks of: all
    eight were the answer, 2NF among them."""
    result = learner.answer("what topics does DBMS cover, and which one comes right before 3NF?")
    last_part_is(college_db, result, "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: '3NF'}) "
                 "RETURN c.name")


def test_a_name_in_a_choice_said_again_is_what_the_choice_is_about(chat, college_db):
    result = chat.answer("which of 1NF, 2NF and 3NF comes before 2NF?")
    assert_answered_with(result, college_db, "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: '2NF'}) "
                         "RETURN c.name")


def test_it_after_a_note_is_the_notes_topic_not_a_name_said_in_passing(learner):
    """"... the OS is swapping pages nonstop. what is that called and why does it happen?": "it"
    was Operating Systems, said in passing, and "why does Operating Systems happen?" found the
    note on deadlocks. The first part's answer was the note on virtual memory: "it" is that."""
    result = learner.answer("my pc crawls when I open too many apps and my senior said the OS keeps swapping "
                            "pages in and out. what is that called, and why does it happen?")
    notes = [s.rows[0][0] for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]
    assert notes and set(notes) == {"N20"}, result.answer


@pytest.mark.parametrize("conversation, note", [
    (["which traversal gives the fewest hops when edges have no weights?", "and whats its running time?"],
     "N13"),
    (["explain DFS pls", "what is it used for?"], "N14"),
    (["explain deadlocks pls, exam tmrw", "how do we avoid them?"], "N18"),
])
def test_its_after_a_note_answer_is_the_notes_topic(learner, conversation, note):
    """After the note on BFS, "its time complexity" was asked as written: no query reads it, and
    the note search, given "its", found nothing. The topic the answer showed is what "it" is."""
    for question in conversation:
        result = learner.answer(question)
    assert result.status == "answered" and result.rows[0][0] == note, result.answer


@pytest.mark.parametrize("question, note", [     # unseen58 bi018 and bi004, refused when scored
    ("Last year's paper had 'explain with an example the bank transfer problem and ACID' and I "
     "totally blanked on it. Can you explain the idea of grouping operations so they all "
     "happen or none happen, plus what commit and rollback do? I want to get it right this "
     "time, it's my final year", "N08"),
    ("I'm revising database design tonight and honestly I've been memorising the normal forms "
     "without understanding why we bother. Why do we chop one big table full of duplicated "
     "info into a bunch of smaller ones at all, what actually goes wrong if we just leave it "
     "as one? I need the big picture before I go into the individual forms", "N01"),
])
def test_a_long_messages_ask_alone_may_clear_the_bar_for_the_same_note(learner, question, note):
    """A long message's words dilute its likeness to any note: its best note was the right one
    but below the bar, and it was refused. Its asking sentence alone clears the bar for the same
    note: two readings agree."""
    result = learner.answer(question)
    assert result.status == "answered" and result.rows[0][0] == note, result.answer


def test_a_hinglish_definition_in_simple_words_is_its_topics_note(learner):
    result = learner.answer("2NF simple words mein samjhao")
    assert result.status == "answered" and result.rows[0][0] == "N03", result.answer


@pytest.mark.parametrize("question, club", [
    ("Robotics Club: who's president, when was it founded, and how many members?", "Robotics Club"),
    ("When was the Coding Club founded, and how many members?", "Coding Club"),
])
def test_members_said_after_a_club_are_that_clubs(learner, college_db, question, club):
    """unseen59 bj025: "... and how many members?" counted every student: the members of the club
    the parts before asked about are what the last part counts."""
    result = learner.answer(question)
    last_part_is(college_db, result,
                 f"MATCH (s:Student)-[:MEMBER_OF]->(:Club {{name: '{club}'}}) RETURN count(s)")


# --- found on unseen60 and unseen61 after their one scoring (forced: confidently wrong) -------

PRESIDENTS = "MATCH (s:Student)-[m:MEMBER_OF]->(:Club) WHERE m.role = 'President' RETURN s.name"


@pytest.mark.parametrize("question", ["list all the club presidents", "who are the club presidents?",
                                      "show me the society presidents"])
def test_a_kinds_noun_before_a_role_asks_for_the_people(learner, college_db, question):
    """unseen61 bl036: "list all the club presidents" listed the clubs that have a president:
    "club" says whose president, the presidents are asked for."""
    result = learner.answer(question)
    presidents = rows_of(college_db, PRESIDENTS)
    assert result.status in ("out_of_scope", "blocked") or same_rows(result.rows, presidents), result.answer
    assert not any("Club" in str(v) or "Society" in str(v) for row in result.rows for v in row), result.answer


@pytest.mark.parametrize("question", ["ek hafta ghar pe tha fever ki wajah se. Coding Club mein kaun kaun hai?",
                                      "pura hafta bimaar tha yaar, Coding Club mein kaun kaun hai?"])
def test_a_word_a_letter_longer_than_a_verb_of_change_is_not_one(learner, college_db, question):
    """unseen60 bk044: "hafta" (a week) was corrected to "hata" (remove), and the question was
    refused as a change to the data: a word with a letter more is not guessed a change."""
    assert_answered_with(learner.answer(question), college_db,
                         "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Coding Club'}) RETURN s.name")


# --- found on unseen58 to unseen63 -------------------------------------------------------------

@pytest.mark.parametrize("question, note", [
    ("What exactly makes BCNF stricter than 3NF?", "N05"),
    ("quick one - 2NF actually kya require karta hai? need to explain it in the coding club session", "N03"),
    ("What does 2NF require?", "N03"),
    ("1nf ka rule kya hai exactly, can one cell have multiple values or not", "N02"),
    ("why do we need 1NF, 2NF, 3NF and BCNF at all?", "N01"),   # most of the list: the family
])
def test_a_topics_own_note_leads_the_overview_that_lists_it(learner, question, note):
    """unseen59 bj002, unseen61 bl002: the note on normalization, which lists the normal forms in
    its last sentence, answered a question on one of them: the topic's own note is its answer."""
    result = learner.answer(question)
    assert result.status == "answered" and result.rows[0][0] == note, result.answer


@pytest.mark.parametrize("question", ["Which professor teaches the Computer Networks course?",
                                      "which teacher takes DBMS?"])
def test_a_kind_no_one_holds_is_no_note_question(learner, question):
    """unseen63 bn048: "Which professor teaches the Computer Networks course?" was answered with
    the note on graphs, which names computer networks: no note says who teaches anything."""
    result = learner.answer(question)
    assert result.status == "out_of_scope" and not any(str(r[0]).startswith("N") for r in result.rows), result.answer


def test_a_value_restated_after_a_not_is_asked_for(learner, college_db):
    """unseen63 bn032: "not yet started, that is, still in the planning stage": the planning
    stage, said in other words than the value's, was turned with the "not", and nothing was
    found."""
    assert_answered_with(
        learner.answer("Which projects have not yet been started, that is, are still in the planning stage?"),
        college_db, "MATCH (p:Project) WHERE p.status = 'Planned' RETURN p.name")


def test_also_before_a_verb_is_no_second_ask(learner, college_db):
    """unseen63 bn028: "which other students also have this skill?" was split into "which other
    students?" (every student) and "have this skill?"."""
    result = learner.answer("At which level does Aarav master SQL, and which other students also have this skill?")
    knows = {r[0] for r in rows_of(college_db, "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'SQL'}) "
                                               "RETURN s.name")}
    knows |= {r[0] for r in rows_of(college_db, "MATCH ()-[h:HAS_SKILL]->() RETURN DISTINCT h.level")}
    found = {v for p in result.sub_questions if p.status == "answered" for r in p.rows for v in r}
    assert found <= knows, result.answer


def test_a_change_a_thing_makes_is_no_request(learner):
    """unseen63 bn001: "... which anomalies it is supposed to remove?" was refused as a change to
    the data: what normalization removes is asked, not a removal."""
    result = learner.answer("Could you please explain the purpose of normalisation in relational "
                            "databases, and which anomalies it is supposed to remove?")
    assert result.status == "answered" and result.rows[0][0] == "N01", result.answer


@pytest.mark.parametrize("question, note", [("tell me about BCNF", "N05"), ("explain paging", "N19")])
def test_a_concepts_explanation_names_its_note(chat, question, note):
    """unseen60 bk009 and bk015, unseen62 bm003: "explain X" was answered from the graph with the
    concept and its note's text, and no word of which note the text came from."""
    result = chat.answer(question)
    assert result.status == "answered" and note in result.rows[0] and f"note {note}" in result.answer, result.answer


@pytest.mark.parametrize("question, asked", [
    ("I am kinda lost in DBMS tbh. can you explain third normal form in simple words?",
     "can you explain third normal form?"),
])
def test_how_to_say_it_is_taken_out_whole(learner, question, asked):
    """unseen62 bm003, bh008: the words a part was asked again without left "... third normal form
    in?" and "DP ek mein kya hai?": "in simple words" and "ek line mein" go whole. (bh008's
    part is now answered on the first try, its short form written out for the encoder:
    `without_how_said`'s doctest keeps "ek line mein".)"""
    result = learner.answer(question)
    assert asked in [s.rewritten for s in result.sub_questions], [s.rewritten for s in result.sub_questions]


@pytest.mark.parametrize("question, reference", [
    ("Which students belong to the IT branch?", "MATCH (s:Student {branch: 'IT'}) RETURN s.name"),
    ("How many students are enrolled in the IT branch?", "MATCH (s:Student {branch: 'IT'}) RETURN count(s)"),
])
def test_a_link_word_before_a_value_of_ones_own_is_that_value(chat, college_db, question, reference):
    """unseen63 bn029, unseen56 bg030: "belong to the IT branch", "enrolled in the IT branch": the
    branch is the student's own property; no club or subject is meant."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Which of the student clubs was founded earliest?",
     "MATCH (c:Club) WITH min(c.founded) AS first MATCH (c:Club {founded: first}) RETURN c.name"),
    ("Which of the student projects are currently in progress?",
     "MATCH (p:Project {status: 'In Progress'}) RETURN p.name"),
])
def test_a_kinds_noun_before_another_kinds_describes_it(chat, college_db, question, reference):
    """unseen63 bn030, unseen56 bg031: "the student clubs" are the clubs."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_the_year_before_a_calendar_year_is_that_date(chat, college_db):
    """unseen63 bn038: "before the year 2024" was read as the year of study and "= 2024"."""
    assert_answered_with(chat.answer("Which students joined their club before the year 2024?"), college_db,
                         "MATCH (s:Student)-[m:MEMBER_OF]->(:Club) WHERE m.since < 2024 RETURN DISTINCT s.name")


def test_a_verb_after_a_key_is_no_plural_link_noun(learner):
    """unseen63 bn002: "... if the primary key consists of several columns?" read "consists of" as
    "the parts of" (a link's plural noun): a graph question, and the note on 2NF was never asked."""
    result = learner.answer("When exactly is a table considered to be in the second normal form, and why is "
                            "this only relevant if the primary key consists of several columns?")
    assert result.status == "answered" and result.rows[0][0] == "N03", result.answer


def test_an_ask_after_a_scene_that_names_nothing_is_asked_alone(learner, college_db):
    """unseen62 bm017: "Hi, I'm new and don't know anyone yet. Which clubs are there?" was refused:
    the scene names nothing, so the ask alone is the question."""
    result = learner.answer("Hi, I'm new and don't know anyone yet. Which clubs are there, and who runs the "
                            "Robotics Club as president?")
    assert any(same_rows(s.rows, rows_of(college_db, "MATCH (c:Club) RETURN c.name")) for s in result.sub_questions), \
        result.answer


def test_in_which_after_tell_me_is_a_question_not_a_relative_clause(learner, college_db):
    """unseen63 bn023: "tell me in which subject it is taught" was read as "the subject which DFS
    ..." (a chain step the query did not follow) and refused."""
    result = learner.answer("Could you explain to me how depth-first search proceeds, and tell me in which "
                            "subject it is taught at this institute?")
    assert any(same_rows(s.rows, rows_of(college_db, "MATCH (s:Subject)-[:COVERS]->(:Concept {name: 'DFS'}) "
                                                     "RETURN s.name")) for s in result.sub_questions), result.answer


def test_since_when_a_thing_has_existed_is_when_it_was_founded(learner, college_db):
    """unseen62 bm020: "since when has that club existed?" after the club's members was asked of
    each member's joining ("existed" taken out as filler, the members put in)."""
    result = learner.answer("Who's in the Coding Club, and since when has that club existed?")
    last_part_is(college_db, result, "MATCH (c:Club {name: 'Coding Club'}) RETURN c.founded")


@pytest.mark.parametrize("question, note", [
    ("ACID wala concept kya hai, bank transfer example ke saath?", "N08"),
    ("deadlock ki 4 conditions kaunsi hai yaar, viva mein pucha tha", "N18"),
    ("Can a single column in a table hold a list of values, like three email addresses separated by "
     "commas? Someone told me that breaks the very first normal form rule, what does that rule actually say?", "N02"),
])
def test_a_note_whose_topic_the_question_names_needs_less_likeness(learner, question, note):
    """unseen62 bm002, unseen57 bh004, bh010: the question names the note's topic (by an alias: ACID,
    deadlock, first normal form), but its scene or its Hinglish kept it under the bar."""
    result = learner.answer(question)
    assert result.status == "answered" and result.rows[0][0] == note, result.answer


@pytest.mark.parametrize("question, note", [
    ("What should I study next once I have understood Threads?", "N17"),
    ("what should i learn first before virtual memory, like what's the prereq topic", "N20"),
])
def test_a_topic_named_in_a_graph_question_is_no_note_answer(learner, question, note):
    """Guards for the lower bar of a named topic: the next topic, the prerequisite topic, are the
    graph's to answer; the named topic's own note is no answer."""
    result = learner.answer(question)
    assert not (result.rows and result.rows[0][0] == note), result.answer


@pytest.mark.parametrize("question, reference", [
    ("list the subtopics that come under graphs?",
     "MATCH (:Concept {name: 'Graphs'})-[:INCLUDES]->(c:Concept) RETURN c.name"),
    ("what all subtopics come under trees",
     "MATCH (:Concept {name: 'Trees'})-[:INCLUDES]->(c:Concept) RETURN c.name"),
    ("tell me which topics build on arrays next?",
     "MATCH (:Concept {name: 'Arrays'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
])
def test_a_kinds_link_noun_and_its_verb_name_one_step(chat, college_db, question, reference):
    """unseen60 bk025, unseen55 bf022, unseen60 bk023: "the subtopics that come under graphs" and
    "topics build on arrays next" name one step twice; two were walked (BST, a subtopic of a
    subtopic; or nothing, said as "none")."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, wrong_note", [
    ("What does first normal form require of a table, and which normal form comes directly after it in the "
     "course?", "N02"),
    ("What is a thread? Also, which topics come after threads, i.e. need it as a prerequisite?", "N17"),
])
def test_what_comes_after_a_topic_is_no_note_answer(learner, question, wrong_note):
    """unseen56 bg028, unseen60 bk019: the second part (what comes after the topic) was answered
    with the topic's own note: "i.e." ended a sentence, and "which normal form comes directly after"
    was too long a reach for the rule of what comes next."""
    result = learner.answer(question)
    second = result.sub_questions[-1]
    assert not (second.tool == "search_notes" and second.rows and second.rows[0][0] == wrong_note), result.answer


# --- found by a new learner's probe (45 questions, this stop) ----------------------------------

def test_how_many_in_a_short_value_is_no_note_on_its(learner):
    """"How many students are in CSE and how many in IT?": "how many in IT?" was answered with the
    note on arrays, which says "its index": "it" and "many" are no terms a note must hold."""
    result = learner.answer("How many students are in CSE and how many in IT?")
    assert not any(s.tool == "search_notes" and s.rows for s in result.sub_questions), result.answer


def test_those_people_after_one_found_are_the_several_found_before(chat, college_db):
    """"which students take DSA?", "who got the best grade?" (one), "which clubs are those ppl
    in?": those people are the DSA students, not the one best."""
    for question in ("which students take DSA?", "who got the best grade?"):
        chat.answer(question)
    result = chat.answer("which clubs are those ppl in?")
    reference = ("MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) MATCH (s)-[:MEMBER_OF]->(c:Club) "
                 "RETURN DISTINCT s.name, c.name")
    assert_answered_with(result, college_db, reference)


def test_those_people_with_only_one_found_are_not_guessed(chat):
    chat.answer("who is the president of the Robotics Club?")
    assert chat.answer("which clubs are those students in?").status == "out_of_scope"


@pytest.mark.parametrize("question", [
    "Who all are in the Coding Club? And can you explain 2NF simply so I can share it with them?",
    "Who all are in the Coding Club? And can you explain 2NF simply in order to share it with them?",
])
def test_a_purpose_clause_after_the_ask_is_no_part_of_it(learner, question):
    """unseen54 be017: "so I can share it with them" was kept, "it" and "them" read as the club and
    its members, and the note part was refused: why they ask is not what they ask."""
    result = learner.answer(question)
    assert result.sub_questions[-1].rows and result.sub_questions[-1].rows[0][0] == "N03", result.answer


def test_it_is_never_the_people_the_part_before_found(learner, college_db):
    """A learner's probe: after "What is the current status of the Campus Chatbot project?", "who
    works on it, and what skills does it need?" asked the skills "each of Karan and Rahul" need."""
    learner.answer("What is the current status of the Campus Chatbot project?")
    result = learner.answer("who works on it, and what skills does it need?")
    last_part_is(college_db, result, "MATCH (:Project {name: 'Campus Chatbot'})-[:REQUIRES]->(s:Skill) RETURN s.name")


def test_a_courtesy_between_commas_splits_nothing(learner):
    """A learner's probe: "Kindly explain, if you would, the situation in which ..." was split into
    "Kindly explain" and the rest."""
    result = learner.answer("Kindly explain, if you would, what a deadlock is.")
    assert len(result.sub_questions) == 1 and result.rows and result.rows[0][0] == "N18", result.answer


def test_a_polite_hinglish_opening_asks_nothing(learner, college_db):
    """A learner's probe: "Kripya batayein, DSA ke kitne credits hain?" ("please tell") was refused
    for its two polite words."""
    result = learner.answer("Kripya batayein, DSA ke kitne credits hain?")
    assert result.status == "answered" and any(4 in row for row in result.rows), result.answer


def test_an_ask_after_a_colon_is_a_sentence_of_its_own(learner):
    """A learner's probe: "Namaste. I am revising at night after work, so kindly bear with me: why
    would a database keep an extra lookup structure ...?" was refused: the ask after the colon,
    alone, clears the bar for the note on indexing."""
    result = learner.answer("Namaste. I am revising at night after work, so kindly bear with me: why would a "
                            "database keep an extra lookup structure so that it need not read every row to find one?")
    assert result.status == "answered" and result.rows[0][0] == "N06", result.answer


def test_they_of_why_they_ask_is_no_topic_pointer(learner):
    """unseen61 bl028: "routing explainer pls ..., and who's studying CN so they can help run it?"
    became "who's studying CN so routing explainer pls for the network workshop can help run it?":
    "they" of a purpose clause points at no topic, and the clause is no part of the ask."""
    result = learner.answer("routing explainer pls for the network workshop, and who's studying CN so they "
                            "can help run it?")
    assert not any("so routing" in s.rewritten for s in result.sub_questions), result.answer


def test_a_purpose_clause_with_any_subject_is_why_they_ask(learner, college_db):
    """A guard: "so that she can help me" is why they ask, whoever "she" is."""
    assert_answered_with(learner.answer("who studies DBMS so that she can help me?"), college_db,
                         "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DBMS'}) RETURN s.name")


@pytest.mark.parametrize("question", ["how many students are in the graph?",
                                      "total kitne students hain in the graph"])
def test_the_graph_itself_is_no_topic_named_graphs(learner, college_db, question):
    """unseen61 bl022: "in the graph" was linked to the topic Graphs, and the students of a subject
    covering it (3) were counted, not the students (5)."""
    assert_answered_with(learner.answer(question), college_db, "MATCH (s:Student) RETURN count(s)")


# --- found on unseen64 and unseen65 after their one scoring (forced: confidently wrong) -------

def test_someones_teammates_are_never_themselves(learner, college_db):
    """unseen64 bo042: "What skills do Rahul's project teammates bring?" counted Rahul among his
    own teammates (FalkorDB does not keep a pattern's two links apart), and his Python with them."""
    assert_answered_with(learner.answer("What skills do Rahul's project teammates bring?"), college_db,
                         "MATCH (r:Student {name: 'Rahul'})-[:WORKS_ON]->(p:Project)<-[:WORKS_ON]-(m:Student) "
                         "WHERE m <> r MATCH (m)-[:HAS_SKILL]->(s:Skill) RETURN DISTINCT s.name")


# --- a part that asks only for more columns of the ask before it ------------------------------

_ADVANCED = ("MATCH (s:Student)-[r:HAS_SKILL]->(k:Skill) WHERE r.level = 'Advanced' "
             "RETURN DISTINCT s.name, k.name")


@pytest.mark.parametrize("question", [
    "Who has an Advanced-level skill? Give me the name and the skill.",
    "Who has an Advanced-level skill and which skill?",
    "Who has an Advanced-level skill? Name and skill please.",
])
def test_a_part_naming_only_kinds_the_ask_before_names_asks_them_of_it(learner, college_db, question):
    """unseen64 bo029: "Give me the name and the skill." after "Who has an Advanced-level skill?"
    listed every skill in the graph. A sentence or clause with no verb and no value of its own,
    naming only kinds and properties, asks them of what the ask before it finds."""
    assert_answered_with(learner.answer(question), college_db, _ADVANCED)


@pytest.mark.parametrize("question, reference", [
    ("Rahul ke paas kaunsi skills hai aur kis level pe, bata do",
     "MATCH (:Student {name: 'Rahul'})-[r:HAS_SKILL]->(k:Skill) RETURN k.name, r.level"),
    ("Who among us knows Docker and how well?",
     "MATCH (s:Student)-[r:HAS_SKILL]->(:Skill {name: 'Docker'}) RETURN s.name, r.level"),
])
def test_a_property_asked_with_a_request_tail_is_a_column(learner, college_db, question, reference):
    """unseen65 bp042, unseen64 bo018: "kis level pe, bata do" ("tell me at what level") and "how
    well" ask the level of the skills the ask before finds; "bata do" asks nothing of its own."""
    assert_answered_with(learner.answer(question), college_db, reference)


# --- a spoken message: names split into words, a filler of time ---------------------------------

@pytest.mark.parametrize("question, value", [
    ("whos working on the campus chat bot", "Campus Chatbot"),
    ("what subject do i need before the one that teaches dead locks", "Deadlocks"),
    ("is anyone in the codingclub", "Coding Club"),
])
def test_a_name_written_with_its_words_split_or_joined_is_linked(college_db, question, value):
    """unseen67 br019, br042 (a message dictated to a phone): "campus chat bot", "dead locks"
    name the Campus Chatbot and Deadlocks; the letters are the name's, the spaces are not."""
    assert value in [m.value for m in link_entities(college_db, question)]


@pytest.mark.parametrize("question, reference", [
    ("whos working on the campus chat bot",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) RETURN s.name"),
    ("Which project is Rahul working on these days?",
     "MATCH (:Student {name: 'Rahul'})-[:WORKS_ON]->(p:Project) RETURN p.name"),
])
def test_a_spoken_question_is_answered(learner, college_db, question, reference):
    """unseen66 bq018, unseen67 br019: "these days" says when, as "currently" does: it asks
    nothing of its own."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_a_gerund_after_before_with_no_one_named_is_the_learners(learner, college_db):
    """unseen66 bq019: "which subject should be done before taking it?" was refused: "taking" was
    read as a link the query leaves out. With no person named, the one taking it is the learner,
    as in "should I finish before taking ..."."""
    result = learner.answer("How many credits is Operating Systems worth, and which subject should be "
                            "done before taking it?")
    last_part_is(college_db, result, "MATCH (p:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: "
                 "'Operating Systems'}) RETURN p.name")


@pytest.mark.parametrize("question, reference", [
    ("did anybody get an a plus in anything",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject) WHERE r.grade = 'A+' RETURN DISTINCT s.name"),
    ("list all the students from the it branch", "MATCH (s:Student) WHERE s.branch = 'IT' RETURN s.name"),
])
def test_a_value_said_aloud_or_in_small_letters_is_that_value(learner, college_db, question, reference):
    """unseen67 br032, br034: "an a plus" is an A+, as said aloud; "the it branch" is the IT
    branch (a common word before its property's word), not a pronoun with nothing before it."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_the_one_that_stands_for_the_kind_named_before_it(learner, college_db):
    """unseen67 br042: "what subject do i need before the one that teaches dead locks": "the one"
    is a subject, so the chain goes through the subject that covers Deadlocks, not through a
    concept before Deadlocks (two chains were left, and the question was refused)."""
    assert_answered_with(learner.answer("what subject do i need before the one that teaches dead locks"),
                         college_db, "MATCH (:Concept {name: 'Deadlocks'})<-[:COVERS]-(:Subject)"
                         "<-[:PREREQUISITE_FOR]-(p:Subject) RETURN p.name")


@pytest.mark.parametrize("question, reference", [
    ("what skills has karan got", "MATCH (:Student {name: 'Karan'})-[:HAS_SKILL]->(k:Skill) RETURN k.name"),
    ("hey whats the status on the attendance tracker project is it started yet",
     "MATCH (p:Project {name: 'Attendance Tracker'}) RETURN p.name, p.status"),
])
def test_a_dictated_ask_means_what_it_says(learner, college_db, question, reference):
    """unseen67 br026, br029: "has karan got" is having, not a grade got; "is it started yet" after
    "whats the status" is answered by the status shown (it is Planned: not started), not a filter
    the query leaves out."""
    assert_answered_with(learner.answer(question), college_db, reference)


@pytest.mark.parametrize("question, wrong_note", [
    ("what problem does 2NF fix that 1NF does not?", "N02"),
])
def test_of_two_topics_named_the_subject_of_the_ask_is_not_answered_by_the_other(learner, question,
                                                                                   wrong_note):
    """Found while probing: "what problem does 2NF fix that 1NF does not?" was answered from the
    note on 1NF, the nearer: of two topics named, the one the question's verb is asked of (right
    after "does") is what it asks about; the other's note is no answer."""
    result = learner.answer(question)
    assert not (result.rows and result.rows[0][0] == wrong_note), result.answer


@pytest.mark.parametrize("question, note", [
    ("what does 3NF add on top of 2NF?", "N04"),
    ("how is a thread different from a process?", "N17"),
    ("what does BFS do that DFS doesn't?", "N13"),
])
def test_the_subject_of_two_topics_named_is_answered(learner, question, note):
    """Guards: the topic asked of is the one whose note answers."""
    result = learner.answer(question)
    assert result.rows and result.rows[0][0] == note, result.answer


@pytest.mark.parametrize("question", ["what is a firewall?", "what is the OSI model?"])
def test_a_concept_no_note_explains_says_so(learner, question):
    """A learner's probe: "what is a firewall?" was answered "None (note None, on Firewalls)": the
    explanation query names its note, and the concept has none. The answer says what the graph
    holds of it and that no note explains it, never a note id that is not there."""
    result = learner.answer(question)
    assert "None" not in result.answer and "No note explains it" in result.answer, result.answer


def test_it_after_a_same_kind_link_is_the_one_named(learner, college_db):
    """A teacher's probe: "Which subject must be studied before Operating Systems, and which subject
    should be taken after it?" read "it" as DSA, the one found, and answered "Operating Systems":
    a part asking for the kind the part before named and found asks about the one named."""
    result = learner.answer("Which subject must be studied before Operating Systems, and which subject "
                            "should be taken after it?")
    last_part_is(college_db, result, "MATCH (:Subject {name: 'Operating Systems'})-[:PREREQUISITE_FOR]->"
                 "(n:Subject) RETURN n.name")


@pytest.mark.parametrize("first, then, wrote", [
    ("deadlock kyu hota hai?", "how can we avoid it?", "Deadlocks"),
    ("deadlock kyu hota hai?", "how does the OS handle it?", "Deadlocks"),
    ("what is paging?", "why is it useful?", "Paging"),
])
def test_it_after_a_note_answer_is_the_topic_its_note_is_on(learner, first, then, wrote):
    """A learner's probe: after "deadlock kyu hota hai?", "how can we avoid it?" was asked of
    Operating Systems, which the note's text names ("Operating systems handle deadlocks"), and
    after "what is paging?" (answered by a query that quotes the note), "why is it useful?" was
    refused: "it" is the topic the answer quoted its note on."""
    learner.answer(first)
    result = learner.answer(then)
    assert result.status == "answered" and wrote in result.sub_questions[0].rewritten, result.answer


def test_and_does_any_kind_asks_a_part_of_its_own(learner, college_db):
    """A teacher's probe: "What skills does the Attendance Tracker project require, and does any
    student have that skill at the Advanced level?" was not split ("does any student" opens a
    question as "does anyone" does) and was refused whole."""
    result = learner.answer("What skills does the Attendance Tracker project require, and does any student "
                            "have that skill at the Advanced level?")
    last_part_is(college_db, result, "MATCH (:Project {name: 'Attendance Tracker'})-[:REQUIRES]->(k:Skill)"
                 "<-[r:HAS_SKILL]-(s:Student) WHERE r.level = 'Advanced' RETURN s.name")


@pytest.mark.parametrize("question, reference", [
    ("Which students taking DSA have at least one skill at the Advanced level?",
     "MATCH (:Subject {name: 'DSA'})<-[:STUDIES]-(s:Student)-[r:HAS_SKILL]->(:Skill) WHERE r.level = 'Advanced' "
     "RETURN DISTINCT s.name"),
    ("which students in the Coding Club got an A+",
     "MATCH (:Club {name: 'Coding Club'})<-[:MEMBER_OF]-(s:Student)-[r:STUDIES]->(:Subject) WHERE r.grade = 'A+' "
     "RETURN DISTINCT s.name"),
])
def test_a_value_of_a_link_no_name_takes_filters_the_ones_found(learner, college_db, question, reference):
    """A teacher's probe: "Which students taking DSA have at least one skill at the Advanced level?"
    was refused: the level is on a link of the students that DSA's link does not take, and the
    query for a named thing left it out."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_a_request_to_explain_what_a_thing_is_is_read_as_what_is_it(learner):
    """A teacher's probe: "Please explain what a transitive dependency is and which normal form
    removes it." was refused: the request's words kept it below the bar, while "what is a
    transitive dependency?" clears it for the same note (two readings agree)."""
    result = learner.answer("Please explain what a transitive dependency is and which normal form removes it.")
    assert result.sub_questions[0].rows and result.sub_questions[0].rows[0][0] == "N04", result.answer


def test_the_kinds_possessive_is_the_one_named_before(learner, college_db):
    """A teacher's probe: "..., and what is the project's status?" after the part that found
    Rahul's project listed every project's status: "the project's" is that project's."""
    result = learner.answer("Which project is Rahul working on, what is his role in it, and what is the "
                            "project's status?")
    last_part_is(college_db, result, "MATCH (p:Project {name: 'Campus Chatbot'}) RETURN p.name, p.status")


@pytest.mark.parametrize("question, reference", [
    ("How many students study more than one subject?",
     "MATCH (s:Student)-[:STUDIES]->(x:Subject) WITH s, count(DISTINCT x) AS n WHERE n > 1 RETURN count(s)"),
    ("How many clubs have more than one member?",
     "MATCH (c:Club)<-[:MEMBER_OF]-(x:Student) WITH c, count(DISTINCT x) AS n WHERE n > 1 RETURN count(c)"),
])
def test_how_many_with_more_than_one_is_a_number_of_the_kind_asked(learner, college_db, question, reference):
    """A teacher's probe: "How many students study more than one subject?" listed every student
    and their subjects, and gave no number."""
    assert_answered_with(learner.answer(question), college_db, reference)


@pytest.mark.parametrize("question", [
    "What has to be true for a bunch of processes to get stuck waiting on each other forever, and how does "
    "the OS deal with it?",
    "Karan bhai was stuck on this in his OS prep: when do a bunch of processes end up waiting on each other "
    "forever, and what conditions have to be true for that to happen?",
])
def test_a_topic_named_as_the_ground_of_what_is_described_is_no_answer(learner, question):
    """unseen64 bo002, unseen66 bq001: a deadlock described without its name ("processes ... stuck
    waiting on each other forever") was answered from the note on processes, the topic named.
    The second encoder puts the note on deadlocks first, a topic built on processes: the
    question may describe it, so the note on processes is no answer."""
    result = learner.answer(question)
    assert not any(s.rows and s.rows[0][0] == "N16" for s in result.sub_questions if s.found), result.answer


@pytest.mark.parametrize("question, reference", [
    ("which students are in neither coding club nor robotics club?",
     "MATCH (s:Student) WHERE NOT (s)-[:MEMBER_OF]->(:Club {name: 'Coding Club'}) "
     "AND NOT (s)-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN s.name"),
    ("bhai which students study neither DBMS nor Operating Systems?",
     "MATCH (s:Student) WHERE NOT (s)-[:STUDIES]->(:Subject {name: 'DBMS'}) "
     "AND NOT (s)-[:STUDIES]->(:Subject {name: 'Operating Systems'}) RETURN s.name"),
    ("how many subtopics does TCP/IP include?",
     "MATCH (:Concept {name: 'TCP/IP'})-[:INCLUDES]->(c:Concept) RETURN count(c)"),
])
def test_neither_nor_and_a_counted_link_noun(learner, college_db, question, reference):
    """A learner's probe (a student who loves numbers): "neither X nor Y" was asked again without
    "nor", an unknown word the filler step took for nothing, and answered with the students in
    X or Y, the very ones left out; "how many subtopics does TCP/IP include?" walked two steps
    and said 0: the kind counted is a word of the link, as "which subtopics" is."""
    assert_answered_with(learner.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("what is subnetting and which topics need it as a prerequisite?",
     "MATCH (:Concept {name: 'Subnetting'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
])
def test_a_verb_named_again_as_a_link_is_that_link(learner, college_db, question, reference):
    """A learner's probe (Indian English): "which topics need it as a prerequisite?" was refused:
    "need" is a project's link, but "as a prerequisite" says which link the need is."""
    last_part_is(college_db, learner.answer(question), reference)


def test_what_all_asks_for_no_kind_a_note_must_name(learner):
    """A learner's probe: "what all are the ACID properties of a transaction?" was refused: "what
    all are" was read as asking for an "all", a word the note on transactions does not use."""
    result = learner.answer("what all are the ACID properties of a transaction?")
    assert result.rows and result.rows[0][0] == "N08", result.answer


@pytest.mark.parametrize("question, reference", [
    ("Aarav vs Sneha, who is in a higher year?",
     "MATCH (s:Student) WHERE s.name = 'Sneha' RETURN s.name, s.year"),
    ("Rahul vs Karan in DSA, who got the better grade?",
     "MATCH (s:Student {name: 'Rahul'})-[r:STUDIES]->(:Subject {name: 'DSA'}) RETURN s.name, r.grade"),
    ("how many students are at least in 3rd year?", "MATCH (s:Student) WHERE s.year >= 3 RETURN count(s)"),
])
def test_a_comparison_of_two_named_picks_one(learner, college_db, question, reference):
    """A learner's probe (a student who loves numbers): "A vs B, who is in a higher year?" was
    refused as a question comparing two things, which the pick between them answers; "at least
    in 3rd year" put a word between the bound and the number."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_what_all_does_it_include_asks_the_graph(learner):
    """Guard: "what are the parts inside graphs in dsa, like what all does it include" (unseen53
    bc035) asks for what Graphs includes, a link: "what all does it include" is no note question
    once "all" asks for no kind."""
    result = learner.answer("what are the parts inside graphs in dsa, like what all does it include")
    assert not (result.rows and str(result.rows[0][0]).startswith("N")), result.answer


def test_their_roles_after_two_named_are_at_what_they_were_found_on(learner, college_db):
    """A teacher's probe: "which project are Aarav and Payal on, and what are their roles?": the
    roles part was refused (a role is a club's or a project's): with two people named, the
    scope is the project the part before found, as it is with one."""
    result = learner.answer("which project are Aarav and Payal on, and what are their roles?")
    last_part_is(college_db, result, "MATCH (s:Student)-[r:WORKS_ON]->(:Project {name: 'Library Management "
                 "System'}) WHERE s.name IN ['Aarav', 'Payal'] RETURN s.name, r.role")


@pytest.mark.parametrize("question, reference", [
    ("what subjects do students learn here?", "MATCH (:Student)-[:STUDIES]->(s:Subject) RETURN DISTINCT s.name"),
    ("what projects are the students building?",
     "MATCH (:Student)-[:WORKS_ON]->(p:Project) RETURN DISTINCT p.name"),
])
def test_students_in_general_as_a_verbs_subject_are_any(learner, college_db, question, reference):
    """A visitor's probe: "what subjects do students learn here?" was refused: "students", the
    subject of a plural verb with nothing to pick them, means any students, as "a student" does."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_a_topic_the_graph_holds_without_a_note_is_not_answered_by_a_neighbour(learner):
    """A visitor's probe: "how does the computer decide which program gets to run next?" was
    answered from the note on processes. It describes CPU scheduling, which the graph holds as a
    concept of its own with no note; both encoders put the sentence on scheduling nearer than
    the note, the second by less than its margin. The graph holding the topic apart is
    evidence enough."""
    result = learner.answer("how does the computer decide which program gets to run next?")
    assert not (result.rows and result.rows[0][0] == "N16"), result.answer


@pytest.mark.parametrize("question, reference", [
    ("3rd year mein kaun kaun hai, unki branch bhi bata",
     "MATCH (s:Student) WHERE s.year = 3 RETURN s.name, s.branch"),
    ("DSA ke liye koi prerequisite subject hai kya aur DSA ke baad kya padhna hai",
     "MATCH (:Subject {name: 'DSA'})-[:PREREQUISITE_FOR]->(n:Subject) RETURN n.name"),
])
def test_a_hinglish_request_last_asks_a_part(learner, college_db, question, reference):
    """A late-night reviser's probe: ", unki branch bhi bata" ends with its request, as Hindi
    puts it, and is a part of its own (it was refused with the part before); "kya padhna hai"
    is the learner's studying, as "kya padhna chahiye" is."""
    last_part_is(college_db, learner.answer(question), reference)


def test_a_hinglish_request_to_say_a_topic_in_one_line_is_a_definition(learner, college_db):
    """unseen57 bh018: "first normal form ek line mein bata, and which subject covers it?": once the
    request "bata" ends its part, "X ek line mein bata" asks what X is, as "... batao" does."""
    result = learner.answer("first normal form ek line mein bata, and which subject covers it?")
    assert result.sub_questions[0].rows and result.sub_questions[0].rows[0][0] == "N02", result.answer
    last_part_is(college_db, result, "MATCH (s:Subject)-[:COVERS]->(:Concept {name: '1NF'}) RETURN s.name")


@pytest.mark.parametrize("question", ["Which students are really good at Python?", "who is an expert in Python?"])
def test_really_good_at_is_the_top_of_the_scale(learner, college_db, question):
    """unseen68 bs006 (scored on the final code, changed after): "Which students are really good
    at Python?" ranked everyone who has Python, an Intermediate among them: "really good", "an
    expert" ask for the top of the scale, as "the best" does."""
    assert_answered_with(learner.answer(question), college_db,
                         "MATCH (s:Student)-[r:HAS_SKILL]->(:Skill {name: 'Python'}) WHERE r.level = 'Advanced' "
                         "RETURN s.name, r.level")


def test_she_after_someones_friends_asked_is_not_a_friend_found(learner, college_db):
    """unseen69 bt021 (scored on the final code, changed after): "Sneha ke friends kaun hai? and
    which club is she the president of?": one friend was found (Payal), and "she" was read as
    her. "friends kaun hai" asks for several, as "kaun kaun" does: she is Sneha."""
    result = learner.answer("Sneha ke friends kaun hai? and which club is she the president of?")
    last_part_is(college_db, result, "MATCH (:Student {name: 'Sneha'})-[r:MEMBER_OF]->(c:Club) "
                 "WHERE r.role = 'President' RETURN c.name")


def test_this_graph_before_from_is_the_knowledge_graph(learner, college_db):
    """unseen68 bs003 (scored on the final code, changed after): "How many students are in this
    graph, and which branches are they from?" asked the branches of the students whose subjects
    cover Graphs: "in this graph from?" is the knowledge graph too."""
    result = learner.answer("How many students are in this graph, and which branches are they from?")
    last_part_is(college_db, result, "MATCH (s:Student) RETURN s.name, s.branch")


# --- unseen70 and unseen71 (this stop's development sets, scored first on the code before) -------

def test_a_hyphenated_final_year_is_the_highest_year(learner, college_db):
    """unseen70 bu021: "who are the final-year students?" listed every student with a year: the
    hyphen kept "final" from the year it ends."""
    result = learner.answer("How many students are from the IT branch? And who are the final-year students?")
    last_part_is(college_db, result, "MATCH (s:Student) WITH max(s.year) AS top MATCH (s:Student) "
                 "WHERE s.year = top RETURN s.name, s.year")


def test_two_properties_before_one_verb_are_one_ask(learner, college_db):
    """unseen70 bu026: "what branch and year is she in, ..." was split at "and" into "what
    branch" and "year is she in, which clubs ...", which was refused. Two nouns after one
    question word share its verb; "her role on her project" is the project's role, not one in
    the club the part before found."""
    result = learner.answer("For Sneha: what branch and year is she in, which clubs does she belong to, "
                            "and what's her role on her project?")
    parts = [s for s in learner.last.sub_questions if s.found]
    assert result.status == "answered" and len(parts) == 3, result.answer
    assert same_rows(parts[0].rows, rows_of(college_db, "MATCH (s:Student {name: 'Sneha'}) "
                                                        "RETURN s.name, s.year, s.branch"))
    last_part_is(college_db, result, "MATCH (:Student {name: 'Sneha'})-[r:WORKS_ON]->(p:Project) "
                 "RETURN p.name, r.role")


def test_a_definition_asked_as_a_kind_of_thing_is_the_things_note(learner):
    """unseen70 bu027: "What exactly is a graph as a data structure, ...?" was refused: the
    note on trees is 3 % behind the note on graphs. "as a data structure" says in which sense
    a graph is asked about; the thing defined is a graph, whose own note answers."""
    learner.answer("What exactly is a graph as a data structure, and which smaller topics come under Graphs?")
    first = learner.last.sub_questions[0]
    assert first.found and first.rows[0][0] == "N12", first.answer


def test_with_the_kind_after_a_filtered_link_shows_that_kind(learner, college_db):
    """unseen70 bu023: "List the students who are Advanced at something, with the skill." gave
    the names alone: ", with the skill" asks for the link's other end too."""
    result = learner.answer("List the students who are Advanced at something, with the skill.")
    assert_answered_with(result, college_db, "MATCH (s:Student)-[r:HAS_SKILL]->(k:Skill) "
                         "WHERE r.level = 'Advanced' RETURN s.name, k.name")


def test_this_college_system_is_the_knowledge_graph(learner, college_db):
    """unseen71 bv029: "How many students are listed in this college system altogether?" was
    refused for "listed" and "system": "in this college system" is the graph itself, as "in
    this database" is, and "listed" asks nothing more than "are"."""
    assert_answered_with(learner.answer("How many students are listed in this college system altogether?"),
                         college_db, "MATCH (s:Student) RETURN count(s)")


def test_once_a_topic_is_done_is_after_it(learner, college_db):
    """unseen71 bv022: "which topics should be studied once arrays are done?" asks what comes after."""
    assert_answered_with(learner.answer("which topics should be studied once arrays are done?"), college_db,
                         "MATCH (:Concept {name: 'Arrays'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name")


# --- unseen72 and unseen73 (this stop's final sets: scored once on the final code, changed after) --

def test_a_prof_is_a_kind_the_graph_does_not_hold(learner):
    """unseen72 bw049: "which prof teaches computer networks" was answered from the note on
    graphs: "prof" is a professor, whom no note and no node names."""
    learner.answer("which prof teaches computer networks")
    assert not [s for s in learner.last.sub_questions if s.tool == "search_notes" and s.found]


def test_a_direct_prerequisite_said_after_the_name_is_its_way(learner, college_db):
    """unseen73 bx029: "Which concepts have Paging as a direct prerequisite?" said there were
    none: "direct" between "a" and "prerequisite" hid the way along the link."""
    assert_answered_with(learner.answer("Which concepts have Paging as a direct prerequisite?"), college_db,
                         "MATCH (:Concept {name: 'Paging'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name")


def test_sabse_achha_grade_is_the_top_of_the_scale(learner, college_db):
    """unseen73 bx044: "DBMS mein sabse achha grade kisne score kiya?" ranked everyone who took
    DBMS: "sabse achha" is "the best", the top of the scale."""
    assert_answered_with(learner.answer("DBMS mein sabse achha grade kisne score kiya?"), college_db,
                         "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DBMS'}) WHERE r.grade = 'A+' "
                         "RETURN s.name, r.grade")


# --- unseen74 and unseen75 (this stop's development sets) and a probe's questions ----------------

def test_a_question_after_may_i_ask_asks_its_parts(learner, college_db):
    """unseen75 bz019: "May I ask which branch and year Sneha is in, and which club she is
    president of?" was one ask no query answered: "may I ask" opens the question politely."""
    result = learner.answer("May I ask which branch and year Sneha is in, and which club she is president of?")
    parts = learner.last.sub_questions
    assert result.status == "answered" and len(parts) == 2, result.answer
    reference = ("MATCH (:Student {name: 'Sneha'})-[r:MEMBER_OF]->(c:Club) WHERE r.role = 'President' "
                 "RETURN c.name")
    assert same_rows(parts[1].rows, rows_of(college_db, reference))


@pytest.mark.parametrize("question", ["which topic is meant to be studied right after 1NF?",
                                      "which topic is supposed to be studied after 1NF?"])
def test_meant_to_be_studied_is_should_be_studied(learner, college_db, question):
    """unseen75 bz027: "which topic is meant to be studied right after it?" left "studied"
    unread: "is meant to be", like "should be", is the learner's verb, no link of its own."""
    assert_answered_with(learner.answer(question), college_db,
                         "MATCH (:Concept {name: '1NF'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name")


@pytest.mark.parametrize("question", ["can I study DSA?", "could I join the debate society?",
                                      "can I work on the campus chatbot?"])
def test_yes_or_no_about_the_one_asking_is_not_answered_with_others(learner, question):
    """A probe: "could I join the debate society?" answered "Sneha (since: 2023) and Payal
    (since: 2025)", "can I study DSA?" the students who do: whether the one asking may join
    or study is nothing the graph holds, and those who did are no answer to it."""
    result = learner.answer(question)
    assert result.status == "out_of_scope", result.answer


def test_do_i_need_one_before_another_is_an_order_of_study(learner):
    result = learner.answer("do I need OS before CN?")
    assert result.status == "answered" and result.answer.startswith("Yes"), result.answer


@pytest.mark.parametrize("question, expected", [
    ("Does the Coding Club have a president?", False),
    ("does the robotics club have a president?", True),
    ("does Rahul have an advanced skill?", True),
])
def test_yes_or_no_of_one_named_with_a_value_of_its_link(learner, question, expected):
    """A probe: "Does the Coding Club have a president?" was refused: one name and a value a
    link of its holds (a role, a level, a grade) ask whether such a link exists."""
    result = learner.answer(question)
    assert result.status == "answered" and result.rows == [[expected]], (result.answer, result.rows)


@pytest.mark.parametrize("question, reference", [
    ("which DSA concepts have no prerequisites?",
     "MATCH (:Subject {name: 'DSA'})-[:COVERS]->(c:Concept) WHERE NOT ()-[:PREREQUISITE_FOR]->(c) RETURN c.name"),
    ("how many subjects have no prerequisite?",
     "MATCH (s:Subject) WHERE NOT ()-[:PREREQUISITE_FOR]->(s) RETURN count(s)"),
    ("which concepts have no subtopics?", "MATCH (c:Concept) WHERE NOT (c)-[:INCLUDES]->() RETURN c.name"),
], ids=["no-prerequisite", "counted", "no-subtopics"])
def test_none_of_a_link_between_their_own_kind(learner, college_db, question, reference):
    """A probe: "which DSA concepts have no prerequisite" was refused: "no" before a word of
    the link between nodes of one kind asks for those with none, the way the word points."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_not_a_prerequisite_for_anything_is_left_alone(learner):
    """The other way ("are not a prerequisite for anything") has no rule: refused, never
    answered with the concepts that have none before them."""
    assert learner.answer("which concepts are not a prerequisite for anything?").status != "answered"


def test_apart_from_a_group_no_query_leaves_out_is_refused(learner, college_db):
    """unseen57 bg040: "Apart from the students already on the team, which students have a skill
    the Library Management System project needs?" was answered with everyone who has such a
    skill, once "apart" was read as a word of its own and not a typo of "part": what "apart
    from" sets apart, the query must leave out."""
    result = learner.answer("Apart from the students already on the team, which students have a skill "
                            "that the Library Management System project needs?")
    reference = ("MATCH (:Project {name: 'Library Management System'})-[:REQUIRES]->(:Skill)<-[:HAS_SKILL]-(s) "
                 "WHERE NOT (s)-[:WORKS_ON]->(:Project {name: 'Library Management System'}) "
                 "RETURN DISTINCT s.name")
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("first, then, reference", [
    ("How many students are in their third year?", "Which of them is from ECE?",
     "MATCH (s:Student) WHERE s.year = 3 AND s.branch = 'ECE' RETURN s.name"),
    ("How many concepts does Operating Systems cover?", "Which of those don't have a study note?",
     "MATCH (:Subject {name: 'Operating Systems'})-[:COVERS]->(c) WHERE NOT (c)<-[:EXPLAINS]-() RETURN c.name"),
    ("How many CSE students are there?", "which of them is in year 2?",
     "MATCH (s:Student) WHERE s.branch = 'CSE' AND s.year = 2 RETURN s.name"),
], ids=["third-year", "those-dont", "are-there"])
def test_which_of_them_after_a_count_in_the_last_turn(learner, college_db, first, then, reference):
    """A probe: "How many students are in their third year?" then "Which of them is from ECE?"
    said it could not tell what "them" means: after a count, "them" is what was counted, as
    in a later part of one message ("don't" is an auxiliary verb, as "do" is; "how many CSE
    students are there" counted "the CSE students", not "the CSE that students are there")."""
    learner.answer(first)
    result = learner.answer(then)
    assert result.status == "answered", result.answer
    assert same_rows(result.rows, rows_of(college_db, reference))


def test_she_before_than_a_name_is_the_one_compared(learner):
    """A probe: "Who is the president of the Debate Society?" (Sneha) then "Is she in a higher
    year than Aarav?" was refused: the one after "than" is the mark, wherever "she" was read."""
    learner.answer("Who is the president of the Debate Society?")
    result = learner.answer("Is she in a higher year than Aarav?")
    assert result.status == "answered" and result.rows == [[True]], result.answer


@pytest.mark.parametrize("question, reference", [
    ("BCNF se pehle kya aana chahiye",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'BCNF'}) RETURN c.name"),
    ("indexing ke pehle kya chahiye",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Indexing'}) RETURN c.name"),
    ("aur deadlock ke baad kya padhe",
     "MATCH (:Concept {name: 'Deadlocks'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
], ids=["aana-chahiye", "ke-pehle-chahiye", "ke-baad-padhe"])
def test_what_comes_before_or_after_in_hinglish(learner, college_db, question, reference):
    """A Hinglish probe: "BCNF se pehle kya aana chahiye" was refused for "aana" (to come),
    "indexing ke pehle kya chahiye" for "chahiye" read as a project's need, "deadlock ke baad
    kya padhe" for "padhe" read as a student's study: what follows "pehle kya" or "baad kya"
    is the learner's own verb, as "should I study" is."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_isse_pehle_after_a_note_is_before_its_topic(learner, college_db):
    """A Hinglish probe: "Deadlock kya hota hai?" then "isse pehle kya padhna chahiye" was
    refused as outside the graph: "isse" is the topic the last note answered, no person said."""
    learner.answer("Deadlock kya hota hai?")
    assert_answered_with(learner.answer("isse pehle kya padhna chahiye"), college_db,
                         "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Deadlocks'}) RETURN c.name")


@pytest.mark.parametrize("question", ["what's the actual difference between 2NF and 3NF?",
                                      "2NF aur 3NF mein kya farak hai"])
def test_a_difference_quotes_both_topics_notes(learner, question):
    """Two probes: "what's the actual difference between 2NF and 3NF?" quoted the note on 3NF
    alone (it names 2NF, so the note on 2NF was thought said): a difference asks for both."""
    result = learner.answer(question)
    assert result.status == "answered" and "(note N04" in result.answer and "(note N03" in result.answer, \
        result.answer


@pytest.mark.parametrize("question, reference", [
    ("which 2 students are in year 3?", "MATCH (s:Student) WHERE s.year = 3 RETURN s.name"),
    ("Are there any first-year students listed at the moment?",
     "MATCH (s:Student) WHERE s.year = 1 RETURN s.name"),
], ids=["a-count-before-the-noun", "a-year-no-one-is-in"])
def test_a_number_is_a_value_only_by_its_propertys_word(learner, college_db, question, reference):
    """A probe: "which 2 students are in year 3?" answered the students of years 2 and 3 (the
    2 counts students); a parent's "Are there any first-year students listed?" was refused (no
    student is in year 1, so 1 was no listed value): said by its property's word, a number is
    asked, and none hold it is the answer."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_she_after_the_one_person_named_is_never_a_classmate(college_db):
    """unseen74 by021 (tools and pipeline): "Payal's grades in all her subjects + what skills
    does she have" was answered with her classmates' skills (a chain through her subjects):
    "she" after the one person named is that person; one query cannot answer both asks."""
    question = "Payal's grades in all her subjects + what skills does she have"
    result = Agent(college_db, OfflineLLM()).answer(question)
    assert result.status == "out_of_scope" or same_rows(result.rows, rows_of(
        college_db, "MATCH (:Student {name: 'Payal'})-[:HAS_SKILL]->(k) RETURN k.name")), result.rows


def test_the_most_of_a_value_counts_each_ones_links(learner):
    """unseen77 cb034 (a final set, changed after its scoring): "Which student has picked up
    the most A or A+ grades?" listed every student with an A or an A+: "the most A grades"
    asks how many each has, not the top value (as "the most advanced" does)."""
    result = learner.answer("Which student has picked up the most A or A+ grades?")
    assert result.status != "answered" or result.rows == [["Payal", 2]], result.answer


def test_her_project_keeps_its_teammates(learner, college_db):
    """unseen74 by042: "what skills do payal's teammates on her project have" must keep its
    chain: "her" is Payal's, and the teammates are others on it."""
    assert_answered_with(learner.answer("what skills do payal's teammates on her project have"), college_db,
                         "MATCH (p:Student {name: 'Payal'})-[:WORKS_ON]->(:Project)<-[:WORKS_ON]-(t:Student) "
                         "WHERE t <> p MATCH (t)-[:HAS_SKILL]->(k:Skill) RETURN DISTINCT k.name")


def test_the_people_she_is_friends_with_keep_their_chain(learner, college_db):
    """unseen48 ay039: "what clubs are payal's friends in, like both the people she's friends
    with" must keep its chain: "she" in the same ask is Payal, and her friends are others."""
    result = learner.answer("what clubs are payal's friends in, like both the people she's friends with")
    assert_answered_with(result, college_db, "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(f)"
                         "-[:MEMBER_OF]->(c:Club) RETURN DISTINCT c.name")


# --- unseen78 and unseen79: a librarian at the desk, a hackathon organizer in Hinglish ---------

def test_a_final_kya_after_a_noun_asks_what_not_yes_or_no(learner, college_db):
    """unseen79 cd034: "Karan ka OS mein grade kya aaya?" was refused for "aaya" (came: the
    grade he got), then asked again without it and answered "Haan": a "kya" at the end after
    a noun asks what, not whether."""
    result = learner.answer("Karan ka OS mein grade kya aaya?")
    assert_answered_with(result, college_db, "MATCH (:Student {name: 'Karan'})-[r:STUDIES]->"
                         "(:Subject {name: 'Operating Systems'}) RETURN r.grade")
    yes_no = learner.answer("Karan OS padhta hai kya?")
    assert yes_no.status == "answered" and yes_no.rows == [[True]], yes_no.answer


@pytest.mark.parametrize("question, reference", [
    ("bhai Python kiske paas hai?", "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Python'}) RETURN s.name"),
    ("ECE wale kitne bande hai?", "MATCH (s:Student) WHERE s.branch = 'ECE' RETURN count(s)"),
], ids=["kiske-paas", "bande"])
def test_whose_and_guys_in_hinglish_ask_for_people(learner, college_db, question, reference):
    """unseen79 cd049, cd009: "kiske paas" (who has) and "bande" (guys) were unknown words."""
    assert_answered_with(learner.answer(question), college_db, reference)



@pytest.mark.parametrize("question, reference", [
    ("what is the next topic after 3NF?",
     "MATCH (:Concept {name: '3NF'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
    ("which topics come right after 3NF in the learning order?",
     "MATCH (:Concept {name: '3NF'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
    ("what is the topic after the topic after 3NF?",
     "MATCH (:Concept {name: '3NF'})-[:PREREQUISITE_FOR]->(:Concept)-[:PREREQUISITE_FOR]->(c:Concept) "
     "RETURN c.name"),
], ids=["next-topic-after", "learning-order", "after-the-topic-after"])
def test_two_words_for_one_step_of_the_order_are_one_step(learner, college_db, question, reference):
    """A learner's fresh question (unseen78 cc027's neighbour): "the next topic after 3NF" was
    read as two steps ("next", "after") and answered with Query Optimization, two steps on;
    "in the learning order" was refused for its word "order" (a sort)."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_year_and_branch_asked_of_a_name_in_a_request_is_one_ask(learner, college_db):
    """unseen78 cc022: "Could you tell me what year and branch Sneha is in, and which clubs ..."
    was split at "year and branch" and both halves refused."""
    result = learner.answer("Could you tell me what year and branch Sneha is in, and which clubs "
                            "she's part of and in what role?")
    found = [p.rows for p in result.sub_questions]
    assert result.status == "answered", result.answer
    assert rows_of(college_db, "MATCH (s:Student {name: 'Sneha'}) RETURN s.name, s.year, s.branch") in found
    assert rows_of(college_db, "MATCH (:Student {name: 'Sneha'})-[r:MEMBER_OF]->(c:Club) RETURN c.name, r.role") \
        in found, result.answer


@pytest.mark.parametrize("question, note", [
    ("What grade did Payal get in DBMS? And could you also find her something on how the database "
     "decides the cheapest way to run a query?", "N07"),
    ("Hi, could you tell me which students belong to the programming club? And while you're at it, "
     "is there a basic explanation of what normalising a database actually means, for a first-timer?",
     "N01"),
], ids=["find-her-something", "while-you-are-at-it"])
def test_the_one_a_request_is_for_owns_nothing_asked(learner, question, note):
    """unseen78 cc034, cc004: "find her something on ..." was rewritten "find Payal's something
    on ...", and "while you're at it" became "while you're at Coding Club": the one a thing is
    found for, and a stock phrase's "it", stand for nothing asked."""
    result = learner.answer(question)
    notes = [str(p.rows[0][0]) for p in result.sub_questions if p.tool == "search_notes" and p.rows]
    assert result.status == "answered" and note in notes, result.answer


def test_a_part_described_under_its_wholes_name_is_not_the_wholes_note(learner):
    """unseen78 cc001: several emails in one field "breaks the most basic normalization rule":
    the question names normalization and describes 1NF, one of its parts; it was answered with
    the note on normalization, which only the name let answer (under the usual likeness) while
    the second encoder put 1NF's note first."""
    result = learner.answer(
        "Good morning! A second-year student is building a contacts table and keeps putting several "
        "email addresses into one field separated by commas. Her lab instructor said that breaks the "
        "most basic normalization rule. Do you have a short explanation of that rule I could hand her?")
    notes = [str(p.rows[0][0]) for p in result.sub_questions if p.tool == "search_notes" and p.rows]
    assert "N01" not in notes, result.answer


def test_the_notes_on_one_and_on_another_are_each_ones_note(learner, college_db):
    """unseen78 cc047's neighbour: "the notes on arrays and on trees" asked for a note that
    explains both and claimed there is none: the word said again before each name asks of
    each."""
    result = learner.answer("Could you give me the notes on arrays and on trees?")
    assert result.status == "answered" and "N09" in result.answer and "N10" in result.answer, result.answer


def test_a_reason_then_so_and_a_question_asks_the_question(learner, college_db):
    """data/eval aq028: "The library team wants to add indexes, so what concepts should someone
    learn before Indexing?" is the ask after ", so"; the reason before it asks nothing."""
    result = learner.answer("The library team wants to add indexes, so what concepts should someone "
                            "learn before Indexing?")
    assert_answered_with(result, college_db, "MATCH (c:Concept)-[:PREREQUISITE_FOR]->"
                         "(:Concept {name: 'Indexing'}) RETURN c.name")


@pytest.mark.parametrize("first, then, reference", [
    ("how many students are in the robotics club?", "when was that one founded?",
     "MATCH (c:Club {name: 'Robotics Club'}) RETURN c.name, c.founded"),
    ("which club did Sneha join?", "when was that one founded?",
     "MATCH (c:Club {name: 'Debate Society'}) RETURN c.name, c.founded"),
], ids=["after-a-count", "after-one-found"])
def test_that_one_points_at_the_one_thing_talked_about(college_db, chat, first, then, reference):
    """A learner's follow-up (a fresh probe): "when was that one founded?" was refused: "one"
    before "founded" was read as the number 1, and after a count no node was found to point at,
    so "that one" is what the last question named, as "it" would be."""
    chat.answer(first)
    assert_answered_with(chat.answer(then), college_db, reference)


def test_that_one_after_two_found_is_not_guessed(chat):
    chat.answer("which club did Payal join?")     # two clubs: which one is meant is unknown
    assert chat.answer("when was that one founded?").status != "answered"


def test_what_someone_got_in_a_subject_is_a_grade(learner, college_db):
    """A learner's fresh probe: "what did Sneha get in Computer Networks, and what did Rahul get
    in it?" was refused whole: "get in <subject>" asks for the grade, as "got" does."""
    result = learner.answer("what did Sneha get in Computer Networks, and what did Rahul get in it?")
    grade = "MATCH (:Student {name: $name})-[r:STUDIES]->(:Subject {name: 'Computer Networks'}) RETURN r.grade"
    assert [p.rows for p in result.sub_questions] == [college_db.run(grade, {"name": name}).rows
                                                      for name in ("Sneha", "Rahul")], result.answer


def test_it_after_two_things_named_and_none_found_is_not_guessed(chat):
    """A learner's fresh probe: "what comes before graphs among the DSA topics?" was refused,
    and "and after it?" was answered with the subject after DSA: "it" could be Graphs or DSA,
    and nothing found says which."""
    chat.answer("what comes before graphs among the DSA topics?")
    assert chat.answer("and after it?").status != "answered"


@pytest.mark.parametrize("question, reference", [
    ("who's got docker skill", "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Docker'}) RETURN s.name"),
    ("clubs ko founding year ke hisaab se list kar, purane se naye",
     "MATCH (c:Club) RETURN c.name, c.founded ORDER BY c.founded"),
], ids=["whos-got", "purane-se-naye"])
def test_fresh_wordings_of_known_asks(learner, college_db, question, reference):
    """A learner's fresh probe and unseen79 cd047: "who's got" is "who has got" (no grade);
    "ke hisaab se", "purane se naye" order the list, oldest first."""
    result = learner.answer(question)
    assert result.status == "answered" and result.rows == rows_of(college_db, reference), result.answer


def test_a_diff_between_two_topics_quotes_both_notes(learner):
    """A learner's fresh probe: "whats the diff between 2nf and 3nf" quoted the note on 3NF
    alone: "diff" is "difference", which asks for both topics' notes."""
    answer = learner.answer("whats the diff between 2nf and 3nf").answer
    assert "(note N04" in answer and "(note N03" in answer, answer


def test_and_how_good_asks_the_level_of_those_found(learner, college_db):
    """A learner's fresh probe: "who's good at ML and how good" split off "how good" as a part
    of its own and said it could not answer it, under the line that had: "how good" names the
    level alone, a column of the ask before it."""
    result = learner.answer("who's good at ML and how good")
    assert len(result.sub_questions) == 1 and result.status == "answered", result.answer
    assert same_rows(result.rows, rows_of(college_db, "MATCH (s:Student)-[r:HAS_SKILL]->(:Skill {name: "
                                          "'Machine Learning'}) RETURN s.name, r.level"))


def test_what_someone_would_need_for_a_project_is_what_it_requires(learner, college_db):
    """unseen78 cc013's ask alone: "What skills would someone need for the chatbot project?"
    was refused for "someone": one in general, told what it would need, is no one asked for."""
    assert_answered_with(learner.answer("What skills would someone need for the chatbot project?"),
                         college_db, "MATCH (:Project {name: 'Campus Chatbot'})-[:REQUIRES]->(k:Skill) "
                         "RETURN k.name")


def test_who_to_ask_for_help_in_a_subject_is_a_partner_question(learner):
    """A fresh question: "who would Aarav ask for help with DSA?" went to a query for his
    classmates in DSA, which he does not study, and claimed there is none."""
    result = learner.answer("who would Aarav ask for help with DSA?")
    assert result.sub_questions[0].tool == "study_partners" and result.rows, result.answer


def test_an_answer_read_with_a_name_for_its_pronoun_says_whose(learner):
    """A learner's fresh probe: "Rahul ke dost kaun hain?" (Karan), then "Uske skills kya
    hain?" was answered "Machine Learning aur Python.", Rahul's skills, without saying whose:
    read as Karan's, false. An answer whose pronoun was read as a name says how it was read."""
    learner.answer("Rahul ke dost kaun hain?")
    answer = learner.answer("Uske skills kya hain?").answer
    assert answer.startswith("Rahul ke skills"), answer


@pytest.mark.parametrize("question", ["what includes Trees?", "which topic includes Trees?"])
def test_what_includes_a_named_topic_is_what_it_is_part_of(learner, college_db, question):
    """A learner's fresh probe: "And what includes Trees?" was answered with BST, what Trees
    includes: a name after "includes" is its object."""
    assert_answered_with(learner.answer(question), college_db,
                         "MATCH (c:Concept)-[:INCLUDES]->(:Concept {name: 'Trees'}) RETURN c.name")


@pytest.mark.parametrize("question", [
    "Which subjects have to be done before Computer Networks, including indirect ones?",
    "what are all the prerequisites of Computer Networks, direct and indirect?"])
def test_indirect_is_no_typo_of_direct(learner, question):
    """A learner's fresh probe: "including indirect ones" was read as "direct ones" (a typo
    by two letters) and answered with the one direct prerequisite as the whole list."""
    result = learner.answer(question)
    assert result.status != "answered" or ["DSA"] in result.rows, result.answer


@pytest.mark.parametrize("question", ["which projects are unfinished?", "which projects are incomplete?"])
def test_a_value_word_with_a_not_prefix_is_that_value_negated(learner, college_db, question):
    """"unfinished" and "incomplete" were read as typos of "finished" and "complete" and
    answered with the completed project."""
    assert_answered_with(learner.answer(question), college_db,
                         "MATCH (p:Project) WHERE p.status <> 'Completed' RETURN p.name")


_PART = "MATCH (:Concept {name: '%s'})-[:INCLUDES]->(:Concept {name: '%s'}) RETURN count(*) > 0"
_FIRST = "MATCH (:Concept {name: '%s'})-[:PREREQUISITE_FOR]->(:Concept {name: '%s'}) RETURN count(*) > 0"


@pytest.mark.parametrize("question, reference", [
    ("Is HTTP part of TCP/IP?", _PART % ("TCP/IP", "HTTP")), ("Is BST part of Trees?", _PART % ("Trees", "BST")),
    ("Is Trees part of BST?", _PART % ("BST", "Trees")), ("Does DNS come before HTTP?", _FIRST % ("DNS", "HTTP")),
    ("Does HTTP come before DNS?", _FIRST % ("HTTP", "DNS")),
    ("Does HTTP come after DNS?", _FIRST % ("DNS", "HTTP")),
    ("Does TCP/IP include HTTP?", _PART % ("TCP/IP", "HTTP")),
], ids=["part-of", "part-of-2", "part-of-not", "before", "before-not", "after", "include"])
def test_yes_or_no_of_an_order_or_a_part_reads_the_way_from_the_first(learner, college_db, question, reference):
    """A learner's fresh probe: "Is HTTP part of TCP/IP?" and "Does DNS come before HTTP?" were
    answered "No.": the words of the way were read as said of the first name, as in "what is
    part of §0", when they are said of the second."""
    result = learner.answer(question)
    assert result.status == "answered" and result.rows == rows_of(college_db, reference), result.answer


def test_trees_kis_concept_ka_part_hai_asks_one_way(learner, college_db):
    """A learner's fresh probe: "Trees kis concept ka part hai?" was answered with what Trees is
    part of and what is part of it."""
    assert_answered_with(learner.answer("Trees kis concept ka part hai?"), college_db,
                         "MATCH (c:Concept)-[:INCLUDES]->(:Concept {name: 'Trees'}) RETURN c.name")


def test_adding_up_credits_is_no_change_to_the_data(learner):
    """A learner's fresh probe: "How many credits do Aarav's subjects add up to?" was refused as
    a change to the data ("add")."""
    assert learner.answer("How many credits do Aarav's subjects add up to?").status != "blocked"


def test_an_explanation_asked_after_a_scene_is_the_scenes(learner):
    """unseen78 cc031 (scored on this stop's code before the freeze): the scene describes paging,
    then "Could you find an explanation for her?"; the ask alone, "Could you find an
    explanation?", listed every note from the first: which explanation, only the scene says."""
    result = learner.answer(
        "A student is confused about how memory is chopped into equal-sized blocks and how the system "
        "finds which physical slot each block sits in. Could you find an explanation for her?")
    notes = [str(r[0]) for p in result.sub_questions if p.found for r in p.rows[:1]]
    assert result.status != "answered" or notes == ["N19"], result.answer


# --- unseen80 and unseen81 (final sets of this stop): changed after their scoring ---------------

def test_a_count_by_a_property_is_no_note_question(learner):
    """unseen81 cf030: "Student count by branch." was answered with the note on 2NF (its example
    table has students): a kind's noun before "count" asks the graph to count."""
    result = learner.answer("Student count by branch.")
    assert not any(p.tool == "search_notes" and p.found for p in result.sub_questions), result.answer


@pytest.mark.parametrize("question", ["No. of students taking OS?",
                                      "No. of students taking OS, no. taking DSA, and credits for CN?"])
def test_no_dot_is_a_number_not_the_end_of_a_sentence(learner, college_db, question):
    """unseen81 cf017: "No. of students taking OS, no. taking DSA, and credits for CN?" was cut
    after each "No." and answered with the credits of DSA and CN alone, as if whole; "No. of
    students taking OS?" listed the students, not their number."""
    result = learner.answer(question)
    counts = rows_of(college_db, "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'Operating Systems'}) "
                     "RETURN count(s)")
    assert result.status != "answered" or counts in [p.rows for p in result.sub_questions], result.answer


def test_two_asks_after_a_question_mark_are_not_one_ask_of_both(college_db):
    """unseen79 cd049 on the pipeline, once "kiske paas" was known: "bhai Python kiske paas
    hai? aur SQL kisko aata hai?" was answered "Payal.", who has both: two asks, one query of
    both is wrong; the pipeline refuses, the agentic agent answers each."""
    result = Agent(college_db, OfflineLLM()).answer("bhai Python kiske paas hai? aur SQL kisko aata hai?")
    assert result.status != "answered", result.answer


# --- unseen82 and unseen83 (development sets of this stop) and learner probes 24 and 25 --------

@pytest.mark.parametrize("question", [
    "How is second normal form presented to students in the database course, and what sort of "
    "dependency is it meant to eliminate?",
    "How would you describe, in plain language, what subnetting is and why anyone would bother with it?",
    "Why would anyone bother with subnetting?",
])
def test_a_why_or_a_how_is_never_answered_with_names(learner, question):
    """unseen83 ch001 and a learner's probe: "How is second normal form presented to students in
    the database course?" was answered "Payal and Aarav" and "why anyone would bother with
    Subnetting?" "Sneha and Rahul": a chain from the topic to the students of its subject. Rows
    of names say neither why nor how."""
    result = learner.answer(question)
    listed = [p.question for p in result.sub_questions if p.tool == "text2cypher" and p.found]
    assert not listed, result.answer


def test_a_why_is_never_answered_with_names_by_the_pipeline(college_db):
    """The same question on the pipeline: no query answers why."""
    result = Agent(college_db, OfflineLLM()).answer("Why would anyone bother with subnetting?")
    assert result.status != "answered", result.answer


def test_the_concept_of_a_topic_is_the_topic(learner):
    """unseen82 cg004: "virtual memory ka concept in simple words?" was answered "Operating
    Systems", the subject that covers it: "X ka concept", the concept of X, is X itself."""
    result = learner.answer("virtual memory ka concept in simple words? and what do they mean by thrashing")
    found = [str(p.rows[0][0]) for p in result.sub_questions if p.found and p.rows]
    assert found and set(found) <= {"N20"}, result.answer


def test_a_second_ask_in_hinglish_is_answered_or_said_unanswered(learner, college_db):
    """A learner's probe: "sneha ke friend ka project kaunsa hai, aur woh kin skills maangta
    hai" was answered with the project alone, as if whole: the skills it needs were dropped."""
    result = learner.answer("sneha ke friend ka project kaunsa hai, aur woh kin skills maangta hai")
    skills = rows_of(college_db, "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(:Student)-[:WORKS_ON]->"
                     "(:Project)-[:REQUIRES]->(k:Skill) RETURN DISTINCT k.name")
    answered = [p for p in result.sub_questions if p.found]
    assert result.status != "answered" or any(same_rows(p.rows, skills) for p in answered), result.answer


def test_that_friend_is_never_the_one_whose_friend_it_is(learner, college_db):
    """A learner's probe: after "which subjects do her friends study?" about Sneha, "Which clubs
    is that friend a member of, and since when?" was answered with Sneha's own club."""
    learner.answer("My daughter Sneha has mentioned her friends here; which subjects do her friends study "
                   "(I'd like to know what she might pick up from them)?")
    learner.answer("And does she herself share any of those subjects with them?")
    result = learner.answer("Which clubs is that friend a member of, and since when?")
    own = {r[0] for r in rows_of(college_db,
                                 "MATCH (:Student {name: 'Sneha'})-[:MEMBER_OF]->(c:Club) RETURN c.name")}
    friends = {r[0] for r in rows_of(college_db, "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(:Student)"
                                     "-[:MEMBER_OF]->(c:Club) RETURN c.name")}
    clubs = {str(v) for p in result.sub_questions if p.found for r in p.rows for v in r}
    assert not (clubs & own - friends) and (result.status != "answered" or friends <= clubs), result.answer


def test_their_grades_compared_are_both_grades(learner, college_db):
    """A learner's probe: after "who's better at SQL, aarav or payal", "unke DBMS grades compare
    karo" was answered "A+.", Payal's grade alone, as if it were the comparison."""
    learner.answer("who's better at SQL, aarav or payal")
    result = learner.answer("unke DBMS grades compare karo")
    grades = rows_of(college_db, "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DBMS'}) "
                     "WHERE s.name IN ['Aarav', 'Payal'] RETURN r.grade")
    values = [str(v) for p in result.sub_questions if p.found for r in p.rows for v in r]
    assert result.status != "answered" or all(g[0] in values for g in grades) and len(values) >= 2, result.answer


def test_a_yes_or_no_about_the_graph_is_not_answered_with_a_note(learner):
    """A learner's probe: after a question on deadlocks, "is that taught in the same subject as
    paging" was answered with the note on paging: the question asks yes or no of the subject
    that covers both, which no note says."""
    learner.answer("deadlock hota kaise hai and OS usse handle kaise karta hai")
    result = learner.answer("is that taught in the same subject as paging")
    assert not any(p.tool == "search_notes" and p.found for p in result.sub_questions), result.answer


def test_what_a_subject_opens_up_is_no_note_on_one_of_its_topics(learner):
    """A learner's probe: "what does Operating Systems open up for a student afterwards?" was
    answered with the note on processes: it asks which subject comes after, which no note says."""
    result = learner.answer("Which subject must one finish before taking Operating Systems, and what does "
                            "Operating Systems open up for a student afterwards?")
    assert not any(p.tool == "search_notes" and p.found for p in result.sub_questions), result.answer


def test_subjects_with_grades_keep_the_grades(learner, college_db):
    """A learner's probe: "robotics club president ke subjects with grades batao" was answered
    with the subjects alone: the grades asked for were dropped."""
    result = learner.answer("robotics club president ke subjects with grades batao")
    grades = {r[0] for r in rows_of(college_db, "MATCH (:Club {name: 'Robotics Club'})<-[m:MEMBER_OF]-(:Student)"
                                    "-[r:STUDIES]->(:Subject) WHERE m.role = 'President' RETURN r.grade")}
    values = {str(v) for p in result.sub_questions if p.found for r in p.rows for v in r}
    assert result.status != "answered" or grades <= values, result.answer


def test_a_request_before_a_second_ask_is_answered_not_taken_as_its_topic(learner):
    """unseen82 cg007: "TCP/IP samjhao in simple words, and what smaller topics come under it?"
    was read as one ask about the topic "TCP/IP samjhao in simple words" and answered with the
    subtopics alone, as if whole: the explanation asked for was dropped."""
    result = learner.answer("TCP/IP samjhao in simple words, and what smaller topics come under it?")
    notes = [str(p.rows[0][0]) for p in result.sub_questions if p.found and p.rows]
    assert len(result.sub_questions) >= 2 and "N21" in notes, result.answer


@pytest.mark.parametrize("question", [
    "what is routing in networks, simple words pls, and uske pehle kya padhna chahiye?",
    "what's a tree in data structures, and what should she finish before starting that topic?",
])
def test_a_note_asked_whole_never_hides_a_graph_question(learner, question):
    """unseen82 cg008 and cg028: the order part was refused, then the whole question was asked
    again of the note search, whose note on the topic answered "whole": the order asked for was
    silently dropped."""
    result = learner.answer(question)
    assert len(result.sub_questions) >= 2 and result.sub_questions[-1].tool != "search_notes" or \
        any(not p.found for p in result.sub_questions), result.answer


def test_she_after_parts_that_named_one_person_is_that_person(learner, college_db):
    """unseen83 ch021: "In which clubs is Payal a member, and in what capacity? And on which
    project is she working?": the first part found nothing, so "she" was refused as pointing at
    nothing; Payal is named."""
    result = learner.answer("In which clubs is Payal a member, and in what capacity? And on which project "
                            "is she working?")
    projects = rows_of(college_db, "MATCH (:Student {name: 'Payal'})-[:WORKS_ON]->(p:Project) RETURN p.name")
    assert any(p.found and same_rows(p.rows, projects) for p in result.sub_questions), result.answer


@pytest.mark.parametrize("question", ["which concepts list DFS as a prerequisite?",
                                      "How does the course explain depth-first search, and which concepts "
                                      "list it as a prerequisite?"])
def test_a_topic_listed_as_a_prerequisite_is_the_prerequisite(learner, college_db, question):
    """unseen83 ch025: "which concepts list DFS as a prerequisite?" was read the other way and
    answered "none": "§0 as a prerequisite" makes §0 the prerequisite, whatever the verb."""
    result = learner.answer(question)
    after = rows_of(college_db, "MATCH (:Concept {name: 'DFS'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name")
    assert any(p.found and same_rows(p.rows, after) for p in result.sub_questions), result.answer


@pytest.mark.parametrize("question, reference", [
    ("What grades did Aarav's friends get?",
     "MATCH (:Student {name: 'Aarav'})-[:FRIENDS_WITH]-(f:Student)-[r:STUDIES]->(s:Subject) "
     "RETURN f.name, s.name, r.grade"),
    ("In which clubs is Payal a member, and in what capacity?",
     "MATCH (:Student {name: 'Payal'})-[m:MEMBER_OF]->(c:Club) RETURN c.name, m.role"),
    ("Karan ko Docker kitna aata hai?",
     "MATCH (:Student {name: 'Karan'})-[h:HAS_SKILL]->(:Skill {name: 'Docker'}) RETURN h.level"),
    ("Which skills does the Library Management System project call for?",
     "MATCH (:Project {name: 'Library Management System'})-[:REQUIRES]->(k:Skill) RETURN k.name"),
], ids=["friends-grades", "capacity", "kitna-aata", "call-for"])
def test_fresh_wordings_of_links_and_their_properties(chat, college_db, question, reference):
    """unseen82, unseen83 and a learner's probe: each was refused ("capacity", "kitna aata",
    "call for" unknown; a link property at the end of a chain)."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_statement_before_a_semicolon_is_the_scene_of_the_ask(learner, college_db):
    """A learner's probe: "My daughter Sneha has mentioned her friends here; which subjects do
    her friends study (I'd like to know what she might pick up from them)?" was refused: the
    statement was asked as a part, and the aside, which says why, kept the ask unread."""
    result = learner.answer("My daughter Sneha has mentioned her friends here; which subjects do her friends "
                            "study (I'd like to know what she might pick up from them)?")
    assert_answered_with(result, college_db, "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(:Student)"
                         "-[:STUDIES]->(s:Subject) RETURN DISTINCT s.name")
    assert len(result.sub_questions) == 1, result.answer


# --- learner probes 26 and 27 (a parent in Hinglish; a teaching assistant's exact asks) -------

def test_woh_is_the_one_the_asked_kind_links_to(chat, college_db):
    """A learner's probe: "woh kis club mai hai" after Aarav's grades was read with "woh" as
    Operating Systems, the first subject found, and answered with the clubs of everyone who
    takes it: a person is in a club, so "woh" is Aarav."""
    chat.answer("What grades did Aarav get?")
    assert_answered_with(chat.answer("woh kis club hai"), college_db,
                         "MATCH (:Student {name: 'Aarav'})-[:MEMBER_OF]->(c:Club) RETURN c.name")


@pytest.mark.parametrize("first, then", [
    ("Sneha aur Rahul mai se CN mai kiska grade better hai", "dono ke clubs bata do plz"),
    ("Compare Payal and Rahul: which subjects do they both take?", "And which skills do the two of them share?"),
])
def test_both_with_no_one_to_point_at_is_not_everyone(chat, college_db, first, then):
    """A learner's probe: after a refused comparison, "dono ke clubs bata do plz" listed every
    club, and "which skills do the two of them share?" named a student never mentioned."""
    chat.answer(first)
    result = chat.answer(then)
    every_club = rows_of(college_db, "MATCH (c:Club) RETURN c.name")
    unnamed = {n for (n,) in rows_of(college_db, "MATCH (s:Student) RETURN s.name") if n not in first}
    found = {str(v) for row in result.rows for v in row}
    assert result.status != "answered" or not same_rows(result.rows, every_club) and not found & unnamed, \
        result.answer


@pytest.mark.parametrize("question", [
    "What do I have to learn before BCNF, going all the way back to the start of the chain?",
    "what comes before BCNF, all the way back?",
])
def test_every_step_of_a_chain_is_not_its_first_step(learner, question):
    """A learner's probe: "going all the way back to the start of the chain" was dropped and
    the direct prerequisite alone was the answer, as if it were the chain."""
    result = learner.answer(question)
    assert result.status != "answered" or len({str(r[0]) for r in result.rows}) > 1, result.answer


@pytest.mark.parametrize("question", ["Does Graphs contain BST, even indirectly?",
                                      "Is every subject taken by at least two students?"])
def test_a_yes_or_no_of_the_graph_is_no_note_and_no_list(learner, question):
    """A learner's probe: "Does Graphs contain BST, even indirectly?" was answered with the notes
    on BST and graphs, and "Is every subject taken by at least two students?" with the note on
    2NF (then with the students who take two subjects)."""
    result = learner.answer(question)
    assert result.status != "answered" or result.answer.strip().rstrip(".") in ("Yes", "No"), result.answer


def test_each_one_with_nothing_found_is_no_one(chat):
    """A learner's probe: "what is each one's best grade?" (the two named before went
    unanswered) was answered with the best grade of anyone: Payal's."""
    assert chat.answer("what is each one's best grade?").status != "answered"


def test_the_members_of_a_club_are_all_who_are_in_it(chat, college_db):
    """A learner's probe: "What project roles do members of the Debate Society have?" kept only
    those whose club role is Member: "roles" beside "members" was read as the club role."""
    assert_answered_with(chat.answer("What project roles do members of the Debate Society have?"), college_db,
                         "MATCH (:Club {name: 'Debate Society'})<-[:MEMBER_OF]-(s:Student)-[w:WORKS_ON]->"
                         "(p:Project) RETURN s.name, p.name, w.role")


def test_the_noun_a_hindi_question_word_asks_is_never_filler(learner, college_db):
    """A learner's probe: "sabse kam subjects kis bacche ke hai" (which child has the fewest
    subjects) lost "bacche" as filler and was answered with the subjects fewest students take."""
    result = learner.answer("sabse kam subjects kis bacche ke hai")
    fewest = rows_of(college_db, "MATCH (g:Subject)<-[:STUDIES]-(k:Student) WITH g, count(k) AS n "
                     "WITH min(n) AS m MATCH (g:Subject)<-[:STUDIES]-(k:Student) WITH g, count(k) AS n, m "
                     "WHERE n = m RETURN g.name, n")
    assert not any(same_rows(p.rows, fewest) for p in result.sub_questions if p.found), result.answer


@pytest.mark.parametrize("question", [
    "toh 3NF se pehle kya clear hona chahiye",
    'I gather virtual memory is one of those later topics; what exactly does it mean when a computer starts '
    '"thrashing", put in ordinary words?'])
def test_a_word_of_change_that_changes_nothing_is_no_write(learner, question):
    """A learner's probe: "clear hona chahiye" (must be clear) and "put in ordinary words" were
    refused as requests to change the data."""
    assert learner.answer(question).status != "blocked"


def test_how_many_after_a_count_is_not_the_rows_counted(learner):
    """A learner's probe: "which subject has the most students, and how many is that?" was
    answered "2", the subjects tied, not the students each has."""
    result = learner.answer("And which subject has the most students enrolled in it, and how many is that?")
    assert not any(p.tool == "answer_given" for p in result.sub_questions), result.answer


@pytest.mark.parametrize("question", ["compare Aarav and Payal's DBMS grades",
                                      "compare the years of Sneha and Karan"])
def test_a_comparison_of_two_named_sets_their_values_side_by_side(chat, college_db, question):
    """A learner's probe: "unke DBMS grades compare karo" was answered "A+." (one grade, as if
    the comparison); "compare" now asks a comparison, and each one's value, named, is its data."""
    result = chat.answer(question)
    names = {str(r[0]) for r in result.rows}
    assert result.status == "answered" and len(names) == 2, result.answer


# --- learner probes 28 and 29 (a placement officer's report; a student who missed classes) -----

def test_a_grade_or_better_before_a_filter_is_one_ask(chat, college_db):
    """A learner's probe: "Of those, who earned a grade of A or better in a semester 5 subject?"
    was cut at "or": everyone with an A, then the semester 5 subjects, as two answers."""
    chat.answer("Which students took a subject in semester 5?")
    assert_answered_with(chat.answer("Of those, who earned a grade of A or better in a semester 5 subject?"),
                         college_db, "MATCH (s:Student)-[r:STUDIES]->(:Subject) WHERE r.semester = 5 "
                         "AND r.grade IN ['A+', 'A'] RETURN DISTINCT s.name")


def test_for_each_of_a_kind_is_no_note_question(learner):
    """A learner's probe: "For each student, what is the total number of credits across the
    subjects they study?" was answered with the note on 2NF: "For each student" was read as the
    occasion of the ask, and the ask alone named no kind of the graph."""
    result = learner.answer("For each student, what is the total number of credits across the subjects "
                            "they study?")
    assert not any(p.tool == "search_notes" and p.found for p in result.sub_questions), result.answer


def test_how_many_of_those_with_nothing_found_is_not_counted(chat):
    """A learner's probe: "How many of those have a study note explaining them?" after a refused
    question counted the notes on Graphs, the topic named before: "those" were never found."""
    chat.answer("Which concepts does Graphs include, directly or indirectly?")
    assert chat.answer("How many of those have a study note explaining them?").status != "answered"


def test_one_of_those_found_named_is_the_ask(chat, college_db):
    """A learner's probe: "inme se Paging kis subject ka hai?" after Indexing's prerequisites was
    read with "inme" as Indexing and answered "nothing matches": the subject of both."""
    chat.answer("indexing se pehle kya kya aana chahiye?")
    assert_answered_with(chat.answer("inme se Paging kis subject ka hai?"), college_db,
                         "MATCH (s:Subject)-[:COVERS]->(:Concept {name: 'Paging'}) RETURN s.name")


@pytest.mark.parametrize("question, reference", [
    ("trees ke baad kya aata hai?",
     "MATCH (:Concept {name: 'Trees'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
    ("trees se pehle kya aata hai?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Trees'}) RETURN c.name"),
])
def test_what_comes_after_in_hinglish_is_the_next_topic(chat, college_db, question, reference):
    """A learner's probe: "linked lists ke baad kya aata hai?" was refused: "aata" (comes) was
    read as a skill one knows, a topic a subject covers and a part, all at once."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_slip_in_the_thing_defined_still_names_it(learner):
    """unseen84 ci008 (a final set, read after its scoring): "whats a binary serach tree" was
    refused: the note on BSTs says "search", and a definition's thing must stand in the note.
    One slip of the keyboard ("serach") is still the word; a thing no note names is not."""
    found = [str(p.rows[0][0]) for p in learner.answer("whats a binary serach tree").sub_questions
             if p.found and p.rows]
    assert found[:1] == ["N11"]
    assert learner.answer("what is a red-black tree?").status != "answered"


# --- unseen86 and unseen87 (a student the night before an interview; a parent, Hindi and English)

def _found(result):
    """Each answered part's rows, in order."""
    return [[str(c) for row in p.rows for c in row] for p in result.sub_questions if p.found and p.rows]


@pytest.mark.parametrize("question", [
    "sorry for the wall of text, can you explain what a deadlock is and also which subject covers deadlocks?",
    "silly doubt but explain what a deadlock is and which subject covers deadlocks",
])
def test_words_before_the_first_ask_do_not_hide_the_second(learner, question):
    """unseen86 ck008 and ck042: "sorry long msg, can you explain ... and also which subject
    covers it?" and "basic question but explain ... also which students ...?" were one part,
    refused whole: the words before the first ask hid it, so no second ask was cut off."""
    found = _found(learner.answer(question))
    assert any(rows[:1] == ["N18"] for rows in found) and ["Operating Systems"] in found, found


def test_a_list_in_parentheses_is_no_ask_of_its_own(learner):
    """unseen86 ck008: "(the PCB, the states it moves through etc)" was cut at its comma, and
    the half before it asked as a part."""
    result = learner.answer("can you explain what a thread really is in OS terms (the TCB, what it shares etc) "
                            "and also which subject covers it?")
    assert len(result.sub_questions) == 2 and ["Operating Systems"] in _found(result), result.answer
    assert all("(" not in p.question or ")" in p.question for p in result.sub_questions)


def test_and_then_opens_the_next_ask(learner):
    """unseen86 ck005 and ck032: "explain ... and then what topics ... right after it?" was one
    ask, sent whole to the note search."""
    found = _found(learner.answer("explain 2NF in plain words and then what topic comes right after it?"))
    assert any(rows[:1] == ["N03"] for rows in found) and ["3NF"] in found, found


def test_an_ask_said_again_in_other_words_is_the_same_ask(learner):
    """unseen86 ck032: "... which smaller topics come under graphs? like what does it include"
    was a part of its own, whose "it" pointed at nothing found: refused, and the whole with it."""
    result = learner.answer("which topics fall under trees? i mean what does it contain")
    assert result.status == "answered" and all(p.found for p in result.sub_questions), result.answer
    assert ["BST"] in _found(result)


# --- learner probes 30 and 31 (a hostel warden in Hinglish; a second-year before exams) ---------

@pytest.mark.parametrize("question", ["When is the Operating Systems exam?",
                                      "when is the computer networks exam",
                                      "Who is the DSA teacher?"])
def test_a_thing_the_graph_does_not_hold_is_no_note_on_the_subject_named(learner, question):
    """probe 31: "When is the Operating Systems exam?" was answered with the note on deadlocks,
    whose text says "Operating systems handle deadlocks": the subject's name, not the exam."""
    result = learner.answer(question)
    assert not any(p.tool == "search_notes" and p.found for p in result.sub_questions), result.answer


def _named_students(college_db, answer: str, question: str) -> set[str]:
    """The students an answer names, less those the question names."""
    students = {r[0] for r in college_db.query("MATCH (s:Student) RETURN s.name").result_set}
    return {w for w in re.findall(r"[A-Z][a-z]+", answer) if w in students and w not in question}


def _refused_or_names_only(college_db, result, question: str, reference: str) -> None:
    """Refused, or answered naming exactly the students the reference query returns (less
    those the question names)."""
    expected = {r[0] for r in college_db.query(reference).result_set}
    assert result.status != "answered" or _named_students(college_db, result.answer, question) == expected, \
        result.answer


@pytest.mark.parametrize("question", ["Does Sneha have a friend who studies DBMS?",
                                      "does sneha have any friends that study dbms",
                                      "Which of Sneha friends study DBMS?"])
def test_a_friend_who_does_something_is_a_step_of_the_chain(chat, learner, college_db, question):
    """probe 31: "Do any of them have a friend who studies DBMS?" (Sneha and Rahul) said "No.":
    the query asked whether they study DBMS themselves. Sneha lists Payal, who does. "Which of
    Sneha friends ..." (no apostrophe) lost the friends the same way and said there are none."""
    for agent in (chat, learner):
        _refused_or_names_only(college_db, agent.answer(question), question,
                               "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(f:Student)-[:STUDIES]->"
                               "(:Subject {name: 'DBMS'}) RETURN f.name")


@pytest.mark.parametrize("question", ["kya Aarav ne OS ka prerequisite subject padha hai?",
                                      "Aarav OS padh raha hai, kya usne uska prerequisite subject padha hai?"])
def test_a_yes_or_no_of_named_things_is_not_answered_with_a_list(chat, question):
    """probe 30: "Aarav OS padh raha hai, kya usne uska prerequisite subject padha hai?" was
    answered "DSA.": a list of subjects, read as "yes, he did", for a query that never asked
    whether Aarav studies it (he does not)."""
    result = chat.answer(question)
    assert result.status != "answered" or result.answer.split()[0].strip(".,") in ("Nahi", "No", "Haan", "Yes"), \
        result.answer


def test_how_many_of_the_things_counted_is_not_what_all_of_them_share(learner):
    """probe 31: "How many concepts does each subject cover, and how many of them have notes?"
    said "0 notes": "them" became the four subjects, and the query counted the notes of a concept
    all four cover at once. Every concept but five has one."""
    result = learner.answer("How many concepts does each subject cover, and how many of them have notes?")
    assert not re.search(r"\b0 notes\b", result.answer), result.answer


@pytest.mark.parametrize("question", ["what is that?", "what is this?", "explain that"])
def test_a_pointer_with_nothing_before_it_is_no_note_question(learner, question):
    """Found while reading probe 31's misses: "what is that?" as a first question was answered
    with the note on normalization (its text holds "that"), and "explain that" with the note on
    query optimization (it names SQL's EXPLAIN): a pointer at nothing is no topic to look up."""
    assert learner.answer(question).status != "answered"


def test_that_at_the_end_of_a_follow_up_is_what_was_explained(learner):
    """probe 30: "What is 1NF?" then "Which subject teaches that, and how many credits is it?"
    was refused whole: "that" as the last word pointed at nothing, and "it" at that."""
    learner.answer("What is paging?")
    found = _found(learner.answer("which subject covers that?"))
    assert ["Operating Systems"] in found, found


def test_students_with_a_friend_somewhere_are_not_those_there(chat, college_db):
    """Found while checking probe 31's fix: "which students have a friend in the Debate
    Society?" was answered with the society's own members (the friend dropped)."""
    question = "which students have a friend in the Debate Society?"
    _refused_or_names_only(college_db, chat.answer(question), question,
                           "MATCH (s:Student)-[:FRIENDS_WITH]-(:Student)-[:MEMBER_OF]->"
                           "(:Club {name: 'Debate Society'}) RETURN s.name")


def test_a_hindi_yes_or_no_of_someones_friend_follows_the_friend(chat, college_db):
    """Found while checking probe 30's fix: "kya Rahul ka koi dost Docker jaanta hai?" said
    "Nahi.": the query asked whether Rahul knows Docker. His friend Karan does."""
    question = "kya Rahul ka koi dost Docker jaanta hai?"
    _refused_or_names_only(college_db, chat.answer(question), question,
                           "MATCH (:Student {name: 'Rahul'})-[:FRIENDS_WITH]-(f:Student)-[:HAS_SKILL]->"
                           "(:Skill {name: 'Docker'}) RETURN f.name")


def test_operations_listed_in_parentheses_are_no_request_to_change(learner):
    """Found while writing fresh questions for this stop: "can you tell me what a BST is
    (search, insert, delete etc) and also what it is part of?" was refused as a request to
    change the data: the operations the aside lists are no request."""
    result = learner.answer("can you tell me what a BST is (search, insert, delete etc) "
                            "and also what it is part of?")
    assert result.status != "blocked" and any(rows[:1] == ["N11"] for rows in _found(result)), result.answer
    assert learner.answer("delete Aarav (he left, sadly)").status == "blocked"


@pytest.mark.parametrize("question, reference", [
    ("Does Payal list anyone as a friend?",
     "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]->(f) RETURN f.name"),
    ("who lists Payal as a friend?",
     "MATCH (f:Student)-[:FRIENDS_WITH]->(:Student {name: 'Payal'}) RETURN f.name"),
    ("who does Sneha list as a friend?",
     "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]->(f) RETURN f.name"),
])
def test_who_lists_whom_as_a_friend_follows_the_friendship_as_stored(chat, college_db, question, reference):
    """probe 32: "Does Payal herself list anyone as a friend?" answered "Sneha and Aarav.", who
    list her: the schema stores a friendship one way ("the first student lists the second"),
    and "lists ... as a friend" asks that way. ("Payal's friends" are still both ways.)"""
    result = chat.answer(question)
    expected = {r[0] for r in college_db.query(reference).result_set}
    assert result.status == "answered" and _named_students(college_db, result.answer, question) == expected, \
        result.answer


def test_a_noun_after_have_no_is_no_step_of_a_chain(learner, college_db):
    """unseen88 cm033 (a final set, read after its scoring): "Which concepts have no study note
    explaining them?" failed on this stop's code: "have ... study" was read as a step of a
    chain ("does X have a friend who ..."), though "study note" is a noun and "no" no one's."""
    result = learner.answer("Which concepts have no study note explaining them?")
    found = {r for rows in _found(result) for r in rows}
    none = {r[0] for r in college_db.query(
        "MATCH (c:Concept) WHERE NOT (c)<-[:EXPLAINS]-(:Note) RETURN c.name").result_set}
    assert found == none, found


def test_any_of_those_in_a_second_ask_is_what_the_first_found(learner, college_db):
    """unseen88 cm026 (a final set, read after its scoring): "What skills does the chatbot
    project need, and which students have any of those at Advanced level?" named every student
    with an Advanced skill: "those" was left out of the second ask, not read as the skills."""
    result = learner.answer("Which skills does the Library Management System need, "
                            "and who has any of those at Advanced level?")
    expected = {r[0] for r in college_db.query(
        "MATCH (:Project {name: 'Library Management System'})-[:REQUIRES]->(k:Skill)"
        "<-[h:HAS_SKILL]-(s:Student) WHERE h.level = 'Advanced' RETURN s.name").result_set}
    assert [sorted(expected)] == [sorted(r) for r in _found(result)[1:]], result.answer


def test_an_explanation_asked_for_in_a_sentence_of_its_own_is_an_ask(learner):
    """unseen88 cm018 (a final set, read after its scoring): "Need the explanation of the 'one
    atomic value per column' rule for a DBMS quiz. Also who takes DBMS ...?" answered who takes
    DBMS and left out the explanation without saying so: the first sentence was read as a scene."""
    result = learner.answer("I need an explanation of the rule about partial dependency on part of a "
                            "composite key for my notes. Also which subject teaches it?")
    found = _found(result)
    assert any(rows[:1] == ["N03"] for rows in found) and ["DBMS"] in found, result.answer


def test_it_is_not_one_of_the_values_a_second_part_listed(learner, college_db):
    """probe 33: "what do i need to learn before indexing, and which subjects cover those
    topics" then "and what comes after it?" said "Computer Networks": "it" became Operating
    Systems, the first of the three subjects the answer listed. A label the answer names several
    values of has no one value "it" stands for; here "it" is Indexing, which the question named."""
    learner.answer("what do i need to learn before indexing, and which subjects cover those topics")
    result = learner.answer("and what comes after it?")
    after = [[r[0]] for r in college_db.query(
        "MATCH (:Concept {name: 'Indexing'})-[:PREREQUISITE_FOR]->(c) RETURN c.name").result_set]
    assert result.status != "answered" or _found(result) == after, result.answer


@pytest.mark.parametrize("question", ["Which of Payal's subjects is a prerequisite for a subject Karan studies?",
                                      "which subject that Payal studies is a prerequisite for one that Karan studies?",
                                      "Which of Payal's subjects leads to a subject Karan studies?",
                                      "Which subject that Karan studies has one of Payal's subjects as a prerequisite?"])
def test_two_peoples_subjects_joined_by_a_prerequisite_keep_its_direction(learner, college_db, question):
    """probe 35: "Which of Payal's subjects is a prerequisite for a subject Karan studies?" said
    "there is none", and "which subject that Payal studies is a prerequisite for one that Karan
    studies?" said "Operating Systems". The first query put Karan's subject before Payal's, the
    second put a prerequisite before Payal's too. The subject asked for is the one named first."""
    first, second = ("Payal", "Karan") if question.index("Payal") < question.index("Karan") else ("Karan", "Payal")
    before = "(t)-[:PREREQUISITE_FOR]->(:Subject)<-[:STUDIES]-" if "has one" not in question else \
        "(t)<-[:PREREQUISITE_FOR]-(:Subject)<-[:STUDIES]-"
    reference = (f"MATCH (:Student {{name: '{first}'}})-[:STUDIES]->(t:Subject) "
                 f"MATCH {before}(:Student {{name: '{second}'}}) RETURN DISTINCT t.name")
    result = learner.answer(question)
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


def test_a_fragment_before_a_reason_is_more_of_the_ask(learner, college_db):
    """unseen91 cp048: "who are the club presidents, and of which club? want them to help
    promote the talk" was split in two, and "of which club?" alone was answered with every
    club. Without the reason after it, the one ask was answered right."""
    result = learner.answer("who are the club presidents, and of which club? want them to help promote the talk")
    assert result.status == "answered", result.answer
    clubs = {r[0] for r in college_db.query("MATCH (c:Club) RETURN c.name").result_set}
    led = {r[0] for r in college_db.query(
        "MATCH (:Student)-[:MEMBER_OF {role: 'President'}]->(c:Club) RETURN c.name").result_set}
    assert {c for c in clubs if c in result.answer} == led, result.answer


@pytest.mark.parametrize("question", ["what's the stack needed for the project Rahul is working on?",
                                      "what's the tech stack behind the project Karan works on?"])
def test_the_thing_a_name_says_which_is_not_what_is_asked(learner, college_db, question):
    """unseen91 cp005: "what's the stack needed for the project Rahul is working on?" said
    "Campus Chatbot.", Rahul's own project: the query asked for the projects needing one of its
    skills. "the project Rahul is working on" says which project; what is needed for it is asked."""
    projects = {r[0] for r in college_db.query("MATCH (p:Project) RETURN p.name").result_set}
    result = learner.answer(question)
    assert result.status != "answered" or not any(p in result.answer for p in projects), result.answer


@pytest.mark.parametrize("question, first, then", [
    ("Indexing se pehle jo topics padhne hain, wo kaunse subjects mein padhaye jaate hain?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Indexing'}) RETURN c.name",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Indexing'}) "
     "MATCH (s:Subject)-[:COVERS]->(c) RETURN c.name, s.name"),
    ("Aarav ke jo dost Python jaante hain, wo kaunse clubs mein hain?",
     "MATCH (:Student {name: 'Aarav'})-[:FRIENDS_WITH]-(f:Student)-[:HAS_SKILL]->(:Skill {name: 'Python'}) "
     "RETURN f.name",
     "MATCH (:Student {name: 'Aarav'})-[:FRIENDS_WITH]-(f:Student)-[:HAS_SKILL]->(:Skill {name: 'Python'}) "
     "MATCH (f)-[:MEMBER_OF]->(c:Club) RETURN c.name"),
])
def test_a_hindi_relative_and_its_correlative_are_two_asks(learner, college_db, question, first, then):
    """unseen90 co018: "Indexing se pehle jo topics padhne hain, wo kaunse subjects mein padhaye
    jaate hain?" ("the topics to learn before Indexing: which subjects teach them?") was refused.
    The "jo" clause asks what it describes; "wo" is what it found."""
    result = learner.answer(question)
    assert result.status == "answered", result.answer
    assert [same_rows(p.rows, rows_of(college_db, ref)) for p, ref in zip(result.sub_questions, (first, then))] \
        == [True, True], result.answer


def test_what_is_to_be_studied_is_the_learners_verb_in_the_plural_too(chat, college_db):
    """Found while reading unseen90 co018: "Indexing se pehle kaunse topics padhne hain?" was
    refused, the query leaving out "padhne", while "kya padhna hai" was the learner's verb."""
    result = chat.answer("Indexing se pehle kaunse topics padhne hain?")
    assert_answered_with(result, college_db,
                         "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Indexing'}) RETURN c.name")


def test_a_link_said_right_before_a_name_joins_that_name(learner, college_db):
    """probe 37: "Does anyone who studies Computer Networks also study its direct
    prerequisite?" said "Karan, Sneha and Aarav.": everyone who studies Operating Systems. The
    query reached Computer Networks only through "its prerequisite" and dropped "who studies
    Computer Networks"; only Sneha studies both."""
    _refused_or_names_only(college_db, learner.answer("Does anyone who studies Computer Networks also study its "
                                                      "direct prerequisite?"), "",
                           "MATCH (s:Student)-[:STUDIES]->(c:Subject {name: 'Computer Networks'}) "
                           "MATCH (s)-[:STUDIES]->(:Subject)-[:PREREQUISITE_FOR]->(c) RETURN s.name")


@pytest.mark.parametrize("question, reference", [
    ("Deadlocks khud kis concept ke liye prerequisite hai?",
     "MATCH (:Concept {name: 'Deadlocks'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
    ("Indexing kis concept ke liye prerequisite hai?",
     "MATCH (:Concept {name: 'Indexing'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
])
def test_for_which_one_it_is_a_prerequisite_in_hindi(chat, college_db, question, reference):
    """probe 36: "... aur deadlocks khud kis concept ke liye prerequisite hai?" ("for which
    concept is Deadlocks itself a prerequisite?") said "Threads aur Processes", its own
    prerequisites: "kis ... ke liye" is "for which", the way out of the one named."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Which of Sneha's subjects have a prerequisite subject?",
     "MATCH (:Student {name: 'Sneha'})-[:STUDIES]->(s:Subject) WHERE (s)<-[:PREREQUISITE_FOR]-() RETURN s.name"),
    ("Which subjects that Karan studies have a prerequisite?",
     "MATCH (:Student {name: 'Karan'})-[:STUDIES]->(s:Subject) WHERE (s)<-[:PREREQUISITE_FOR]-() RETURN s.name"),
])
def test_what_the_asked_things_have_is_a_condition_not_a_step(chat, college_db, question, reference):
    """probe 36: "Which of her subjects have a prerequisite subject?" (Sneha) said "Operating
    Systems and DSA": the prerequisites of her subjects, as if they were hers. Both of hers
    have one."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_role_the_asked_things_have_is_not_the_named_ones(chat, college_db):
    """Found while checking probe 36's fix: "Which of Payal's clubs have a president?" said
    there is none: the query asked in which of her clubs Payal is the president."""
    result = chat.answer("Which of Payal's clubs have a president?")
    reference = ("MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club)<-[:MEMBER_OF {role: 'President'}]-() "
                 "RETURN DISTINCT c.name")
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


def test_kiske_paas_asks_for_people(chat, college_db):
    """probe 36: "Sabse zyada skills kiske paas hain?" ("who has the most skills?") said "SQL
    (2 students), ...": the skills most people have. "kiske paas" asks who; "DBMS kisko aata
    hai?" was answered with the concepts DBMS covers."""
    result = chat.answer("Sabse zyada skills kiske paas hain?")
    reference = ("MATCH (s:Student)-[:HAS_SKILL]->(k) WITH s, count(k) AS n WITH collect([s.name, n]) AS all, "
                 "max(n) AS top UNWIND all AS p WITH p, top WHERE p[1] = top RETURN p[0], p[1]")
    assert_answered_with(result, college_db, reference)
    concepts = {r[0] for r in college_db.query("MATCH (c:Concept) RETURN c.name").result_set}
    result = chat.answer("DBMS kisko aata hai?")
    assert result.status != "answered" or not any(c in result.answer for c in concepts), result.answer


def test_is_anyone_is_no_pointer_to_someone_before(chat):
    """probe 37: after "Which skills does the Campus Chatbot need that Rahul doesn't have?",
    "Is anyone working on the Attendance Tracker who has the skill it requires?" said there is
    none, for Rahul: "is anyone" was read as Hindi's "is" ("this") before a person."""
    chat.answer("Which skills does the Campus Chatbot need that Rahul doesn't have?")
    result = chat.answer("Is anyone working on the Attendance Tracker who has the skill it requires?")
    assert "Rahul" not in result.answer, result.answer
    chat.answer("Which club is Rahul in?")
    result = chat.answer("Is anyone in Coding Club?")
    assert result.status == "answered" and "Rahul" not in result.answer, result.answer


def test_all_of_them_is_every_one_at_once(chat, college_db):
    """probe 37: "Does any student study all of those subjects?" (three subjects found) listed
    the students of each: "all of them" asks of every one at once."""
    chat.answer("Which subjects does Aarav study?")
    result = chat.answer("Who studies all of them?")
    reference = ("MATCH (:Student {name: 'Aarav'})-[:STUDIES]->(s:Subject) WITH collect(s.name) AS his "
                 "MATCH (t:Student)-[:STUDIES]->(x:Subject) WITH t, his, collect(x.name) AS theirs "
                 "WHERE all(n IN his WHERE n IN theirs) RETURN t.name")
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("choice", ["Of those, who also studies Operating Systems?",
                                    "Out of them, which one also studies Operating Systems?"])
def test_a_choice_put_in_front_still_chooses_among_those_found(learner, college_db, choice):
    """probe 38: after "Which students study a subject that is a prerequisite for Operating
    Systems?" (Karan, Rahul and Payal), "Of those, who also studies Operating Systems?" said
    "Karan, Sneha and Aarav.": "Of those," was read as words that ask nothing, and dropped."""
    learner.answer("Which students study a subject that is a prerequisite for Operating Systems?")
    result = learner.answer(choice)
    reference = ("MATCH (s:Student)-[:STUDIES]->(:Subject)-[:PREREQUISITE_FOR]->(o:Subject {name: 'Operating Systems'}) "
                 "MATCH (s)-[:STUDIES]->(o) RETURN DISTINCT s.name")
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


def test_a_count_of_the_graphs_links_is_no_note_question(learner):
    """probe 38: "How many friendship links are there in total, and who appears in the most of
    them?" was answered with the note on graphs, which says that students who are friends make
    one. A count of the graph's links is asked of the graph."""
    result = learner.answer("How many friendship links are there in total, and who appears in the most of them?")
    assert "N12" not in result.answer and "vertices" not in result.answer, result.answer


def test_what_is_it_called_points_at_nothing_before(learner):
    """probe 38: after a question on indexes, "What is it called when a system spends most of
    its time moving pages between RAM and disk?" was read as "What is Indexing called when ...":
    the "it" of "what is it called" and an "its" after "a system" name what the question
    brings in itself. The note on virtual memory (thrashing) answers it."""
    learner.answer("Which note explains why having an index makes inserts and updates slower?")
    result = learner.answer("What is it called when a system spends most of its time moving pages between RAM "
                            "and disk?")
    assert "Indexing" not in result.answer, result.answer
    assert result.status != "answered" or "N20" in str(result.rows[:1]), result.answer


def test_a_pointer_the_query_read_as_a_name_is_said(learner):
    """probe 38: "Which concept must come before that topic, and which subject teaches it?"
    was answered for a topic two questions back, and the answer never said which. A part
    whose query fixed a name its words only point at says the name."""
    learner.answer("What is Indexing?")
    learner.answer("Who studies DBMS?")
    result = learner.answer("Which concept must come before that topic, and which subject teaches it?")
    first = result.answer.splitlines()[0]
    assert result.status != "answered" or "(Indexing)" in first or "Indexing?" in first, result.answer


def test_a_fragment_of_a_compound_is_no_word_the_rules_know(chat, college_db):
    """probe 40: "which sub has the most concepts" ranked the concepts by their students:
    "sub" passed as known, being written in "sub-topics", and the subjects were never asked.
    "sub" alone is now a subject (texting shorthand); in "sub-topics" it is no word of its own."""
    result = chat.answer("which sub has the most concepts")
    assert result.status != "answered" or "DBMS" in result.answer, result.answer
    # (a prefix the words join to a noun is still known there: "sub-concepts", "sub-topics")
    assert_answered_with(chat.answer("What are the sub-concepts directly under Graphs?"), college_db,
                         "MATCH (:Concept {name: 'Graphs'})-[:INCLUDES]->(c:Concept) RETURN c.name")


def test_its_after_as_is_the_one_that_has_it(learner, college_db):
    """probe 41: after "And what does Trees include?", "Which topic has DNS as one of its
    parts?" said there is none: "its" became Trees, and the query asked for DNS's own parts.
    "§0 as one of its parts" is a part of the one asked for."""
    learner.answer("And what does Trees include?")
    result = learner.answer("Which topic has DNS as one of its parts?")
    assert_answered_with(result, college_db,
                         "MATCH (c:Concept)-[:INCLUDES]->(:Concept {name: 'DNS'}) RETURN c.name")


def test_those_two_of_three_found_is_no_reading(learner):
    """Found while checking probe 41: after "Which students study DSA?" (three students), "Do
    those two know Python?" said "No.", for all three at once."""
    learner.answer("Which students study DSA?")
    result = learner.answer("Do those two know Python?")
    assert result.status != "answered", result.answer


def test_a_yes_or_no_of_two_found_is_no_note_question(learner):
    """probe 41: "Are those two friends with each other?" (Sneha and Rahul) was answered with
    the note on graphs, which speaks of students who are friends."""
    learner.answer("Which students study Computer Networks?")
    result = learner.answer("Are those two friends with each other?")
    assert "N12" not in result.answer and "vertices" not in result.answer, result.answer


def test_each_of_several_topics_is_explained_from_its_own_note(learner):
    """probe 40: "wht should i learn right before deadlocks, explain them from the notes" gave
    Threads and Processes, then explained Threads alone, as if that were all. Each value after
    "each of" gets its own note search."""
    result = learner.answer("wht should i learn right before deadlocks, explain them from the notes")
    assert "N17" in result.answer and "N16" in result.answer, result.answer


@pytest.mark.parametrize("question, reference", [
    ("who got an A plus",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject) WHERE r.grade = 'A+' RETURN DISTINCT s.name"),
    ("who got a b plus in computer networks",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'Computer Networks'}) WHERE r.grade = 'B+' "
     "RETURN DISTINCT s.name"),
], ids=["capital-letter", "in-a-subject"])
def test_a_grade_said_aloud_is_one_value(chat, college_db, question, reference):
    """unseen94: "who got a b plus ..." asked for B+ or B; "an A plus" asked for A alone: the
    letter inside the value said aloud was read as a value of its own."""
    result = chat.answer(question)
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


def test_plus_after_a_grade_joins_no_asks(learner, college_db):
    """unseen94 cs037: "who got a b plus in something and in which subject" was split at
    "plus": "who got a b" (B students) and "in something and in which subject" (every subject)."""
    result = learner.answer("who got a b plus in something and in which subject")
    reference = "MATCH (s:Student)-[r:STUDIES]->(x:Subject) WHERE r.grade = 'B+' RETURN s.name, x.name"
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer
    assert "who got a b:" not in result.answer, result.answer


@pytest.mark.parametrize("question", [
    "which projects are still going on like not finished yet but already started",
    "which projects have started but are not finished?",
    "which projects are not completed but already started?"])
def test_a_not_turns_only_the_word_it_stands_by(chat, college_db, question):
    """unseen94 cs033: "not finished yet but already started" asked for neither finished nor
    started projects, and answered with the one still planned: the "not" turned "started" too."""
    result = chat.answer(question)
    reference = "MATCH (p:Project {status: 'In Progress'}) RETURN p.name"
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, note", [
    ("Our table repeats the department name on every student row and it depends on the department id, "
     "not the key. Which principle is that breaking?", "N04"),
    ("My table keeps repeating groups of values inside one column. Which rule does that break?", "N02"),
])
def test_which_rule_asks_for_the_idea_the_note_explains(learner, question, note):
    """unseen92-95 (co019, cp049, cs012, ct024): "which rule does it break" was refused: the
    1NF note never says "rule", and a note had to name what a "which" asks for. A rule, a
    principle, a technique is the note's topic itself."""
    result = learner.answer(question)
    assert result.status == "answered" and f"note {note}" in result.answer, result.answer


@pytest.mark.parametrize("question, concept", [
    ("Routing has some prerequisite concepts. Which subjects cover those concepts?", "Routing"),
    ("I have to learn some topics before Deadlocks. Which subjects teach those topics?", "Deadlocks"),
])
def test_those_after_the_questions_own_noun_points_inside_it(learner, college_db, question, concept):
    """unseen94 cs040, unseen95 ct031: "... some topics ... Which subjects teach those topics?"
    was refused: "those topics" looked for topics an answer before had found, not the ones the
    sentence before it describes."""
    result = learner.answer(question)
    reference = (f"MATCH (:Concept {{name: '{concept}'}})<-[:PREREQUISITE_FOR]-(:Concept)<-[:COVERS]-(s:Subject) "
                 "RETURN DISTINCT s.name")
    assert_answered_with(result, college_db, reference)


def test_a_spoken_filler_after_and_still_starts_an_ask(learner, college_db):
    """unseen94 cs018, cs022: "what clubs is payal in and like whats her role in each one and
    also who are her friends" read "... in and like whats her role in each one" as one ask,
    and refused it: "like" after "and" hid the question word."""
    result = learner.answer("what clubs does Payal belong to and like what role does she have in each")
    assert result.status == "answered" and len(result.sub_questions) == 2, result.answer
    reference = "MATCH (:Student {name: 'Payal'})-[m:MEMBER_OF]->(c:Club) RETURN m.role"
    assert sorted(row[-1] for row in result.sub_questions[1].rows) == \
        sorted(row[0] for row in rows_of(college_db, reference)), result.answer


def test_who_else_in_a_later_part_sets_apart_the_one_asked_about(learner, college_db):
    """unseen94 cs028: "what grade did aarav get in dbms ... and who else is doing dbms" refused
    its last part: a part that names its subject (DBMS) was never rewritten, so "else" had no
    one to set apart."""
    result = learner.answer("what did Karan score in DSA, and who else studies DSA?")
    reference = "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) WHERE s.name <> 'Karan' RETURN s.name"
    last = result.sub_questions[-1]
    assert result.status == "answered" and same_rows(last.rows, rows_of(college_db, reference)), result.answer
    assert "Karan" not in last.answer, result.answer


def test_an_ask_said_again_after_like_is_asked_once(learner, college_db):
    """unseen94 cs038: "um what do i need to know before deadlocks like which topics come
    first" was refused: "like which topics come first" says the ask again, and its "first"
    was read as a rank the query left out."""
    result = learner.answer("what should i study before paging, like which concepts come first?")
    assert_answered_with(result, college_db,
                         "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Paging'}) RETURN c.name")


@pytest.mark.parametrize("question", [
    "ok so the sorted tree thing where small keys go to the left, why does a search get slow sometimes "
    "and which subject teaches that",
    "that traversal which visits neighbours level by level using a queue, how does it find shortest paths "
    "and also which subject covers it"])
def test_a_later_part_points_at_the_topic_of_the_note_found(learner, college_db, question):
    """unseen94 cs017: "um so the binary tree where smaller stuff goes left ... why is search like
    log n sometimes ... and also which course even teaches that" was one ask, and refused: the
    question word came after the scene. Split, "that" stood for Trees, a word of the scene, not
    for BST, the topic of the note that answered."""
    result = learner.answer(question)
    note_part, graph_part = result.sub_questions[0], result.sub_questions[-1]
    assert note_part.tool == "search_notes" and note_part.found, result.answer
    topic = college_db.run("MATCH (:Note {id: $id})-[:EXPLAINS]->(c:Concept) RETURN c.name",
                           {"id": note_part.rows[0][0]}).rows[0][0]
    reference = f"MATCH (s:Subject)-[:COVERS]->(:Concept {{name: '{topic}'}}) RETURN s.name"
    assert same_rows(graph_part.rows, rows_of(college_db, reference)) and graph_part.rows, result.answer


@pytest.mark.parametrize("question, project", [
    ("Attendance Tracker is planned or already started?", "Attendance Tracker"),
    ("the campus chatbot, is it done or still ongoing?", "Campus Chatbot")])
def test_a_choice_between_values_is_answered_by_the_value(chat, college_db, question, project):
    """unseen95 ct029: "Library Management System project is finished or still going on?" was
    refused: the query returns the status, and the rules wanted a filter for each value named."""
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    status = college_db.run("MATCH (p:Project {name: $name}) RETURN p.status", {"name": project}).rows[0][0]
    assert status in result.answer, result.answer


@pytest.mark.parametrize("question", [
    "which of the subjects Karan studies is a prerequisite for another subject?",
    "are any of the subjects Karan studies a prerequisite for another subject?"])
def test_being_a_prerequisite_for_another_is_a_condition_on_the_asked(learner, college_db, question):
    """probe 42: "um are any of the subjects she studies a prerequisite for another subject?"
    (Sneha) answered "Computer Networks": the subject hers lead to, not hers that lead on."""
    result = learner.answer(question)
    reference = ("MATCH (:Student {name: 'Karan'})-[:STUDIES]->(s:Subject)-[:PREREQUISITE_FOR]->(:Subject) "
                 "RETURN DISTINCT s.name")
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


def test_an_ask_said_again_ends_where_its_clause_does(learner, college_db):
    """probe 42: "um what's under Graphs, like what does it include, and also what does Trees
    include?" answered for Graphs alone: the ask said again after "like" took the next ask with it."""
    result = learner.answer("what's inside Trees, like what does it include, and also what does Graphs include?")
    reference = "MATCH (:Concept {name: 'Graphs'})-[:INCLUDES]->(c:Concept) RETURN c.name"
    assert same_rows(result.sub_questions[-1].rows, rows_of(college_db, reference)), result.answer


def test_what_a_short_form_needs_before_it_is_no_note_question(learner):
    """probe 42: "what does DP need before it, like both of them or whatever?" was answered with
    the note on dynamic programming, which says nothing of what comes before it: "DP" was not
    read as the name whose link is asked."""
    result = learner.answer("what does DP need before it, like any of them?")
    assert "N15" not in result.answer, result.answer


def test_a_part_that_names_only_the_thing_before_is_not_answered_alone(learner):
    """data/eval x004 ("In a network of friends, how do I find the fewest hops between two
    people, and what data structure should the search use?"), once split: after a part that
    found nothing, a part that names nothing of its own but "the" thing before it was answered
    from the note its few words were nearest (indexes), not the one the question is about."""
    result = learner.answer("Among classmates, how do I find the fewest introductions linking two people, "
                            "and what data structure should the search use?")
    assert not any(s.found for s in result.sub_questions), result.answer



def test_rows_of_each_value_found_are_said_under_it(learner, college_db):
    """probe 43: "What are the prerequisites of Firewalls, and what are the prerequisites of
    those?" said "Routing (Subnetting), Routing (Graphs) and TCP/IP (OSI Model)", which reads as
    Routing twice with a detail each, the wrong way round for "what comes before". Checking it
    found "what comes after each of ..." read with no direction: what comes before them too."""
    result = learner.answer("what comes after Arrays, and what comes after each of those?")
    last = result.sub_questions[-1]
    reference = ("MATCH (:Concept {name: 'Arrays'})-[:PREREQUISITE_FOR]->(x:Concept)"
                 "-[:PREREQUISITE_FOR]->(c:Concept) RETURN x.name, c.name")
    assert same_rows(last.rows, rows_of(college_db, reference)), result.answer
    assert "Linked Lists: " in last.answer and "Linked Lists (" not in last.answer, result.answer


def test_a_property_of_a_pointer_is_never_a_note_question(learner):
    """probe 45: "What's its status?" after two refused turns was answered with the note on HTTP
    (its status codes): "its" stood for nothing found, and the note search read "status"."""
    learner.answer("Are both of them working on the same project?")
    result = learner.answer("What's its status?")
    assert "N22" not in result.answer and "HTTP" not in result.answer, result.answer


def test_who_else_with_me_sets_apart_the_one_asking(learner, college_db):
    """data/eval al015: "hey I'm Aarav, ... who else takes DBMS with me?", asked of everyone
    once "else" was read, listed Aarav himself."""
    result = learner.answer("hi, I'm Karan, making a revision group - who else studies DSA with me?")
    reference = "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) WHERE s.name <> 'Karan' RETURN s.name"
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


def test_a_fragment_after_a_part_that_found_nothing_is_not_every_one(learner, college_db):
    """unseen97 cv049 ("Coding Club ka squad kya hai? members list"), cv013, cv017, cv029: after
    a part that found nothing, a part that names nothing of its own ("members list", "project
    ka status kya hai", "kaunse clubs") was asked alone and answered with every student, every
    project, every club: not the ones the ask before meant. (Since stop 41 a part that names
    nothing keeps the scope of a part that found nothing: the Robotics Club's members, or none.)"""
    result = learner.answer("Who runs the tuck shop for the Robotics Club? and the member list")
    members = rows_of(college_db, "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN s.name")
    assert all(same_rows(s.rows, members) for s in result.sub_questions if s.found), result.answer


@pytest.mark.parametrize("question", ["in the graph who is friends with Payal?",
                                      "In our college data, who all are friends with Payal?"])
def test_the_graph_named_before_the_question_word_is_the_graph_itself(chat, college_db, question):
    """Noticed at the end of stop 35 (unseen95 ct044's "And in our college data who all are
    friends with Payal?"): "in the graph" before the question read "graph" as the topic Graphs,
    and the answer said there is no one; "in our college data" was refused for "data"."""
    reference = "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(s:Student) RETURN DISTINCT s.name"
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("who got an A+ and in which subject, plus who got a B?",
     "MATCH (s:Student)-[r:STUDIES]->(t:Subject) WHERE r.grade = 'A+' RETURN s.name, t.name"),
    ("who joined a club in 2023 and in which club, and who joined in 2022?",
     "MATCH (s:Student)-[r:MEMBER_OF]->(c:Club) WHERE r.since = 2023 RETURN s.name, c.name"),
])
def test_a_fragment_between_two_asks_is_more_of_the_ask_before(learner, college_db, question, reference):
    """Noticed at the end of stop 35: with a third ask after it, "and in which subject" was split
    off as an ask of its own and answered with every subject, after the part before had found
    Payal; with no third ask it was read as Payal's subject."""
    first = learner.answer(question).sub_questions[0]
    assert first.found and same_rows(first.rows, rows_of(college_db, reference)), first.answer


@pytest.mark.parametrize("question", [
    "What subjects does Karan take, which club is in?",
    "Karan kaunse subjects padhta h, kaunse club me h",
])
def test_a_later_ask_with_no_subject_of_its_own_is_asked_of_the_one_before(learner, college_db, question):
    """unseen99 cx024 ("Sneha kaunse subjects le rahi h, kaunse club me h aur kaunse project
    pe"): the later asks say no one ("kaunse club me h") and were answered with every club and
    every project; they are asked of the one the ask before was about."""
    second = learner.answer(question).sub_questions[-1]
    reference = "MATCH (:Student {name: 'Karan'})-[:MEMBER_OF]->(c:Club) RETURN c.name"
    assert second.found and same_rows(second.rows, rows_of(college_db, reference)), second.answer


@pytest.mark.parametrize("question, reference", [
    ("DSA ke baad kaunsa subject aata h?",
     "MATCH (:Subject {name: 'DSA'})-[:PREREQUISITE_FOR]->(s:Subject) RETURN s.name"),
    ("Computer Networks se pehle kaunsa subject aata hai?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) RETURN s.name"),
])
def test_what_comes_after_in_hinglish_is_the_next_subject(chat, college_db, question, reference):
    """unseen99 cx026 ("OS ke baad kaunsa subject aata h"): "aata" (comes) was read as a word of
    a skill or a topic, which the query left out, and the part was refused; "ke baad kya aata
    hai" was already read."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, word", [("how do I avoid it?", "it"),
                                            ("what problem does this solve?", "this"),
                                            ("why is that so slow?", "that")])
def test_a_pointer_with_nothing_before_it_is_asked_about_not_looked_up(learner, question, word):
    """Noticed in stop 36: at the start of a chat, "what problem does it solve?" got the note on
    dynamic programming, "how do I avoid it?" the note on threads and "why is that slow?" the
    note on indexes, from the other words alone: "it" and "that" point at nothing said."""
    result = learner.answer(question)
    assert result.status != "answered" and f'"{word}"' in result.answer, result.answer


@pytest.mark.parametrize("first, then, note", [("What is paging?", "what problem does this solve?", "N19"),
                                               ("What is a deadlock?", "how does that happen?", "N18")])
def test_this_or_that_after_a_topic_is_that_topic(learner, first, then, note):
    """Noticed in stop 36: "what is paging?" then "what problem does this solve?" got the note
    on dynamic programming: "it" was read as paging, "this" and "that" before a verb were not."""
    learner.answer(first)
    result = learner.answer(then)
    found = [s for s in result.sub_questions if s.found]
    assert result.status == "answered" and [str(s.rows[0][0]) for s in found] == [note], result.answer


def test_two_owners_of_one_property_are_answered_when_each_row_says_whose(learner, college_db):
    """Probe 47 in stop 36: "Compare Aarav's and Payal's grades in DBMS." found both grades by
    name, then threw them away as a chain of several owners ("A's and B's friends", where the
    rows would not say whose), and ended "failed"."""
    result = learner.answer("Compare Sneha's and Karan's grades in Operating Systems.")
    reference = ("MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'Operating Systems'}) "
                 "WHERE s.name IN ['Sneha', 'Karan'] RETURN s.name, r.grade")
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question, kind", [
    ("Do Rahul and Karan share a club?", "Club"),
    ("What subjects do Karan and Sneha have in common?", "Subject"),
])
def test_what_two_people_share_of_a_kind_is_that_kind(chat, college_db, question, kind):
    """Probe 47 in stop 36: "Does Aarav share any subject with her?" (her: Sneha) listed everyone
    Aarav shares a subject with; asked of two named people, "share" was no cue for what they
    have in common, and "what subjects ... in common" was refused for listing every kind."""
    a, b = re.findall(r"(Rahul|Karan|Sneha)", question)
    link = {"Club": "MEMBER_OF", "Subject": "STUDIES"}[kind]
    reference = (f"MATCH (:Student {{name: '{a}'}})-[:{link}]->(x:{kind})<-[:{link}]-(:Student {{name: '{b}'}}) "
                 "RETURN x.name")
    result = chat.answer(question)
    assert result.status == "answered"
    assert [r[0] for r in result.rows] == [r[0] for r in rows_of(college_db, reference)], result.answer


def test_him_after_a_named_person_is_the_one_said_before(learner, college_db):
    """Probe 47 in stop 36: an object pronoun is never the one its own clause names ("does Aarav
    share a subject with her?" is not Aarav and her): it is the person the chat spoke of."""
    learner.answer("Who is Karan?")
    result = learner.answer("Does Rahul share a club with him?")
    reference = ("MATCH (:Student {name: 'Rahul'})-[:MEMBER_OF]->(c:Club)"
                 "<-[:MEMBER_OF]-(:Student {name: 'Karan'}) RETURN c.name")
    assert result.status == "answered"
    assert [r[0] for r in result.rows] == [r[0] for r in rows_of(college_db, reference)], result.answer


@pytest.mark.parametrize("question, reference", [
    ("saare clubs kab bane?", "MATCH (c:Club) RETURN c.name, c.founded"),
    ("Library Management System wala project kahan tak pahuncha?",
     "MATCH (p:Project {name: 'Library Management System'}) RETURN p.name, p.status"),
    ("which topics need Trees learned first?",
     "MATCH (:Concept {name: 'Trees'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
    ("what should I understand before Paging?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Paging'}) RETURN c.name"),
])
def test_everyday_words_for_founding_progress_and_order_are_read(chat, college_db, question, reference):
    """unseen99 (cx033 "kaha tak pahucha", cx036 "kab bane"), unseen98 cw025 ("which topics need
    that one learned first?") and cx021 ("samajhne se pehle"): each was refused for a word the
    rules did not know in that use."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, names", [("Payal kahan hai aur kya padhti hai?", ["Payal"]),
                                             ("Library Management System kahan tak pahuncha?",
                                              ["Library Management System"])])
def test_a_word_of_the_language_is_never_a_typo_of_a_name(college_db, question, names):
    """Found in stop 36: "kahan" (where) was linked to Karan as a typo (four of five letters
    alike), and "... kahan tak pahuncha?" was read as a question about Karan too."""
    assert [m.value for m in link_entities(college_db, question)] == names


@pytest.mark.parametrize("question", ["linked list me beech me node daalna fast kyu hota h?",
                                      "maine ek cell me do emails daal diye, ye kyu galat h?"])
def test_kyu_about_a_change_is_a_question_not_a_request(learner, question):
    """unseen99 cx007, cx027 ("... daal diye to sir bole galat h, kyu galat h", "array me beech
    me element daalna slow kyu h"): "kyu" (why) was no word of "why", so the questions were
    refused as requests to change the data."""
    assert learner.answer(question).status != "blocked"


def test_kitna_time_lagta_asks_how_long_not_what_is_needed(learner):
    """unseen99 cx013 ("... usme search karne me kitna time lagta h bhai"): "lagta" after
    "time" is how long a thing takes, not what a project needs, so the question was read as
    asking for graph nodes and the note that answers it was never asked."""
    result = learner.answer("array me koi bhi element padhne me kitna time lagta h?")
    assert [str(s.rows[0][0]) for s in result.sub_questions if s.found] == ["N09"], result.answer


@pytest.mark.parametrize("question, note", [("Which note talks about OSPF?", "N24"),
                                            ("Which concept's note mentions memoization?", "N15")])
def test_which_note_mentions_a_word_is_the_note_that_holds_it(learner, question, note):
    """Probes 46 and 47 in stop 36: "Which note mentions Dijkstra?", "Which topic's note uses
    the knapsack problem as an example?" were refused: the nearest note in meaning had to clear
    the bar, and a topic no note explains (Dijkstra's algorithm) was nearer still."""
    result = learner.answer(question)
    assert [str(s.rows[0][0]) for s in result.sub_questions if s.found] == [note], result.answer


def test_which_note_mentions_a_word_several_notes_hold_is_not_one_of_them(learner):
    result = learner.answer("Which note mentions tables?")
    assert not any(s.found and s.tool == "search_notes" for s in result.sub_questions), result.answer


@pytest.mark.parametrize("question", ["Which two notes mention O(V + E) time?",
                                      "Which notes mention a routing table?"])
def test_a_verb_dropped_as_filler_leaves_no_listing_of_every_note(learner, question):
    """Probe 48 in stop 36: "mentions" was dropped as a word that means nothing there, and
    "Which two notes O(V and E) time?" listed every note ("+" inside the parentheses was read
    as "and" too). A guard: the code before this stop refused both; a listing of every note
    answers neither."""
    found = [s for s in learner.answer(question).sub_questions if s.found and s.tool == "text2cypher"]
    assert all(len(s.rows) <= 2 for s in found), [s.rows for s in found]


def test_in_what_kind_of_thing_is_more_of_the_ask_before(learner):
    """Probe 48 in stop 36: "Which note says BFS finds shortest paths, and in what kind of
    graph?" asked "in what kind of graph?" alone and got the general note on graphs: a phrase
    of a vague kind ("what kind of", "what sort of") is one word of the fragment."""
    result = learner.answer("Which note says searching a BST is fast, and in what kind of tree?")
    assert [str(s.rows[0][0]) for s in result.sub_questions if s.found] == ["N11"], result.answer


@pytest.mark.parametrize("question, reference", [
    ("What should I go on to study after Linked Lists?",
     "MATCH (:Concept {name: 'Linked Lists'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
    ("which topics does one move on to learn after 3NF?",
     "MATCH (:Concept {name: '3NF'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
])
def test_a_learners_verb_between_two_words_of_a_step_is_one_step(chat, college_db, question, reference):
    """unseen100 cy020, after the final scoring ("which topics one should go on to learn after
    it?" of paging): "go on to" and "after" were read as two steps, and the topics two steps on
    were given as the ones after paging."""
    assert_answered_with(chat.answer(question), college_db, reference)


# --- stop 37: the development sets unseen102 and unseen103 -------------------------------------

@pytest.mark.parametrize("question, reference", [
    ("Payal friends study which subjects?",
     "MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(:Student)-[:STUDIES]->(s:Subject) "
     "RETURN DISTINCT s.name"),
    ("Which clubs are Sneha friends in?",
     "MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(:Student)-[:MEMBER_OF]->(c:Club) RETURN DISTINCT c.name"),
    ("Robotics Club members have which skills?",
     "MATCH (:Club {name: 'Robotics Club'})<-[:MEMBER_OF]-(:Student)-[:HAS_SKILL]->(k:Skill) "
     "RETURN DISTINCT k.name"),
])
def test_a_name_right_before_a_links_noun_owns_it(chat, college_db, question, reference):
    """unseen103 db043 ("Aarav friends are in which clubs da"): with no "'s", the friends were
    dropped and Aarav's own club was given, confidently. A name right before a noun that is a
    link's word ("friends", "members") owns it, as "Aarav's friends" does."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question", ["Is Payal friends with Sneha?", "Are Payal and Sneha friends?"])
def test_friends_as_a_predicate_is_no_owned_noun(chat, question):
    """A guard for the rule above: "friends with" and "... friends?" at the end say two people
    are friends, and stay yes-or-no questions."""
    result = chat.answer(question)
    assert result.status == "answered" and result.rows == [[True]], (result.answer, result.rows)


@pytest.mark.parametrize("question, reference", [
    ("anybody got a B in any subject?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject) WHERE r.grade = 'B' RETURN DISTINCT s.name"),
    ("somebody has the Docker skill?",
     "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Docker'}) RETURN DISTINCT s.name"),
])
def test_anybody_and_somebody_ask_for_people(chat, college_db, question, reference):
    """unseen103 db017 ("anybody got A+ in any subject?"): "anybody" was no word for a person,
    so the subject was taken as the kind asked and "DBMS." was the answer."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, references", [
    ("robotics club started which year and who is president there",
     ["MATCH (c:Club {name: 'Robotics Club'}) RETURN c.name, c.founded",
      "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Robotics Club'}) WHERE r.role = 'President' "
      "RETURN s.name"]),
    ("sneha is which year, which club she is in, and what project she doing",
     ["MATCH (s:Student {name: 'Sneha'}) RETURN s.name, s.year",
      "MATCH (:Student {name: 'Sneha'})-[:MEMBER_OF]->(c:Club) RETURN c.name",
      "MATCH (:Student {name: 'Sneha'})-[:WORKS_ON]->(p:Project) RETURN p.name"]),
    ("Operating Systems has how many credits and who all study it?",
     ["MATCH (s:Subject {name: 'Operating Systems'}) RETURN s.name, s.credits",
      "MATCH (t:Student)-[:STUDIES]->(:Subject {name: 'Operating Systems'}) RETURN t.name"]),
    ("Library Management System needs which skills and who works on it?",
     ["MATCH (:Project {name: 'Library Management System'})-[:REQUIRES]->(k:Skill) RETURN k.name",
      "MATCH (t:Student)-[:WORKS_ON]->(:Project {name: 'Library Management System'}) RETURN t.name"]),
    ("Newest club is which, and who is its president?",
     ["MATCH (c:Club) WITH max(c.founded) AS last MATCH (c:Club) WHERE c.founded = last RETURN c.name, c.founded",
      "MATCH (c:Club) WITH max(c.founded) AS last MATCH (t:Student)-[r:MEMBER_OF]->(c:Club) "
      "WHERE c.founded = last AND r.role = 'President' RETURN t.name"]),
    ("payal friends are who? and she is having what skills",
     ["MATCH (:Student {name: 'Payal'})-[:FRIENDS_WITH]-(f:Student) RETURN f.name",
      "MATCH (:Student {name: 'Payal'})-[:HAS_SKILL]->(k:Skill) RETURN k.name"]),
])
def test_a_question_word_asked_in_place_opens_an_ask(learner, college_db, question, references):
    """unseen103 db011, db018, db022 ("rahul is which year, which club he is in, and what project
    he doing", "debate society started which year and who is president there", "... and she is
    having which skills"), probe 49 ("DBMS has how many credits and who all study it?", "Chatbot
    needs which skills and who has them?", "Oldest club is which, and who is its president?"): a
    question word after its verb asks as one at the front does, so each ask is a part. Each was
    refused whole or half answered (the last garbled: "who is Oldest club is which's president?")."""
    found = [s for s in learner.answer(question).sub_questions if s.found]
    assert len(found) == len(references), [s.question for s in found]
    for part, reference in zip(found, references):
        assert same_rows(part.rows, rows_of(college_db, reference)), (part.question, part.rows)


@pytest.mark.parametrize("question, reference", [
    ("which subject on this course teaches Paging?",
     "MATCH (s:Subject)-[:COVERS]->(:Concept {name: 'Paging'}) RETURN s.name"),
    ("what narrower topics come under Graphs in the course?",
     "MATCH (:Concept {name: 'Graphs'})-[:INCLUDES]->(c:Concept) RETURN c.name"),
    ("Which student projects are completed?",
     "MATCH (p:Project) WHERE p.status = 'Completed' RETURN p.name"),
    ("Which subjects teach the prerequisites of Virtual Memory?",
     "MATCH (:Concept {name: 'Virtual Memory'})<-[:PREREQUISITE_FOR]-(:Concept)<-[:COVERS]-(s:Subject) "
     "RETURN DISTINCT s.name"),
    ("Robotics Club kab bana tha, kaunse saal mein?",
     "MATCH (c:Club {name: 'Robotics Club'}) RETURN c.name, c.founded"),
    ("Karan friends are in which clubs da",
     "MATCH (:Student {name: 'Karan'})-[:FRIENDS_WITH]-(:Student)-[:MEMBER_OF]->(c:Club) RETURN DISTINCT c.name"),
])
def test_words_that_said_nothing_new_no_longer_refuse(chat, college_db, question, reference):
    """unseen100 cy018 and unseen102 da021 ("which subject on this course teaches that topic",
    "what smaller topics come under it in the course"), unseen100 cy021 ("Which student projects
    are not yet finished"), unseen102 da040 ("which subjects teach those prerequisite topics"),
    da045 ("Coding Club kab start hua tha, kaunse saal mein?") and db043's "da": the course as a
    whole, a person's noun before another kind's, the verb "teach", "kaunse saal" (which year)
    and a Tamil "da" were each read as one more thing asked, and each question was refused."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_remark_after_a_dash_is_no_part_of_the_ask(learner, college_db):
    """unseen102 da020 ("Also what skills does she have - I might ask her to help me"): the
    remark after the dash was read as part of the ask, which was refused."""
    result = learner.answer("What clubs is Karan in - I want to join one too")
    reference = "MATCH (:Student {name: 'Karan'})-[:MEMBER_OF]->(c:Club) RETURN c.name"
    assert [s.rows for s in result.sub_questions if s.found] == [rows_of(college_db, reference)], result.answer


@pytest.mark.parametrize("question, note", [("What is BFS good for?", "N13"),
                                            ("what is memoization useful for?", "N15")])
def test_what_a_thing_is_good_for_is_asked_of_the_thing(learner, question, note):
    """unseen100 cy022 ("What is it good for?" of depth-first search): "DFS good" was read as
    the thing to define, which the note does not name, so its own note was turned away."""
    result = learner.answer(question)
    assert [str(s.rows[0][0]) for s in result.sub_questions if s.found] == [note], result.answer


@pytest.mark.parametrize("question", ["Who has been a member of a club for the longest time?",
                                      "Which student has been in a club for the longest?"])
def test_the_longest_member_is_one_not_everyone(chat, college_db, question):
    """Probe 50 in stop 37: "Which student has been a member of a club for the longest time?"
    listed every member as the longest: "a club" (two words) and "for the longest time" were no
    shape the rules read, and "longest" was left unread."""
    reference = ("MATCH (:Student)-[r:MEMBER_OF]->(:Club) WITH min(r.since) AS first "
                 "MATCH (s:Student)-[r:MEMBER_OF]->(:Club) WHERE r.since = first RETURN s.name")
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    assert [r[0] for r in result.rows] == [r[0] for r in rows_of(college_db, reference)]


def test_for_each_of_them_it_is_each_of_the_values_found(learner, college_db):
    """Probe 50 in stop 37: after "Which subject should be studied before Operating Systems, and
    which subject is Operating Systems itself a prerequisite for?", "For each of them, which
    students study it, and in which semester?" answered for Operating Systems, the name said,
    not for the two subjects found; and "it" after "each of them" refused on its own."""
    learner.answer("Which subject comes before Operating Systems, and which subject comes after it?")
    result = learner.answer("For each of them, which students study it?")
    reference = ("MATCH (s:Student)-[:STUDIES]->(t:Subject) WHERE t.name IN ['DSA', 'Computer Networks'] "
                 "RETURN t.name, s.name")
    assert result.status == "answered", result.answer
    assert sorted(map(str, result.rows)) == sorted(map(str, rows_of(college_db, reference)))


def test_they_after_two_asks_of_one_kind_is_both_values(learner, college_db):
    """Probe 50 in stop 37: "which students study them?" after two parts that each found one
    subject took the first part's subject alone; "them" is both."""
    learner.answer("Which subject comes before Operating Systems, and which subject comes after it?")
    result = learner.answer("Which students study them?")
    reference = ("MATCH (s:Student)-[:STUDIES]->(t:Subject) WHERE t.name IN ['DSA', 'Computer Networks'] "
                 "RETURN t.name, s.name")
    assert sorted(map(str, result.rows)) == sorted(map(str, rows_of(college_db, reference))), result.answer


@pytest.mark.parametrize("question, note", [("Which concept talks about OSPF?", "N24"),
                                            ("which topic mentions the knapsack problem?", "N15")])
def test_which_topic_mentions_a_word_is_the_topic_whose_note_holds_it(learner, question, note):
    """Probe 49 in stop 37: "Which topic talks about thrashing?" was refused as outside the
    graph, though one note, on virtual memory, says it: a topic mentions what its note says."""
    result = learner.answer(question)
    assert [str(s.rows[0][0]) for s in result.sub_questions if s.found] == [note], result.answer


def test_a_phrase_put_first_and_the_kind_said_again_are_one_ask(learner, college_db):
    """unseen103 db015 ("before indexing what topics needed, and those are taught in which
    subjects? just subjects tell"): "before indexing" put first was read as a scene and the
    whole refused; then, split, "just subjects tell" listed every subject. The phrase is the
    ask's own, and the kind said again asks nothing more."""
    result = learner.answer("before Routing what topics needed, and those are taught in which subjects? "
                            "just subjects tell")
    found = [s for s in result.sub_questions if s.found]
    before = "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Routing'}) RETURN c.name"
    taught = ("MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Routing'}) "
              "MATCH (s:Subject)-[:COVERS]->(c) RETURN c.name, s.name")
    assert len(found) == 2, [s.question for s in found]
    assert same_rows(found[0].rows, rows_of(college_db, before)), found[0].rows
    assert sorted(map(str, found[1].rows)) == sorted(map(str, rows_of(college_db, taught))), found[1].rows


@pytest.mark.parametrize("question", ["Which students have all the skills the Campus Chatbot needs?",
                                      "Who studies all the subjects Karan studies?",
                                      "Which students have every skill the Attendance Tracker needs?"])
def test_all_of_a_kind_is_never_answered_as_any_one_of_them(chat, question):
    """Probe 51 in stop 37: "Which students have all the skills the Library Management System
    needs?" listed everyone with any one of them (Rahul, Payal and Aarav; only Payal has both).
    The rules do not count "all of them", so they refuse. ("every skill", singular, was one of
    twelve fresh questions at the end of the stop, answered as "any" until then.)"""
    result = chat.answer(question)
    assert result.status == "out_of_scope", (result.answer, result.cypher)


def test_unme_se_is_among_them(learner, college_db):
    """Probe 51 in stop 37: "Unme se kiske paas Docker skill hai?" after the Campus Chatbot's
    team was read without "among them" ("unme se" written as one word), and the team was joined
    to Docker's holders through a friendship nobody asked about: "Rahul (Karan)."."""
    learner.answer("Library Management System pe kaun kaun kaam kar raha hai?")
    result = learner.answer("Unme se kiske paas Python skill hai?")
    reference = ("MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Library Management System'}) "
                 "MATCH (s)-[:HAS_SKILL]->(:Skill {name: 'Python'}) RETURN s.name")
    assert_answered_with(result, college_db, reference)
    named = {str(v) for row in result.rows for v in row}     # no one else beside them
    assert named == {str(r[0]) for r in rows_of(college_db, reference)}, result.rows


def test_uss_before_a_kind_points_back_and_is_never_dropped(learner, college_db):
    """Probe 52 in stop 37: "Uss subject ko semester 5 mein kisne liya tha?" after a question on
    Operating Systems dropped "Uss" (a spelling of "us", that) and listed every subject taken in
    semester 5. Either the students of Operating Systems in semester 5, or a question back."""
    learner.answer("Operating Systems kaun padhta hai?")
    result = learner.answer("Uss subject ko semester 5 mein kisne liya tha?")
    reference = ("MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'Operating Systems'}) "
                 "WHERE r.semester = 5 RETURN s.name")
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question", [
    "Why do processes sometimes wait on each other forever so none can finish, and how is it fixed?",
    "two processes each holding what the other one wants and both just stuck, what conditions cause that?"])
def test_a_named_topic_describing_one_built_on_it_gets_that_ones_note(learner, question):
    """unseen103 db002 ("when all processes waiting for each other thing and nobody can move
    forward, why this happens and how os is fixing it?"): the question names processes and
    describes a deadlock. MiniLM put the note on processes first, the second encoder the note
    on deadlocks, built on processes, and neither answered. Both encoders agree when the
    deadlock note is MiniLM's close runner-up: it answers."""
    result = learner.answer(question)
    assert [str(s.rows[0][0]) for s in result.sub_questions if s.found][:1] == ["N18"], result.answer


@pytest.mark.parametrize("question, note", [("What is a process?", "N16"),
                                            ("What states does a process go through?", "N16")])
def test_a_question_on_the_named_topic_keeps_its_note(learner, question, note):
    """A guard for the rule above: a question asked of the named topic itself keeps its note."""
    result = learner.answer(question)
    assert [str(s.rows[0][0]) for s in result.sub_questions if s.found][:1] == [note], result.answer


@pytest.mark.parametrize("question", ["Subjects covering prerequisites of Virtual Memory?",
                                      "Subjects teaching the topics needed before BCNF?"])
def test_a_question_opening_on_a_kind_is_never_a_topics_own_note(learner, question):
    """Probe 53 in stop 37: "Subjects covering prerequisites of Routing?" was answered with the
    note on routing, which names no prerequisite and no subject: a question that opens on a
    kind of the graph and a verb asks for its nodes."""
    result = learner.answer(question)
    assert not any(s.found and s.tool == "search_notes" for s in result.sub_questions), result.answer


def test_kinds_and_their_things_are_two_asks_never_one_chain(learner, college_db):
    """Probe 53 in stop 37: "Subjects Aarav studies and their prerequisites?" was composed into
    one chain and answered "DSA." alone, which Aarav does not study: two asks, the subjects
    first."""
    result = learner.answer("Subjects Sneha studies and their prerequisites?")
    reference = "MATCH (:Student {name: 'Sneha'})-[:STUDIES]->(s:Subject) RETURN s.name"
    found = [s for s in result.sub_questions if s.found]
    assert found and same_rows(found[0].rows, rows_of(college_db, reference)), result.answer


def test_uska_after_a_chain_is_the_person_the_last_part_was_about(learner, college_db):
    """Probes 52 and 54 in stop 37: after "Aarav ke friends kaun hai aur woh kis club mein
    hai?" (Payal; her clubs), "Uska role kya hai un clubs mein?" was asked of Aarav, whom the
    question named first, not of Payal, whom its last part was about."""
    learner.answer("Karan ke friends kaun hai aur woh kis club mein hai?")
    result = learner.answer("Uska role kya hai us club mein?")
    reference = "MATCH (:Student {name: 'Rahul'})-[r:MEMBER_OF]->(:Club) RETURN r.role"
    assert_answered_with(result, college_db, reference)


# --- stop 37: confidently wrong on the final sets, changed after the scoring ------------------

def test_a_typo_is_never_guessed_into_a_value(chat, college_db):
    """unseen104 dc010 ("Who are the lads and lasses in the Robotics Club, ..."): "lads" was
    read as a typo of "leads", a word for a club's President, and the club's president alone
    was given as its members."""
    result = chat.answer("Who are the lads in the Coding Club?")
    members = "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Coding Club'}) RETURN s.name"
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, members)), result.answer


def test_uska_after_clubs_found_is_the_person_named(learner, college_db):
    """unseen105 dd037 ("payal kaun kaun se clubs mein hai and usme uska role kya hai, and uski
    skills bhi batao"): "uski" (his, her or its) was read as the first club found, and the skills
    of its members were given as Payal's."""
    result = learner.answer("payal kaun kaun se clubs mein hai aur usme uska role kya hai, "
                            "aur uske projects kaunse hain?")
    reference = "MATCH (:Student {name: 'Payal'})-[:WORKS_ON]->(p:Project) RETURN p.name"
    assert same_rows([s for s in result.sub_questions if s.found][-1].rows, rows_of(college_db, reference)), \
        result.answer


def test_what_to_know_before_tackling_a_topic_is_never_its_own_note(learner):
    """unseen104 dc048 ("... what does my son need to know before tackling that topic, ..."):
    the note on routing was given as what comes before routing. The question asks what a link
    reaches, with a verb of the learner's between "before" and the name."""
    result = learner.answer("what should a beginner know before attempting Virtual Memory?")
    assert not any(s.found and s.tool == "search_notes" for s in result.sub_questions), result.answer


# --- stop 38: the development sets unseen106 (a gamer) and unseen107 (a retired teacher) -------

@pytest.mark.parametrize("question, reference", [
    ("Which projects are finished, like a race already run?",
     "MATCH (p:Project) WHERE p.status = 'Completed' RETURN p.name"),
    ("List the subjects by credits, highest first, sort of like the ranks in a regiment.",
     "MATCH (s:Subject) RETURN s.name, s.credits ORDER BY s.credits DESC"),
    ("Who works on the Campus Chatbot, sort of like the crew of a ship, so to speak?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) RETURN s.name"),
])
def test_a_comparison_from_the_learners_world_asks_nothing(chat, college_db, question, reference):
    """unseen104 (a cricket coach: 22 of its 29 misses) and unseen106 de031, de033 ("list the
    clubs from oldest to newest, like by release date", "... like quests not finished yet"): a
    comparison to the learner's own world was read as more of the ask, and each was refused."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question", ["Which skills like Docker does Karan have?",
                                      "I would like to know which clubs Payal is in."])
def test_a_comparison_that_names_a_thing_of_the_graph_stays(question):
    """A comparison that names a value says what is asked, and "like" as a verb is no comparison."""
    assert without_comparisons(question, default_lexicon()) == question


def test_a_note_never_answers_a_number_the_graph_holds(learner):
    """unseen107 df022 ("... and how many credits is the subject that teaches it worth?"): the
    query was refused, then the note on arrays was given as the number of credits."""
    result = learner.answer("How many credits is the subject that teaches Paging worth?")
    assert not any(s.found and s.tool == "search_notes" for s in result.sub_questions), result.answer


@pytest.mark.parametrize("question, reference", [
    ("What do I need to unlock before learning Virtual Memory?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Virtual Memory'}) RETURN c.name"),
    ("Which subject must I clear before I can unlock Operating Systems?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) RETURN s.name"),
    ("Which topics should one have mastered before attempting Routing?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Routing'}) RETURN c.name"),
])
def test_the_learners_own_verb_before_a_topic_asks_what_comes_before_it(chat, college_db, question, reference):
    """unseen106 de019, de026, de038 ("what topic do i need to unlock before learning that",
    "which subject do i have to clear before i can unlock it?") and unseen107 df018 ("which topic
    ought I to have mastered before attempting that one?"): the learner's "unlock" was read as
    the link's way out, against the "before", and "master" as a word the graph does not know."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_who_presides_over_a_club_is_its_president(chat, college_db):
    """unseen107 df030 ("Who presides over the Robotics Club at present?"): refused."""
    reference = "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Debate Society'}) WHERE r.role = 'President' " \
                "RETURN s.name"
    assert_answered_with(chat.answer("Who presides over the Debate Society?"), college_db, reference)


def test_a_count_of_the_asks_said_first_asks_nothing(learner, college_db):
    """unseen106 de017 and unseen107 df018 ("Two things, if you please. How does the database
    ...?"): the count was read as part of the first ask ("... a query one gives Two things?")."""
    result = learner.answer("Two quick questions, please: which clubs is Karan in? "
                            "And who leads the Coding Club?")
    asked = [s.question for s in result.sub_questions]
    assert asked == ["which clubs is Karan in?", "who leads the Coding Club?"], asked


@pytest.mark.parametrize("question, note", [
    ("If a student's row has two phone numbers crammed into one cell, what rule does that break, "
     "and how would you put it right?", "N02"),
    ("search/insert time in a skewed binary search tree?", "N11"),
])
def test_how_a_change_would_be_made_is_a_note_question(learner, question, note):
    """unseen100 cu033 ("... what rule of table design does that break, and how would you put it
    right?"), unseen104 dc023 ("... he's put two numbers in the one box ...") and unseen101 cz012
    ("sorted binary tree: search/insert TC ..."): each was read as a request to change the data,
    so no note could answer it. "How would you", "he's put" and an operation named with a slash
    ask about a change, as "how do" and "he put" did."""
    result = learner.answer(question)
    assert [str(s.rows[0][0]) for s in result.sub_questions if s.found] == [note], result.answer


def test_the_learners_label_said_plainly_after_like_is_asked(learner, college_db):
    """unseen106 de028 ("who are the maxed-out players, like which students have a skill at
    Advanced and which skill?"): the learner's own label was asked, and refused; the plain words
    after "like" were dropped as the same ask said again."""
    result = learner.answer("who are the big guns, like which students have an Advanced skill?")
    reference = "MATCH (s:Student)-[r:HAS_SKILL]->(:Skill) WHERE r.level = 'Advanced' RETURN DISTINCT s.name"
    found = [s for s in result.sub_questions if s.found]
    assert len(found) == 1 and same_rows(found[0].rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, reference", [
    ("Has anybody got a B in any subject? If so, whom?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject) WHERE r.grade = 'B' RETURN DISTINCT s.name"),
    ("Which topics is one supposed to know before studying Virtual Memory?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Virtual Memory'}) RETURN c.name"),
    ("before i can take on Routing what topics do i need to have cleared first?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Routing'}) RETURN c.name"),
])
def test_the_teachers_and_the_gamers_ways_of_asking(learner, college_db, question, reference):
    """unseen107 df037 ("Has anybody earned an A+ in any subject? If so, whom?"), df040 ("the
    topics that one is supposed to know before studying indexing") and unseen106 de038 ("before i
    can take on Dynamic Programming what topics do i need to have cleared first?"): "whom" was no
    "who", "is supposed to" no learner's words, and a phrase put first after the learner's own
    words was read as more of the ask; each was refused."""
    found = [s for s in learner.answer(question).sub_questions if s.found]
    assert len(found) == 1 and same_rows(found[0].rows, rows_of(college_db, reference)), [s.answer for s in found]


@pytest.mark.parametrize("question, references", [
    ("I should like to know, first, which clubs Karan is in; and second, who leads the Debate Society.",
     ["MATCH (:Student {name: 'Karan'})-[:MEMBER_OF]->(c:Club) RETURN c.name",
      "MATCH (s:Student)-[r:MEMBER_OF]->(:Club {name: 'Debate Society'}) WHERE r.role = 'President' "
      "RETURN s.name"]),
    ("Pray tell me which broader topic BST is reckoned to be a part of.",
     ["MATCH (c:Concept)-[:INCLUDES]->(:Concept {name: 'BST'}) RETURN c.name"]),
    ("Which students know Docker, and how proficient is each?",
     ["MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Docker'}) RETURN s.name",
      "MATCH (:Student)-[r:HAS_SKILL]->(:Skill {name: 'Docker'}) RETURN r.level"]),   # (one student: his level)
    ("Which subject on the timetable covers Paging?",
     ["MATCH (s:Subject)-[:COVERS]->(:Concept {name: 'Paging'}) RETURN s.name"]),
    ("Would you list the clubs by the year they were founded, the oldest first?",
     ["MATCH (c:Club) RETURN c.name, c.founded ORDER BY c.founded"]),
])
def test_a_retired_teachers_formal_english(learner, college_db, question, references):
    """unseen107 df017 ("I should like to know, first, why ...; and second ..., which subject on
    the timetable teaches this"), df027 ("Pray tell me ..., and which broader topic it is reckoned
    to be a part of"), df028 ("how proficient is each?") and df038 ("Would you list the clubs in
    order of their age, the oldest first?"): the speaker's "should", the order of the asks, "pray",
    "broader topic", "reckoned", "proficient" and "the timetable" were each read as more of an ask,
    and "the oldest first" as an ask of its own; each part was refused."""
    found = [s for s in learner.answer(question).sub_questions if s.found]
    assert len(found) == len(references), [s.answer for s in found]
    for part, reference in zip(found, references):
        assert same_rows(part.rows, rows_of(college_db, reference)), (part.question, part.rows)


# --- stop 38: confidently wrong answers learners' probes found mid-stop -------------------------

def test_each_number_is_its_own_propertys(chat, college_db):
    """Probe 55 in stop 38: "which 3rd-year students are in a club founded before 2016?" put both
    numbers on both properties (a club founded in year 3, students of year < 2016) and said none."""
    result = chat.answer("which 4th-year students are in a club founded after 2014?")
    reference = "MATCH (s:Student)-[:MEMBER_OF]->(c:Club) WHERE s.year = 4 AND c.founded > 2014 " \
                "RETURN DISTINCT s.name"
    assert_answered_with(result, college_db, reference)


def test_an_ask_said_again_after_matlab_is_asked_once(learner, college_db):
    """Probe 56 in stop 38: "aur unke clubs kaun se hain, matlab Payal ke jo friends hain woh
    kaunse clubs mein hain?" asked the restatement as a part of its own, rewritten as a club all
    three share, and said there was none, after the first part had listed their clubs."""
    learner.answer("Karan ke friends kaun kaun hain?")
    result = learner.answer("aur unke clubs kaun se hain, matlab Karan ke jo friends hain woh kaunse clubs "
                            "mein hain?")
    assert len(result.sub_questions) == 1, [s.question for s in result.sub_questions]


@pytest.mark.parametrize("question, references", [
    ("How many skills does Rahul have, and how many does Karan?",
     ["MATCH (:Student {name: 'Rahul'})-[:HAS_SKILL]->(k:Skill) RETURN count(k)",
      "MATCH (:Student {name: 'Karan'})-[:HAS_SKILL]->(k:Skill) RETURN count(k)"]),
    ("Robotics Club mein kitne members hain aur Debate Society mein kitne?",
     ["MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN count(s)",
      "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN count(s)"]),
])
def test_a_count_with_its_kind_unsaid_counts_the_kind_counted_before(learner, college_db, question, references):
    """Probe 56 in stop 38: "DSA subject mein kitne concepts hain aur Computer Networks mein
    kitne?" answered the second count with the note on graphs."""
    found = [s for s in learner.answer(question).sub_questions if s.found]
    assert [s.tool for s in found] == ["text2cypher"] * len(references), [s.answer for s in found]
    for part, reference in zip(found, references):
        assert same_rows(part.rows, rows_of(college_db, reference)), (part.question, part.rows)


def test_a_count_of_nothing_said_is_never_a_notes(learner):
    """A count that says neither what it counts nor follows one ("how many does Computer Networks?"
    on its own) is no note's: the note on graphs had answered it."""
    result = learner.answer("how many does Computer Networks?")
    assert not any(s.found and s.tool == "search_notes" for s in result.sub_questions), result.answer


def test_who_among_a_clubs_members_lists_people(chat, college_db):
    """Probe 57 in stop 38: "... and who among the Coding Club members has studied it?" answered
    "Coding Club.": the club was read as what a choice is made among, and its name listed."""
    result = chat.answer("who among the Robotics Club members knows Docker?")
    reference = "MATCH (:Club {name: 'Robotics Club'})<-[:MEMBER_OF]-(s:Student)-[:HAS_SKILL]->" \
                "(:Skill {name: 'Docker'}) RETURN s.name"
    assert_answered_with(result, college_db, reference)


def test_both_of_them_in_common_is_never_others_who_share_with_them(chat):
    """Probe 57 in stop 38: "Do both of them have any skill in common?" after Payal and Sneha
    listed the other students who share a skill with either (Aarav, Rahul)."""
    chat.answer("Which students work on the Campus Chatbot?")
    result = chat.answer("Do both of them have a skill in common?")
    named = {str(v) for row in result.rows for v in row} if result.status == "answered" else set()
    assert not named & {"Aarav", "Payal", "Sneha"}, result.answer


def test_those_after_a_question_that_found_nothing_is_not_the_name_it_named(chat):
    """Probe 58 in stop 38: "n wich notes explain those" after a refused "which topics hv to be
    learnt before indexing" gave the note on indexing: "those" stood for the one name asked about."""
    assert chat.answer("which topics does my cousin want before Indexing lol").status != "answered"
    result = chat.answer("and which notes explain those?")
    assert result.status != "answered", result.answer


def test_kis_ke_paas_is_answered_with_people_or_not_at_all(learner, college_db):
    """Probe 56 in stop 38: "... aur uske liye jo skill chahiye woh kis kis ke paas hai?" read
    "woh" (the skill "jo" spoke of) as the project, and answered "who has it?" with "React."."""
    result = learner.answer("Library Management System ke liye jo skill chahiye woh kis kis ke paas hai?")
    people = {str(r[0]) for r in rows_of(college_db, "MATCH (s:Student) RETURN s.name")}
    # (asked in two parts since stop 39, the skills first: the part that asks who lists people)
    for part in (s for s in result.sub_questions if s.found and "kis kis" in s.rewritten):
        assert {str(row[-1]) for row in part.rows} <= people, (part.rewritten, part.rows)


def test_woh_sab_is_all_of_them_or_no_one(chat, college_db):
    """Probe 56 in stop 38: "woh sab kis subject mein padhaya jaata hai" after a refused question
    whose word "process" had been linked took "woh sab" (all of those) as Processes and answered
    for it; after a list, "woh sab kitne credits ke hain?" gave the first subject's alone."""
    chat.answer("Karan ke subjects kaunse hain?")
    reference = "MATCH (:Student {name: 'Karan'})-[:STUDIES]->(s:Subject) RETURN s.name, s.credits"
    assert_answered_with(chat.answer("woh sab kitne credits ke hain?"), college_db, reference)
    assert chat.answer("mera bhai bol raha tha ki processes wala chapter mushkil hai, kyun?").status != "answered"
    assert chat.answer("woh sab kis subject mein padhaya jaata hai?").status != "answered"


# --- stop 38: on the final sets, changed after the scoring ---------------------------------------

def test_the_graph_itself_before_a_participle_is_no_topic(learner, college_db):
    """unseen108 dg021 ("... which topics are in the graph listed as parts of TCP/IP?"): "the
    graph" was linked to the topic Graphs, and the answer said there were none."""
    result = learner.answer("Which concepts are in the graph listed as parts of Memory Management?")
    reference = "MATCH (:Concept {name: 'Memory Management'})-[:INCLUDES]->(c:Concept) RETURN c.name"
    found = [s for s in result.sub_questions if s.found]
    assert found and same_rows(found[-1].rows, rows_of(college_db, reference)), result.answer


def test_a_request_said_last_ends_its_sentence_and_the_next_ask_is_answered_or_said_unanswered(learner):
    """unseen109 dh023 ("that teacher-course example where table is 3nf but still not the
    stricter one, explain pls. n what should i learn right before that stricter form"): one
    part, answered by the BCNF note alone; the second ask was never mentioned."""
    result = learner.answer("that example with two phone numbers in one cell, explain pls. "
                            "n what should i learn right after that rule")
    assert len({s.part for s in result.sub_questions}) == 2, [s.question for s in result.sub_questions]
    assert "right after" in result.answer, result.answer


# --- stop 39: found at the start of the stop, on the code before it ------------------------------

@pytest.mark.parametrize("question, reference", [
    ("under which topic is BST included?",
     "MATCH (t:Concept)-[:INCLUDES]->(:Concept {name: 'BST'}) RETURN t.name"),
    ("Under which topic is Paging included?",
     "MATCH (t:Concept)-[:INCLUDES]->(:Concept {name: 'Paging'}) RETURN t.name"),
])
def test_a_link_word_put_before_which_is_the_same_step_as_its_verb(chat, college_db, question, reference):
    """"under which topic is BST included?" read "under" and "included" as two steps and
    answered "Graphs" (what includes Trees); with Paging, "there is none"."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question", ["Karan ke skills kya hai, level ke saath?",
                                      "Karan ke skills level ke saath batao"])
def test_a_property_ke_saath_is_asked_with_it_never_shared(chat, college_db, question):
    """unseen111 dj024 ("uske skills kya hai, level ke saath"): "saath" was read as "shared
    with", and the answer listed the others who share a skill with him."""
    reference = "MATCH (:Student {name: 'Karan'})-[h:HAS_SKILL]->(s:Skill) RETURN s.name, h.level"
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question", [
    "Which project is Rahul on, and what is its status? And which club is he the president of?",
    "Rahul kis project pe hai? aur uska status kya hai? plus woh kis club ka president hai"])
def test_a_role_asked_of_a_named_kind_is_never_scoped_to_another_kinds_thing(learner, college_db, question):
    """unseen111 dj030 ("sneha konse project pe hai aur uska status kya hai? plus woh kis club
    ki president hai"): the last part was asked "in Attendance Tracker", her project, and the
    answer said she is no president."""
    result = learner.answer(question)
    last = result.sub_questions[-1]
    reference = "MATCH (:Student {name: 'Rahul'})-[m:MEMBER_OF {role: 'President'}]->(c:Club) RETURN c.name"
    assert last.found and same_rows(last.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, reference", [
    ("who has a skill at Intermediate level, and which skill is it?",
     "MATCH (s:Student)-[:HAS_SKILL {level: 'Intermediate'}]->(k:Skill) RETURN s.name, k.name"),
    ("who got a B+ in some subject? and which subject was it?",
     "MATCH (s:Student)-[:STUDIES {grade: 'B+'}]->(j:Subject) RETURN s.name, j.name"),
])
def test_which_kind_it_is_asks_the_kind_the_ask_before_left_unsaid(learner, college_db, question, reference):
    """unseen110 di047 ("who's advanced level at some skill, and which skill is it?"): "which
    skill is it?" was an ask of its own, and refused; the people came without their skills."""
    result = learner.answer(question)
    found = [s for s in result.sub_questions if s.found]
    assert len(found) == 1 and same_rows(found[0].rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, note", [("Routing wala concept samjhao", "N24"),
                                            ("explain the Subnetting concept", "N25"),
                                            ("Paging concept explain karo", "N19")])
def test_the_kinds_word_after_a_topic_is_no_part_of_what_is_defined(learner, question, note):
    """unseen111 (a Pune first-year, "DNS wala concept samjha do"): the thing to define was
    "dns wala concept", which no note names, so its own note was refused."""
    result = learner.answer(question)
    assert [str(s.rows[0][0]) for s in result.sub_questions if s.found] == [note], result.answer


def test_a_hinglish_request_said_last_ends_its_ask(learner, college_db):
    """unseen111 dj008 ("3 way handshake and udp vs tcp wala scene samjha de na, aur ye topic
    konse subject me aata hai"): one part, answered by the note alone; the second ask was never
    mentioned."""
    result = learner.answer("subnet mask wala scene samjha de na, aur ye topic konse subject me aata hai")
    found = [s for s in result.sub_questions if s.found]
    assert [str(s.rows[0][0]) for s in found[:1]] == ["N25"], result.answer
    assert same_rows(found[-1].rows, [["Computer Networks"]]), result.answer


def test_a_verb_of_change_before_wala_describes_a_thing(learner, college_db):
    """unseen111 dj049 ("transitive dependency hatane wala normal form kya hai? aur SQL me
    advanced level pe kaun hai"): "hatane" was read as a request to remove data, and the whole
    message refused as a change."""
    result = learner.answer("partial dependency hatane wala normal form kya hai? aur Python me advanced kaun hai")
    found = [s for s in result.sub_questions if s.found]
    assert [str(s.rows[0][0]) for s in found[:1]] == ["N03"], result.answer
    reference = "MATCH (s:Student)-[:HAS_SKILL {level: 'Advanced'}]->(:Skill {name: 'Python'}) RETURN s.name"
    assert same_rows(found[-1].rows, rows_of(college_db, reference)), result.answer


def test_a_pronoun_run_into_its_verb_points_back(learner, college_db):
    """unseen110 di039 ("tell me about Karan - which clubs hes in, what project
    hes on, and who his friends are") and unseen109 dh024 ("which clubs hes in"): "hes" was no
    pronoun, and both parts were refused."""
    result = learner.answer("tell me about Sneha - what project shes on, and who her friends are")
    found = [s for s in result.sub_questions if s.found]
    assert len(found) == 2 and same_rows(found[0].rows, [["Attendance Tracker"]]), result.answer


def test_a_change_told_as_done_in_hindi_is_a_question_about_it(learner):
    """unseen111 dj021 ("ek column me phone numbers comma laga ke daal diye '98765, 91234' toh
    konsa rule toot jaata?"): "daal diye" (put, done) was read as a request to change the data."""
    for question in ("ek cell mein do phone numbers daal diye, ab konsa rule toot gaya?",
                     "maine table se ek column hata diya, toh kya problem hogi?"):
        assert learner.answer(question).status != "blocked", question


def test_a_request_to_put_in_hindi_is_still_refused(chat):
    """A guard for the rule above: "daal do" (put it in) asks to change the data."""
    result = chat.answer("Payal ko Robotics Club me daal do")
    assert result.status == "blocked", result.answer


@pytest.mark.parametrize("question, reference", [
    ("2017 se pehle bane hue clubs kaunse hain?", "MATCH (c:Club) WHERE c.founded < 2017 RETURN c.name"),
    ("2015 ke baad shuru hue clubs konse hai?", "MATCH (c:Club) WHERE c.founded > 2015 RETURN c.name"),
])
def test_a_year_before_its_hindi_comparison_filters(chat, college_db, question, reference):
    """unseen111 dj028 ("2016 se pehle bane hue clubs konse hai?"): "bane hue" (formed) named no
    property, and "pehle" after its number was read as a link the query left out."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("kaunse concepts ke notes hi nahi hain?",
     "MATCH (c:Concept) WHERE NOT (c)<-[:EXPLAINS]-(:Note) RETURN c.name"),
    ("kitne topics ke notes nahi hain?",
     "MATCH (c:Concept) WHERE NOT (c)<-[:EXPLAINS]-(:Note) RETURN count(c)"),
])
def test_a_hindi_no_after_its_noun_asks_for_what_lacks_it(chat, college_db, question, reference):
    """unseen111 dj023 ("kaunse topics ke notes hi nahi hai yaar? list de"): "nahi" after the
    noun was no "no" by it, and the question was refused as negation."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("kya hai Sneha ka role Debate Society mein?",
     "MATCH (:Student {name: 'Sneha'})-[m:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN m.role"),
    ("kya role hai Rahul ka Robotics Club mein?",
     "MATCH (:Student {name: 'Rahul'})-[m:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN m.role"),
])
def test_kya_with_hai_a_word_on_asks_what(chat, college_db, question, reference):
    """unseen111 dj003 ("... aur kya role hai uska har ek me?"): a "kya" first was read as yes or
    no, and the part refused; "kya role hai" asks what the role is."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_hindi_count_with_its_noun_before_it_is_no_unsaid_count(learner):
    """unseen111 dj042 ("tree me n nodes ho toh edges kitne?"): Hindi says the noun before
    "kitne", so "edges kitne" was read as a count of nothing said, never a note's question."""
    result = learner.answer("agar tree me 10 nodes hain toh edges kitne?")
    assert [str(s.rows[0][0]) for s in result.sub_questions if s.found][:1] == ["N10"], result.answer


def test_an_ask_said_again_in_brackets_is_asked_once(learner, college_db):
    """unseen110 di002 ("who is Payal friends with? (like who's in her little colony)"): the
    bracket was asked as a part of its own, and said "could not answer"."""
    result = learner.answer("which clubs is Aarav in? (like where does he hang out)")
    assert len(result.sub_questions) == 1 and same_rows(result.sub_questions[0].rows, [["Coding Club"]]), \
        result.answer


@pytest.mark.parametrize("question, answered", [
    ("Which of Payal's friends know React? which clubs is she in?", [["Debate Society"]]),
    ("Which of Payal's friends know Python? Which clubs are they in?", None),
    ("Payal ke kaunse dost Python jaante hain? wo kaunse clubs mein hain?", None),
])
def test_a_pointer_after_people_asked_by_a_noun_is_those_found(learner, question, answered):
    """Found while reading unseen111's correlatives ("jo dost ..., wo ..."): after "Which of
    Payal's friends know React?" (Sneha), "she" was Payal, and the answer gave Payal's clubs;
    after the same question found no one, "they" and "wo" were Payal too."""
    result = learner.answer(question)
    last = result.sub_questions[-1]
    if answered is None:
        assert not last.found, result.answer
    else:
        assert last.found and same_rows(last.rows, answered), result.answer


@pytest.mark.parametrize("question, reference", [
    ("sneha jis project pe hai uske liye kya kya skills lagte hain?",
     "MATCH (:Student {name: 'Sneha'})-[:WORKS_ON]->(:Project)-[:REQUIRES]->(k:Skill) RETURN k.name"),
    ("Computer Networks ka jo prereq subject hai woh kaun kaun padhta hai?",
     "MATCH (s:Student)-[:STUDIES]->(:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Computer Networks'}) "
     "RETURN s.name"),
])
def test_a_hindi_correlative_points_at_what_its_clause_found(learner, college_db, question, reference):
    """unseen111 dj031 ("rahul jis project pe kaam karta uske liye kya kya skills lagte?") and
    dj045 ("OS ka jo prereq subject hai woh kaun kaun padh raha?"): "jis ... uske" was no
    correlative (one like it was answered with the project, not its skills), and "woh" after
    "jo prereq subject" was asked "in Operating Systems"."""
    result = learner.answer(question)
    found = [s for s in result.sub_questions if s.found]
    assert found and same_rows(found[-1].rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, reference", [
    ("sabse zyada members wala club kaunsa hai?",
     "MATCH (c:Club)<-[:MEMBER_OF]-(s:Student) WITH c, count(s) AS n WITH max(n) AS top "
     "MATCH (c:Club)<-[:MEMBER_OF]-(s:Student) WITH c, count(s) AS n, top WHERE n = top RETURN c.name, n"),
    ("sabse zyada concepts wala subject kaunsa hai?",
     "MATCH (j:Subject)-[:COVERS]->(c:Concept) WITH j, count(c) AS n WITH max(n) AS top "
     "MATCH (j:Subject)-[:COVERS]->(c:Concept) WITH j, count(c) AS n, top WHERE n = top RETURN j.name, n"),
])
def test_the_noun_a_wala_describes_is_the_one_asked(chat, college_db, question, reference):
    """Probe 59 in stop 39 ("Sabse zyada members wala club kaunsa hai?"): answered "Payal (2
    clubs)", the student in the most clubs; Hindi puts "which" and the noun "wala" describes after."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_kind_said_different_is_never_left_out(chat):
    """Probe 60 in stop 39 ("Which concept from a different subject is a prerequisite for
    Routing?"): answered "Subnetting and Graphs", leaving out that the subject must differ."""
    result = chat.answer("Which topic from a different subject must come before Deadlocks?")
    assert result.status != "answered", result.answer


def test_un_before_a_plural_noun_is_every_one_found(learner, college_db):
    """Probe 59 in stop 39 ("uske clubs kaun se hain aur un clubs mein uska role kya hai?"): "un
    clubs" was the first club found alone, and the answer left the other out as if whole."""
    result = learner.answer("Sneha kaunse subjects padhti hai aur un subjects ke credits kitne hain?")
    reference = "MATCH (:Student {name: 'Sneha'})-[:STUDIES]->(j:Subject) RETURN j.name, j.credits"
    assert same_rows(result.sub_questions[-1].rows, rows_of(college_db, reference)), result.answer


def test_unme_se_after_answers_that_listed_nothing_is_no_one_named(chat):
    """Probe 59 in stop 39: after two refused turns, "unme se kaunsa Rahul ne padha hai?" was
    asked of Computer Networks, which a refused turn had only named, and answered with it."""
    chat.answer("Operating Systems ke baad kaun kaun se subjects karne padenge, poori list")
    chat.answer("un subjects ke credits kitne hain?")
    result = chat.answer("unme se kaunsa Sneha ne padha hai?")
    assert result.status != "answered", result.answer


@pytest.mark.parametrize("question, named", [
    ("Karan ka dost kis project pe kaam karta hai aur usme uska role kya hai?", "Karan"),
    ("Which project does Karan's friend work on, and what is his role in it?", "Karan")])
def test_a_pronoun_after_someones_friend_is_never_that_someone(learner, college_db, question, named):
    """Probe 59 in stop 39 ("Rahul ka dost kis project pe kaam karta hai aur usme uska role kya
    hai?"): "uska" was Rahul, and the answer gave Rahul's role, not his friend's."""
    result = learner.answer(question)
    own = rows_of(college_db, f"MATCH (:Student {{name: '{named}'}})-[w:WORKS_ON]->() RETURN w.role")
    last = result.sub_questions[-1]
    assert not (last.found and same_rows(last.rows, own)), result.answer


@pytest.mark.parametrize("first, then, reference", [
    ("How many concepts does Computer Networks cover?", "which ones have a note?",
     "MATCH (:Subject {name: 'Computer Networks'})-[:COVERS]->(c:Concept)<-[:EXPLAINS]-(:Note) RETURN c.name"),
    ("How many subjects does Rahul study?", "which ones are worth 4 credits?",
     "MATCH (:Student {name: 'Rahul'})-[:STUDIES]->(j:Subject) WHERE j.credits = 4 RETURN j.name"),
])
def test_which_ones_after_a_count_are_of_those_counted(learner, college_db, first, then, reference):
    """Probe 60 in stop 39: after "How many concepts does Operating Systems cover ...?", "Which
    ones don't have a note?" was asked of every concept, and listed other subjects' topics."""
    learner.answer(first)
    result = learner.answer(then)
    rows = result.sub_questions[-1].rows
    assert result.status != "answered" or same_rows(rows, rows_of(college_db, reference)), result.answer


def test_their_own_is_never_the_group_found_before(learner):
    """Probe 60 in stop 39 ("What are the parts of Graphs, and which of those parts have parts
    of their own?"): "their" became "each of DFS, BFS and Trees", the query looked two levels
    down, and the answer said there were none (Trees has BST)."""
    result = learner.answer("Name the parts of Graphs, and which of those parts have parts of their own?")
    last = result.sub_questions[-1]
    assert not (last.found and not last.rows), result.answer


@pytest.mark.parametrize("question, reference", [
    ("In which subject did Aarav get his best grade?",
     "MATCH (:Student {name: 'Aarav'})-[r:STUDIES]->(j:Subject) WHERE r.grade = 'A' RETURN j.name, r.grade"),
    ("karan ka sbse acha grade kis subject me hai?",
     "MATCH (:Student {name: 'Karan'})-[r:STUDIES]->(j:Subject) WHERE r.grade = 'A' RETURN j.name, r.grade"),
    ("what is Sneha's lowest grade?",
     "MATCH (:Student {name: 'Sneha'})-[r:STUDIES]->(j:Subject) WHERE r.grade = 'B' RETURN j.name, r.grade"),
])
def test_one_persons_best_grade_is_the_top_of_their_grades(chat, college_db, question, reference):
    """Probes 57 and 58 in stop 38 ("payal ka sbse acha grade kis sub me aaya"): a named person's
    best or lowest grade was refused; the scale ranks their own grades. ("aaya" stays an unknown
    word: notebook 09 teaches how to make one known with it.)"""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("my friend Sneha, which skills does she have?",
     "MATCH (:Student {name: 'Sneha'})-[:HAS_SKILL]->(k:Skill) RETURN k.name"),
    ("my classmate Karan works on which project?",
     "MATCH (:Student {name: 'Karan'})-[:WORKS_ON]->(p:Project) RETURN p.name"),
])
def test_my_friend_and_a_name_is_that_name(chat, college_db, question, reference):
    """Probe 58 in stop 38 ("my friend Payal, she is in which clubs?"): "my friend" was read as
    the speaker's, whom the graph does not know, and refused; the name says who is meant."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_that_one_after_a_note_is_its_topic(learner, college_db):
    """Probes 55 to 58 in stop 38 ("what topic has to come before that one?" after the note on
    BCNF): "that one" stood for nothing, and the follow-up was refused."""
    learner.answer("What is 3NF?")
    result = learner.answer("which topic do I need right before that one?")
    reference = "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: '3NF'}) RETURN c.name"
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Operating Systems kaunse subject ka prerequisite hai?",
     "MATCH (:Subject {name: 'Operating Systems'})-[:PREREQUISITE_FOR]->(j:Subject) RETURN j.name"),
    ("Paging kis topic ka prerequisite hai?",
     "MATCH (:Concept {name: 'Paging'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
])
def test_x_kaunse_y_ka_prerequisite_is_what_x_comes_before(chat, college_db, question, reference):
    """Probe 62 in stop 39 ("DSA kaunse subjects ka prerequisite hai?"): read the other way, and
    answered that DSA is a prerequisite for nothing."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_their_after_a_count_of_people_is_theirs(learner, college_db):
    """Probe 61 in stop 39 ("how many friends does karan have and what are their skills?"):
    "their" was Karan, and the answer gave his own skills, not his friend's."""
    result = learner.answer("how many friends does Sneha have, and what are their skills?")
    reference = ("MATCH (:Student {name: 'Sneha'})-[:FRIENDS_WITH]-(:Student)-[:HAS_SKILL]->(k:Skill) "
                 "RETURN k.name")
    last = result.sub_questions[-1]
    assert last.found and same_rows(last.rows, rows_of(college_db, reference)), result.answer


def test_that_after_one_thing_found_of_the_kind_named_is_what_was_found(learner, college_db):
    """Probe 61 in stop 39 ("what should i study before computer networks, and which students
    have studied that?"): "that" was Computer Networks, not Operating Systems, the one found."""
    result = learner.answer("what should i take before Operating Systems, and who has taken that?")
    reference = "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DSA'}) RETURN s.name"
    last = result.sub_questions[-1]
    assert last.found and same_rows(last.rows, rows_of(college_db, reference)), result.answer


def test_whats_that_called_asks_more_of_the_ask_before_it(learner):
    """Probe 61 in stop 39 ("in paging is any memory wasted at the end of a process? what's that
    called"): "what's that called" was searched on its own, and answered with the note on virtual
    memory."""
    result = learner.answer("in DNS which protocol carries the lookups? what's that called")
    notes = [str(s.rows[0][0]) for s in result.sub_questions if s.found]
    assert notes == ["N23"], result.answer


@pytest.mark.parametrize("question, reference", [
    ("which narrower topics belong under Memory Management?",
     "MATCH (:Concept {name: 'Memory Management'})-[:INCLUDES]->(c:Concept) RETURN c.name"),
    ("which broader topic includes Threads?",
     "MATCH (c:Concept)-[:INCLUDES]->(:Concept {name: 'Threads'}) RETURN c.name"),
])
def test_belong_under_and_a_broader_topic_are_read_as_parts(chat, college_db, question, reference):
    """unseen108 dg024 ("which narrower topics belong under Processes?") and probe 58 in stop 38
    ("which broader topic includes BST?"): "belong" was only a club's word, and "includes" said
    the other way from "broader topic"; both were refused."""
    assert_answered_with(chat.answer(question), college_db, reference)


# --- stop 39: on the final sets, changed after the scoring ---------------------------------------

@pytest.mark.parametrize("question", ["who got a B in something? and in what",
                                      "who has some skill at Intermediate level? and at what"])
def test_in_what_of_a_kind_never_named_is_answered_or_said_unanswered(learner, question):
    """unseen112 dk042 ("who got an A+ in something? and in what"): "and in what" was taken for
    a remark after the ask, which was then asked alone, and the answer ("Payal.") never said
    that the second ask went unanswered."""
    result = learner.answer(question)
    columns = max((len(s.columns) for s in result.sub_questions if s.found), default=0)
    assert result.status != "answered" or columns > 1 or "could not answer this part" in result.answer, \
        result.answer


def test_in_which_subject_after_an_ask_is_a_column_of_it(learner, college_db):
    """Found with dk042: "who got a B+ in something? and in which subject?" asked "in which
    subject?" on its own, and listed every subject."""
    result = learner.answer("who got a B in something? and in which subject?")
    reference = "MATCH (s:Student)-[r:STUDIES {grade: 'B'}]->(j:Subject) RETURN s.name, j.name"
    found = [s for s in result.sub_questions if s.found]
    assert len(found) == 1 and same_rows(found[0].rows, rows_of(college_db, reference)), result.answer


def test_they_are_a_prerequisite_for_points_the_way_after(chat, college_db):
    """unseen112 dk048 (pipeline and tools: "the subjects Aarav is doing, which courses come after
    those (like the ones they're prerequisite for)?"): "prerequisite" after "they're" was read as
    what comes before, and the answer was DSA."""
    result = chat.answer("Sneha's subjects, which courses come after those "
                         "(the ones they're a prerequisite for)?")
    reference = ("MATCH (s:Student {name: 'Sneha'})-[:STUDIES]->(:Subject)-[:PREREQUISITE_FOR*1..2]->(n:Subject) "
                 "WHERE NOT (s)-[:STUDIES]->(n) RETURN DISTINCT n.name")
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


# --- stop 40: unseen114 (a teaching assistant) and unseen115 (a parent), development sets ------

@pytest.mark.parametrize("question, reference", [
    ("In the prerequisite chain, which topic comes just before Virtual Memory?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Virtual Memory'}) RETURN c.name"),
    ("what comes after Subnetting in the prereq order?",
     "MATCH (:Concept {name: 'Subnetting'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
    ("Which concept comes after Threads in the order of prerequisites?",
     "MATCH (:Concept {name: 'Threads'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
], ids=["chain-before", "order-after", "order-of-prerequisites"])
def test_the_order_a_link_word_names_is_no_second_step(chat, college_db, question, reference):
    """unseen114 dm021 ("which concept comes before HTTP in the prereq chain") went two steps
    back and answered "there is none"; dm030 ("... after Routing in the prereq order") was
    refused."""
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question", ["what topics need to be studied before Scheduling?",
                                      "What needs to be covered before Scheduling?"])
def test_need_to_be_before_a_participle_is_the_learners_verb(chat, college_db, question):
    """unseen114 dm008: "what needs to be learned before Deadlocks" left "needs" out (a word of
    what a project requires) and was refused."""
    reference = "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Scheduling'}) RETURN c.name"
    assert_answered_with(chat.answer(question), college_db, reference)


@pytest.mark.parametrize("question, reference", [
    ("Show me every club, beginning with the newest and ending with the oldest.",
     "MATCH (c:Club) RETURN c.name, c.founded ORDER BY c.founded DESC"),
    ("list the clubs from the oldest one, going right up to the newest",
     "MATCH (c:Club) RETURN c.name, c.founded ORDER BY c.founded"),
], ids=["beginning-with-newest", "from-the-oldest-one-going-to"])
def test_a_list_from_one_end_to_the_other_is_every_row_in_order(chat, college_db, question, reference):
    """unseen115 dn038 ("list all the clubs ..., starting from the oldest one and going to the
    newest") answered the oldest alone, as if asked for the oldest."""
    result = chat.answer(question)
    assert result.status == "answered", result.answer
    assert [r[0] for r in result.rows] == [r[0] for r in rows_of(college_db, reference)], result.answer


@pytest.mark.parametrize("question, name", [("How long does a packet take to reach the server?", "React"),
                                            ("the algorithm tries one branch, then backs up", "Trees"),
                                            ("how much are interns paying for the course?", "Paging"),
                                            ("what threats does a firewall stop?", "Threads")])
def test_an_english_word_is_no_typo_of_a_name(college_db, question, name):
    """unseen115 dn021 ("How do the packets ... decide which path to take to reach the other
    side?") named React, one letter from "reach", and was refused."""
    from course.pipeline.schema import introspect

    assert name not in {m.value for m in link_entities(college_db, question, schema=introspect(college_db))}


@pytest.mark.parametrize("question, value", [("Which clubs is Payl in?", "Payal"),
                                             ("who knows dockr?", "Docker"),
                                             ("what is pagng?", "Paging")])
def test_a_typo_of_a_name_still_names_it(college_db, question, value):
    """The guard above, kept narrow: a word no dictionary holds is still read as the name it is
    a letter away from."""
    from course.pipeline.schema import introspect

    assert value in {m.value for m in link_entities(college_db, question, schema=introspect(college_db))}


def test_notes_found_through_a_chain_are_named_by_their_ids(chat, college_db):
    """unseen114 dm045 ("which notes explain the concepts included under Graphs? just the note
    ids"): the notes were quoted without their ids."""
    result = chat.answer("which notes explain the topics under Processes?")
    reference = ("MATCH (:Concept {name: 'Processes'})-[:INCLUDES]->(:Concept)<-[:EXPLAINS]-(n:Note) "
                 "RETURN n.id")
    notes = rows_of(college_db, reference)
    assert result.status == "answered" and notes, result.answer
    assert all(note in result.answer for [note] in notes), result.answer


@pytest.mark.parametrize("question, reference", [
    ("which subjects does that boy Rahul take?",
     "MATCH (:Student {name: 'Rahul'})-[:STUDIES]->(j:Subject) RETURN j.name"),
    ("Is this girl Payal in any club?",
     "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) RETURN c.name"),
], ids=["that-boy", "this-girl"])
def test_a_demonstrative_and_a_persons_noun_before_a_name_is_that_name(chat, college_db, question, reference):
    """unseen115 dn029 ("Could you kindly tell me which clubs that girl Sneha is a member of?")
    was refused."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_that_one_before_a_verb_is_the_learner_not_a_pointer(chat, college_db):
    """unseen115 dn042 ("Which students are studying the subject that one has to do before
    Computer Networks?") read "that one" as a pointer and was refused."""
    result = chat.answer("Who studies the subject that one must finish before Operating Systems?")
    reference = ("MATCH (s:Student)-[:STUDIES]->(:Subject)-[:PREREQUISITE_FOR]->"
                 "(:Subject {name: 'Operating Systems'}) RETURN DISTINCT s.name")
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question", ["Before I can start Virtual Memory, what should I have learned first?",
                                      "what do I need to finish first, before Virtual Memory?"])
def test_first_after_the_learners_verb_is_before(chat, college_db, question):
    """unseen115 dn034 ("Before the boy can take Operating Systems, which subject should he have
    finished first?") left "first" out as an order, and was refused."""
    reference = "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Virtual Memory'}) RETURN c.name"
    assert_answered_with(chat.answer(question), college_db, reference)


def test_at_which_after_a_level_asks_the_skill_too(learner, college_db):
    """unseen114 dm025 ("who is Advanced at some skill and at which skill") was refused whole."""
    result = learner.answer("who is Intermediate at some skill and at which skill")
    reference = "MATCH (s:Student)-[:HAS_SKILL {level: 'Intermediate'}]->(k:Skill) RETURN s.name, k.name"
    found = [s for s in result.sub_questions if s.found]
    assert len(found) == 1 and same_rows(found[0].rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question", ["Sneha, which clubs is she in and what is her role there?",
                                      "Rahul - which project is he on, and what's his role in it?"])
def test_a_person_set_first_is_who_he_or_she_is(learner, question):
    """"my friend Karan, which project is he on and what is his role there?" (stop 39's note) was
    refused whole: a topic set first was followed only when "they" or "it" pointed at it."""
    result = learner.answer(question)
    assert result.status == "answered" and "could not" not in result.answer, result.answer
    assert len([s for s in result.sub_questions if s.found]) == 2, result.answer


@pytest.mark.parametrize("question", ["Payal, which subjects do her friends take?",
                                      "Rahul - what clubs are his friends in?"])
def test_a_friends_hop_after_a_topic_is_never_dropped(chat, college_db, question):
    """Found with unseen115 dn039 ("That girl Sneha, which clubs are her friends part of?"): the
    pipeline answered with Sneha's own club. "friends", a person's noun, counted as used because
    the query had a person in it, though it never took the friends' link."""
    result = chat.answer(question)
    assert result.status != "answered" or "FRIENDS_WITH" in (result.cypher or ""), result.answer


def test_my_friend_and_a_name_set_first_is_that_name(learner, college_db):
    """Stop 39's note: "my friend Karan, which project is he on and what is his role there?" was
    refused whole."""
    result = learner.answer("my friend Rahul, which project is he on and what does he do there?")
    reference = "MATCH (:Student {name: 'Rahul'})-[r:WORKS_ON]->(:Project) RETURN r.role"
    assert result.status == "answered" and "could not" not in result.answer, result.answer
    assert any(same_rows(s.rows, rows_of(college_db, reference)) for s in result.sub_questions), result.answer


# --- stop 40: learner probes 63 and 64 -------------------------------------------------------------

@pytest.mark.parametrize("question", ["When did Payal join the college?",
                                      "Which year did Sneha join the university?"])
def test_joining_the_college_is_no_club_membership(chat, question):
    """Probe 63: "What is Karan's CGPA, and when did he join college?" answered the second ask
    with the year Karan joined the Robotics Club. The graph holds no date anyone joined the
    college."""
    result = chat.answer(question)
    assert result.status != "answered", result.answer


@pytest.mark.parametrize("question, reference", [
    ("What are all the subjects I must finish before Computer Networks, even the indirect ones?",
     "MATCH (s:Subject)-[:PREREQUISITE_FOR*1..5]->(:Subject {name: 'Computer Networks'}) RETURN DISTINCT s.name"),
    ("dynamic programming ke saare prerequisites batao, direct aur indirect",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR*1..5]->(:Concept {name: 'Dynamic Programming'}) "
     "RETURN DISTINCT c.name"),
    ("Which topics does Trees include, all the way down?",
     "MATCH (:Concept {name: 'Trees'})-[:INCLUDES*1..5]->(c:Concept) RETURN DISTINCT c.name"),
], ids=["subjects-indirect", "hinglish-direct-and-indirect", "includes-all-the-way"])
def test_every_step_of_a_chain_is_followed(chat, college_db, question, reference):
    """Probe 64: "computer networks ke liye saare prerequisite subjects kya hai, direct aur indirect
    dono?" was refused by the rules (every step of a chain was never followed), and the learner's
    agent then answered it with the note on Graphs."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_a_hindi_ask_for_nodes_after_their_noun_is_no_note_question(college_db):
    """Probe 64: the note search answered a Hindi ask for subjects, whose question word follows its
    noun ("... prerequisite subjects kya hai"), from the note on Graphs."""
    from course.agents.named_in_notes import asks_for_nodes

    assert asks_for_nodes(college_db, "computer networks se pehle ke subjects kya hain")


def test_those_after_an_answer_in_parts_is_what_its_last_part_listed(learner, college_db):
    """Probe 63: after "Which subject should be studied before Operating Systems, and which students
    have studied it?", "Which of those students also study Operating Systems?" was refused: the
    turn was remembered with its first part's rows alone (DSA), and no students were in it."""
    learner.answer("What comes before Computer Networks, and who has taken it?")
    result = learner.answer("Which of those students are also in a club?")
    reference = ("MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'Computer Networks'}) "
                 "WHERE (s)-[:MEMBER_OF]->(:Club) RETURN s.name")
    assert_answered_with(result, college_db, reference)


@pytest.mark.parametrize("question, note", [
    ("website ko kaise yaad rehta hai ki main logged in hoon?", "N22"),
    ("jab CPU bas pages idhar udhar karta rehta hai aur koi kaam nahi hota, isko kya kehte hain?", "N20"),
], ids=["remembers-a-login", "what-is-it-called"])
def test_a_hinglish_note_question_is_searched_in_english_words(learner, question, note):
    """Probe 64: "jab computer bas pages idhar udhar swap karta rehta hai aur actual kaam hota hi
    nahi, usko kya bolte hai?" was refused: the encoder reads English, and "jab", "bas", "idhar
    udhar", "rehta" and "bolte" reached it as they were written."""
    result = learner.answer(question)
    notes = [s.rows[0][0] for s in result.sub_questions if s.found and s.tool == "search_notes"]
    assert notes == [note], result.answer


def test_which_ones_after_among_a_group_is_of_that_group(learner, college_db):
    """unseen115 dn026 ("Among the student projects, which ones are already completed, and which
    ones are only planned and not yet started?") was refused whole: "which ones" named no kind."""
    result = learner.answer("Out of all the subjects, which ones have 4 credits, and which ones does Sneha take?")
    references = ["MATCH (j:Subject {credits: 4}) RETURN j.name",
                  "MATCH (:Student {name: 'Sneha'})-[:STUDIES]->(j:Subject) RETURN j.name"]
    found = [s for s in result.sub_questions if s.found]
    assert len(found) == 2, result.answer
    assert all(same_rows(s.rows, rows_of(college_db, r)) for s, r in zip(found, references)), result.answer


def test_among_a_group_which_one_asks_of_that_group(chat, college_db):
    result = chat.answer("Out of the clubs, which ones were founded before 2016?")
    assert_answered_with(result, college_db, "MATCH (c:Club) WHERE c.founded < 2016 RETURN c.name")


def test_an_ask_after_a_time_phrase_is_an_ask_of_its_own(learner, college_db):
    """unseen115 dn023 ("What is an array really, in simple words, and after learning arrays
    which topics come next for the boy?") was one part, refused whole."""
    result = learner.answer("What is a linked list, and after finishing linked lists which topics come next?")
    reference = "MATCH (:Concept {name: 'Linked Lists'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"
    found = [s for s in result.sub_questions if s.found]
    assert any(same_rows(s.rows, rows_of(college_db, reference)) for s in found), result.answer


@pytest.mark.parametrize("question, reference", [
    ("which topic does Subnetting come before?",
     "MATCH (:Concept {name: 'Subnetting'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
    ("what does Graphs come after?",
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Graphs'}) RETURN c.name"),
], ids=["does-x-come-before", "does-x-come-after"])
def test_a_name_that_comes_before_or_after_is_where_the_link_starts_or_ends(chat, college_db, question,
                                                                            reference):
    """Probe 66: "which concept does DNS come before?" was read as what comes before DNS, and
    answered "there is none"; "what does Routing come after?" followed the link both ways."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_advice_about_someone_is_no_fact_of_theirs(chat, college_db):
    """Probe 66: "Which subject should he have studied before Operating Systems" (he: Aarav) was
    asked as which of Aarav's subjects come before it, and answered "there is none"."""
    result = chat.answer("Which subject should Sneha have taken before Operating Systems?")
    reference = "MATCH (j:Subject)-[:PREREQUISITE_FOR]->(:Subject {name: 'Operating Systems'}) RETURN j.name"
    assert result.status != "answered" or same_rows(result.rows, rows_of(college_db, reference)), result.answer


def test_one_of_them_and_the_other_is_never_one_of_them_alone(learner):
    """Probe 65: "..., plus is one of them a prerequisite for the other?" was asked as "is one of
    Threads a prerequisite for the other?" and answered with what Threads comes before."""
    result = learner.answer("How do BFS and DFS differ, and is one of them a prerequisite for the other?")
    relations = [s for s in result.sub_questions if "other" in s.question]
    assert relations and not any(s.found for s in relations), result.answer


def test_which_of_them_after_one_found_chooses_among_the_ones_named(learner):
    """Probe 66: "Compare Payal and Aarav: who has the better grade in DBMS, and which of them has
    the higher SQL level?" asked the second part of Payal alone ("which of Payal ...")."""
    result = learner.answer("Compare Karan and Rahul: who has the better grade in DSA, "
                            "and which of them has the higher Machine Learning level?")
    chosen = [s.rewritten for s in result.sub_questions if "which of" in s.rewritten]
    assert chosen and all("Karan" in r and "Rahul" in r for r in chosen), result.answer


@pytest.mark.parametrize("first, then, found", [
    ("Who studies Operating Systems?", "what branch is he in?", {"Aarav", "Sneha", "Karan"}),
    ("Who are Payal's friends and what skills do they have?", "and which project is she on?",
     {"Sneha", "Aarav"}),
], ids=["after-a-list", "after-each-of-several"])
def test_he_or_she_after_several_people_found_is_none_of_them(learner, first, then, found):
    """Probe 65: after "Who are Payal's friends and which clubs are they in?" (Sneha and Aarav),
    "what role does she have in each of her own clubs?" was asked of Sneha, the first found;
    after "Who studies DSA?" "she" was Karan, the first row."""
    learner.answer(first)
    result = learner.answer(then)
    named = {n for s in result.sub_questions for n in re.findall(r"'([A-Z][a-z]+)'", s.cypher or "")}
    assert not named & found, result.answer


# --- stop 40, review: fresh questions not tuned on ------------------------------------------------

def test_a_list_starting_with_the_one_with_the_most_is_every_row(chat, college_db):
    """"list the subjects starting with the one with the most credits" listed the three tied at the
    most, as if asked for the subjects with the most credits, and left Computer Networks out."""
    result = chat.answer("show the clubs, beginning with the one with the fewest members")
    clubs = rows_of(college_db, "MATCH (c:Club) RETURN c.name")
    assert result.status != "answered" or len(result.rows) == len(clubs), result.answer
    result = chat.answer("list the subjects starting with the one with the most credits")
    assert [r[0] for r in result.rows][-1:] == ["Computer Networks"], result.answer


def test_he_after_people_listed_in_the_order_of_their_names_is_none_of_them(learner):
    """"Who works on the Campus Chatbot?" (Karan, then Rahul: sorted by name), then "what year is he
    in?" was asked of Karan, the first; a list in the order of names is no ranking."""
    learner.answer("Who works on the Library Management System?")
    result = learner.answer("which branch is she in?")
    named = {n for s in result.sub_questions for n in re.findall(r"'([A-Z][a-z]+)'", s.cypher or "")}
    assert not named & {"Aarav", "Payal"}, result.answer


# --- stop 41: unseen118 (a lab instructor) and unseen119 (a student on a bus), development sets --

def test_chat_shorthand_inside_a_name_still_names_it(chat, college_db):
    """"who's team lead on the library mgmt project" was refused as outside the graph: "mgmt"
    is the learner's shorthand for "management", the name's own word."""
    result = chat.answer("which skills does the library mgmt project need?")
    assert_answered_with(result, college_db, "MATCH (:Project {name: 'Library Management System'})"
                                             "-[:REQUIRES]->(k:Skill) RETURN k.name")


@pytest.mark.parametrize("question, reference", [
    ("how many in the robotics club?",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Robotics Club'}) RETURN count(s)"),
    ("how many on the campus chatbot?",
     "MATCH (s:Student)-[:WORKS_ON]->(:Project {name: 'Campus Chatbot'}) RETURN count(s)"),
], ids=["in-a-club", "on-a-project"])
def test_how_many_in_a_group_counts_its_members(chat, college_db, question, reference):
    """"how many in coding club & who's the secretary": "how many in X" (the "are" left out) was
    refused, though "how many are in X" is answered."""
    assert_answered_with(chat.answer(question), college_db, reference)


def test_how_a_thing_is_set_up_asks_no_change(learner):
    """"Could you tell me which topics fall under TCP/IP, and how the connection between two
    computers is set up so that nothing gets lost?" was blocked whole as a request to change the
    data: an indirect "how the X is set up" asks how it works."""
    result = learner.answer("Could you tell me which concepts fall under Graphs, and how the "
                            "link between two machines is set up so that nothing gets lost?")
    assert result.status != "blocked", result.answer
    parts = [s for s in result.sub_questions if "under Graphs" in s.question]
    assert parts and parts[0].found, result.answer


def test_who_else_after_the_one_a_part_found_sets_that_one_apart(learner, college_db):
    """"who the Team Lead of the Library Management System is, what its status is, and who else
    works on it?" listed the team lead again among the others."""
    result = learner.answer("Who is the President of the Robotics Club, and who else is a member of it?")
    lead = {r[0] for r in rows_of(college_db, "MATCH (s:Student)-[:MEMBER_OF {role: 'President'}]->"
                                              "(:Club {name: 'Robotics Club'}) RETURN s.name")}
    others = [s for s in result.sub_questions if "else" in s.question]
    assert lead and others and others[-1].found, result.answer
    assert not lead & {str(v) for row in others[-1].rows for v in row}, result.answer


@pytest.mark.parametrize("question, reference", [
    ("Which concept comes right before 3NF, and which ones come after it?",
     "MATCH (:Concept {name: '3NF'})-[:PREREQUISITE_FOR]->(c:Concept) RETURN c.name"),
    ("Which concept comes right before 3NF, and which one comes before that?",    # the chain goes on
     "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: '2NF'}) RETURN c.name"),
], ids=["other-side", "same-side"])
def test_after_it_following_before_x_is_after_x(learner, college_db, question, reference):
    """"which subject we must do before Operating Systems and which one comes after it?" was read
    as "which of DSA comes after DSA?" and answered Operating Systems: "after it", turned from
    "before X", is X's other side; and a choice among one thing found is no choice."""
    result = learner.answer(question)
    later = result.sub_questions[-1]
    assert len(result.sub_questions) == 2 and "which of" not in later.rewritten, result.answer
    assert later.found and same_rows(later.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question", [
    "which traversal finds the fewest hops? the one with the queue",
    "which search do i use for the fewest hops? the queue wala one",
])
def test_a_thing_described_after_an_ask_is_part_of_the_ask(question):
    """"need shortest way in no. of hops on a map w/o weights, which traversal do i use? the queue
    wala one" was split in two, and "the queue wala one" searched on its own."""
    assert len(RuleUpdater().split(question)) == 1


@pytest.mark.parametrize("question", [
    "I need the fewest hops between two bus stops on a map with no distances. which traversal do I use?",
    "need the fewest hops on a map w/o weights, which traversal do i use?",
])
def test_the_ask_without_its_scene_answers_only_with_the_scenes_note(learner, college_db, question):
    """The same question was answered with the note on binary search trees: asked again without
    its scene, "which traversal do i use?" ranks that note first, where the whole question
    ranks BFS's; the scene says which traversal is meant."""
    result = learner.answer(question)
    notes = [s.rows[0][0] for s in result.sub_questions if s.found and s.tool == "search_notes"]
    assert result.status != "answered" or notes[:1] == ["N13"], result.answer


def test_a_part_asking_for_a_topic_in_shorthand_is_not_dropped_for_a_note(learner):
    """"how do i find cycles in a graph, the go deep then backtrack one, nd wt topic do i need that
    for later" was answered with the DFS note alone, as if the note answered the whole message:
    "wt topic ..." asks for the graph's topics, as "what topic ..." does, and is no note's."""
    result = learner.answer("how does the level by level search work, the queue one, nd wt topic do i "
                            "need it for later")
    later = [s for s in result.sub_questions if "topic" in s.question]
    assert later and not any(s.found and s.tool == "search_notes" for s in later), result.answer


def test_his_in_a_list_of_asks_about_one_person_is_that_person(learner, college_db):
    """"Aarav's friends who, his role in project, and his DBMS grade?" read "his" as Payal, the
    friend found: "X's friends who?" asks for several, and "his" is then the one named."""
    result = learner.answer("Sneha's friends who, and her grade in Operating Systems?")
    grade = [s for s in result.sub_questions if "grade" in s.question]
    reference = "MATCH (:Student {name: 'Sneha'})-[r:STUDIES]->(:Subject {name: 'Operating Systems'}) " \
                "RETURN r.grade"
    assert grade and grade[-1].found and "'Sneha'" in (grade[-1].cypher or ""), result.answer
    assert same_rows([row[-1:] for row in grade[-1].rows], rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question, asks", [
    ("When I run EXPLAIN on a query, what is the database doing to pick a plan, and which concept "
     "comes right before that one?", 2),
    ("When my table repeats a department name in every row, what rule is broken, and which "
     "subject teaches it?", 2),
    ("When I run EXPLAIN on a query, what is the database doing?", 1),
    ("If I wanted the fewest hops between two friends, which search would I use, and how does it work?", 1),
    ("how does the database choose which order to join in and which index to use?", 1),   # one verb's objects
])
def test_a_scene_then_two_asks_is_split_after_the_first_ask(question, asks):
    """"When I run EXPLAIN on a SQL query, what is the database actually doing to pick how it
    runs, and which topic should be learned just before that one?" was one part: the sentence
    opens with a scene, and the whole of it was taken for the scene."""
    assert len(RuleUpdater().split(question)) == asks


def test_gud_is_good(chat, college_db):
    """"anyone gud at docker?" was refused: chat shorthand for "good"."""
    result = chat.answer("who is gud at sql?")
    names = {r[0] for r in rows_of(college_db, "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'SQL'}) "
                                               "RETURN s.name")}
    assert result.status == "answered" and result.rows and {r[0] for r in result.rows} <= names, result.answer


@pytest.mark.parametrize("question", [
    "who all are in the debate society and since which year?",
    "who is in the Coding Club and when did they join?",
])
def test_who_is_in_a_club_and_since_when_lists_each_member_with_the_year(chat, college_db, question):
    """"who all are in robotics club and since which year, and also who is the president of it"
    was refused: "since which year" was read as the club's own year, which answers no "who"."""
    club = re.search(r"the (\w+ \w+)", question.lower())[1]
    reference = rows_of(college_db, "MATCH (s:Student)-[m:MEMBER_OF]->(c:Club) WHERE toLower(c.name) = $club "
                                    "RETURN s.name, m.since".replace("$club", repr(club)))
    result = chat.answer(question)
    assert result.status == "answered" and reference, result.answer
    assert sorted((r[0], r[-1]) for r in result.rows) == sorted(map(tuple, reference)), result.answer


def test_two_options_joined_by_or_are_one_ask():
    """"... how do you store it, matrix or list, then which topics are inside it ..." was split
    inside "matrix or list": the note was quoted twice and "list, then which topics are inside
    Graphs" said to be unanswered."""
    parts = RuleUpdater().split("how is a tree kept in memory, as an array or list, and which concepts does it "
                                "include?")
    assert len(parts) == 2 and "array or list" in parts[0], parts


def test_which_of_those_i_need_chooses_among_the_ones_found(learner, college_db):
    """"list all the concepts in DSA and also which of those i need before dynamic programming":
    "which of those I need" (no "do") was asked of nothing and said to be unanswered."""
    result = learner.answer("which concepts does Computer Networks cover, and which of those we need before "
                            "Routing?")
    reference = "MATCH (:Subject {name: 'Computer Networks'})-[:COVERS]->(c:Concept)-[:PREREQUISITE_FOR]->" \
                "(:Concept {name: 'Routing'}) RETURN c.name"
    later = result.sub_questions[-1]
    assert len(result.sub_questions) == 2 and later.found and later.rows, result.answer
    assert same_rows(later.rows, rows_of(college_db, reference)), result.answer


# --- stop 41: learner probes 67 and 68 ------------------------------------------------------------

def test_the_speakers_need_of_someone_is_no_projects_need(chat, college_db):
    """Probe 68: "i need someone good at Docker for the chatbot project, who should i ask?" was
    read with "need" as what projects require, and answered with two people, one without Docker."""
    result = chat.answer("i need someone good at Python for the library project, who should i ask?")
    skilled = {r[0] for r in rows_of(college_db, "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Python'}) "
                                                 "RETURN s.name")}
    assert result.status != "answered" or {r[0] for r in result.rows} <= skilled, result.answer
    assert "REQUIRES" not in (result.cypher or ""), result.cypher


def test_a_part_naming_nothing_keeps_the_scope_of_a_part_that_found_nothing(learner, college_db):
    """Probe 70: "the average grade of students in DSA, and who got the lowest grade, ..." asked
    the second part of every subject (the first part, unanswered, was not read) and answered
    Sneha's B in Computer Networks beside Karan's in DSA."""
    result = learner.answer("could you tell me the median grade in Operating Systems, and who got the best "
                            "grade?")
    best = [s for s in result.sub_questions if "best" in s.question and s.found]
    takers = {r[0] for r in rows_of(college_db, "MATCH (s:Student)-[:STUDIES]->(:Subject "
                                                "{name: 'Operating Systems'}) RETURN s.name")}
    assert not best or best[-1].rows and {r[0] for r in best[-1].rows} <= takers, result.answer


def test_woh_after_a_persons_things_is_the_person_when_the_verb_reaches_people(learner, college_db):
    """Probe 70: "Karan ke paas kaun si skills hain aur kis level pe, aur woh kaunse club mein
    hai?" read "woh" as each of Karan's skills and answered which club each skill is in."""
    result = learner.answer("Payal ke paas kaun si skills hain, aur woh kaunse club mein hai?")
    clubs = [s for s in result.sub_questions if "club" in s.question]
    reference = "MATCH (:Student {name: 'Payal'})-[:MEMBER_OF]->(c:Club) RETURN c.name"
    assert clubs and clubs[-1].found and same_rows(clubs[-1].rows, rows_of(college_db, reference)), result.answer


def test_a_follow_up_to_a_message_of_several_asks_asks_each_again(learner, college_db):
    """Probe 69: "Rahul ka grade in DSA and uska branch kya hai", then "aur Karan ka?" was answered
    "Karan (IT)." alone: the last part asked again, and the grade left out without a word."""
    learner.answer("What is Sneha's grade in Operating Systems and what is her branch?")
    result = learner.answer("and Karan's?")
    grade = rows_of(college_db, "MATCH (:Student {name: 'Karan'})-[r:STUDIES]->"
                                "(:Subject {name: 'Operating Systems'}) RETURN r.grade")
    found = [s for s in result.sub_questions if s.found]
    assert len({s.part for s in found}) == 2 and all("Karan" in s.rewritten for s in found), result.answer
    assert any(same_rows([row[-1:] for row in s.rows], grade) for s in found), result.answer


# --- stop 41: on the final sets, changed after the scoring ---------------------------------------

def test_a_numbered_list_of_asks_is_one_part_each(learner, college_db):
    """unseen121 (a study-group handout): "1) who works on the Library Management System 2) what
    role does each of them have on it" was refused whole, as eleven of its twelve numbered
    messages were: the numbers were read as words of one ask."""
    result = learner.answer("Revision: 1) which students study Computer Networks 2) what grade did each of "
                            "them get?")
    reference = "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'Computer Networks'}) RETURN s.name, r.grade"
    assert len({s.part for s in result.sub_questions}) == 2, result.answer
    assert same_rows(result.sub_questions[-1].rows, rows_of(college_db, reference)), result.answer


def test_a_choice_that_should_be_learnt_before_x_comes_before_x(chat, college_db):
    """Once unseen121's numbered asks were split: "which of Virtual Memory and Paging should be
    learnt before Indexing?" followed the link out of Indexing and said there is none; the
    named ones chosen among are the ones before."""
    result = chat.answer("which of Threads and Processes must be studied before Deadlocks?")
    reference = "MATCH (c:Concept)-[:PREREQUISITE_FOR]->(:Concept {name: 'Deadlocks'}) " \
                "WHERE c.name IN ['Threads', 'Processes'] RETURN c.name"
    assert_answered_with(result, college_db, reference)


def test_in_which_one_for_each_of_them_keeps_the_condition_asked_before(learner, college_db):
    """unseen121 dt032, once numbered asks were split: "2) and in which skill(s) for each of them"
    after "1) who has an Advanced level in any skill" listed every skill of each (Karan's
    Intermediate one too): "in which one, for each of them" is more of the ask before."""
    result = learner.answer("1) who is at Intermediate level in some skill 2) and in which skill(s) for each "
                            "of them")
    pairs = {tuple(r) for r in rows_of(college_db, "MATCH (s:Student)-[:HAS_SKILL {level: 'Intermediate'}]"
                                                   "->(k:Skill) RETURN s.name, k.name")}
    for s in result.sub_questions:
        if s.found and len(s.columns) > 1:
            assert {(r[0], r[1]) for r in s.rows} <= pairs, result.answer


# --- stop 42: the stop before's leads ------------------------------------------------------------

def test_a_follow_up_does_not_keep_a_value_the_old_one_was_found_with(learner, college_db):
    """Review of stop 41: after "what does Karan work on and what is his role there?", "and
    Aarav's?" asked "what is Aarav's role in Campus Chatbot?" (Karan's project, found, not said)
    and answered "there is none". The message is asked again as written, of Aarav."""
    learner.answer("which project does Sneha work on and what is her role there?")
    result = learner.answer("and Aarav's?")
    sneha = {r[0] for r in rows_of(college_db, "MATCH (:Student {name: 'Sneha'})-[:WORKS_ON]->(p:Project) "
                                               "RETURN p.name")}
    aarav = {r[0] for r in rows_of(college_db, "MATCH (:Student {name: 'Aarav'})-[:WORKS_ON]->(p:Project) "
                                               "RETURN p.name")}
    assert sneha - aarav, "the test needs a project of Sneha's that Aarav does not work on"
    asked = " ".join(s.rewritten for s in result.sub_questions)
    assert not any(name in asked for name in sneha - aarav), asked
    role = rows_of(college_db, "MATCH (:Student {name: 'Aarav'})-[r:WORKS_ON]->(:Project) RETURN r.role")
    assert any(s.found and same_rows(s.rows, role) for s in result.sub_questions), result.answer


@pytest.mark.parametrize("question, note", [
    ("the debate society laptop keeps moving pages between RAM and disk so much that nothing runs, is there a "
     "name for that?", "N20"),
    ("the robotics club router sends every packet a different way round, how does it pick where to send it "
     "next?", "N24"),
])
def test_a_club_named_in_a_clause_before_the_ask_is_the_scene(learner, question, note):
    """unseen120 (a club-fair organiser): "the old laptop at the robotics stall keeps swapping
    stuff to disk ..., is there a name for that?" was refused: the club, named in the clause
    before the ask, had to be spoken of by the note as if it were asked about."""
    result = learner.answer(question)
    assert result.status == "answered" and result.rows and result.rows[0][0] == note, result.answer


def test_a_name_asked_for_is_not_the_topic_the_question_names(learner):
    """A question of my own, on the change above: "... two threads each held a lock the other
    wanted, what do you call that?" was answered from the note on threads. A learner does not
    ask the name of a thing they named: the note on deadlocks, or nothing."""
    result = learner.answer("at the coding club stall our demo froze because two threads each held a lock the "
                            "other wanted, what do you call that?")
    assert result.status != "answered" or result.rows and result.rows[0][0] == "N18", result.answer


@pytest.mark.parametrize("question, reference", [
    ("which projects need Python? gonna add them to my resume",
     "MATCH (p:Project)-[:REQUIRES]->(:Skill {name: 'Python'}) RETURN p.name"),
    ("who is in the coding club? want to put them on our flyer",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Coding Club'}) RETURN s.name"),
])
def test_what_the_learner_will_do_with_the_answer_is_no_change_to_the_graph(learner, college_db, question,
                                                                            reference):
    """unseen120: "what skills do the robotics club members have between them? want to put it on
    their poster" was blocked as a change to the data ("put")."""
    result = learner.answer(question)
    assert result.status == "answered" and same_rows(result.rows, rows_of(college_db, reference)), result.answer


@pytest.mark.parametrize("question", ["add Python to my skills", "I want to put Aarav in our club"])
def test_a_change_to_the_graphs_own_things_is_still_refused(learner, question):
    assert learner.answer(question).status == "blocked"


# --- stop 42: unseen122 (a placement coordinator, formal) and unseen123 (a hostel senior), development

@pytest.mark.parametrize("question, reference", [
    ("Which candidates are members of the Debate Society?",
     "MATCH (s:Student)-[:MEMBER_OF]->(:Club {name: 'Debate Society'}) RETURN s.name"),
    ("Which candidates secured an A in DSA?",
     "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DSA'}) WHERE r.grade = 'A' RETURN s.name"),
    ("Kindly share the list of applicants skilled in Python.",
     "MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Python'}) RETURN s.name"),
])
def test_a_formal_request_for_people_by_another_word_for_them(learner, college_db, question, reference):
    """unseen122: a placement coordinator's "candidates", "secured", "kindly share the list" were
    unknown words, and 28 of 50 questions were refused."""
    assert_answered_with(learner.answer(question), college_db, reference)


def test_a_formal_message_of_two_asks_answers_both(learner, college_db):
    """unseen122: "Please share the list of candidates skilled in Machine Learning. Additionally,
    kindly confirm which skills the Campus Chatbot project requires." was refused whole."""
    result = learner.answer("Please share the list of students skilled in Python. Additionally, kindly confirm "
                            "which skills the Attendance Tracker project requires.")
    found = [s for s in result.sub_questions if s.found]
    for reference in ("MATCH (s:Student)-[:HAS_SKILL]->(:Skill {name: 'Python'}) RETURN s.name",
                      "MATCH (:Project {name: 'Attendance Tracker'})-[:REQUIRES]->(k:Skill) RETURN k.name"):
        assert any(same_rows(s.rows, rows_of(college_db, reference)) for s in found), result.answer


def test_kindly_provide_the_names_and_their_clubs_is_two_asks(learner, college_db):
    """unseen122: "Kindly provide the names of the ECE candidates, and also the clubs they are
    members of." answered the names alone ("Sneha."), the clubs left out without a word."""
    result = learner.answer("Kindly provide the names of the IT students, and also the clubs they are members "
                            "of.")
    clubs = rows_of(college_db, "MATCH (s:Student {branch: 'IT'})-[:MEMBER_OF]->(c:Club) RETURN DISTINCT c.name")
    assert result.status == "answered" and any(
        s.found and {r[-1] for r in s.rows} == {r[0] for r in clubs} for s in result.sub_questions), result.answer


def test_a_note_asked_for_is_found_by_what_it_is_to_be_on(learner):
    """unseen122: "A recruiter asked how a computer manages to run programs that need more memory
    than the RAM ... Which note should the candidates go through before the interview?" was
    refused: the ask's words of sharing diluted what the note is to be on, and "which note"
    asked the note to use the word "note". ("Please share the note on running several
    lightweight tasks inside one program that share its memory", my second phrasing, still
    finds the note on threads just under the bar: refused.)"""
    result = learner.answer("Our interview panel asks how a website name turns into a server's numeric address. "
                            "Which note should I send the students?")
    assert result.status == "answered" and result.rows and result.rows[0][0] == "N23", result.answer


def test_they_after_a_plural_noun_in_the_same_question_is_that_noun(learner, college_db):
    """unseen122, in a conversation: "Kindly list the candidates who have taken DBMS, along with
    the grades they obtained" after a list of four people read "they" as those four, and answered
    Payal alone (Aarav, who studies DBMS, was not among them)."""
    learner.answer("who has an Advanced level in any skill?")
    result = learner.answer("list the students who have taken DBMS, along with the grades they got")
    reference = "MATCH (s:Student)-[r:STUDIES]->(:Subject {name: 'DBMS'}) RETURN s.name, r.grade"
    assert_answered_with(result, college_db, reference)


def test_before_that_at_the_end_asks_for_what_a_link_reaches(learner):
    """unseen123: "the subject that has paging in it wat do i need to finish before that" was
    answered from the note on paging: a bare "that" at the end stands in the name's place, as
    "that subject" does, and the graph answers what comes before it."""
    result = learner.answer("the subject that has deadlocks in it wat should i finish before that")
    assert not any(s.found and s.tool == "search_notes" for s in result.sub_questions), result.answer


# --- stop 42: learner probe 71 --------------------------------------------------------------------

def test_a_verb_with_its_object_left_out_is_of_what_the_ask_before_is_about(learner):
    """Probe 71: "whats it called when a table is already in 3nf but still has issues ...? how to
    fix" answered "how to fix?" from the note on 1NF, the one whose fix is written most plainly;
    "how to fix" fixes what the ask before it is about."""
    result = learner.answer("what does 2NF require? how to fix")
    notes = [s.rows[0][0] for s in result.sub_questions
             if s.found and s.rows and str(s.rows[0][0]).startswith("N")]
    assert result.status == "answered" and notes and set(notes) == {"N03"}, result.answer


def test_that_second_one_simply_is_the_second_found(learner):
    """Probe 71: "explain that second one simply" after "what topics come under memory
    management?" was refused: "that second one" was no place, "simply" an unknown word."""
    learner.answer("what topics come under memory management?")
    result = learner.answer("explain that first one simply")
    assert result.status == "answered" and result.rows and result.rows[0][0] == "N20", result.answer


@pytest.mark.parametrize("question", [
    "bank me ek account se paisa kaat ke dusre me daalna, sab ek saath, isko kya kehte hai?",
    "money is taken out of one account and put into another in one go, what do you call that?",
])
def test_the_name_of_a_change_described_is_no_request_for_a_change(learner, question):
    """Probe 72: "bank me ek account se paisa kaat ke dusre me daalna, ..., isko kya kehte
    hai?" was blocked as a change to the data: it asks what such a change is called."""
    assert learner.answer(question).status != "blocked"


def test_a_question_word_at_the_end_of_its_clause_asks_there(learner, college_db):
    """unseen123: "graphs topic includes wat n which subject teaches it" was refused whole: an
    ask whose question word ends it ("includes wat") was read as no ask, so "n" joined nothing."""
    result = learner.answer("dbms covers wat n who studies it")
    found = [s for s in result.sub_questions if s.found]
    for reference in ("MATCH (:Subject {name: 'DBMS'})-[:COVERS]->(c:Concept) RETURN c.name",
                      "MATCH (s:Student)-[:STUDIES]->(:Subject {name: 'DBMS'}) RETURN s.name"):
        assert any(same_rows(s.rows, rows_of(college_db, reference)) for s in found), result.answer


# --- stop 42: on the final sets, changed after the scoring ----------------------------------------

def test_what_someone_is_talking_about_is_no_fact_of_theirs(learner):
    """unseen124 (a parent): "... Aarav said this is exactly like something inside a running
    program ... what is he talking about" was answered with Aarav's subjects: "talking" was
    read as a typo of "taking"."""
    result = learner.answer("Karan said it is like a queue at the bank. what is Karan talking about?")
    assert not any(s.found and "STUDIES" in (s.cypher or "") for s in result.sub_questions), result.answer


def test_my_son_and_his_name_is_the_one_named(learner, college_db):
    """unseen124: "what grade did my son Aarav get in DBMS" was refused: "son" was an unknown
    word, where "my friend Aarav" names Aarav."""
    assert_answered_with(learner.answer("what grade did my daughter Payal get in DSA"), college_db,
                         "MATCH (:Student {name: 'Payal'})-[r:STUDIES]->(:Subject {name: 'DSA'}) RETURN r.grade")


def test_the_one_who_said_it_is_no_value_asked_about(college_db):
    """unseen124: "Aarav said the computer cuts its memory into equal size pieces ... what is
    this called?": Aarav is where the learner heard of it; a note need not speak of him."""
    from course.agents.named_in_notes import named_in_the_ask

    assert named_in_the_ask(college_db, "Rahul says routers pick the next hop. What is he talking about?") == []
