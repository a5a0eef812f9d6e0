"""The reader contract every format module implements.

A reader turns one file (already un-zipped / un-gzipped by the caller) into a stream of
``TranslationUnit`` rows (one per unit x target language) and ``Reject`` rows. It never raises for
a bad unit: bad units become ``Reject`` rows. A file that cannot be parsed at all raises an
``InputError`` subclass naming the file and line *after* yielding every unit it could read, so the
caller can record the file-level reject and go on with the client's other files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import BinaryIO, ClassVar, Iterator, Protocol

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
    # Optional precomputed dedup key (pipelines.unit_hash over the normalised tags, source, target):
    # the TMX reader fills it in its worker processes so the ingest's main process need not; None
    # means "compute it". Whoever edits source/target/tags of a unit must reset it to None.
    unit_hash: str | None = None


@dataclass(slots=True)
class Reject:
    """A unit (or whole file) that could not be used, with the reason and the offending text."""

    location: str
    reason: str
    raw: str = ""


class Reader(Protocol):
    """A format reader. Registered explicitly in ``pipelines.readers.registry``."""

    format_name: ClassVar[str]
    suffixes: ClassVar[tuple[str, ...]]

    def read(self, stream: BinaryIO, name: str) -> Iterator[TranslationUnit | Reject]:
        """Yield units and rejects; raise ``InputError`` (after yielding what was readable) on a broken file."""
        ...
