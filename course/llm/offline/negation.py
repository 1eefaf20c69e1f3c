"""A "not" beside a value's word: the other values ("Which projects aren't finished yet?").

Used by the offline provider's `translate` (notebooks 05 and 09): any other "not" is refused.
"""
from __future__ import annotations

import re
from dataclasses import replace

from course.llm.offline.filters import filter_values
from course.llm.offline.reading import Reading


def negated(reading: Reading) -> Reading | None:
    """"Which projects aren't finished yet?": the question without its "not", the value's
    property marked negated, when the "not" stands right by a word for a listed value
    (`lexicon.yaml`: negating); None for any other "not". The values left out are those of the
    word the "not" stands by: a value named elsewhere ("hasn't started, still only planned")
    is still asked for, never turned."""
    way = reading.lexicon.raw.get("negating") or {}
    for key, listed in reading.schema.values.items():
        prop = key.split(".")[1]
        words = [re.escape(str(v).lower()) for v in listed if isinstance(v, str)]
        named = "|".join(words + ([reading.lexicon.value_words[prop]]
                                  if reading.lexicon.value_words.get(prop) else []))
        if not named:
            continue
        value = rf"(?:{named})"
        for regex, before in ((rf"{way.get('before', '(?!)')}(?={value})", True),
                              (rf"(?<=\w){way.get('after', '(?!)')}", False)):
            for m in re.finditer(regex, reading.text):
                # the value's word the "not" stands by: after it ("not started"), or before it
                # ("shuru hua nahi")
                word = (re.match(value, reading.text[m.end():]) if before
                        else re.search(rf"{value}\s*$", reading.text[:m.start()]))
                if word is None:
                    continue
                text = reading.text[:m.start()] + " " + reading.text[m.end():]
                text = re.sub(r"\b(are|is|was|were|has|have|had|do|does|did)n't\b", r"\1", text)
                done = replace(reading, text=re.sub(r"\s+", " ", text).strip(), negated=prop)
                if done.has("negation") or not filter_values(done, key):
                    return None
                elsewhere = (reading.text[:m.start()] + " " + reading.text[m.end() + word.end():] if before
                             else reading.text[:word.start()] + " " + reading.text[m.end():])
                # (by any word for it the filter reads: "still in the planning stage")
                others = [str(v) for v in listed if isinstance(v, str) and re.search(
                    rf"(?<![\w+]){re.escape(str(v).lower())}(?![\w+])", elsewhere)] \
                    or [str(v) for v in filter_values(replace(reading, text=elsewhere), key)]
                own = replace(done, text=_without(done.text, others))
                turned = _meant_by(reading, prop, listed, word[0]) or \
                    [v for v in filter_values(own, key) if v not in others]
                return replace(done, negated_values=tuple(turned), said_besides=tuple(others))
    return None


def _meant_by(reading: Reading, prop: str, listed: list, said: str) -> list[str]:
    """The values the word the "not" stands by means, itself alone: "not finished yet but
    already started" turns the finished ones, not the started ones too."""
    means = reading.lexicon.value_means.get(prop, [])
    return [str(v) for v in listed if isinstance(v, str) and (said == v.lower() or any(
        re.fullmatch(word, said) and re.search(meant, v.lower()) for word, meant in means))]


def _without(text: str, values: list[str]) -> str:
    """The text without the named values' own words.

    >>> _without("which project has started yet and is still only planned", ["Planned"])
    'which project has started yet and is still only'
    """
    for v in values:
        text = re.sub(rf"(?<![\w+]){re.escape(v.lower())}(?![\w+])", " ", text)
    return re.sub(r"\s+", " ", text).strip()
