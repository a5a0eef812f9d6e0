"""TBX termbase reader (TBX 2008 ``martif``/``termEntry``/``langSet``, and TBX v3 ``conceptEntry``/``langSec``).

Why not translate-toolkit's ``tbxfile`` (measured on the Mozilla fr.tbx: 96 entries in 5 ms, so speed
is not the question): in 3.20.4 its term lists look only at ``<tig>`` and miss TBX-Basic ``<ntig>``
(what Mozilla uses), and languages are only reachable by index. This walk over the same safe lxml
parse is short. The DOCTYPE's external DTD (``TBXcoreStructV02.dtd``) is never loaded.

One row per (concept entry x non-source language): source and target are the first term of each
language; further terms are props ``synonym:<lang>``; descrip/termNote/note become props
``<type>`` (definitions also go to ``note``); every row is flagged ``termbase``.
"""

from __future__ import annotations

from lxml import etree

from housestyle.pipelines.langtags import same_language
from housestyle.pipelines.readers import safexml
from housestyle.pipelines.readers.base import Row, unit_row
from housestyle.pipelines.readers.scan import Vocabulary
from housestyle.pipelines.readers.xliff12 import units_in
from housestyle.pipelines.readers.xmlunits import Tally, XmlFormat

RAW_MAX = 500
_ENTRY = ("termEntry", "conceptEntry")
_LANG = ("langSet", "langSec")
_META = ("descrip", "termNote", "note", "admin", "transac")


def _lang_block(block: safexml.Element) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """(terms, props, definitions) of one language block."""
    terms: list[str] = []
    props: list[tuple[str, str]] = []
    definitions: list[str] = []
    for el in block.iter():
        name = safexml.local_name(el.tag)
        if name == "term":
            terms.append("".join(el.itertext()).strip())
        elif name in _META:
            kind = el.get("type") or name
            text = "".join(el.itertext()).strip()
            if kind == "definition":
                definitions.append(text)
            else:
                props.append((kind, text))
    return terms, props, definitions


def entry_rows(entry: safexml.Element, _info: object, line_offset: int, _tally: Tally) -> list[Row]:
    """The rows of one termEntry/conceptEntry (the source language: the root's xml:lang)."""
    default_src = entry.getroottree().getroot().get(safexml.XML_LANG)
    line = (entry.sourceline or 0) + line_offset
    raw = etree.tostring(entry, encoding="unicode", with_tail=False)[:RAW_MAX]
    entry_props: list[tuple[str, str]] = []
    blocks: list[tuple[str | None, list[str], list[tuple[str, str]], list[str]]] = []
    for child in entry:
        name = safexml.local_name(child.tag)
        if name in _LANG:
            blocks.append((child.get(safexml.XML_LANG), *_lang_block(child)))
        elif name in _META:
            entry_props.append((child.get("type") or name, "".join(child.itertext()).strip()))
        elif name == "descripGrp":
            entry_props.extend((d.get("type") or "descrip", "".join(d.itertext()).strip())
                               for d in child.iter() if safexml.local_name(d.tag) in _META)
    if not blocks:
        return [(line, "term entry without language", raw)]
    src_index = next((i for i, b in enumerate(blocks) if same_language(b[0], default_src)), 0)
    src_lang, src_terms, src_props, src_defs = blocks[src_index]
    if not src_terms:
        return [(line, "term entry without source term", raw)]
    entry_id = entry.get("id") or f"line{line}"
    out: list[Row] = []
    for i, (lang, terms, props, defs) in enumerate(blocks):
        if i == src_index:
            continue
        all_props = entry_props + [(f"src:{k}", v) for k, v in src_props] + props
        all_props += [(f"synonym:{src_lang}", t) for t in src_terms[1:]]
        all_props += [(f"synonym:{lang}", t) for t in terms[1:]]
        target = terms[0] if terms else None
        out.append(unit_row(
            unit_id=entry_id, src_lang=src_lang, tgt_lang=lang, source=src_terms[0], target=target,
            source_markup=src_terms[0], target_markup=target, line=line,
            note="\n".join(src_defs + defs) or None, props=all_props, flags=["termbase"],
        ))
    if len(blocks) == 1:
        out.append(unit_row(
            unit_id=entry_id, src_lang=src_lang, tgt_lang=None, source=src_terms[0], target=None,
            source_markup=src_terms[0], target_markup=None, line=line, props=entry_props, flags=["termbase"],
        ))
    return out


TBX_FORMAT = XmlFormat(
    name="tbx",
    vocabulary=Vocabulary(roots=frozenset({"martif", "tbx"}), units=frozenset({"termEntry", "conceptEntry"})),
    units=lambda root: units_in(root, _ENTRY),
    info=lambda root: None,
    rows=entry_rows,
)
