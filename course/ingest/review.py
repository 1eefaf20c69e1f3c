"""Review: a document read, extracted, validated, resolved, judged and shown as a diff; nothing written.

Introduced in notebook 15. `review(db, path)` is what `python -m course ingest FILE` prints;
`course.ingest.write_door.apply` writes the diff it returns, and nothing else.

>>> found = review(db, DATA_DIR.parent / "ingest" / "club_announcement.md")
>>> found.counts()
{'proposed': 5, 'accepted': 4, 'rejected': 1, 'questions': 0, 'diff': 3}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from course.foundation.dataset import DATA_DIR  # noqa: F401 (the example)
from course.foundation.db import Database
from course.foundation.versioning import data_version
from course.ingest.diff import Diff, build_diff
from course.ingest.documents import Document, read_document
from course.ingest.names import GraphNames, read_names
from course.ingest.proposal import Proposal
from course.ingest.resolution import Resolved, resolve
from course.ingest.rules import extract_by_rules
from course.ingest.spec import Spec
from course.ingest.validation import validate
from course.ingest.verification import Judge, RuleJudge
from course.llm.base import LLM


@dataclass
class Review:
    """Everything one document went through, and the diff that applying it would write."""

    document: Document
    proposal: Proposal
    resolved: Resolved
    diff: Diff
    version: str                      # the graph's data version the diff was made against
    judge: str = ""
    written: int = 0
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """proposed (items extracted), accepted (past every check), rejected, questions, diff (writes)."""
        rejected = len(self.diff.rejected)
        questions = len(self.diff.questions)
        return {"proposed": self.proposal.size, "accepted": self.proposal.size - rejected - questions,
                "rejected": rejected, "questions": questions, "diff": self.diff.size}

    def to_dict(self) -> dict[str, Any]:
        """The `course ingest --json` record: {document, proposed, accepted, rejected, written, diff}."""
        counts = self.counts()
        return {"document": self.document.id, "file": self.document.name,
                "extractor": self.proposal.extractor, "judge": self.judge,
                "proposed": counts["proposed"], "accepted": counts["accepted"],
                "rejected": [r.to_dict() for r in self.diff.rejected],
                "skipped": [{"sentence": s.sentence, "reason": s.reason} for s in self.proposal.skipped],
                "written": self.written, "diff": self.diff.to_dict(), "notes": self.notes}

    def summary(self) -> str:
        counts = self.counts()
        head = (f"{self.document.name} ({self.document.id}): {counts['proposed']} proposed by "
                f"{self.proposal.extractor}, {counts['accepted']} accepted, {counts['rejected']} "
                f"rejected, {counts['questions']} asked")
        matched = [f"  name {m.name!r} is {m.label} {m.found} ({m.how}, score {m.score:g})"
                   for m in self.resolved.matches if m.how in ("fuzzy", "normalised", "alias", "key")]
        return "\n".join([head, *matched, *self.diff.lines(), *self.notes])


def models_for(provider: str | None) -> tuple[LLM | None, Judge | None]:
    """(extractor, judge) for a provider name: (None, None), the rules, when it is the offline one."""
    from course.ingest.verification import LLMJudge
    from course.llm.offline.provider import OfflineLLM
    from course.llm.registry import make_llm

    llm = make_llm(provider)
    return (None, None) if isinstance(llm, OfflineLLM) else (llm, LLMJudge(llm))


def extract(document: Document, spec: Spec, names: GraphNames, llm: LLM | None = None) -> Proposal:
    """The offline rules, or a model's structured output when `llm` is given."""
    if llm is None:
        return extract_by_rules(document, spec, names)
    from course.ingest.structured import extract_with_llm

    return extract_with_llm(document, spec, llm)


def review(db: Database, source: Path | str | Document, *, llm: LLM | None = None,
           judge: Judge | None = None, include_unverified: bool = False,
           spec: Spec | None = None) -> Review:
    """Read a document (a path, or one already read) and return its reviewed diff."""
    document = source if isinstance(source, Document) else read_document(source)
    spec = spec or Spec.load()
    version = data_version(db)
    names = read_names(db, spec)
    proposal = extract(document, spec, names, llm)
    return review_proposal(db, document, proposal, names, spec, version=version, judge=judge,
                           include_unverified=include_unverified)


def review_proposal(db: Database, document: Document, proposal: Proposal, names: GraphNames,
                    spec: Spec, *, version: str, judge: Judge | None = None,
                    include_unverified: bool = False) -> Review:
    """Validation, resolution, the judge and the diff, for a proposal made by anyone."""
    judge = judge or RuleJudge()
    valid, rejected = validate(proposal, spec)
    resolved = resolve(valid, names, spec)
    resolved.rejected[:0] = rejected
    for rel in resolved.relationships:
        rel.confidence, rel.judged = judge.judge(rel.fact)
    diff = build_diff(db, document.id, resolved, names, spec, include_unverified=include_unverified)
    return Review(document, proposal, resolved, diff, version, judge.name)

