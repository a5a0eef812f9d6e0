"""The reader contract every format module implements.

A reader turns one file (already un-zipped / un-gzipped by the caller) into a stream of
``TranslationUnit`` rows (one per unit x target language) and ``Reject`` rows. It never raises for
a bad unit: bad units become ``Reject`` rows. A file that cannot be parsed at all raises an
``InputError`` subclass naming the file and line *after* yielding every unit it could read, so the
caller can record the file-level reject and go on with the client's other files.

Both carry ``ordinal``: the 1-based position of the unit in its file as the independent count
(``scan.py`` for XML, the entry scan for PO) numbers it, so "units in the file = units kept +
units rejected" can be checked on the written tables; None for a file-level row.

Inside the readers a row is a plain tuple (cheap to build millions of, cheap to send between
processes): a unit row holds ``ROW_FIELDS`` in order, with dates as TMX writes them
(``YYYYMMDDThhmmssZ``); a reject row is ``(line, reason, raw)``. ``to_record`` makes the dataclass.
"""

from __future__ import annotations

import re
import functools
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, BinaryIO, ClassVar, Iterator, Protocol

# Inline codes become tokens in the plain text: ⟨g1⟩…⟨/g1⟩ (paired), ⟨x2/⟩ (standalone).
# Kind is the element name (bpt/ept pairs and g/pc become paired tokens; ph, x, it, ut, bx, ex...
# become standalone), the number is the code's ordinal in the *source* segment, and the target
# reuses the source's number for the same code id, so source and target tokens can be compared as
# multisets. U+27E8/U+27E9 never occur in real TM text we have seen and stay readable.
INLINE_TOKEN_RE = re.compile(r"⟨/?[a-z]+\d+/?⟩")


@dataclass(slots=True)
class TranslationUnit:
    """One translation unit in one target language, as read from a file."""

    unit_id: str
    src_lang: str | None
    tgt_lang: str | None
    source: str
    target: str | None
    source_markup: str
    target_markup: str | None
    line: int | None = None
    created_at: datetime | None = None
    changed_at: datetime | None = None
    creator: str | None = None
    note: str | None = None
    context: str | None = None
    props: list[tuple[str, str]] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    domain: str | None = None
    # Optional precomputed dedup key (housestyle.pipelines.unit_hash over the normalised tags, source, target):
    # the TMX reader fills it in its worker processes so the ingest's main process need not; None
    # means "compute it". Whoever edits source/target/tags of a unit must reset it to None.
    unit_hash: str | None = None
    ordinal: int | None = None


@dataclass(slots=True)
class Reject:
    """A unit (or whole file) that could not be used, with the reason and the offending text."""

    location: str
    reason: str
    raw: str = ""
    ordinal: int | None = None


class Reader(Protocol):
    """A format reader. Registered explicitly in ``housestyle.pipelines.readers.registry``."""

    format_name: ClassVar[str]
    suffixes: ClassVar[tuple[str, ...]]

    def read(self, stream: BinaryIO, name: str) -> Iterator[TranslationUnit | Reject]:
        """Yield units and rejects; raise ``InputError`` (after yielding what was readable) on a broken file."""
        ...


Row = tuple[Any, ...]
ROW_FIELDS = ("unit_id", "src_lang", "tgt_lang", "source", "target", "source_markup", "target_markup", "line",
              "created_at", "changed_at", "creator", "note", "context", "props", "flags", "domain", "unit_hash")


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


def unit_row(*, unit_id: str, src_lang: str | None, tgt_lang: str | None, source: str, target: str | None,
             source_markup: str, target_markup: str | None, line: int | None, created_at: str | None = None,
             changed_at: str | None = None, creator: str | None = None, note: str | None = None,
             context: str | None = None, props: list[tuple[str, str]] | None = None,
             flags: list[str] | None = None, domain: str | None = None) -> Row:
    """A unit row by field name (the readers that are not a hot path use this)."""
    return (unit_id, src_lang, tgt_lang, source, target, source_markup, target_markup, line, created_at,
            changed_at, creator, note, context, props or [], flags or [], domain, None)


def to_record(row: Row) -> TranslationUnit | Reject:
    if len(row) == 3:
        return Reject(str(row[0]), row[1], row[2])
    unit = TranslationUnit(*row)
    unit.flags = list(unit.flags)  # rows of one tu may share the list
    unit.created_at = parse_tmx_date(row[8])
    unit.changed_at = parse_tmx_date(row[9])
    return unit
