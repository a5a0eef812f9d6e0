"""Versioned scoring runs: load inputs, score, write every table + report + run.json.

A run id is derived from the convention set version and the sha256 of every input file (and the
code version), so the same inputs always land in the same run directory and a figure can be traced
to the exact rules and outputs. Runs of a set are stored under
``rules_out/<client>/<set_version>/runs/<run_id>/``.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping, Sequence

import polars as pl

from housestyle.pipelines import atomic
from housestyle.pipelines.rules.io import load_conventions, write_conventions
from housestyle.pipelines.conventions.model import Convention, canonical_json
from housestyle.pipelines.scoring.adequacy import adequacy_table
from housestyle.pipelines.scoring.builtin import builtin_conventions
from housestyle.pipelines.scoring.delivery import input_digest, load_segments_at
from housestyle.pipelines.scoring.engine import ScoreResult, dimension_table, score_systems
from housestyle.pipelines.scoring.ignores import apply_ignores, empty_ignores, read_ignores
from housestyle.pipelines.scoring.issues import issue_list_title, issue_rows, write_issues
from housestyle.pipelines.scoring.verdicts import DEFAULT_THRESHOLD, empty_outputs, mark_inherited, readable, recount
from housestyle.pipelines.conventionset.store import convention_source
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.scoring.audit import acknowledge, audit_status
from housestyle.pipelines.scoring.report import write_report
from housestyle.pipelines.scoring.run_record import (
    ISSUES_FILE,
    begin_run,
    commit_run,
    copy_run,
    open_run,
)
from housestyle.pipelines.fingerprint import code_version
from housestyle.pipelines.scoring.signature import set_hash
from housestyle.pipelines.conventions.statuses import SCORED_STATUSES, parse_statuses, select_statuses, status_mix

LOG = logging.getLogger("housestyle.scoring")
APPROVED = "\x00approved"  # the approved target, scored beside the systems to tell inherited failures apart

def open_conventions(conventions_path: Path, *, regex_guard: bool = True) -> tuple[Path, list[Convention], str]:
    """(conventions file, its conventions, set_version): a set folder (or a file of one) is read only
    when complete (``conventionset.store``) and carries its manifest's version; a loose file is
    ``set-<hash of the convention ids>``."""
    file, opened = convention_source(Path(conventions_path))
    conventions = load_conventions(file, regex_guard=regex_guard)
    return file, conventions, opened.set_version if opened else f"set-{set_hash(conventions)}"


def _input(path: Path) -> dict[str, str]:
    return {"path": str(path), "sha256": input_digest(path)}


def plan_run(conventions_path: Path, source_path: Path, systems: Mapping[str, Path], references: Sequence[Path],
             set_version: str, statuses: Sequence[str] = SCORED_STATUSES, *, ignores_path: Path | None = None,
             threshold: float = DEFAULT_THRESHOLD, builtin: bool = True) -> tuple[str, dict[str, Any]]:
    """(run_id, inputs record) for a conventions FILE: the id hashes the set version, every input's
    sha256, the code version and the status selection (the same set scored under another selection
    is another run, never an overwrite), and the client's ignores file and threshold when given."""
    inputs: dict[str, Any] = {
        "conventions": _input(Path(conventions_path)),
        "source": _input(Path(source_path)),
        "systems": {name: _input(Path(p)) for name, p in sorted(systems.items())},
        "references": [_input(Path(p)) for p in references],
    }
    hashed = {
        "set_version": set_version, "code_version": code_version(),
        "conventions": inputs["conventions"]["sha256"], "source": inputs["source"]["sha256"],
        "systems": {k: v["sha256"] for k, v in inputs["systems"].items()},
        "references": [r["sha256"] for r in inputs["references"]],
        "statuses": sorted(statuses),
    }
    # what decides the verdicts is an input too: new ignores or another threshold make another run
    if ignores_path is not None and Path(ignores_path).is_file():
        inputs["ignores"] = _input(Path(ignores_path))
        hashed["ignores"] = inputs["ignores"]["sha256"]
    if threshold != DEFAULT_THRESHOLD:
        hashed["threshold"] = threshold
    if not builtin:
        hashed["builtin"] = False
    run_id = hashlib.sha256(canonical_json(hashed).encode("utf-8")).hexdigest()[:16]
    return run_id, inputs


def run_scoring(
    conventions_path: Path,
    source_path: Path,
    systems: Mapping[str, Path],
    references: Sequence[Path],
    out_dir: Path,
    *,
    reference_names: Sequence[str] | None = None,
    set_version: str | None = None,
    statuses: Sequence[str] = SCORED_STATUSES,
    threshold: float = DEFAULT_THRESHOLD,
    ignores_path: Path | None = None,
    builtin: bool = True,
    client: str | None = None,
) -> Path:
    """Score ``systems`` (name → output file) against the conventions and write the run into
    ``out_dir``: scores / dimension_scores / failures / coverage / adequacy .parquet, a copy of the
    conventions, run.json and report.html (labelled unaudited until acknowledged). Sources are read
    on their source side, outputs and references on their target side (TMX/XLIFF/PO).

    Only conventions whose status is in ``statuses`` are scored (``statuses.py``); run.json records
    the selection, the set's status mix and how many conventions were left out per status, and
    the run's conventions.jsonl holds the scored conventions (the built-in checks of ``builtin.py``
    included unless ``builtin`` is false).

    The first reference is the approved target: a failure it shares is ``inherited`` (``verdicts``);
    items recorded in ``ignores_path`` are ignored, not failed; each system passes or fails against
    ``threshold`` (SCS over new errors). ``issues.xlsx`` is written beside the report.

    Whole or refused: the tables are written first, ``run.json`` (their hashes) last
    (``run_record``); an unwritable ``out_dir`` or a missing input is reported before any work."""
    atomic.writable_folder(Path(out_dir))
    for given in [Path(conventions_path), Path(source_path), *map(Path, systems.values()), *map(Path, references)]:
        if not given.exists():  # before the conventions' regex probe and the scoring
            raise InputError("no such file", path=str(given))
    statuses = parse_statuses(statuses)  # an unknown status is refused before any work
    file, in_set, found_version = open_conventions(Path(conventions_path))
    version = set_version or found_version
    conventions, left_out = select_statuses(in_set, statuses)
    if APPROVED in systems:
        raise InputError(f"system name {APPROVED!r} is reserved", path=str(systems[APPROVED]))
    if builtin and "validated" in statuses:  # the built-in checks are validated conventions
        conventions = [*conventions, *builtin_conventions(conventions)]
    run_id, inputs = plan_run(file, Path(source_path), systems, references, version, statuses,
                              ignores_path=ignores_path, threshold=threshold, builtin=builtin)
    ignores = read_ignores(ignores_path) if ignores_path is not None else empty_ignores()
    sources = load_segments_at(Path(source_path), side="source")
    outputs = {name: load_segments_at(Path(p), side="target") for name, p in systems.items()}
    refs = [load_segments_at(Path(p), side="target") for p in references]
    names = list(reference_names) if reference_names else _reference_names(references)
    scored = score_systems(conventions, sources, {**outputs, **({APPROVED: refs[0]} if refs else {})}, statuses=statuses)
    result, empty = judged(scored, conventions, sources, outputs, refs[0] if refs else None, ignores)
    for name, n in empty.items():
        if n:
            LOG.warning("system %s: %d empty output(s) for non-empty sources", name, n)
    adequacy = adequacy_table(outputs, refs, sources, reference_names=names)
    out = begin_run(Path(out_dir))
    atomic.write_with(out / "scores.parquet", result.scores.write_parquet)
    atomic.write_with(out / "dimension_scores.parquet", result.dimension_scores.write_parquet)
    atomic.write_with(out / "failures.parquet", result.failures.write_parquet)
    atomic.write_with(out / "coverage.parquet", result.coverage.write_parquet)
    atomic.write_with(out / "adequacy.parquet", adequacy.write_parquet)
    write_conventions(conventions, out / "conventions.jsonl")
    run = {
        "run_id": run_id, "set_version": version, "signature": result.signature,
        "adequacy_signatures": sorted(set(adequacy["signature"].to_list())),
        "code_version": code_version(), "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "segments": len(sources), "conventions": len(conventions), "systems": list(outputs),
        "statuses": list(statuses), "status_mix": status_mix(in_set), "left_out": left_out,
        "reference_names": names, "inputs": inputs, "client": client, "threshold": threshold,
        "approved": names[0] if names else None, "ignores": ignores.height, "empty_outputs": empty,
        "builtin": sorted(c.dimension for c in conventions if c.extra.get("builtin")),
    }
    commit_run(out, run)
    write_views(out, conventions, Path(source_path).name)
    return out


def judged(scored: ScoreResult, conventions: Sequence[Convention], sources: Mapping[str, str],
           outputs: Mapping[str, Mapping[str, str]], approved: Mapping[str, str] | None,
           ignores: pl.DataFrame) -> tuple[ScoreResult, dict[str, int]]:
    """The systems' tables without the approved target's, each failure readable and marked
    inherited / ignored, scores recounted (ignored = not failed), coverage with ``empty`` outputs."""
    mine = pl.col("system") != APPROVED
    failures = readable(scored.failures, conventions)
    if approved is not None:
        failures = mark_inherited(failures.filter(mine), failures.filter(~mine), set(approved))
    else:
        failures = failures.with_columns(pl.lit(None, dtype=pl.Boolean).alias("inherited"))
    failures = apply_ignores(failures, conventions, ignores)
    scores = recount(scored.scores.filter(mine), failures)
    empty = empty_outputs(sources, outputs)
    coverage = scored.coverage.filter(mine).with_columns(
        pl.col("system").replace_strict(empty, default=0, return_dtype=pl.Int64).alias("empty"))
    return ScoreResult(scores, dimension_table(scores), failures, coverage, scored.signature), empty


def write_views(run_dir: Path, conventions: Sequence[Convention], source_file: str) -> None:
    """The views of a committed run: report.html and issues.xlsx (re-rendered from the tables)."""
    write_report(run_dir)
    run = open_run(run_dir)
    title = issue_list_title(run.get("client"), run.get("set_version"), run.get("run_id"))
    failures = pl.read_parquet(run_dir / "failures.parquet")
    write_issues(issue_rows(failures, conventions, source_file), run_dir / ISSUES_FILE, title)


def _reference_names(references: Sequence[Path]) -> list[str]:
    names = [Path(p).stem for p in references]
    return names if len(set(names)) == len(names) else [f"{n}#{i + 1}" for i, n in enumerate(names)]


def run_dir_for(rules_out: Path, client: str, set_version: str, run_id: str) -> Path:
    return Path(rules_out) / client / set_version / "runs" / run_id


def store_run(run_dir: Path, rules_out: Path, client: str) -> Path:
    """Copy a finished run into ``rules_out/<client>/<set_version>/runs/<run_id>/`` (from run.json)."""
    run = open_run(Path(run_dir))
    target = run_dir_for(rules_out, client, run["set_version"], run["run_id"])
    if target.resolve() == Path(run_dir).resolve():
        return target
    return copy_run(Path(run_dir), target)


def acknowledge_run(run_dir: Path, reviewer: str, note: str) -> tuple[str, str]:
    """Record the acknowledgement (``audit``) and re-render the report with its new label; returns
    the audit status. Refuses an incomplete run before recording anything."""
    acknowledge(Path(run_dir), reviewer, note)
    write_report(Path(run_dir))
    return audit_status(Path(run_dir))


def score_into_set(
    rules_out: Path, client: str, conventions_path: Path, source_path: Path,
    systems: Mapping[str, Path], references: Sequence[Path], *, reference_names: Sequence[str] | None = None,
    statuses: Sequence[str] = SCORED_STATUSES, threshold: float = DEFAULT_THRESHOLD, ignores_path: Path | None = None,
) -> Path:
    """Score and write straight into the set's runs folder (what the ``scoring_run`` asset uses)."""
    statuses = parse_statuses(statuses)
    file, _, version = open_conventions(Path(conventions_path), regex_guard=False)  # full checks in run_scoring
    run_id, _ = plan_run(file, Path(source_path), systems, references, version, statuses,
                         ignores_path=ignores_path, threshold=threshold)
    return run_scoring(conventions_path, source_path, systems, references,
                       run_dir_for(rules_out, client, version, run_id),
                       reference_names=reference_names, set_version=version, statuses=statuses,
                       threshold=threshold, ignores_path=ignores_path, client=client)
