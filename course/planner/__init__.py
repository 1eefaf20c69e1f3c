"""The study planner: plans, weak spots and study partners from the graph (notebook 14).

>>> from course.planner.planner import plan
>>> plan(db, "Sneha", "dbms", days=5).order()[:3]
['Normalization', 'Arrays', '1NF']
"""
