"""Convention set folders are whole or refused: ``manifest.json``, written last, lists every file of
the set with its sha256, and the one reader (``open_set`` / ``convention_source``) checks them.

A set is built in a temporary folder beside its final place (``housestyle.pipelines.atomic.atomic_dir``) with
its manifest written last, then renamed into ``rules_out/<client>/<set_version>/``: a killed or
failed ``mine`` leaves at most a hidden temporary (removed by the next writer), never a folder that
looks like a set. A folder without a manifest, with one that lists no hashes (written before sets
were sealed), or with a file that does not match its hash is refused — ``score``, ``diff``,
``evaluate``, ``review-*`` and the assets all read sets through ``convention_source``, so none of
them can score against a half-written set under a made-up version. ``evaluation.json`` and
``runs/`` are added to a sealed set later and are not part of it (evaluating never changes a set).
The manifest's ``seal`` hashes its client, set_version and file hashes together, so the client a set
belongs to (which review-import turns into a path) is covered like its files; a client field that is
not a client name (``housestyle.pipelines.paths``) is refused even in a set sealed before seals existed.

This module imports nothing from the miner: the checker reads sets through it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.conventionset.version import sha256_file
from housestyle.pipelines.errors import InputError, OutputError
from housestyle.pipelines.paths import CLIENT_GRAMMAR, is_client_name

MANIFEST_FILE = "manifest.json"
MAX_MANIFEST_BYTES = 16 << 20  # a manifest is a few kB (the 1M-unit set's: 5.7 kB); a larger one is not read
CONVENTION_FILES = ("conventions.parquet", "conventions.jsonl")  # the first present is the one read
# Files whose presence marks a folder as a set folder (so a file given from it needs its manifest).
SET_MARKERS = (*CONVENTION_FILES, "evidence.parquet", "conflicts.parquet", "suspect_units.parquet", MANIFEST_FILE)


@dataclass(frozen=True, slots=True)
class OpenedSet:
    """A verified set folder: every file its manifest lists is there with the listed sha256."""

    path: Path
    manifest: dict[str, Any]

    @property
    def set_version(self) -> str:
        return str(self.manifest["set_version"])

    @property
    def files(self) -> dict[str, str]:
        return dict(self.manifest["files"])

    @property
    def conventions_file(self) -> Path:
        return next(self.path / name for name in CONVENTION_FILES if name in self.manifest["files"])


def seal_of(manifest: Mapping[str, Any]) -> str:
    """sha256 over the client, the set_version and the file hashes: a set's owner is covered by its
    hashes like its files (an edited ``client`` field is refused, not trusted to build a path)."""
    payload = {"client": manifest.get("client"), "set_version": manifest.get("set_version"),
               "files": dict(sorted(dict(manifest.get("files") or {}).items()))}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def _refuse(path: Path, why: str) -> InputError:
    return InputError(f"incomplete convention set: {why}; mine it again", path=str(path))


def open_set(folder: Path) -> OpenedSet:
    """Verify a set folder against its manifest (``InputError``, one line naming the folder, when it
    is missing, interrupted, altered or from before sets were sealed)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("no such convention set folder", path=str(folder))
    path = folder / MANIFEST_FILE
    if not path.is_file():
        raise _refuse(folder, "no manifest.json (mining was interrupted, or this is not a set folder)")
    if path.stat().st_size > MAX_MANIFEST_BYTES:
        raise InputError(f"manifest.json is over {MAX_MANIFEST_BYTES:,} bytes: not a set's manifest", path=str(path))
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"manifest.json is not valid JSON: {exc}", path=str(path)) from None
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        raise _refuse(folder, "manifest.json lists no file hashes (a set written before sets were sealed)")
    if not isinstance(manifest.get("set_version"), str) or not manifest["set_version"]:
        raise _refuse(folder, "manifest.json has no set_version")
    if not any(name in files for name in CONVENTION_FILES):
        raise _refuse(folder, "manifest.json lists no conventions file")
    client = manifest.get("client")
    if client is not None and not is_client_name(client):
        raise InputError(f"manifest.json names client {str(client)[:80]!r}, not a client name ({CLIENT_GRAMMAR})",
                         path=str(path))
    if "seal" in manifest and manifest["seal"] != seal_of(manifest):
        raise _refuse(folder, "manifest.json's client, set_version or file list was changed after it was sealed")
    for name, digest in sorted(files.items()):
        if Path(name).name != name or name == MANIFEST_FILE:
            raise _refuse(folder, f"manifest.json lists {name!r}, which is not a file of the set folder")
        if not (folder / name).is_file():
            raise _refuse(folder, f"{name} is missing")
        if sha256_file(folder / name) != digest:
            raise _refuse(folder, f"{name} does not match manifest.json (half-written or changed)")
    return OpenedSet(folder, manifest)


def convention_source(path: Path) -> tuple[Path, OpenedSet | None]:
    """What a ``--conventions PATH`` names: the conventions file to load and its verified set, or
    None for a loose convention file (the seed's hand-written JSONL, an authored YAML file). A set
    folder, or a file inside a folder that holds set files, must be a complete set."""
    path = Path(path)
    if path.is_dir():
        opened = open_set(path)
        return opened.conventions_file, opened
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    folder = path.parent
    if any((folder / name).is_file() for name in SET_MARKERS if name != path.name):
        opened = open_set(folder)
        if path.name not in opened.files:
            raise InputError(f"not a file of the convention set in {folder} (its manifest lists "
                             f"{', '.join(sorted(opened.files))})", path=str(path))
        return path, opened
    return path, None


def publish_set(set_dir: Path, write_files: Callable[[Path], None], manifest: Mapping[str, Any]) -> Path:
    """Build a set in a temporary folder (``write_files(folder)`` writes its files), seal it with
    ``manifest`` plus every file's sha256 (written last), and rename it to ``set_dir``.

    Set folders are named by a content hash, so a complete set already at ``set_dir`` is the same
    set and is kept (with its evaluation and runs); an incomplete one there is discarded first."""
    set_dir = Path(set_dir)
    atomic.remove_stale_temporaries(set_dir.parent)
    if _complete(set_dir):
        return set_dir
    atomic.discard(set_dir)
    try:
        with atomic.atomic_dir(set_dir) as building:
            write_files(building)
            files = {p.name: sha256_file(p) for p in sorted(building.iterdir()) if p.is_file()}
            sealed = {**manifest, "files": files}
            sealed["seal"] = seal_of(sealed)
            text = json.dumps(sealed, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
            (building / MANIFEST_FILE).write_text(text, encoding="utf-8")
    except FileExistsError:  # a concurrent writer of the same version finished first
        if not _complete(set_dir):
            raise
    return set_dir


def _complete(set_dir: Path) -> bool:
    try:
        open_set(set_dir)
    except InputError:
        return False
    return True


def sealed_set_at(folder: Path) -> bool:
    """Whether ``folder`` holds a convention set's manifest (its file hashes and set_version)."""
    manifest = folder / MANIFEST_FILE
    try:
        if not manifest.is_file() or manifest.stat().st_size > MAX_MANIFEST_BYTES:
            return False
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "set_version" in data and isinstance(data.get("files"), dict)


def refuse_output_into_set(out: Path, option: str = "--out") -> None:
    """Refuse an output place that is a sealed set's folder or a file (or folder) directly in it:
    ``score --out SET`` wrote its run's ``conventions.jsonl`` over the set's and ``publish --out
    SET/conventions.jsonl`` replaced it, leaving a set every command refuses ("mine it again").
    Deeper places (``SET/runs/…``) do not touch the set's files."""
    place = Path(os.path.realpath(out))
    for folder in (place, place.parent):
        if sealed_set_at(folder):
            raise OutputError(f"{option} {'is' if folder == place else 'is inside'} the sealed convention set {folder}: "
                              "a set is never changed after it is sealed; write elsewhere", path=str(out))
