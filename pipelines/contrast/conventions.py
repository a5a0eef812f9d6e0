"""Kept contrast variants as conventions, and how a merge folds them into a mined set.

``emit="term"`` (default): a copy of the term rule with the kept variants added to its
``wrong_variants`` (same trigger, expected terms and match mode); ``emit="forbidden"``: a separate
``forbidden`` rule on the same trigger and dimension, leaving the term rule untouched. Either way
origin ``contrast``, status ``candidate``, ``base_convention_id`` naming the rule it extends, and the
evidence per variant (the units where the generic system wrote it) plus the demoted variants with
their reasons, in extra fields that survive the JSONL round trip.

``fold_contrast`` is the merge: a term-rule candidate REPLACES its base rule (its expected terms are
the base's, so it checks a strict superset), a forbidden candidate is added beside its base;
candidates whose base is not in the set (the miner changed it since) are returned apart, not added.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import polars as pl

from housestyle.pipelines.contrast.params import ContrastParams
from housestyle.pipelines.conventions.matching import no_space_target, plain_regex
from housestyle.pipelines.conventions.model import Convention

MQM_WRONG_TERM = "Terminology/Inconsistent use of terminology"


def as_regex(variant: str, mode: str, tgt_lang: str | None = None) -> str:
    """A literal variant as a regex on folded text, word-bounded like a plain string would be
    (``matching.plain_regex``: hyphen-joined words are one word) in a ``tgt_lang`` target."""
    return plain_regex([variant], mode, no_space_neighbours=no_space_target(tgt_lang))


def _extra(base: Convention, kept: pl.DataFrame, demoted: pl.DataFrame, system: str) -> dict[str, Any]:
    return {
        "base_convention_id": base.convention_id,
        "contrast_system": system,
        "contrast_evidence": {row["variant"]: row["unit_ids"] for row in kept.iter_rows(named=True)},
        "contrast_demoted": [{"variant": r["variant"], "support": r["support"], "reasons": r["reasons"]}
                             for r in demoted.iter_rows(named=True)],
    }


def contrast_conventions(term_rules: Sequence[Convention], candidates: pl.DataFrame, params: ContrastParams, *,
                         system: str = "generic") -> list[Convention]:
    """One candidate convention per term rule that has at least one kept variant."""
    out: list[Convention] = []
    for base in term_rules:
        mine = candidates.filter(pl.col("convention_id") == base.convention_id)
        kept = mine.filter(pl.col("status") == "kept").sort("support", "variant", descending=[True, False])
        if kept.is_empty():
            continue
        demoted = mine.filter(pl.col("status") == "demoted")
        variants = list(dict.fromkeys(f for forms in kept["forms"].to_list() for f in forms))  # every form seen
        units = sorted({u for ids in kept["unit_ids"].to_list() for u in ids})
        shown = zip(kept["variant"].to_list(), kept["support"].to_list())
        note = (f"contrast ({system}): " + ", ".join(f"{v} ×{n}" for v, n in shown)
                + f" where the TM has {base.expected_terms[0]!r}")
        extra = _extra(base, kept, demoted, system)
        # A contrast rule refines its mined base: a base the held-out folds did not keep stays unscored.
        status = "suggested" if base.status == "suggested" else "candidate"
        if params.emit == "forbidden":
            out.append(Convention(
                dimension=base.dimension, rule="forbidden", src=base.src, src_regex=base.src_regex,
                src_match_mode=base.src_match_mode, wrong_variants=variants, regex=False, match_mode=base.match_mode,
                src_lang=base.src_lang, tgt_lang=base.tgt_lang, mqm_category=MQM_WRONG_TERM, origin="contrast",
                status=status, support=len(units), evidence_unit_ids=units, note=note, extra=extra))
            continue
        new = [as_regex(v, base.match_mode, base.tgt_lang) if base.regex else v for v in variants]
        wrong = list(dict.fromkeys([*base.wrong_variants, *new]))
        out.append(Convention(
            dimension=base.dimension, rule="term", src=base.src, src_regex=base.src_regex,
            src_match_mode=base.src_match_mode, expected_terms=list(base.expected_terms), wrong_variants=wrong,
            regex=base.regex, match_mode=base.match_mode, params=dict(base.params), src_lang=base.src_lang,
            tgt_lang=base.tgt_lang, mqm_category=base.mqm_category, origin="contrast", status=status,
            support=base.support, consistency=base.consistency, evidence_unit_ids=list(base.evidence_unit_ids),
            counter_unit_ids=list(base.counter_unit_ids), note=note, extra=extra))
    return out


def fold_contrast(conventions: Sequence[Convention], candidates: Sequence[Convention]) -> tuple[list[Convention], list[Convention]]:
    """(merged set, candidates whose base rule is not in ``conventions``). Order of the set is kept."""
    ids = {c.convention_id for c in conventions}
    replace: dict[str, Convention] = {}
    beside: dict[str, list[Convention]] = {}
    orphans: list[Convention] = []
    for cand in candidates:
        base_id = cand.extra.get("base_convention_id")
        if base_id not in ids:
            orphans.append(cand)
        elif cand.rule == "forbidden":
            beside.setdefault(str(base_id), []).append(cand)
        elif str(base_id) in replace:  # two generic systems extend the same rule: one rule, both variants
            prev = replace[str(base_id)]
            more = [*prev.extra.get("contrast_more", []), cand.extra]
            replace[str(base_id)] = dataclasses.replace(
                prev, wrong_variants=list(dict.fromkeys([*prev.wrong_variants, *cand.wrong_variants])),
                convention_id="", extra={**prev.extra, "contrast_more": more})
        else:
            replace[str(base_id)] = cand
    merged: list[Convention] = []
    for conv in conventions:
        merged.append(replace.get(conv.convention_id, conv))
        merged.extend(beside.get(conv.convention_id, []))
    return merged, orphans


def fold_contrast_with_evidence(conventions: Sequence[Convention], evidence: pl.DataFrame,
                                candidates: Sequence[Convention]) -> tuple[list[Convention], pl.DataFrame]:
    """``fold_contrast`` with the evidence table carried along (rows: convention_id, unit_id, role).

    A contrast candidate extends its base term rule with wrong_variants, so it gets a new id: the base
    rule's evidence moves to it, and the generic system's divergences are added with role `contrast`.
    """
    merged, _orphans = fold_contrast(conventions, candidates)
    renamed: dict[str, str] = {}
    by_id = {c.convention_id: c for c in conventions}
    for i, conv in enumerate(merged):
        base = by_id.get(str(conv.extra.get("base_convention_id", "")))
        if base is None or conv.convention_id == base.convention_id or conv.rule != base.rule:
            continue
        renamed[base.convention_id] = conv.convention_id
        merged[i] = dataclasses.replace(conv, evidence_unit_ids=base.evidence_unit_ids,
                                        counter_unit_ids=base.counter_unit_ids, convention_id=conv.convention_id)
    if renamed:
        evidence = evidence.with_columns(pl.col("convention_id").replace(renamed))
    rows = [{"convention_id": conv.convention_id, "unit_id": u, "role": "contrast"} for conv in merged
            if conv.origin == "contrast" for ids in dict(conv.extra.get("contrast_evidence", {})).values() for u in sorted(ids)]
    return merged, pl.concat([evidence, pl.DataFrame(rows, schema=evidence.schema)]) if rows else evidence
