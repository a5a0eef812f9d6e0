"""`housestyle score --conventions PATH --source FILE --system NAME=FILE … [--reference FILE …] [--status S,…] --out DIR` (SPEC.md §3)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines import atomic
from housestyle.pipelines.cli.inbox import client_folder
from housestyle.pipelines.cli.text_table import NO_VALUE, text_table
from housestyle.pipelines.conventions.statuses import parse_statuses
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.scoring.client_settings import client_threshold
from housestyle.pipelines.scoring.ignores import IGNORES_FILE
from housestyle.pipelines.scoring.run_record import AUDIT_FILE, open_run
from housestyle.pipelines.scoring.summary import system_summary
from housestyle.pipelines.scoring.verdicts import DEFAULT_THRESHOLD, system_verdicts


def system_arg(value: str) -> tuple[str, Path]:
    """NAME=FILE → (name, path)."""
    name, sep, path = value.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=FILE, got {value!r}")
    return name, Path(path)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("score", help="score system outputs against a convention set",
                                   description="Score one or more systems against a convention set; "
                                               "writes scores.parquet, failures.parquet, adequacy and report.html.")
    parser.add_argument("--conventions", required=True, type=Path, metavar="PATH",
                        help="convention file (JSONL, JSON, Parquet, YAML) or a convention set folder")
    parser.add_argument("--source", required=True, type=Path, metavar="FILE",
                        help="source segments (TMX/XLIFF/PO/TSV/JSONL), or a folder / .zip of them (ids <file>::<id>)")
    parser.add_argument("--system", required=True, action="append", type=system_arg, metavar="NAME=FILE",
                        help="a system's outputs; repeat for several systems")
    parser.add_argument("--reference", action="append", type=Path, default=[], metavar="FILE",
                        help="reference translations for adequacy (chrF, BLEU); repeat for multi-reference")
    parser.add_argument("--status", default=None, metavar="S,…",
                        help="score only conventions with these statuses (comma-separated, or all; default: "
                             "candidate,validated; rejected is scored only when named)")
    parser.add_argument("--threshold", type=float, default=None, metavar="SCS",
                        help="pass / fail each system on its SCS over new errors (default: the client's "
                             "inbox/<client>/settings.json threshold with --client, else 95)")
    parser.add_argument("--client", default=None, metavar="NAME",
                        help="the client: its settings.json threshold and ignores.parquet apply")
    parser.add_argument("--inbox", type=Path, default=None, help="inbox root (default: <project>/inbox)")
    parser.add_argument("--no-builtin", action="store_true",
                        help="score only the set's conventions, without the built-in placeholder and number checks")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    systems: dict[str, Path] = {}
    for name, path in args.system:
        if name in systems:
            raise ConfigError(f"--system {name} given twice")
        systems[name] = path
    statuses = parse_statuses(args.status)  # a typo is one line, before anything is read
    # A new, empty or earlier-run --out is built in a temporary folder and renamed at the end (a full disk
    # leaves no torn run); a folder holding other files is written into, as it always was.
    whole = not args.out.exists() or (args.out.is_dir() and (not any(args.out.iterdir()) or (args.out / "run.json").is_file()))
    # before the scorer's libraries load (run_scoring checks again); a new --out is not created yet
    atomic.writable_folder(args.out if args.out.exists() or not whole else args.out.parent)

    # the scorer loads spaCy, sacrebleu and the rule checkers (seconds): only once the options are good
    from housestyle.pipelines.scoring.runs import run_scoring

    threshold, ignores = _client_inputs(args)

    def build(out: Path) -> Path:
        if out != args.out and (args.out / AUDIT_FILE).is_file():  # an acknowledgement of this run stays
            atomic.copy_file(args.out / AUDIT_FILE, out / AUDIT_FILE)
        return run_scoring(args.conventions, args.source, systems, list(args.reference), out, statuses=statuses,
                           threshold=threshold, ignores_path=ignores, builtin=not args.no_builtin, client=args.client)

    run_dir = atomic.replace_dir(args.out, build) if whole else build(args.out)
    scores, coverage = pl.read_parquet(run_dir / "scores.parquet"), pl.read_parquet(run_dir / "coverage.parquet")
    summary = system_summary(scores, coverage, pl.read_parquet(run_dir / "adequacy.parquet"), list(systems))
    verdicts = {r["system"]: r for r in system_verdicts(scores, coverage, list(systems), threshold).iter_rows(named=True)}
    rows = [{**row, "score": NO_VALUE if row["scs"] is None else row["scs"], **{
        k: verdicts[row["system"]][k] for k in ("new", "inherited", "ignored", "empty_outputs", "verdict")}}
        for row in summary.to_dicts()]
    print(text_table(rows, ["system", "scored", "passed", "missing", "score", "new", "inherited", "ignored",
                            "empty_outputs", "verdict"]))
    print(f"threshold: SCS over new errors >= {threshold:g}")
    print(f"\nstatuses scored: {'+'.join(statuses)}{_left_out(run_dir)}")
    print(f"run: {run_dir}")
    if (run_dir / "report.html").is_file():
        print(f"report: {run_dir / 'report.html'}")
    return 0


def _client_inputs(args: argparse.Namespace) -> tuple[float, Path | None]:
    """(threshold, ignores file): --threshold, else the client's settings.json, else the default;
    the client's ignores.parquet with --client."""
    if args.threshold is not None and not 0 <= args.threshold <= 100:
        raise ConfigError(f"--threshold must be from 0 to 100, got {args.threshold:g}")
    if args.client is None:
        return (DEFAULT_THRESHOLD if args.threshold is None else args.threshold), None
    client_dir = client_folder(args.inbox, args.client)
    threshold = client_threshold(client_dir) if args.threshold is None else args.threshold
    return threshold, client_dir / IGNORES_FILE


def _left_out(run_dir: Path) -> str:
    """'; left out: rejected 3' from run.json (empty when nothing was left out)."""
    left = open_run(run_dir).get("left_out") or {}
    return "; left out: " + ", ".join(f"{s} {n}" for s, n in left.items()) if left else ""
