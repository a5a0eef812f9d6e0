"""`housestyle ingest FILE… --out DIR`: tm_units.parquet + tm_rejects.parquet, and a summary table."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from assets.cli_table import text_table
from pipelines.errors import InputError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("ingest", help="read TMX/XLIFF/PO/TBX files (or .zip/.gz of them) into Parquet",
                                   description="Read translation memories into tm_units.parquet and tm_rejects.parquet.")
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="output folder")
    parser.add_argument("--client", default="local", help="value of the client column (default: local)")
    parser.add_argument("--workers", type=int, default=2, help="parallel readers (default: 2)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pipelines.ingest import ingest_files

    for path in args.files:
        if not path.is_file():
            raise InputError("no such file", path=str(path))
    args.out.mkdir(parents=True, exist_ok=True)
    summary = ingest_files(list(args.files), client=args.client, out_dir=args.out, workers=args.workers)
    rows: list[dict[str, Any]] = [
        {"file": f.source_file, "format": f.format, "kept": f.kept, "rejected": f.rejected,
         "error": (f.error or "").removeprefix(f"{f.source_file}:")}  # the file is already in its column
        for f in summary.per_file
    ]
    print(text_table(rows, ["file", "format", "kept", "rejected", "error"]))
    print()
    print(f"units read {summary.units_read:,} = kept {summary.units_kept:,} + rejected {summary.units_rejected:,}"
          f"   (duplicates marked: {summary.duplicates:,})")
    if summary.language_pairs:
        print("language pairs: " + ", ".join(f"{k} {v:,}" for k, v in sorted(summary.language_pairs.items())))
    if summary.reject_reasons:
        reasons = dict(summary.reject_reasons)
        print("reject reasons: " + ", ".join(f"{k} {v:,}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])))
    print(f"wrote {args.out / 'tm_units.parquet'} and {args.out / 'tm_rejects.parquet'}")
    return 0
