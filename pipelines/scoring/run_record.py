"""A scoring run folder is complete only when its ``run.json`` lists every table with its sha256.

The tables are written first (each atomically) and ``run.json`` last: it is the commit record.
Before the first table is replaced, the folder's previous ``run.json`` and report are withdrawn, so
a run killed half-way (SIGKILL, a full disk) leaves a folder with no ``run.json``, which every
reader (report, audit, copy into the set's runs, assets) refuses as incomplete — never new scores
beside an old failure list and an old report. A table changed after the commit (hand edit, a second
writer) no longer matches its hash and is refused the same way. ``report.html`` and ``audit.json``
are not in the record: the report is a view re-rendered from the verified tables, and
acknowledgements are bound to the failure list's own hash (``audit``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.conventionset.version import sha256_file
from housestyle.pipelines.errors import InputError

RUN_FILE = "run.json"
REPORT_FILE = "report.html"
AUDIT_FILE = "audit.json"
ISSUES_FILE = "issues.xlsx"  # a view, like the report: rendered from the committed failures
# The committed tables, in the order they are written (run.json after them).
TABLE_FILES = ("scores.parquet", "dimension_scores.parquet", "failures.parquet", "coverage.parquet",
               "adequacy.parquet", "conventions.jsonl")


def begin_run(run_dir: Path) -> Path:
    """Make ``run_dir`` ready for new tables: writable (checked before any long work), and with its
    previous commit record and report withdrawn so no reader takes a half-replaced run for whole."""
    run_dir = atomic.writable_folder(Path(run_dir))
    for name in (RUN_FILE, REPORT_FILE, ISSUES_FILE):
        (run_dir / name).unlink(missing_ok=True)
    atomic.remove_stale_temporaries(run_dir)
    return run_dir


def commit_run(run_dir: Path, record: Mapping[str, Any]) -> dict[str, Any]:
    """Write ``run.json`` (``record`` plus the sha256 of every table) after all tables are written."""
    run_dir = Path(run_dir)
    committed = {**record, "files": {name: sha256_file(run_dir / name) for name in TABLE_FILES}}
    atomic.write_text(run_dir / RUN_FILE, json.dumps(committed, indent=1, ensure_ascii=False) + "\n")
    return committed


def open_run(run_dir: Path) -> dict[str, Any]:
    """The run record of a complete run folder; ``InputError`` (one line naming the folder) for a
    missing, interrupted, altered or pre-commit-record run."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise InputError("no such scoring run folder", path=str(run_dir))
    path = run_dir / RUN_FILE
    if not path.is_file():
        raise InputError("incomplete scoring run: no run.json (interrupted, or still being written); score again",
                         path=str(run_dir))
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"run.json is not valid JSON: {exc}", path=str(path)) from None
    files = record.get("files") if isinstance(record, dict) else None
    if not isinstance(files, dict):
        raise InputError("run.json lists no table hashes (a run written before runs were committed, or not "
                         "a run): score again", path=str(path))
    missing = [name for name in TABLE_FILES if name not in files]
    if missing:
        raise InputError(f"run.json does not list {', '.join(missing)}: score again", path=str(path))
    for name, digest in sorted(files.items()):
        table = run_dir / name
        if not table.is_file():
            raise InputError(f"incomplete scoring run: {name} is missing; score again", path=str(run_dir))
        if sha256_file(table) != digest:
            raise InputError(f"incomplete scoring run: {name} does not match run.json (half-written or "
                             "changed after the run); score again", path=str(run_dir))
    return record


def copy_run(source: Path, target: Path) -> Path:
    """Copy a complete run into ``target`` in the same order it is written (tables, audit, the
    commit record, the report), so the copy too is whole or refused."""
    open_run(source)
    target = begin_run(target)
    for name in (*TABLE_FILES, AUDIT_FILE, RUN_FILE, REPORT_FILE, ISSUES_FILE):
        if (Path(source) / name).is_file():
            atomic.copy_file(Path(source) / name, target / name)
    return target
