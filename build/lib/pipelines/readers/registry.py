"""The explicit reader registry and the one entry point that turns a path into units.

``READERS`` is a plain dict (no discovery): adding a format means adding a module and a line here.
The format is chosen by file suffix; ``.xlf``/``.xliff`` are sniffed (root ``version`` / namespace)
to pick XLIFF 1.x or 2.x, reading only up to the root start tag.
"""

from __future__ import annotations

import gzip
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO, ClassVar, Iterator

from pipelines.errors import InputError, MalformedFileError, UnsupportedFormatError
from pipelines.readers import containers, safexml, tmx_parallel
from pipelines.readers.base import Reader, Reject, TranslationUnit
from pipelines.readers.po import PoReader
from pipelines.readers.tbx import TbxReader
from pipelines.readers.tmx import TmxReader
from pipelines.readers.xliff12 import Xliff12Reader
from pipelines.readers.xliff2 import Xliff2Reader

Record = TranslationUnit | Reject
_XLIFF_SUFFIXES = (".xlf", ".xliff", ".sdlxliff", ".mxliff", ".mqxliff")
_SUFFIX_FORMAT = {".tmx": "tmx", ".po": "po", ".pot": "po", ".tbx": "tbx"} | {s: "xliff" for s in _XLIFF_SUFFIXES}
_READ_ERRORS = (OSError, EOFError, zlib.error, zipfile.BadZipFile, gzip.BadGzipFile, UnicodeDecodeError)


def sniff_xliff_version(stream: IO[bytes], name: str) -> str:
    """'xliff2' or 'xliff12', from the root element only (fed 4 KB at a time, stops at the root)."""
    root = safexml.sniff_root(stream, name)
    namespace = root.tag[1:].split("}", 1)[0] if root.tag.startswith("{") else ""
    version = root.get("version") or ""
    return "xliff2" if version.startswith("2") or ":document:2." in namespace else "xliff12"


class XliffReader:
    """XLIFF of either generation: sniffs the version, then delegates (for ``reader_for`` callers)."""

    format_name: ClassVar[str] = "xliff"
    suffixes: ClassVar[tuple[str, ...]] = _XLIFF_SUFFIXES

    def read(self, stream: BinaryIO, name: str) -> Iterator[Record]:
        data = stream.read()  # callers of this convenience reader pass one small file
        import io

        version = sniff_xliff_version(io.BytesIO(data), name)
        return READERS[version].read(io.BytesIO(data), name)


READERS: dict[str, Reader] = {
    "tmx": TmxReader(),
    "xliff": XliffReader(),
    "xliff12": Xliff12Reader(),
    "xliff2": Xliff2Reader(),
    "po": PoReader(),
    "tbx": TbxReader(),
}


def reader_for(name: str) -> Reader:
    """The reader for a format name (``"tmx"``) or a file name (``"a/b.xlf"``)."""
    if name in READERS:
        return READERS[name]
    fmt = _SUFFIX_FORMAT.get(Path(name).suffix.lower())
    if fmt is None:
        raise UnsupportedFormatError(f"no reader for {Path(name).suffix or 'files without suffix'}", path=name)
    return READERS[fmt]


@dataclass(frozen=True)
class SourceInfo:
    """Which file (or archive member) a record came from, and its format."""

    label: str
    format: str | None


@dataclass(frozen=True)
class FileStart:
    """Marks the start of a file (or member), so a file with no units still shows up in summaries."""


@dataclass(frozen=True)
class FileError:
    """A file-level failure: reading of that file stopped here (records before it were yielded)."""

    error: InputError


def _format_of(member: containers.Member) -> str:
    fmt = _SUFFIX_FORMAT.get(Path(member.name).suffix.lower())
    if fmt is None:
        kind = "nested archive" if Path(member.name).suffix.lower() in containers.ARCHIVE_SUFFIXES else "file type"
        raise UnsupportedFormatError(f"unsupported {kind}: {member.name}", path=member.label)
    if fmt == "xliff":
        with member.open() as stream:
            fmt = sniff_xliff_version(stream, member.label)
    return fmt


def _read_member(member: containers.Member, fmt: str, workers: int) -> Iterator[Record]:
    if fmt == "tmx" and workers > 1 and (member.size or 0) >= tmx_parallel.PARALLEL_MIN_BYTES:
        with containers.materialise(member) as path:
            yield from TmxReader().read_path(path, member.label, workers)
        return
    with member.open() as stream:
        yield from READERS[fmt].read(stream, member.label)  # type: ignore[arg-type]


def iter_sources(path: Path, *, workers: int = 2) -> Iterator[tuple[SourceInfo, Record | FileStart | FileError]]:
    """Every record of every file in ``path``, each file opened by a ``FileStart``; a broken file
    yields a ``FileError`` (after its readable records) and the next file or member goes on."""
    for member in containers.expand(path):
        if isinstance(member, InputError):
            yield SourceInfo(str(path), "zip"), FileStart()
            yield SourceInfo(str(path), "zip"), FileError(member)
            continue
        info = SourceInfo(member.label, _SUFFIX_FORMAT.get(Path(member.name).suffix.lower()))
        try:
            info = SourceInfo(member.label, _format_of(member))
            yield info, FileStart()
            for record in _read_member(member, info.format or "", workers):
                yield info, record
        except InputError as exc:
            yield info, FileStart()  # harmless when already started: summaries group by label
            yield info, FileError(exc)
        except _READ_ERRORS as exc:
            yield info, FileStart()
            yield info, FileError(MalformedFileError(f"cannot read: {type(exc).__name__}: {exc}", path=member.label))


def iter_units(path: Path, *, workers: int = 2) -> Iterator[tuple[str, Record]]:
    """(source_file label, record) for every unit in ``path`` (a file, .zip or .gz).

    Raises the first ``InputError`` after yielding everything readable (for a .zip: every other member).
    """
    first_error: InputError | None = None
    for info, record in iter_sources(path, workers=workers):
        if isinstance(record, FileError):
            first_error = first_error or record.error
        elif not isinstance(record, FileStart):
            yield info.label, record
    if first_error is not None:
        raise first_error
