"""`housestyle evaluate`: gates → verdict → claim level for one convention set against a frozen registration;
writes evaluation.json beside the set."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from housestyle.pipelines.cli.inbox import inbox_root
from housestyle.pipelines.cli.tm_units import ingest_client, read_tm_units
from housestyle.pipelines.registration.freeze import load_registration


def register(subparsers: Any) -> None:
    ev = subparsers.add_parser("evaluate", help="judge a convention set against a frozen registration",
                               description="Gate results, verdict and claim level; writes evaluation.json beside the set.")
    ev.add_argument("--registration", required=True, type=Path, help="registrations/<client>/<version>/")
    ev.add_argument("--conventions", required=True, type=Path, help="a set folder or a conventions file")
    ev.add_argument("--tm-units", type=Path, help="tm_units.parquet (default: ingest inbox/<client>/tm/ afresh)")
    ev.add_argument("--review", type=Path, help="linguist review (CSV/TSV/Parquet) for the precision gate")
    ev.add_argument("--inbox", type=Path, default=None, help="inbox root (default: $HOUSESTYLE_INBOX, else <project>/inbox)")
    ev.add_argument("--no-write", action="store_true", help="print only; do not write evaluation.json")
    ev.add_argument("--strict", action="store_true", help="exit 1 when the verdict is fail")
    ev.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from housestyle.pipelines.registration.evaluate import evaluate, set_directory  # the gate measures' libraries (seconds)

    reg_dir = args.registration.parent if args.registration.is_file() else args.registration
    reg = load_registration(reg_dir)  # verify first: a tampered registration is reported before any ingest
    with tempfile.TemporaryDirectory(prefix="housestyle-eval-") as tmp:
        units = read_tm_units(args.tm_units, ("unit_id", "source", "target", "domain")) if args.tm_units \
            else ingest_client(inbox_root(args.inbox), reg.client, Path(tmp))
        result = evaluate(reg_dir, args.conventions, units, args.review)
    for line in result.summary_lines():
        print(line)
    for gate in result.gates:
        missed = gate.detail.get("missed") or []
        if missed:
            shown = ", ".join(m.get("gold_id") or f"{m['source']} → {m['target']}" for m in missed[:10])
            print(f"  {gate.name} missed {len(missed)}: {shown}{' …' if len(missed) > 10 else ''}")
    if not args.no_write:
        print(f"wrote {result.write(set_directory(args.conventions))}")
    return 1 if args.strict and result.verdict == "fail" else 0
