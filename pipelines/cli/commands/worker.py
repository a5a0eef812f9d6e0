"""`housestyle worker`: a Celery worker for the celery code location (services extra), on the project's
instance, with its celery.yaml (broker and backend from the environment)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from housestyle.pipelines.cli.dagster_home import ensure_dagster_home
from housestyle.pipelines.cli.dagster_processes import CELERY_FILE, exec_in_project, resolved_celery_config, worker_command
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.project import resolve_project


def register(subparsers: Any) -> None:
    worker = subparsers.add_parser("worker", help="run a Celery worker for the celery executor (services extra)",
                                   description="Run `dagster-celery worker start` on the project's instance, with "
                                               "its celery.yaml (broker and backend from the environment).")
    worker.add_argument("--name", default=None, help="worker name (default: dagster-<random>@<host>)")
    worker.add_argument("celery_args", nargs=argparse.REMAINDER, metavar="-- CELERY_ARGS",
                        help="passed on to `celery worker` (e.g. -- --pool=solo)")
    worker.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    project = resolve_project()
    if not (project / CELERY_FILE).is_file():
        raise ConfigError(f"{project / CELERY_FILE} not found: create the project with `housestyle init DIR --executor celery`")
    home = ensure_dagster_home(project)
    print(f"project {project}; DAGSTER_HOME={home}; celery worker", file=sys.stderr, flush=True)
    return exec_in_project(worker_command(resolved_celery_config(project, home), args.name, args.celery_args), project)
