"""End-to-end meta-evaluation: how well does a metric agree with expert MQM judgements?

For every language pair (one MQM file each) and every metric view (a metric with one reference
configuration, or any per-(system, segment) score table such as SCS), we report:
- system level: pairwise accuracy, Pearson r, Kendall tau-b between metric and human system scores
  (human score = -MQM, so a good metric correlates positively);
- segment level: Kendall tau-b (and Pearson) over the flattened systems × segments matrix
  (mt-metrics-eval ``average_by='none'``);
- 95% paired-bootstrap intervals: per language pair one set of segment resamples (seeded by seed and
  lp name) shared by all metrics; every figure is recomputed from the resampled segments (human
  system score = mean MQM of the drawn segments; BLEU/chrF = corpus score of the drawn segments).
- pooled rows (lp ``pooled``): pairwise accuracy over the union of all lps' system pairs, as
  mt-metrics-eval's global accuracy; Pearson / Kendall pooled = unweighted mean of the lps' values
  (WMT23-style average, since correlations across lps with different scales are not comparable).

The named reference systems are the (multi-)reference and are never ranked. As in mt-metrics-eval,
no human translation is ranked by default: every system the file names like a reference (``ref``,
``refA``, ``refB``, ``ref-A``, ``ref_1``: ``HUMAN_NAME``) is left out too, unless ``include_human``.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from numpy.typing import NDArray

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.fingerprint import code_version
from housestyle.pipelines.metaeval import stats
from housestyle.pipelines.metaeval.metrics import (
    METRIC_NAMES,
    CorpusStats,
    ReferenceScorer,
    ReferenceSet,
    signature,
)
from housestyle.pipelines.metaeval.mqm import MqmData, load_mqm

SegmentMetric = pl.DataFrame  # columns: system, seg_id, score; optional weight (default 1), lp
Counts = NDArray[np.int64]
Matrix = NDArray[np.float64]

FIGURES = ("pairwise_accuracy", "pearson", "kendall")
# How MQM files name human translations: ref, refA, refB, ref-A, ref_B, ref1 (WMT / mt-metrics-eval).
HUMAN_NAME = re.compile(r"ref(?:[-_]?(?:[a-z]|\d+))?", re.IGNORECASE)


def human_systems(systems: Sequence[str]) -> list[str]:
    """The systems whose names say they are human translations (``HUMAN_NAME``)."""
    return [s for s in systems if HUMAN_NAME.fullmatch(s)]
OUTPUT_SCHEMA: dict[str, pl.DataType] = {
    "lp": pl.String(), "metric": pl.String(), "references": pl.String(), "level": pl.String(),
    **{f"{f}{s}": pl.Float64() for f in FIGURES for s in ("", "_low", "_high")},
    "n_systems": pl.Int64(), "n_segments": pl.Int64(), "n_bootstrap": pl.Int64(), "signature": pl.String(),
}
COLUMN_ORDER = ["lp", "metric", "references", "level", *[f"{f}{s}" for f in FIGURES for s in ("", "_low", "_high")],
                "n_systems", "n_segments", "n_bootstrap", "signature"]


@dataclass
class MetricView:
    """One metric under one reference configuration, on one lp's ranked systems × segments."""

    metric: str
    references: str
    signature: str
    system_scores: Callable[[Counts], Matrix]  # counts (draws, N) -> system scores (draws, S)
    segments: Matrix  # (S, N) segment scores, NaN = not scored


@dataclass
class LanguagePair:
    """The human side of one lp: ranked systems × evaluated segments (MQM error points, NaN = unrated)."""

    data: MqmData
    systems: list[str]
    seg_ids: list[int]
    mqm: Matrix

    @classmethod
    def build(cls, data: MqmData, reference_systems: Sequence[str], exclude_systems: Sequence[str] = (),
              seg_ids: Sequence[int] | None = None, *, include_human: bool = False) -> LanguagePair:
        """The ranked systems: all but the references, ``exclude_systems`` and (unless
        ``include_human``) every human translation the file names (``human_systems``)."""
        present = set(data.systems)
        for name in reference_systems:
            if name not in present:
                raise InputError(f"reference system {name!r} not in this MQM file (systems: {sorted(present)})",
                                 path=str(data.path))
        skip = set(reference_systems) | set(exclude_systems) | (set() if include_human else set(human_systems(data.systems)))
        systems = [s for s in data.systems if s not in skip]
        if len(systems) < 2:
            raise InputError(f"fewer than 2 systems left to rank: {systems}", path=str(data.path))
        segs = list(data.seg_ids) if seg_ids is None else sorted(set(seg_ids))
        unknown = set(segs) - set(data.seg_ids)
        if unknown:
            raise InputError(f"segment ids not in this MQM file: {sorted(unknown)[:10]}", path=str(data.path))
        return cls(data, systems, segs, _matrix(data.segments, "mqm", systems, segs))

    def human_system_scores(self, counts: Counts) -> Matrix:
        return -_weighted_means(self.mqm, np.ones_like(self.mqm), counts)


def _matrix(table: pl.DataFrame, column: str, systems: Sequence[str], seg_ids: Sequence[int]) -> Matrix:
    """A (systems × segments) matrix of ``column``; missing cells are NaN."""
    out = np.full((len(systems), len(seg_ids)), np.nan)
    row = {s: i for i, s in enumerate(systems)}
    col = {g: j for j, g in enumerate(seg_ids)}
    for s, g, v in table.select("system", "seg_id", column).iter_rows():
        if s in row and g in col and v is not None:
            out[row[s], col[g]] = v
    return out


def _weighted_means(values: Matrix, weights: Matrix, counts: Counts) -> Matrix:
    """Per draw and system: sum(count·weight·value) / sum(count·weight) over scored segments."""
    scored = ~np.isnan(values)
    w = np.where(scored, weights, 0.0)
    num, den = counts @ (np.where(scored, values, 0.0) * w).T, counts @ w.T
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def _corpus_scorer(per_system: list[CorpusStats]) -> Callable[[Counts], Matrix]:
    def scores(counts: Counts) -> Matrix:
        return np.stack([cs.scores(counts) for cs in per_system], axis=1)
    return scores


def reference_views(lp: LanguagePair, refs: ReferenceSet, metrics: Sequence[str] = METRIC_NAMES) -> list[MetricView]:
    """BLEU/chrF views of the ranked systems against one reference set (all segments must be covered)."""
    missing = [s for s in lp.seg_ids if not refs.texts(s)]
    if missing:
        raise InputError(f"reference set {refs.name!r} has no reference for segments {missing[:10]}",
                         path=str(lp.data.path))
    ref_lists = [refs.texts(s) for s in lp.seg_ids]
    views = []
    for name in metrics:
        scorer = ReferenceScorer(name, ref_lists, lp.data.tgt_lang)
        per_system, seg_rows = [], []
        for system in lp.systems:
            outputs = lp.data.outputs(system)
            hyps = [outputs.get(s, "") for s in lp.seg_ids]
            per_system.append(scorer.corpus(hyps))
            seg_rows.append(scorer.segments(hyps, per_system[-1]))
        sig = signature(name, scorer.metric, refs, lp.seg_ids)
        views.append(MetricView(name, refs.name, sig, _corpus_scorer(per_system), np.asarray(seg_rows, dtype=float)))
    return views


def table_view(lp: LanguagePair, scores: SegmentMetric, *, metric: str, references: str = "-",
               signature_text: str | None = None) -> MetricView:
    """A view from any (system, seg_id, score[, weight]) table: the generic path (SCS included).

    System score = weighted mean of the segment scores (weight default 1; null scores = not scored),
    e.g. SCS with score = pass share and weight = scored items gives 100 × passes / items.
    """
    table = scores.filter(pl.col("lp") == lp.data.lp) if "lp" in scores.columns else scores
    absent = sorted(set(lp.systems) - set(table["system"].unique().to_list()))
    if absent:
        raise InputError(f"metric {metric!r} has no scores for systems {absent}", path=str(lp.data.path))
    if "weight" not in table.columns:
        table = table.with_columns(pl.lit(1.0).alias("weight"))
    values = _matrix(table, "score", lp.systems, lp.seg_ids)
    weights = np.nan_to_num(_matrix(table, "weight", lp.systems, lp.seg_ids))
    return MetricView(metric, references, signature_text or f"{metric}|table|sys:weighted-mean-of-segments",
                      lambda counts: _weighted_means(values, weights, counts), values)


def _ratio(num: NDArray[np.float64], den: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def _nanmean_rows(stacked: NDArray[np.float64]) -> NDArray[np.float64]:
    """Column-wise mean over lps ignoring NaN (NaN when a column has no value), without warnings."""
    valid = ~np.isnan(stacked)
    total = np.where(valid, stacked, 0.0).sum(axis=0)
    return _ratio(total, valid.sum(axis=0).astype(float))


def _figures(lp: LanguagePair, view: MetricView, counts: Counts) -> dict[str, NDArray[np.float64]]:
    """Every figure for the point estimate (row 0 of counts) and each bootstrap draw."""
    human_sys, metric_sys = lp.human_system_scores(counts), view.system_scores(counts)
    human_seg = -lp.mqm
    out: dict[str, list[float]] = {k: [] for k in ("agree", "pairs", "pearson", "kendall", "seg_pearson", "seg_kendall")}
    for b in range(counts.shape[0]):
        agree, pairs = stats.pairwise_agreement(human_sys[b], metric_sys[b])
        out["agree"].append(agree)
        out["pairs"].append(pairs)
        out["pearson"].append(stats.pearson(human_sys[b], metric_sys[b]))
        out["kendall"].append(stats.kendall_tau_b(human_sys[b], metric_sys[b]))
        out["seg_pearson"].append(stats.segment_pearson(human_seg, view.segments, counts=counts[b]))
        out["seg_kendall"].append(stats.segment_kendall(human_seg, view.segments, counts=counts[b]))
    return {k: np.asarray(v, dtype=float) for k, v in out.items()}


def _row(lp: str, view: MetricView, level: str, values: Mapping[str, NDArray[np.float64] | None],
         n_systems: int, n_segments: int, n_bootstrap: int) -> dict[str, object]:
    row: dict[str, object] = {"lp": lp, "metric": view.metric, "references": view.references, "level": level,
                              "n_systems": n_systems, "n_segments": n_segments, "n_bootstrap": n_bootstrap,
                              "signature": f"{view.signature}|housestyle:{code_version()}"}
    for fig in FIGURES:
        arr = values.get(fig)
        point = None if arr is None or np.isnan(arr[0]) else float(arr[0])
        low, high = (None, None) if arr is None or n_bootstrap == 0 else stats.percentile_interval(arr[1:])
        row[fig] = point
        row[f"{fig}_low"] = None if low is None or np.isnan(low) else low
        row[f"{fig}_high"] = None if high is None or np.isnan(high) else high
    return row


def evaluate_views(lps: Sequence[LanguagePair], views: Mapping[str, Sequence[MetricView]], *,
                   n_bootstrap: int = 1000, seed: int = 0) -> pl.DataFrame:
    """The engine: per-lp rows for every view, then pooled rows per (metric, references)."""
    rows: list[dict[str, object]] = []
    pooled: dict[tuple[str, str], list[tuple[LanguagePair, MetricView, dict[str, NDArray[np.float64]]]]] = {}
    for lp in lps:
        rng = np.random.default_rng([seed, zlib.crc32(lp.data.lp.encode("utf-8"))])
        n = len(lp.seg_ids)
        counts = np.vstack([np.ones((1, n), dtype=np.int64), stats.bootstrap_counts(n, n_bootstrap, rng)])
        for view in views.get(lp.data.lp, ()):
            fig = _figures(lp, view, counts)
            pooled.setdefault((view.metric, view.references), []).append((lp, view, fig))
            acc = _ratio(fig["agree"], fig["pairs"])
            size = (len(lp.systems), n, n_bootstrap)
            rows.append(_row(lp.data.lp, view, "system", {"pairwise_accuracy": acc, "pearson": fig["pearson"],
                                                          "kendall": fig["kendall"]}, *size))
            rows.append(_row(lp.data.lp, view, "segment", {"pearson": fig["seg_pearson"],
                                                           "kendall": fig["seg_kendall"]}, *size))
    for members in pooled.values():
        figs = [m[2] for m in members]
        view = members[0][1]
        pooled_view = MetricView(view.metric, view.references, " || ".join(m[1].signature for m in members),
                                 view.system_scores, view.segments)
        size = (sum(len(m[0].systems) for m in members), sum(len(m[0].seg_ids) for m in members), n_bootstrap)
        acc = _ratio(np.sum([f["agree"] for f in figs], axis=0), np.sum([f["pairs"] for f in figs], axis=0))

        def mean(key: str, figs: list[dict[str, NDArray[np.float64]]] = figs) -> NDArray[np.float64]:
            return _nanmean_rows(np.vstack([f[key] for f in figs]))

        rows.append(_row("pooled", pooled_view, "system",
                         {"pairwise_accuracy": acc, "pearson": mean("pearson"), "kendall": mean("kendall")}, *size))
        rows.append(_row("pooled", pooled_view, "segment",
                         {"pearson": mean("seg_pearson"), "kendall": mean("seg_kendall")}, *size))
    return pl.DataFrame(rows, schema=OUTPUT_SCHEMA).select(COLUMN_ORDER)


def references_from_systems(data: MqmData, reference_systems: Sequence[str]) -> ReferenceSet:
    """The named systems' outputs as one approved multi-reference set named ``ref+refB``."""
    per_seg: dict[int, list[str]] = {}
    for system in reference_systems:
        for seg, text in data.outputs(system).items():
            per_seg.setdefault(seg, []).append(text)
    return ReferenceSet.from_texts("+".join(reference_systems), per_seg, origin="approved")


def meta_evaluate(
    mqm_files: Sequence[Path | MqmData],
    reference_systems: Sequence[str],
    *,
    n_bootstrap: int = 1000,
    seed: int = 0,
    extra_metrics: Mapping[str, SegmentMetric] | None = None,
    extra_reference_sets: Mapping[str, Sequence[ReferenceSet]] | None = None,
    exclude_systems: Sequence[str] = (),
    segments: Mapping[str, Sequence[int]] | None = None,
    metrics: Sequence[str] = METRIC_NAMES,
    include_human: bool = False,
) -> pl.DataFrame:
    """Meta-evaluate BLEU/chrF (with the named reference systems) and any extra metric tables.

    ``extra_reference_sets`` (lp → reference sets, e.g. approved + generated) adds BLEU/chrF rows per
    set; ``exclude_systems`` are neither ranked nor references (absent names are ignored);
    ``segments`` (lp → seg ids) restricts an lp to a sample, for every metric alike. Human
    translations the files name (``human_systems``) are not ranked unless ``include_human``.
    """
    reference_systems = list(dict.fromkeys(reference_systems))
    if not reference_systems:
        raise ValueError("at least one reference system is required")
    lps: list[LanguagePair] = []
    for path in mqm_files:
        data = path if isinstance(path, MqmData) else load_mqm(path)
        if any(lp.data.lp == data.lp for lp in lps):
            raise InputError(f"two MQM files for language pair {data.lp} (give each its own with --lp)",
                             path=str(data.path))
        lps.append(LanguagePair.build(data, reference_systems, exclude_systems, (segments or {}).get(data.lp),
                                      include_human=include_human))
    views: dict[str, list[MetricView]] = {}
    for lp in lps:
        ref_sets = [references_from_systems(lp.data, reference_systems), *(extra_reference_sets or {}).get(lp.data.lp, ())]
        lp_views = views.setdefault(lp.data.lp, [])
        for ref_set in ref_sets:
            lp_views.extend(reference_views(lp, ref_set, metrics))
        for name, table in (extra_metrics or {}).items():
            if len(lps) > 1 and "lp" not in table.columns:
                raise ValueError(f"extra metric {name!r}: an 'lp' column is needed with more than one MQM file")
            lp_views.append(table_view(lp, table, metric=name))
    return evaluate_views(lps, views, n_bootstrap=n_bootstrap, seed=seed)


def evaluate_metric_table(scores: SegmentMetric, human: MqmData | Sequence[MqmData], *, metric: str,
                          reference_systems: Sequence[str] = (), exclude_systems: Sequence[str] = (),
                          references: str = "-", n_bootstrap: int = 1000, seed: int = 0,
                          include_human: bool = False) -> pl.DataFrame:
    """Rows for one score table (system, seg_id, score[, weight][, lp]) against human MQM data."""
    datas = [human] if isinstance(human, MqmData) else list(human)
    lps = [LanguagePair.build(d, reference_systems, exclude_systems, include_human=include_human) for d in datas]
    views = {lp.data.lp: [table_view(lp, scores, metric=metric, references=references)] for lp in lps}
    return evaluate_views(lps, views, n_bootstrap=n_bootstrap, seed=seed)
