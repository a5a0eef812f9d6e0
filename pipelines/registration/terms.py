"""Term gold counting: which gold pairs a split attests, which a mined set recovers, recall.

Rules as frozen in ``counting_rules`` (term_attestation, term_recovery, term_recall). Their word
boundary is deliberately NOT the checker's: SPEC.md §2 later made hyphen-joined words one word
(``mail`` no longer matches in ``e-mail``) for the checker, the miner's counts and contrast, but
this counting is frozen with the gold and its registration (``registration.fold.bounded_at``: a
hyphen is a boundary here), so a registered gate keeps meaning what it meant when it was frozen.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import ahocorasick_rs

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.registration.fold import bounded_at, contains_bounded, fold
from housestyle.pipelines.registration.gold import GoldPair, primary_lang

PairKey = tuple[str, str]


def attest_pairs(pairs: Sequence[GoldPair], units: Iterable[tuple[str, str, str]]) -> dict[PairKey, list[str]]:
    """Gold pair -> ids of the units (unit_id, source, target) that attest it; unattested pairs absent.

    Aho–Corasick (ahocorasick_rs) finds every gold source term in one pass over each source, so the
    cost stays linear in the TM size however large the termbase.
    """
    by_source: dict[str, list[GoldPair]] = defaultdict(list)
    for pair in pairs:
        by_source[pair.source].append(pair)
    patterns = list(by_source)
    if not patterns:
        return {}
    matcher = ahocorasick_rs.AhoCorasick(patterns, matchkind=ahocorasick_rs.MatchKind.Standard)
    found: dict[PairKey, list[str]] = defaultdict(list)
    for unit_id, source, target in units:
        folded_source = fold(source)
        hits = {patterns[i] for i, start, end in matcher.find_matches_as_indexes(folded_source, overlapping=True)
                if bounded_at(folded_source, start, end)}
        if not hits:
            continue
        folded_target = fold(target)
        for hit in hits:
            for pair in by_source[hit]:
                if contains_bounded(folded_target, pair.target):
                    found[pair.key].append(unit_id)
    return dict(found)


def _lang_ok(conv: Convention, src_lang: str, tgt_lang: str) -> bool:
    return ((conv.src_lang is None or primary_lang(conv.src_lang) == primary_lang(src_lang))
            and (conv.tgt_lang is None or primary_lang(conv.tgt_lang) == primary_lang(tgt_lang)))


def _full(pattern: str, text: str) -> bool:
    try:
        return re.fullmatch(pattern, text, re.IGNORECASE) is not None
    except re.error:
        return False  # an invalid mined regex recovers nothing (the set's validator reports it)


def _expected_hits(conv: Convention, target: str) -> bool:
    if conv.regex:
        return any(_full(entry, target) for entry in conv.expected_terms)
    return any(fold(entry) == target for entry in conv.expected_terms)


def recovered_pairs(conventions: Iterable[Convention], pairs: Sequence[GoldPair], src_lang: str, tgt_lang: str) -> dict[PairKey, list[str]]:
    """Gold pair -> ids of the mined term rules that recover it (counting_rules.term_recovery)."""
    by_source: dict[str, list[GoldPair]] = defaultdict(list)
    for pair in pairs:
        by_source[pair.source].append(pair)
    out: dict[PairKey, list[str]] = defaultdict(list)
    for conv in conventions:
        if conv.rule != "term" or conv.src is None or not _lang_ok(conv, src_lang, tgt_lang):
            continue
        if conv.src_regex:
            candidates = [p for source, group in by_source.items() if _full(conv.src, source) for p in group]
        else:
            candidates = by_source.get(fold(conv.src), [])
        for pair in candidates:
            if _expected_hits(conv, pair.target):
                out[pair.key].append(conv.convention_id)
    return dict(out)


@dataclass(slots=True)
class RecallResult:
    value: float
    attested: int
    recovered: int
    missed: list[dict[str, Any]] = field(default_factory=list)
    recovered_items: list[dict[str, Any]] = field(default_factory=list)

    def detail(self) -> dict[str, Any]:
        return {"attested": self.attested, "recovered": self.recovered, "missed": self.missed,
                "recovered_items": self.recovered_items}


def term_recall(pairs: Sequence[GoldPair], attested: dict[PairKey, list[str]],
                recovered: dict[PairKey, list[str]]) -> RecallResult:
    """Recovered attested pairs / attested pairs; missed pairs listed most-attested first."""
    by_key = {p.key: p for p in pairs}
    keys = sorted(attested, key=lambda k: (-len(attested[k]), k))
    hit = [k for k in keys if k in recovered]
    missed = [{"source": k[0], "target": k[1], "units": len(attested[k]), "example_unit_ids": attested[k][:3],
               "gold_refs": by_key[k].refs[:3]} for k in keys if k not in recovered]
    found = [{"source": k[0], "target": k[1], "units": len(attested[k]), "convention_ids": recovered[k][:5]} for k in hit]
    value = len(hit) / len(keys) if keys else 0.0
    return RecallResult(value=value, attested=len(keys), recovered=len(hit), missed=missed, recovered_items=found)
