"""`housestyle register | evaluate | review-sample`: the pre-registered gold comparison.

register      freeze a registration spec (registrations/specs/<client>.json) into a new version.
evaluate      gates → verdict → claim for one convention set; writes evaluation.json beside the set.
review-sample draw N rules of a set for linguist review, reproducibly (seeded by the set version).

``review-import`` (assets/cli_review.py) is one command for review packets and for the verdict files
review-sample draws: ``file_verdict_review`` below files the latter where miner_evaluation finds it
(inbox/<client>/review/<set_version>.<ext>), printing the precision it gives.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from housestyle.pipelines import atomic
from housestyle.pipelines.cells import write_csv_safe
from housestyle.pipelines.errors import InputError, RegistrationError
from housestyle.pipelines.paths import CLIENT_GRAMMAR, client_name, client_path, under
from housestyle.pipelines.project import project_folder, resolve_project

if TYPE_CHECKING:
    import polars as pl

REVIEW_SUFFIXES = (".csv", ".tsv", ".parquet")


def register(subparsers: Any) -> None:
    reg = subparsers.add_parser("register", help="freeze a gold registration for a client (a new version)",
                                description="Freeze gold files, splits hash and gates into registrations/<client>/vN/.")
    source = reg.add_mutually_exclusive_group(required=True)
    source.add_argument("--spec", type=Path, help="registration spec JSON (gold, splits, gates, claim_levels)")
    source.add_argument("--client", help="use registrations/specs/<CLIENT>.json (one path segment: " + CLIENT_GRAMMAR + ")")
    reg.add_argument("--root", type=Path, default=None,
                     help="folder the spec's paths are relative to (default: the project, as for every command)")
    reg.set_defaults(func=run_register)

    ev = subparsers.add_parser("evaluate", help="judge a convention set against a frozen registration",
                               description="Gate results, verdict and claim level; writes evaluation.json beside the set.")
    ev.add_argument("--registration", required=True, type=Path, help="registrations/<client>/<version>/")
    ev.add_argument("--conventions", required=True, type=Path, help="a set folder or a conventions file")
    ev.add_argument("--tm-units", type=Path, help="tm_units.parquet (default: ingest inbox/<client>/tm/ afresh)")
    ev.add_argument("--review", type=Path, help="linguist review (CSV/TSV/Parquet) for the precision gate")
    ev.add_argument("--inbox", type=Path, default=None, help="inbox root (default: $HOUSESTYLE_INBOX, else <project>/inbox)")
    ev.add_argument("--no-write", action="store_true", help="print only; do not write evaluation.json")
    ev.add_argument("--strict", action="store_true", help="exit 1 when the verdict is fail")
    ev.set_defaults(func=run_evaluate)

    rs = subparsers.add_parser("review-sample", help="draw rules for linguist review (reproducible)",
                               description="A uniform sample of N rules, seeded by the set version.")
    rs.add_argument("--conventions", required=True, type=Path)
    rs.add_argument("-n", type=int, default=50, help="sample size (default 50)")
    rs.add_argument("--out", required=True, type=Path, help=".csv or .parquet to write")
    rs.add_argument("--tm-units", type=Path, help="tm_units.parquet the set was mined from: each row then shows "
                                                  "its first evidence unit (example_source, example_target)")
    rs.set_defaults(func=run_review_sample)


def run_register(args: argparse.Namespace) -> int:
    from housestyle.pipelines.registration.freeze import (
        freeze_registration,
        load_registration,
        read_spec,
    )

    root = args.root if args.root is not None else resolve_project()
    spec_path = args.spec or under(root / "registrations" / "specs", f"{client_name(args.client, source='--client')}.json")
    if not spec_path.is_file():
        raise RegistrationError(f"{spec_path}: no registration spec")
    reg_dir = freeze_registration(read_spec(spec_path), root=root)
    reg = load_registration(reg_dir, root=root)
    print(f"froze {reg.client} {reg.version} at {reg_dir}")
    print(f"registration_hash {reg.registration_hash}")
    for gate in reg.gates:
        print(f"  gate {gate.name}: {gate.metric} on {gate.split or '-'} >= {gate.threshold} (on fail: {gate.on_fail})")
    return 0


def _ingest_client(inbox: Path, client: str, out_dir: Path) -> Path:
    """tm_units of inbox/<client>/tm/ (domain = first sub-folder), ingested into ``out_dir``."""
    from housestyle.assets.inbox import tm_files
    from housestyle.pipelines.ingest import domain_from_path, ingest_files

    files = tm_files(inbox, client)
    if not files:
        raise InputError("no translation memories to attest gold against (give --tm-units)", path=str(client_path(inbox, client, "tm")))
    tm_root = client_path(inbox, client, "tm")
    ingest_files(files, client=client, out_dir=out_dir, domain_of=lambda p: domain_from_path(p, tm_root))
    return out_dir / "tm_units.parquet"


def run_evaluate(args: argparse.Namespace) -> int:
    from housestyle.pipelines.registration.evaluate import evaluate, set_directory
    from housestyle.pipelines.registration.freeze import load_registration

    reg_dir = args.registration.parent if args.registration.is_file() else args.registration
    reg = load_registration(reg_dir)  # verify first: a tampered registration is reported before any ingest
    with tempfile.TemporaryDirectory(prefix="housestyle-eval-") as tmp:
        units = _read_tm_units(args.tm_units, ("unit_id", "source", "target", "domain")) if args.tm_units \
            else _ingest_client(project_folder("inbox", args.inbox), reg.client, Path(tmp))
        result = evaluate(reg_dir, args.conventions, units, args.review)
    for line in result.summary_lines():
        print(line)
    for gate in result.gates:
        missed = gate.detail.get("missed") or []
        if missed:
            shown = ", ".join(m.get("gold_id") or f"{m['source']} → {m['target']}" for m in missed[:10])
            print(f"  {gate.name} missed {len(missed)}: {shown}{' …' if len(missed) > 10 else ''}")
    if not args.no_write:
        print(f"wrote {result.write(set_directory(args.conventions))}")
    return 1 if args.strict and result.verdict == "fail" else 0


def _read_tm_units(path: Path, columns: tuple[str, ...] = ("unit_id", "source", "target")) -> pl.DataFrame:
    """A tm_units table given on the command line: a missing or foreign file is one line, exit 2."""
    import polars as pl

    if not path.is_file():
        raise InputError("file not found", path=str(path))
    try:
        return pl.read_parquet(path, columns=list(columns))
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise InputError(f"not a tm_units table ({', '.join(columns)}): {exc}", path=str(path)) from None


def run_review_sample(args: argparse.Namespace) -> int:
    from housestyle.pipelines.registration.evaluate import load_set
    from housestyle.pipelines.registration.review import review_sample

    cset = load_set(args.conventions)
    units = _read_tm_units(args.tm_units) if args.tm_units else None
    sample = review_sample(cset.conventions, args.n, cset.set_version, units)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_with(args.out, sample.write_parquet if args.out.suffix.lower() == ".parquet"
                      else lambda tmp: write_csv_safe(sample, tmp))
    print(f"{sample.height} of {len(cset.conventions)} rules of set {cset.set_version} → {args.out}")
    print("fill verdict (correct/incorrect), comment, reviewer, reviewer_role (linguist); engineers' rows never count")
    return 0


def file_verdict_review(review: Path, conventions: Path, registration: Path, inbox: Path) -> int:
    """``review-import`` of a verdict file (convention_id, verdict, …): checked, copied to
    inbox/<client>/review/<set_version>.<ext> for the registration's precision gate."""
    from housestyle.pipelines.registration.evaluate import load_set
    from housestyle.pipelines.registration.freeze import load_registration
    from housestyle.pipelines.registration.review import precision_gate, read_review

    suffix = review.suffix.lower()
    if suffix not in REVIEW_SUFFIXES:
        raise InputError(f"review file must be one of {REVIEW_SUFFIXES}", path=str(review))
    frame = read_review(review)
    cset = load_set(conventions)
    reg_dir = registration.parent if registration.is_file() else registration
    reg = load_registration(reg_dir)
    gates = [g for g in reg.gates if g.metric == "precision_under_review"]
    if not gates:
        raise RegistrationError(f"{reg_dir}: registration has no precision_under_review gate")
    prec = precision_gate(frame, {c.convention_id for c in cset.conventions}, gates[0].threshold, gates[0].params)
    dest = client_path(inbox, reg.client, "review", f"{cset.set_version}{suffix}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    atomic.copy_file(review, dest)
    value = "—" if prec.value is None else f"{prec.value:.3f}"
    interval = "" if prec.interval is None else f" (Wilson 95% {prec.interval[0]:.3f}–{prec.interval[1]:.3f})"
    print(f"{frame.height} rows: {prec.judged} linguist judgements, precision {value}{interval}; ignored {prec.ignored}")
    print(f"gate {gates[0].name} (>= {gates[0].threshold}): {prec.status}{' — ' + prec.reason if prec.reason else ''}")
    print(f"filed as {dest}; miner_evaluation reads it for set {cset.set_version}")
    return 0
