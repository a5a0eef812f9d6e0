"""Load a segment file (sources, system outputs, references) as ``{segment_id: text}``.

Formats (SPEC.md §3): TSV with header ``id<TAB>text`` (extra columns ignored; no quoting: a tab or
newline cannot occur inside a text), JSONL with one ``{"id": …, "text": …}`` a line (``text`` null
= not produced), TMX / XLIFF / PO through the ingest readers (id = the unit id; text = the target
when the unit has one, else the source, unless ``side`` says which), and the WMT "fake SGML"
files (``<doc docid=…>`` … ``<seg id=N>``; id = ``docid:N``, which is the TICO-19 TMX tuid).
Every error names the file and line; duplicate ids are errors, never a silent overwrite. A UTF-8
byte order mark (which Windows editors write) is not part of the first line.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Iterator, Literal

from housestyle.pipelines.errors import InputError, MalformedFileError, UnsupportedFormatError
from housestyle.pipelines.readers.base import Reject, TranslationUnit
from housestyle.pipelines.textinput import json_value, text_lines

Side = Literal["source", "target"]
_WMT_MARKERS = ("<tstset", "<srcset", "<refset", "<mteval")
_WMT_DOC_RE = re.compile(r"<doc\b[^>]*\bdocid=\"([^\"]*)\"")
_WMT_SEG_RE = re.compile(r"<seg\b[^>]*\bid=\"?([^\">\s]+)\"?[^>]*>(.*?)</seg>")
_WMT_MARKUP_RE = re.compile(r"</?term\b[^>]*>")  # WMT21 terminology files wrap terms in <term …>


def _put(out: dict[str, str], seg_id: str, text: str, path: Path, where: int | str) -> None:
    if not seg_id:
        raise InputError("empty segment id", path=str(path), location=where)
    if seg_id in out and out[seg_id] != text:
        raise InputError(f"duplicate segment id {seg_id!r} with a different text", path=str(path), location=where)
    out[seg_id] = text


def _load_tsv(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    lines = text_lines(path, newline="")
    _n, first = next(lines, (1, ""))
    header = first.rstrip("\r\n").split("\t")
    if "id" not in header or "text" not in header:
        raise InputError("TSV header must name the columns 'id' and 'text' (id<TAB>text)", path=str(path), location=1)
    id_col, text_col = header.index("id"), header.index("text")
    for number, line in lines:
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != len(header):
            raise InputError(f"expected {len(header)} tab-separated fields, got {len(fields)}", path=str(path), location=number)
        _put(out, fields[id_col], fields[text_col], path, number)
    return out


def _load_jsonl(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for number, line in text_lines(path):
        if not line.strip():
            continue
        row = json_value(line, path=path, location=number)
        if not isinstance(row, dict) or "id" not in row or "text" not in row:
            raise InputError('each line must be an object with "id" and "text"', path=str(path), location=number)
        seg_id, text = row["id"], row["text"]
        if isinstance(seg_id, bool) or not isinstance(seg_id, (str, int)):
            raise InputError(f"id must be a string or integer, got {seg_id!r}", path=str(path), location=number)
        if text is None:
            continue  # explicitly not produced: missing coverage
        if not isinstance(text, str):
            raise InputError(f"text must be a string or null, got {type(text).__name__}", path=str(path), location=number)
        _put(out, str(seg_id), text, path, number)
    return out


def is_wmt_sgml(path: Path) -> bool:
    """WMT test-set files (``.sgm``, or ``.xml`` whose head shows ``<tstset``/``<srcset``/``<refset``)."""
    if path.suffix.lower() == ".sgm":
        return True
    if path.suffix.lower() != ".xml":
        return False
    with path.open(encoding="utf-8", errors="replace") as handle:
        head = handle.read(4096)
    return any(marker in head for marker in _WMT_MARKERS)


def _load_wmt(path: Path) -> dict[str, str]:
    """Line-by-line, not XML: these files have unescaped ``<`` and missing end tags (PROVENANCE)."""
    out: dict[str, str] = {}
    docid: str | None = None
    for number, line in text_lines(path):
        doc = _WMT_DOC_RE.search(line)
        if doc:
            docid = doc.group(1)
        for seg in _WMT_SEG_RE.finditer(line):
            if docid is None:
                raise MalformedFileError("<seg> outside a <doc docid=…>", path=str(path), location=number)
            # tokenised text: whitespace carries nothing, and removed <term> tags leave doubles
            text = " ".join(html.unescape(_WMT_MARKUP_RE.sub("", seg.group(2))).split())
            _put(out, f"{docid}:{seg.group(1)}", text, path, number)
    if not out:
        raise MalformedFileError("no <seg id=…> lines found", path=str(path))
    return out


def _iter_reader_units(path: Path) -> Iterator[tuple[str, TranslationUnit | Reject]]:
    try:
        from housestyle.pipelines.readers.registry import iter_units  # the ingest readers (TMX, XLIFF, PO)
    except ImportError:
        raise UnsupportedFormatError("no reader registry available for this format yet", path=str(path)) from None
    yield from iter_units(path)


def _load_units(path: Path, side: Side | None, tgt_lang: str | None, rejects: list[Reject] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for _name, item in _iter_reader_units(path):
        if isinstance(item, Reject):
            if rejects is None:
                raise InputError(f"unusable unit: {item.reason}", path=str(path), location=item.location)
            rejects.append(item)
            continue
        if tgt_lang is not None and (item.tgt_lang or "").lower() != tgt_lang.lower():
            continue
        if side == "source":
            text: str | None = item.source
        elif side == "target":
            text = item.target
        else:
            text = item.target if item.target is not None else item.source
        if text is None:
            continue  # no target: not produced
        _put(out, item.unit_id, text, path, item.line if item.line is not None else item.unit_id)
    return out


def load_segments(
    path: Path,
    *,
    side: Side | None = None,
    tgt_lang: str | None = None,
    rejects: list[Reject] | None = None,
) -> dict[str, str]:
    """``{segment_id: text}`` from any supported file. ``side`` (TMX/XLIFF/PO only): ``"source"``,
    ``"target"`` (units without a target are skipped = missing), or None (target if present, else
    source). ``tgt_lang`` keeps one target language of a multilingual TMX. Units the reader rejects
    raise InputError unless a ``rejects`` list is given to collect them."""
    path = Path(path)
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    suffix = path.suffix.lower()
    if suffix in (".tsv", ".tab"):
        return _load_tsv(path)
    if suffix in (".jsonl", ".ndjson"):
        return _load_jsonl(path)
    if is_wmt_sgml(path):
        return _load_wmt(path)
    return _load_units(path, side, tgt_lang, rejects)
