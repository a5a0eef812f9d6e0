"""Transfer models: the issue's hyper-parameters exactly, the chrF threshold, saving with provenance."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import balanced_accuracy_score

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.judge.transfer import (
    MODEL_NAMES,
    PRIMARY_MODEL,
    ChrfThreshold,
    fit_model,
    load_judge,
    make_estimator,
    train_all,
)


def test_hyper_parameters_are_the_issues() -> None:
    assert PRIMARY_MODEL == "logistic_regression" and MODEL_NAMES[0] == PRIMARY_MODEL
    p = {name: make_estimator(name).get_params() for name in MODEL_NAMES}
    assert (p["logistic_regression"]["C"], p["logistic_regression"]["class_weight"],
            p["logistic_regression"]["max_iter"]) == (0.1, "balanced", 2000)
    assert (p["mlp"]["hidden_layer_sizes"], p["mlp"]["learning_rate_init"], p["mlp"]["max_iter"]) == ((32,), 0.01, 2000)
    assert (p["svm"]["C"], p["svm"]["gamma"], p["svm"]["probability"], p["svm"]["class_weight"]) == \
        (0.1, "scale", True, "balanced")
    assert (p["random_forest"]["n_estimators"], p["random_forest"]["max_depth"],
            p["random_forest"]["class_weight"]) == (200, 10, "balanced")
    assert (p["gradient_boosting"]["n_estimators"], p["gradient_boosting"]["max_depth"],
            p["gradient_boosting"]["learning_rate"]) == (100, 5, 0.1)
    assert p["knn"]["n_neighbors"] == 5
    for name in MODEL_NAMES:
        if "random_state" in p[name]:
            assert p[name]["random_state"] == 42, name


def _toy(n: int = 300, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.25).astype(np.int64)
    chrf = 60 - 20 * y + rng.normal(0, 12, n)
    x = np.column_stack([chrf / 100, rng.normal(0, 1, n) + y, rng.random(n)])
    return x, y, chrf


def test_every_model_learns_and_gb_gets_balanced_weights() -> None:
    x, y, _ = _toy()
    for name in MODEL_NAMES:
        pred = fit_model(name, x, y).predict(x)
        assert balanced_accuracy_score(y, pred) > 0.6, name
    # balanced weights: boosting predicts the minority class about as often as it occurs
    gb = fit_model("gradient_boosting", x, y).predict(x)
    assert gb.sum() >= 0.8 * y.sum()
    with pytest.raises(ConfigError, match="one class"):
        fit_model("logistic_regression", x, np.zeros(len(y), dtype=np.int64))


def test_one_class_slice_leaves_models_untrained_not_fatal() -> None:
    """A small slice of a sample-efficiency curve can hold one label only: only the baseline fits."""
    x, _, chrf = _toy()
    judges = train_all(x, np.zeros(len(chrf), dtype=np.int64), chrf, train_lp="en-de", criteria_signature="s",
                       columns=("a", "b", "c"))
    assert set(judges) == {"chrf_threshold"}


def test_chrf_threshold_maximises_balanced_accuracy() -> None:
    chrf = np.array([10.0, 20.0, 30.0, 40.0, 50.0, 60.0])
    y = np.array([1, 1, 0, 1, 0, 0])
    t = ChrfThreshold().fit(chrf, y)
    best = max(balanced_accuracy_score(y, (chrf < c).astype(int)) for c in [5, 15, 25, 35, 45, 55, 65])
    assert balanced_accuracy_score(y, t.predict(chrf)) == pytest.approx(best)
    assert t.threshold == pytest.approx(25.0)  # ties with 45 (BA 0.833): the lowest wins


def test_saved_model_names_language_and_criteria(tmp_path: Path) -> None:
    x, y, chrf = _toy()
    judges = train_all(x, y, chrf, train_lp="en-de", criteria_signature="criteria:det@1|sha:abc", columns=("a", "b", "c"))
    assert set(judges) == {*MODEL_NAMES, "chrf_threshold"}
    path = judges[PRIMARY_MODEL].save(tmp_path)
    loaded = load_judge(path)
    assert loaded.train_lp == "en-de" and loaded.criteria_signature.startswith("criteria:det@1")
    assert (loaded.predict(x) == judges[PRIMARY_MODEL].predict(x)).all()
    info = (tmp_path / "logistic_regression.json").read_text(encoding="utf-8")
    assert '"train_lp": "en-de"' in info and '"primary": true' in info


def test_knn_on_too_few_rows_is_left_out_not_fatal() -> None:
    x, _, chrf = _toy(n=40)
    judges = train_all(x[:4], np.array([0, 1, 0, 1]), chrf[:4], train_lp="x", criteria_signature="c", columns=("a",) * 3)
    assert "knn" not in judges and "logistic_regression" in judges
