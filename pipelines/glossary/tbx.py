"""TBX termbases with term statuses: TBX 2008 / TBX-Basic (``martif``, ``termEntry``, ``langSet``,
``tig`` / ``ntig``) and TBX v3 (``tbx``, ``conceptEntry``, ``langSec``, ``termSec``).

Why not the TM reader (``readers.tbx``) or translate-toolkit: both read a termbase as source/target
pairs and drop the status of each term (``administrativeStatus``, ``termStatus``,
``normativeAuthorization``, as a ``termNote type=…`` or as a TBX v3 DCT element), which is what
says required, admitted or forbidden here. The parse is the readers' hostile-XML-safe one
(``readers.safexml``: no entities, no DTD, no network — the Mozilla TBX names an external DTD that is
never fetched); a DOCTYPE declaring entities is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from lxml import etree

from housestyle.pipelines.errors import MalformedFileError
from housestyle.pipelines.glossary.model import Concept, Refusal, covers, role_of
from housestyle.pipelines.langtags import try_normalise
from housestyle.pipelines.readers import safexml

MAX_BYTES = 64 << 20  # a termbase of a few hundred thousand entries; larger is not a termbase
MAX_TERM_CHARS = 200
_ENTRY = frozenset({"termEntry", "conceptEntry"})
_LANG = frozenset({"langSet", "langSec"})
_TERM_GROUP = frozenset({"tig", "ntig", "termSec"})
_STATUS = frozenset({"administrativeStatus", "termStatus", "normativeAuthorization"})


def _text(el: safexml.Element) -> str:
    return " ".join("".join(el.itertext()).split())


def _status(group: safexml.Element) -> str | None:
    """The term's status: a termNote/descrip of a status type, or a TBX v3 DCT status element."""
    for el in group.iter():
        name = safexml.local_name(el.tag)
        if (name in ("termNote", "descrip") and el.get("type") in _STATUS) or name in _STATUS:
            return _text(el)
    return None


def _terms(block: safexml.Element) -> list[tuple[str, str | None, int]]:
    """(term, status, line) of one language block, in document order."""
    groups = [el for el in block.iter() if safexml.local_name(el.tag) in _TERM_GROUP]
    out = []
    for group in groups or [block]:
        term = next((el for el in group.iter() if safexml.local_name(el.tag) == "term"), None)
        if term is not None:
            out.append((_text(term), _status(group) if groups else None, term.sourceline or 0))
    return out


def _definition(entry: safexml.Element) -> str | None:
    texts = [_text(el) for el in entry.iter() if safexml.local_name(el.tag) == "descrip" and el.get("type") == "definition"]
    return texts[0] if texts else None


def parse_tree(path: Path) -> safexml.Element:
    """The document's root, parsed safely; MalformedFileError / UnsafeXmlError naming the file."""
    if path.stat().st_size > MAX_BYTES:
        raise MalformedFileError(f"larger than {MAX_BYTES >> 20} MiB: not read as a termbase", path=str(path))
    with path.open("rb") as handle:
        try:
            tree = etree.parse(safexml.utf8_stream(handle), safexml.make_parser())
        except etree.XMLSyntaxError as exc:
            raise MalformedFileError(f"not well-formed XML: {exc.msg}", path=str(path), location=exc.lineno) from None
    safexml.refuse_entities(tree, str(path))
    return tree.getroot()


def read_tbx(path: Path, *, src_lang: str | None, tgt_lang: str | None) -> Iterator[Concept | Refusal]:
    """Every entry as one Concept per target language (``tgt_lang`` only, when given); the source
    language is ``src_lang``, else the root's ``xml:lang``, else the entry's first language."""
    root = parse_tree(path)
    default_src = src_lang or root.get(safexml.XML_LANG)
    for entry in root.iter():
        if safexml.local_name(entry.tag) not in _ENTRY:
            continue
        where = f"{path.name}:{entry.sourceline or 0}"
        cid = entry.get("id") or where
        blocks = [(b.get(safexml.XML_LANG) or "", _terms(b)) for b in entry if safexml.local_name(b.tag) in _LANG]
        if not blocks:
            yield Refusal(where, cid, "entry without a language block")
            continue
        src_index = next((i for i, (lang, _) in enumerate(blocks) if covers(default_src, lang)), None)
        if src_index is None:
            yield Refusal(where, cid, f"no terms in the source language {default_src}")
            continue
        yield from _pairs(entry, where, cid, blocks, src_index, tgt_lang)


def _pairs(entry: safexml.Element, where: str, cid: str, blocks: list[tuple[str, list[tuple[str, str | None, int]]]],
           src_index: int, tgt_lang: str | None) -> Iterator[Concept | Refusal]:
    src_lang, src_terms = blocks[src_index]
    targets = [(lang, terms) for i, (lang, terms) in enumerate(blocks)
               if i != src_index and covers(tgt_lang, lang)]
    if not targets:
        yield Refusal(where, cid, f"no terms in the target language {tgt_lang or '(any other)'}")
        return
    note = _definition(entry)
    for lang, terms in targets:
        concept = Concept(cid, where, try_normalise(src_lang) or src_lang, try_normalise(lang) or lang, note=note)
        for side, listed in (("source", src_terms), ("target", terms)):
            for term, status, line in listed:
                role = role_of(status)
                if role is None:
                    yield Refusal(f"{where.split(':')[0]}:{line}", cid, f"unknown status {status!r} of {side} term {term!r}")
                elif len(term) > MAX_TERM_CHARS:
                    yield Refusal(f"{where.split(':')[0]}:{line}", cid, f"{side} term longer than {MAX_TERM_CHARS} characters")
                elif side == "source":
                    if role != "wrong" and term not in concept.sources:
                        concept.sources.append(term)
                else:
                    concept.add(term, role)
        yield concept  # one without a source or target term is refused by glossary.conventions
