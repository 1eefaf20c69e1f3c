"""The course's web app: notebook 08's chat in a browser (`python -m course serve`).

Introduced in notebook 08 (the chat), for the projector and for a room: a question's stages
stream as the agent works, the answer is lit up in the graph, each browser keeps its own
conversation. The parts: `access` (who may use it, what text may be shown), `sessions` (one
conversation per browser, a rate limit), `stages` (the agent's steps as events), `picture`
(the graph as positioned nodes), `app` (the routes) and `static/` (the page, its script and
style, served by the app itself: nothing comes from the internet).

>>> from course.ui.web.access import is_loopback
>>> is_loopback("127.0.0.1"), is_loopback("0.0.0.0")
(True, False)
"""
