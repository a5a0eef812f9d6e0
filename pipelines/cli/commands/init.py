"""`housestyle init DIR [--demo] [--profile local|postgres] [--executor multiprocess|celery]`: a new project folder.

Writes inbox/, registrations/, rules_out/, the Dagster instance file (dagster.yaml, from the profile
shipped in pipelines/cli/profiles/) and a workspace file for `dagster dev` / `dagster-daemon run -w`. With
--demo, the bundled demo client (package data `housestyle.demo`, the checkout's inbox/demo/) is copied to
DIR/inbox/demo, so `cd DIR && housestyle run` works from a non-editable install.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

from housestyle.pipelines.cli.dagster_processes import CELERY_FILE, EXECUTOR_MODULES
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.project import INSTANCE_FILE, WORKSPACE_FILE, ProjectLayout, write_project

PROFILES = ("local", "postgres")
DEMO_CLIENT = "demo"
# The demo client is package data, the package `housestyle.demo`: inbox/demo/ in a checkout (pyproject's
# package-dir), housestyle/demo/ in site-packages from a wheel.
DEMO_PACKAGE = "housestyle.demo"
PROFILES_DIR = Path(__file__).resolve().parents[1] / "profiles"
GITIGNORE = ".dagster/\n"
# The Celery executor's config for `housestyle worker` (the workers' side of housestyle.assets.definitions_celery).
CELERY_YAML = ("# Broker and result backend of the Celery workers (`housestyle worker`), read from the environment.\n"
               "broker: { env: HOUSESTYLE_CELERY_BROKER_URL }\n"
               "backend: { env: HOUSESTYLE_CELERY_BACKEND_URL }\n")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("init", help="create a project folder (inbox/, registrations/, rules_out/, dagster.yaml)",
                                   description="Create a housestyle project folder. Every other command then finds it "
                                               "from --project, $HOUSESTYLE_ROOT or the working directory.")
    parser.add_argument("dir", type=Path, metavar="DIR", help="the project folder (created if absent)")
    parser.add_argument("--demo", action="store_true", help="also copy the bundled demo client to DIR/inbox/demo")
    parser.add_argument("--profile", choices=PROFILES, default="local",
                        help="Dagster instance: local SQLite (default) or PostgreSQL storage (needs the services extra)")
    parser.add_argument("--executor", choices=sorted(EXECUTOR_MODULES), default="multiprocess",
                        help="how a run executes its steps: subprocesses on this machine (default) or Celery workers")
    parser.add_argument("--force", action="store_true", help="overwrite the files init writes if they exist")
    parser.set_defaults(func=run)


def profile_text(profile: str) -> str:
    """The dagster.yaml of a profile, as shipped in the package (pipelines/cli/profiles/<profile>.yaml)."""
    return (PROFILES_DIR / f"{profile}.yaml").read_text(encoding="utf-8")


def workspace_text(executor: str) -> str:
    """One code location, started in the project folder (relative to this file), so every process
    the daemon or `dagster dev` starts finds the same project."""
    return ("# Code location of this project, for `dagster dev -w` and `dagster-daemon run -w` (housestyle ui / daemon).\n"
            "load_from:\n"
            "  - python_module:\n"
            f"      module_name: {EXECUTOR_MODULES[executor]}\n"
            "      working_directory: .\n")


def demo_source() -> Path:
    """The bundled demo client folder (inbox/demo/ of the checkout, or housestyle/demo/ of the installed
    wheel), found as the import system finds the package (a namespace: no __init__, so no __file__)."""
    spec = importlib.util.find_spec(DEMO_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(f"the bundled demo client ({DEMO_PACKAGE}) is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def layout(profile: str, executor: str, demo: bool) -> ProjectLayout:
    files = {INSTANCE_FILE: profile_text(profile), WORKSPACE_FILE: workspace_text(executor), ".gitignore": GITIGNORE}
    if executor == "celery":
        files[CELERY_FILE] = CELERY_YAML
    trees = {f"inbox/{DEMO_CLIENT}": demo_source()} if demo else {}
    return ProjectLayout(files=files, trees=trees)


def run(args: argparse.Namespace) -> int:
    written = write_project(args.dir, layout(args.profile, args.executor, args.demo), force=args.force)
    root = written[0].parent
    print(f"project:   {root}")
    print(f"instance:  {root / INSTANCE_FILE} ({args.profile} profile); workspace: {root / WORKSPACE_FILE} ({args.executor})")
    if args.demo:
        print(f"demo:      {root / 'inbox' / DEMO_CLIENT}")
    print(f"next:      cd {root} && housestyle run{'' if args.demo else ' --client NAME'}", file=sys.stdout)
    return 0
