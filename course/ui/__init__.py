"""What a learner looks at: graph pictures, the chat widget and the demo (notebooks 01, 08).

`viz` draws the graph and an answer in it, `widgets` is the chat in a notebook, `demo`
asks the five questions of notebook 08.

>>> from course.ui.demo import FIVE_QUESTIONS
>>> len(FIVE_QUESTIONS)
5
"""
