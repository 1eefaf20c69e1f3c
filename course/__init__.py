"""The GraphRAG course package: what the notebooks import.

    import course
    db = course.connect()              # notebook 01: embedded FalkorDB, no Docker
    course.load_college(db)            # 75 nodes, 132 relationships
    agent = course.Agent(db)           # notebook 05: question -> Cypher -> rows -> answer
    agent = course.Agent(db, course.make_llm("offline"), memory=course.ShortTermMemory())

The package has a folder per part of the course (foundation, llm, pipeline, agents,
retrieval, planner, ui); each lesson's own module (`course.pipeline.safety` in notebook 03,
`course.pipeline.cleaning` in 04, ...) holds the details that lesson opens up; everything
else is here.
"""
from course.foundation.connection import connect
from course.foundation.dataset import load_college
from course.foundation.errors import CourseError
from course.llm import ScriptedLLM, make_llm
from course.llm.offline import OfflineLLM
from course.pipeline.agent import Agent
from course.pipeline.answer_cache import AnswerCache
from course.pipeline.graph_memory import GraphMemory
from course.pipeline.memory import ShortTermMemory
from course.pipeline.results import Result

__all__ = ["connect", "load_college", "Agent", "Result", "make_llm", "ScriptedLLM", "OfflineLLM",
           "ShortTermMemory", "GraphMemory", "AnswerCache", "CourseError"]
