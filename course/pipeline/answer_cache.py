"""The answer cache: answers to stand-alone questions, shared across sessions for a while.

Introduced in notebook 10. FalkorDB is Redis, so each answer is one key with a time-to-live;
the key holds the question, the data version, the agent and the provider's configuration,
and the stored query is run again before an answer is served.

>>> AnswerCache(db, ttl_s=60).ttl("Who is Payal?", version="v0", provider="offline")
-2
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import redis

from course.foundation.db import Database
from course.foundation.errors import DatabaseUnavailable
from course.pipeline.graph_memory import check_id
from course.pipeline.memory import question_key
from course.pipeline.recheck import still_given
from course.pipeline.results import Result


class AnswerCache:
    """Answers to stand-alone questions, shared across sessions, kept for `ttl_s` seconds.

    FalkorDB is Redis, so each answer is one key set with `SET key value EX ttl`; Redis
    deletes it when the time is up. The key is made of the normalised question, the data
    version, the agent that answered (`Agent.answered_by`: the pipeline, the tool loop, an
    agentic agent and its tools answer the same question differently) and the provider's
    exact configuration (`course.pipeline.agent.provider_config`: name, model and endpoint),
    so a changed graph, another agent, model or endpoint never gets an old answer. Before an answer is served, its query is run again (`stands_behind`):
    an entry whose rows the graph does not give back is never served.

    >>> cache = AnswerCache(db, ttl_s=3600)
    >>> cache.stats()
    {'hits': 0, 'misses': 0, 'hit_rate': 0.0}
    """

    def __init__(self, db: Database, *, ttl_s: int = 3600, namespace: str = "shared"):
        if ttl_s < 1:
            raise ValueError("ttl_s must be at least 1 second")
        self.redis = db.client.connection
        self.ttl_s = ttl_s
        namespace = check_id(namespace, what="cache namespace")
        self.prefix = f"course:answers:{namespace}:{db.graph_name}:"
        self.hits = self.misses = 0

    def key(self, question: str, *, version: str, provider: str, agent: str = "pipeline") -> str:
        """The Redis key of one answer."""
        digest = hashlib.sha1(f"{agent}\n{provider}\n{version}\n{question_key(question)}"
                              .encode()).hexdigest()
        return self.prefix + digest[:24]

    def get(self, question: str, *, version: str, provider: str, agent: str = "pipeline",
            count: bool = True) -> dict[str, Any] | None:
        """The stored answer (a dict of cypher, columns, rows, answer), counted as hit or miss
        (`count=False`: a second look, not counted)."""
        raw = self._call(self.redis.get, self.key(question, version=version, provider=provider,
                                                  agent=agent))
        if count:
            self.hits, self.misses = self.hits + (raw is not None), self.misses + (raw is None)
        return None if raw is None else json.loads(raw)

    def stands_behind(self, stored: dict[str, Any], db: Database, *, count: bool = True) -> bool:
        """True when the stored query, run again through the guarded door, gives the stored rows.

        An entry written by someone else (another endpoint's invented answer), or one whose
        rows no longer match, is dropped as a miss.
        """
        same = still_given(db, stored)
        if not same and count:
            self.hits -= 1
            self.misses += 1
        return same

    def put(self, result: Result, *, version: str, provider: str, agent: str = "pipeline") -> str:
        """Store a result's answer for ttl_s seconds; returns the key."""
        key = self.key(result.question, version=version, provider=provider, agent=agent)
        value = json.dumps({"question": result.question, "cypher": result.cypher,
                            "columns": result.columns, "rows": result.rows, "answer": result.answer,
                            "provider": result.provider, "truncated": result.truncated,
                            "parameters": result.parameters}, ensure_ascii=False, default=str)
        self._call(self.redis.set, key, value, ex=self.ttl_s)
        return key

    def ttl(self, question: str, *, version: str, provider: str, agent: str = "pipeline") -> int:
        """Seconds left before the answer expires; -2 when there is none."""
        return self._call(self.redis.ttl, self.key(question, version=version, provider=provider,
                                                   agent=agent))

    def stats(self) -> dict[str, Any]:
        """Hits, misses and the hit rate of this cache object."""
        asked = self.hits + self.misses
        return {"hits": self.hits, "misses": self.misses,
                "hit_rate": round(self.hits / asked, 3) if asked else 0.0}

    def size(self) -> int:
        """How many answers are stored under this cache's prefix now."""
        return len(self._keys())

    def clear(self) -> int:
        """Delete every answer under this prefix; returns how many there were."""
        keys = self._keys()
        if keys:
            self._call(self.redis.delete, *keys)
        self.hits = self.misses = 0
        return len(keys)

    def _keys(self) -> list[bytes]:
        return self._call(lambda: list(self.redis.scan_iter(match=self.prefix + "*", count=500)))

    @staticmethod
    def _call(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except redis.RedisError as exc:
            raise DatabaseUnavailable(f"The answer cache could not reach FalkorDB ({exc}); check "
                                      "the database with `python -m course info`.") from exc
