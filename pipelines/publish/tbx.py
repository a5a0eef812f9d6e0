"""Glossary entries as a TBX-Basic termbase (TBX 2008 ``martif``, terms in ``tig``).

Why this dialect: translate-toolkit's ``tbxfile`` (3.20) reads terms only from ``<tig>`` (it skips
TBX-Basic's ``<ntig>``) and its ``administrativeStatus`` from a ``termNote`` inside the ``tig``, and
Trados MultiTerm, memoQ and Phrase import TBX-Basic; TBX v3 (``conceptEntry``/``langSec``) is not
read by that reader at all. One ``termEntry`` per convention; a ``langSet`` for the source terms and
one for the target: required renderings with ``preferredTerm-admn-sts``, wrong variants with
``deprecatedTerm-admn-sts``; the convention's note and figures as ``note`` elements.

Built as an lxml tree (never by string concatenation), checked against the shipped RELAX NG
schema (``tbx_basic.rng``) before it is written, and written whole or not at all (``housestyle.pipelines.atomic``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lxml import etree

from housestyle.pipelines import atomic
from housestyle.pipelines.publish.glossary import GlossaryEntry, entry_note

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
PREFERRED = "preferredTerm-admn-sts"
DEPRECATED = "deprecatedTerm-admn-sts"
DOCTYPE = '<!DOCTYPE martif SYSTEM "TBXBasiccoreStructV02.dtd">'  # named, never fetched by readers
_LANG_RE = re.compile(r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$")
# Characters XML 1.0 cannot hold at all (a TM can carry them in text): dropped from notes and terms.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


class TbxSchemaError(ValueError):
    """What we built does not match tbx_basic.rng: a bug in the writer, never the user's input."""


@lru_cache(maxsize=1)
def schema() -> etree.RelaxNG:
    """The shipped RELAX NG schema of the TBX we emit."""
    text = resources.files("housestyle.pipelines.publish").joinpath("tbx_basic.rng").read_bytes()
    return etree.RelaxNG(etree.fromstring(text))


def validation_errors(document: etree._ElementTree | etree._Element) -> list[str]:
    """Schema violations of a TBX document (empty when it is valid), ``line N: message`` each."""
    rng = schema()
    if rng.validate(document):
        return []
    return [f"line {e.line}: {e.message}" for e in rng.error_log]


def _lang(tag: str) -> str:
    """A BCP-47 tag as XML wants it (``fr_FR`` → ``fr-FR``); an unusable one becomes ``und``."""
    tag = tag.replace("_", "-")
    return tag if _LANG_RE.match(tag) else "und"


def _text(value: str) -> str:
    return _NOT_XML.sub("", value)


def _sub(parent: etree._Element, tag: str, text: str | None = None, **attrib: str) -> etree._Element:
    node = etree.SubElement(parent, tag, attrib)
    if text is not None:
        node.text = _text(text)
    return node


def _tig(lang_set: etree._Element, term: str, status: str | None) -> None:
    tig = _sub(lang_set, "tig")
    _sub(tig, "term", term)
    if status:
        _sub(tig, "termNote", status, type="administrativeStatus")


def _entry(body: etree._Element, entry: GlossaryEntry, client: str | None, set_version: str | None) -> None:
    conv = entry.convention
    node = _sub(body, "termEntry", id=f"c{conv.convention_id}")
    if client:
        _sub(node, "admin", client, type="customerSubset")
    for fact in (f"rule: {conv.rule}; dimension: {conv.dimension}; match_mode: {conv.match_mode}",
                 *entry_note(conv, set_version)):
        if _text(fact).strip():
            _sub(node, "note", fact)
    source = _sub(node, "langSet", **{XML_LANG: _lang(entry.src_lang)})
    for term in entry.source_terms:
        _tig(source, term, None)
    target = _sub(node, "langSet", **{XML_LANG: _lang(entry.tgt_lang)})
    for regex in entry.regex_entries:
        _sub(target, "note", f"regex: {regex}")
    for term in entry.preferred:
        _tig(target, term, PREFERRED)
    for term in entry.deprecated:
        _tig(target, term, DEPRECATED)


def tbx_document(entries: Sequence[GlossaryEntry], *, src_lang: str, client: str | None,
                 set_version: str | None, title: str) -> etree._ElementTree:
    """The termbase as an lxml tree (not yet validated)."""
    root = etree.Element("martif", {"type": "TBX-Basic", XML_LANG: _lang(src_lang)})
    file_desc = _sub(_sub(root, "martifHeader"), "fileDesc")
    _sub(_sub(file_desc, "titleStmt"), "title", title)
    source_desc = _sub(file_desc, "sourceDesc")
    _sub(source_desc, "p", "Written by housestyle publish from a convention set"
                           + (f" (set_version {set_version})" if set_version else "") + ".")
    encoding = _sub(root[0], "encodingDesc")
    _sub(encoding, "p", "TBXBasicXCSV02.xcs", type="XCSURI")
    body = _sub(_sub(root, "text"), "body")
    for entry in entries:
        _entry(body, entry, client, set_version)
    return etree.ElementTree(root)


def tbx_bytes(document: etree._ElementTree) -> bytes:
    """Serialised UTF-8 with the XML declaration and the TBX-Basic DOCTYPE."""
    return etree.tostring(document, xml_declaration=True, encoding="UTF-8", pretty_print=True, doctype=DOCTYPE)


def write_tbx(entries: Sequence[GlossaryEntry], out: Path, *, src_lang: str, client: str | None,
              set_version: str | None, title: str) -> int:
    """Build, validate and atomically write the termbase; returns its size in bytes."""
    document = tbx_document(entries, src_lang=src_lang, client=client, set_version=set_version, title=title)
    problems = validation_errors(document)
    if problems:
        raise TbxSchemaError("the TBX built does not match tbx_basic.rng: " + "; ".join(problems[:3]))
    data = tbx_bytes(document)
    atomic.write_bytes(out, data)
    return len(data)
