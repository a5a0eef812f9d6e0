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
from pathlib import Path
from typing import Any

from pipelines.conventions.io import write_conventions
from pipelines.conventions.model import Convention, canonical_json
from pipelines.scoring.signature import code_version

SET_FORMAT = "housestyle-convention-set/1"


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


def _write_text_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def publish_set(conventions: Sequence[Convention], *, client: str, rules_out: Path,
                inputs: Mapping[str, str], split: str | None = None,
                extra_manifest: Mapping[str, Any] | None = None) -> PublishedSet:
    """Write conventions.jsonl/.parquet + manifest.json under rules_out/<client>/<set_version>/ and point LATEST at it."""
    version = set_version_of(conventions, inputs)
    client_dir = rules_out / client
    set_dir = client_dir / version
    set_dir.mkdir(parents=True, exist_ok=True)
    ordered = sorted(conventions, key=lambda c: c.convention_id)
    write_conventions(ordered, set_dir / "conventions.jsonl")
    write_conventions(ordered, set_dir / "conventions.parquet")
    pairs = _language_pairs(conventions)
    manifest = {"format": SET_FORMAT, "set_version": version, "client": client, "code_version": code_version(),
                "conventions": len(conventions), "language_pairs": pairs, "inputs": dict(inputs), "split": split,
                **dict(extra_manifest or {})}
    _write_text_atomic(set_dir / "manifest.json", json.dumps(manifest, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    _write_text_atomic(client_dir / "LATEST", version + "\n")
    return PublishedSet(set_version=version, path=set_dir, conventions=len(conventions), language_pairs=pairs)
