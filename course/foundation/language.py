"""The language of a question: English, or Hinglish (Hindi in the Latin alphabet).

Introduced in notebook 05, where the agent answers in the language of the question; the
offline provider (notebook 05) and graph memory's notes (notebook 10) use it too.

>>> language_of("Payal ka year kya hai?"), language_of("What year is Payal in?")
('hi', 'en')
"""
from __future__ import annotations

_HINGLISH = {"kya", "kaun", "hai", "hain", "ka", "ki", "ke", "se", "tak", "batao", "mein", "dono",
             "uska", "uski", "uske", "kaise", "kitne", "kitna", "padhta", "padhte", "kisne", "koi",
             "aur", "bhi", "sab", "kab", "kahan", "yeh", "woh", "mujhe", "kis", "kiska", "kaunse",
             "kon", "konsa", "konse", "konsi", "kaunsi", "kaunsa", "h", "padhata", "padhati", "padhti",
             "padhna", "chahiye", "baad", "pehle", "wala", "wali", "wale", "karta", "karti", "nahi",
             "hota", "hoti"}

# Words that point back at something said before (the memory of notebook 06 and the refusal
# that asks "who do you mean?" read them); the first group stands for a person or a thing.
PERSON_PRONOUNS = frozenset("""he him his himself she her hers herself uska uski uske usne usko
    usse""".split())
PRONOUNS = PERSON_PRONOUNS | frozenset("""it its itself they them their theirs unka unki unke
    unhone unko isko iska iski iske isne inka inki inke inko woh wo vo voh yeh ye wahi wohi
    yahi usme isme unme inme""".split())
REFERRING = PRONOUNS | {"that", "this", "these", "those", "there", "same", "former", "latter"}


def language_of(question: str) -> str:
    """'hi' for Hinglish (two or more Hindi function words, or one in a short question), else 'en'."""
    words = [w.strip("?!.,").lower() for w in question.split()]
    hits = sum(w in _HINGLISH for w in words)
    return "hi" if hits >= 2 or (hits == 1 and len(words) <= 4) else "en"
