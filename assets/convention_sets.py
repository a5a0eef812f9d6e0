"""Publish a convention set as a versioned folder rules_out/<client>/<set_version>/ (SPEC.md §2).

set_version = hash of the conventions (their ids), the inputs' hashes and the code version, so the
same rules from the same inputs always land in the same folder and a scoring run can be traced to
them. Writing is idempotent; LATEST is replaced atomically.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import polars as pl

from pipelines.conventions.model import Convention, canonical_json

SET_FORMAT = "housestyle-convention-set/1"


def code_version() -> str:
    """The installed housestyle version (part of every set_version and signature)."""
    try:
        return metadata.version("housestyle")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class PublishedSet:
    """Where a set was written and under which version."""

    set_version: str
    path: Path
    conventions: int
    language_pairs: list[str]


def set_version_of(conventions: Sequence[Convention], inputs: Mapping[str, str]) -> str:
    """sha256 over sorted convention ids, input hashes and code version; first 16 hex digits."""
    payload = {"conventions": sorted(c.convention_id for c in conventions), "inputs": dict(inputs),
               "code_version": code_version(), "format": SET_FORMAT}
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()[:16]


def _language_pairs(conventions: Sequence[Convention]) -> list[str]:
    return sorted({f"{c.src_lang or '*'}→{c.tgt_lang or '*'}" for c in conventions})


def _records(conventions: Sequence[Convention]) -> list[dict[str, Any]]:
    return [c.to_dict() for c in sorted(conventions, key=lambda c: c.convention_id)]


def _write_text_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def conventions_frame(conventions: Sequence[Convention]) -> pl.DataFrame:
    """The Parquet form: one row per convention; ``params`` as canonical JSON text (its shape varies by rule)."""
    rows = _records(conventions)
    for row in rows:
        row["params"] = canonical_json(row["params"] or {})
    schema = {"expected_terms": pl.List(pl.Utf8), "wrong_variants": pl.List(pl.Utf8),
              "evidence_unit_ids": pl.List(pl.Utf8), "counter_unit_ids": pl.List(pl.Utf8)}
    return pl.DataFrame(rows, schema_overrides=schema, infer_schema_length=None)


def publish_set(conventions: Sequence[Convention], *, client: str, rules_out: Path,
                inputs: Mapping[str, str], split: str | None = None,
                extra_manifest: Mapping[str, Any] | None = None) -> PublishedSet:
    """Write conventions.jsonl/.parquet + manifest.json under rules_out/<client>/<set_version>/ and point LATEST at it."""
    version = set_version_of(conventions, inputs)
    client_dir = rules_out / client
    set_dir = client_dir / version
    set_dir.mkdir(parents=True, exist_ok=True)
    lines = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in _records(conventions))
    _write_text_atomic(set_dir / "conventions.jsonl", lines)
    conventions_frame(conventions).write_parquet(set_dir / "conventions.parquet")
    pairs = _language_pairs(conventions)
    manifest = {"format": SET_FORMAT, "set_version": version, "client": client, "code_version": code_version(),
                "conventions": len(conventions), "language_pairs": pairs, "inputs": dict(inputs), "split": split,
                **dict(extra_manifest or {})}
    _write_text_atomic(set_dir / "manifest.json", json.dumps(manifest, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    _write_text_atomic(client_dir / "LATEST", version + "\n")
    return PublishedSet(set_version=version, path=set_dir, conventions=len(conventions), language_pairs=pairs)
