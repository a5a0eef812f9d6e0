"""`housestyle diff A B`: added, removed and changed conventions between two sets (folders or files)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from housestyle.pipelines.conventionset.diff import diff_sets, render


def register(subparsers: Any) -> None:
    diff = subparsers.add_parser("diff", help="added, removed and changed conventions between two sets",
                                 description="Compare two convention sets (folders or files).")
    diff.add_argument("a", type=Path, metavar="A")
    diff.add_argument("b", type=Path, metavar="B")
    diff.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print(render(diff_sets(args.a, args.b)), end="")
    return 0
