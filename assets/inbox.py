"""What a client's drop folder holds, and a fingerprint of it (the sensor's cursor).

Documentation files (README, PROVENANCE, LICENSE notes, *.md) and hidden files are not inputs: they
sit beside the data to keep licence notes with it. Every other file is handed to ingest, so an
unsupported file becomes a visible file-level reject instead of being skipped silently.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pipelines.conventionset.version import sha256_file

NOT_INPUT_SUFFIXES = (".md", ".rst")
NOT_INPUT_STEMS = ("readme", "provenance", "license", "licence", "notice", "copying")


def is_input_file(path: Path) -> bool:
    """True for a file a pipeline should read (not a hidden file or a documentation note)."""
    if not path.is_file() or any(part.startswith(".") for part in path.parts[-1:]):
        return False
    name = path.name.lower()
    return not (name.endswith(NOT_INPUT_SUFFIXES) or name.split(".")[0] in NOT_INPUT_STEMS)


def input_files(folder: Path) -> list[Path]:
    """Input files under ``folder`` (recursively), sorted so runs are reproducible."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if is_input_file(p))


def tm_files(inbox: Path, client: str) -> list[Path]:
    return input_files(inbox / client / "tm")


def system_files(inbox: Path, client: str) -> list[Path]:
    """inbox/<client>/systems/: one file per system, the file stem is the system name."""
    folder = inbox / client / "systems"
    return sorted(p for p in folder.iterdir() if is_input_file(p)) if folder.is_dir() else []


def clients_with_tm(inbox: Path) -> list[str]:
    """Client folders that have a tm/ folder (empty or not)."""
    if not inbox.is_dir():
        return []
    return sorted(p.name for p in inbox.iterdir() if p.is_dir() and not p.name.startswith(".") and (p / "tm").is_dir())


def fingerprint(files: list[Path], root: Path) -> str:
    """Hash of (relative path, size, mtime_ns) of every file: changes when a file appears, goes or changes."""
    digest = hashlib.sha256()
    for path in files:
        stat = path.stat()
        digest.update(f"{path.relative_to(root).as_posix()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def content_fingerprint(files: list[Path], root: Path) -> str:
    """Hash of (relative path, sha256 of the content) of every file: a touched but unchanged file keeps it,
    a renamed, added, removed or rewritten one changes it. The version of a source asset (assets/freshness.py)."""
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(f"{path.relative_to(root).as_posix()}\0{sha256_file(path)}\n".encode())
    return digest.hexdigest()[:16]
