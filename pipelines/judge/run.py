"""Train on one language pair, apply to another: the judge_eval table and the analyses beside it.

What the CLI (`housestyle judge`) and the asset (`acceptance_judgements`) call. The models see the
training language's labels only; the target language contributes its unlabelled features (for its
own standardisation) and its labels are read only to score the predictions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from housestyle.pipelines.judge.analyses import (
    balanced_accuracy,
    bootstrap_table,
    importance_profiles,
    sample_efficiency,
    split_segments,
)
from housestyle.pipelines.judge.criteria import CriteriaSet
from housestyle.pipelines.judge.features import feature_columns, matrix, standardise
from housestyle.pipelines.judge.prepare import LanguageData
from housestyle.pipelines.judge.transfer import (
    BASELINE,
    MODEL_NAMES,
    PRIMARY_MODEL,
    TooFewSamples,
    TrainedJudge,
    fit_model,
    train_all,
)

ZERO_SHOT = "llm_zero_shot"
JUDGE_EVAL_SCHEMA: dict[str | Any, Any] = {
    "train_lp": pl.Utf8(), "test_lp": pl.Utf8(), "criteria": pl.Utf8(), "llm_mode": pl.Utf8(), "model": pl.Utf8(),
    "primary": pl.Boolean(), "balanced_accuracy": pl.Float64(), "ci_low": pl.Float64(), "ci_high": pl.Float64(),
    "gain_vs_chrf": pl.Float64(), "gain_ci_low": pl.Float64(), "gain_ci_high": pl.Float64(),
    "n_train": pl.Int64(), "n_samples": pl.Int64(), "n_segments": pl.Int64(), "n_bootstrap": pl.Int64(),
    "criteria_version": pl.Utf8(),
}


@dataclass
class Evaluation:
    """judge_eval rows for one (criteria, llm_mode) view, plus the trained models and analyses."""

    table: pl.DataFrame
    judges: dict[str, TrainedJudge]
    curve: pl.DataFrame | None = None
    importance: pl.DataFrame | None = None
    aggregator: pl.DataFrame | None = None  # trained models vs the zero-shot LLM, paired
    standardisation: list[dict[str, object]] = field(default_factory=list)


def _arrays(frame: pl.DataFrame, columns: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = matrix(frame, columns)
    y = frame["not_acceptable"].cast(pl.Int64).to_numpy()
    chrf = frame["chrf"].cast(pl.Float64).to_numpy()
    return x, y, chrf


def evaluate_view(train: pl.DataFrame, test: pl.DataFrame, criteria: CriteriaSet, *, train_lp: str, test_lp: str,
                  label: str, llm_mode: str, n_bootstrap: int, seed: int,
                  extra_predictions: Mapping[str, np.ndarray] | None = None, curve: bool = False,
                  importance: bool = False) -> Evaluation:
    """Standardise each language on its own features, train every model on ``train``, score on ``test``."""
    columns = feature_columns(train, criteria)
    train_std, s_train = standardise(train, criteria, train_lp)
    test_std, s_test = standardise(test, criteria, test_lp)
    x, y, chrf = _arrays(train_std, columns)
    xt, yt, chrft = _arrays(test_std, columns)
    judges = train_all(x, y, chrf, train_lp=train_lp, criteria_signature=criteria.signature, columns=columns)
    predictions = {name: judge.predict(xt, chrft) for name, judge in judges.items()}
    predictions.update(extra_predictions or {})
    table = bootstrap_table(yt, predictions, test_std["seg_id"].to_list(), baseline=BASELINE,
                            n_bootstrap=n_bootstrap, seed=seed)
    untrained = [m for m in MODEL_NAMES if m not in judges]  # too few training rows: reported as NaN
    if untrained:
        table = pl.concat([table, pl.DataFrame({"model": untrained}).with_columns(
            pl.lit(len(yt)).cast(pl.Int64).alias("n_samples"), pl.lit(len(set(test_std["seg_id"].to_list()))).cast(
                pl.Int64).alias("n_segments"), pl.lit(n_bootstrap).cast(pl.Int64).alias("n_bootstrap"))],
            how="diagonal_relaxed")
    table = table.with_columns(
        pl.lit(train_lp).alias("train_lp"), pl.lit(test_lp).alias("test_lp"), pl.lit(label).alias("criteria"),
        pl.lit(llm_mode).alias("llm_mode"), (pl.col("model") == PRIMARY_MODEL).alias("primary"),
        pl.lit(len(y)).cast(pl.Int64).alias("n_train"), pl.lit(criteria.signature).alias("criteria_version"),
    ).select(list(JUDGE_EVAL_SCHEMA))
    out = Evaluation(table, judges, standardisation=[vars(s_train), vars(s_test)])
    if ZERO_SHOT in predictions:
        versus = bootstrap_table(yt, predictions, test_std["seg_id"].to_list(), baseline=ZERO_SHOT,
                                 n_bootstrap=n_bootstrap, seed=seed)
        out.aggregator = versus.rename({"gain_vs_chrf": "gain_vs_zero_shot", "gain_ci_low": "gain_zs_ci_low",
                                        "gain_ci_high": "gain_zs_ci_high"}).with_columns(
            pl.lit(label).alias("criteria"), pl.lit(llm_mode).alias("llm_mode"))
    if curve:
        out.curve = _curve(x, y, chrf, xt, yt, chrft, train_std["seg_id"].to_list(), seed)
    if importance:
        out.importance = _importance(x, y, xt, yt, columns, train_lp, test_lp)
    return out


def _curve(x: np.ndarray, y: np.ndarray, chrf: np.ndarray, xt: np.ndarray, yt: np.ndarray, chrft: np.ndarray,
           seg_ids: list[int], seed: int) -> pl.DataFrame:
    """Primary model and chrF baseline on 5 %…100 % of the training split (30 % of the training
    language's segments held out), scored on the held-out part and on the target language."""
    _, held = split_segments(seg_ids, 0.3, seed)
    held_mask = np.array([s in held for s in seg_ids])

    def fit_predict(mask: np.ndarray, _label: str) -> dict[str, np.ndarray]:
        mask = mask & ~held_mask
        judges = train_all(x[mask], y[mask], chrf[mask], train_lp="", criteria_signature="", columns=(),
                           models=(PRIMARY_MODEL,))
        out = {}
        for name, judge in judges.items():
            out[f"heldout:{name}"] = judge.predict(x[held_mask], chrf[held_mask])
            out[f"target:{name}"] = judge.predict(xt, chrft)
        return out

    def evaluate(preds: Mapping[str, np.ndarray], _label: str) -> dict[str, float]:
        return {k: float(balanced_accuracy(y[held_mask] if k.startswith("heldout") else yt, v)[0])
                for k, v in preds.items()}

    return sample_efficiency(seg_ids, fit_predict, evaluate, seed=seed)


def _importance(x: np.ndarray, y: np.ndarray, xt: np.ndarray, yt: np.ndarray, columns: list[str], train_lp: str,
                test_lp: str) -> pl.DataFrame | None:
    """Random-forest Gini importance per language: a forest fitted on EACH language's own labels (an
    analysis of what matters where, not a transfer model), Spearman rho vs the training language's."""
    profiles = {}
    # a train and a test file of the same pair must not overwrite each other's profile
    train_key, test_key = (train_lp, test_lp) if train_lp != test_lp else (f"{train_lp} (train)", f"{test_lp} (test)")
    for lp, (xx, yy) in ((train_key, (x, y)), (test_key, (xt, yt))):
        try:
            forest = fit_model("random_forest", xx, yy).named_steps["model"]
        except TooFewSamples:
            return None  # one class in a language's labels: no importance profile to compare
        profiles[lp] = np.asarray(forest.feature_importances_, dtype=float)
    return importance_profiles(profiles, columns, train_key)


def zero_shot_predictions(data: LanguageData, rows: pl.DataFrame) -> np.ndarray:
    """1 (not acceptable) when the LLM said no; yes and unparseable answers count as acceptable."""
    assert data.zero_shot is not None
    answers = rows.select("system", "seg_id").join(data.zero_shot.select("system", "seg_id", "acceptable"),
                                                   on=["system", "seg_id"], how="left")
    return (answers["acceptable"].fill_null(1.0).to_numpy() < 0.5).astype(np.int64)


def models_folder(out: Path, label: str, llm_mode: str) -> Path:
    return out / "models" / (label if llm_mode == "none" else f"{label}-{llm_mode}")


def views(criteria: str) -> list[tuple[str, str]]:
    """(criteria label, llm_mode) evaluated for a ``--criteria`` choice. ``both`` also reports the two
    halves on the same samples, so the three can be compared row by row."""
    if criteria == "deterministic":
        return [("deterministic", "none")]
    if criteria == "llm":
        return [("llm", "joint"), ("llm", "per_concept")]
    return [("deterministic", "none"), ("llm", "joint"), ("llm", "per_concept"), ("both", "joint")]


def judge_transfer(train: LanguageData, test: LanguageData, criteria: str, sets: Mapping[str, CriteriaSet], *,
                   n_bootstrap: int = 1000, seed: int = 0, analyses: bool = True) -> list[tuple[str, str, Evaluation]]:
    """Every view of ``criteria``: (label, llm_mode, Evaluation). ``sets`` maps label → criteria set.
    The zero-shot LLM baseline joins every view that has LLM answers for the test rows."""
    results = []
    for label, mode in views(criteria):
        if mode == "per_concept":
            if train.per_concept is None or test.per_concept is None:
                continue
            tr, te = train.per_concept, test.per_concept
        else:
            tr, te = train.vectors, test.vectors
        extra = {ZERO_SHOT: zero_shot_predictions(test, te)} if test.zero_shot is not None else None
        primary_view = (label, mode) == views(criteria)[-1] or criteria == "deterministic"
        evaluation = evaluate_view(tr, te, sets[label], train_lp=train.lp, test_lp=test.lp, label=label,
                                   llm_mode=mode, n_bootstrap=n_bootstrap, seed=seed, extra_predictions=extra,
                                   curve=analyses and primary_view, importance=analyses and mode != "per_concept")
        results.append((label, mode, evaluation))
    return results


__all__ = [
    "JUDGE_EVAL_SCHEMA",
    "MODEL_NAMES",
    "ZERO_SHOT",
    "Evaluation",
    "evaluate_view",
    "judge_transfer",
    "models_folder",
    "views",
    "zero_shot_predictions",
]
