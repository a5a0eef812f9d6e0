"""Behavioural gold: attestation of gold conventions in a split, and recovery on their probes.

Recovery is behavioural (gold README): names and regex spelling do not matter, only whether the
mined set, run through the real checker, passes every good probe output and fails every bad one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.registration.gold import GoldConvention, primary_lang
from housestyle.pipelines.scoring.check import check_item


@dataclass(slots=True)
class Evidence:
    """Frozen attestation evidence of one gold convention (registration gold entry ``attestation``)."""

    target: str
    source: str | None = None
    min_units: int = 1

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Evidence:
        return cls(target=str(data["target"]), source=data.get("source"), min_units=int(data.get("min_units", 1)))


def attested_units(evidence: Evidence, units: Iterable[tuple[str, str, str]], limit: int | None = None) -> list[str]:
    """Ids of units whose raw source matches ``evidence.source`` (if any) and raw target ``evidence.target``."""
    src_re = re.compile(evidence.source) if evidence.source else None
    tgt_re = re.compile(evidence.target)
    out = []
    for unit_id, source, target in units:
        if (src_re is None or src_re.search(source)) and tgt_re.search(target):
            out.append(unit_id)
            if limit is not None and len(out) >= limit:
                break
    return out


def _applicable(conventions: Sequence[Convention], src_lang: str | None, tgt_lang: str | None) -> list[Convention]:
    """Mined conventions of the gold's language pair (a convention without languages applies to any)."""
    return [c for c in conventions
            if (c.src_lang is None or src_lang is None or primary_lang(c.src_lang) == primary_lang(src_lang))
            and (c.tgt_lang is None or tgt_lang is None or primary_lang(c.tgt_lang) == primary_lang(tgt_lang))]


def failing_conventions(conventions: Sequence[Convention], source: str, output: str) -> list[str]:
    """Ids of the applicable conventions that fail ``output`` (the set fails it when this is non-empty)."""
    failing = []
    for conv in conventions:
        verdict = check_item(conv, source, output)
        if verdict is not None and not verdict.full_pass:
            failing.append(conv.convention_id)
    return failing


@dataclass(slots=True)
class Recovery:
    gold_id: str
    dimension: str
    recovered: bool
    failed_probes: list[dict[str, Any]] = field(default_factory=list)
    recovering_ids: list[str] = field(default_factory=list)


def recover(gold: GoldConvention, conventions: Sequence[Convention]) -> Recovery:
    """Score the mined set on every probe of one gold convention (counting_rules.convention_recovery)."""
    pool = _applicable(conventions, gold.convention.src_lang, gold.convention.tgt_lang)
    failed: list[dict[str, Any]] = []
    catching: set[str] = set()
    for index, probe in enumerate(gold.probes):
        on_good = failing_conventions(pool, probe.source, probe.good)
        on_bad = failing_conventions(pool, probe.source, probe.bad)
        catching.update(on_bad)
        if on_good:
            failed.append({"probe": index, "source": probe.source, "output": probe.good, "kind": "good",
                           "expected": "pass", "failed_by": on_good[:10]})
        if not on_bad:
            failed.append({"probe": index, "source": probe.source, "output": probe.bad, "kind": "bad",
                           "expected": "fail", "failed_by": []})
    return Recovery(gold.gold_id, gold.convention.dimension, not failed, failed, sorted(catching))
