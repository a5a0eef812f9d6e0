"""Mine one language pair of a tm_units table into candidate conventions (the ``convention_candidates``).

Families are an explicit registry. Term rules measure themselves (Aho–Corasick over all units);
every other family proposes conventions that ``verify`` scores on the units with the reference
checker and keeps when support and consistency pass the thresholds.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from typing import Any

import numpy as np
import polars as pl

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.anchors import anchor_outcomes, anchor_trials, kept_rare_anchor
from housestyle.pipelines.mining.conflicts import dimension_conflicts
from housestyle.pipelines.mining.corpus import Corpus, corpus_from_units, log_memory
from housestyle.pipelines.mining.heldout import apply_heldout, heldout_counts, sample_of
from housestyle.pipelines.mining.merge import Mined, MiningResult, empty_evidence, merge
from housestyle.pipelines.mining.numeric import mine_numeric
from housestyle.pipelines.mining.params import DEFAULT_PARAMS, MiningParams
from housestyle.pipelines.mining.patterns.base import Family, mine_family
from housestyle.pipelines.mining.patterns.casing import mine_casing
from housestyle.pipelines.mining.patterns.currency import FAMILIES as CURRENCY_FAMILIES
from housestyle.pipelines.mining.patterns.dates import mine_dates
from housestyle.pipelines.mining.patterns.quotes import mine_quotes
from housestyle.pipelines.mining.patterns.typography import FAMILIES as TYPOGRAPHY_FAMILIES
from housestyle.pipelines.mining.placeholder import mine_placeholder
from housestyle.pipelines.mining.source_copy import mine_source_copy
from housestyle.pipelines.mining.misaligned_runs import run_members
from housestyle.pipelines.mining.suspect_units import Suspect, unit_tests
from housestyle.pipelines.mining.term_result import TermResult
from housestyle.pipelines.mining.term_rules import mine_terms
from housestyle.pipelines.mining.term_trace import empty_trace
from housestyle.pipelines.mining.tokens import TokenCache
from housestyle.pipelines.mining.verify import finish, keep, measure, verification_sample

Proposer = Callable[[Corpus, list[int], MiningParams], list[Convention]]


def _families(families: tuple[Family, ...]) -> Proposer:
    """A proposer mining each of these closed-variant families (``patterns.base``)."""
    def propose(corpus: Corpus, indices: list[int], params: MiningParams) -> list[Convention]:
        return [conv for family in families for conv in mine_family(family, corpus, indices, params)]
    return propose


# family name -> (proposer, thresholds getter): the explicit registry of non-term families.
PROPOSERS: dict[str, tuple[Proposer, Callable[[MiningParams], tuple[int, float]]]] = {
    "typography": (_families(TYPOGRAPHY_FAMILIES), lambda p: (p.patterns.min_support, p.patterns.min_consistency)),
    "quotes": (mine_quotes, lambda p: (p.patterns.min_support, p.patterns.min_consistency)),
    "casing": (mine_casing, lambda p: (p.casing.min_support, p.casing.min_consistency)),
    "dates": (mine_dates, lambda p: (p.patterns.min_support, p.patterns.min_consistency)),
    "currency": (_families(CURRENCY_FAMILIES), lambda p: (p.patterns.min_support, p.patterns.min_consistency)),
    "source_copy": (mine_source_copy, lambda p: (p.source_copy.min_support, p.source_copy.min_consistency)),
    "numeric": (mine_numeric, lambda p: (p.numeric.min_support, p.numeric.min_consistency)),
    "placeholder": (mine_placeholder, lambda p: (p.placeholder.min_support, p.placeholder.min_consistency)),
}


# The three candidate groups of SPEC §1 (assets term_candidates / pattern_candidates / rule_candidates).
PATTERN_FAMILIES = ("typography", "quotes", "casing", "dates", "currency")
RULE_FAMILIES = ("source_copy", "numeric", "placeholder")


def return_freed_memory() -> None:
    """Hand the heap pages freed so far back to the system (glibc's malloc_trim; elsewhere a
    no-op). Between the term passes glibc keeps the first pass's freed pages mapped, and the
    second pass's aligner would stack its pair arrays on top of them."""
    name = ctypes.util.find_library("c")
    libc = ctypes.CDLL(name) if name else None
    trim = getattr(libc, "malloc_trim", None)
    if trim is not None:
        trim(0)


def misaligned_units(corpus: Corpus, evidence: dict[str, tuple[np.ndarray, np.ndarray]], alpha: float,
                     rounds: int = 3) -> list[Suspect]:
    """The suspect test (``suspect_units``) with the anchors' rates learnt from the units not yet
    told misaligned: a misaligned run's own misses would otherwise make its names look optional.
    A unit whose target keeps a rare number or name of its source is aligned (``kept_rare_anchor``).
    Repeated until the suspects stop changing (at most ``rounds`` times); then the weaker units
    their misaligned TM neighbours vouch for join them (``misaligned_runs``), in unit order."""
    tests: list[Suspect] = []
    suspects: list[Suspect] = []
    told: frozenset[int] = frozenset()
    outcomes = anchor_outcomes(corpus.sources, corpus.targets)
    aligned = kept_rare_anchor(corpus.sources, corpus.targets, outcomes)
    for _ in range(rounds):
        tests = unit_tests(evidence, anchor_trials(corpus.sources, corpus.targets, told, outcomes))
        suspects = [s for s in tests if s.p_value < alpha and s.index not in aligned]
        now = frozenset(s.index for s in suspects)
        if now == told:
            break
        told = now
    told = frozenset(s.index for s in suspects)
    joined = run_members(tests, told, corpus.tm_order, alpha, aligned)
    return sorted([*suspects, *joined], key=lambda s: s.index)


def term_group(corpus: Corpus, params: MiningParams, cache: TokenCache | None = None, *, trace: bool = True,
               told: Collection[str] | None = None) -> tuple[list[Mined], list[dict[str, Any]], dict[str, Any], pl.DataFrame]:
    """Term rules with their evidence, conflicts, filter counts (``stats["suspect_units"]``: the
    rows of the misaligned units left out, see ``suspect_units``) and the term trace (what was
    decided per term and why, ``term_trace``; of the pass that wrote the rules; empty without
    ``trace``). ``cache`` holds the tokens of units analysed before (by an earlier run on a
    superset: ``cross_fit``). ``told``: unit ids already told misaligned by a run on a superset
    (a fold's, see ``cross_fit``): left out at once, in one pass, and not reported again."""
    cache = cache if cache is not None else TokenCache()
    if told is not None:
        return_freed_memory()
        keep = np.fromiter((u not in told for u in corpus.unit_ids), dtype=bool, count=len(corpus))
        return _term_rules(corpus, params, cache, trace, np.flatnonzero(keep).astype(np.int64), [])
    log_memory("term pass one")
    terms = mine_terms(corpus, params, cache, trace=trace)
    log_memory("term pass one done")
    suspects = misaligned_units(corpus, terms.evidence, params.suspects.alpha) if params.suspects.alpha > 0 else []
    if not suspects:
        return _term_rules(corpus, params, cache, trace, np.arange(len(corpus), dtype=np.int64), [], terms)
    del terms  # the first pass's rules and evidence: not held through the second pass's peak
    log_memory("term pass one freed")
    return_freed_memory()
    kept = np.delete(np.arange(len(corpus), dtype=np.int64), [s.index for s in suspects])
    return _term_rules(corpus, params, cache, trace, kept, suspects)


def _term_rules(corpus: Corpus, params: MiningParams, cache: TokenCache, trace: bool, kept: np.ndarray,
                suspects: list[Suspect], terms: TermResult | None = None,
                ) -> tuple[list[Mined], list[dict[str, Any]], dict[str, Any], pl.DataFrame]:
    """``term_group``'s answer from the term pass over the ``kept`` units (``terms``, when it ran
    on all of them already)."""
    if terms is None:
        log_memory("term pass two")
        terms = mine_terms(corpus.subset(kept) if len(kept) < len(corpus) else corpus, params, cache, trace=trace)
        log_memory("term pass two done")
    mined = []
    for conv in terms.conventions:  # evidence back to indices of the whole corpus
        evidence, counter = terms.evidence[conv.convention_id]
        mined.append(Mined(conv, kept[evidence], kept[counter]))
    frame = terms.trace_frame if terms.trace_frame is not None else empty_trace()
    return (mined, terms.conflicts, {"term": terms.stats, "suspect_units": [s.row(corpus.unit_ids) for s in suspects]},
            frame)


def proposer_group(corpus: Corpus, names: tuple[str, ...], params: MiningParams) -> tuple[list[Mined], dict[str, Any]]:
    """Proposed conventions of the named families, measured on the units, kept when they pass.
    The families read the verification sample unit by unit, so it is held as lists (``listed``)
    and its evidence mapped back to the corpus's indices."""
    mined: list[Mined] = []
    stats: dict[str, Any] = {}
    indices = np.asarray(verification_sample(corpus, params.patterns.verify_max_units), dtype=np.int64)
    sample = corpus.subset(indices).listed()
    local = list(range(len(sample)))
    for name in names:
        propose, thresholds = PROPOSERS[name]
        min_support, min_consistency = thresholds(params)
        proposed, kept = propose(sample, local, params), 0
        for result in measure(proposed, sample, local):
            if keep(result, min_support, min_consistency):
                mined.append(Mined(finish(result), indices[result.evidence], indices[result.counter]))
                kept += 1
        stats[name] = {"proposed": len(proposed), "kept": kept}
    return mined, stats


def combine(mined: list[Mined], term_conflicts: list[dict[str, Any]], unit_ids: Sequence[str],
            stats: dict[str, Any], term_trace: pl.DataFrame | None = None) -> MiningResult:
    """convention_candidates: merged, deterministic, with conflicts reported (and the term trace
    passed on as it is)."""
    conventions, evidence = merge(mined, unit_ids)
    conflicts = sorted(term_conflicts + dimension_conflicts(conventions), key=lambda c: (str(c["kind"]), str(c["dimension"])))
    suspects = list(stats.get("suspect_units", []))
    stats = {**stats, "by_rule": dict(sorted(Counter(c.rule for c in conventions).items())), "conflicts": len(conflicts),
             "suspect_units": len(suspects)}
    return MiningResult(conventions, evidence, conflicts, stats, suspects,
                        term_trace if term_trace is not None else empty_trace())


def mine_corpus(corpus: Corpus, params: MiningParams = DEFAULT_PARAMS, *, heldout: bool = True) -> MiningResult:
    """Every family's rules of ``corpus``; with ``heldout`` (the default) cross-fitted
    (``heldout.heldout_counts``): each mined rule carries its held-out agreement and those below
    their kind's bar are ``suggested``."""
    cache = TokenCache()  # one analysis per unit (tokens, lemmas, POS), reused by each fold's re-mining
    result = _mine_all(corpus, params, cache)
    if heldout:
        cross_fit(corpus, result, params, cache)
    return result


def cross_fit(corpus: Corpus, result: MiningResult, params: MiningParams = DEFAULT_PARAMS,
              cache: TokenCache | None = None) -> None:
    """Held-out counts and the ``suggested`` tier for the rules mined from ``corpus`` (in place):
    every family re-mined on each fold's complement (``heldout``). The units the mining found
    misaligned (``result.suspects``) judge no rule: their targets translate another source.

    What depends on a unit alone is not redone per fold: ``cache`` (the full run's, when given)
    holds each unit's tokens, lemmas and POS tags, which are the same whichever units surround it.
    What counts over units (alignment model, co-occurrence, hits, thresholds) is computed on the
    fold's complement only, so no held-out unit shapes the rules judged on it. A fold keeps its
    rules only: no term trace is built for it. A fold leaves out the units the full run told
    misaligned and mines its terms in one pass (``term_group(told=…)``), instead of telling them
    again from its own first pass: the full run had more evidence, and that second pass was a
    third of the cross-fit's term mining. Above ``params.heldout.max_units`` units the folds are cut
    from a hashed sample of about that many (``heldout.sample_of``; ``stats["cross_fit"]``)."""
    if result.conventions:
        cache = cache if cache is not None else TokenCache()
        misaligned = {str(row["unit_id"]) for row in result.suspects}
        sample = sample_of(corpus.unit_ids, params.heldout.max_units)
        full_run = len(cache)

        def mine_fold(part: Corpus) -> list[Convention]:
            try:
                return _mine_all(part, params, cache, trace=False, told=misaligned).conventions
            finally:  # two folds (heldout.FOLDS): what one fold tags for its mining, the other only judges
                cache.forget_since(full_run)

        counts = heldout_counts(corpus, result.conventions, mine_fold, excluded=misaligned, sample=sample)
        apply_heldout(result.conventions, counts, params)
        result.stats["cross_fit"] = {"units": len(corpus), "sampled_units": int(sample.sum())}
        log_memory("held-out done")


def _mine_all(corpus: Corpus, params: MiningParams, cache: TokenCache | None = None, *,
              trace: bool = True, told: Collection[str] | None = None) -> MiningResult:
    stats: dict[str, Any] = {"units": len(corpus)}
    if not len(corpus):
        return MiningResult([], empty_evidence(), [], stats)
    mined, conflicts, term_stats, term_trace = term_group(corpus, params, cache, trace=trace, told=told)
    corpus.release_folds()  # only the term rules count on the folded texts
    log_memory("terms done")
    pattern_mined, pattern_stats = proposer_group(corpus, PATTERN_FAMILIES, params)
    log_memory("patterns done")
    rule_mined, rule_stats = proposer_group(corpus, RULE_FAMILIES, params)
    log_memory("rules done")
    return combine(mined + pattern_mined + rule_mined, conflicts, corpus.unit_ids,
                   {**stats, **term_stats, **pattern_stats, **rule_stats}, term_trace)


def mine_units(units: pl.DataFrame, src_lang: str, tgt_lang: str, params: MiningParams = DEFAULT_PARAMS,
               *, where: str = "<tm_units>") -> MiningResult:
    """Mine the (src_lang, tgt_lang) units of a tm_units frame (already restricted to a split)."""
    return mine_corpus(corpus_from_units(units, src_lang, tgt_lang, where=where), params)
