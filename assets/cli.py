"""The `housestyle` command: a thin argparse layer over the same code the assets use (SPEC.md §3).

SUBCOMMAND_MODULES is the registry: a module exposing ``register(subparsers)`` that adds one
subcommand (with ``set_defaults(func=...)``, func(args) -> exit code) joins with one line here.
Errors housestyle raises on purpose become one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Sequence

from pipelines.errors import HousestyleError

SUBCOMMAND_MODULES: list[str] = [
    "assets.cli_run",
    "assets.cli_ingest",
    "assets.cli_score",
    "assets.cli_audit",
    "assets.cli_ui",
    "assets.cli_metaeval",
    "assets.cli_mining",
    "assets.cli_judge",
    "assets.cli_registration",
    "assets.cli_generation",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="housestyle",
        description="Learn a client's translation conventions from its TM and score any system's output against them.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point (`housestyle` in pyproject). Returns the exit code."""
    # Dagster's beta/preview notices are for developers, not for someone running the command line
    # (the same two categories pyproject's pytest settings ignore); matched by message so `ingest`
    # need not import dagster.
    warnings.filterwarnings("ignore", message=r".*is currently in (beta|preview)")
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except HousestyleError as error:
        print(f"housestyle {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
