"""Mining assets (SPEC §1): term_candidates, pattern_candidates, rule_candidates →
convention_candidates → convention_set, partitioned by client like tm_units.

Thin: each asset selects the client's units (all, or the split named in run config, from
inbox/<client>/splits.json), calls ``housestyle.pipelines.mining`` and stores its candidates under
<storage>/<asset>/<client>/. Every language pair of the client's TM with units is mined. Nothing
here reads gold or registrations (the isolation test checks the asset graph).
"""

# No `from __future__ import annotations`: Dagster inspects the context/resource annotations at runtime.

from collections.abc import Iterator
from typing import Any

import polars as pl
from dagster import (
    AssetExecutionContext,
    Config,
    MaterializeResult,
    MetadataValue,
    asset,
)

from housestyle.assets.freshness import code_version
from housestyle.pipelines.inbox_files import input_files
from housestyle.assets.metadata import md_counts
from housestyle.assets.partitions import CLIENTS
from housestyle.assets.resources import HousestyleSettings
from housestyle.pipelines import atomic
from housestyle.pipelines.conventionset.version import sha256_file
from housestyle.pipelines.mining.build_set import build_set, pair_key, read_sources
from housestyle.pipelines.conventionset.decisions import DECISIONS_FILE
from housestyle.pipelines.mining.corpus import Corpus, corpus_from_units, read_units_for_mining
from housestyle.pipelines.mining.merge import Mined
from housestyle.pipelines.mining.mine import (
    PATTERN_FAMILIES,
    RULE_FAMILIES,
    combine,
    cross_fit,
    proposer_group,
    term_group,
)
from housestyle.pipelines.mining.params import DEFAULT_PARAMS
from housestyle.pipelines.mining.results_store import load_candidates, store_candidates, stored_results
from housestyle.pipelines.mining.term_trace import TRACE_FILE
from housestyle.pipelines.splits import select_split
from housestyle.pipelines.paths import client_path


class MiningConfig(Config):
    """Which units to mine: a split of inbox/<client>/splits.json, or all units (None)."""

    split: str | None = None


def _corpora(settings: HousestyleSettings, client: str, split: str | None) -> list[Corpus]:
    units = read_units_for_mining(settings.tm_units_path(client))
    if split is not None:
        units = select_split(units, settings.client_dir(client) / "splits.json", split)
    pairs = (units.group_by("src_lang_norm", "tgt_lang_norm").len().filter(pl.col("len") > 0)
             .sort("src_lang_norm", "tgt_lang_norm").rows())
    return [corpus_from_units(units, src, tgt) for src, tgt, _ in pairs]


def _materialize(kind: str, counts: dict[str, int], split: str | None) -> MaterializeResult:
    return MaterializeResult(metadata={"candidates": sum(counts.values()), "split": split or "all units",
                                       "by_language_pair": md_counts(counts, "pair", kind)})


@asset(partitions_def=CLIENTS, group_name="mining", deps=["tm_units", "inbox_splits"], kinds={"polars", "spacy"},
       code_version=code_version(__name__))
def term_candidates(context: AssetExecutionContext, settings: HousestyleSettings, config: MiningConfig) -> MaterializeResult:
    """Required-term candidates (alignment, association, boundary repair, inflection grouping),
    mined without the units they show to be misaligned (listed as ``suspect_units``)."""
    client, out = context.partition_key, settings.asset_dir("term_candidates", context.partition_key)
    counts, suspects = {}, 0
    for corpus in _corpora(settings, client, config.split):
        items, conflicts, stats, trace = term_group(corpus, DEFAULT_PARAMS)
        store_candidates(out, items, corpus, {"conflicts": conflicts, "stats": stats, "split": config.split})
        atomic.write_with(out / pair_key(corpus.src_lang, corpus.tgt_lang) / TRACE_FILE, trace.write_parquet)
        counts[f"{corpus.src_lang}→{corpus.tgt_lang}"] = len(items)
        suspects += len(stats["suspect_units"])
    result = _materialize("terms", counts, config.split)
    return MaterializeResult(metadata={**(result.metadata or {}), "suspect_units": suspects})


def _proposers(context: AssetExecutionContext, settings: HousestyleSettings, config: MiningConfig, asset_name: str,
               families: tuple[str, ...]) -> MaterializeResult:
    client, out = context.partition_key, settings.asset_dir(asset_name, context.partition_key)
    counts = {}
    for corpus in _corpora(settings, client, config.split):
        items, stats = proposer_group(corpus, families, DEFAULT_PARAMS)
        store_candidates(out, items, corpus, {"stats": stats, "split": config.split})
        counts[f"{corpus.src_lang}→{corpus.tgt_lang}"] = len(items)
    return _materialize("conventions", counts, config.split)


@asset(partitions_def=CLIENTS, group_name="mining", deps=["tm_units", "inbox_splits"], kinds={"polars"},
       code_version=code_version(__name__))
def pattern_candidates(context: AssetExecutionContext, settings: HousestyleSettings, config: MiningConfig) -> MaterializeResult:
    """Patterned conventions (typography, quotes, casing), measured on the units with the checker."""
    return _proposers(context, settings, config, "pattern_candidates", PATTERN_FAMILIES)


@asset(partitions_def=CLIENTS, group_name="mining", deps=["tm_units", "inbox_splits"], kinds={"polars"},
       code_version=code_version(__name__))
def rule_candidates(context: AssetExecutionContext, settings: HousestyleSettings, config: MiningConfig) -> MaterializeResult:
    """Source-copy, numeric and placeholder rules, measured on the units with the checker."""
    return _proposers(context, settings, config, "rule_candidates", RULE_FAMILIES)


@asset(partitions_def=CLIENTS, group_name="mining",
       deps=["term_candidates", "pattern_candidates", "rule_candidates", "inbox_splits"],
       kinds={"polars", "parquet"}, code_version=code_version(__name__))
def convention_candidates(context: AssetExecutionContext, settings: HousestyleSettings, config: MiningConfig) -> MaterializeResult:
    """All mined candidates merged per language pair (``mining.mine.combine``, as ``mine_corpus``
    merges them for ``housestyle mine``), conflicts reported; feeds convention_set."""
    client = context.partition_key
    out = settings.asset_dir("convention_candidates", client)
    counts: dict[str, int] = {}
    for corpus in _corpora(settings, client, config.split):
        mined, conflicts, stats = [], [], {"units": len(corpus)}
        for name in ("term_candidates", "pattern_candidates", "rule_candidates"):
            items, meta = load_candidates(client_path(settings.storage / name, client), corpus)
            mined += items
            conflicts += meta.get("conflicts", [])
            stats.update(meta.get("stats", {}))
        trace_file = client_path(settings.storage / "term_candidates", client) / pair_key(corpus.src_lang, corpus.tgt_lang) / TRACE_FILE
        result = combine(mined, conflicts, corpus.unit_ids, stats, pl.read_parquet(trace_file) if trace_file.is_file() else None)
        cross_fit(corpus, result, DEFAULT_PARAMS)  # held-out agreement, as `housestyle mine` (issue 25)
        store_candidates(out, [Mined(c, [], []) for c in result.conventions], corpus,
               {"conflicts": result.conflicts, "stats": result.stats, "split": config.split, "suspects": result.suspects})
        atomic.write_with(out / pair_key(corpus.src_lang, corpus.tgt_lang) / "evidence.parquet", result.evidence.write_parquet)
        if result.term_trace is not None:
            atomic.write_with(out / pair_key(corpus.src_lang, corpus.tgt_lang) / TRACE_FILE, result.term_trace.write_parquet)
        counts[f"{corpus.src_lang}→{corpus.tgt_lang}"] = len(result.conventions)
    return _materialize("conventions", counts, config.split)


@asset(partitions_def=CLIENTS, group_name="conventions", output_required=False, kinds={"polars", "parquet"},
       deps=["convention_candidates", "negative_candidates", "inbox_conventions", "inbox_decisions", "inbox_glossary",
             "inbox_splits"],
       code_version=code_version(__name__))
def convention_set(context: AssetExecutionContext, settings: HousestyleSettings,
                   config: MiningConfig) -> Iterator[MaterializeResult]:
    """The client's set, built by `mining.build_set.build_set` exactly as `housestyle mine`
    builds it: the merged candidates of every language pair, the generic system's contrast
    candidates (negative_candidates), the authored rules of `inbox/<client>/conventions/`, the glossary
    rules of `inbox/<client>/glossary/` (import-glossary) and the review decisions of
    `inbox/<client>/decisions.parquet` (applied last), published to `rules_out/<client>/<set_version>/` with
    `LATEST` updated."""
    client = context.partition_key
    pairs = stored_results(client_path(settings.storage / "convention_candidates", client))
    contrast = client_path(settings.storage / "negative_candidates", client, "conventions.jsonl")
    decisions = settings.client_dir(client) / DECISIONS_FILE
    sources = read_sources(contrast=[contrast] if contrast.is_file() else [],
                           authored=input_files(settings.client_dir(client) / "conventions"),
                           decisions=decisions if decisions.is_file() else None,
                           glossary=input_files(settings.client_dir(client) / "glossary"))
    if not any(r.conventions for r in pairs.values()) and not any(f.conventions for f in (*sources.authored, *sources.glossary)):
        context.log.warning(f"no conventions for {client}: nothing mined and no inbox/{client}/conventions/")
        return
    inputs = {"tm_units": sha256_file(settings.tm_units_path(client))}
    if config.split is not None:
        inputs["splits.json"] = sha256_file(settings.client_dir(client) / "splits.json")
    written, result = build_set(pairs, sources, client=client, rules_out=settings.rules_out, inputs=inputs,
                                split=config.split, params=DEFAULT_PARAMS)
    by_rule: dict[str, int] = {}
    for conv in result.conventions:
        by_rule[conv.rule] = by_rule.get(conv.rule, 0) + 1
    context.log.info(f"{written.conventions} conventions → {written.path}")
    yield MaterializeResult(metadata={
        "set_version": written.set_version, "path": MetadataValue.path(str(written.path)),
        "conventions": written.conventions, "split": config.split or "all units",
        "by_rule": md_counts(by_rule, "rule", "conventions"), "conflicts": len(result.conflicts),
        "contrast_candidates": int(result.stats.get("contrast_candidates", 0)),
        "authored_also_mined": int(result.stats.get("authored_also_mined", 0)), "suspect_units": len(result.suspects),
        **_decision_metadata(result.stats.get("decisions")),
    })


def _decision_metadata(block: dict[str, Any] | None) -> dict[str, Any]:
    """The review decisions the set followed (manifest ``decisions``), when the client has any."""
    if not block:
        return {}
    return {"decisions_applied": int(block["applied"]), "decisions_unmatched": int(block["unmatched"]),
            "by_status": md_counts(block["by_status"], "status", "conventions")}
