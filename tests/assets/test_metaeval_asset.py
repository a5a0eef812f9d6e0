"""The adequacy_meta_evaluation asset: materialises on toy MQM files, reports absent data without failing."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from dagster import materialize

from housestyle.assets.metaeval import MetaEvalConfig, adequacy_meta_evaluation
from housestyle.assets.resources import HousestyleSettings

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "metaeval"


def _run(tmp_path: Path, config: MetaEvalConfig) -> dict[str, object]:
    result = materialize(
        [adequacy_meta_evaluation],
        resources={"settings": HousestyleSettings(storage_root=str(tmp_path / "storage"))},
        run_config={"ops": {"adequacy_meta_evaluation": {"config": config.model_dump()}}},
    )
    assert result.success
    (event,) = result.get_asset_materialization_events()
    return {k: v.value for k, v in event.materialization.metadata.items()}


def test_materialises_on_toy_files(tmp_path: Path, dagster_home: Path) -> None:
    config = MetaEvalConfig(data_dir=str(FIXTURES), mqm_files=["mqm_toy_ende.tsv", "mqm_toy_zhen.tsv"], n_bootstrap=10)
    meta = _run(tmp_path, config)
    assert meta["status"] == "ok" and meta["rows"] == 12
    assert "pooled BLEU (ref) pairwise accuracy" in meta
    df = pl.read_parquet(tmp_path / "storage" / "adequacy_meta_evaluation" / "meta_eval.parquet")
    assert set(df["lp"]) == {"en-de", "zh-en", "pooled"}
    assert set(df.filter(pl.col("lp") == "zh-en")["n_systems"]) == {3}  # refB excluded by default


def test_absent_data_is_reported_not_raised(tmp_path: Path, dagster_home: Path) -> None:
    meta = _run(tmp_path, MetaEvalConfig(data_dir=str(tmp_path / "nowhere")))
    assert str(meta["status"]).startswith("skipped")
    assert "mqm_ted_ende.tsv" in str(meta["missing"])
    assert not (tmp_path / "storage" / "adequacy_meta_evaluation").exists()


def test_marot_file_with_lps(tmp_path: Path, dagster_home: Path) -> None:
    """A Marot-layout file (Google's current shape); lps names its pair."""
    config = MetaEvalConfig(data_dir=str(FIXTURES), mqm_files=["mqm_toy_marot.tsv"], lps=["en-gb"],
                            reference_systems=["refA"], exclude_systems=[], n_bootstrap=0)
    meta = _run(tmp_path, config)
    assert meta["status"] == "ok"
    df = pl.read_parquet(tmp_path / "storage" / "adequacy_meta_evaluation" / "meta_eval.parquet")
    assert set(df["lp"]) == {"en-gb", "pooled"}
