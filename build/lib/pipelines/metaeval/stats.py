"""Agreement statistics between a metric and human scores, as mt-metrics-eval defines them.

- Pairwise accuracy (Kocmi et al. 2021, mt-metrics-eval ``stats.Agreement``): over all system
  pairs, the share where sign(metric difference) == sign(human difference); a pair tied in both
  counts as agreement. Pooled over language pairs = total agreeing pairs / total pairs over the
  union of every language pair's system pairs (mt-metrics-eval ``CompareMetricsWithGlobalAccuracy``).
- Pearson r and Kendall tau-b (scipy) on the system-score vectors.
- Segment-level Kendall tau-b, mt-metrics-eval ``average_by='none'`` ("no grouping"): the
  systems × segments matrices are flattened into two long vectors (pairs whose human score is
  missing are dropped) and one tau-b is computed. ``average_by='item'`` (per-segment tau over the
  systems, then the mean) is available for comparison.
- Bootstrap: segment ids are resampled with replacement; a draw is a vector of per-segment counts,
  so every figure is recomputed from counts-weighted segment data.

Degenerate inputs (constant vectors, < 2 values) give NaN instead of a scipy warning, because one
bootstrap draw may legitimately tie everything.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.stats
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]


def pairwise_agreement(human: ArrayLike, metric: ArrayLike) -> tuple[int, int]:
    """(agreeing pairs, pairs) over all unordered system pairs; NaN human scores are skipped."""
    h, m = np.asarray(human, dtype=float), np.asarray(metric, dtype=float)
    keep = ~np.isnan(h)
    h, m = h[keep], m[keep]
    i, j = np.triu_indices(len(h), k=1)
    agree = np.sign(h[i] - h[j]) == np.sign(m[i] - m[j])
    return int(agree.sum()), len(i)


def pairwise_accuracy(human: ArrayLike, metric: ArrayLike) -> float:
    agree, pairs = pairwise_agreement(human, metric)
    return agree / pairs if pairs else float("nan")


def pooled_pairwise_accuracy(groups: Sequence[tuple[ArrayLike, ArrayLike]]) -> float:
    """Pairs are formed within each language pair only, then counted together."""
    counts = [pairwise_agreement(h, m) for h, m in groups]
    pairs = sum(p for _, p in counts)
    return sum(a for a, _ in counts) / pairs if pairs else float("nan")


def _usable(x: FloatArray, y: FloatArray) -> bool:
    return len(x) >= 2 and bool(np.ptp(x) > 0) and bool(np.ptp(y) > 0)


def pearson(x: ArrayLike, y: ArrayLike) -> float:
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if not _usable(a, b):
        return float("nan")
    return float(scipy.stats.pearsonr(a, b)[0])


def kendall_tau_b(x: ArrayLike, y: ArrayLike) -> float:
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if not _usable(a, b):
        return float("nan")
    return float(scipy.stats.kendalltau(a, b, variant="b")[0])


def _expand(matrix: FloatArray, counts: NDArray[np.int64] | None) -> FloatArray:
    return matrix if counts is None else np.repeat(matrix, counts, axis=1)


def segment_kendall(
    human: ArrayLike, metric: ArrayLike, *, counts: NDArray[np.int64] | None = None, average_by: str = "none"
) -> float:
    """Segment-level tau-b of two systems × segments matrices (NaN human = unrated, dropped).

    ``counts`` (one per segment column) repeats columns, which is how a bootstrap draw is applied.
    """
    h = _expand(np.asarray(human, dtype=float), counts)
    m = _expand(np.asarray(metric, dtype=float), counts)
    if average_by == "none":
        keep = ~(np.isnan(h) | np.isnan(m))
        return kendall_tau_b(h[keep], m[keep])
    if average_by == "item":
        taus = []
        for col in range(h.shape[1]):
            keep = ~(np.isnan(h[:, col]) | np.isnan(m[:, col]))
            taus.append(kendall_tau_b(h[keep, col], m[keep, col]))
        valid = [t for t in taus if not np.isnan(t)]
        return float(np.mean(valid)) if valid else float("nan")
    raise ValueError(f"average_by must be 'none' or 'item', not {average_by!r}")


def segment_pearson(human: ArrayLike, metric: ArrayLike, *, counts: NDArray[np.int64] | None = None) -> float:
    """Flattened ('no grouping') Pearson r of two systems × segments matrices."""
    h = _expand(np.asarray(human, dtype=float), counts)
    m = _expand(np.asarray(metric, dtype=float), counts)
    keep = ~(np.isnan(h) | np.isnan(m))
    return pearson(h[keep], m[keep])


def bootstrap_counts(n_segments: int, n_bootstrap: int, rng: np.random.Generator) -> NDArray[np.int64]:
    """(n_bootstrap, n_segments) counts: how often each segment is drawn in each resample."""
    draws = rng.integers(0, n_segments, size=(n_bootstrap, n_segments))
    out = np.zeros((n_bootstrap, n_segments), dtype=np.int64)
    rows = np.repeat(np.arange(n_bootstrap), n_segments)
    np.add.at(out, (rows, draws.ravel()), 1)
    return out


def percentile_interval(values: ArrayLike, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval; NaN draws are ignored; (nan, nan) when none are usable."""
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    if v.size == 0:
        return float("nan"), float("nan")
    tail = (1.0 - level) / 2.0 * 100.0
    low, high = np.percentile(v, [tail, 100.0 - tail])
    return float(low), float(high)
