"""Hostile-XML-safe parsing shared by every XML reader (TMX, XLIFF, TBX).

The parser never resolves entities, never loads a DTD, never touches the network and keeps libxml2's
size limits (huge_tree=False). A file that *declares* entities in its internal DTD subset is refused
outright (``UnsafeXmlError``): with resolution off such entities would silently vanish from the text,
and their only real-world use in a TM is an attack (billion laughs, XXE). A DOCTYPE that merely names
an external DTD (the Mozilla TBX) is fine: the DTD is never fetched.
"""

from __future__ import annotations

import codecs
import re
from typing import IO, Any, TypeAlias

from lxml import etree

from housestyle.pipelines.errors import UnsafeXmlError

# lxml-stubs (0.5) predate lxml 6: they type ``sourceline`` as ``...``, ``get()`` as ``str | bytes``
# and lack ``DTD.iterentities``; elements are therefore annotated with this alias on purpose.
Element: TypeAlias = Any

XML_NS = "http://www.w3.org/XML/1998/namespace"
XML_LANG = f"{{{XML_NS}}}lang"
PARSER_OPTIONS: dict[str, bool] = {
    "resolve_entities": False,
    "no_network": True,
    "load_dtd": False,
    "huge_tree": False,
    "remove_comments": True,
    "remove_pis": True,
    "strip_cdata": True,
}


def local_name(tag: object) -> str:
    """Element name without namespace ('' for comments and other non-elements)."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]


def refuse_entities(tree: Element, name: str) -> None:
    """Raise ``UnsafeXmlError`` when the document's internal DTD subset declares entities."""
    dtd = tree.docinfo.internalDTD
    if dtd is None:
        return
    names = [e.name for e in dtd.iterentities()]
    if names:
        raise UnsafeXmlError(
            f"refused: the DOCTYPE declares entities ({', '.join(sorted(names)[:5])}); "
            "entity expansion and external entities are never processed",
            path=name,
            location=1,
        )


def make_parser() -> Any:
    """A safe ``XMLParser`` (one per document: a parser's error log accumulates across documents)."""
    return etree.XMLParser(**PARSER_OPTIONS)  # type: ignore[arg-type]


_WIDE_ENCODINGS = (  # (first bytes, codec): UTF-32 before UTF-16, since FF FE 00 00 starts both
    (b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"), (b"<\x00\x00\x00", "utf-32-le"),
    (b"\x00\x00\x00<", "utf-32-be"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"), (b"<\x00", "utf-16-le"),
    (b"\x00<", "utf-16-be"),
)
_DECLARED_ENCODING = re.compile(r"^\ufeff?(<\?xml[^>]*?encoding\s*=\s*)([\"'])[^\"']*\2")


class _Utf8:
    """A UTF-16/32 document re-encoded as UTF-8 (its XML declaration saying so), so byte scans and
    chunked parsing apply. Lone surrogates pass through as bytes libxml2 rejects: that unit is
    rejected, nothing is silently replaced."""

    def __init__(self, head: bytes, stream: IO[bytes], codec: str) -> None:
        self._stream = stream
        self._decoder = codecs.getincrementaldecoder(codec)(errors="surrogatepass")
        text = _DECLARED_ENCODING.sub(r"\1\2UTF-8\2", self._decoder.decode(head)).lstrip("\ufeff")
        self._pending = text.encode("utf-8", "surrogatepass")

    def read(self, size: int = -1) -> bytes:
        while not self._pending or (size >= 0 and len(self._pending) < size):
            data = self._stream.read(size if size > 0 else 1 << 20)
            text = self._decoder.decode(data, final=not data)
            self._pending += text.encode("utf-8", "surrogatepass")
            if not data:
                break
        if size < 0:
            out, self._pending = self._pending, b""
        else:
            out, self._pending = self._pending[:size], self._pending[size:]
        return out


class Prefixed:
    """The bytes already read to sniff the encoding, then the rest of the stream."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        self._head, self._stream = head, stream

    def read(self, size: int = -1) -> bytes:
        if not self._head:
            return self._stream.read(size)
        if size < 0:
            out, self._head = self._head + self._stream.read(), b""
            return out
        out, self._head = self._head[:size], self._head[size:]
        return out


def utf8_stream(stream: IO[bytes]) -> IO[bytes]:
    """``stream`` itself for ASCII-compatible encodings (UTF-8, Latin-1…: the XML declaration still
    governs the parse), a UTF-8 re-encoding for UTF-16/32 (detected by BOM or by ``<`` padded with NULs)."""
    head = stream.read(4096)
    for prefix, codec in _WIDE_ENCODINGS:
        if head.startswith(prefix):
            return _Utf8(head, stream, codec)  # type: ignore[return-value]
    return Prefixed(head, stream)  # type: ignore[return-value]
