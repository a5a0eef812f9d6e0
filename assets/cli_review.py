"""`housestyle review-export | review-import`: the linguists' decision loop (SPEC §3).

review-export  a set's review packet (XLSX or CSV): one row per convention, readable, with examples.
review-import  a filled packet → inbox/<client>/decisions.parquet (append-only; every later set of the
               client follows it); with --registration the rows are also filed for that
               registration's precision gate. A linguist review in the older verdict format
               (convention_id, verdict, …; review-sample's) is filed for the gate as before.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from housestyle.pipelines.cells import write_csv_safe
from housestyle.pipelines.errors import InputError, RegistrationError
from housestyle.pipelines.paths import client_path

if TYPE_CHECKING:
    import polars as pl

    from housestyle.pipelines.conventionset.store import OpenedSet

PACKET_SUFFIXES = (".xlsx", ".csv")
VERDICT_SUFFIXES = (".csv", ".tsv", ".parquet")  # review-sample's verdict files


def register(subparsers: Any) -> None:
    ex = subparsers.add_parser("review-export", help="the review packet of a convention set (XLSX or CSV)",
                               description="One row per convention, sorted by support: forms, evidence and "
                                           "counter-examples with the match marked, empty decision columns.")
    ex.add_argument("--conventions", required=True, type=Path, help="a set folder (rules_out/<client>/<set_version>/)")
    ex.add_argument("--out", required=True, type=Path, help="FILE.xlsx or FILE.csv")
    ex.add_argument("--rules", default="", help="only these rule types, comma-separated (term,pattern,…)")
    ex.add_argument("--status", default="", help="only these statuses, comma-separated (candidate,validated,…), or all "
                    "(default: every status but suggested)")
    ex.add_argument("--tm-units", type=Path, help="tm_units.parquet of the TM the set was mined from (default: the "
                                                  "client's tm_units table or inbox/<client>/tm/ files the set names)")
    ex.add_argument("--inbox", type=Path, default=None, help="inbox root (default: $HOUSESTYLE_INBOX, else <project>/inbox)")
    ex.set_defaults(func=run_review_export)

    ri = subparsers.add_parser("review-import", help="record a filled review packet as the client's decisions",
                               description="Validates every filled row (all or nothing) and appends them to "
                                           "inbox/<client>/decisions.parquet; with --registration also files them "
                                           "for its precision gate.")
    ri.add_argument("review", type=Path, help="the filled packet (.xlsx/.csv), or a verdict file (.csv/.tsv/.parquet)")
    ri.add_argument("--conventions", required=True, type=Path, help="the reviewed set (folder with manifest.json)")
    ri.add_argument("--registration", type=Path, help="also file the linguists' rows for this registration's precision gate")
    ri.add_argument("--inbox", type=Path, default=None, help="inbox root (default: $HOUSESTYLE_INBOX, else <project>/inbox)")
    ri.add_argument("--dry-run", action="store_true", help="print what each edit will require; record nothing")
    ri.set_defaults(func=run_review_import)


def _csv_list(text: str, known: tuple[str, ...], option: str) -> list[str]:
    """``a,b`` → [a, b]; a word that is not one of ``known`` is refused (it would select nothing)."""
    words = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [w for w in words if w not in known]
    if unknown:
        raise InputError(f"unknown {option} value(s) {', '.join(unknown)} (one of {', '.join(known)})", path=option)
    return words


def _inbox(explicit: Path | None) -> Path:
    """--inbox, else $HOUSESTYLE_INBOX, else the project's inbox/ (``housestyle.pipelines.project``, the resolver
    every command uses), without importing Dagster (seconds) for a command that does not run it."""
    from housestyle.pipelines.project import project_folder

    return project_folder("inbox", explicit)


def _opened(path: Path) -> OpenedSet:
    from housestyle.pipelines.conventionset.store import convention_source

    _file, opened = convention_source(path)
    if opened is None or not opened.manifest.get("client"):
        raise InputError("not a convention set folder (its manifest names the client and the set_version)", path=str(path))
    return opened


def _units_from_inbox(opened: OpenedSet, inbox: Path, tmp: Path) -> tuple[pl.DataFrame | None, str]:
    """The TM units the set names among its inputs: the client's tm_units table (asset route) or
    the inbox/<client>/tm/ files with the same name and sha256 (``mine`` route), ingested afresh."""
    import polars as pl

    from housestyle.assets.inbox import is_regular, tm_files
    from housestyle.pipelines.conventionset.version import sha256_file
    from housestyle.pipelines.ingest import domain_from_path, ingest_files

    client, inputs = str(opened.manifest["client"]), dict(opened.manifest.get("inputs", {}))
    if "tm_units" in inputs:
        from housestyle.assets.resources import HousestyleSettings

        table = HousestyleSettings().tm_units_path(client)
        if table.is_file() and sha256_file(table) == inputs["tm_units"]:
            return pl.read_parquet(table, columns=["unit_id", "source", "target"]), str(table)
    tm_root = client_path(inbox, client, "tm")
    named = [f for f in tm_files(inbox, client)
             if is_regular(f) and inputs.get(f.relative_to(tm_root).as_posix()) == sha256_file(f)]
    if not named:
        return None, ""
    ingest_files(named, client=client, out_dir=tmp, domain_of=lambda p: domain_from_path(p, tm_root))
    return pl.read_parquet(tmp / "tm_units.parquet", columns=["unit_id", "source", "target"]), \
        ", ".join(str(f) for f in named)


def run_review_export(args: argparse.Namespace) -> int:
    from housestyle.pipelines import atomic

    suffix = args.out.suffix.lower()
    if suffix not in PACKET_SUFFIXES:
        raise InputError(f"the packet is {' or '.join(PACKET_SUFFIXES)}", path=str(args.out))
    from housestyle.pipelines.conventions.model import RULE_TYPES, STATUSES

    rules = _csv_list(args.rules, RULE_TYPES, "--rules")
    statuses = STATUSES if args.status.strip() == "all" else _csv_list(args.status, STATUSES, "--status")
    opened = _opened(args.conventions)
    atomic.writable_folder(args.out.parent)

    import polars as pl

    from housestyle.assets.cli_registration import _read_tm_units
    from housestyle.pipelines.rules.io import load_conventions
    from housestyle.pipelines.review.packet import build_packet, write_csv
    from housestyle.pipelines.review.xlsx import write_xlsx

    conventions = load_conventions(opened.conventions_file, validate=False)  # sealed: validated when it was written
    files = opened.files
    evidence = pl.read_parquet(opened.path / "evidence.parquet") if "evidence.parquet" in files else \
        pl.DataFrame(schema={"convention_id": pl.Utf8, "unit_id": pl.Utf8, "role": pl.Utf8})
    conflicts = pl.read_parquet(opened.path / "conflicts.parquet") if "conflicts.parquet" in files else None
    units: pl.DataFrame | None
    with tempfile.TemporaryDirectory(prefix="housestyle-review-") as tmp:
        if args.tm_units:
            units, where = _read_tm_units(args.tm_units), str(args.tm_units)
        else:
            units, where = _units_from_inbox(opened, _inbox(args.inbox), Path(tmp))
    packet = build_packet(conventions, client=str(opened.manifest["client"]), set_version=opened.set_version,
                          evidence=evidence, conflicts=conflicts, units=units,
                          rules=rules, statuses=statuses)
    (write_xlsx if suffix == ".xlsx" else write_csv)(packet, args.out)
    print(f"{len(packet.rows)} of {len(conventions)} rules of set {opened.set_version} → {args.out}")
    if units is None:
        print("no TM units found for the set's inputs (give --tm-units): examples show no texts", file=sys.stderr)
    else:
        print(f"examples from {where}")
    print("fill decision (accept | reject | edit), expected_terms / wrong_variants for edits, comment, reviewer, "
          "reviewer_role; then: housestyle review-import FILE --conventions SET")
    return 0


def _is_verdict_file(path: Path) -> bool:
    """A review-sample verdict file (no ``decision`` column): filed for the precision gate as before."""
    if path.suffix.lower() not in VERDICT_SUFFIXES or path.suffix.lower() == ".csv" and _csv_has(path, "decision"):
        return False
    return True


def _csv_has(path: Path, column: str) -> bool:
    import csv

    if not path.is_file():
        raise InputError("file not found", path=str(path))
    with path.open(encoding="utf-8-sig", newline="") as handle:
        header = next(csv.reader(handle), [])
    return column in [h.strip() for h in header]


def run_review_import(args: argparse.Namespace) -> int:
    suffix = args.review.suffix.lower()
    if suffix not in (*PACKET_SUFFIXES, *VERDICT_SUFFIXES):
        raise InputError(f"a review file is one of {(*PACKET_SUFFIXES, *VERDICT_SUFFIXES[1:])}", path=str(args.review))
    if _is_verdict_file(args.review):
        from housestyle.assets.cli_registration import file_verdict_review

        if args.registration is None:
            raise InputError("a verdict file (no decision column) is only filed for a precision gate: give --registration",
                             path=str(args.review))
        return file_verdict_review(args.review, args.conventions, args.registration, _inbox(args.inbox))
    return _import_decisions(args)


def _import_decisions(args: argparse.Namespace) -> int:
    from housestyle.pipelines import atomic
    from housestyle.pipelines.rules.io import load_conventions
    from housestyle.pipelines.conventionset.decisions import DECISIONS_FILE, append_decisions, read_decisions
    from housestyle.pipelines.review.decide import decisions_from_rows, edit_summaries, review_frame
    from housestyle.pipelines.review.xlsx import read_packet

    opened = _opened(args.conventions)
    client, version = str(opened.manifest["client"]), opened.set_version
    conventions = load_conventions(opened.conventions_file, validate=False)  # sealed; the edits are validated
    decisions = decisions_from_rows(read_packet(args.review), conventions, path=args.review, client=client,
                                    set_version=version)
    for line in edit_summaries(decisions, conventions):
        print(f"edit {line}")
    if args.dry_run:
        print(f"dry run: {decisions.height} decisions of set {version} checked, nothing recorded")
        return 0
    gate = _precision_gate(args.registration, client) if args.registration is not None else None
    inbox = _inbox(args.inbox)
    path = client_path(inbox, client, DECISIONS_FILE)
    total = append_decisions(path, decisions)
    counts = {w: decisions.filter(decisions["decision"] == w).height for w in ("accept", "reject", "edit")}
    print(f"recorded {decisions.height} decisions of set {version} ({', '.join(f'{k} {v}' for k, v in counts.items())}) "
          f"→ {path} ({total} rows)")
    print(f"the next set of {client} follows them (the convention_set asset, or mine --decisions {path})")
    if gate is not None:
        from housestyle.pipelines.registration.review import precision_gate

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


def _reg_dir(registration: Path) -> Path:
    return registration.parent if registration.is_file() else registration


def _precision_gate(registration: Path, client: str) -> Any:
    from housestyle.pipelines.registration.freeze import load_registration

    reg_dir = _reg_dir(registration)
    reg = load_registration(reg_dir)
    if reg.client != client:
        raise RegistrationError(f"{reg_dir}: registration of client {reg.client!r}, the set is of {client!r}")
    gates = [g for g in reg.gates if g.metric == "precision_under_review"]
    if not gates:
        raise RegistrationError(f"{reg_dir}: registration has no precision_under_review gate")
    return gates[0]
