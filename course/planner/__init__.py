"""Study plans, weak spots and study partners, computed from the graph (the course text's Part 3).

Introduced in notebook 14. The graph does the work and no model is needed to be right:

- `plan(db, student, subject, days)`: every concept the subject covers that the student does
  not know, plus every prerequisite of those that the student does not know (from any
  subject), in an order where each prerequisite (PREREQUISITE_FOR, followed transitively)
  comes before what needs it and a concept's INCLUDES parent comes before its parts where
  that order allows, spread evenly over at most `days` days with the note that explains each.
  **Known** means: covered by a subject the student studies (what a concept the student
  knows rests on is taken as known too). A prerequisite cycle is reported, never looped on:
  the concepts in it, and those that need them, are left unscheduled with the reason.
- `weak_spots(db, student)`: the student's grades on the scale of data/college/schema.yaml,
  the weak ones, the prerequisite path to the hardest concepts of the weakest subject, and
  the concepts their stored conversations (graph memory, notebook 10) kept failing on.
- `peers(db, student)`: study partners (weak in the same subject) and mentors (strong in it),
  each with the graph fact as the reason.
- `write_up(plan, llm)`: the plan in words. The offline provider gets a fixed template
  (the offline plan writer); a real model words the plan's data and is checked for it.

Every query takes its values as parameters. Students are found by name or id, subjects by
name, code or alias, in any case (`lookup`). One module per idea: `lookup`, `concepts` (the
concept graph), `order`, `plans`, `picture`, `weak_spots`, `peers`, `writeup` (the plan in
words) and `planner_tools` (the planner as tools of the agentic agent).

>>> from course.planner.plans import plan
>>> p = plan(db, "Sneha", "dbms", days=5)
>>> [day.names() for day in p.days][:2]
[['Normalization', 'Arrays', '1NF'], ['Linked Lists', '2NF']]
>>> [k.concept for k in p.known]
['Deadlocks', 'Paging']
"""
