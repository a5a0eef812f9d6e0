"""XLIFF 2.x: the rows of one <unit>, one per <segment> (``XLIFF2_FORMAT`` for ``xmlunits``).

translate-toolkit 3.20 reads XLIFF 2 but flattens pc/ph/sc/ec into placeables without the original
markup; we need both the tokens and the markup, so this is a small lxml walk (shared inline rules).
<ignorable> holds inter-segment material (whitespace, untranslatable text): not a unit, counted in
props ``ignorable``. <originalData> (the native codes behind ``dataRef``) is kept in props
``data:<id>`` so a placeholder's original code is never lost.

Namespaces: units, segments, sources and targets only in the core namespace
(``urn:oasis:names:tc:xliff:document:2.x``, the root's). Modules and extensions (``<mtc:matches>``,
``<mda:metadata>``, an ``<ext:segment>`` inside a unit, an ``<ext:unit>`` in a file) are ignored and
counted; they never become segments or shift the segment numbers. Inline content admits no
extension element (XLIFF 2.0 §4.3.1): one there rejects its segment.
"""

from __future__ import annotations

import hashlib

from lxml import etree

from housestyle.pipelines.readers import safexml
from housestyle.pipelines.readers.base import Row, unit_row
from housestyle.pipelines.readers.inline import XLIFF2_SPEC, InlineError, Numbering, render
from housestyle.pipelines.readers.scan import Vocabulary
from housestyle.pipelines.readers.xliff12 import namespace_of, own_children, units_in
from housestyle.pipelines.readers.xmlunits import Tally, XmlFormat

RAW_MAX = 500


def _raw(element: safexml.Element) -> str:
    return etree.tostring(element, encoding="unicode", with_tail=False)[:RAW_MAX]


def _context(unit: safexml.Element, prefix: str) -> tuple[tuple[str | None, str | None], str | None]:
    """(srcLang, trgLang) of the document and the id of the unit's <file>."""
    file_id = None
    for ancestor in unit.iterancestors(prefix + "file"):
        file_id = ancestor.get("original") or ancestor.get("id")
        break
    root = unit.getroottree().getroot()
    return (root.get("srcLang"), root.get("trgLang")), file_id


def unit_rows(unit: safexml.Element, _info: object, line_offset: int, tally: Tally) -> list[Row]:
    namespace = namespace_of(unit)
    prefix = f"{{{namespace}}}" if namespace else ""
    line = (unit.sourceline or 0) + line_offset
    langs, file_id = _context(unit, prefix)
    props: list[tuple[str, str]] = [(f"unit@{k}", v) for k, v in unit.attrib.items() if k != "id"]
    if file_id:
        props.append(("file", file_id))
    parts = own_children(unit, prefix, tally)
    segments = parts.get("segment", [])
    for original in parts.get("originalData", []):
        props.extend((f"data:{d.get('id')}", d.text or "") for d in original if d.tag == prefix + "data")
    notes = [(n.text or "").strip() for block in parts.get("notes", []) for n in block if n.tag == prefix + "note"]
    if parts.get("ignorable"):
        props.append(("ignorable", str(len(parts["ignorable"]))))
    uid = unit.get("id") or "h" + hashlib.sha256(_raw(unit).encode()).hexdigest()[:16]
    if not segments:
        return [(line, "unit without segment", _raw(unit))]
    out: list[Row] = []
    for index, segment in enumerate(segments, 1):
        children = own_children(segment, prefix, tally)
        source, target = children.get("source", [None])[0], children.get("target", [None])[0]
        seg_line = (segment.sourceline or 0) + line_offset if segment.sourceline else line
        if source is None:
            out.append((seg_line, "segment without source", _raw(segment)))
            continue
        numbering = Numbering()
        try:
            text, markup = render(source, XLIFF2_SPEC, numbering, line_offset, namespace)
            tgt = ((None, None) if target is None else
                   render(target, XLIFF2_SPEC, numbering.for_target(), line_offset, namespace))
        except InlineError as exc:
            out.append((seg_line, "unparseable inline markup", f"{exc}; {_raw(segment)}"))
            continue
        flags = [f"state:{segment.get('state')}"] if segment.get("state") else []
        unit_id = uid if len(segments) == 1 else f"{uid}#{segment.get('id') or index}"
        tgt_lang = (target.get(safexml.XML_LANG) if target is not None else None) or langs[1]
        out.append(unit_row(
            unit_id=unit_id, src_lang=source.get(safexml.XML_LANG) or langs[0], tgt_lang=tgt_lang,
            source=text, target=tgt[0], source_markup=markup, target_markup=tgt[1], line=seg_line,
            note="\n".join(notes) or None, props=props, flags=flags,
        ))
    return out


XLIFF2_FORMAT = XmlFormat(
    name="xliff2",
    vocabulary=Vocabulary(roots=frozenset({"xliff"}), units=frozenset({"unit"})),
    units=lambda root: units_in(root, ("unit",)),
    info=lambda root: None,
    rows=unit_rows,
)
