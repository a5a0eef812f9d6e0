"""Versioned scoring runs: load inputs, score, write every table + report + run.json.

A run id is derived from the convention set version and the sha256 of every input file (and the
code version), so the same inputs always land in the same run directory and a figure can be traced
to the exact rules and outputs. Runs of a set are stored under
``rules_out/<client>/<set_version>/runs/<run_id>/``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping, Sequence

from pipelines.conventions.io import load_conventions, resolve_conventions_path, write_conventions
from pipelines.conventions.model import canonical_json
from pipelines.errors import InputError
from pipelines.scoring.adequacy import adequacy_table
from pipelines.scoring.engine import score_systems
from pipelines.scoring.report import write_report
from pipelines.scoring.signature import code_version, set_hash
from pipelines.segments import load_segments

RUN_FILES = ("scores.parquet", "dimension_scores.parquet", "failures.parquet", "coverage.parquet",
             "adequacy.parquet", "conventions.jsonl", "run.json", "report.html")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def set_version_of(conventions_path: Path, fallback: str) -> str:
    """The set_version from a convention-set directory's manifest.json (beside the file), else
    ``fallback`` (``set-<hash of the convention ids>`` for a loose file)."""
    path = Path(conventions_path)
    manifest = (path if path.is_dir() else path.parent) / "manifest.json"
    if manifest.is_file():
        version = json.loads(manifest.read_text(encoding="utf-8")).get("set_version")
        if isinstance(version, str) and version:
            return version
    return fallback


def _input(path: Path) -> dict[str, str]:
    return {"path": str(path), "sha256": file_sha256(path)}


def plan_run(conventions_path: Path, source_path: Path, systems: Mapping[str, Path], references: Sequence[Path],
             set_version: str) -> tuple[str, dict[str, Any]]:
    """(run_id, inputs record): the id hashes the set version, every input's sha256 and the code version."""
    inputs: dict[str, Any] = {
        "conventions": _input(resolve_conventions_path(Path(conventions_path))),
        "source": _input(Path(source_path)),
        "systems": {name: _input(Path(p)) for name, p in sorted(systems.items())},
        "references": [_input(Path(p)) for p in references],
    }
    hashed = {
        "set_version": set_version, "code_version": code_version(),
        "conventions": inputs["conventions"]["sha256"], "source": inputs["source"]["sha256"],
        "systems": {k: v["sha256"] for k, v in inputs["systems"].items()},
        "references": [r["sha256"] for r in inputs["references"]],
    }
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
) -> Path:
    """Score ``systems`` (name → output file) against the conventions and write the run into
    ``out_dir``: scores / dimension_scores / failures / coverage / adequacy .parquet, a copy of the
    conventions, run.json and report.html (labelled unaudited until acknowledged). Sources are read
    on their source side, outputs and references on their target side (TMX/XLIFF/PO)."""
    conventions = load_conventions(Path(conventions_path))
    version = set_version or set_version_of(Path(conventions_path), f"set-{set_hash(conventions)}")
    run_id, inputs = plan_run(Path(conventions_path), Path(source_path), systems, references, version)
    sources = load_segments(Path(source_path), side="source")
    outputs = {name: load_segments(Path(p), side="target") for name, p in systems.items()}
    refs = [load_segments(Path(p), side="target") for p in references]
    names = list(reference_names) if reference_names else _reference_names(references)
    result = score_systems(conventions, sources, outputs)
    adequacy = adequacy_table(outputs, refs, sources, reference_names=names)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    result.scores.write_parquet(out / "scores.parquet")
    result.dimension_scores.write_parquet(out / "dimension_scores.parquet")
    result.failures.write_parquet(out / "failures.parquet")
    result.coverage.write_parquet(out / "coverage.parquet")
    adequacy.write_parquet(out / "adequacy.parquet")
    write_conventions(conventions, out / "conventions.jsonl")
    run = {
        "run_id": run_id, "set_version": version, "signature": result.signature,
        "adequacy_signatures": sorted(set(adequacy["signature"].to_list())),
        "code_version": code_version(), "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "segments": len(sources), "conventions": len(conventions), "systems": list(outputs),
        "reference_names": names, "inputs": inputs,
    }
    (out / "run.json").write_text(json.dumps(run, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    write_report(out)
    return out


def _reference_names(references: Sequence[Path]) -> list[str]:
    names = [Path(p).stem for p in references]
    return names if len(set(names)) == len(names) else [f"{n}#{i + 1}" for i, n in enumerate(names)]


def run_dir_for(rules_out: Path, client: str, set_version: str, run_id: str) -> Path:
    return Path(rules_out) / client / set_version / "runs" / run_id


def store_run(run_dir: Path, rules_out: Path, client: str) -> Path:
    """Copy a finished run into ``rules_out/<client>/<set_version>/runs/<run_id>/`` (from run.json)."""
    run_path = Path(run_dir) / "run.json"
    if not run_path.is_file():
        raise InputError("not a scoring run directory (no run.json)", path=str(run_dir))
    run = json.loads(run_path.read_text(encoding="utf-8"))
    target = run_dir_for(rules_out, client, run["set_version"], run["run_id"])
    if target.resolve() == Path(run_dir).resolve():
        return target
    target.mkdir(parents=True, exist_ok=True)
    for name in (*RUN_FILES, "audit.json"):
        if (Path(run_dir) / name).exists():
            shutil.copy2(Path(run_dir) / name, target / name)
    return target


def score_into_set(
    rules_out: Path, client: str, conventions_path: Path, source_path: Path,
    systems: Mapping[str, Path], references: Sequence[Path], *, reference_names: Sequence[str] | None = None,
) -> Path:
    """Score and write straight into the set's runs folder (what the ``scoring_run`` asset uses)."""
    conventions = load_conventions(Path(conventions_path), regex_guard=False)  # full checks in run_scoring
    version = set_version_of(Path(conventions_path), f"set-{set_hash(conventions)}")
    run_id, _ = plan_run(Path(conventions_path), Path(source_path), systems, references, version)
    return run_scoring(conventions_path, source_path, systems, references,
                       run_dir_for(rules_out, client, version, run_id),
                       reference_names=reference_names, set_version=version)
