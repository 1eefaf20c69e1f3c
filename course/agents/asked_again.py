"""A follow-up to a message of several asks: "Rahul's grade in DSA and his branch?", "and Karan's?"

Introduced in notebook 12, with the agentic agent. "and Karan's?" asks the message before again,
of Karan. When that message was answered in several parts, asking only its last part again
answers half and says nothing of the rest ("Karan (IT)." and no grade). Nor is each part as it
was rewritten the right ask: "what does Karan work on and what is his role there?" rewrote its
second part with Karan's project, which is not Aarav's. So a follow-up that only names a new
value asks the whole message again, as the learner wrote it, with the new value in place of the
one of its kind the message named; the parts are split and rewritten from there. When the
message named no single value of that kind, the follow-up is left as it is.

>>> link = lambda text: [Mention(n, "Person", "name", n, 1.0) for n in ("Ben", "Asha") if n in text]
>>> message_again("and Asha's?", "What does Ben work on, and his role there?", link)
'What does Asha work on, and his role there?'
>>> message_again("Who is Asha?", "What does Ben work on, and his role there?", link)
''
"""
from __future__ import annotations

from collections.abc import Callable

from course.llm.offline.roles.updater import asked_again
from course.pipeline.linking import Mention


def message_again(question: str, message: str, link: Callable[[str], list[Mention]]) -> str:
    """The message before (of several asks; "" when it had one) asked again of the value the
    question names, or "" (no message, no follow-up, or no single value of that kind in it)."""
    if not message:
        return ""
    asked = [(m.label, m.value) for m in link(message)]
    return asked_again(question, [(message, asked, [])], link(question)) or ""
