"""Containers: .zip (several members) and .gz (one file) around any supported format, bounded.

Members are streamed, never extracted: nothing is written to disk (so nothing can be left in
``$TMPDIR`` by a killed run). Member labels are ``outer.zip!member.tmx`` so every row and error names
the member. Nested archives are not opened (reported as unsupported), and macOS ``__MACOSX/``
resource forks are skipped: they are file-system metadata, not data.

A decompression bomb is refused while it streams (``ContainerLimits``): each member may inflate to
at most ``max_ratio`` times its compressed size (plus ``ratio_slack_bytes``, so tiny members are
never refused), and all members of one archive together to ``max_total_bytes``. Bytes are counted as
they come out of the decompressor, not taken from the archive's headers (which a bomb can fake);
a header that already declares too much is refused before reading. The units read before the limit
are kept; the refusal is a reject row naming the limit.
"""

from __future__ import annotations

import gzip
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable, Iterator, cast

from housestyle.pipelines.errors import InputError, MalformedFileError

ARCHIVE_SUFFIXES = (".zip", ".gz")
READ_BYTES = 1 << 20


class ContainerLimitError(MalformedFileError):
    """An archive member inflates beyond the configured limits (a decompression bomb)."""


@dataclass(frozen=True)
class ContainerLimits:
    """Bounds on what archives may inflate to (documented in README, "Ingest limits")."""

    max_total_bytes: int = 8 << 30  # 8 GiB: all members of one archive together, uncompressed
    max_ratio: float = 100.0  # per member; real TMX/XLIFF deflate ~5-20x, bombs ~1000x
    ratio_slack_bytes: int = 1 << 20  # any member may inflate to 1 MiB whatever its ratio


class _Budget:
    __slots__ = ("used",)

    def __init__(self) -> None:
        self.used = 0


class BoundedStream:
    """A decompressing stream that raises ``ContainerLimitError`` as soon as a limit is crossed."""

    def __init__(self, raw: IO[bytes], label: str, compressed: int, limits: ContainerLimits, budget: _Budget) -> None:
        self.raw, self.label, self.limits, self.budget = raw, label, limits, budget
        self.produced = 0
        self.member_limit = int(max(limits.max_ratio * compressed, limits.ratio_slack_bytes))

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            return b"".join(iter(lambda: self.read(READ_BYTES), b""))
        # read1: one decompressor step; read() would fill its buffer across steps and lose what it
        # had when a truncated archive raises (the units before the cut must still be read)
        reader = getattr(self.raw, "read1", self.raw.read)
        data = reader(min(size, READ_BYTES) or READ_BYTES)
        self.produced += len(data)
        self.budget.used += len(data)
        if self.produced > self.member_limit:
            raise ContainerLimitError(
                f"refused: inflates beyond {self.limits.max_ratio:g}x its compressed size "
                f"(limit {self.member_limit:,} bytes, stopped after {self.produced:,}); decompression bomb?",
                path=self.label)
        if self.budget.used > self.limits.max_total_bytes:
            raise ContainerLimitError(
                f"refused: the archive inflates beyond {self.limits.max_total_bytes:,} bytes in total "
                f"(stopped after {self.budget.used:,})", path=self.label)
        return data

    def close(self) -> None:
        self.raw.close()

    def __enter__(self) -> "BoundedStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Member:
    """One readable file: a plain file, the inside of a .gz, or one member of a .zip."""

    label: str  # source_file in the tables
    name: str  # the inner file name, used to pick the format
    open: Callable[[], IO[bytes]]
    path: Path | None = None  # set when the bytes are a plain file on disk
    size: int | None = None  # uncompressed size when known (declared, for a zip member)


def _zip_opener(archive: zipfile.ZipFile, info: zipfile.ZipInfo, label: str, limits: ContainerLimits,
                budget: _Budget) -> Callable[[], IO[bytes]]:
    def opener() -> IO[bytes]:
        return cast(IO[bytes], BoundedStream(archive.open(info), label, info.compress_size, limits, budget))
    return opener


def _declared_refusal(info: zipfile.ZipInfo, label: str, limits: ContainerLimits, declared: int
                      ) -> ContainerLimitError | None:
    """A member whose header already says it is too big (``declared``: the archive's members so far)."""
    if declared + info.file_size > limits.max_total_bytes:
        return ContainerLimitError(f"refused: declares {info.file_size:,} bytes uncompressed, which takes the "
                                   f"archive over the {limits.max_total_bytes:,}-byte limit in total", path=label)
    if info.file_size > max(limits.max_ratio * info.compress_size, limits.ratio_slack_bytes):
        return ContainerLimitError(f"refused: declares {info.file_size:,} bytes from {info.compress_size:,} "
                                   f"compressed, over the {limits.max_ratio:g}x ratio limit", path=label)
    return None


def expand(path: Path, limits: ContainerLimits | None = None) -> Iterator[Member | InputError]:
    """The readable files inside ``path`` (itself when it is not an archive); a member refused up
    front (declared sizes) or an unreadable archive is an ``InputError`` in the stream."""
    limits = limits or ContainerLimits()
    suffix = path.suffix.lower()
    if suffix == ".gz":
        inner = path.name[: -len(path.suffix)]
        try:
            compressed = path.stat().st_size
        except OSError as exc:
            yield InputError(f"cannot open: {exc.strerror or exc}", path=str(path))
            return
        budget = _Budget()
        yield Member(str(path), inner, lambda: cast(IO[bytes], BoundedStream(
            cast(IO[bytes], gzip.open(path, "rb")), str(path), compressed, limits, budget)))
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
    budget = _Budget()
    declared = 0
    with archive:
        for info in archive.infolist():
            if info.is_dir() or info.filename.startswith("__MACOSX/"):
                continue
            label = f"{path}!{info.filename}"
            refusal = _declared_refusal(info, label, limits, declared)
            if refusal is not None:
                yield refusal
                continue
            declared += info.file_size
            yield Member(label, Path(info.filename).name, _zip_opener(archive, info, label, limits, budget),
                         size=info.file_size)
