"""`housestyle ignore-import ISSUES.xlsx --client NAME --reviewer NAME`: the ``ignore`` marks of a
run's issue list → inbox/<client>/ignores.parquet (appended; every later run of the client counts
those items as ignored, not failed; the sensor notices the file)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from housestyle.pipelines.cli.inbox import client_folder
from housestyle.pipelines.scoring.ignores import IGNORES_FILE, append_ignores


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("ignore-import", help="record the ignore marks of a run's issues.xlsx",
                                   description="Rows of issues.xlsx marked in the ignore column (x: this system, "
                                               "*: every system) become per-client exceptions in "
                                               "inbox/<client>/ignores.parquet.")
    parser.add_argument("issues", type=Path, metavar="ISSUES.xlsx")
    parser.add_argument("--client", required=True, metavar="NAME")
    parser.add_argument("--reviewer", required=True, metavar="NAME")
    parser.add_argument("--inbox", type=Path, default=None, help="inbox root (default: <project>/inbox)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from housestyle.pipelines.scoring.issues import read_ignore_marks  # openpyxl (a fifth of a second): only when run

    target = client_folder(args.inbox, args.client) / IGNORES_FILE
    marks = read_ignore_marks(args.issues, args.reviewer, client=args.client)
    total = append_ignores(target, marks) if marks.height else None
    per = marks.group_by("system").len().sort("system").iter_rows() if marks.height else []
    detail = ", ".join(f"{system} {n}" for system, n in per)
    print(f"recorded {marks.height} ignore(s){f' ({detail})' if detail else ''} in {target}"
          + (f"; it now holds {total}" if total is not None else ""))
    return 0
