"""Multi-core TMX parsing: split at ``</tu>`` byte boundaries, parse each chunk with lxml in a worker.

Why: one lxml iterparse loop is CPU-bound at one core; a TM export of millions of units is the
common case. Every byte is still parsed by lxml: the byte scan only *proposes* chunk boundaries.
Each worker parses ``prologue + chunk + closing tags`` as a complete document (so the header, the
namespace declarations and the DOCTYPE check are the same as for the whole file). A false boundary
(``</tu>`` inside a comment or CDATA) makes that chunk ill-formed; the chunk is then re-parsed
sequentially from its start to the end of the file, so no unit is lost or read twice, and a real
syntax error is reported at its real line. The tail after the last boundary (closing tags, or a
truncated unit) is always parsed that sequential way.
"""

from __future__ import annotations

import gc
import multiprocessing
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO, Iterator

from lxml import etree

from pipelines.readers import safexml
from pipelines.readers.base import Reject, TranslationUnit
from pipelines.readers.tmx import Row, TmxHeader, _tag, iter_tmx, to_record, tu_rows

PARALLEL_MIN_BYTES = 8 << 20  # below this, starting processes costs more than it saves
CHUNK_BYTES = 2 << 20
MAX_CHUNK_BYTES = 64 << 20  # no boundary found this far: parse the rest sequentially (bounded memory)
_BOUNDARY = b"</tu>"
_SCAN_BLOCK = 64 << 10

ChunkResult = tuple[list[Row], str | None]


class _Concat:
    """A read()-able stream: the prologue bytes, then the file from an offset (for sequential fallback)."""

    def __init__(self, prologue: bytes, handle: BinaryIO) -> None:
        self._prologue = prologue
        self._handle = handle

    def read(self, size: int = -1) -> bytes:
        if self._prologue:
            head, self._prologue = (self._prologue, b"") if size < 0 else (self._prologue[:size], self._prologue[size:])
            return head
        return self._handle.read(size)


def _prologue(handle: BinaryIO) -> tuple[bytes, bytes] | None:
    """(bytes up to the end of the <body> start tag, closing tags) when the file can be chunked."""
    head = handle.read(_SCAN_BLOCK)
    if head[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in head[:4]:
        return None  # UTF-16/32: a byte scan for ``</tu>`` does not apply
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
        return None
    parser = safexml.pull_parser()
    try:
        parser.feed(head[: end + 1])
        names = [(el.prefix, safexml.local_name(el.tag)) for _ev, el in parser.read_events()]
    except etree.XMLSyntaxError:
        return None  # the sequential parse reports it with the right line
    if len(names) < 2 or names[0][1] != "tmx" or names[-1][1] != "body":
        return None
    closing = "".join(f"</{p}:{n}>" if p else f"</{n}>" for p, n in (names[-1], names[0]))
    return head[: end + 1], closing.encode("ascii")


def _parse_chunk(path: str, start: int, end: int, prologue: bytes, closing: bytes, name: str,
                 line_offset: int) -> ChunkResult:
    """Worker: parse ``prologue + chunk + closing`` in one ``fromstring`` (2x faster than iterparse,
    and the chunk size bounds the tree) and return its rows with absolute line numbers."""
    with open(path, "rb") as handle:
        handle.seek(start)
        data = handle.read(end - start)
    gc.disable()  # rows are acyclic; the cyclic GC would only re-scan the growing list
    try:
        root = safexml.parse_bytes(prologue + data + closing, name)
        header = TmxHeader(next((c for c in root if _tag(c) == "header"), None))
        body = next(c for c in root if _tag(c) == "body")
        rows = [row for tu in body if _tag(tu) == "tu" for row in tu_rows(tu, header, line_offset)]
    except Exception as exc:  # noqa: BLE001 - any failure means: re-parse this region sequentially
        return [], f"{type(exc).__name__}: {exc}"
    finally:
        gc.enable()
    return rows, None


def _chunks(handle: BinaryIO, start: int, size: int) -> Iterator[tuple[int, int, int]]:
    """(start, end, newlines) of consecutive chunks of about CHUNK_BYTES ending just after ``</tu>``.

    Plain reads, not mmap: mapped file pages count in the process's RSS, which would then grow with
    the file. Stops (leaving the rest to the sequential parse) at the last boundary or after
    MAX_CHUNK_BYTES without one.
    """
    pos = start
    handle.seek(pos)
    while pos + CHUNK_BYTES < size:
        data = handle.read(CHUNK_BYTES)
        newlines, length, tail = data.count(b"\n"), len(data), data[-(len(_BOUNDARY) - 1):]
        while True:
            block = handle.read(_SCAN_BLOCK)
            if not block or length > MAX_CHUNK_BYTES:
                return
            found = (tail + block).find(_BOUNDARY)
            if found >= 0:
                used = found + len(_BOUNDARY) - len(tail)  # a boundary may straddle the two reads
                end = pos + length + used
                yield pos, end, newlines + block[:used].count(b"\n")
                handle.seek(end)
                pos = end
                break
            newlines += block.count(b"\n")
            length += len(block)
            tail = block[-(len(_BOUNDARY) - 1):]


def read_tmx_file(path: Path, name: str, workers: int = 2) -> Iterator[TranslationUnit | Reject]:
    """Read a TMX file on disk, on ``workers`` processes when it is big enough to pay off."""
    if workers < 2 or path.stat().st_size < PARALLEL_MIN_BYTES:
        with open(path, "rb") as handle:
            yield from iter_tmx(handle, name)
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
                future = executor.submit(_parse_chunk, str(path), start, end, prologue, closing, name,
                                         base - prologue_lines)
                base += newlines
                pending.append((end, base, future))
                return True

            while len(pending) < 2 * workers and submit():
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
        yield from iter_tmx(_Concat(prologue, handle), name, resume_base - prologue_lines)  # type: ignore[arg-type]
