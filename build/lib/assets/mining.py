"""Mining assets (SPEC §1): term_candidates, pattern_candidates, rule_candidates →
convention_candidates → convention_set, partitioned by client like tm_units.

Thin: each asset selects the client's units (all, or the split named in run config, from
inbox/<client>/splits.json), calls ``pipelines.mining`` and stores its candidates under
<storage>/<asset>/<client>/. Every language pair of the client's TM with units is mined. Nothing
here reads gold or registrations (the isolation test checks the asset graph).
"""

# No `from __future__ import annotations`: Dagster inspects the context/resource annotations at runtime.

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
from dagster import (
    AssetExecutionContext,
    Config,
    MaterializeResult,
    MetadataValue,
    asset,
)

from assets.inbox import input_files
from assets.metadata import md_counts
from assets.partitions import CLIENTS
from assets.resources import HousestyleSettings
from pipelines.contrast.conventions import fold_contrast_with_evidence
from pipelines.conventions.io import load_conventions
from pipelines.conventions.model import Convention
from pipelines.conventionset.version import sha256_file
from pipelines.conventionset.writer import write_set
from pipelines.mining.corpus import Corpus, corpus_from_units, read_units_for_mining
from pipelines.mining.merge import EVIDENCE_SCHEMA, Mined, empty_evidence, evidence_frame, from_rows
from pipelines.mining.mine import (
    PATTERN_FAMILIES,
    RULE_FAMILIES,
    combine,
    proposer_group,
    term_group,
)
from pipelines.mining.params import DEFAULT_PARAMS
from pipelines.splits import select_split


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


def _store(out_dir: Path, items: list[Mined], corpus: Corpus, extra: dict[str, Any]) -> None:
    """One folder per language pair: candidates.jsonl (with the miner's extra fields) + evidence.parquet."""
    pair_dir = out_dir / f"{corpus.src_lang}__{corpus.tgt_lang}"
    pair_dir.mkdir(parents=True, exist_ok=True)
    records = []
    for item in items:
        record = {k: v for k, v in item.conv.to_dict().items() if k != "extra"}
        records.append(json.dumps({**record, **item.conv.extra}, ensure_ascii=False, sort_keys=True))
    (pair_dir / "candidates.jsonl").write_text("".join(r + "\n" for r in records), encoding="utf-8")
    evidence_frame(items, corpus.unit_ids).write_parquet(pair_dir / "evidence.parquet")
    (pair_dir / "meta.json").write_text(json.dumps(extra, ensure_ascii=False, sort_keys=True, indent=1), encoding="utf-8")


def _load(out_dir: Path, corpus: Corpus) -> tuple[list[Mined], dict[str, Any]]:
    pair_dir = out_dir / f"{corpus.src_lang}__{corpus.tgt_lang}"
    if not (pair_dir / "candidates.jsonl").stat().st_size:
        return [], json.loads((pair_dir / "meta.json").read_text(encoding="utf-8"))
    convs = load_conventions(pair_dir / "candidates.jsonl", regex_guard=False)
    evidence = pl.read_parquet(pair_dir / "evidence.parquet")
    return from_rows(convs, evidence, corpus.unit_ids), json.loads((pair_dir / "meta.json").read_text(encoding="utf-8"))


def _materialize(kind: str, counts: dict[str, int], split: str | None) -> MaterializeResult:
    return MaterializeResult(metadata={"candidates": sum(counts.values()), "split": split or "all units",
                                       "by_language_pair": md_counts(counts, "pair", kind)})


@asset(partitions_def=CLIENTS, group_name="mining", deps=["tm_units"], kinds={"polars", "spacy"})
def term_candidates(context: AssetExecutionContext, settings: HousestyleSettings, config: MiningConfig) -> MaterializeResult:
    """Required-term candidates (alignment, association, boundary repair, inflection grouping),
    mined without the units they show to be misaligned (listed as ``suspect_units``)."""
    client, out = context.partition_key, settings.asset_dir("term_candidates", context.partition_key)
    counts, suspects = {}, 0
    for corpus in _corpora(settings, client, config.split):
        items, conflicts, stats = term_group(corpus, DEFAULT_PARAMS)
        _store(out, items, corpus, {"conflicts": conflicts, "stats": stats, "split": config.split})
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
        _store(out, items, corpus, {"stats": stats, "split": config.split})
        counts[f"{corpus.src_lang}→{corpus.tgt_lang}"] = len(items)
    return _materialize("conventions", counts, config.split)


@asset(partitions_def=CLIENTS, group_name="mining", deps=["tm_units"], kinds={"polars"})
def pattern_candidates(context: AssetExecutionContext, settings: HousestyleSettings, config: MiningConfig) -> MaterializeResult:
    """Patterned conventions (typography, quotes, casing), measured on the units with the checker."""
    return _proposers(context, settings, config, "pattern_candidates", PATTERN_FAMILIES)


@asset(partitions_def=CLIENTS, group_name="mining", deps=["tm_units"], kinds={"polars"})
def rule_candidates(context: AssetExecutionContext, settings: HousestyleSettings, config: MiningConfig) -> MaterializeResult:
    """Source-copy, numeric and placeholder rules, measured on the units with the checker."""
    return _proposers(context, settings, config, "rule_candidates", RULE_FAMILIES)


@asset(partitions_def=CLIENTS, group_name="mining",
       deps=["term_candidates", "pattern_candidates", "rule_candidates", "negative_candidates"],
       kinds={"polars", "parquet"})
def convention_candidates(context: AssetExecutionContext, settings: HousestyleSettings, config: MiningConfig) -> MaterializeResult:
    """All candidates merged per language pair, conflicts reported; feeds convention_set."""
    client = context.partition_key
    out = settings.asset_dir("convention_candidates", client)
    counts: dict[str, int] = {}
    for corpus in _corpora(settings, client, config.split):
        mined, conflicts, stats = [], [], {"units": len(corpus)}
        for name in ("term_candidates", "pattern_candidates", "rule_candidates"):
            items, meta = _load(settings.storage / name / client, corpus)
            mined += items
            conflicts += meta.get("conflicts", [])
            stats.update(meta.get("stats", {}))
        result = combine(mined, conflicts, corpus.unit_ids, stats)
        conventions, evidence = _fold_contrast(settings, client, corpus, result.conventions, result.evidence)
        result.stats["contrast_candidates"] = sum(c.origin == "contrast" for c in conventions)
        pair = f"{corpus.src_lang}__{corpus.tgt_lang}"
        _store(out, [Mined(c, [], []) for c in conventions], corpus,
               {"conflicts": result.conflicts, "stats": result.stats, "split": config.split, "suspects": result.suspects})
        evidence.write_parquet(out / pair / "evidence.parquet")
        counts[f"{corpus.src_lang}→{corpus.tgt_lang}"] = len(conventions)
    return _materialize("conventions", counts, config.split)


def _fold_contrast(settings: HousestyleSettings, client: str, corpus: Corpus, conventions: list[Convention],
                   evidence: pl.DataFrame) -> tuple[list[Convention], pl.DataFrame]:
    """Fold negative_candidates (origin contrast, status candidate) of this pair into its merged rules."""
    path = settings.storage / "negative_candidates" / client / "conventions.jsonl"
    if not path.is_file() or not path.stat().st_size:
        return conventions, evidence
    candidates = [c for c in load_conventions(path, regex_guard=False)
                  if (c.src_lang, c.tgt_lang) == (corpus.src_lang, corpus.tgt_lang)]
    return fold_contrast_with_evidence(conventions, evidence, candidates)


@asset(partitions_def=CLIENTS, group_name="conventions", deps=["convention_candidates"], output_required=False,
       kinds={"polars", "parquet"})
def convention_set(context: AssetExecutionContext, settings: HousestyleSettings,
                   config: MiningConfig) -> Iterator[MaterializeResult]:
    """The client's set: mined candidates (+ authored rules from inbox/<client>/conventions/),
    published to rules_out/<client>/<set_version>/ with LATEST updated."""
    from pipelines.mining.merge import MiningResult

    client = context.partition_key
    cand_dir = settings.storage / "convention_candidates" / client
    conventions, evidence, conflicts, stats, suspects = [], [empty_evidence()], [], {}, []
    for pair_dir in sorted(p for p in cand_dir.iterdir() if p.is_dir()) if cand_dir.is_dir() else []:
        if (pair_dir / "candidates.jsonl").stat().st_size:
            conventions += load_conventions(pair_dir / "candidates.jsonl", regex_guard=False)
        evidence.append(pl.read_parquet(pair_dir / "evidence.parquet").cast(EVIDENCE_SCHEMA))
        meta = json.loads((pair_dir / "meta.json").read_text(encoding="utf-8"))
        conflicts += meta.get("conflicts", [])
        suspects += meta.get("suspects", [])
        stats[pair_dir.name] = meta.get("stats", {})
    authored = input_files(settings.client_dir(client) / "conventions")
    mined_ids, also_mined = {c.convention_id for c in conventions}, 0
    for path in authored:
        for conv in load_conventions(path):
            if conv.convention_id in mined_ids:
                also_mined += 1  # the miner found the authored rule itself: keep the mined row (it has evidence)
                continue
            mined_ids.add(conv.convention_id)
            conventions.append(conv)
    stats["authored_also_mined"] = also_mined
    if not conventions:
        context.log.warning(f"no conventions for {client}: nothing mined and no inbox/{client}/conventions/")
        return
    inputs = {"tm_units": sha256_file(settings.tm_units_path(client))}
    inputs.update({f"conventions/{p.name}": sha256_file(p) for p in authored})
    splits = settings.client_dir(client) / "splits.json"
    if config.split is not None:
        inputs["splits.json"] = sha256_file(splits)
    pairs = sorted({(c.src_lang or "*", c.tgt_lang or "*") for c in conventions})
    written = write_set(MiningResult(conventions, pl.concat(evidence), conflicts, stats, suspects), client=client, rules_out=settings.rules_out,
                        inputs=inputs, params=DEFAULT_PARAMS.to_dict(), split=config.split,
                        src_lang=",".join(sorted({p[0] for p in pairs})), tgt_lang=",".join(sorted({p[1] for p in pairs})))
    by_rule: dict[str, int] = {}
    for conv in conventions:
        by_rule[conv.rule] = by_rule.get(conv.rule, 0) + 1
    context.log.info(f"{written.conventions} conventions → {written.path}")
    yield MaterializeResult(metadata={
        "set_version": written.set_version, "path": MetadataValue.path(str(written.path)),
        "conventions": written.conventions, "split": config.split or "all units",
        "by_rule": md_counts(by_rule, "rule", "conventions"), "conflicts": len(conflicts),
        "authored_also_mined": also_mined, "suspect_units": len(suspects),
    })
