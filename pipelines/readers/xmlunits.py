"""Parse scanned units with lxml, recovering at unit granularity (shared by TMX, XLIFF 1.2/2.0, TBX).

A chunk of units (``scan.Chunk``) is parsed as one small document, ``context.open + units +
context.close``, with the hardened parser. When that fails, or finds a different number of units
than the byte scan did, every unit is parsed alone the same way: a unit that fails is rejected with
libxml2's own message and line, and the units around it are kept. When every unit parses alone but
the chunk did not, the fault is between units: one file-level row says so, no unit is lost.

A format is an ``XmlFormat``: its scan vocabulary, how to find its units in a parsed tree, and the
rows of one unit. Rows are tuples: a unit row has ``base.ROW_FIELDS`` in order (dates as written,
``YYYYMMDDThhmmssZ``), a reject row is ``(line, reason, raw)``. A ``Sink`` receives them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, BinaryIO, Callable, ClassVar, Iterator, Protocol

from lxml import etree

from housestyle.pipelines.errors import MalformedFileError, UnsafeXmlError
from housestyle.pipelines.readers import safexml
from housestyle.pipelines.readers.base import Reject, Row, TranslationUnit, to_record
from housestyle.pipelines.readers.scan import Chunk, Context, Oversized, Problem, UnitScanner, Vocabulary

PARSE_BYTES = 64 << 10  # measured on the synthetic TM: 5.5 us/unit at 32-64 KB, 6.2 at 256 KB, 6.6 at 512 KB (cache)
RAW_MAX = 500
_LINE_SUFFIX = re.compile(r",? line (\d+), column \d+$")
_LINE_REF = re.compile(r"\bline (\d+)")


class Tally:
    """Counters a format's row function adds to (foreign elements it ignored inside units)."""

    __slots__ = ("foreign",)

    def __init__(self) -> None:
        self.foreign = 0


@dataclass(frozen=True)
class XmlFormat:
    name: str
    vocabulary: Vocabulary
    units: Callable[[safexml.Element], list[safexml.Element]]  # the units of a parsed chunk, in order
    info: Callable[[safexml.Element], Any]  # what every unit of a chunk needs from its context
    rows: Callable[[safexml.Element, Any, int, Tally], list[Row]]  # (unit, info, line offset, tally)


class Sink(Protocol):
    """Where parsed rows go: the ingest's column writer, or a list of records."""

    tally: Tally

    def rows(self, ordinal: int, rows: list[Row]) -> None: ...

    def problem(self, line: int, reason: str, raw: str) -> None: ...


def xml_reason(exc: etree.XMLSyntaxError, line_offset: int) -> tuple[int, str]:
    """(absolute line, one-line reason) from libxml2's message: its real cause, every line number
    made absolute, no embedded newline and no repeated "line N, column M" suffix."""
    message = " ".join((exc.msg or str(exc)).split())
    line = (exc.lineno or 0) + line_offset
    message = _LINE_SUFFIX.sub("", message).strip()
    message = _LINE_REF.sub(lambda m: f"line {int(m.group(1)) + line_offset}", message)
    return line, f"not well-formed XML: {message} (line {line})"


def raw_text(data: bytes) -> str:
    """The offending bytes as text for a reject row: undecodable bytes shown as escapes, truncated."""
    return data[:RAW_MAX * 4].decode("utf-8", "backslashreplace")[:RAW_MAX]


def parse_document(context: Context, body: bytes) -> safexml.Element:
    """``context.open + body + context.close`` with the hardened parser (raises XMLSyntaxError)."""
    return etree.fromstring(context.open + body + context.close, safexml.make_parser())


def check_context(context: Context, name: str) -> str | None:
    """Why no unit in this context can be read (a broken header, a DOCTYPE declaring entities), or None."""
    try:
        root = parse_document(context, b"")
    except etree.XMLSyntaxError as exc:
        _line, reason = xml_reason(exc, 0)
        return f"the file's header does not parse, so no unit in it can: {reason}"
    try:
        safexml.refuse_entities(root.getroottree(), name)
    except UnsafeXmlError as exc:
        return f"unsafe xml: {exc.reason}"
    return None


def _emit(fmt: XmlFormat, units: list[safexml.Element], info: Any, first: int, offset: int, sink: Sink) -> None:
    for k, unit in enumerate(units):
        try:
            rows = fmt.rows(unit, info, offset, sink.tally)
        except (ValueError, TypeError, KeyError, IndexError) as exc:  # hostile shapes the walk did not foresee
            rows = [((unit.sourceline or 0) + offset, f"unreadable unit: {type(exc).__name__}: {exc}",
                     etree.tostring(unit, encoding="unicode", with_tail=False)[:RAW_MAX])]
        sink.rows(first + k, rows)


def parse_chunk(fmt: XmlFormat, chunk: Chunk, sink: Sink) -> None:
    """Rows of every unit of ``chunk`` (in pieces of PARSE_BYTES), recovering unit by unit."""
    spans, data = chunk.spans, chunk.data
    piece_start = 0
    while piece_start < len(spans):
        piece_end = piece_start + 1
        origin = spans[piece_start][0]
        while piece_end < len(spans) and spans[piece_end][1] - origin <= PARSE_BYTES:
            piece_end += 1
        _parse_piece(fmt, chunk, piece_start, piece_end, sink)
        piece_start = piece_end
    del data


def _parse_piece(fmt: XmlFormat, chunk: Chunk, first: int, last: int, sink: Sink) -> None:
    data, spans, context = chunk.data, chunk.spans, chunk.context
    start, end = spans[first][0], spans[last - 1][1]
    context_lines = context.open.count(b"\n")
    line = chunk.line + data.count(b"\n", 0, start)  # line of the piece's first byte
    offset = line - 1 - context_lines
    try:
        root = parse_document(context, data[start:end])
        units = fmt.units(root)
        if len(units) == last - first:
            _emit(fmt, units, fmt.info(root), chunk.first_ordinal + first, offset, sink)
            return
        fault: tuple[int, str] | None = None
    except etree.XMLSyntaxError as exc:
        fault = xml_reason(exc, offset)
    all_parsed = True
    for k in range(first, last):
        s, e = spans[k]
        unit_line = chunk.line + data.count(b"\n", 0, s)
        unit_offset = unit_line - 1 - context_lines
        ordinal = chunk.first_ordinal + k
        truncated = chunk.truncated and k == len(spans) - 1  # parsed as the file has it: without end tags
        try:
            root = parse_document(Context(context.open, b"") if truncated else context, data[s:e])
        except etree.XMLSyntaxError as exc:
            sink.rows(ordinal, [(unit_line, xml_reason(exc, unit_offset)[1], raw_text(data[s:e]))])
            all_parsed = False
            continue
        units = fmt.units(root)
        if len(units) != 1:
            sink.rows(ordinal, [(unit_line, f"the byte scan found a <{'>/<'.join(sorted(fmt.vocabulary.units))}> "
                                 f"start tag here but the parser found {len(units)} units", raw_text(data[s:e]))])
            all_parsed = False
            continue
        _emit(fmt, units, fmt.info(root), ordinal, unit_offset, sink)
    if fault is not None and all_parsed:
        fault_line, reason = fault
        sink.problem(fault_line, f"between units: {reason}", raw_text(data[start:end]))


def refuse_chunk(chunk: Chunk, reason: str, sink: Sink) -> None:
    """Every unit of a chunk rejected unparsed, with ``reason`` (its context cannot be read)."""
    for k, (s, e) in enumerate(chunk.spans):
        sink.rows(chunk.first_ordinal + k, [(chunk.line + chunk.data.count(b"\n", 0, s), reason,
                                             raw_text(chunk.data[s:e]))])


class RecordSink:
    """Collects ``TranslationUnit``/``Reject`` records (what ``registry.iter_sources`` yields)."""

    def __init__(self) -> None:
        self.tally = Tally()
        self.records: list[TranslationUnit | Reject] = []

    def rows(self, ordinal: int, rows: list[Row]) -> None:
        for row in rows:
            record = to_record(row)
            record.ordinal = ordinal
            self.records.append(record)

    def problem(self, line: int, reason: str, raw: str) -> None:
        self.records.append(Reject(str(line), reason, raw))


def iter_xml_records(stream: BinaryIO, fmt: XmlFormat, name: str) -> Iterator[TranslationUnit | Reject]:
    """Every unit of one XML stream as records, in this process (scoring sources, tests, small files).

    File-level problems become ``Reject`` rows without an ordinal; an unknown root raises
    ``MalformedFileError`` (a mislabelled file is an error, not zero units)."""
    scanner = UnitScanner(safexml.utf8_stream(stream), fmt.vocabulary)  # type: ignore[arg-type]
    refused: dict[Context, str | None] = {}
    for event in scanner.events():
        sink = RecordSink()
        if isinstance(event, Chunk):
            if event.context not in refused:
                refused[event.context] = check_context(event.context, name)
            reason = refused[event.context]
            if reason is None:
                parse_chunk(fmt, event, sink)
            else:
                refuse_chunk(event, reason, sink)
        elif isinstance(event, Oversized):
            sink.rows(event.ordinal, [oversized_row(event)])
        elif isinstance(event, Problem):
            if scanner.root is None or scanner.root not in fmt.vocabulary.roots:
                raise MalformedFileError(event.message, path=name, location=event.line)
            sink.problem(event.line, event.message, "")
        yield from sink.records


def oversized_row(event: Oversized) -> Row:
    return (event.line, f"unit of {event.size:,} bytes is over the {event.limit:,}-byte limit: not parsed",
            raw_text(event.head))


class XmlReader:
    """The ``Reader`` of one XML format (``registry.READERS``): records, in this process."""

    suffixes: ClassVar[tuple[str, ...]] = ()

    def __init__(self, fmt: XmlFormat) -> None:
        self.fmt = fmt
        self.format_name = fmt.name

    def read(self, stream: BinaryIO, name: str) -> Iterator[TranslationUnit | Reject]:
        return iter_xml_records(stream, self.fmt, name)
