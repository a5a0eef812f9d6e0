"""tm_units and tm_rejects for one client: inbox/<client>/tm/ → Parquet, with the units = kept + rejected check.

One multi-asset, because one streaming pass over the files produces both tables; the invariant check
runs inside the same step (blocking), so nothing downstream sees a table that lost a unit. The check
compares, per file, the units the independent scan counted with the units found in the written
tables (``housestyle.pipelines.tm_accounting``): it fails whenever one file's two figures disagree.
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
    Config,
    MaterializeResult,
    MetadataValue,
    multi_asset,
)

from housestyle.assets.freshness import code_version
from housestyle.pipelines.inbox_files import tm_files
from housestyle.assets.metadata import md_counts, md_frame, md_table
from housestyle.assets.partitions import CLIENTS
from housestyle.assets.resources import HousestyleSettings
from housestyle.pipelines.ingest import IngestSummary, domain_from_path, ingest_files
from housestyle.pipelines.readers.containers import ContainerLimits
from housestyle.pipelines.tm_accounting import FileAccount, accounting

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


def invariant_result(summary: IngestSummary, units_path: Path, rejects_path: Path) -> AssetCheckResult:
    """Units in each file (independent count) = units kept + units rejected, read back from the written
    tables, not from the reader's own tallies; and rows read = rows written."""
    accounts = accounting([(f.source_file, f.units_in_file) for f in summary.per_file], units_path, rejects_path)
    rows_kept, rows_rejected = parquet_rows(units_path), parquet_rows(rejects_path)
    rows_ok = summary.units_read == rows_kept + rows_rejected
    lost = [a for a in accounts if not a.ok]
    unknown = [a.source_file for a in accounts if a.units_in_file is None]
    in_files = sum(a.units_in_file or 0 for a in accounts)
    accounted = sum(a.accounted for a in accounts)
    passed = rows_ok and not lost
    return AssetCheckResult(
        asset_key="tm_units",
        check_name=INVARIANT_CHECK,
        passed=passed,
        severity=AssetCheckSeverity.ERROR,
        metadata={"units_in_files": in_files, "units_accounted": accounted,
                  "units_read": summary.units_read, "rows_tm_units": rows_kept, "rows_tm_rejects": rows_rejected,
                  "difference": summary.units_read - rows_kept - rows_rejected,
                  "files_disagreeing": MetadataValue.md(md_table([_account_row(a) for a in lost], ACCOUNT_COLUMNS)
                                                        if lost else "none"),
                  "files_count_unknown": MetadataValue.md(", ".join(Path(f).name for f in unknown) or "none")},
        description=(f"{in_files:,} units in {len(accounts)} file(s) = {accounted:,} kept or rejected"
                     + (f"; {len(unknown)} file(s) could not be counted (see tm_rejects)" if unknown else ""))
        if passed else f"{len(lost)} file(s) whose units do not add up; "
                       f"{summary.units_read - rows_kept - rows_rejected:,} rows unaccounted for",
    )


ACCOUNT_COLUMNS = ["file", "units_in_file", "kept", "rejected", "untranslated", "stray"]


def _account_row(account: FileAccount) -> dict[str, Any]:
    return {"file": Path(account.source_file).name, "units_in_file": account.units_in_file,
            "kept": account.units_kept, "rejected": account.units_rejected,
            "untranslated": account.units_untranslated, "stray": account.stray}


class IngestConfig(Config):
    """Bounds on archives (README "Ingest limits"); the defaults are ``ContainerLimits``'s."""

    max_uncompressed_bytes: int = ContainerLimits().max_total_bytes
    max_compression_ratio: float = ContainerLimits().max_ratio


@multi_asset(
    specs=[
        AssetSpec("tm_units", description="One row per translation unit x target language (SPEC.md §2).",
                  group_name="ingest", kinds={"polars", "parquet"}, deps=["inbox_tm"], code_version=code_version(__name__)),
        AssetSpec("tm_rejects", description="Every unit or file that could not be used, with the reason.",
                  group_name="ingest", kinds={"polars", "parquet"}, deps=["inbox_tm"], code_version=code_version(__name__)),
    ],
    check_specs=[AssetCheckSpec(INVARIANT_CHECK, asset="tm_units", blocking=True,
                                description="Units in each file (independent count) = units kept + units "
                                            "rejected, read back from the written tables.")],
    partitions_def=CLIENTS,
)
def tm_ingest(context: AssetExecutionContext, config: IngestConfig, settings: HousestyleSettings) -> Iterator[Any]:
    """Ingest every file under `inbox/<client>/tm/` (archives included) into tm_units / tm_rejects."""
    client = context.partition_key
    tm_root = settings.client_dir(client) / "tm"
    files = tm_files(settings.inbox, client)
    out_dir = settings.asset_dir("tm_units", client)
    context.log.info(f"ingesting {len(files)} file(s) from {tm_root}")
    limits = ContainerLimits(max_total_bytes=config.max_uncompressed_bytes, max_ratio=config.max_compression_ratio)
    summary = ingest_files(files, client=client, out_dir=out_dir, limits=limits,
                           domain_of=lambda path: domain_from_path(path, tm_root))
    units_path, rejects_path = settings.tm_units_path(client), settings.tm_rejects_path(client)
    context.log.info(f"{summary.units_kept:,} units kept, {summary.units_rejected:,} rejected, "
                     f"{summary.duplicates:,} duplicates marked")

    per_file = [{"file": Path(f.source_file).name, "format": f.format,
                 "units": "?" if f.units_in_file is None else f.units_in_file, "kept": f.kept, "rejected": f.rejected,
                 "untranslated": f.untranslated, "foreign": f.foreign,
                 "error": (f.error or "").removeprefix(f"{f.source_file}:")}
                for f in summary.per_file]
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
            "id_conflicts": summary.id_conflicts,
            "per_file": MetadataValue.md(md_table(per_file, ["file", "format", "units", "kept", "rejected",
                                                             "untranslated", "foreign", "error"])),
            "preview": md_frame(units_preview.select([c for c in PREVIEW_COLUMNS if c in units_preview.columns])),
        },
    )
    rejects_preview = pl.scan_parquet(rejects_path).head(10).collect() if rejects_path.exists() else pl.DataFrame()
    yield MaterializeResult(
        asset_key="tm_rejects",
        metadata={
            "path": MetadataValue.path(str(rejects_path)),
            "dagster/row_count": summary.units_rejected + summary.units_untranslated,
            "untranslated": summary.units_untranslated,
            "reject_reasons": md_counts(_counts(summary.reject_reasons), "reason", "units"),
            "preview": md_frame(rejects_preview),
        },
    )
    yield invariant_result(summary, units_path, rejects_path)
