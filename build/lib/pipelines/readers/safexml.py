"""Hostile-XML-safe streaming parse shared by every XML reader (TMX, XLIFF, TBX).

The parser never resolves entities, never loads a DTD, never touches the network and keeps libxml2's
size limits (huge_tree=False). A file that *declares* entities in its internal DTD subset is refused
outright (``UnsafeXmlError``): with resolution off such entities would silently vanish from the text,
and their only real-world use in a TM is an attack (billion laughs, XXE). A DOCTYPE that merely names
an external DTD (the Mozilla TBX) is fine: the DTD is never fetched.
"""

from __future__ import annotations

from typing import IO, Any, Iterator, TypeAlias

from lxml import etree

from pipelines.errors import MalformedFileError, UnsafeXmlError

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


def _refuse_entities(tree: Element, name: str) -> None:
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


def syntax_error(exc: etree.XMLSyntaxError, name: str, line_offset: int = 0) -> MalformedFileError:
    """Turn an lxml syntax error into our error naming file and line (line_offset: chunked parses)."""
    line = exc.lineno if exc.lineno else None
    msg = exc.msg or str(exc)
    # libxml2 appends "(<file>, line N)"; our message names the file and line already.
    msg = msg.split(" (", 1)[0] if "line" in msg else msg
    return MalformedFileError(
        f"not well-formed XML: {msg}", path=name, location=None if line is None else line + line_offset
    )


def iterparse(
    source: IO[bytes],
    name: str,
    *,
    events: tuple[str, ...] = ("end",),
    tag: str | tuple[str, ...] | None = None,
    line_offset: int = 0,
    expect_root: tuple[str, ...] = (),
) -> Iterator[tuple[str, Element]]:
    """``lxml.etree.iterparse`` with the safe options; errors become ``MalformedFileError``/``UnsafeXmlError``.

    The entity check (and the root-name check, so a mislabelled file is an error rather than zero
    units) runs on the first event, i.e. before any unit is handed to a reader.
    """
    parser: Any = etree.iterparse(source, events=events, tag=tag, **PARSER_OPTIONS)
    checked = False
    try:
        for event, element in parser:
            if not checked:
                _check_document(element.getroottree(), name, expect_root)
                checked = True
            yield event, element
        if not checked and parser.root is not None:
            _check_document(parser.root.getroottree(), name, expect_root)
    except etree.XMLSyntaxError as exc:
        raise syntax_error(exc, name, line_offset) from None


def _check_document(tree: Element, name: str, expect_root: tuple[str, ...]) -> None:
    _refuse_entities(tree, name)
    root = tree.getroot()
    if expect_root and local_name(root.tag) not in expect_root:
        raise MalformedFileError(
            f"root element is <{local_name(root.tag)}>, expected <{'> or <'.join(expect_root)}>",
            path=name,
            location=root.sourceline,
        )


def make_parser() -> Any:
    """A safe ``XMLParser`` (the same options as ``iterparse``)."""
    return etree.XMLParser(**PARSER_OPTIONS)  # type: ignore[arg-type]


def pull_parser() -> Any:
    """A safe incremental parser reporting element starts (sniffing roots, TMX prologues)."""
    return etree.XMLPullParser(events=("start",), **PARSER_OPTIONS)  # type: ignore[arg-type]


def parse_bytes(data: bytes, name: str) -> Element:
    """Whole-document safe parse (small documents only)."""
    parser = make_parser()
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise syntax_error(exc, name) from None
    _refuse_entities(root.getroottree(), name)
    return root


def sniff_root(stream: IO[bytes], name: str) -> Element:
    """The root element (tag and attributes only), fed 4 KB at a time and stopping at its start tag,
    so an error further down the file is left for the reader to report after its readable units."""
    parser = pull_parser()
    try:
        while chunk := stream.read(4096):
            parser.feed(chunk)
            for _event, root in parser.read_events():
                return root
    except etree.XMLSyntaxError as exc:
        raise syntax_error(exc, name) from None
    raise MalformedFileError("no root element", path=name, location=1)
