"""Measure candidate conventions on the TM with the scoring engine.

Every non-term family proposes conventions from its own counts, then this module scores them on the
units exactly as a system output would be scored (the TM target plays the output): the pass rate is
the rule's consistency, passing units are evidence, failing units counter-evidence. So a mined rule
provably behaves as intended under the real matching semantics.

WHY the engine's inner loop (``score_chunk``) and not ``check_item`` per (rule, unit): the reference
checker masks and folds the source again for every rule it checks, and every rule was checked on
every unit of the verification sample (13.5M calls, 76 of 575 profiled seconds of a 200,000-unit
run); the engine masks and folds each column once, finds the triggers of all rules in one pass and
checks a rule only where it applies. The two agree item for item (the engine's property test
against ``check_item``, tests/pipelines/scoring).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules.validate import validate_convention
from housestyle.pipelines.mining.corpus import Corpus, hashed_sample
from housestyle.pipelines.scoring.chunk import score_chunk


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


def measure(convs: Sequence[Convention], corpus: Corpus, indices: list[int]) -> list[Measured]:
    """Score each of ``convs`` on the sample's (source, target) pairs, in their order."""
    for conv in convs:
        validate_convention(conv)
    if not convs:
        return []
    sources, targets = corpus.sources.gather(indices), corpus.targets.gather(indices)
    chunk = score_chunk(convs, [str(i) for i in indices], sources, {"tm": targets}, keep_rows=True)
    out = []
    for conv, (scored, failed) in zip(convs, chunk.rows):
        # A rule with only wrong variants passes vacuously where the choice never came up; its
        # evidence is the units that actually show the chosen variant (``extra["evidence_regex"]``).
        shown = conv.extra.get("evidence_regex")
        shown_re = re.compile(shown) if isinstance(shown, str) else None
        passed = np.setdiff1d(scored, failed, assume_unique=True).tolist()
        evidence = [indices[r] for r in passed if shown_re is None or shown_re.search(targets[r])]
        out.append(Measured(conv, evidence, [indices[r] for r in failed.tolist()]))
    return out


def keep(measured: Measured, min_support: int, min_consistency: float) -> bool:
    return measured.support >= min_support and measured.consistency >= min_consistency


def finish(measured: Measured) -> Convention:
    """Write support and consistency into the convention (not part of its id)."""
    conv = measured.conv
    conv.support = measured.support
    conv.consistency = round(measured.consistency, 4)
    return conv
