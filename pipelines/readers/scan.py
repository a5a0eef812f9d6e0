"""Independent unit accounting for XML memories: a byte scan that finds every unit element.

Why hand-written (lxml still parses every byte; this scan only finds where units are): the
invariant "units in the file = kept + rejected" needs a count that does not come from the parser
that may have stopped, and a unit that fails to parse can only be skipped, and the next one read,
if its bytes are known. The scan knows just enough XML for that: comments, CDATA sections,
processing instructions and the DOCTYPE are skipped (a ``</tu>`` inside them is text), start and
end tags are tokenised between units (with quoted attribute values, so ``>`` inside a value is
not a tag end), namespace declarations are tracked so a unit counts only in the root element's
namespace (``<sdl:trans-unit>`` is foreign), and a foreign element outside units is skipped whole
and counted. Inside a unit only its end tag is searched for (units never nest).

The scan yields ``Chunk``s: consecutive units that share one ``Context`` (the bytes every unit
needs around it to be a complete document: everything before the root, the ancestors' start tags
and elements such as TMX's ``<header>``, and the matching end tags). A unit is parsed alone as
``context.open + unit + context.close``. Memory is bounded by the block, chunk and unit sizes,
never by the file: a unit larger than ``max_unit_bytes`` is reported (``Oversized``) and skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import BinaryIO, Generator, Iterator

from housestyle.pipelines.readers.scan_buffer import END_TAG, MAX_TAG_BYTES, START_TAG, ScanBuffer
from housestyle.pipelines.readers.scan_events import (MAX_UNIT_BYTES, RAW_HEAD, Chunk, Context, Oversized, Problem,
                                           Vocabulary)

__all__ = ["CHUNK_BYTES", "MAX_UNIT_BYTES", "Chunk", "Context", "Oversized", "Problem", "UnitScanner",
           "Vocabulary", "root_element"]

XML_NS = "http://www.w3.org/XML/1998/namespace"
BLOCK_BYTES = 1 << 20
CHUNK_BYTES = 2 << 20  # units handed to one worker job (parsed there in smaller pieces)

_XMLNS = re.compile(rb"\sxmlns(?::([^\s=]+))?\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")


@dataclass
class _Level:
    qname: bytes
    start_tag: bytes
    namespaces: dict[bytes, str] | None
    kept: list[bytes] = field(default_factory=list)
    keep_from: int = -1  # absolute offset of a kept element's start (-1: not kept)


class UnitScanner(ScanBuffer):
    """Scan one XML stream; ``events()`` yields Chunk / Oversized / Problem, then the totals are set:
    ``units`` (every unit start tag found), ``foreign`` (foreign elements outside units), ``complete``
    (the stream ended with the root closed), ``root``/``namespace`` (what the root element is) and
    ``read_error`` (the stream broke: ``units`` counts what came before)."""

    def __init__(self, stream: BinaryIO, vocabulary: Vocabulary, *, chunk_bytes: int | None = None,
                 block_bytes: int | None = None, max_unit_bytes: int | None = None) -> None:
        super().__init__(stream, block_bytes or BLOCK_BYTES)
        self.vocabulary = vocabulary
        self.chunk_bytes = chunk_bytes or CHUNK_BYTES  # module values read at run time (tests shrink them)
        self.max_unit_bytes = max_unit_bytes or MAX_UNIT_BYTES
        self.units = self.foreign = 0
        self.complete = False
        self.root: str | None = None
        self.namespace: str | None = None
        self.root_tag = b""  # the root's start tag as written
        self._stack: list[_Level] = []
        self._preamble = b""
        self._context: Context | None = None
        self._pending: list[tuple[int, int]] = []  # absolute spans of units not yet emitted
        self._pending_line = 0
        self._end_patterns: dict[bytes, re.Pattern[bytes]] = {}
        self._names: dict[bytes, tuple[str | None, str]] = {}  # qname -> (namespace, local) under the current stack

    def _floor(self, keep: int) -> int:
        """Never drop the pending chunk's bytes, nor anything before the root (the preamble)."""
        if self.root is None:
            return self._base
        return min(keep, self._pending[0][0]) if self._pending else keep

    def _hopeless(self) -> bool:
        return self.root is None and len(self._buf) > 16 * MAX_TAG_BYTES  # no root in the first 16 MiB

    # -- namespaces and context -------------------------------------------------------------------
    def _resolve(self, qname: bytes, own: dict[bytes, str] | None) -> tuple[str | None, str]:
        if own is None:
            found = self._names.get(qname)
            if found is not None:
                return found
        prefix, _, local_bytes = qname.rpartition(b":")
        local = local_bytes.decode("utf-8", "replace")
        namespace: str | None = None if prefix else ""
        if prefix == b"xml":
            namespace = XML_NS
        else:
            for declared in [own] + [lv.namespaces for lv in reversed(self._stack)]:
                if declared and prefix in declared:
                    namespace = declared[prefix]
                    break
        if own is None:
            self._names[qname] = (namespace, local)
        return namespace, local

    def _push(self, level: _Level) -> None:
        self._stack.append(level)
        self._context = None
        if level.namespaces:
            self._names.clear()

    def context(self) -> Context:
        """The current unit context (cached until the stack changes)."""
        if self._context is None:
            opening = b"".join(lv.start_tag + b"".join(lv.kept) for lv in self._stack)
            closing = b"".join(b"</" + lv.qname + b">" for lv in reversed(self._stack))
            self._context = Context(self._preamble + opening, closing)
        return self._context

    # -- chunks -------------------------------------------------------------------------------------
    def _flush(self, truncated: bool = False) -> Iterator[Chunk]:
        if not self._pending:
            return
        start, end = self._pending[0][0], self._pending[-1][1]
        data = self._buf[start - self._base:end - self._base]
        spans = [(s - start, e - start) for s, e in self._pending]
        chunk = Chunk(self.context(), data, spans, self.units - len(spans) + 1, self._pending_line, truncated, start)
        self._pending = []
        yield chunk

    def _add_unit(self, start: int, end: int, line: int) -> Iterator[Chunk]:
        if not self._pending:
            self._pending_line = line
        self._pending.append((start, end))
        if end - self._pending[0][0] >= self.chunk_bytes:
            yield from self._flush()

    # -- the scan ---------------------------------------------------------------------------------
    def events(self) -> Iterator[Chunk | Oversized | Problem]:
        units, keep_names = self.vocabulary.units, self.vocabulary.keep
        pos = 0  # absolute offset
        while True:
            buf, base = self._buf, self._base
            pos = max(pos, base)  # a refill may have dropped the whitespace between pos and the next tag
            i = buf.find(b"<", pos - base)
            if i < 0 or len(buf) - i < 16 and not self._eof:
                if not self._fill(pos if i < 0 else base + i) and i < 0:
                    break
                continue
            at = base + i
            if i + 1 >= len(buf):  # a lone "<" at the end of the stream
                pos = base + len(buf)
                continue
            second = buf[i + 1]
            if second == 33 or second == 63:  # "<!" or "<?"
                pos = self._skip_markup(i)
                if pos < 0:
                    if self._fill(at):
                        pos = at
                        continue
                    yield Problem(self._line_to(at), "unterminated comment, CDATA section, DOCTYPE or processing instruction")
                    break
                continue
            if second == 47:  # "</"
                match = END_TAG.match(buf, i)
                if match is None:
                    if len(buf) - i < MAX_TAG_BYTES and self._fill(at):
                        pos = at
                        continue
                    pos = at + 2
                    continue
                pos = base + match.end()
                yield from self._end_tag(match.group(1), at, pos)
                continue
            match = START_TAG.match(buf, i)
            if match is None:
                if len(buf) - i < MAX_TAG_BYTES and self._fill(at):
                    pos = at
                    continue
                pos = at + 1  # not a tag we can read; libxml2 says why when it parses here
                continue
            qname, attrs = match.group(1), match.group(2)
            empty = attrs.endswith(b"/")
            own = _namespaces(attrs) if b"xmlns" in attrs else None
            namespace, local = self._resolve(qname, own)
            pos = base + match.end()
            if not self._stack:
                if self.root is not None:
                    yield Problem(self._line_to(at), f"content after the root element: <{local}>")
                    break
                self.root, self.namespace, self.root_tag = local, namespace, buf[i:match.end()]
                if local not in self.vocabulary.roots:
                    break
                self._preamble = buf[:i]
                self._push(_Level(qname, buf[i:match.end()], own))
                if empty:
                    self._stack.clear()
                    self.complete = True
                continue
            if namespace != self.namespace:
                self.foreign += 1
                if not empty:
                    pos = self._skip_foreign(pos)
                    if pos < 0:
                        break
                continue
            if local in units:
                self.units += 1
                pending = self._pending
                if not pending:  # lines are counted per chunk; the parse finds each unit's own
                    self._pending_line = self._line_to(at)
                if not empty:  # the common case inline (hot: once per unit); the general one in _unit_end
                    pattern = self._end_patterns.get(qname) or self._end_pattern(qname)
                    end_match = pattern.search(buf, match.end())
                    if end_match is None or buf[end_match.start() + 1] != 47:
                        pos = yield from self._unit_end(pattern, at, pos)
                        if pos < 0:
                            break
                        continue
                    pos = base + end_match.end()
                    if pos - at > self.max_unit_bytes:
                        yield from self._flush()
                        yield Oversized(self.units, self._line_to(at), pos - at, buf[i:i + RAW_HEAD], self.max_unit_bytes)
                        continue
                pending.append((at, pos))
                if pos - pending[0][0] >= self.chunk_bytes:
                    yield from self._flush()
                continue
            if empty:
                if local in keep_names:
                    yield from self._flush()
                    self._stack[-1].kept.append(buf[i:match.end()])
                    self._context = None
                continue
            yield from self._flush()
            self._push(_Level(qname, buf[i:match.end()], own, keep_from=at if local in keep_names else -1))
        yield from self._flush()
        yield from self._closing_problems()

    def _closing_problems(self) -> Iterator[Problem]:
        if self.root is not None and self.root not in self.vocabulary.roots:
            expected = "> or <".join(sorted(self.vocabulary.roots))
            yield Problem(1, f"root element is <{self.root}>, expected <{expected}>")
        elif self.root is None:
            yield Problem(1, "no root element")
        elif self._stack and self.read_error is None:
            names = "".join(f"</{lv.qname.decode('utf-8', 'replace')}>" for lv in reversed(self._stack))
            yield Problem(self._line_to(self._base + len(self._buf)), f"the file ends before {names} (truncated)")

    def _end_tag(self, qname: bytes, at: int, end: int) -> Iterator[Chunk | Problem]:
        if self._stack and self._stack[-1].qname != qname:
            open_tag = self._stack[-1].qname.decode("utf-8", "replace")
            yield Problem(self._line_to(at), f"end tag </{qname.decode('utf-8', 'replace')}> where <{open_tag}> is open")
        if not any(lv.qname == qname for lv in self._stack):
            return
        yield from self._flush()
        self._context = None
        while self._stack:
            level = self._stack.pop()
            if level.namespaces:
                self._names.clear()
            if level.keep_from >= 0 and self._stack:
                self._stack[-1].kept.append(self._buf[level.keep_from - self._base:end - self._base])
            if level.qname == qname:
                break
        if not self._stack:
            self.complete = True

    def _end_pattern(self, qname: bytes) -> re.Pattern[bytes]:
        pattern = self._end_patterns[qname] = re.compile(rb"</" + re.escape(qname) + rb"\s*>|<[!?]")
        return pattern

    def _unit_end(self, pattern: re.Pattern[bytes], start: int, search_from: int
                  ) -> Generator[Chunk | Oversized, None, int]:
        """Find the unit's end tag (skipping comments, CDATA and PIs); returns the offset after it, or
        -1 when the stream ended inside the unit (the truncated unit is still handed on: its parse
        says what is wrong)."""
        head = b""  # set once the unit is over the size limit: it is then skipped, not kept
        line = self._line_to(start)
        p = search_from
        while True:
            buf, base = self._buf, self._base
            if not head and p - start > self.max_unit_bytes:
                head = buf[start - base:start - base + RAW_HEAD]
                yield from self._flush()
            match = pattern.search(buf, p - base)
            if match is not None and buf[match.start() + 1] == 47:  # "/": the end tag
                end = base + match.end()
                if head or end - start > self.max_unit_bytes:
                    if not head:
                        head = buf[start - base:start - base + RAW_HEAD]
                        yield from self._flush()
                    yield Oversized(self.units, line, end - start, head, self.max_unit_bytes)
                else:
                    yield from self._add_unit(start, end, line)
                return end
            if match is None:
                resume = max(p, base + len(buf) - 16)
            else:
                skipped = self._skip_markup(match.start())
                if skipped >= 0:
                    p = skipped
                    continue
                resume = base + match.start()
            if not self._fill(resume if head else min(resume, start)):
                end = self._base + len(self._buf)
                if head:
                    yield Oversized(self.units, line, end - start, head, self.max_unit_bytes)
                else:
                    yield from self._add_unit(start, end, line)
                    yield from self._flush(truncated=True)
                return -1
            p = resume

def root_element(stream: BinaryIO) -> tuple[str | None, str | None, bytes]:
    """(namespace, local name, start tag) of a document's root, from the bytes before and at its start
    tag only (a sniff that a fault further down cannot break)."""
    scanner = UnitScanner(stream, Vocabulary(frozenset(), frozenset()), block_bytes=64 << 10)
    for _event in scanner.events():
        pass
    return scanner.namespace, scanner.root, scanner.root_tag


def _namespaces(attrs: bytes) -> dict[bytes, str]:
    return {m.group(1) or b"": (m.group(2) if m.group(2) is not None else m.group(3) or b"").decode("utf-8", "replace")
            for m in _XMLNS.finditer(attrs)}
