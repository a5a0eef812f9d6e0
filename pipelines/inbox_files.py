"""What a client's drop folder holds, and a fingerprint of it (the sensor's cursor).

Documentation files (README, PROVENANCE, LICENSE notes, *.md) and hidden files are not inputs: they
sit beside the data to keep licence notes with it. Every other file is handed to ingest, so an
unsupported file becomes a visible file-level reject instead of being skipped silently; so does an entry
that is not a regular file (a symlink, a FIFO, a device: never followed nor opened). Client folders
whose name is not a client name (``housestyle.pipelines.paths``) are not clients.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from housestyle.pipelines.conventionset.version import sha256_file
from housestyle.pipelines.paths import client_path, is_client_name

NOT_INPUT_SUFFIXES = (".md", ".rst")
NOT_INPUT_STEMS = ("readme", "provenance", "license", "licence", "notice", "copying")


def _listed(path: Path) -> bool:
    """Not hidden and not a documentation note (whatever kind of file it is)."""
    name = path.name.lower()
    return not (path.name.startswith(".") or name.endswith(NOT_INPUT_SUFFIXES) or name.split(".")[0] in NOT_INPUT_STEMS)


def is_regular(path: Path) -> bool:
    """A regular file itself, not through a symlink (never follows one, never opens a FIFO or device)."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def is_input_file(path: Path) -> bool:
    """True for a regular file a pipeline should read (not a link, not hidden, not a documentation note)."""
    return is_regular(path) and _listed(path)


def input_entries(folder: Path) -> list[Path]:
    """Every non-hidden, non-documentation entry under ``folder`` that is not a real folder: regular
    files, and symlinks (to files or folders, never followed), FIFOs, sockets and devices, which ingest
    turns into rejects (``housestyle.pipelines.ingest.not_regular``) instead of skipping them silently. Sorted."""
    if not folder.is_dir() or folder.is_symlink():
        return []
    found: list[Path] = []
    for top, dirs, names in os.walk(folder):  # never descends into a symlinked folder
        here = Path(top)
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(here / d for d in dirs if (here / d).is_symlink() and _listed(here / d))
        found.extend(here / n for n in names if _listed(here / n))
    return sorted(found)


def input_files(folder: Path) -> list[Path]:
    """Regular input files under ``folder`` (recursively), sorted so runs are reproducible."""
    return [p for p in input_entries(folder) if is_regular(p)]


def tm_files(inbox: Path, client: str) -> list[Path]:
    """inbox/<client>/tm/: regular files and the entries ingest rejects (symlinks, FIFOs, devices)."""
    return input_entries(client_path(inbox, client) / "tm")  # a symlinked tm/ holds nothing (never followed)


def system_files(inbox: Path, client: str) -> list[Path]:
    """inbox/<client>/systems/: one file per system, the file stem is the system name."""
    folder = client_path(inbox, client) / "systems"
    return sorted(p for p in folder.iterdir() if is_input_file(p)) if folder.is_dir() and not folder.is_symlink() else []


def unsafe_client_folders(inbox: Path) -> list[str]:
    """Folders of the inbox that are not clients: a name outside the grammar, or a symlink."""
    if not inbox.is_dir():
        return []
    return sorted(p.name for p in inbox.iterdir() if not p.name.startswith(".") and p.is_dir()
                  and (not is_client_name(p.name) or p.is_symlink()))


def clients_with_tm(inbox: Path) -> list[str]:
    """Client folders that have a tm/ folder (empty or not)."""
    if not inbox.is_dir():
        return []
    return sorted(p.name for p in inbox.iterdir() if is_client_name(p.name) and p.is_dir() and not p.is_symlink()
                  and (p / "tm").is_dir())


def fingerprint(files: list[Path], root: Path) -> str:
    """Hash of (relative path, size, mtime_ns) of every file: changes when a file appears, goes or changes."""
    digest = hashlib.sha256()
    for path in files:
        info = path.lstat()  # a link's own entry: its target is never looked at
        digest.update(f"{path.relative_to(root).as_posix()}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def content_fingerprint(files: list[Path], root: Path) -> str:
    """Hash of (relative path, sha256 of the content) of every file: a touched but unchanged file keeps it,
    a renamed, added, removed or rewritten one changes it. The version of a source asset (assets/freshness.py)."""
    digest = hashlib.sha256()
    for path in sorted(files):
        content = sha256_file(path) if is_regular(path) else f"not-regular:{stat.S_IFMT(path.lstat().st_mode)}"
        digest.update(f"{path.relative_to(root).as_posix()}\0{content}\n".encode())
    return digest.hexdigest()[:16]
