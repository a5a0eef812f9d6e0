"""`housestyle review-import`: a filled review packet → inbox/<client>/decisions.parquet (append-only; every
later set of the client follows it); with --registration the rows are also filed for that registration's
precision gate. A linguist review in the older verdict format (convention_id, verdict, …; review-sample's)
is filed for the gate as before (pipelines/cli/review_files.py).
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.cells import write_csv_safe
from housestyle.pipelines.cli.inbox import inbox_root
from housestyle.pipelines.cli.review_files import (
    PACKET_SUFFIXES,
    VERDICT_SUFFIXES,
    file_verdict_review,
    opened_set,
    precision_gate_of,
)
from housestyle.pipelines.conventionset.decisions import DECISIONS_FILE, append_decisions, read_decisions
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.paths import client_path
from housestyle.pipelines.registration.review import precision_gate
from housestyle.pipelines.review.decide import decisions_from_rows, edit_summaries, review_frame
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.textinput import text_lines


def register(subparsers: Any) -> None:
    ri = subparsers.add_parser("review-import", help="record a filled review packet as the client's decisions",
                               description="Validates every filled row (all or nothing) and appends them to "
                                           "inbox/<client>/decisions.parquet; with --registration also files them "
                                           "for its precision gate.")
    ri.add_argument("review", type=Path, help="the filled packet (.xlsx/.csv), or a verdict file (.csv/.tsv/.parquet)")
    ri.add_argument("--conventions", required=True, type=Path, help="the reviewed set (folder with manifest.json)")
    ri.add_argument("--registration", type=Path, help="also file the linguists' rows for this registration's precision gate")
    ri.add_argument("--inbox", type=Path, default=None, help="inbox root (default: $HOUSESTYLE_INBOX, else <project>/inbox)")
    ri.add_argument("--dry-run", action="store_true", help="print what each edit will require; record nothing")
    ri.set_defaults(func=run)


def _is_verdict_file(path: Path) -> bool:
    """A review-sample verdict file (no ``decision`` column): filed for the precision gate as before."""
    if path.suffix.lower() not in VERDICT_SUFFIXES or path.suffix.lower() == ".csv" and _csv_has(path, "decision"):
        return False
    return True


def _csv_has(path: Path, column: str) -> bool:
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    first = next(text_lines(path, newline=""), (1, ""))[1]  # the header line alone: a bad byte further on is the reader's
    header = next(csv.reader([first]), [])
    return column in [h.strip() for h in header]


def run(args: argparse.Namespace) -> int:
    suffix = args.review.suffix.lower()
    if suffix not in (*PACKET_SUFFIXES, *VERDICT_SUFFIXES):
        raise InputError(f"a review file is one of {(*PACKET_SUFFIXES, *VERDICT_SUFFIXES[1:])}", path=str(args.review))
    if _is_verdict_file(args.review):
        if args.registration is None:
            raise InputError("a verdict file (no decision column) is only filed for a precision gate: give --registration",
                             path=str(args.review))
        return file_verdict_review(args.review, args.conventions, args.registration, inbox_root(args.inbox))
    return _import_decisions(args)


def _import_decisions(args: argparse.Namespace) -> int:
    from housestyle.pipelines.review.xlsx import read_packet  # openpyxl (most of a second): only when run

    opened = opened_set(args.conventions)
    client, version = str(opened.manifest["client"]), opened.set_version
    conventions = load_conventions(opened.conventions_file, validate=False)  # sealed; the edits are validated
    decisions = decisions_from_rows(read_packet(args.review), conventions, path=args.review, client=client,
                                    set_version=version)
    for line in edit_summaries(decisions, conventions):
        print(f"edit {line}")
    if args.dry_run:
        print(f"dry run: {decisions.height} decisions of set {version} checked, nothing recorded")
        return 0
    gate = precision_gate_of(args.registration, client)[1] if args.registration is not None else None
    inbox = inbox_root(args.inbox)
    path = client_path(inbox, client, DECISIONS_FILE)
    total = append_decisions(path, decisions)
    counts = {w: decisions.filter(decisions["decision"] == w).height for w in ("accept", "reject", "edit")}
    print(f"recorded {decisions.height} decisions of set {version} ({', '.join(f'{k} {v}' for k, v in counts.items())}) "
          f"→ {path} ({total} rows)")
    print(f"the next set of {client} follows them (the convention_set asset, or mine --decisions {path})")
    if gate is not None:
        dest = client_path(inbox, client, "review", f"{version}.csv")
        with atomic.file_lock(path):  # derived from the decisions as they are now, not as another import saw them
            of_set = read_decisions(path)
            of_set = of_set.filter(of_set["set_version"] == version)
            review = review_frame(of_set)
            dest.parent.mkdir(parents=True, exist_ok=True)
            atomic.write_with(dest, lambda tmp: write_csv_safe(review, tmp))
        prec = precision_gate(review, {c.convention_id for c in conventions}, gate.threshold, gate.params)
        value = "—" if prec.value is None else f"{prec.value:.3f}"
        print(f"{review.height} decisions of set {version} filed for the precision gate: {prec.judged} linguist "
              f"judgements, precision {value}; gate {gate.name} (>= {gate.threshold}): {prec.status}")
        print(f"filed as {dest}; miner_evaluation reads it for set {version}")
    return 0
