"""The answer step: a short factual sentence from the rows, in the question's language.

Used by the offline provider (notebooks 05, 06 and 08). The rows come fenced between
`<<<DATA` and `DATA>>>`; they are quoted, never followed.
"""
from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from course.foundation.language import WORDS as LANGUAGE
from course.foundation.language import language_of
from course.llm.offline.lexicon import default_lexicon

WORDS = {"en": {"then": "then", "and": "and", "more": "more", "yes": "Yes.", "no": "No.",
                "none": "I found nothing in the graph for that.",
                "cut": " (The list may be incomplete.)", "empty": "none",
                "no_note": "No note explains it."},
         "hi": {"then": "phir", "and": "aur", "more": "aur", "yes": "Haan.", "no": "Nahi.",
                "none": "Graph mein iske liye kuch nahi mila.",
                "cut": " (List adhoori ho sakti hai.)", "empty": "koi nahi",
                "no_note": "Iska koi note nahi hai."}}
MAX_ITEMS = 10
MAX_TEXT = 400
NOTE_COLUMNS = {"note", "text"}   # a note's rows: quoted, the note named
SHORT_NOTE = 600                   # characters: a note this short is quoted whole
LONG_ITEM = 120    # an answer item longer than this is a paragraph, shown on its own line


def parse_rows(prompt: str) -> tuple[str, str, list[str], list[list[Any]], bool]:
    """(question, cypher, columns, rows, truncated) from an answer prompt."""
    question = re.search(r"^QUESTION: (.*)$", prompt, re.M)
    cypher = re.search(r"^CYPHER: (.*?)\nROWS \(", prompt, re.S | re.M)
    header = re.search(r"^ROWS \((\d+) row\(s\)(, cut short)?; columns: (.*)\):$", prompt, re.M)
    start, end = prompt.find("<<<DATA\n"), prompt.rfind("\nDATA>>>")
    body = prompt[start + len("<<<DATA\n"):end] if 0 <= start < end else ""
    rows = []
    for line in body.splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            row = [line]
        rows.append(row if isinstance(row, list) else [row])
    return (question[1] if question else "", cypher[1] if cypher else "",
            header[3].split(", ") if header else [], rows, bool(header and header[2]))


def _text(value: Any, *, arrow_list: bool = False, lang: str = "en") -> str:
    if isinstance(value, list):
        items = [_text(v, lang=lang) for v in value]
        return " → ".join(items) if arrow_list else _join(items, lang)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return shorten(" ".join(str(value).split()))


def shorten(text: str, limit: int = MAX_TEXT) -> str:
    """The text, or its first sentences up to `limit` characters: never cut mid-sentence.

    >>> shorten("One. Two three. Four.", limit=16)
    'One. Two three. …'
    """
    if len(text) <= limit:
        return text
    end = text.rfind(". ", 0, limit)
    return (text[:end + 1] if end > 0 else text[:limit].rsplit(" ", 1)[0]) + " …"


def _join(items: list[str], lang: str, *, ordered: bool = False) -> str:
    w = WORDS[lang]
    if not items:   # an empty list in a row: a student in no club
        return w["empty"]
    if ordered:
        return f", {w['then']} ".join(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {w['and']} {items[-1]}"


def _value(column: str, value: Any, *, lang: str, named: bool = False) -> str:
    """'A+', '3 students', 'year: 2', 'branch: CSE' (named: always say the column)."""
    column = column.replace("_", " ")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return amount(value, column) if column.endswith("s") else f"{column}: {value}"
    return f"{column}: {_text(value, lang=lang)}" if named else _text(value, lang=lang)


def amount(number: Any, noun: str) -> str:
    """A number with its noun, singular for one: amount(1, "notes") -> '1 note'."""
    if number == 1 and noun.endswith("s") and not noun.endswith("ss"):
        noun = noun[:-3] + "y" if noun.endswith("ies") else noun[:-1]
    return f"{number} {noun}".rstrip()


def _row_text(row: list[Any], columns: list[str], lang: str, path_like: bool) -> str:
    values = [(c, v) for c, v in zip(columns or [""] * len(row), row) if v is not None]
    if not values:
        return "-"
    head = _text(values[0][1], arrow_list=path_like, lang=lang)
    rest = values[1:]
    if not rest:
        return head
    long = [(c, v) for c, v in rest if isinstance(v, str) and len(v) > 60]
    short = [(c, v) for c, v in rest if (c, v) not in long]
    if len(short) == 1 and not long:
        return f"{head} ({_value(*short[0], lang=lang)})"
    text = head + (f" ({', '.join(_value(c, v, lang=lang, named=True) for c, v in short)})" if short else "")
    return text + "".join(f": {_text(v, lang=lang)}" for _, v in long)


def _grouped(rows: list[list[Any]], lang: str) -> str:
    """Two columns whose first repeats, said once with its own: "Welding: Cutting and
    Grinding; Painting: Sanding." ("Welding (Cutting), Welding (Grinding)" reads as Welding
    twice, each with a detail).

    >>> _grouped([["Welding", "Cutting"], ["Welding", "Grinding"], ["Painting", "Sanding"]], "en")
    'Welding: Cutting and Grinding; Painting: Sanding.'
    """
    groups: dict[str, list[str]] = {}
    for first, second in rows:
        groups.setdefault(_text(first, lang=lang), []).append(_text(second, lang=lang))
    return "; ".join(f"{head}: {_join(items, lang)}" for head, items in groups.items()) + "."


def write_answer(prompt: str) -> str:
    """A short factual answer from the rows in an answer prompt; the rows are only quoted.

    >>> write_answer('QUESTION: Who is best at Physics?\\nCYPHER: MATCH ... ORDER BY ...\\n'
    ...              'ROWS (2 row(s); columns: person, grade):\\n<<<DATA\\n["Zoya", "A+"]\\n'
    ...              '["Ravi", "A"]\\nDATA>>>')
    'Zoya (A+), then Ravi (A).'
    """
    return answer_rows(*parse_rows(prompt))


def answer_rows(question: str, cypher: str, columns: list[str], rows: list[list[Any]],
                truncated: bool = False) -> str:
    """The answer `write_answer` writes, from the rows themselves (the tool loop's records).

    >>> answer_rows("what is a lathe?", "", ["note", "concept", "area", "text"],
    ...             [[None, "Lathes", "Workshop", None]])
    'Lathes (Workshop). No note explains it.'
    """
    lang = language_of(question)
    w = WORDS[lang]
    if rows and NOTE_COLUMNS <= set(columns):
        if any(rows[0][columns.index(c)] is not None for c in NOTE_COLUMNS):
            return quote_note(question, columns, rows)
        # a concept no note explains ("what is a lathe?"): what the graph holds of it, said
        kept = [i for i, c in enumerate(columns) if c not in NOTE_COLUMNS]
        held = answer_rows(question, cypher, [columns[i] for i in kept], [[r[i] for i in kept] for r in rows])
        return f"{held} {w['no_note']}"
    if not rows:
        return w["none"]
    if len(rows) == 1 and len(rows[0]) == 1 and isinstance(rows[0][0], bool):
        return w["yes"] if rows[0][0] else w["no"]
    path_like = "SPpaths" in cypher or (columns[:1] == ["route"])
    if len(rows) == 1 and len(rows[0]) == 1 and "count(" in cypher.lower():
        noun = columns[0].replace("_", " ") if columns else ""
        return amount(rows[0][0], noun) + "."
    repeats = len({str(r[0]) for r in rows}) < len(rows) <= MAX_ITEMS and all(None not in r for r in rows)
    if len(columns) == 2 and repeats and "ORDER BY" not in cypher:   # ("Welding (Cutting), Welding (...)")
        return _grouped(rows, lang)
    items = [_row_text(r, columns, lang, path_like) for r in rows[:MAX_ITEMS]]
    if any(len(item) > LONG_ITEM for item in items):   # paragraphs: one per line, not a sentence
        more = f"\n({w['and']} {len(rows) - MAX_ITEMS} {w['more']})" if len(rows) > MAX_ITEMS else ""
        return "\n".join(f"- {item}" for item in items) + more + (w["cut"] if truncated else "")
    text = _join(items, lang, ordered="ORDER BY" in cypher.upper())
    if len(rows) > MAX_ITEMS:
        text += f" ({w['and']} {len(rows) - MAX_ITEMS} {w['more']})"
    return text.rstrip(".") + "." + (w["cut"] if truncated else "")


def quote_note(question: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """The best note, with the note named: whole when it is short, else its sentences that
    hold the question's terms. Which sentence of a short note answers a question asked in
    other words ("the downside" of an index is its cost) is not something shared words can
    tell, so a short note is never cut. A topic the question names that the best note leaves
    out has its own note quoted after it, when the rows hold one (`left_out`).

    >>> quote_note("What does COMMIT do?", ["note", "concept", "text"],
    ...            [["N08", "Transactions", "A transaction is a unit. COMMIT makes it permanent."]])
    'A transaction is a unit. COMMIT makes it permanent. (note N08, on Transactions)'
    >>> quote_note("What does COMMIT do?", ["note", "concept", "text"],
    ...            [["N08", "Transactions", "A unit. " * 80 + "COMMIT makes it permanent."]])
    'COMMIT makes it permanent. (note N08, on Transactions)'
    """
    return "\n\n".join(_quoted(question, dict(zip(columns, row)))
                        for row in [rows[0], *left_out(question, columns, rows)])


def _quoted(question: str, record: dict[str, Any]) -> str:
    text = str(record.get("text", ""))
    if len(text) > SHORT_NOTE:
        sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
        terms = [w for w in re.findall(r"[a-z0-9]+", question.lower())
                 if w not in LANGUAGE.not_terms and len(w) > 1]
        stems = [t[:5] for t in dict.fromkeys(terms)]
        picked = [s for s in sentences if any(stem in s.lower() for stem in stems)][:2]
        text = " ".join(picked or sentences[:1])
    return f"{text} (note {record.get('note')}, on {record.get('concept')})"


def left_out(question: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[Sequence[Any]]:
    """The rows after the best whose concept the question names and the best note's text does
    not, when the question names the best note's concept too: "paging aur virtual memory mein
    kya farak hai?" compares two topics, and the note on virtual memory does not speak of
    paging (`names_topic`).

    >>> rows = [["N13", "BFS", "BFS explores a graph level by level."],
    ...         ["N14", "DFS", "DFS goes deep first."], ["N12", "Graphs", "A graph has edges."]]
    >>> [r[0] for r in left_out("bfs vs dfs?", ["note", "concept", "text"], rows)]
    ['N14']
    >>> left_out("how does bfs search a graph?", ["note", "concept", "text"], rows)
    []
    >>> rows = [["N04", "3NF", "3NF: in 2NF and more."], ["N03", "2NF", "2NF: no partial dependency."]]
    >>> [r[0] for r in left_out("difference between 2nf and 3nf?", ["note", "concept", "text"], rows)]
    ['N03']
    """
    if "concept" not in columns or "text" not in columns or not rows:
        return []
    concept, text = list(columns).index("concept"), list(columns).index("text")
    if not names_topic(question, str(rows[0][concept])):   # the best note's topic is one compared
        return []
    # ("the difference between 2NF and 3NF": the note on 3NF names 2NF, but a difference asks
    # for both topics' own notes)
    contrast = re.search(default_lexicon().cues.get("contrast", r"(?!)"), question.lower()) is not None
    return [row for row in rows[1:] if names_topic(question, str(row[concept]))
            and (contrast or not names_topic(str(rows[0][text]), str(row[concept])))]


def names_topic(text: str, topic: str) -> bool:
    """Does `text` name every word of a topic's name, each by its first five letters ("threads"
    names Threads, "processes" Processes, "virtual memory" Virtual Memory; "pages" is no
    Paging)?

    >>> names_topic("bfs vs dfs?", "DFS"), names_topic("the pages it needs", "Paging")
    (True, False)
    """
    words, parts = re.findall(r"[a-z0-9]+", text.lower()), re.findall(r"[a-z0-9]+", topic.lower())
    return bool(parts) and all(any(w.startswith(part[:5]) for w in words) for part in parts)


def is_answer_prompt(prompt: str) -> bool:
    """The answer step's prompt: QUESTION, CYPHER, ROWS and the rows fenced as data."""
    return (prompt.startswith("QUESTION:") and "\nCYPHER: " in prompt and "\nROWS (" in prompt
            and "<<<DATA" in prompt)
