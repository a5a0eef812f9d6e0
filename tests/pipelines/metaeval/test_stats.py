"""Agreement statistics on cases small enough to check by hand, and against scipy."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats

from housestyle.pipelines.metaeval import stats


def test_pairwise_accuracy_by_hand() -> None:
    # pairs (0,1) agree, (0,2) agree, (1,2) disagree
    assert stats.pairwise_agreement([3, 2, 1], [3, 1, 2]) == (2, 3)
    assert stats.pairwise_accuracy([3, 2, 1], [3, 1, 2]) == pytest.approx(2 / 3)


def test_pairwise_accuracy_ties_count_as_agreement_only_when_both_tie() -> None:
    # (0,1): tied in both → agree; (0,2), (1,2): opposite signs → disagree
    assert stats.pairwise_agreement([1, 1, 2], [5, 5, 0]) == (1, 3)
    # metric ties a pair humans separate → disagreement
    assert stats.pairwise_agreement([1, 2], [7, 7]) == (0, 1)


def test_pairwise_accuracy_skips_missing_human_scores() -> None:
    assert stats.pairwise_agreement([1.0, float("nan"), 3.0], [1.0, 9.0, 2.0]) == (1, 1)


def test_pooled_accuracy_counts_pairs_within_each_lp() -> None:
    # lp1: 2/3 agree; lp2: 0/1 agree → pooled 2/4, not the mean of 2/3 and 0
    pooled = stats.pooled_pairwise_accuracy([([3, 2, 1], [3, 1, 2]), ([1, 2], [2, 1])])
    assert pooled == pytest.approx(0.5)


def test_kendall_tau_b_with_ties_by_hand_and_scipy() -> None:
    x, y = [1, 2, 2, 3], [1, 3, 2, 2]
    # C=3, D=1, one pair tied only in x, one only in y: (3-1)/sqrt(5*5) = 0.4
    assert stats.kendall_tau_b(x, y) == pytest.approx(0.4)
    rng = np.random.default_rng(7)
    for _ in range(20):
        a, b = rng.integers(0, 4, 30), rng.integers(0, 4, 30)
        assert stats.kendall_tau_b(a, b) == pytest.approx(scipy.stats.kendalltau(a, b, variant="b")[0])


def test_constant_input_gives_nan_not_warning() -> None:
    assert math.isnan(stats.kendall_tau_b([1, 1, 1], [1, 2, 3]))
    assert math.isnan(stats.pearson([1, 2, 3], [4, 4, 4]))
    assert math.isnan(stats.pearson([1], [2]))


def test_pearson_matches_scipy() -> None:
    x, y = [1.0, 2.0, 4.0, 8.0], [2.0, 1.0, 5.0, 7.0]
    assert stats.pearson(x, y) == pytest.approx(scipy.stats.pearsonr(x, y)[0])


def test_segment_kendall_flattens_and_drops_unrated() -> None:
    human = np.array([[1.0, 2.0, np.nan], [2.0, 2.0, 0.0]])
    metric = np.array([[0.1, 0.5, 9.0], [0.3, 0.2, 0.0]])
    keep = ~np.isnan(human)
    expected = scipy.stats.kendalltau(human[keep], metric[keep], variant="b")[0]
    assert stats.segment_kendall(human, metric) == pytest.approx(expected)


def test_segment_kendall_counts_repeat_columns() -> None:
    rng = np.random.default_rng(3)
    human, metric = rng.normal(size=(4, 6)), rng.normal(size=(4, 6))
    counts = np.array([0, 2, 1, 0, 3, 0])
    expanded_h, expanded_m = np.repeat(human, counts, axis=1), np.repeat(metric, counts, axis=1)
    expected = scipy.stats.kendalltau(expanded_h.ravel(), expanded_m.ravel(), variant="b")[0]
    assert stats.segment_kendall(human, metric, counts=counts) == pytest.approx(expected)


def test_segment_kendall_item_grouping_is_mean_of_columns() -> None:
    human = np.array([[1.0, 3.0], [2.0, 2.0], [3.0, 1.0]])
    metric = np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    # column 0: tau 1; column 1: tau -1 → mean 0
    assert stats.segment_kendall(human, metric, average_by="item") == pytest.approx(0.0)
    with pytest.raises(ValueError):
        stats.segment_kendall(human, metric, average_by="sys")


def test_bootstrap_counts_are_seeded_resamples() -> None:
    a = stats.bootstrap_counts(10, 50, np.random.default_rng(1))
    b = stats.bootstrap_counts(10, 50, np.random.default_rng(1))
    c = stats.bootstrap_counts(10, 50, np.random.default_rng(2))
    assert a.shape == (50, 10)
    assert (a.sum(axis=1) == 10).all()
    assert (a == b).all()
    assert not (a == c).all()


def test_percentile_interval() -> None:
    low, high = stats.percentile_interval(np.arange(1001, dtype=float))
    assert (low, high) == pytest.approx((25.0, 975.0))
    assert stats.percentile_interval([np.nan, 1.0, np.nan]) == (1.0, 1.0)
    assert all(math.isnan(v) for v in stats.percentile_interval([np.nan]))
