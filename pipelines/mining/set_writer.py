"""Write a mined set as rules_out/<client>/<set_version>/ exactly as SPEC §2 says, plus LATEST.

conventions.parquet and conventions.jsonl (one convention a line, sorted by id; the jsonl also
carries the miner's extra fields such as ``dice`` or ``variant``), evidence.parquet
(convention_id, unit_id, role), conflicts.parquet (reported, never resolved silently),
suspect_units.parquet (units the term rules left out as misaligned, with their test figures) and
manifest.json (written last: every file's sha256, ``store``). Every file is a pure function of its
content (sorted rows, sorted keys, no timestamps), so the same input gives byte-identical output.
The folder appears whole, in one rename, or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines import atomic
from housestyle.pipelines.rules.io import conventions_frame, derived_fields
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventionset.store import publish_set
from housestyle.pipelines.conventionset.version import SET_FORMAT, resource_versions, set_version_of
from housestyle.pipelines.fingerprint import code_version
from housestyle.pipelines.mining.conflicts import conflict_rows
from housestyle.pipelines.mining.heldout import heldout_table
from housestyle.pipelines.mining.merge import EVIDENCE_ORDER, EVIDENCE_SCHEMA, MiningResult, in_evidence_order
from housestyle.pipelines.mining.term_trace import TRACE_FILE, TRACE_SCHEMA
from housestyle.pipelines.paths import client_path

SUSPECT_SCHEMA = {"unit_id": pl.Utf8, "rules_in_scope": pl.Int64, "rules_failed": pl.Int64, "anchors_in_scope": pl.Int64,
                  "anchors_failed": pl.Int64, "p_value": pl.Float64}
CONFLICT_SCHEMA = {"kind": pl.Utf8, "dimension": pl.Utf8, "src": pl.Utf8, "resolved": pl.Boolean, "renderings": pl.Utf8}


@dataclass(frozen=True, slots=True)
class WrittenSet:
    set_version: str
    path: Path
    conventions: int


def _jsonl(conventions: list[Convention]) -> str:
    lines = []
    for conv in conventions:
        record = {k: v for k, v in conv.to_dict().items() if k != "extra"}
        record.update({k: v for k, v in derived_fields(conv).items() if v is not None})  # absent: not finite
        record.update({k: v for k, v in sorted(conv.extra.items()) if k not in record})
        lines.append(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
    return "".join(lines)


def write_set(result: MiningResult, *, client: str, rules_out: Path, inputs: Mapping[str, str],
              params: Mapping[str, Any], split: str | None, src_lang: str, tgt_lang: str) -> WrittenSet:
    """Publish the set (whole or not at all: ``store.publish_set``) and point LATEST at it."""
    conventions = sorted(result.conventions, key=lambda c: c.convention_id)
    version = set_version_of(conventions, inputs, params)
    client_dir = client_path(rules_out, client)
    evidence = result.evidence.select(list(EVIDENCE_SCHEMA)).cast(EVIDENCE_SCHEMA)
    if not in_evidence_order(evidence):  # the miner's table is in order: sorting it again copies it
        evidence = evidence.sort(*EVIDENCE_ORDER)
    conflicts = pl.DataFrame(conflict_rows(result.conflicts), schema=CONFLICT_SCHEMA)
    suspects = pl.DataFrame(result.suspects, schema=SUSPECT_SCHEMA).sort("unit_id")
    trace = pl.DataFrame(schema=TRACE_SCHEMA) if result.term_trace is None else result.term_trace  # explain reads it

    def write_files(folder: Path) -> None:  # inside the set's temporary folder: renamed whole
        (folder / "conventions.jsonl").write_text(_jsonl(conventions), encoding="utf-8")
        conventions_frame(conventions).write_parquet(folder / "conventions.parquet")
        evidence.write_parquet(folder / "evidence.parquet")
        conflicts.write_parquet(folder / "conflicts.parquet")
        suspects.write_parquet(folder / "suspect_units.parquet")
        trace.write_parquet(folder / TRACE_FILE)

    by_rule: dict[str, int] = {}
    by_status: dict[str, int] = {}
    for conv in conventions:
        by_rule[conv.rule] = by_rule.get(conv.rule, 0) + 1
        by_status[conv.status] = by_status.get(conv.status, 0) + 1
    manifest = {
        "format": SET_FORMAT, "set_version": version, "client": client, "code_version": code_version(),
        "resources": resource_versions(),
        "language_pairs": sorted({f"{c.src_lang or '*'}→{c.tgt_lang or '*'}" for c in conventions}),
        "src_lang": src_lang, "tgt_lang": tgt_lang,
        "split": split, "inputs": dict(sorted(inputs.items())), "params": dict(params),
        "conventions": len(conventions), "by_rule": dict(sorted(by_rule.items())),
        "by_status": dict(sorted(by_status.items())),
        "conflicts": conflicts.height, "evidence_rows": evidence.height, "suspect_units": suspects.height,
        "stats": {k: v for k, v in result.stats.items() if k != "decisions"},
        "heldout": heldout_table(conventions),  # per kind, after the review decisions (issue 25)
    }
    if "decisions" in result.stats:  # the review decisions the set follows (conventionset.decisions)
        manifest["decisions"] = result.stats["decisions"]
    set_dir = publish_set(client_dir / version, write_files, manifest)
    atomic.write_text(client_dir / "LATEST", version + "\n")
    return WrittenSet(version, set_dir, len(conventions))
