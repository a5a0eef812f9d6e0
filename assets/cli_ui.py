"""`housestyle ui` (`dagster dev`: webserver + daemon on 127.0.0.1) and `housestyle daemon` (the daemon alone).

Both run on the project's instance (its dagster.yaml, copied into $DAGSTER_HOME) and its workspace
file (workspace.yaml, written by `housestyle init`; without one, the default code location
``assets.definitions``), in the project folder with $HOUSESTYLE_ROOT set, so every process they start
(code servers, run workers) reads and writes the same project.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from assets.instance import ensure_dagster_home
from pipelines.project import ENV_ROOT, WORKSPACE_FILE, resolve_project

DEFAULT_MODULE = "assets.definitions"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("ui", help="start the Dagster UI and daemon on 127.0.0.1",
                                   description="Run `dagster dev` on 127.0.0.1 with the project's instance and workspace.")
    parser.add_argument("--port", type=int, default=3000)
    parser.set_defaults(func=run)
    daemon = subparsers.add_parser("daemon", help="run the Dagster daemon alone (sensors, schedules, run queue)",
                                   description="Run `dagster-daemon run` with the project's instance and workspace "
                                               "(a deployment's daemon; `housestyle ui` starts one of its own).")
    daemon.set_defaults(func=run_daemon)


def location_args(project: Path) -> list[str]:
    """-w <project>/workspace.yaml when the project has one, else -m assets.definitions."""
    workspace = project / WORKSPACE_FILE
    return ["-w", str(workspace)] if workspace.is_file() else ["-m", DEFAULT_MODULE]


def dev_command(port: int, project: Path) -> list[str]:
    return [sys.executable, "-m", "dagster", "dev", *location_args(project), "-h", "127.0.0.1", "-p", str(port)]


def daemon_command(project: Path) -> list[str]:
    return [sys.executable, "-m", "dagster._daemon", "run", *location_args(project)]


def _exec_in_project(command: list[str], project: Path) -> int:
    os.environ[ENV_ROOT] = str(project)
    os.chdir(project)
    os.execv(command[0], command)  # replaces this process: Ctrl-C / SIGTERM reach dagster directly
    return 0  # pragma: no cover


def run(args: argparse.Namespace) -> int:
    project = resolve_project()
    home = ensure_dagster_home(project)
    print(f"project {project}; DAGSTER_HOME={home}; UI on http://127.0.0.1:{args.port}", file=sys.stderr, flush=True)
    return _exec_in_project(dev_command(args.port, project), project)


def run_daemon(args: argparse.Namespace) -> int:
    project = resolve_project()
    home = ensure_dagster_home(project)
    print(f"project {project}; DAGSTER_HOME={home}; dagster-daemon", file=sys.stderr, flush=True)
    return _exec_in_project(daemon_command(project), project)
