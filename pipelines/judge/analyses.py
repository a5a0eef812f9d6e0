"""Analyses of the judge: balanced accuracy with by-segment bootstrap intervals, paired gains over the
chrF baseline, the sample-efficiency curve, criterion importance per language.

Items are not independent: every source segment is translated by every system. A bootstrap draw
therefore resamples SOURCE SEGMENTS with replacement and keeps all their systems (a drawn segment's
samples all get the draw's count as weight); every model is scored on the same draws, so the gain
over the chrF baseline is a paired difference per draw. Intervals are percentile intervals
(``housestyle.pipelines.metaeval.stats``). A draw without one of the classes gives NaN and is ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl
import scipy.stats
from numpy.typing import NDArray

from housestyle.pipelines.metaeval.stats import bootstrap_counts, percentile_interval

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

EVAL_COLUMNS: dict[str, pl.DataType] = {
    "model": pl.Utf8(), "balanced_accuracy": pl.Float64(), "ci_low": pl.Float64(), "ci_high": pl.Float64(),
    "gain_vs_chrf": pl.Float64(), "gain_ci_low": pl.Float64(), "gain_ci_high": pl.Float64(),
    "n_samples": pl.Int64(), "n_segments": pl.Int64(), "n_bootstrap": pl.Int64(),
}


def balanced_accuracy(y: IntArray, pred: IntArray, weights: FloatArray | None = None) -> FloatArray:
    """Balanced accuracy (mean of the two per-class recalls); ``weights`` (draws × samples) gives one
    value per draw. Label 1 = not acceptable."""
    w = np.ones((1, len(y))) if weights is None else np.atleast_2d(weights)
    yf, pf = y.astype(float), pred.astype(float)
    pos, neg = w @ yf, w @ (1.0 - yf)
    tp, tn = w @ (yf * pf), w @ ((1.0 - yf) * (1.0 - pf))
    with np.errstate(invalid="ignore", divide="ignore"):
        ba = 0.5 * (tp / pos + tn / neg)
    return np.where((pos > 0) & (neg > 0), ba, np.nan)


def segment_weights(seg_ids: Sequence[Any], n_bootstrap: int, seed: int) -> FloatArray:
    """(draws × samples) weights: each draw resamples the distinct segments, a sample gets its
    segment's count."""
    distinct, index = np.unique(np.asarray(list(seg_ids)), return_inverse=True)
    counts = bootstrap_counts(len(distinct), n_bootstrap, np.random.default_rng(seed))
    return counts[:, index].astype(float)


def bootstrap_table(y: IntArray, predictions: Mapping[str, IntArray], seg_ids: Sequence[Any], *,
                    baseline: str = "chrf_threshold", n_bootstrap: int = 1000, seed: int = 0,
                    level: float = 0.95) -> pl.DataFrame:
    """One row per model: BA with its interval, and the paired gain over ``baseline`` with its interval."""
    weights = segment_weights(seg_ids, n_bootstrap, seed) if n_bootstrap > 0 else None
    point = {m: float(balanced_accuracy(y, p)[0]) for m, p in predictions.items()}
    draws = {m: balanced_accuracy(y, p, weights) for m, p in predictions.items()} if weights is not None else {}
    rows = []
    n_segments = len(set(seg_ids))
    for model in predictions:
        low = high = g_low = g_high = float("nan")
        gain = point[model] - point[baseline] if baseline in point else float("nan")
        if weights is not None:
            low, high = percentile_interval(draws[model], level)
            if baseline in draws:
                g_low, g_high = percentile_interval(draws[model] - draws[baseline], level)
        rows.append({"model": model, "balanced_accuracy": point[model], "ci_low": low, "ci_high": high,
                     "gain_vs_chrf": gain, "gain_ci_low": g_low, "gain_ci_high": g_high,
                     "n_samples": len(y), "n_segments": n_segments, "n_bootstrap": n_bootstrap})
    return pl.DataFrame(rows, schema=EVAL_COLUMNS)


def split_segments(seg_ids: Sequence[Any], held_out: float, seed: int) -> tuple[set[Any], set[Any]]:
    """(training-split segments, held-out segments): whole segments, never a segment in both."""
    distinct = np.array(sorted(set(seg_ids)))
    rng = np.random.default_rng(seed)
    rng.shuffle(distinct)
    n_held = round(held_out * len(distinct))
    return set(distinct[n_held:].tolist()), set(distinct[:n_held].tolist())


FitPredict = Callable[[NDArray[np.bool_], str], Mapping[str, IntArray]]


def sample_efficiency(seg_ids: Sequence[Any], fit_predict: FitPredict, evaluate: Callable[[Mapping[str, IntArray], str],
                      Mapping[str, float]], *, fractions: Sequence[float] = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0),
                      held_out: float = 0.3, seed: int = 0) -> pl.DataFrame:
    """The curve: train on a growing share of the training split's SEGMENTS (nested subsets), score on
    the held-out 30 % of the training language and on the target language.

    ``fit_predict(train_mask, fraction_label)`` trains on the masked training rows and returns
    predictions keyed ``heldout:<model>`` and ``target:<model>``; ``evaluate`` turns them into
    figures (balanced accuracy per key)."""
    train_segs, _ = split_segments(seg_ids, held_out, seed)
    order = np.array(sorted(train_segs))
    np.random.default_rng(seed + 1).shuffle(order)
    segs = np.asarray(list(seg_ids))
    rows = []
    for fraction in fractions:
        chosen = set(order[: max(2, round(fraction * len(order)))].tolist())
        mask = np.array([s in chosen for s in segs])
        figures = evaluate(fit_predict(mask, f"{fraction:g}"), f"{fraction:g}")
        for key, value in figures.items():
            where, _, model = key.partition(":")
            rows.append({"fraction": fraction, "train_segments": len(chosen), "train_samples": int(mask.sum()),
                         "evaluated_on": where, "model": model, "balanced_accuracy": value})
    return pl.DataFrame(rows, schema={"fraction": pl.Float64(), "train_segments": pl.Int64(), "train_samples": pl.Int64(),
                                      "evaluated_on": pl.Utf8(), "model": pl.Utf8(), "balanced_accuracy": pl.Float64()})


def importance_profiles(profiles: Mapping[str, FloatArray], columns: Sequence[str], reference: str) -> pl.DataFrame:
    """Long table of Gini importances per language + each language's Spearman rho with ``reference``'s."""
    ref = profiles[reference]
    rows = []
    for lp, values in profiles.items():
        rho = float(scipy.stats.spearmanr(ref, values)[0]) if np.ptp(values) > 0 and np.ptp(ref) > 0 else float("nan")
        for column, value in zip(columns, values):
            rows.append({"lp": lp, "concept": column.removeprefix("z:"), "importance": float(value),
                         "spearman_vs_train": rho})
    return pl.DataFrame(rows, schema={"lp": pl.Utf8(), "concept": pl.Utf8(), "importance": pl.Float64(),
                                      "spearman_vs_train": pl.Float64()})
