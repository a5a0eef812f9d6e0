"""`housestyle audit --ack RUN_DIR --by NAME [--note …]`: acknowledge a run's failure list (scores stop being `unaudited`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("audit", help="acknowledge that a scoring run's failure list was reviewed",
                                   description="Record that someone read a scoring run's failure list.")
    parser.add_argument("--ack", required=True, type=Path, metavar="RUN_DIR", help="the scoring run folder")
    parser.add_argument("--by", required=True, metavar="NAME", help="who reviewed it")
    parser.add_argument("--note", default="", help="free text kept with the acknowledgement")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from housestyle.pipelines.scoring.runs import acknowledge_run  # the scorer's libraries (seconds): only when run

    status, detail = acknowledge_run(args.ack, args.by, args.note)
    print(f"acknowledged {args.ack}: {status} — {detail}")
    return 0
