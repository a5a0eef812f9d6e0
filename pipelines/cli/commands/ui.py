"""`housestyle ui`: `dagster dev` (webserver + daemon on 127.0.0.1) on the project's instance and workspace,
beside a read-only server of rules_out/ that each scoring run's report links to (pipelines/reports_server.py).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from housestyle.pipelines.cli.dagster_home import ensure_dagster_home
from housestyle.pipelines.cli.dagster_processes import dev_command, exec_in_project
from housestyle.pipelines.project import project_folder, resolve_project
from housestyle.pipelines.reports_server import ENV_REPORTS_URL, reports_base, start_reports_server


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("ui", help="start the Dagster UI and daemon on 127.0.0.1",
                                   description="Run `dagster dev` on 127.0.0.1 with the project's instance and workspace.")
    parser.add_argument("--port", type=int, default=3000, help="the UI's port on 127.0.0.1 (default 3000)")
    parser.add_argument("--reports-port", type=int, default=None,
                        help="port of the reports server (serves rules_out/ read-only; default: --port + 1)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    project = resolve_project()
    home = ensure_dagster_home(project)
    reports_port = args.reports_port if args.reports_port is not None else args.port + 1
    os.environ[ENV_REPORTS_URL] = reports_base(reports_port)  # the scoring_run asset links its report there
    start_reports_server(project_folder("rules_out", project=lambda: project), reports_port)
    print(f"project {project}; DAGSTER_HOME={home}\n"
          f"UI:      http://127.0.0.1:{args.port}  (open it in a browser)\n"
          f"reports: {reports_base(reports_port)}  (each scoring_run links its report here)\n"
          "stop:    Ctrl-C in this terminal stops the UI, the daemon and the reports server", file=sys.stderr, flush=True)
    return exec_in_project(dev_command(args.port, project), project)
