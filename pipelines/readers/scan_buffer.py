"""The byte scan's window on a stream: blocks read on demand, bytes dropped once consumed, lines
counted as it moves, and the XML constructs skipped whole (comments, CDATA, PIs, DOCTYPE, foreign
elements). ``scan.UnitScanner`` builds on it; see that module for why this is hand-written.
"""

from __future__ import annotations

import re
from typing import BinaryIO

MAX_TAG_BYTES = 1 << 20
START_TAG = re.compile(rb"<([^\s/>]+)((?:[^>\"']++|\"[^\"]*+\"|'[^']*+')*+)>")  # possessive: no backtracking
END_TAG = re.compile(rb"</([^\s>]+)\s*>")
_DOCTYPE = re.compile(rb"<!DOCTYPE(?:[^\[>\"']|\"[^\"]*\"|'[^']*')*(?:\[(?:[^\]\"']|\"[^\"]*\"|'[^']*')*\])?\s*>")
_MARKUP_END = {b"<!--": b"-->", b"<![CDATA[": b"]]>", b"<?": b"?>"}


class ScanBuffer:
    """``_buf`` holds the stream's bytes from absolute offset ``_base``; ``_line`` is the line number
    at offset ``_line_at``. Subclasses say what must not be dropped yet (``_floor``)."""

    def __init__(self, stream: BinaryIO, block_bytes: int) -> None:
        self.stream, self.block_bytes = stream, block_bytes
        self.read_error: Exception | None = None  # why the stream stopped early
        self._buf = b""
        self._base = 0
        self._eof = False
        self._line, self._line_at = 1, 0

    def _floor(self, keep: int) -> int:
        return keep

    def _hopeless(self) -> bool:
        """Whether to stop reading (the stream is not a document worth the memory)."""
        return False

    def _fill(self, keep: int) -> bool:
        """Drop bytes before absolute offset ``keep`` (or before ``_floor``), then read a block; False at
        the end of the stream (or when it broke: ``read_error``)."""
        keep = max(self._floor(keep), self._base)
        if self._hopeless():
            self._eof = True
            return False
        self._line_to(keep)
        if self._eof:
            return False
        try:
            data = self.stream.read(self.block_bytes)
        except Exception as exc:  # noqa: BLE001 - a truncated archive, a refused bomb, an I/O error:
            self.read_error = exc  # what was read is scanned as if the stream ended here
            data = b""
        if not data:
            self._eof = True
            return False
        self._buf = self._buf[keep - self._base:] + data
        self._base = keep
        return True

    def _line_to(self, offset: int) -> int:
        if offset > self._line_at:
            self._line += self._buf.count(b"\n", self._line_at - self._base, offset - self._base)
            self._line_at = offset
        return self._line

    def _skip_markup(self, i: int) -> int:
        """Absolute offset after the comment, CDATA section, PI or DOCTYPE at buffer index ``i``
        (-1: its end is not in the buffer)."""
        buf = self._buf
        if buf.startswith(b"<!DOCTYPE", i):
            match = _DOCTYPE.match(buf, i)
            return -1 if match is None else self._base + match.end()
        opener = next((o for o in _MARKUP_END if buf.startswith(o, i)), None)
        if opener is None:
            return -1 if len(buf) - i < 9 and not self._eof else self._base + i + 2
        k = buf.find(_MARKUP_END[opener], i + len(opener))
        return -1 if k < 0 else self._base + k + len(_MARKUP_END[opener])

    def _skip_foreign(self, pos: int) -> int:
        """Skip a foreign element's content; the offset after its end tag (-1: the stream ended)."""
        depth = 1
        while depth:
            buf, base = self._buf, self._base
            pos = max(pos, base)
            i = buf.find(b"<", pos - base)
            if i < 0 or len(buf) - i < 16 and not self._eof:
                if not self._fill(pos if i < 0 else base + i) and i < 0:
                    return -1
                continue
            if i + 1 >= len(buf):
                return -1
            if buf[i + 1] in (33, 63):
                skipped = self._skip_markup(i)
                if skipped < 0:
                    if not self._fill(base + i):
                        return -1
                    continue
                pos = skipped
                continue
            closing = buf[i + 1] == 47
            match = (END_TAG if closing else START_TAG).match(buf, i)
            if match is None:
                if len(buf) - i < MAX_TAG_BYTES and self._fill(base + i):
                    continue
                pos = base + i + 1
                continue
            depth += -1 if closing else (0 if match.group(2).endswith(b"/") else 1)
            pos = base + match.end()
        return pos
