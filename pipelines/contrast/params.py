"""Contrast-mining thresholds in one frozen dataclass; its hash goes into every result's signature.

Chosen on TICO-19 en→fr (dev data, not a held-out probe) with the Fairseq outputs; see
tests/eval/contrast_fairseq.md for what they keep and demote there.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass

from housestyle.pipelines.conventions.model import canonical_json

EMIT_MODES = ("term", "forbidden")


@dataclass(frozen=True, slots=True)
class ContrastParams:
    min_support: int = 2  # distinct units in which the generic system wrote the same alternative
    max_extra_tokens: int = 2  # an alternative may be at most (term's content tokens + this) tokens long
    max_gap: int = 1  # reference content words between the anchors besides the term
    min_context_score: float = 35.0  # rapidfuzz ratio of the contexts around term and alternative
    noise_share: float = 0.5  # a variant is noise when more than this share of its occurrences are
    tm_min_units: int = 1  # a variant in this many approved TM references is the client's own usage
    emit: str = "term"  # "term": the term rule with wrong_variants; "forbidden": a separate rule

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    def params_hash(self) -> str:
        return hashlib.sha256(canonical_json(self.to_dict()).encode("utf-8")).hexdigest()[:12]


DEFAULT_CONTRAST_PARAMS = ContrastParams()
