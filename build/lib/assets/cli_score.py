"""`housestyle score --conventions PATH --source FILE --system NAME=FILE … [--reference FILE …] --out DIR` (SPEC.md §3)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from assets.cli_table import text_table
from pipelines.errors import ConfigError


def system_arg(value: str) -> tuple[str, Path]:
    """NAME=FILE → (name, path)."""
    name, sep, path = value.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=FILE, got {value!r}")
    return name, Path(path)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("score", help="score system outputs against a convention set",
                                   description="Score one or more systems against a convention set; "
                                               "writes scores.parquet, failures.parquet, adequacy and report.html.")
    parser.add_argument("--conventions", required=True, type=Path, metavar="PATH",
                        help="convention file (JSONL, JSON, Parquet, YAML) or a convention set folder")
    parser.add_argument("--source", required=True, type=Path, metavar="FILE", help="source segments (TMX/XLIFF/PO/TSV/JSONL)")
    parser.add_argument("--system", required=True, action="append", type=system_arg, metavar="NAME=FILE",
                        help="a system's outputs; repeat for several systems")
    parser.add_argument("--reference", action="append", type=Path, default=[], metavar="FILE",
                        help="reference translations for adequacy (chrF, BLEU); repeat for multi-reference")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import polars as pl
    from pipelines.scoring.runs import run_scoring

    systems: dict[str, Path] = {}
    for name, path in args.system:
        if name in systems:
            raise ConfigError(f"--system {name} given twice")
        systems[name] = path
    run_dir = run_scoring(args.conventions, args.source, systems, list(args.reference), args.out)
    scores = pl.read_parquet(run_dir / "scores.parquet")
    per_system = (scores.group_by("system").agg(pl.col("scored").sum(), pl.col("passed").sum(), pl.col("missing").max())
                  .with_columns((100 * pl.col("passed") / pl.col("scored")).alias("score")).sort("system"))
    print(text_table(per_system.to_dicts(), ["system", "scored", "passed", "missing", "score"]))
    print(f"\nrun: {run_dir}")
    if (run_dir / "report.html").is_file():
        print(f"report: {run_dir / 'report.html'}")
    return 0
