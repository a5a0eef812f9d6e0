"""TMX 1.4b reader: streamed, memory flat in file size.

Not translate-toolkit's ``tmxfile``: it builds the whole tree (measured: ~1.06 GB peak and ~16k
units/s on a 200k-unit file) and drops the inline-code identity. A file is split at ``</tu>``
boundaries into ~256 KB chunks, each parsed by lxml as a small document (``tmx_parallel``: in this
process, or on several cores for big files); UTF-16 files and the region after a failing chunk use
``iter_tmx`` (lxml iterparse, each <tu> cleared after use). All paths share ``tu_rows``.

One row per (tu x non-source tuv). The source tuv is the one in the tu's ``srclang`` (else the
header's); with ``*all*`` or no srclang, the first tuv. A tu with no other tuv yields one unit with
no target (the ingest rejects it; a scorer reading a source file wants it).
"""

from __future__ import annotations

import functools
import hashlib
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO, ClassVar, Iterator

from lxml import etree

from pipelines.errors import MalformedFileError
from pipelines.langtags import try_normalise
from pipelines.readers import safexml
from pipelines.readers.base import Reject, TranslationUnit
from pipelines.readers.inline import (
    TMX_SPEC,
    InlineError,
    Numbering,
    escape_text,
    render,
    render_text,
)
from pipelines.unit_hash import unit_hash

_XML_LANG = safexml.XML_LANG
DOMAIN_PROPS = frozenset({"x-domain", "domain", "subject", "x-subject"})
TU_TAGS = ("{*}header", "{*}tu")
RAW_MAX = 500
_LINE_REF = re.compile(r"\bline (\d+)")  # in libxml2's error messages (not XML)


@functools.lru_cache(maxsize=8192)
def parse_tmx_date(value: str | None) -> datetime | None:
    """TMX dates are ``YYYYMMDDThhmmssZ`` (UTC); anything else is kept only in props. Cached: TMs
    repeat the same few thousand timestamps."""
    if not value or len(value) != 16 or value[8] != "T" or value[15] != "Z":
        return None
    try:
        return datetime(int(value[0:4]), int(value[4:6]), int(value[6:8]), int(value[9:11]),
                        int(value[11:13]), int(value[13:15]), tzinfo=timezone.utc)
    except ValueError:
        return None


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


# A row is a TranslationUnit's fields as a tuple (cheap to pickle from worker processes), or a
# 3-tuple (line, reason, raw) for a reject; ``to_record`` makes the dataclass.
Row = tuple[Any, ...]


def to_record(row: Row) -> TranslationUnit | Reject:
    if len(row) == 3:
        return Reject(str(row[0]), row[1], row[2])
    return TranslationUnit(*row)


_PAIRS: dict[tuple[str | None, str | None], tuple[str | None, str | None]] = {}


def _norm_pair(src: str | None, tgt: str | None) -> tuple[str | None, str | None]:
    """Normalised (source, target) tags, memoised per pair (a TM has a handful)."""
    pair = _PAIRS.get((src, tgt))
    if pair is None:
        pair = _PAIRS[(src, tgt)] = (try_normalise(src), try_normalise(tgt))
    return pair


def tu_rows(tu: safexml.Element, header: TmxHeader, line_offset: int = 0) -> list[Row]:
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
    if srclang and srclang != "*all*":
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
    created = parse_tmx_date(created_raw)
    changed = parse_tmx_date(changed_raw)
    note = "\n".join(notes) if notes else None
    n_tuvs = len(tuvs)
    unit_id = tuid
    if unit_id is None:  # no tuid: a content hash (stable across re-ingest), the same for every target
        joined = "\x1f".join([src_lang or "", source_markup] + [_raw(tuvs[i][1]) for i in range(n_tuvs) if i != src_index])
        unit_id = "h" + hashlib.sha256(joined.encode()).hexdigest()[:16]
    if n_tuvs == 1:
        return [(unit_id, src_lang, None, source, None, source_markup, None, line, created, changed,
                 creator, note, None, props, [], domain, None)]
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
        unit_created, unit_changed, unit_creator, unit_props = created, changed, creator, props
        if len(items) > 1:  # tuv-level metadata overrides the tu's for this target
            attrs = dict(items)
            unit_created = parse_tmx_date(attrs.get("creationdate")) or created
            unit_changed = parse_tmx_date(attrs.get("changedate")) or changed
            unit_creator = attrs.get("creationid") or creator
        if n_children > 1:
            unit_props = props + [(f"tuv:{_tag(c)}:{c.get('type') or ''}", c.text or "")
                                  for c in tuv if _tag(c) in ("prop", "note")]
        tgt_lang = langs[i]
        src_norm, tgt_norm = _norm_pair(src_lang, tgt_lang)
        digest = unit_hash(src_norm, tgt_norm, source, target)  # here: in the worker
        out.append((unit_id, src_lang, tgt_lang, source, target, source_markup, target_markup, line,
                    unit_created, unit_changed, unit_creator, note, None, unit_props, [], domain, digest))
    return out


def iter_tmx(stream: BinaryIO, name: str, line_offset: int = 0) -> Iterator[TranslationUnit | Reject]:
    """Stream one TMX document (or a prologue-wrapped part of one); clears every <tu> after use."""
    header = TmxHeader()
    events = safexml.iterparse(stream, name, events=("end",), tag=TU_TAGS, line_offset=line_offset,
                               expect_root=("tmx",))
    try:
        for _event, element in events:
            if _tag(element) == "header":
                header = TmxHeader(element)
                continue
            for row in tu_rows(element, header, line_offset):
                yield to_record(row)
            element.clear()
            parent = element.getparent()
            if parent is not None:
                while element.getprevious() is not None:
                    del parent[0]
    except MalformedFileError as exc:
        if not line_offset:
            raise
        # a part of a file: libxml2's message names lines of the part ("... tag seg line 6, line 6, column 3")
        reason = _LINE_REF.sub(lambda m: f"line {int(m.group(1)) + line_offset}", exc.reason)
        raise MalformedFileError(reason, path=exc.path, location=exc.location) from None


class TmxReader:
    """TMX 1.4b (also 1.1/1.2 files, which differ only in ``lang`` vs ``xml:lang``)."""

    format_name: ClassVar[str] = "tmx"
    suffixes: ClassVar[tuple[str, ...]] = (".tmx",)

    def read(self, stream: BinaryIO, name: str) -> Iterator[TranslationUnit | Reject]:
        """Chunked (``tmx_parallel.read_tmx_stream``): faster than one ``iterparse`` and exact line
        numbers past line 65,535; the same rows."""
        from pipelines.readers.tmx_parallel import read_tmx_stream

        return read_tmx_stream(stream, name)

    def read_path(self, path: Path, name: str, workers: int = 2) -> Iterator[TranslationUnit | Reject]:
        """Like ``read`` for a file on disk; big files are parsed in chunks on ``workers`` processes."""
        from pipelines.readers.tmx_parallel import read_tmx_file

        return read_tmx_file(path, name, workers)
