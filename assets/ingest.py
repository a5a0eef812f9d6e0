"""tm_units and tm_rejects for one client: inbox/<client>/tm/ → Parquet, with the read = kept + rejected check.

One multi-asset, because one streaming pass over the files produces both tables; the invariant check
runs inside the same step (blocking), so nothing downstream sees a table that lost a unit.
"""

# No `from __future__ import annotations`: Dagster inspects the context/resource annotations at runtime.

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import polars as pl
from dagster import (
    AssetCheckResult,
    AssetCheckSeverity,
    AssetCheckSpec,
    AssetExecutionContext,
    AssetSpec,
    MaterializeResult,
    MetadataValue,
    multi_asset,
)

from assets.freshness import code_version
from assets.inbox import tm_files
from assets.metadata import md_counts, md_frame, md_table
from assets.partitions import CLIENTS
from assets.resources import HousestyleSettings
from pipelines.ingest import domain_from_path, ingest_files

INVARIANT_CHECK = "read_equals_kept_plus_rejected"
PREVIEW_COLUMNS = ["unit_id", "src_lang", "tgt_lang", "source", "target", "domain", "source_file"]


def _counts(value: Any) -> dict[str, int]:
    """Normalise a summary count field (a mapping or (key, count) pairs) to a plain dict."""
    if isinstance(value, Mapping):
        return {str(k): int(v) for k, v in value.items()}
    return {str(k): int(v) for k, v in value}


def parquet_rows(path: Path) -> int:
    """Row count of a Parquet file without loading it (0 when it does not exist)."""
    return int(pl.scan_parquet(path).select(pl.len()).collect().item()) if path.exists() else 0


def invariant_result(units_read: int, units_path: Path, rejects_path: Path) -> AssetCheckResult:
    """read = kept + rejected, counted from the written files, not from the reader's own tallies."""
    kept, rejected = parquet_rows(units_path), parquet_rows(rejects_path)
    return AssetCheckResult(
        asset_key="tm_units",
        check_name=INVARIANT_CHECK,
        passed=units_read == kept + rejected,
        severity=AssetCheckSeverity.ERROR,
        metadata={"units_read": units_read, "rows_tm_units": kept, "rows_tm_rejects": rejected,
                  "difference": units_read - kept - rejected},
        description=f"{units_read:,} read = {kept:,} kept + {rejected:,} rejected"
        if units_read == kept + rejected else f"{units_read - kept - rejected:,} units unaccounted for",
    )


@multi_asset(
    specs=[
        AssetSpec("tm_units", description="One row per translation unit x target language (SPEC.md §2).",
                  group_name="ingest", kinds={"polars", "parquet"}, deps=["inbox_tm"], code_version=code_version(__name__)),
        AssetSpec("tm_rejects", description="Every unit or file that could not be used, with the reason.",
                  group_name="ingest", kinds={"polars", "parquet"}, deps=["inbox_tm"], code_version=code_version(__name__)),
    ],
    check_specs=[AssetCheckSpec(INVARIANT_CHECK, asset="tm_units", blocking=True,
                                description="Units read = rows in tm_units + rows in tm_rejects.")],
    partitions_def=CLIENTS,
)
def tm_ingest(context: AssetExecutionContext, settings: HousestyleSettings) -> Iterator[Any]:
    """Ingest every file under inbox/<client>/tm/ (archives included) into tm_units / tm_rejects."""
    client = context.partition_key
    tm_root = settings.client_dir(client) / "tm"
    files = tm_files(settings.inbox, client)
    out_dir = settings.asset_dir("tm_units", client)
    context.log.info(f"ingesting {len(files)} file(s) from {tm_root}")
    summary = ingest_files(files, client=client, out_dir=out_dir,
                           domain_of=lambda path: domain_from_path(path, tm_root))
    units_path, rejects_path = settings.tm_units_path(client), settings.tm_rejects_path(client)
    context.log.info(f"{summary.units_kept:,} units kept, {summary.units_rejected:,} rejected, "
                     f"{summary.duplicates:,} duplicates marked")

    per_file = [{"file": Path(f.source_file).name, "format": f.format, "kept": f.kept, "rejected": f.rejected,
                 "error": (f.error or "").removeprefix(f"{f.source_file}:")} for f in summary.per_file]
    units_preview = pl.scan_parquet(units_path).head(10).collect() if units_path.exists() else pl.DataFrame()
    if "source_file" in units_preview.columns:  # the folder is the same for every row: show the file name
        units_preview = units_preview.with_columns(pl.col("source_file").str.split("/").list.last())
    yield MaterializeResult(
        asset_key="tm_units",
        metadata={
            "path": MetadataValue.path(str(units_path)),
            "dagster/row_count": summary.units_kept,
            "units_read": summary.units_read,
            "duplicates": summary.duplicates,
            "files": len(files),
            "language_pairs": md_counts(_counts(summary.language_pairs), "pair", "units"),
            "per_file": MetadataValue.md(md_table(per_file, ["file", "format", "kept", "rejected", "error"])),
            "preview": md_frame(units_preview.select([c for c in PREVIEW_COLUMNS if c in units_preview.columns])),
        },
    )
    rejects_preview = pl.scan_parquet(rejects_path).head(10).collect() if rejects_path.exists() else pl.DataFrame()
    yield MaterializeResult(
        asset_key="tm_rejects",
        metadata={
            "path": MetadataValue.path(str(rejects_path)),
            "dagster/row_count": summary.units_rejected,
            "reject_reasons": md_counts(_counts(summary.reject_reasons), "reason", "units"),
            "preview": md_frame(rejects_preview),
        },
    )
    yield invariant_result(summary.units_read, units_path, rejects_path)
