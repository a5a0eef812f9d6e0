"""The explicit reader registry and the one entry point that turns a path into records.

``XML_FORMATS`` and ``READERS`` are plain dicts (no discovery): adding a format means adding a
module and a line here. The format is chosen by file suffix; ``.xlf``/``.xliff`` are sniffed (root
``version`` / namespace) to pick XLIFF 1.x or 2.x, reading only up to the root start tag.
"""

from __future__ import annotations

import gzip
import io
import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO, ClassVar, Iterator

from housestyle.pipelines.errors import InputError, MalformedFileError, UnsupportedFormatError
from housestyle.pipelines.readers import containers, safexml
from housestyle.pipelines.readers.base import Reader, Reject, TranslationUnit
from housestyle.pipelines.readers.po import PoReader
from housestyle.pipelines.readers.scan import root_element
from housestyle.pipelines.readers.xmlformats import XML_FORMATS
from housestyle.pipelines.readers.xmlunits import XmlReader

Record = TranslationUnit | Reject
_XLIFF_SUFFIXES = (".xlf", ".xliff", ".sdlxliff", ".mxliff", ".mqxliff")
_SUFFIX_FORMAT = {".tmx": "tmx", ".po": "po", ".pot": "po", ".tbx": "tbx"} | {s: "xliff" for s in _XLIFF_SUFFIXES}
_VERSION = re.compile(rb"""\sversion\s*=\s*(["'])([^"']*)\1""")
READ_ERRORS = (OSError, EOFError, zlib.error, zipfile.BadZipFile, gzip.BadGzipFile, UnicodeDecodeError)


def sniff_xliff_version(stream: IO[bytes], name: str) -> str:
    """'xliff2' or 'xliff12', from the root start tag only (a fault further down is the reader's to report)."""
    namespace, root, tag = root_element(safexml.utf8_stream(stream))  # type: ignore[arg-type]
    if root is None:
        raise MalformedFileError("no root element", path=name, location=1)
    version = _VERSION.search(tag)
    return "xliff2" if (version and version.group(2).startswith(b"2")) or ":document:2." in (namespace or "") else "xliff12"


class XliffReader:
    """XLIFF of either generation: sniffs the version, then delegates (for ``reader_for`` callers)."""

    format_name: ClassVar[str] = "xliff"
    suffixes: ClassVar[tuple[str, ...]] = _XLIFF_SUFFIXES

    def read(self, stream: BinaryIO, name: str) -> Iterator[Record]:
        data = stream.read()  # callers of this convenience reader pass one small file
        version = sniff_xliff_version(io.BytesIO(data), name)
        return READERS[version].read(io.BytesIO(data), name)


READERS: dict[str, Reader] = {name: XmlReader(fmt) for name, fmt in XML_FORMATS.items()}  # type: ignore[misc]
READERS |= {"xliff": XliffReader(), "po": PoReader()}


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


def format_of(member: containers.Member) -> str:
    """The registered format of an archive member or file (XLIFF sniffed); raises UnsupportedFormatError."""
    fmt = _SUFFIX_FORMAT.get(Path(member.name).suffix.lower())
    if fmt is None:
        kind = "nested archive" if Path(member.name).suffix.lower() in containers.ARCHIVE_SUFFIXES else "file type"
        raise UnsupportedFormatError(f"unsupported {kind}: {member.name}", path=member.label)
    if fmt == "xliff":
        with member.open() as stream:
            fmt = sniff_xliff_version(stream, member.label)
    return fmt


def read_error(exc: BaseException, label: str) -> InputError:
    """A stream failure (truncated archive, I/O error) as an InputError naming the file."""
    if isinstance(exc, InputError):
        return exc
    return MalformedFileError(f"cannot read past this point: {type(exc).__name__}: {exc}", path=label)


def iter_sources(path: Path, *, limits: containers.ContainerLimits | None = None
                 ) -> Iterator[tuple[SourceInfo, Record | FileStart | FileError]]:
    """Every record of every file in ``path``, in this process, each file opened by a ``FileStart``;
    a broken file yields a ``FileError`` (after its readable records) and the next file goes on."""
    for member in containers.expand(path, limits):
        if isinstance(member, InputError):
            info = SourceInfo(member.path, None)
            yield info, FileStart()
            yield info, FileError(member)
            continue
        info = SourceInfo(member.label, _SUFFIX_FORMAT.get(Path(member.name).suffix.lower()))
        yield info, FileStart()
        try:
            info = SourceInfo(member.label, format_of(member))
            with member.open() as stream:
                for record in READERS[info.format or ""].read(stream, member.label):  # type: ignore[arg-type]
                    yield info, record
        except (InputError, *READ_ERRORS) as exc:
            yield info, FileError(read_error(exc, member.label))


def iter_units(path: Path) -> Iterator[tuple[str, Record]]:
    """(source_file label, record) for every unit in ``path`` (a file, .zip or .gz).

    Raises the first ``InputError`` after yielding everything readable (for a .zip: every other member).
    """
    first_error: InputError | None = None
    for info, record in iter_sources(path):
        if isinstance(record, FileError):
            first_error = first_error or record.error
        elif not isinstance(record, FileStart):
            yield info.label, record
    if first_error is not None:
        raise first_error
