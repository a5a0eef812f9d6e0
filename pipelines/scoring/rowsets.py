"""Row-set algebra for the engine: which segments a convention applies to, and where an entry occurs.

Rows are sorted unique int64 numpy arrays of segment indices. ``None`` stands for "every row of the
column" (the produced rows of a system, or every source segment), so a convention that applies
everywhere never materialises a million-row array just to intersect it with a handful of hits:
every operation here costs in proportion to the hits, not to the corpus.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from pipelines.conventions.compiled import Compiled, Entry
from pipelines.conventions.factors import required_factors
from pipelines.conventions.folding import fold_text
from pipelines.conventions.matching import find_plain, needs_boundary_check
from pipelines.rules.registry import RULES
from pipelines.scoring.multifind import EMPTY, ROWS_DTYPE, literal_rows

Rows = np.ndarray


def union(parts: Sequence[Rows]) -> Rows:
    parts = [p for p in parts if len(p)]
    if not parts:
        return EMPTY
    return parts[0] if len(parts) == 1 else np.unique(np.concatenate(parts))


def members(rows: Rows, within: Rows) -> Rows:
    """``rows`` ∩ ``within`` (both sorted), in O(len(rows) · log len(within))."""
    if len(rows) == 0 or len(within) == 0:
        return EMPTY
    idx = np.searchsorted(within, rows)
    ok = idx < len(within)
    keep = np.zeros(len(rows), dtype=bool)
    keep[ok] = within[idx[ok]] == rows[ok]
    return rows[keep]


@dataclass(slots=True)
class Column:
    """One text column (sources, or one system's outputs) aligned with the segment index, folded
    lazily per match mode, with literal hits computed once per mode for all conventions."""

    texts: list[str | None]
    present: np.ndarray  # bool mask: row has a text
    rows: Rows  # sorted rows that have a text
    _folded: dict[str, list[str]] = field(default_factory=dict)
    _hits: dict[str, dict[str, Rows]] = field(default_factory=dict)

    @classmethod
    def of(cls, texts: list[str | None]) -> "Column":
        present = np.fromiter((t is not None for t in texts), dtype=bool, count=len(texts))
        return cls(texts, present, np.flatnonzero(present).astype(ROWS_DTYPE))

    def folded(self, mode: str) -> list[str]:
        if mode not in self._folded:
            self._folded[mode] = [fold_text(t, mode) if t is not None else "" for t in self.texts]
        return self._folded[mode]

    def prepare_hits(self, mode: str, entries: Sequence[Entry]) -> None:
        """One Aho–Corasick pass for every literal (and regex factor) of ``entries`` in ``mode``."""
        literals: set[str] = set()
        for entry in entries:
            if entry.is_regex:
                literals.update(required_factors(entry.raw) or ())
            elif entry.folded:
                literals.add(entry.folded)
        folded = self.folded(mode)
        texts = [folded[r] for r in self.rows]
        self._hits[mode] = literal_rows(texts, self.rows, sorted(literals))

    def restrict(self, rows: Rows, cands: Rows | None) -> Rows:
        """``rows`` ∩ candidates (``None`` = every row of this column that has a text)."""
        if cands is None:
            return rows[self.present[rows]] if len(rows) else EMPTY
        return members(rows, cands)

    def entry_rows(self, entry: Entry, cands: Rows | None) -> Rows:
        """The candidate rows whose text (folded with ``entry.mode``) contains ``entry``, with word
        boundaries for plain strings and Python ``re`` for regexes (the prefilters are supersets)."""
        folded = self.folded(entry.mode)
        hits = self._hits.get(entry.mode, {})
        if entry.pattern is not None:
            factors = required_factors(entry.raw)
            if factors is not None:
                base = self.restrict(union([hits.get(f, EMPTY) for f in factors]), cands)
            else:
                base = self.rows if cands is None else cands
            search = entry.pattern.search
            return np.fromiter((r for r in base if search(folded[r])), dtype=ROWS_DTYPE)
        term = entry.folded or ""
        base = self.restrict(hits.get(term, EMPTY), cands)
        if not needs_boundary_check(term):
            return base
        return np.fromiter((r for r in base if find_plain(folded[r], term, first_only=True)), dtype=ROWS_DTYPE)


def applicability(compiled: Sequence[Compiled], sources: Column) -> list[Rows | None]:
    """Per convention: the source rows it applies to (``None`` = every segment). Depends on the
    sources only, so every system is scored on the same items."""
    triggers: dict[str, list[Entry]] = {}
    for cc in compiled:
        if cc.trigger is not None:
            triggers.setdefault(cc.trigger_mode, []).append(cc.trigger)
    for mode, entries in triggers.items():
        sources.prepare_hits(mode, entries)
    out: list[Rows | None] = []
    for cc in compiled:
        rows = None if cc.trigger is None else sources.entry_rows(cc.trigger, None)
        rule = RULES[cc.conv.rule]
        if not rule.static:
            base = sources.rows if rows is None else rows
            texts = sources.texts
            rows = np.fromiter((r for r in base if rule.applies(cc, texts[r] or "")), dtype=ROWS_DTYPE)
        out.append(rows)
    return out
