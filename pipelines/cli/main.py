"""The `housestyle` command: a thin argparse layer over the same code the assets use (SPEC.md §3).

The registry: ``COMMAND_MODULES`` lists the commands of pipelines/cli/commands/, and the installed
``housestyle.commands`` entry points (pyproject) add the ones that run the Dagster graph
(assets/commands/); each module's ``register(subparsers)`` adds its one command (with
``set_defaults(func=...)``, func(args) -> exit code). Errors housestyle raises on purpose become one
line on stderr and exit code 2.

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
from importlib.metadata import entry_points
from pathlib import Path

from housestyle.pipelines.errors import ConfigError, HousestyleError
from housestyle.pipelines.conventionset.store import refuse_output_into_set
from housestyle.pipelines.paths import client_name
from housestyle.pipelines.project import ENV_ROOT, INSTANCE_FILE, is_project, resolve_project

# The commands of this room, one line each (pipelines/cli/commands/<command>.py).
COMMAND_MODULES: list[str] = [
    "housestyle.pipelines.cli.commands.init",
    "housestyle.pipelines.cli.commands.ingest",
    "housestyle.pipelines.cli.commands.score",
    "housestyle.pipelines.cli.commands.ignore_import",
    "housestyle.pipelines.cli.commands.audit",
    "housestyle.pipelines.cli.commands.ui",
    "housestyle.pipelines.cli.commands.daemon",
    "housestyle.pipelines.cli.commands.worker",
    "housestyle.pipelines.cli.commands.meta_eval",
    "housestyle.pipelines.cli.commands.mine",
    "housestyle.pipelines.cli.commands.diff",
    "housestyle.pipelines.cli.commands.judge",
    "housestyle.pipelines.cli.commands.register",
    "housestyle.pipelines.cli.commands.evaluate",
    "housestyle.pipelines.cli.commands.review_sample",
    "housestyle.pipelines.cli.commands.review_export",
    "housestyle.pipelines.cli.commands.review_import",
    "housestyle.pipelines.cli.commands.generate",
    "housestyle.pipelines.cli.commands.references",
    "housestyle.pipelines.cli.commands.publish",
    "housestyle.pipelines.cli.commands.explain",
    "housestyle.pipelines.cli.commands.import_glossary",
]
# The commands that run the Dagster graph (assets/commands/<command>.py) join through this entry-point
# group, one line each in pyproject: this room never names the Dagster layer.
GRAPH_COMMANDS_GROUP = "housestyle.commands"


def graph_command_modules() -> dict[str, str]:
    """command name → module of the installed ``housestyle.commands`` entry points (empty when not installed)."""
    return {entry.name: entry.value for entry in entry_points(group=GRAPH_COMMANDS_GROUP)}


def _command_name(module: str) -> str:
    """commands/review_export.py adds `review-export` (tests/pipelines/cli/test_registry.py holds every module to it)."""
    return module.rsplit(".", 1)[1].replace("_", "-")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone when it is one: a command line then imports
    that command's module only, not the libraries of all the others (`--help` lists them all)."""
    modules = [*COMMAND_MODULES, *graph_command_modules().values()]
    modules = [m for m in modules if _command_name(m) == command] or modules
    parser = argparse.ArgumentParser(
        prog="housestyle",
        description="Learn a client's translation conventions from its TM and score any system's output against them.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in modules:
        importlib.import_module(module).register(subparsers)
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


def _first_word(words: list[str]) -> str | None:
    return next((w for w in words if not w.startswith("-")), None)


def _uninstalled_graph_command(words: list[str]) -> str | None:
    """One line when the command asked for is none of this room's and no graph command is installed (the
    entry points are written by `pip install`: a checkout used without installing it has none)."""
    if graph_command_modules():
        return None
    command = _first_word(words)
    if command is None or command in {_command_name(module) for module in COMMAND_MODULES}:
        return None
    return (f"housestyle: error: no command {command!r} here, and the commands that run the Dagster graph are not "
            f"installed (entry-point group {GRAPH_COMMANDS_GROUP} missing): install the package (pip install -e .)")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point (`housestyle` in pyproject). Returns the exit code."""
    # Dagster's beta/preview notices are for developers, not for someone running the command line
    # (the same two categories pyproject's pytest settings ignore); matched by message so `ingest`
    # need not import dagster.
    warnings.filterwarnings("ignore", message=r".*is currently in (beta|preview)")
    words = list(sys.argv[1:] if argv is None else argv)
    missing = _uninstalled_graph_command(words)
    if missing:
        print(missing, file=sys.stderr)
        return 2
    args = build_parser(_first_word(words)).parse_args(words)
    try:
        _use_project(getattr(args, "project", None))
        if getattr(args, "client", None) is not None:  # every command taking --client: one path segment
            client_name(args.client, source="--client")
        if isinstance(getattr(args, "out", None), Path):  # every command taking --out: never over a sealed set
            refuse_output_into_set(args.out)
        return int(args.func(args))
    except HousestyleError as error:
        print(f"housestyle {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
