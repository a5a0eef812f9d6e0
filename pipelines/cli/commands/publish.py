"""`housestyle publish --conventions SET --format tbx|csv|qa --out FILE [--layout memoq|phrase|crowdin|weblate] [--status validated] [--with-qa]` (SPEC.md §3)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from housestyle.pipelines.conventions.statuses import PUBLISHED_STATUSES, parse_statuses
from housestyle.pipelines.publish.publish import publish


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "publish", help="write a convention set as a TBX termbase, a CSV glossary or QA checks (JSON)",
        description="Publish a convention set where translators work: term rules as TBX-Basic or a CSV "
                    "glossary, the other rules as QA checks (JSON). Only conventions of the chosen "
                    "statuses are published; one line per rule kind says what was published and left out.")
    parser.add_argument("--conventions", required=True, type=Path, metavar="SET",
                        help="a convention set folder (or a file of one, or a loose convention file)")
    parser.add_argument("--format", required=True, choices=("tbx", "csv", "qa"))
    parser.add_argument("--out", required=True, type=Path, metavar="FILE")
    parser.add_argument("--layout", choices=("memoq", "phrase", "crowdin", "weblate"),
                        help="with csv: the columns and status values that tool imports, one row per concept "
                             "(pipelines/publish/README.md); default: the generic source/target/forbidden CSV")
    parser.add_argument("--status", default="validated", metavar="S,…",
                        help="statuses to publish, comma-separated (candidate, indicative, validated, "
                             "rejected), or all (default: validated)")
    parser.add_argument("--with-qa", action="store_true",
                        help="with tbx/csv: also write the other rules as QA checks to FILE.qa.json")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    statuses = parse_statuses(args.status, PUBLISHED_STATUSES)
    done = publish(args.conventions, args.format, args.out, statuses, with_qa=args.with_qa, layout=args.layout)
    for line in done.account.lines():
        print(line, file=sys.stderr)
    for written in done.files:
        print(f"{written.path}: {written.items:,} {written.unit}, {written.size:,} bytes")
    return 0
