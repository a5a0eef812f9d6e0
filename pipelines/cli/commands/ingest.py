"""`housestyle ingest FILE… --out DIR`: tm_units.parquet + tm_rejects.parquet, and a summary table
(the rejects report and exit status: pipelines/cli/ingest_report.py, shared with ``mine``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from housestyle.pipelines.cli.ingest_report import add_strict, limits_of, report_ingest
from housestyle.pipelines.cli.text_table import text_table
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.paths import CLIENT_GRAMMAR


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


def run(args: argparse.Namespace) -> int:
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
