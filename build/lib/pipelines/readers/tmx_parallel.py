"""Chunked TMX parsing: split at ``</tu>`` byte boundaries, parse each chunk with lxml, in-process or on
several worker processes.

Why chunks: one lxml loop is CPU-bound at one core and a TM export of millions of units is the common
case; a 256 KB chunk parsed with ``fromstring`` is cheaper per unit than ``iterparse`` (its tree stays
in the CPU cache); and libxml2 stores element line numbers in 16 bits: past line 65,535 ``sourceline``
is guessed from the element's first text child (off by one for a ``<tu>`` followed by a newline), while
a chunk's own lines stay small and get the exact offset added.

Every byte is still parsed by lxml: the byte scan only *proposes* boundaries. A chunk is parsed as
``prologue + chunk + closing tags``, a complete document (so the header, the namespace declarations
and the DOCTYPE check are the same as for the whole file). A false boundary (``</tu>`` inside a comment
or CDATA) makes that chunk ill-formed; the file is then parsed with ``iterparse`` from that chunk's
start to its end, so no unit is lost or read twice and a real syntax error is reported at its line.
The tail after the last boundary (closing tags, or a truncated unit) is always parsed that way.
UTF-16/32 files (no byte scan) are read with ``iterparse`` throughout.
"""

from __future__ import annotations

import gc
import multiprocessing
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import BinaryIO, Iterator

from lxml import etree

from pipelines.readers import safexml
from pipelines.readers.base import Reject, TranslationUnit
from pipelines.readers.tmx import Row, TmxHeader, _tag, iter_tmx, to_record, tu_rows

PARALLEL_MIN_BYTES = 8 << 20  # below this, starting processes costs more than it saves
CHUNK_BYTES = 256 << 10  # measured: 2 MB chunks cost ~15% more CPU per unit (the tree leaves the cache)
MAX_CHUNK_BYTES = 64 << 20  # no boundary found this far: parse the rest sequentially (bounded memory)
_BOUNDARY = b"</tu>"
_SCAN_BLOCK = 64 << 10
_EXTENSIONS = 4  # a chunk that does not parse is retried up to this many boundaries further

ChunkResult = tuple[list[Row], str | None]
Record = TranslationUnit | Reject


class _Concat:
    """A read()-able stream: some bytes, then the rest of a stream (for the sequential fallback)."""

    def __init__(self, head: bytes, handle: BinaryIO) -> None:
        self._head = head
        self._handle = handle

    def read(self, size: int = -1) -> bytes:
        if self._head:
            head, self._head = (self._head, b"") if size < 0 else (self._head[:size], self._head[size:])
            return head
        return self._handle.read(size)


def _read_prologue(handle: BinaryIO) -> tuple[tuple[bytes, bytes] | None, bytes]:
    """((bytes up to the end of the <body> start tag, closing tags) when the file can be chunked, else
    None; every byte read from ``handle``)."""
    head = handle.read(_SCAN_BLOCK)
    if head[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in head[:4]:
        return None, head  # UTF-16/32: a byte scan for ``</tu>`` does not apply
    while True:
        body = head.find(b"<body")
        end = head.find(b">", body) if body >= 0 else -1
        if end >= 0 or len(head) > MAX_CHUNK_BYTES:
            break
        more = handle.read(_SCAN_BLOCK)
        if not more:
            break
        head += more
    if end < 0 or head[end - 1:end] == b"/":
        return None, head
    parser = safexml.pull_parser()
    try:
        parser.feed(head[: end + 1])
        names = [(el.prefix, safexml.local_name(el.tag)) for _ev, el in parser.read_events()]
    except etree.XMLSyntaxError:
        return None, head  # the sequential parse reports it with the right line
    if len(names) < 2 or names[0][1] != "tmx" or names[-1][1] != "body":
        return None, head
    closing = "".join(f"</{p}:{n}>" if p else f"</{n}>" for p, n in (names[-1], names[0]))
    return (head[: end + 1], closing.encode("ascii")), head


def _prologue(handle: BinaryIO) -> tuple[bytes, bytes] | None:
    """(prologue, closing tags) when the file can be chunked."""
    return _read_prologue(handle)[0]


def parse_chunk(data: bytes, prologue: bytes, closing: bytes, name: str, line_offset: int) -> ChunkResult:
    """The rows of ``prologue + data + closing``, parsed in one ``fromstring`` (the chunk size bounds
    the tree), with absolute line numbers; or ([], why) when that is not a well-formed document."""
    gc_was_enabled = gc.isenabled()
    gc.disable()  # rows are acyclic; the cyclic GC would only re-scan the growing list
    try:
        root = safexml.parse_bytes(prologue + data + closing, name)
        header = TmxHeader(next((c for c in root if _tag(c) == "header"), None))
        body = next(c for c in root if _tag(c) == "body")
        rows = [row for tu in body if tu.tag == "tu" or _tag(tu) == "tu" for row in tu_rows(tu, header, line_offset)]
    except Exception as exc:  # noqa: BLE001 - any failure means: re-parse this region sequentially
        return [], f"{type(exc).__name__}: {exc}"
    finally:
        if gc_was_enabled:
            gc.enable()
    return rows, None


def _parse_file_chunk(path: str, start: int, end: int, prologue: bytes, closing: bytes, name: str,
                      line_offset: int) -> ChunkResult:
    """Worker: ``parse_chunk`` of the file's bytes [start, end)."""
    with open(path, "rb") as handle:
        handle.seek(start)
        data = handle.read(end - start)
    return parse_chunk(data, prologue, closing, name, line_offset)


def _chunks(handle: BinaryIO, start: int, size: int) -> Iterator[tuple[int, int, int]]:
    """(start, end, newlines) of the consecutive chunks ``_StreamChunks`` cuts from ``start`` on, as
    file offsets for the workers. Plain reads, not mmap: mapped file pages count in the process's RSS,
    which would then grow with the file. Stops (leaving the rest to the sequential parse) after the
    last boundary before ``size`` or after MAX_CHUNK_BYTES without one."""
    handle.seek(start)
    chunks = _StreamChunks(handle, b"")
    pos = start
    while (chunk := chunks.next()) is not None and pos + len(chunk) <= size:
        yield pos, pos + len(chunk), chunk.count(b"\n")
        pos += len(chunk)


class _StreamChunks:
    """The same chunks from a stream that cannot seek (an archive member): ``next()`` gives the next
    chunk's bytes or None at the tail; ``buffered`` is what was read but not handed out yet."""

    def __init__(self, stream: BinaryIO, buffered: bytes) -> None:
        self.stream = stream
        self.buffered = bytearray(buffered)
        self.eof = False

    def _more(self, size: int) -> bool:
        data = b"" if self.eof else self.stream.read(size)
        self.eof = not data
        self.buffered += data
        return bool(data)

    def next(self) -> bytes | None:
        buf = self.buffered
        while len(buf) < CHUNK_BYTES and self._more(CHUNK_BYTES):
            pass
        found = buf.find(_BOUNDARY, max(0, CHUNK_BYTES - len(_BOUNDARY)))
        while found < 0 and len(buf) <= MAX_CHUNK_BYTES:
            searched = len(buf)
            if not self._more(_SCAN_BLOCK):
                found = buf.rfind(_BOUNDARY)  # end of the stream: up to its last boundary
                break
            found = buf.find(_BOUNDARY, max(0, searched - len(_BOUNDARY) + 1))
        if found < 0:
            return None
        chunk = bytes(buf[: found + len(_BOUNDARY)])
        del buf[: found + len(_BOUNDARY)]
        return chunk


def read_tmx_stream(stream: BinaryIO, name: str) -> Iterator[Record]:
    """Read one TMX document in chunks, in this process (any readable stream)."""
    plan, head = _read_prologue(stream)
    if plan is None:
        yield from iter_tmx(_Concat(head, stream), name)  # type: ignore[arg-type]
        return
    prologue, closing = plan
    yield from _read_rest(_StreamChunks(stream, head[len(prologue):]), prologue, closing, name, 0)


def _read_rest(chunks: _StreamChunks, prologue: bytes, closing: bytes, name: str,
               line_offset: int) -> Iterator[Record]:
    """The document from a true boundary on, in this process: chunk by chunk; a chunk that does not
    parse is extended to the next boundaries (a false boundary inside a comment or CDATA), and if that
    fails too, ``iterparse`` reads from its start (a syntax error, reported at its line)."""
    base = line_offset
    while (chunk := chunks.next()) is not None:
        rows, error = parse_chunk(chunk, prologue, closing, name, base)
        for _retry in range(_EXTENSIONS):
            if error is None or (more := chunks.next()) is None:
                break
            chunk += more
            rows, error = parse_chunk(chunk, prologue, closing, name, base)
        if error is not None:
            chunks.buffered[:0] = chunk
            break
        for row in rows:
            yield to_record(row)
        base += chunk.count(b"\n")
    yield from iter_tmx(_Concat(prologue + bytes(chunks.buffered), chunks.stream), name, base)  # type: ignore[arg-type]


def read_tmx_file(path: Path, name: str, workers: int = 2) -> Iterator[Record]:
    """Read a TMX file on disk, on ``workers`` processes when it is big enough to pay off."""
    if workers < 2 or path.stat().st_size < PARALLEL_MIN_BYTES:
        with open(path, "rb") as handle:
            yield from read_tmx_stream(handle, name)
        return
    size = path.stat().st_size
    with open(path, "rb") as handle, open(path, "rb") as scan:
        plan = _prologue(scan)
        if plan is None:
            yield from iter_tmx(handle, name)
            return
        prologue, closing = plan
        prologue_lines = prologue.count(b"\n")
        base = prologue_lines  # newlines before the next chunk to submit
        resume, resume_base = len(prologue), base
        pending: deque[tuple[int, int, Future[ChunkResult]]] = deque()
        chunks = _chunks(scan, len(prologue), size)
        executor = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        try:
            def submit() -> bool:
                nonlocal base
                nxt = next(chunks, None)
                if nxt is None:
                    return False
                start, end, newlines = nxt
                future = executor.submit(_parse_file_chunk, str(path), start, end, prologue, closing, name,
                                         base - prologue_lines)
                base += newlines
                pending.append((end, base, future))
                return True

            while len(pending) < 4 * workers and submit():  # small chunks: keep workers fed when we lag
                pass
            while pending:
                end, end_base, future = pending.popleft()
                try:
                    rows, error = future.result()
                except Exception:  # noqa: BLE001 - a dead pool (e.g. unguarded __main__): go sequential
                    break
                if error is not None:
                    break  # sequential from ``resume``: handles false boundaries and real errors alike
                for row in rows:
                    yield to_record(row)
                resume, resume_base = end, end_base
                submit()
        finally:
            for _end, _base, future in pending:
                future.cancel()
            executor.shutdown(wait=True, cancel_futures=True)
        handle.seek(resume)
        yield from _read_rest(_StreamChunks(handle, b""), prologue, closing, name, resume_base - prologue_lines)

