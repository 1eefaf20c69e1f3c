"""The GraphRAG course package: what the notebooks import.

    import course
    db = course.connect()              # notebook 01: embedded FalkorDB, no Docker
    course.load_college(db)            # 75 nodes, 132 relationships
    agent = course.Agent(db)           # notebook 05: question -> Cypher -> rows -> answer
"""
from .db import Database, Rows, connect
from .dataset import load_college
from .errors import CourseError

__all__ = ["connect", "load_college", "Database", "Rows", "CourseError"]
