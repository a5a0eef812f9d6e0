"""`housestyle ingest FILE… --out DIR`: tm_units.parquet + tm_rejects.parquet, and a summary table.

``report_ingest`` is the one stderr report of an ingest (also used by ``mine``): a line per file that
had rejects or failed (file, kept, rejected, first reason), a total, and the exit status (0, or 1
with ``--strict`` when anything was rejected, or when units are unaccounted for).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from housestyle.assets.cli_table import text_table
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.paths import CLIENT_GRAMMAR

if TYPE_CHECKING:  # the CLI imports the ingest lazily, after argument parsing
    from housestyle.pipelines.ingest import IngestSummary


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("ingest", help="read TMX/XLIFF/PO/TBX files (or .zip/.gz of them) into Parquet",
                                   description="Read translation memories into tm_units.parquet and tm_rejects.parquet.")
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="output folder")
    parser.add_argument("--client", default="local", help="value of the client column (default: local); one path segment: " + CLIENT_GRAMMAR)
    parser.add_argument("--workers", type=int, default=2, help="parallel readers (default: 2)")
    add_strict(parser)
    parser.add_argument("--max-uncompressed", type=int, metavar="BYTES",
                        help="refuse an archive inflating beyond this in total (default: 8 GiB)")
    parser.add_argument("--max-ratio", type=float, metavar="X",
                        help="refuse an archive member inflating beyond X times its compressed size (default: 100)")
    parser.set_defaults(func=run)


def add_strict(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--strict", action="store_true", help="exit 1 when any unit or file was rejected (PO / XLIFF entries not translated yet are "
                        "counted apart, not rejects)")


def report_ingest(summary: IngestSummary, out_dir: Path, strict: bool, stream: IO[str] | None = None) -> int:
    """Print the rejects report on stderr; returns the exit status (checked on the written tables)."""
    from housestyle.pipelines.tm_accounting import accounting

    stream = stream or sys.stderr
    for f in summary.per_file:
        if f.rejected or f.error:
            why = f.first_reason or f.error or ""
            print(f"{f.source_file}: kept {f.kept:,}, rejected {f.rejected:,}: {why}", file=stream)
        elif f.untranslated:
            print(f"{f.source_file}: kept {f.kept:,}, untranslated {f.untranslated:,} (not rejects)", file=stream)
    accounts = accounting([(f.source_file, f.units_in_file) for f in summary.per_file],
                          out_dir / "tm_units.parquet", out_dir / "tm_rejects.parquet")
    lost = [a for a in accounts if not a.ok]
    for a in lost:
        print(f"{a.source_file}: {a.units_in_file:,} units in the file but {a.accounted:,} accounted for", file=stream)
    unknown = sum(1 for a in accounts if a.units_in_file is None)
    untranslated = f", {summary.units_untranslated:,} untranslated" if summary.units_untranslated else ""
    print(f"total: {summary.units_kept:,} kept, {summary.units_rejected:,} rejected{untranslated} from "
          f"{len(summary.per_file)} file(s)" + (f"; {unknown} file(s) whose units could not be counted" if unknown else ""), file=stream)
    return 1 if lost or (strict and summary.units_rejected) else 0


def limits_of(args: argparse.Namespace) -> Any:
    from housestyle.pipelines.readers.containers import ContainerLimits

    defaults = ContainerLimits()
    return ContainerLimits(max_total_bytes=args.max_uncompressed or defaults.max_total_bytes,
                           max_ratio=args.max_ratio or defaults.max_ratio)


def run(args: argparse.Namespace) -> int:
    from housestyle.pipelines.ingest import ingest_files

    for path in args.files:
        if not path.is_file():
            raise InputError("no such file", path=str(path))
    args.out.mkdir(parents=True, exist_ok=True)
    summary = ingest_files(list(args.files), client=args.client, out_dir=args.out, workers=args.workers,
                           limits=limits_of(args))
    rows: list[dict[str, Any]] = [
        {"file": f.source_file, "format": f.format, "units": "?" if f.units_in_file is None else f.units_in_file,
         "kept": f.kept, "rejected": f.rejected, "untranslated": f.untranslated,
         "error": (f.error or "").removeprefix(f"{f.source_file}:")}  # the file is already in its column
        for f in summary.per_file
    ]
    print(text_table(rows, ["file", "format", "units", "kept", "rejected", "untranslated", "error"]))
    print()
    counted = [f.units_in_file for f in summary.per_file]
    units = "?" if None in counted else f"{sum(n or 0 for n in counted):,}"
    print(f"rows read {summary.units_read:,} = kept {summary.units_kept:,} + rejected {summary.units_rejected:,} "
          f"+ untranslated {summary.units_untranslated:,} "
          f"from {units} units in the files   (duplicates marked: {summary.duplicates:,}; "
          f"id conflicts flagged: {summary.id_conflicts:,})")
    if summary.language_pairs:
        print("language pairs: " + ", ".join(f"{k} {v:,}" for k, v in sorted(summary.language_pairs.items())))
    if summary.reject_reasons:
        reasons = dict(summary.reject_reasons)
        print("reject reasons: " + ", ".join(f"{k} {v:,}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])))
    print(f"wrote {args.out / 'tm_units.parquet'} and {args.out / 'tm_rejects.parquet'}")
    sys.stdout.flush()
    return report_ingest(summary, args.out, args.strict)
