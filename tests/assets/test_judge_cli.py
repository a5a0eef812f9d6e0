"""`housestyle judge` and the acceptance_judgements asset, on the toy MQM files (and the real TED
files for the absent-generator path)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from dagster import materialize

from housestyle.pipelines.cli.main import main as housestyle
from housestyle.assets.judge import JudgeConfig, acceptance_judgements
from housestyle.assets.resources import HousestyleSettings

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "judge"
TOY = [str(FIXTURES / "mqm_judge_ende.tsv"), str(FIXTURES / "mqm_judge_zhen.tsv")]
COLUMNS = ["train_lp", "test_lp", "criteria", "model", "balanced_accuracy", "ci_low", "ci_high", "gain_vs_chrf",
           "gain_ci_low", "gain_ci_high"]


def test_cli_deterministic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = housestyle(["judge", "--train", TOY[1], "--test", TOY[0], "--criteria", "deterministic", "--out",
                       str(tmp_path), "--bootstrap", "30", "--seed", "1", "--no-analyses"])
    assert code == 0
    table = pl.read_parquet(tmp_path / "judge_eval.parquet")
    assert set(COLUMNS) <= set(table.columns)
    assert set(table["model"].to_list()) == {"logistic_regression", "mlp", "svm", "random_forest", "gradient_boosting",
                                             "knn", "chrf_threshold"}
    assert table.select("train_lp", "test_lp").unique().rows() == [("zh-en", "en-de")]
    printed = capsys.readouterr().out
    assert "logistic_regression (primary)" in printed and "judge_eval.parquet" in printed
    markdown = (tmp_path / "judge_eval.md").read_text(encoding="utf-8")
    assert "Command: `housestyle judge --train" in markdown and "--seed 1" in markdown


def test_cli_sample_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = housestyle(["judge", "--train", TOY[0], "--test", TOY[1], "--criteria", "deterministic", "--out",
                       str(tmp_path), "--sample", "16", "--bootstrap", "10", "--no-analyses"])
    assert code == 0
    assert set(pl.read_parquet(tmp_path / "judge_eval.parquet")["n_samples"].to_list()) == {16}
    code = housestyle(["judge", "--train", str(tmp_path / "absent.tsv"), "--test", TOY[1], "--criteria",
                       "deterministic", "--out", str(tmp_path / "x")])
    assert code == 2 and "absent.tsv" in capsys.readouterr().err
    code = housestyle(["judge", "--train", TOY[0], "--test", TOY[1], "--criteria", "deterministic", "--out",
                       str(tmp_path / "y"), "--reference-system", "nobody"])
    assert code == 2 and "reference systems" in capsys.readouterr().err


def _materialise(tmp_path: Path, config: JudgeConfig) -> dict[str, object]:
    result = materialize(
        [acceptance_judgements],
        resources={"settings": HousestyleSettings(storage_root=str(tmp_path / "storage"))},
        run_config={"ops": {"acceptance_judgements": {"config": config.model_dump()}}},
    )
    assert result.success
    (event,) = result.get_asset_materialization_events()
    return {k: v.value for k, v in event.materialization.metadata.items()}


def test_asset_both_directions_on_toy(tmp_path: Path, dagster_home: Path) -> None:
    meta = _materialise(tmp_path, JudgeConfig(data_dir=str(FIXTURES), mqm_files=[Path(p).name for p in TOY],
                                              n_bootstrap=10))
    assert meta["status"] == "ok"
    assert "en-de→zh-en deterministic logistic_regression BA" in meta
    assert "zh-en→en-de deterministic logistic_regression gain vs chrF" in meta
    root = tmp_path / "storage" / "acceptance_judgements"
    assert len(list(root.glob("*/judge_eval.parquet"))) == 2


def test_asset_reports_absent_data_and_absent_generator(tmp_path: Path, dagster_home: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    meta = _materialise(tmp_path, JudgeConfig(data_dir=str(tmp_path / "nowhere")))
    assert str(meta["status"]).startswith("skipped: data absent") and "mqm_ted_ende.tsv" in str(meta["reason"])
    monkeypatch.delenv("HOUSESTYLE_GENERATOR_BACKEND", raising=False)
    meta = _materialise(tmp_path, JudgeConfig(data_dir=str(FIXTURES), mqm_files=[Path(p).name for p in TOY],
                                              criteria="llm"))
    assert meta["status"] == "skipped: no generator"
    assert not (tmp_path / "storage" / "acceptance_judgements").exists()
