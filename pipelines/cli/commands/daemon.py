"""`housestyle daemon`: the Dagster daemon alone (sensors, schedules, run queue) on the project's instance
and workspace, for a deployment (`housestyle ui` starts one of its own)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from housestyle.pipelines.cli.dagster_home import ensure_dagster_home
from housestyle.pipelines.cli.dagster_processes import daemon_command, exec_in_project
from housestyle.pipelines.project import resolve_project


def register(subparsers: Any) -> None:
    daemon = subparsers.add_parser("daemon", help="run the Dagster daemon alone (sensors, schedules, run queue)",
                                   description="Run `dagster-daemon run` with the project's instance and workspace "
                                               "(a deployment's daemon; `housestyle ui` starts one of its own).")
    daemon.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    project = resolve_project()
    home = ensure_dagster_home(project)
    print(f"project {project}; DAGSTER_HOME={home}; dagster-daemon", file=sys.stderr, flush=True)
    return exec_in_project(daemon_command(project), project)
