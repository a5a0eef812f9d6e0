"""`housestyle ui`: `dagster dev` on 127.0.0.1 (webserver + daemon, so the sensor and schedule tick)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("ui", help="start the Dagster UI and daemon on 127.0.0.1",
                                   description="Run `dagster dev -m assets.definitions` on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=3000)
    parser.set_defaults(func=run)


def dev_command(port: int) -> list[str]:
    return [sys.executable, "-m", "dagster", "dev", "-m", "assets.definitions", "-h", "127.0.0.1", "-p", str(port)]


def run(args: argparse.Namespace) -> int:
    from assets.instance import ensure_dagster_home  # dagster: imported when the command runs
    from assets.resources import HousestyleSettings

    home = ensure_dagster_home()
    print(f"DAGSTER_HOME={home}; UI on http://127.0.0.1:{args.port}", file=sys.stderr, flush=True)
    os.chdir(HousestyleSettings().repo)
    command = dev_command(args.port)
    os.execv(command[0], command)  # replaces this process: Ctrl-C reaches dagster dev directly
    return 0  # pragma: no cover
