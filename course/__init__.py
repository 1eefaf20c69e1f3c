"""The GraphRAG course package: what the notebooks import.

    import course
    db = course.connect()              # notebook 01: embedded FalkorDB, no Docker
    course.load_college(db)            # 75 nodes, 132 relationships
    agent = course.Agent(db)           # notebook 05: question -> Cypher -> rows -> answer
    agent = course.Agent(db, course.make_llm("offline"), memory=course.ShortTermMemory())

Each lesson's own module (`course.safety` in notebook 03, `course.cleaning` in 04, ...)
holds the details that lesson opens up; everything else is here.
"""
from .agent import Agent
from .dataset import load_college
from .db import connect
from .errors import CourseError
from .graph_memory import AnswerCache, GraphMemory
from .llm import ScriptedLLM, make_llm
from .llm.offline import OfflineLLM
from .memory import ShortTermMemory
from .results import Result

__all__ = ["connect", "load_college", "Agent", "Result", "make_llm", "ScriptedLLM", "OfflineLLM",
           "ShortTermMemory", "GraphMemory", "AnswerCache", "CourseError"]
