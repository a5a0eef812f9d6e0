"""Adequacy beside the style score, never merged with it: sacrebleu corpus BLEU and chrF per system.

One row per (system, metric, reference set): each reference alone, and all references together
(multi-reference) when two or more are given. Each row carries sacrebleu's own signature.
Segments: the source ids (when sources are given) that every reference of the row covers; a
system's missing outputs count as empty hypotheses (so skipping hard segments is not rewarded)
and are reported in ``missing``. Tokenizers that download models (``spm``, ``flores*``) are refused.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import polars as pl
from sacrebleu.metrics import BLEU, CHRF

from housestyle.pipelines.errors import ConfigError

ADEQUACY_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.Utf8(), "metric": pl.Utf8(), "references": pl.Utf8(), "n_refs": pl.Int64(),
    "score": pl.Float64(), "segments": pl.Int64(), "missing": pl.Int64(), "signature": pl.Utf8(),
}


def _metrics(tokenize: str) -> dict[str, Any]:
    if tokenize.startswith(("spm", "flores")):
        raise ConfigError(f"tokenizer {tokenize!r} needs a model download; use 13a, intl, char, zh, ja-mecab…")
    return {"BLEU": BLEU(tokenize=tokenize), "chrF": CHRF()}


def adequacy_table(
    systems: Mapping[str, Mapping[str, str]],
    references: Sequence[Mapping[str, str]],
    sources: Mapping[str, str] | None = None,
    *,
    reference_names: Sequence[str] | None = None,
    tokenize: str = "13a",
) -> pl.DataFrame:
    """sacrebleu BLEU and chrF for every system against each reference and, with ≥2, all of them."""
    names = list(reference_names) if reference_names else [f"ref{i + 1}" for i in range(len(references))]
    if len(names) != len(references):
        raise ConfigError("reference_names must name every reference")
    sets: list[list[int]] = [[i] for i in range(len(references))]
    if len(references) >= 2:
        sets.append(list(range(len(references))))
    metrics = _metrics(tokenize)
    rows: list[dict[str, Any]] = []
    for ref_set in sets:
        refs = [references[i] for i in ref_set]
        ids = [s for s in (sources if sources is not None else refs[0]) if all(s in r for r in refs)]
        if not ids:
            continue
        ref_streams = [[r[s] for s in ids] for r in refs]
        for system, outputs in systems.items():
            hyps = [outputs.get(s) or "" for s in ids]
            missing = sum(1 for s in ids if outputs.get(s) is None)
            for metric_name, metric in metrics.items():
                result = metric.corpus_score(hyps, ref_streams)
                rows.append({
                    "system": system, "metric": metric_name, "references": "+".join(names[i] for i in ref_set),
                    "n_refs": len(ref_set), "score": float(result.score), "segments": len(ids), "missing": missing,
                    "signature": str(metric.get_signature()),
                })
    return pl.DataFrame(rows, schema=ADEQUACY_SCHEMA) if rows else pl.DataFrame(schema=ADEQUACY_SCHEMA)
