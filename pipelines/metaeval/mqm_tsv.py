"""Bounded reading of an MQM TSV, plain or as upstream ships it (a ``.tsv.tar.gz`` of one file).

Google's files are tab-separated UTF-8 read with csv.QUOTE_NONE (quotes are literal text), one record
per line. Every line is decoded on its own, so an undecodable byte, a line over ``MAX_LINE_BYTES``,
a NUL, a lone CR or a field over the csv limit is one InputError naming the file and line — never a traceback.
An archive's FIRST member must be a regular ``.tsv`` file of at most ``MAX_BYTES`` (upstream's hold
just that one); it is streamed, nothing is extracted to disk, and nothing after it is read (so a
gzip bomb behind it costs nothing).
"""

from __future__ import annotations

import csv
import tarfile
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from housestyle.pipelines.errors import InputError

MAX_BYTES = 1 << 30  # 1 GiB of TSV (the largest upstream file, newstest2021 en-de, is ~60 MB)
MAX_LINE_BYTES = 1 << 20  # 1 MiB per line (generalMT2023's longest line, metadata JSON included: 15 kB)


def is_archive(path: Path) -> bool:
    return path.name.lower().endswith((".tar.gz", ".tgz"))


@contextmanager
def open_tsv(path: Path) -> Iterator[IO[bytes]]:
    """The TSV's bytes: the file itself, or the single ``.tsv`` member of a ``.tar.gz``."""
    if not path.is_file():
        raise InputError("MQM file not found (or not a regular file)", path=str(path))
    if not is_archive(path):
        if path.stat().st_size > MAX_BYTES:
            raise InputError(f"MQM file larger than {MAX_BYTES >> 20} MiB", path=str(path))
        with path.open("rb") as handle:
            yield handle
        return
    try:
        with tarfile.open(path, mode="r:gz") as archive:
            first = archive.next()
            if first is None or not first.isfile() or not first.name.endswith(".tsv"):
                found = "nothing" if first is None else f"{first.name[:80]!r} ({'file' if first.isfile() else 'not a regular file'})"
                raise InputError(f"archive must start with a regular .tsv file, found {found}", path=str(path))
            if first.size > MAX_BYTES:
                raise InputError(f"{first.name[:80]} larger than {MAX_BYTES >> 20} MiB", path=str(path))
            member = archive.extractfile(first)
            if member is None:  # pragma: no cover - isfile() above
                raise InputError("archive member unreadable", path=str(path))
            yield member
    except (tarfile.TarError, EOFError, OSError) as error:
        raise InputError(f"unreadable .tar.gz archive ({error})", path=str(path)) from None


def _decoded(handle: IO[bytes], path: Path) -> Iterator[tuple[int, str]]:
    line = 0
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        line += 1
        if len(raw) > MAX_LINE_BYTES:
            raise InputError(f"line longer than {MAX_LINE_BYTES >> 20} MiB", path=str(path), location=line)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(f"not UTF-8 (byte {error.start} of the line)", path=str(path), location=line) from None
        if line == 1:
            text = text.removeprefix("\ufeff")
        text = text.rstrip("\r\n")
        if "\0" in text:
            raise InputError("NUL byte in line (binary data?)", path=str(path), location=line)
        if "\r" in text:
            raise InputError("carriage return inside a line (CR-only line ends?); lines must end in LF or CRLF",
                             path=str(path), location=line)
        yield line, text


def tsv_records(path: Path) -> Generator[tuple[int, list[str]], None, None]:
    """(line number, fields) of every line, header first; blank lines skipped."""
    with open_tsv(path) as handle:
        for line, text in _decoded(handle, path):
            if not text.strip():
                continue
            try:
                fields = next(csv.reader([text], delimiter="\t", quoting=csv.QUOTE_NONE))
            except csv.Error as error:
                raise InputError(f"unreadable TSV line ({error})", path=str(path), location=line) from None
            yield line, fields
