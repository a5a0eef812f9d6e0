"""Read gold files: term CSVs (both TICO-19 layouts), TBX termbases, SPEC-format gold conventions.

Only registrations and evaluation read gold; the miner never imports this module (tested).
Every malformed row names the file and line; skipped rows are returned, never dropped silently.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from lxml import etree

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import InputError, MalformedFileError, UnsafeXmlError
from housestyle.pipelines.langtags import primary_subtag
from housestyle.pipelines.registration.fold import fold
from housestyle.pipelines.spreadsheet import csv_records
from housestyle.pipelines.textinput import read_text

XML_NS = "{http://www.w3.org/XML/1998/namespace}"
# Both TICO-19 layouts share these two columns (Facebook: id,sourceLang,targetLang,sourceString,
# targetString; Google: stringID,sourceLang,targetLang,pos,description,sourceString,targetString).
CSV_SOURCE, CSV_TARGET = "sourceString", "targetString"
MAX_GOLD_ROWS = 1_000_000  # a hand-authored gold file has hundreds
_CONVENTION_FIELDS = {f.name for f in fields(Convention)} - {"convention_id"}


@dataclass(slots=True)
class GoldPair:
    """One gold term pair, folded; ``refs`` are where it came from (CSV line / TBX entry id)."""

    source: str
    target: str
    refs: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str]:
        return (self.source, self.target)


@dataclass(slots=True)
class Probe:
    source: str
    good: str
    bad: str


@dataclass(slots=True)
class GoldConvention:
    gold_id: str
    convention: Convention
    probes: list[Probe]
    line: int


def primary_lang(tag: str | None) -> str:
    """'fr_XX' / 'fr-FR' / 'en-US' -> 'fr' / 'en' (gold files write languages inconsistently)."""
    return primary_subtag(tag)


def _merge(pairs: Iterator[tuple[str, str, str]]) -> list[GoldPair]:
    """Fold and deduplicate (folded duplicates count once, keeping every reference)."""
    merged: dict[tuple[str, str], GoldPair] = {}
    for source, target, ref in pairs:
        key = (fold(source), fold(target))
        if not key[0] or not key[1]:
            continue
        merged.setdefault(key, GoldPair(*key)).refs.append(ref)
    return list(merged.values())


def _csv_rows(path: Path, skipped: list[str]) -> Iterator[tuple[str, str, str]]:
    text = read_text(path)
    records = [(line, row) for line, row in csv_records(text, path, max_rows=MAX_GOLD_ROWS) if row]
    header = records[0][1] if records else []
    if CSV_SOURCE not in header or CSV_TARGET not in header:
        raise MalformedFileError(f"term CSV needs columns {CSV_SOURCE!r} and {CSV_TARGET!r}, header is {header}",
                                 path=str(path), location=1)
    for number, row in records[1:]:
        line = f"line {number}"
        cells = dict(zip(header, row))
        source, target = (cells.get(CSV_SOURCE) or "").strip(), (cells.get(CSV_TARGET) or "").strip()
        if not source or not target:
            skipped.append(f"{path}:{line}: empty {CSV_SOURCE if not source else CSV_TARGET}")
            continue
        yield source, target, line


def _tbx_rows(path: Path, src_lang: str, tgt_lang: str) -> Iterator[tuple[str, str, str]]:
    """Every source term x every target term of each termEntry; the external DTD is never read."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.parse(str(path), parser).getroot()
    except etree.XMLSyntaxError as exc:
        raise MalformedFileError(f"not well-formed TBX: {exc.msg}", path=str(path), location=f"line {exc.lineno}") from None
    internal = root.getroottree().docinfo.internalDTD
    if internal is not None and any(True for _ in internal.iterentities()):  # type: ignore[union-attr]  # stubs lack it
        # hostile input: entity declarations (expansion bombs); gold termbases never need them
        raise UnsafeXmlError("TBX declares entities; refused", path=str(path))
    for index, entry in enumerate(root.iter("termEntry"), 1):
        by_lang: dict[str, list[str]] = {}
        for lang_set in entry.iter("langSet"):
            lang = primary_lang(lang_set.get(f"{XML_NS}lang"))
            by_lang.setdefault(lang, []).extend("".join(t.itertext()).strip() for t in lang_set.iter("term"))
        ref = f"termEntry {entry.get('id') or index} (line {entry.sourceline})"
        for source in by_lang.get(primary_lang(src_lang), []):
            for target in by_lang.get(primary_lang(tgt_lang), []):
                yield source, target, ref


def load_term_pairs(path: Path, kind: str, src_lang: str, tgt_lang: str,
                    skipped: list[str] | None = None) -> list[GoldPair]:
    """Folded, deduplicated gold pairs of a termbase (``termbase_csv`` or ``tbx``)."""
    path = Path(path)
    sink = skipped if skipped is not None else []
    if kind == "termbase_csv":
        return _merge(_csv_rows(path, sink))
    if kind == "tbx":
        return _merge(_tbx_rows(path, src_lang, tgt_lang))
    raise InputError(f"not a termbase kind: {kind!r}", path=str(path))


def _convention_of(record: dict[str, Any], path: Path, lineno: int) -> Convention:
    known = {k: v for k, v in record.items() if k in _CONVENTION_FIELDS}
    try:
        return Convention(**{**known, "origin": "gold"})
    except TypeError as exc:
        raise InputError(f"not a convention: {exc}", path=str(path), location=lineno) from None


def load_gold_conventions(path: Path, src_lang: str | None = None, tgt_lang: str | None = None) -> list[GoldConvention]:
    """SPEC-format conventions plus ``gold_id`` and ``probes`` (source, good, bad) per line."""
    path = Path(path)
    out = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            gold_id = str(record["gold_id"])
            probes = [Probe(str(p["source"]), str(p["good"]), str(p["bad"])) for p in record["probes"]]
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise InputError(f"bad gold convention line ({exc!r})", path=str(path), location=lineno) from None
        if not probes:
            raise InputError("gold convention without probes cannot be recovered behaviourally", path=str(path), location=lineno)
        record.setdefault("src_lang", src_lang)
        record.setdefault("tgt_lang", tgt_lang)
        out.append(GoldConvention(gold_id, _convention_of(record, path, lineno), probes, lineno))
    return out


def pairs_as_conventions(pairs: list[GoldPair], src_lang: str, tgt_lang: str) -> list[Convention]:
    """Term conventions that are exactly the gold pairs (the "gold itself" set of the known-answer tests)."""
    return [Convention(dimension=f"term:{p.source}", rule="term", src=p.source, expected_terms=[p.target],
                       match_mode="caseless", src_lang=src_lang, tgt_lang=tgt_lang, origin="gold")
            for p in pairs]
