"""XLIFF 1.0/1.1/1.2: the rows of one <trans-unit> (``XLIFF12_FORMAT`` for ``xmlunits``).

Why not translate-toolkit's ``xlifffile``: it loads the whole tree and exposes inline codes only as
rich "placeables" without the original markup or line numbers; measured on the 23 Mozilla VPN files
(947 units) both are instant, so the deciding factor is fidelity, not speed.

Namespaces: units, segments, sources and targets are read only in the document's own namespace
(the root's: ``urn:oasis:names:tc:xliff:document:1.2``, or none for old files). XLIFF lets any
element from another namespace extend <file>, <header>, <group> and <trans-unit>; such elements
(``<sdl:seg-defs>``, ``<okp:…>``, an ``<ext:trans-unit>``) are ignored and counted (``foreign``),
never read as units or segments. Inside <source>/<target> XLIFF 1.2 allows no foreign element, so
one there rejects the segment (``inline.py``).

Segmentation: when <seg-source> holds ``<mrk mtype="seg">`` segments, each segment is one row
(``unit_id = "<trans-unit id>#<mid>"``), paired with the target's mrk of the same mid; a target that
is not segmented falls back to one whole-unit row (flag ``unsegmented-target``). <alt-trans> entries
(TM matches, not approved translations) are ignored but counted: props ``alt-trans`` = N on the
unit's first row (so summing the prop counts each <alt-trans> once).
<bin-unit> has no text: it becomes a reject, so it is visible rather than silently skipped; the
<trans-unit>s XLIFF allows inside it (text of the binary object) are rows of that same unit.
"""

from __future__ import annotations

import hashlib

from lxml import etree

from housestyle.pipelines.readers import safexml
from housestyle.pipelines.readers.base import Row, unit_row
from housestyle.pipelines.readers.inline import XLIFF12_SPEC, InlineError, Numbering, render
from housestyle.pipelines.readers.scan import Vocabulary
from housestyle.pipelines.readers.xmlunits import Tally, XmlFormat

RAW_MAX = 500


def namespace_of(element: safexml.Element) -> str:
    tag = element.tag
    return tag[1:].split("}", 1)[0] if tag.startswith("{") else ""


def own_children(element: safexml.Element, prefix: str, tally: Tally) -> dict[str, list[safexml.Element]]:
    """Children in the document's namespace by local name; foreign ones are counted and left out."""
    found: dict[str, list[safexml.Element]] = {}
    for child in element:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        if prefix and tag.startswith(prefix):
            found.setdefault(tag[len(prefix):], []).append(child)
        elif not prefix and not tag.startswith("{"):
            found.setdefault(tag, []).append(child)
        else:
            tally.foreign += 1
    return found


def units_in(root: safexml.Element, names: tuple[str, ...]) -> list[safexml.Element]:
    """Units in the root's namespace whose ancestors are all in it too (a unit inside an extension
    element belongs to the extension) and none a unit; in document order."""
    prefix = "{%s}" % namespace_of(root) if root.tag.startswith("{") else ""
    tags = tuple(prefix + n for n in names)
    out = []
    for unit in root.iter(*tags):
        parent = unit.getparent()
        while parent is not None and parent.tag.startswith(prefix) and (prefix or not parent.tag.startswith("{")):
            if parent.tag in tags:
                break
            parent = parent.getparent()
        if parent is None:
            out.append(unit)
    return out


def _raw(element: safexml.Element) -> str:
    return etree.tostring(element, encoding="unicode", with_tail=False)[:RAW_MAX]


def _file_attrs(unit: safexml.Element, prefix: str) -> dict[str, str]:
    for ancestor in unit.iterancestors(prefix + "file"):
        return dict(ancestor.attrib)
    return {}


def _meta(tu: safexml.Element, parts: dict[str, list[safexml.Element]], file_attrs: dict[str, str], prefix: str
          ) -> tuple[list[tuple[str, str]], list[str], str | None, str | None]:
    """props, flags, note, context of a trans-unit."""
    props = [(f"tu@{k}", v) for k, v in tu.attrib.items() if k != "id"]
    if file_attrs.get("original"):
        props.append(("file", file_attrs["original"]))
    flags = []
    if tu.get("approved") == "yes":
        flags.append("approved")
    if tu.get("translate") == "no":
        flags.append("translate:no")
    target = parts.get("target", [None])[0]
    if target is not None and target.get("state"):
        flags.append(f"state:{target.get('state')}")
    notes = [(n.text or "").strip() for n in parts.get("note", [])]
    contexts = [f"{c.get('context-type', '')}: {c.text or ''}" for g in parts.get("context-group", [])
                for c in g if c.tag == prefix + "context"]
    return props, flags, "\n".join(notes) or None, "\n".join(contexts) or None


def trans_unit_rows(tu: safexml.Element, _info: object, line_offset: int, tally: Tally) -> list[Row]:
    """The rows of one <trans-unit> or <bin-unit>."""
    namespace = namespace_of(tu)
    prefix = f"{{{namespace}}}" if namespace else ""
    line = (tu.sourceline or 0) + line_offset
    if tu.tag == prefix + "bin-unit":  # one unit: its binary content is a reject, its trans-units are rows
        rows: list[Row] = [(line, "binary unit (bin-unit) has no text", _raw(tu))]
        for child in own_children(tu, prefix, tally).get("trans-unit", []):
            rows.extend(trans_unit_rows(child, _info, line_offset, tally))
        return rows
    parts = own_children(tu, prefix, tally)
    source = parts.get("source", [None])[0]
    target = parts.get("target", [None])[0]
    if source is None:
        return [(line, "no source in trans-unit", _raw(tu))]
    file_attrs = _file_attrs(tu, prefix)
    src_lang = source.get(safexml.XML_LANG) or file_attrs.get("source-language")
    tgt_lang = (target.get(safexml.XML_LANG) if target is not None else None) or file_attrs.get("target-language")
    props, flags, note, context = _meta(tu, parts, file_attrs, prefix)
    tu_id = tu.get("id") or "h" + hashlib.sha256(_raw(tu).encode()).hexdigest()[:16]
    pairs: list[tuple[str, safexml.Element, safexml.Element | None, list[str]]] = []
    seg_source = parts.get("seg-source", [None])[0]
    src_segs = [] if seg_source is None else [m for m in seg_source.iter(prefix + "mrk") if m.get("mtype") == "seg"]
    tgt_segs = {} if target is None else {m.get("mid"): m for m in target.iter(prefix + "mrk") if m.get("mtype") == "seg"}
    if src_segs and (target is None or tgt_segs):
        for mrk in src_segs:
            pairs.append((f"{tu_id}#{mrk.get('mid')}", mrk, tgt_segs.get(mrk.get("mid")), flags))
    else:
        pairs.append((tu_id, source, target, flags + (["unsegmented-target"] if src_segs else [])))
    out: list[Row] = []
    alt = len(parts.get("alt-trans", []))
    for index, (unit_id, src_el, tgt_el, unit_flags) in enumerate(pairs):
        unit_props = props + [("alt-trans", str(alt))] if alt and index == 0 else props  # once per unit
        numbering = Numbering()
        seg_line = (src_el.sourceline or 0) + line_offset if src_el.sourceline else line
        try:
            text, markup = render(src_el, XLIFF12_SPEC, numbering, line_offset, namespace)
            tgt_text, tgt_markup = ((None, None) if tgt_el is None else
                                    render(tgt_el, XLIFF12_SPEC, numbering.for_target(), line_offset, namespace))
        except InlineError as exc:
            out.append((seg_line, "unparseable inline markup", f"{exc}; {_raw(tu)}"))
            continue
        out.append(unit_row(
            unit_id=unit_id, src_lang=src_lang, tgt_lang=tgt_lang, source=text, target=tgt_text,
            source_markup=markup, target_markup=tgt_markup, line=seg_line, note=note, context=context,
            props=unit_props, flags=list(unit_flags),
        ))
    return out


XLIFF12_FORMAT = XmlFormat(
    name="xliff12",
    vocabulary=Vocabulary(roots=frozenset({"xliff"}), units=frozenset({"trans-unit", "bin-unit"})),
    units=lambda root: units_in(root, ("trans-unit", "bin-unit")),
    info=lambda root: None,
    rows=trans_unit_rows,
)
