"""tm_units / tm_rejects for one client partition, and the blocking read = kept + rejected check."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from dagster import AssetKey, DagsterInstance, materialize

from housestyle.assets.ingest import INVARIANT_CHECK, invariant_result, tm_ingest
from housestyle.assets.partitions import CLIENTS_PARTITIONS_NAME
from housestyle.assets.resources import HousestyleSettings
from housestyle.pipelines.ingest import FileSummary, IngestSummary
from housestyle.pipelines.tm_schema import TM_REJECTS_SCHEMA, TM_UNITS_SCHEMA


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


def _tables(tmp_path: Path, kept: list[tuple[str, int]], rejected: list[tuple[str, int | None]]) -> tuple[Path, Path]:
    units, rejects = tmp_path / "u.parquet", tmp_path / "r.parquet"
    pl.DataFrame({"source_file": [f for f, _o in kept], "unit_ordinal": [o for _f, o in kept]},
                 schema={"source_file": pl.Utf8, "unit_ordinal": pl.Int64}).write_parquet(units)
    pl.DataFrame({"source_file": [f for f, _o in rejected], "unit_ordinal": [o for _f, o in rejected]},
                 schema={"source_file": pl.Utf8, "unit_ordinal": pl.Int64}).write_parquet(rejects)
    return units, rejects


def _summary(*files: tuple[str, int | None], rows: int) -> IngestSummary:
    return IngestSummary(units_read=rows, per_file=[FileSummary(name, "tmx", units_in_file=n) for name, n in files])


def test_invariant_check_counts_units_in_the_file_not_rows(tmp_path: Path) -> None:
    """a.tmx holds 3 units: unit 1 kept for two languages, unit 2 kept for one and rejected for
    another, unit 3 rejected; plus a file-level row. Every unit is accounted for once."""
    units, rejects = _tables(tmp_path, [("a.tmx", 1), ("a.tmx", 1), ("a.tmx", 2)],
                             [("a.tmx", 2), ("a.tmx", 3), ("a.tmx", None)])
    result = invariant_result(_summary(("a.tmx", 3), rows=6), units, rejects)
    assert result.passed and result.metadata["units_in_files"].value == 3
    assert result.metadata["units_accounted"].value == 3


def test_invariant_check_fails_when_a_unit_is_unaccounted_for(tmp_path: Path) -> None:
    """The scan counted 4 units in a.tmx; the tables hold 3 of them (rows add up: the reader lost it)."""
    units, rejects = _tables(tmp_path, [("a.tmx", 1), ("a.tmx", 2)], [("a.tmx", 3)])
    failed = invariant_result(_summary(("a.tmx", 4), rows=3), units, rejects)
    assert not failed.passed
    assert "1 file(s) whose units do not add up" in (failed.description or "")
    assert "a.tmx" in failed.metadata["files_disagreeing"].value


def test_invariant_check_fails_on_a_unit_the_count_does_not_have(tmp_path: Path) -> None:
    units, rejects = _tables(tmp_path, [("a.tmx", 1), ("a.tmx", 2), ("a.tmx", 7)], [])
    assert not invariant_result(_summary(("a.tmx", 3), rows=3), units, rejects).passed


def test_invariant_check_reports_a_file_that_could_not_be_counted(tmp_path: Path) -> None:
    """A truncated archive: the units read are there; the file's count is unknown and said so."""
    units, rejects = _tables(tmp_path, [("b.tmx.gz", 1)], [("b.tmx.gz", None)])
    result = invariant_result(_summary(("b.tmx.gz", None), rows=2), units, rejects)
    assert result.passed and "b.tmx.gz" in result.metadata["files_count_unknown"].value
    assert not invariant_result(_summary(("b.tmx.gz", None), rows=3), units, rejects).passed  # a row missing
