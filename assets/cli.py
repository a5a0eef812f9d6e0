"""The `housestyle` command: a thin argparse layer over the same code the assets use (SPEC.md §3).

SUBCOMMAND_MODULES is the registry: a module exposing ``register(subparsers)`` that adds one
subcommand (with ``set_defaults(func=...)``, func(args) -> exit code) joins with one line here.
Errors housestyle raises on purpose become one line on stderr and exit code 2.

Every subcommand also takes ``--project DIR`` (added here, so subcommand modules need not): the
project folder every default path is taken from; it is passed on as $HOUSESTYLE_ROOT, so the
processes a command starts (dagster dev, the daemon, code servers, workers) use the same project.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings
from collections.abc import Sequence

from housestyle.pipelines.errors import ConfigError, HousestyleError
from housestyle.pipelines.paths import client_name
from housestyle.pipelines.project import ENV_ROOT, INSTANCE_FILE, is_project, resolve_project

SUBCOMMAND_MODULES: list[str] = [
    "housestyle.assets.cli_init",
    "housestyle.assets.cli_run",
    "housestyle.assets.cli_ingest",
    "housestyle.assets.cli_score",
    "housestyle.assets.cli_ignores",
    "housestyle.assets.cli_audit",
    "housestyle.assets.cli_ui",
    "housestyle.assets.cli_metaeval",
    "housestyle.assets.cli_mining",
    "housestyle.assets.cli_judge",
    "housestyle.assets.cli_registration",
    "housestyle.assets.cli_review",
    "housestyle.assets.cli_generation",
    "housestyle.assets.cli_publish",
    "housestyle.assets.cli_explain",
    "housestyle.assets.cli_glossary",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="housestyle",
        description="Learn a client's translation conventions from its TM and score any system's output against them.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    for name, subparser in subparsers.choices.items():
        if name == "init":
            continue
        try:
            subparser.add_argument("--project", metavar="DIR", default=None,
                                   help="project folder (default: $HOUSESTYLE_ROOT, else the nearest folder upward "
                                        f"holding inbox/ and {INSTANCE_FILE})")
        except argparse.ArgumentError:  # an alias of a parser already given it, or a command with its own --project
            pass
    return parser


def _use_project(explicit: str | None) -> None:
    """--project DIR becomes $HOUSESTYLE_ROOT for this process and the ones it starts."""
    if not explicit:
        return
    root = resolve_project(explicit)
    if not is_project(root):
        raise ConfigError(f"--project {explicit}: {root} is not a housestyle project (needs inbox/ and {INSTANCE_FILE}; "
                          "create it with `housestyle init DIR`)")
    os.environ[ENV_ROOT] = str(root)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point (`housestyle` in pyproject). Returns the exit code."""
    # Dagster's beta/preview notices are for developers, not for someone running the command line
    # (the same two categories pyproject's pytest settings ignore); matched by message so `ingest`
    # need not import dagster.
    warnings.filterwarnings("ignore", message=r".*is currently in (beta|preview)")
    args = build_parser().parse_args(argv)
    try:
        _use_project(getattr(args, "project", None))
        if getattr(args, "client", None) is not None:  # every command taking --client: one path segment
            client_name(args.client, source="--client")
        return int(args.func(args))
    except HousestyleError as error:
        print(f"housestyle {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
