"""End to end on the toy files: prepare both languages, train on one, evaluate on the other, write
every table (deterministic criteria, and LLM criteria through a scripted model)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.judge.criteria import load_criteria
from housestyle.pipelines.judge.job import JudgeJob, run_judge
from housestyle.pipelines.judge.prepare import LlmSettings, prepare_language
from housestyle.pipelines.judge.run import JUDGE_EVAL_SCHEMA, views
from housestyle.pipelines.judge.transfer import load_judge

from .conftest import ScriptedBackend, yes_unless_short

REQUIRED = ["train_lp", "test_lp", "criteria", "model", "balanced_accuracy", "ci_low", "ci_high", "gain_vs_chrf",
            "gain_ci_low", "gain_ci_high"]
MODELS = {"logistic_regression", "mlp", "svm", "random_forest", "gradient_boosting", "knn", "chrf_threshold"}


def test_deterministic_job(toy_ende: Path, toy_zhen: Path, tmp_path: Path) -> None:
    out = run_judge(JudgeJob(train=toy_ende, test=toy_zhen, criteria="deterministic", out=tmp_path, n_bootstrap=50))
    table = pl.read_parquet(tmp_path / "judge_eval.parquet")
    assert table.columns[: len(JUDGE_EVAL_SCHEMA)] == list(JUDGE_EVAL_SCHEMA)
    assert set(REQUIRED) <= set(table.columns) and set(table["model"].to_list()) == MODELS
    assert table.select("train_lp", "test_lp", "criteria").unique().rows() == [("en-de", "zh-en", "deterministic")]
    assert table.filter(pl.col("model") == "chrf_threshold")["gain_vs_chrf"][0] == 0.0
    for row in table.iter_rows(named=True):
        assert 0.0 <= row["balanced_accuracy"] <= 1.0 and row["n_samples"] == 32 and row["n_segments"] == 8
    judge = load_judge(tmp_path / "models" / "deterministic" / "logistic_regression.joblib")
    assert judge.train_lp == "en-de" and judge.criteria_signature == load_criteria("deterministic").signature
    (vector_file,) = tmp_path.glob("criteria_vectors_test_zh-en_*.parquet")
    vectors = pl.read_parquet(vector_file)
    assert vectors.height == 32 and vectors.select("system", "seg_id").n_unique() == 32
    assert (tmp_path / "sample_efficiency.parquet").is_file() and (tmp_path / "importance.parquet").is_file()
    assert "Label rule" in out.markdown and "logistic_regression (primary)" in out.markdown


def test_llm_criteria_paths_with_a_scripted_model(toy_ende: Path, toy_zhen: Path, tmp_path: Path) -> None:
    backend = ScriptedBackend(yes_unless_short)
    llm = LlmSettings(backend=backend, criteria=load_criteria("llm_seed"), cache=GenerationCache(tmp_path / "c"),
                      per_concept=12)
    out = run_judge(JudgeJob(train=toy_ende, test=toy_zhen, criteria="both", out=tmp_path / "o", sample=20, llm=llm,
                             n_bootstrap=50))
    table = out.table
    assert set(zip(table["criteria"].to_list(), table["llm_mode"].to_list())) == set(views("both"))
    assert "llm_zero_shot" in table["model"].to_list()
    per = table.filter(pl.col("llm_mode") == "per_concept")
    assert set(per["n_samples"].to_list()) == {12}
    joint = table.filter((pl.col("criteria") == "llm") & (pl.col("llm_mode") == "joint"))
    assert set(joint["n_samples"].to_list()) == {20}
    (cost_file,) = (tmp_path / "o").glob("llm_cost_test_zh-en_*.parquet")
    cost = pl.read_parquet(cost_file)
    assert set(cost["mode"].to_list()) == {"joint", "per_concept", "zero_shot"}
    assert cost.filter(pl.col("mode") == "joint")["calls"].to_list() == [1] * 20
    assert "## LLM cost" in out.markdown
    calls = len(backend.prompts)
    run_judge(JudgeJob(train=toy_zhen, test=toy_ende, criteria="both", out=tmp_path / "r", sample=20, llm=llm,
                       n_bootstrap=20, analyses=False))
    assert len(backend.prompts) == calls  # the reverse direction is answered from the cache


def test_llm_criteria_need_a_generator(toy_ende: Path) -> None:
    with pytest.raises(ValueError, match="needs a generator"):
        prepare_language(toy_ende, criteria="llm")
