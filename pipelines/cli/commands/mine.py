"""`housestyle mine TM… --src en --tgt fr [--split NAME --splits FILE] --out DIR`.

``mine`` reads TMX/XLIFF/PO files, folders of them (a file's domain is its first sub-folder under
the folder given, as in inbox/<client>/tm/) or an already ingested tm_units.parquet, and writes
DIR/<client>/<set_version>/ (conventions.parquet/.jsonl, evidence.parquet, conflicts.parquet,
manifest.json) and DIR/<client>/LATEST.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.cli.ingest_report import add_strict, report_ingest
from housestyle.pipelines.conventionset.version import sha256_file
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.inbox_files import input_files
from housestyle.pipelines.ingest import domain_from_path, ingest_files
from housestyle.pipelines.paths import CLIENT_GRAMMAR, client_path


def register(subparsers: Any) -> None:
    mine = subparsers.add_parser("mine", help="mine a convention set from translation memories",
                                 description="Mine a client's conventions from its TM into a versioned set.")
    mine.add_argument("tm", nargs="+", type=Path, metavar="TM", help="TM files, folders, or a tm_units.parquet")
    mine.add_argument("--src", required=True, help="source language (e.g. en)")
    mine.add_argument("--tgt", required=True, help="target language (e.g. fr)")
    mine.add_argument("--split", help="mine only this split of --splits (default: all units)")
    mine.add_argument("--splits", type=Path, help="the client's splits.json")
    mine.add_argument("--client", default="local", help="client name: the folder under --out (default: local); one path segment: " + CLIENT_GRAMMAR)
    mine.add_argument("--contrast", type=Path, action="append", default=[], metavar="FILE",
                      help="contrast candidates (origin contrast, e.g. the negative_candidates asset's conventions.jsonl) "
                           "folded into the term rules, as the convention_set asset does; repeatable")
    mine.add_argument("--authored", type=Path, action="append", default=[], metavar="PATH",
                      help="hand-authored convention files or folders (like inbox/<client>/conventions/) added to the set, "
                           "as the convention_set asset does; repeatable")
    mine.add_argument("--glossary", type=Path, action="append", default=[], metavar="PATH",
                      help="the client's glossary conventions (files or folders like inbox/<client>/glossary/, written "
                           "by import-glossary): they stand for the mined rules of their terms, as in the "
                           "convention_set asset; repeatable")
    mine.add_argument("--decisions", type=Path, metavar="FILE",
                      help="the client's review decisions (inbox/<client>/decisions.parquet, written by review-import): "
                           "the set follows them, as the convention_set asset does")
    mine.add_argument("--out", required=True, type=Path, metavar="DIR", help="rules_out root")
    add_strict(mine)  # ingest report and exit status: pipelines/cli/ingest_report.py
    mine.set_defaults(func=run)


def _files(paths: list[Path]) -> tuple[list[Path], dict[Path, Path]]:
    """Input files and, for files found under a folder argument, that folder (for domains)."""
    files: list[Path] = []
    roots: dict[Path, Path] = {}
    for path in paths:
        if path.is_dir():
            for file in input_files(path):
                files.append(file)
                roots[file] = path
        elif path.is_file():
            files.append(path)
        else:
            raise InputError("no such file or folder", path=str(path))
    return files, roots


def run(args: argparse.Namespace) -> int:
    if (args.split is None) != (args.splits is None):
        raise InputError("--split and --splits go together", path=str(args.splits or "--split"))
    # Everything the environment can refuse is checked before the miner's libraries load (seconds)
    # and before ingesting and mining (minutes on a large TM).
    files, roots = _files(list(args.tm))
    authored, _ = _files(list(args.authored))
    glossary, _ = _files(list(args.glossary))
    for path in [*args.contrast, *([args.splits] if args.splits else []), *([args.decisions] if args.decisions else [])]:
        if not path.is_file():
            raise InputError("no such file", path=str(path))
    atomic.writable_folder(client_path(args.out, args.client, source="--client"))

    # the miner loads spaCy and its language data (seconds): only once the inputs are known good
    from housestyle.pipelines.mining.build_set import mine_to_set, read_sources
    from housestyle.pipelines.mining.corpus import read_units_for_mining

    sources = read_sources(contrast=args.contrast, authored=authored, decisions=args.decisions, glossary=glossary)
    # Inputs are named by file name (plus the folder path under a folder argument), never by an absolute
    # path, so the same files mined from another checkout give the same set_version.
    inputs = {(f.relative_to(roots[f]).as_posix() if f in roots else f.name): sha256_file(f) for f in files}
    if len(files) == 1 and files[0].suffix == ".parquet":
        units = read_units_for_mining(files[0])
    else:
        # The ingest's tables go to a pid-tagged hidden folder beside the sets, not to $TMPDIR: a mine
        # killed with SIGKILL runs no cleanup, and the next mine of the client removes what it left.
        client_out = client_path(args.out, args.client, source="--client")
        atomic.remove_stale_temporaries(client_out)
        tmp = atomic.temporary_name(client_out / "ingest")
        tmp.mkdir(parents=True)
        try:
            summary = ingest_files(files, client=args.client, out_dir=tmp,
                                   domain_of=lambda p: domain_from_path(p, roots[p]) if p in roots else None)
            units = read_units_for_mining(tmp / "tm_units.parquet")
            print(f"ingested {summary.units_kept:,} units ({summary.units_rejected:,} rejected) from {len(files)} file(s)")
            status = report_ingest(summary, tmp, args.strict)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        if status:
            return status  # --strict with rejects, or units unaccounted for: no set from partial data
    written, result = mine_to_set(units, src_lang=args.src, tgt_lang=args.tgt, client=args.client, rules_out=args.out,
                                  inputs=inputs, split=args.split, splits_file=args.splits, sources=sources)
    by_rule = result.stats.get("by_rule", {})
    print(f"mined {written.conventions} conventions from {result.stats.get('units', 0):,} units "
          f"({', '.join(f'{k} {v}' for k, v in by_rule.items())}); {len(result.conflicts)} conflicts reported")
    for line in (_glossary_line(written.path), _decisions_line(written.path)):
        if line:
            print(line)
    print(f"convention set: {written.path}")
    print(f"set_version:    {written.set_version}")
    return 0


def _glossary_line(set_dir: Path) -> str | None:
    """What the client's glossary did to the set (the manifest's ``stats.glossary`` block)."""
    block = json.loads((set_dir / "manifest.json").read_text(encoding="utf-8")).get("stats", {}).get("glossary")
    if not block:
        return None
    return (f"glossary: {block['conventions']} rules; {block['also_mined']} mined rules agreed (not written twice), "
            f"{block['conflicts']} contradicted it (reported in conflicts.parquet, kind glossary)")


def _decisions_line(set_dir: Path) -> str | None:
    """What the set made of the review decisions (its manifest's ``decisions`` block)."""
    block = json.loads((set_dir / "manifest.json").read_text(encoding="utf-8")).get("decisions")
    if not block:
        return None
    done = ", ".join(f"{k} {block['applied_by_decision'].get(k, 0)}" for k in ("accept", "reject", "edit"))
    status = ", ".join(f"{k} {v}" for k, v in block["by_status"].items())
    return (f"decisions: {block['applied']} applied ({done}), {block['unmatched']} match no rule of this set; "
            f"statuses: {status}")
