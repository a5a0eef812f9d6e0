"""What the byte scan (``scan.py``) knows about a format, and what it hands on: chunks of units with
the context they need, oversized units, and problems outside any unit. Plain data (pickled to workers)."""

from __future__ import annotations

from dataclasses import dataclass

MAX_UNIT_BYTES = 64 << 20  # a bigger unit is rejected unread: it would only hold memory hostage
RAW_HEAD = 500  # bytes kept of an oversized unit, for its reject row


@dataclass(frozen=True)
class Vocabulary:
    """What a format calls its root, its units, and the non-unit elements every unit needs."""

    roots: frozenset[str]
    units: frozenset[str]
    keep: frozenset[str] = frozenset()  # copied whole into the context (TMX <header>)


@dataclass(frozen=True)
class Context:
    """The bytes around a unit that make it a complete document, as the file wrote them."""

    open: bytes
    close: bytes


@dataclass
class Chunk:
    """Units ``first_ordinal``… of the file: ``data`` runs from the first unit's start to the last's end."""

    context: Context
    data: bytes
    spans: list[tuple[int, int]]  # each unit's [start, end) in data
    first_ordinal: int
    line: int  # line of data[0]
    truncated: bool = False  # the last unit runs to the end of the stream, without its end tag
    offset: int = 0  # of data[0] in the stream


@dataclass(frozen=True)
class Oversized:
    """A unit over ``max_unit_bytes``: counted, rejected, not parsed."""

    ordinal: int
    line: int
    size: int
    head: bytes
    limit: int = MAX_UNIT_BYTES


@dataclass(frozen=True)
class Problem:
    """Something outside any unit that makes the file not what its format says (no unit lost)."""

    line: int
    message: str
