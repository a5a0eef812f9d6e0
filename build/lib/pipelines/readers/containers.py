"""Containers: .zip (several members) and .gz (one file) around any supported format.

Members are streamed, never extracted to disk, except a big TMX member, which is spooled to a private
temporary file so it can be parsed on several cores (``materialise``). Member labels are
``outer.zip!member.tmx`` so every row and error names the member. Nested archives are not opened
(reported as unsupported), and macOS ``__MACOSX/`` resource forks are skipped: they are file-system
metadata, not data.
"""

from __future__ import annotations

import contextlib
import gzip
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Iterator, cast

from pipelines.errors import InputError, MalformedFileError

ARCHIVE_SUFFIXES = (".zip", ".gz")


@dataclass(frozen=True)
class Member:
    """One readable file: a plain file, the inside of a .gz, or one member of a .zip."""

    label: str  # source_file in the tables
    name: str  # the inner file name, used to pick the format
    open: Callable[[], IO[bytes]]
    path: Path | None = None  # set when the bytes are a plain file on disk
    size: int | None = None  # uncompressed size when known


def _zip_opener(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Callable[[], IO[bytes]]:
    return lambda: archive.open(info)


def expand(path: Path) -> Iterator[Member | InputError]:
    """The readable files inside ``path`` (itself when it is not an archive)."""
    suffix = path.suffix.lower()
    if suffix == ".gz":
        inner = path.name[: -len(path.suffix)]
        yield Member(str(path), inner, lambda: cast(IO[bytes], gzip.open(path, "rb")))
        return
    if suffix != ".zip":
        try:
            size = path.stat().st_size
        except OSError as exc:
            yield InputError(f"cannot open: {exc.strerror or exc}", path=str(path))
            return
        yield Member(str(path), path.name, lambda: open(path, "rb"), path=path, size=size)
        return
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        yield MalformedFileError(f"not a readable zip archive: {exc}", path=str(path))
        return
    with archive:
        for info in archive.infolist():
            if info.is_dir() or info.filename.startswith("__MACOSX/"):
                continue
            yield Member(f"{path}!{info.filename}", Path(info.filename).name, _zip_opener(archive, info),
                         size=info.file_size)


@contextlib.contextmanager
def materialise(member: Member) -> Iterator[Path]:
    """A path on disk holding the member's bytes (the member's own path when it has one)."""
    if member.path is not None:
        yield member.path
        return
    with tempfile.TemporaryDirectory(prefix="housestyle-member-") as tmp:
        target = Path(tmp) / "member"
        with member.open() as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
        yield target
