"""`housestyle review-export`: the review packet of a convention set (XLSX or CSV), one readable row per
convention with examples, for the linguists' decision loop (SPEC §3); `review-import` records it."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines import atomic
from housestyle.pipelines.cli.inbox import inbox_root
from housestyle.pipelines.cli.review_files import PACKET_SUFFIXES, opened_set
from housestyle.pipelines.cli.tm_units import read_tm_units, units_of_set
from housestyle.pipelines.conventions.model import RULE_TYPES, STATUSES
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.review.packet import build_packet, write_csv
from housestyle.pipelines.rules.io import load_conventions


def register(subparsers: Any) -> None:
    ex = subparsers.add_parser("review-export", help="the review packet of a convention set (XLSX or CSV)",
                               description="One row per convention, sorted by support: forms, evidence and "
                                           "counter-examples with the match marked, empty decision columns.")
    ex.add_argument("--conventions", required=True, type=Path, help="a set folder (rules_out/<client>/<set_version>/)")
    ex.add_argument("--out", required=True, type=Path, help="FILE.xlsx or FILE.csv")
    ex.add_argument("--rules", default="", help="only these rule types, comma-separated (term,pattern,…)")
    ex.add_argument("--status", default="", help="only these statuses, comma-separated (candidate,validated,…), or all "
                    "(default: every status but suggested)")
    ex.add_argument("--tm-units", type=Path, help="tm_units.parquet of the TM the set was mined from (default: the "
                                                  "client's tm_units table or inbox/<client>/tm/ files the set names)")
    ex.add_argument("--inbox", type=Path, default=None, help="inbox root (default: $HOUSESTYLE_INBOX, else <project>/inbox)")
    ex.set_defaults(func=run)


def _csv_list(text: str, known: tuple[str, ...], option: str) -> list[str]:
    """``a,b`` → [a, b]; a word that is not one of ``known`` is refused (it would select nothing)."""
    words = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [w for w in words if w not in known]
    if unknown:
        raise InputError(f"unknown {option} value(s) {', '.join(unknown)} (one of {', '.join(known)})", path=option)
    return words


def run(args: argparse.Namespace) -> int:
    suffix = args.out.suffix.lower()
    if suffix not in PACKET_SUFFIXES:
        raise InputError(f"the packet is {' or '.join(PACKET_SUFFIXES)}", path=str(args.out))
    rules = _csv_list(args.rules, RULE_TYPES, "--rules")
    statuses = STATUSES if args.status.strip() == "all" else _csv_list(args.status, STATUSES, "--status")
    opened = opened_set(args.conventions)
    atomic.writable_folder(args.out.parent)

    from housestyle.pipelines.review.xlsx import write_xlsx  # openpyxl (most of a second): only when run

    conventions = load_conventions(opened.conventions_file, validate=False)  # sealed: validated when it was written
    files = opened.files
    evidence = pl.read_parquet(opened.path / "evidence.parquet") if "evidence.parquet" in files else \
        pl.DataFrame(schema={"convention_id": pl.Utf8, "unit_id": pl.Utf8, "role": pl.Utf8})
    conflicts = pl.read_parquet(opened.path / "conflicts.parquet") if "conflicts.parquet" in files else None
    units: pl.DataFrame | None
    with tempfile.TemporaryDirectory(prefix="housestyle-review-") as tmp:
        if args.tm_units:
            units, where = read_tm_units(args.tm_units), str(args.tm_units)
        else:
            units, where = units_of_set(opened, inbox_root(args.inbox), Path(tmp))
    packet = build_packet(conventions, client=str(opened.manifest["client"]), set_version=opened.set_version,
                          evidence=evidence, conflicts=conflicts, units=units,
                          rules=rules, statuses=statuses)
    (write_xlsx if suffix == ".xlsx" else write_csv)(packet, args.out)
    print(f"{len(packet.rows)} of {len(conventions)} rules of set {opened.set_version} → {args.out}")
    if units is None:
        print("no TM units found for the set's inputs (give --tm-units): examples show no texts", file=sys.stderr)
    else:
        print(f"examples from {where}")
    print("fill decision (accept | reject | edit), expected_terms / wrong_variants for edits, comment, reviewer, "
          "reviewer_role; then: housestyle review-import FILE --conventions SET")
    return 0
