"""XLIFF 2.x reader, streamed per <unit>: one row per <segment>.

translate-toolkit 3.20 reads XLIFF 2 but flattens pc/ph/sc/ec into placeables without the original
markup; we need both the tokens and the markup, so this is a small lxml walk (shared inline rules).
<ignorable> holds inter-segment material (whitespace, untranslatable text): not a unit, counted in
props ``ignorable``. <originalData> (the native codes behind ``dataRef``) is kept in props
``data:<id>`` so a placeholder's original code is never lost.
"""

from __future__ import annotations

import hashlib
from typing import BinaryIO, ClassVar, Iterator

from lxml import etree

from pipelines.readers import safexml
from pipelines.readers.base import Reject, TranslationUnit
from pipelines.readers.inline import XLIFF2_SPEC, InlineError, Numbering, render

RAW_MAX = 500


def _raw(element: safexml.Element) -> str:
    return etree.tostring(element, encoding="unicode", with_tail=False)[:RAW_MAX]


def _first(element: safexml.Element, name: str) -> safexml.Element | None:
    for child in element:
        if safexml.local_name(child.tag) == name:
            return child
    return None


def unit_records(unit: safexml.Element, langs: tuple[str | None, str | None], file_id: str | None
                 ) -> list[TranslationUnit | Reject]:
    line = unit.sourceline or 0
    props: list[tuple[str, str]] = [(f"unit@{k}", v) for k, v in unit.attrib.items() if k != "id"]
    if file_id:
        props.append(("file", file_id))
    notes: list[str] = []
    segments: list[safexml.Element] = []
    ignorables = 0
    for child in unit:
        kind = safexml.local_name(child.tag)
        if kind == "segment":
            segments.append(child)
        elif kind == "ignorable":
            ignorables += 1
        elif kind == "originalData":
            props.extend((f"data:{d.get('id')}", d.text or "") for d in child)
        elif kind == "notes":
            notes.extend((n.text or "").strip() for n in child)
    if ignorables:
        props.append(("ignorable", str(ignorables)))
    uid = unit.get("id") or "h" + hashlib.sha256(_raw(unit).encode()).hexdigest()[:16]
    if not segments:
        return [Reject(str(line), "unit without segment", _raw(unit))]
    out: list[TranslationUnit | Reject] = []
    for index, segment in enumerate(segments, 1):
        source, target = _first(segment, "source"), _first(segment, "target")
        seg_line = segment.sourceline or line
        if source is None:
            out.append(Reject(str(seg_line), "segment without source", _raw(segment)))
            continue
        numbering = Numbering()
        try:
            text, markup = render(source, XLIFF2_SPEC, numbering)
            tgt = (None, None) if target is None else render(target, XLIFF2_SPEC, numbering.for_target())
        except InlineError as exc:
            out.append(Reject(str(seg_line), "unparseable inline markup", f"{exc}; {_raw(segment)}"))
            continue
        flags = [f"state:{segment.get('state')}"] if segment.get("state") else []
        unit_id = uid if len(segments) == 1 else f"{uid}#{segment.get('id') or index}"
        tgt_lang = (target.get(safexml.XML_LANG) if target is not None else None) or langs[1]
        out.append(TranslationUnit(
            unit_id=unit_id, src_lang=source.get(safexml.XML_LANG) or langs[0], tgt_lang=tgt_lang,
            source=text, target=tgt[0], source_markup=markup, target_markup=tgt[1], line=seg_line,
            note="\n".join(notes) or None, props=props, flags=flags,
        ))
    return out


def iter_xliff2(stream: BinaryIO, name: str) -> Iterator[TranslationUnit | Reject]:
    langs: tuple[str | None, str | None] = (None, None)
    file_id: str | None = None
    events = safexml.iterparse(stream, name, events=("start", "end"), tag=("{*}xliff", "{*}file", "{*}unit"),
                               expect_root=("xliff",))
    for event, element in events:
        kind = safexml.local_name(element.tag)
        if event == "start":
            if kind == "xliff":
                langs = (element.get("srcLang"), element.get("trgLang"))
            elif kind == "file":
                file_id = element.get("original") or element.get("id")
            continue
        if kind != "unit":
            continue
        yield from unit_records(element, langs, file_id)
        element.clear()
        parent = element.getparent()
        if parent is not None:
            while element.getprevious() is not None:
                del parent[0]


class Xliff2Reader:
    """XLIFF 2.0/2.1 (``urn:oasis:names:tc:xliff:document:2.0``)."""

    format_name: ClassVar[str] = "xliff2"
    suffixes: ClassVar[tuple[str, ...]] = (".xlf", ".xliff")

    def read(self, stream: BinaryIO, name: str) -> Iterator[TranslationUnit | Reject]:
        return iter_xliff2(stream, name)
