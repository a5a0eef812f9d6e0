"""Row-set algebra for the engine: which segments a convention applies to, and where an entry occurs.

Rows are sorted unique int64 numpy arrays of segment indices; ``None`` stands for "every row of the
column that has a text", so a convention that applies everywhere never materialises a million-row
array just to intersect it with a handful of hits.

Where an entry occurs is decided in two steps, always confirmed by the reference matchers
(``find_plain`` with word boundaries, Python ``re``):

1. Candidates. For entries of conventions that apply to many rows, ONE Aho–Corasick pass per
   column (``multisearch.substring_rows``) finds every literal at once. To avoid one pass per match mode, ``exact``, ``caseless``
   and ``typographic`` literals are all searched in the *typographic* fold of the column: a
   literal present in a mode's folded text is necessarily present, mapped the same way, in the
   typographic fold (casefold works character by character and the typographic table maps one code
   point to one), so the hits are a superset. ``nfkc`` (which composes across characters) gets its
   own pass. For conventions that apply to few rows, the candidates are simply those rows.
2. Confirmation on the candidate rows only, in the entry's own mode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np
import polars as pl

from housestyle.pipelines.conventions.compiled import Compiled, Entry
from housestyle.pipelines.conventions.factors import required_factors
from housestyle.pipelines.conventions.folding import TYPOGRAPHIC_TABLE, fold_text
from housestyle.pipelines.conventions.matching import rows_containing
from housestyle.pipelines.conventions.multisearch import EMPTY, ROWS_DTYPE, substring_rows
from housestyle.pipelines.conventions.timed_regex import MAX_FAST_TEXT, RegexTimeout
from housestyle.pipelines.rules.registry import RULES

Rows = np.ndarray
_TYPO_KEYS = [chr(k) for k in TYPOGRAPHIC_TABLE]
_TYPO_VALUES = [TYPOGRAPHIC_TABLE[ord(k)] for k in _TYPO_KEYS]
PASS_SPACE = {"exact": "typographic", "caseless": "typographic", "typographic": "typographic", "nfkc": "nfkc"}


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


def pass_literals(entry: Entry) -> tuple[str, ...]:
    """The literals an entry contributes to its column pass, written in the pass space (see module
    docstring); empty when a regex has no required literal (it is then run on every candidate)."""
    literals = (required_factors(entry.raw) or ()) if entry.is_regex else ((entry.folded,) if entry.folded else ())
    if entry.mode == "exact":
        return tuple(fold_text(x, "typographic") for x in literals)
    if entry.mode == "caseless":
        return tuple(x.translate(TYPOGRAPHIC_TABLE) for x in literals)
    return tuple(literals)


@dataclass(slots=True)
class Column:
    """One text column (sources, or one system's outputs) aligned with the segment index."""

    texts: list[str | None]
    present: np.ndarray  # bool mask: row has a text
    rows: Rows  # sorted rows that have a text
    _folded: dict[str, list[str]] = field(default_factory=dict)
    _hits: dict[str, dict[str, Rows]] = field(default_factory=dict)
    _passed: set[tuple[str, str]] = field(default_factory=set)
    _longest: dict[str, int] = field(default_factory=dict)
    # (mode, regex) -> {row: message}: rows where the regex timed out (``timed_regex``): undecided
    timeouts: dict[tuple[str, str], dict[int, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, texts: list[str | None]) -> "Column":
        present = np.fromiter((t is not None for t in texts), dtype=bool, count=len(texts))
        return cls(texts, present, np.flatnonzero(present).astype(ROWS_DTYPE))

    def folded(self, mode: str) -> list[str]:
        """The whole column folded with ``mode`` (cached); equal to ``fold_text`` row by row."""
        if mode not in self._folded:
            if mode == "typographic":  # casefold in Python (polars has no casefold), table in Rust
                caseless = self.folded("caseless")
                self._folded[mode] = pl.Series(caseless, dtype=pl.Utf8).str.replace_many(_TYPO_KEYS, _TYPO_VALUES).to_list()
            elif mode == "exact":
                self._folded[mode] = [t if t is not None else "" for t in self.texts]
            elif mode == "caseless":
                self._folded[mode] = [t.casefold() if t is not None else "" for t in self.texts]
            else:
                self._folded[mode] = [fold_text(t, mode) if t is not None else "" for t in self.texts]
        return self._folded[mode]

    def run_pass(self, entries: Iterable[Entry]) -> None:
        """One Aho–Corasick pass per pass space over every literal of ``entries``."""
        by_space: dict[str, set[str]] = {}
        for entry in entries:
            literals = pass_literals(entry)
            if literals:
                by_space.setdefault(PASS_SPACE[entry.mode], set()).update(literals)
                self._passed.add((entry.mode, entry.raw))
        for space, wanted in by_space.items():
            folded = self.folded(space)
            texts = [folded[r] for r in self.rows]
            self._hits[space] = substring_rows(texts, self.rows, sorted(wanted))

    def _regex_rows(self, entry: Entry, folded: list[str], rows: list[int]) -> list[int]:
        """The rows the regex matches. Short texts of a pattern with a bounded cost per start take
        plain ``re`` inline (the hot path); the others the timed engine, one call per row."""
        assert entry.pattern is not None
        if not rows:
            return []  # not compiled for nothing (``TimedPattern`` compiles on first use)
        fast = entry.pattern.fast
        if fast is not None and self.longest(entry.mode) <= MAX_FAST_TEXT:
            search = fast.search
            return [r for r in rows if search(folded[r])]
        out: list[int] = []
        for r in rows:
            try:
                if entry.pattern.search(folded[r]):
                    out.append(r)
            except RegexTimeout as exc:
                self.timeouts.setdefault((entry.mode, entry.raw), {})[r] = str(exc)
        return out

    def longest(self, mode: str) -> int:
        """The length of the longest text of the column folded with ``mode`` (cached)."""
        if mode not in self._longest:
            self._longest[mode] = max((len(t) for t in self.folded(mode)), default=0)
        return self._longest[mode]

    def timeouts_of(self, entry: Entry) -> dict[int, str]:
        """Rows where ``entry``'s regex timed out (row -> message)."""
        return self.timeouts.get((entry.mode, entry.raw), {})

    def restrict(self, rows: Rows, cands: Rows | None) -> Rows:
        """``rows`` ∩ candidates (``None`` = every row of this column that has a text)."""
        if cands is None:
            return rows[self.present[rows]] if len(rows) else EMPTY
        return members(rows, cands)

    def entry_rows(self, entry: Entry, cands: Rows | None) -> Rows:
        """The candidate rows whose text (folded with ``entry.mode``) contains ``entry``: word
        boundaries for plain strings, the regex (``TimedPattern``) for regexes. Rows where the regex
        timed out are not returned; they are listed in ``timeouts``."""
        if (entry.mode, entry.raw) in self._passed:
            hits = self._hits.get(PASS_SPACE[entry.mode], {})
            base = self.restrict(union([hits.get(x, EMPTY) for x in pass_literals(entry)]), cands)
        else:
            base = self.rows if cands is None else cands
        folded = self.folded(entry.mode)
        if entry.pattern is not None:
            return np.array(self._regex_rows(entry, folded, base.tolist()), dtype=ROWS_DTYPE)
        return np.array(rows_containing(folded, base.tolist(), entry.folded or "", raws=self.texts, mode=entry.mode),
                        dtype=ROWS_DTYPE)


def applicability(compiled: Sequence[Compiled], sources: Column) -> list[Rows | None]:
    """Per convention: the source rows it applies to (``None`` = every segment). Depends on the
    sources only, so every system is scored on the same items. A row whose regex trigger timed out
    applies (it is an error item, see ``Column.timeouts``)."""
    sources.run_pass(cc.trigger for cc in compiled if cc.trigger is not None)
    out: list[Rows | None] = []
    for cc in compiled:
        rows = None if cc.trigger is None else sources.entry_rows(cc.trigger, None)
        rule = RULES[cc.conv.rule]
        # a static rule has no condition of its own on the source unless it was given params
        # (a term's ``yields_to``: rules/term.py)
        if not rule.static or cc.prepared is not None:
            base = sources.rows if rows is None else rows
            texts = sources.texts
            rows = np.fromiter((r for r in base if rule.applies(cc, texts[r] or "")), dtype=ROWS_DTYPE)
        undecided = sources.timeouts_of(cc.trigger) if cc.trigger is not None else {}
        if rows is not None and undecided:
            rows = union([rows, np.array(sorted(undecided), dtype=ROWS_DTYPE)])
        out.append(rows)
    return out
