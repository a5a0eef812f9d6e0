"""By-segment bootstrap, paired gains, the sample-efficiency split, importance profiles."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import balanced_accuracy_score

from housestyle.pipelines.judge.analyses import (
    balanced_accuracy,
    bootstrap_table,
    importance_profiles,
    sample_efficiency,
    segment_weights,
    split_segments,
)


def test_balanced_accuracy_matches_sklearn_with_weights() -> None:
    rng = np.random.default_rng(1)
    y, p = rng.integers(0, 2, 50), rng.integers(0, 2, 50)
    w = rng.integers(0, 4, 50).astype(float)
    assert balanced_accuracy(y, p)[0] == pytest.approx(balanced_accuracy_score(y, p))
    assert balanced_accuracy(y, p, w[None, :])[0] == pytest.approx(balanced_accuracy_score(y, p, sample_weight=w))
    assert np.isnan(balanced_accuracy(np.ones(3, dtype=np.int64), np.ones(3, dtype=np.int64))[0])


def test_segment_weights_keep_all_systems_of_a_drawn_segment() -> None:
    segs = [1, 1, 1, 2, 2, 2, 3, 3, 3]
    w = segment_weights(segs, 50, seed=0)
    assert w.shape == (50, 9)
    assert (w[:, 0] == w[:, 1]).all() and (w[:, 3] == w[:, 5]).all()
    assert (w.sum(axis=1) == 9).all()  # three segments drawn, three systems each


def test_bootstrap_table_paired_gain() -> None:
    rng = np.random.default_rng(0)
    segs = np.repeat(np.arange(100), 5)
    y = rng.integers(0, 2, 500)
    base = np.where(rng.random(500) < 0.6, y, 1 - y)
    better = np.where(rng.random(500) < 0.5, y, base)  # strictly fixes some errors of base
    table = bootstrap_table(y, {"m": better, "chrf_threshold": base}, segs.tolist(), n_bootstrap=300, seed=1)
    row = table.filter(table["model"] == "m").row(0, named=True)
    assert row["gain_vs_chrf"] > 0 and row["gain_ci_low"] > 0
    assert row["ci_low"] <= row["balanced_accuracy"] <= row["ci_high"]
    assert row["n_segments"] == 100 and row["n_samples"] == 500
    base_row = table.filter(table["model"] == "chrf_threshold").row(0, named=True)
    assert base_row["gain_vs_chrf"] == 0.0 and base_row["gain_ci_low"] == 0.0


def test_split_and_curve_are_by_segment_and_nested() -> None:
    segs = np.repeat(np.arange(40), 3).tolist()
    train, held = split_segments(segs, 0.3, seed=0)
    assert len(held) == 12 and not train & held and train | held == set(range(40))
    seen: list[int] = []

    def fit_predict(mask: np.ndarray, label: str) -> dict[str, np.ndarray]:
        chosen = {s for s, m in zip(segs, mask) if m}
        assert not chosen & held
        seen.append(len(chosen))
        return {"heldout:m": np.zeros(3), "target:m": np.zeros(3)}

    curve = sample_efficiency(segs, fit_predict, lambda preds, label: {k: 0.5 for k in preds}, seed=0)
    assert seen == sorted(seen) and seen[-1] == 28
    assert set(curve["evaluated_on"].to_list()) == {"heldout", "target"}


def test_importance_profiles_spearman() -> None:
    table = importance_profiles({"a": np.array([0.5, 0.3, 0.2]), "b": np.array([0.1, 0.2, 0.7])}, ["z:x", "z:y", "z:w"], "a")
    rho = dict(table.select("lp", "spearman_vs_train").unique().iter_rows())
    assert rho["a"] == pytest.approx(1.0) and rho["b"] == pytest.approx(-1.0)
    assert table.filter(table["lp"] == "a")["concept"].to_list() == ["x", "y", "w"]
