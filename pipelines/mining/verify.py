"""Measure a candidate convention on the TM with the reference checker (``check_item``).

Every non-term family proposes conventions from its own counts, then this module scores each one
on the units exactly as a system output would be scored (the TM target plays the output): the pass
rate is the rule's consistency, passing units are evidence, failing units counter-evidence. So a
mined rule provably behaves as intended under the real matching semantics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules.validate import validate_convention
from housestyle.pipelines.mining.corpus import Corpus, hashed_sample
from housestyle.pipelines.scoring.check import check_item


@dataclass(slots=True)
class Measured:
    conv: Convention
    evidence: list[int]
    counter: list[int]

    @property
    def support(self) -> int:
        return len(self.evidence)

    @property
    def consistency(self) -> float:
        scored = len(self.evidence) + len(self.counter)
        return len(self.evidence) / scored if scored else 0.0


def verification_sample(corpus: Corpus, limit: int) -> list[int]:
    """All units, or a deterministic ``limit`` of them (hash of the unit id) for very large TMs."""
    return hashed_sample(corpus, limit)


def measure(conv: Convention, corpus: Corpus, indices: list[int]) -> Measured:
    """Score ``conv`` on the sample's (source, target) pairs."""
    validate_convention(conv)
    evidence, counter = [], []
    # A rule with only wrong variants passes vacuously where the choice never came up; its evidence
    # is the units that actually show the chosen variant (``extra["evidence_regex"]``).
    shown = conv.extra.get("evidence_regex")
    shown_re = re.compile(shown) if isinstance(shown, str) else None
    sources, targets = corpus.sources.gather(indices), corpus.targets.gather(indices)
    for i, source, target in zip(indices, sources, targets):
        verdict = check_item(conv, source, target)
        if verdict is None:
            continue
        if not verdict.full_pass:
            counter.append(i)
        elif shown_re is None or shown_re.search(target):
            evidence.append(i)
    return Measured(conv, evidence, counter)


def keep(measured: Measured, min_support: int, min_consistency: float) -> bool:
    return measured.support >= min_support and measured.consistency >= min_consistency


def finish(measured: Measured) -> Convention:
    """Write support and consistency into the convention (not part of its id)."""
    conv = measured.conv
    conv.support = measured.support
    conv.consistency = round(measured.consistency, 4)
    return conv
