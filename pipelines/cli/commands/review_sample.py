"""`housestyle review-sample`: draw N rules of a set for linguist review, reproducibly (seeded by the set
version); the filled verdict file goes back through `review-import --registration`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.cells import write_csv_safe
from housestyle.pipelines.cli.tm_units import read_tm_units
from housestyle.pipelines.registration.review import review_sample


def register(subparsers: Any) -> None:
    rs = subparsers.add_parser("review-sample", help="draw rules for linguist review (reproducible)",
                               description="A uniform sample of N rules, seeded by the set version.")
    rs.add_argument("--conventions", required=True, type=Path)
    rs.add_argument("-n", type=int, default=50, help="sample size (default 50)")
    rs.add_argument("--out", required=True, type=Path, help=".csv or .parquet to write")
    rs.add_argument("--tm-units", type=Path, help="tm_units.parquet the set was mined from: each row then shows "
                                                  "its first evidence unit (example_source, example_target)")
    rs.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from housestyle.pipelines.registration.evaluate import load_set  # the gate measures' libraries (seconds)

    cset = load_set(args.conventions)
    units = read_tm_units(args.tm_units) if args.tm_units else None
    sample = review_sample(cset.conventions, args.n, cset.set_version, units)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_with(args.out, sample.write_parquet if args.out.suffix.lower() == ".parquet"
                      else lambda tmp: write_csv_safe(sample, tmp))
    print(f"{sample.height} of {len(cset.conventions)} rules of set {cset.set_version} → {args.out}")
    print("fill verdict (correct/incorrect), comment, reviewer, reviewer_role (linguist); engineers' rows never count")
    return 0
