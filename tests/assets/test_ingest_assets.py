"""tm_units / tm_rejects for one client partition, and the blocking read = kept + rejected check."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from dagster import AssetKey, DagsterInstance, materialize

from assets.ingest import INVARIANT_CHECK, invariant_result, tm_ingest
from assets.partitions import CLIENTS_PARTITIONS_NAME
from assets.resources import HousestyleSettings
from pipelines.tm_schema import TM_REJECTS_SCHEMA, TM_UNITS_SCHEMA


def test_materialise_tm_units_and_rejects(dagster_home: Path, settings: HousestyleSettings) -> None:
    with DagsterInstance.get() as instance:
        instance.add_dynamic_partitions(CLIENTS_PARTITIONS_NAME, ["acme"])
        result = materialize([tm_ingest], partition_key="acme", instance=instance, resources={"settings": settings})
    assert result.success

    units = pl.read_parquet(settings.tm_units_path("acme"))
    rejects = pl.read_parquet(settings.tm_rejects_path("acme"))
    assert set(TM_UNITS_SCHEMA) <= set(units.columns)
    assert set(TM_REJECTS_SCHEMA) <= set(rejects.columns)
    assert units["client"].unique().to_list() == ["acme"]
    assert {"w1", "w2", "w3"} <= set(units["unit_id"])
    assert "w4" not in set(units["unit_id"])  # empty target → a reject with a reason, not a unit
    reject_files = set(rejects["source_file"].map_elements(lambda p: Path(p).name, return_dtype=pl.Utf8))
    assert {"weather.tmx", "broken.tmx"} <= reject_files  # the truncated file is reported, the good one still read
    assert "README.md" not in reject_files  # notes beside the data are not inputs

    checks = result.get_asset_check_evaluations()
    assert [(c.check_name, c.passed) for c in checks] == [(INVARIANT_CHECK, True)]
    by_key = {e.asset_key: e.step_materialization_data.materialization.metadata
              for e in result.get_asset_materialization_events()}
    units_meta, rejects_meta = by_key[AssetKey("tm_units")], by_key[AssetKey("tm_rejects")]
    assert units_meta["dagster/row_count"].value == units.height
    assert rejects_meta["dagster/row_count"].value == rejects.height
    assert units_meta["units_read"].value == units.height + rejects.height
    for name in ("language_pairs", "per_file", "preview"):
        assert units_meta[name].value.startswith("|"), name  # markdown tables in the UI
    assert "weather.tmx" in units_meta["per_file"].value and "broken.tmx" in units_meta["per_file"].value
    assert "w1" in units_meta["preview"].value
    assert rejects_meta["reject_reasons"].value.startswith("|")


def test_invariant_check_fails_when_a_unit_is_unaccounted_for(tmp_path: Path) -> None:
    units, rejects = tmp_path / "u.parquet", tmp_path / "r.parquet"
    pl.DataFrame({"unit_id": ["a", "b"]}).write_parquet(units)
    pl.DataFrame({"location": ["3"]}).write_parquet(rejects)
    assert invariant_result(3, units, rejects).passed
    failed = invariant_result(4, units, rejects)
    assert not failed.passed
    assert failed.metadata["difference"].value == 1
    assert "1 units unaccounted for" in (failed.description or "")
