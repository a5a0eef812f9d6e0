"""The one report of an ingest, shared by `ingest` and `mine`: a stderr line per file that had rejects or
failed (file, kept, rejected, first reason), a total, and the exit status (0, or 1 with ``--strict`` when
anything was rejected, or when units are unaccounted for), plus the options those commands share."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO

from housestyle.pipelines.ingest import IngestSummary
from housestyle.pipelines.readers.containers import ContainerLimits
from housestyle.pipelines.tm_accounting import accounting


def add_strict(parser: argparse.ArgumentParser) -> None:
    """--strict, the same for every command that ingests."""
    parser.add_argument("--strict", action="store_true", help="exit 1 when any unit or file was rejected (PO / XLIFF entries not translated yet are "
                        "counted apart, not rejects)")


def report_ingest(summary: IngestSummary, out_dir: Path, strict: bool, stream: IO[str] | None = None) -> int:
    """Print the rejects report on stderr; returns the exit status (checked on the written tables)."""
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


def limits_of(args: argparse.Namespace) -> ContainerLimits:
    """The archive limits of --max-uncompressed / --max-ratio (the readers' defaults where not given)."""
    defaults = ContainerLimits()
    return ContainerLimits(max_total_bytes=args.max_uncompressed or defaults.max_total_bytes,
                           max_ratio=args.max_ratio or defaults.max_ratio)
