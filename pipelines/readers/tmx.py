"""TMX 1.4b: the rows of one <tu> (``TMX_FORMAT`` for the shared scan/parse in ``xmlunits``).

Not translate-toolkit's ``tmxfile``: it builds the whole tree (measured: ~1.2 GB peak on a 200k-unit
file) and drops the inline-code identity. Files are scanned and parsed in chunks (``scan.py``,
``xmlunits.py``), on several processes for big files; every path ends in ``tu_rows``.

One row per (tu x non-source tuv). The source tuv is the one in the tu's ``srclang`` (else the
header's); with ``*all*`` or no srclang, the first tuv, and the rows are flagged
``src_lang_assumed``. A tu with no other tuv yields one unit with no target (the ingest rejects it;
a scorer reading a source file wants it).
"""

from __future__ import annotations

import hashlib
from typing import Any

from lxml import etree

from housestyle.pipelines.langtags import try_normalise
from housestyle.pipelines.readers import safexml
from housestyle.pipelines.readers.base import Row, parse_tmx_date
from housestyle.pipelines.readers.inline import (
    TMX_SPEC,
    InlineError,
    Numbering,
    escape_text,
    render,
    render_text,
)
from housestyle.pipelines.readers.scan import Vocabulary
from housestyle.pipelines.readers.xmlunits import Tally, XmlFormat
from housestyle.pipelines.unit_hash import unit_hash

__all__ = ["TMX_FORMAT", "TmxHeader", "parse_tmx_date", "tu_rows"]

_XML_LANG = safexml.XML_LANG
DOMAIN_PROPS = frozenset({"x-domain", "domain", "subject", "x-subject"})
RAW_MAX = 500
ASSUMED = ["src_lang_assumed"]


_KEYS: dict[str | None, str] = {}
_INTERNED: dict[str, str] = {}
_NO_CODES = Numbering()  # shared by segments without inline codes: never numbered, never mutated
_TU_CHILDREN = frozenset({"tuv", "prop", "note"})


def _key(lang: str | None) -> str:
    """Comparison key of a tag (memoised: a TM has a handful of distinct tags)."""
    key = _KEYS.get(lang)
    if key is None:
        key = _KEYS[lang] = (lang or "").strip().replace("_", "-").lower()
    return key


def _tuv_lang(items: list[tuple[str, str]]) -> str | None:
    """xml:lang (TMX 1.1 wrote ``lang``), interned so pickled chunks carry each tag once."""
    for key, value in items:
        if key == _XML_LANG or key == "lang":
            return _INTERNED.setdefault(value, value)
    return None


def _raw(tu: safexml.Element) -> str:
    return etree.tostring(tu, encoding="unicode", with_tail=False)[:RAW_MAX]


def _tag(element: safexml.Element) -> str:
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag if "}" not in tag else tag.rsplit("}", 1)[1]


def _seg(tuv: safexml.Element) -> safexml.Element | None:
    for child in tuv:
        if _tag(child) == "seg":
            return child
    return None


class TmxHeader:
    """What the <header> says that every unit needs."""

    __slots__ = ("srclang", "domain")

    def __init__(self, element: safexml.Element | None = None) -> None:
        self.srclang = element.get("srclang") if element is not None else None
        self.domain = None
        if element is not None:
            for child in element:
                if _tag(child) == "prop" and (child.get("type") or "").lower() in DOMAIN_PROPS:
                    self.domain = (child.text or "").strip() or None


_PAIRS: dict[tuple[str | None, str | None], tuple[str | None, str | None]] = {}


def _norm_pair(src: str | None, tgt: str | None) -> tuple[str | None, str | None]:
    """Normalised (source, target) tags, memoised per pair (a TM has a handful)."""
    pair = _PAIRS.get((src, tgt))
    if pair is None:
        pair = _PAIRS[(src, tgt)] = (try_normalise(src), try_normalise(tgt))
    return pair


def tu_rows(tu: safexml.Element, header: TmxHeader, line_offset: int = 0, tally: Tally | None = None) -> list[Row]:
    """The rows of one <tu>. Hot path (millions of calls): each lxml call costs ~0.5 us, so every
    element and attribute is touched once; no dataclasses."""
    line = (tu.sourceline or 0) + line_offset
    tuid = own_srclang = created_raw = changed_raw = creator = None
    props: list[tuple[str, str]] = []
    for key, value in tu.items():
        if key == "tuid":
            tuid = value
        elif key == "creationdate":
            created_raw = value
        elif key == "changedate":
            changed_raw = value
        elif key == "creationid":
            creator = value
        elif key == "srclang":
            own_srclang = value
        else:
            props.append((f"tu@{key}", value))
    srclang = own_srclang or header.srclang
    notes: list[str] = []
    tuvs: list[tuple[list[tuple[str, str]], safexml.Element, safexml.Element | None, int]] = []
    langs: list[str | None] = []
    domain, own_domain = header.domain, False
    for child in tu:
        tag = child.tag
        if tag not in _TU_CHILDREN:
            tag = _tag(child)
        if tag == "tuv":
            items = child.items()
            n_children = len(child)
            if n_children == 1:  # the common case: one <seg>
                seg = child[0]
                if seg.tag != "seg" and _tag(seg) != "seg":
                    seg = None
            else:
                seg = _seg(child)
            tuvs.append((items, child, seg, n_children))
            if len(items) == 1 and (items[0][0] == _XML_LANG or items[0][0] == "lang"):
                value = items[0][1]
                langs.append(_INTERNED.get(value) or _INTERNED.setdefault(value, value))
            else:
                langs.append(_tuv_lang(items))
        elif tag == "prop":
            ptype = child.get("type") or ""
            value = child.text or ""
            props.append((ptype, value))
            if not own_domain and ptype.lower() in DOMAIN_PROPS and value.strip():
                domain, own_domain = value.strip(), True
        elif tag == "note":
            notes.append(child.text or "")
    if not tuvs:
        return [(line, "no tuv in tu", _raw(tu))]
    src_index = 0
    flags: list[str] = []
    if not srclang or srclang == "*all*":
        flags = ASSUMED  # shared, never mutated: the first tuv is taken as the source
    else:
        wanted = _KEYS.get(srclang) or _key(srclang)
        src_index = -1
        for i, tag_as_written in enumerate(langs):
            if (_KEYS.get(tag_as_written) or _key(tag_as_written)) == wanted:
                src_index = i
                break
        if src_index < 0:
            return [(line, "no tuv in the source language", f"srclang={srclang}; " + _raw(tu))]
    src_seg = tuvs[src_index][2]
    numbering = _NO_CODES  # the source's code numbers, for its targets (only made when it has codes)
    try:
        if src_seg is None:
            source = source_markup = ""
        elif not len(src_seg):  # render_text, inlined (the hot path)
            source = src_seg.text or ""
            if "⟨" in source:
                render_text(source)
            source_markup = escape_text(source) if "&" in source or "<" in source or ">" in source else source
        else:
            numbering = Numbering()
            source, source_markup = render(src_seg, TMX_SPEC, numbering, line_offset)
    except InlineError as exc:
        return [(line, "unparseable inline markup", f"{exc}; " + _raw(tu))]
    src_lang = langs[src_index]
    note = "\n".join(notes) if notes else None
    n_tuvs = len(tuvs)
    unit_id = tuid
    if unit_id is None:  # no tuid: a content hash (stable across re-ingest), the same for every target
        joined = "\x1f".join([src_lang or "", source_markup] + [_raw(tuvs[i][1]) for i in range(n_tuvs) if i != src_index])
        unit_id = "h" + hashlib.sha256(joined.encode()).hexdigest()[:16]
    if n_tuvs == 1:
        return [(unit_id, src_lang, None, source, None, source_markup, None, line, created_raw, changed_raw,
                 creator, note, None, props, flags, domain, None)]
    out: list[Row] = []
    for i in range(n_tuvs):
        if i == src_index:
            continue
        items, tuv, seg, n_children = tuvs[i]
        try:
            if seg is None:
                target = target_markup = ""
            elif not len(seg):
                target = seg.text or ""
                if "⟨" in target:
                    render_text(target)
                target_markup = escape_text(target) if "&" in target or "<" in target or ">" in target else target
            else:
                target, target_markup = render(seg, TMX_SPEC, numbering.for_target(), line_offset)
        except InlineError as exc:
            out.append((line, "unparseable inline markup", f"{exc}; " + _raw(tu)))
            continue
        unit_created, unit_changed, unit_creator, unit_props = created_raw, changed_raw, creator, props
        if len(items) > 1:  # tuv-level metadata overrides the tu's for this target (when it is a date)
            attrs = dict(items)
            if parse_tmx_date(attrs.get("creationdate")) is not None:
                unit_created = attrs["creationdate"]
            if parse_tmx_date(attrs.get("changedate")) is not None:
                unit_changed = attrs["changedate"]
            unit_creator = attrs.get("creationid") or creator
        if n_children > 1:
            unit_props = props + [(f"tuv:{_tag(c)}:{c.get('type') or ''}", c.text or "")
                                  for c in tuv if _tag(c) in ("prop", "note")]
        tgt_lang = langs[i]
        src_norm, tgt_norm = _norm_pair(src_lang, tgt_lang)
        digest = unit_hash(src_norm, tgt_norm, source, target)  # here: in the worker
        out.append((unit_id, src_lang, tgt_lang, source, target, source_markup, target_markup, line,
                    unit_created, unit_changed, unit_creator, note, None, unit_props, flags, domain, digest))
    return out


def _units(root: safexml.Element) -> list[safexml.Element]:
    """The <tu> children of <body>, in the root's namespace (what the scan counts)."""
    tag = root.tag
    tu = "tu" if tag == "tmx" else tag[: -len("tmx")] + "tu"
    for child in root:
        if child.tag == tu[: -len("tu")] + "body":
            return [c for c in child if c.tag == tu]
    return []


def _header(root: safexml.Element) -> TmxHeader:
    header = root.tag[: -len("tmx")] + "header"
    return TmxHeader(next((c for c in root if c.tag == header), None))


TMX_FORMAT = XmlFormat(
    name="tmx",
    vocabulary=Vocabulary(roots=frozenset({"tmx"}), units=frozenset({"tu"}), keep=frozenset({"header"})),
    units=_units,
    info=_header,
    rows=tu_rows,
)
