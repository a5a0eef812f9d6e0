"""Segments from a delivery as it comes: one file, a folder, or a zip of bilingual files mirroring the TM.

A folder or zip holds many files whose unit ids repeat across files (every PO file has its own
msgids), so each id is qualified by its file: ``<file>::<id>``, the file's path relative to the
folder (or inside the zip). Source and systems are matched on those ids, so a delivery that mirrors
the TM's layout is scored file by file. An id repeated within one file is an error naming the file
and line, never silently dropped. Bounded: regular files only (no symlinks, nothing outside the
folder), at most ``MAX_FILES`` files; zip members are bounded by the ingest containers' limits.
"""

from __future__ import annotations

import hashlib
from pathlib import Path, PurePosixPath

from housestyle.pipelines.conventionset.version import sha256_file
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.readers.base import Reject
from housestyle.pipelines.segments import Side, load_segments

MAX_FILES = 10_000
SUFFIXES = (".xlf", ".xliff", ".po", ".tmx", ".tsv", ".jsonl", ".sdlxliff", ".mxliff")


def _qualified(out: dict[str, str], file: str, seg_id: str, text: str, where: str, location: object) -> None:
    key = f"{file}::{seg_id}"
    if key in out:
        raise InputError(f"repeated segment id {seg_id!r} in {file}", path=where, location=str(location))
    out[key] = text


def folder_files(root: Path) -> list[Path]:
    base = root.resolve()
    files: list[Path] = []
    for path in sorted(root.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        if path.suffix.lower() not in SUFFIXES:
            continue
        if not path.resolve().is_relative_to(base):
            raise InputError("refused: a file resolves outside the folder", path=str(path))
        files.append(path)
        if len(files) > MAX_FILES:
            raise InputError(f"refused: more than {MAX_FILES:,} files", path=str(root))
    return files


def _load_zip(path: Path, side: Side | None) -> dict[str, str]:
    from housestyle.pipelines.readers.registry import iter_units

    out: dict[str, str] = {}
    members: set[str] = set()
    for label, item in iter_units(path):
        member = label.split("!", 1)[1] if "!" in label else Path(label).name
        parts = PurePosixPath(member.replace("\\", "/")).parts
        if member.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]):
            raise InputError(f"refused: member {member!r} names a path outside the archive", path=str(path))
        members.add(member)
        if len(members) > MAX_FILES:
            raise InputError(f"refused: more than {MAX_FILES:,} members", path=str(path))
        if isinstance(item, Reject):
            raise InputError(f"unusable unit: {item.reason}", path=label, location=item.location)
        text = item.source if side == "source" else (item.target if side == "target" else (item.target or item.source))
        if text is None:
            continue
        _qualified(out, member, item.unit_id, text, label, item.line if item.line is not None else item.unit_id)
    return out


def input_digest(path: Path) -> str:
    """sha256 of a file, or of a folder's files (relative path and content), so a run id changes
    with any delivered file."""
    path = Path(path)
    if not path.is_dir():
        return sha256_file(path)
    lines = [f"{f.relative_to(path).as_posix()}\t{sha256_file(f)}" for f in folder_files(path)]
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def load_segments_at(path: Path, *, side: Side | None = None) -> dict[str, str]:
    """``{segment_id: text}`` from a file (ids as the file has them, ``segments.load_segments``), a
    folder or a ``.zip`` (ids qualified by file, ``<file>::<id>``)."""
    path = Path(path)
    if path.is_dir():
        out: dict[str, str] = {}
        for file in folder_files(path):
            rel = file.relative_to(path).as_posix()
            for seg_id, text in _strict(file, side).items():
                _qualified(out, rel, seg_id, text, str(file), seg_id)
        return out
    if path.suffix.lower() == ".zip":
        return _load_zip(path, side)
    return load_segments(path, side=side)


def _strict(file: Path, side: Side | None) -> dict[str, str]:
    """One file's segments; an id repeated in it is an error even when its texts agree."""
    if file.suffix.lower() in (".tsv", ".jsonl"):
        return load_segments(file, side=side)
    from housestyle.pipelines.readers.registry import iter_units

    out: dict[str, str] = {}
    seen: set[str] = set()
    for label, item in iter_units(file):
        if isinstance(item, Reject):
            raise InputError(f"unusable unit: {item.reason}", path=label, location=item.location)
        if item.unit_id in seen:
            raise InputError(f"repeated segment id {item.unit_id!r}", path=str(file),
                             location=item.line if item.line is not None else item.unit_id)
        seen.add(item.unit_id)
        text = item.source if side == "source" else (item.target if side == "target" else (item.target or item.source))
        if text is not None:
            out[item.unit_id] = text
    return out
