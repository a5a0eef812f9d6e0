"""The TM units a reviewer reads beside a rule: a few evidence and counter-example units, with the
spans the rule matches marked (the trigger in the source; the expected forms, or the wrong variants,
in the target), found by the checker's own matchers so the marks mean what scoring means.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import polars as pl

from housestyle.pipelines.conventions.compiled import Entry, make_entry
from housestyle.pipelines.conventions.factors import literal_forms
from housestyle.pipelines.conventions.folding import fold_with_map
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventions.timed_regex import RegexTimeout

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Example:
    """One TM unit shown for a rule; spans are raw offsets, sorted and not overlapping."""

    unit_id: str
    source: str
    target: str
    source_spans: tuple[Span, ...] = ()
    target_spans: tuple[Span, ...] = ()


def pick_units(evidence: pl.DataFrame, units: pl.DataFrame | None, *, n_evidence: int = 3,
               n_counter: int = 2) -> dict[str, dict[str, list[tuple[str, str, str]]]]:
    """convention_id → {"evidence"/"counter": [(unit_id, source, target)]}: the shortest units of
    each role (easiest to read), ties by unit_id; roles other than these two are not shown."""
    if units is None or evidence.is_empty():
        return {}
    table = (evidence.filter(pl.col("role").is_in(["evidence", "counter"]))
             .join(units.select("unit_id", "source", "target").unique("unit_id", keep="first"), on="unit_id", how="inner")
             .with_columns(pl.col("target").fill_null(""), pl.col("source").fill_null(""))
             .with_columns(_len=pl.col("source").str.len_chars() + pl.col("target").str.len_chars())
             .sort("convention_id", "role", "_len", "unit_id")
             .with_columns(_rank=pl.int_range(pl.len()).over("convention_id", "role"))
             .filter(pl.when(pl.col("role") == "evidence").then(pl.col("_rank") < n_evidence)
                     .otherwise(pl.col("_rank") < n_counter)))
    out: dict[str, dict[str, list[tuple[str, str, str]]]] = {}
    for cid, role, uid, src, tgt in table.select("convention_id", "role", "unit_id", "source", "target").iter_rows():
        out.setdefault(cid, {"evidence": [], "counter": []})[role].append((uid, src, tgt))
    return out


def _merge(spans: list[Span]) -> tuple[Span, ...]:
    merged: list[Span] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return tuple(merged)


def _spans(text: str, entries: Sequence[Entry], mode: str) -> tuple[Span, ...]:
    if not entries or not text:
        return ()
    folded = fold_with_map(text, mode)
    found: list[Span] = []
    for entry in entries:
        try:
            found += [folded.raw_span(s, e) for s, e in entry.find(folded.text, raw=text)]
        except (RegexTimeout, re.error):
            continue
    return _merge(found)


# Parsing a regex for its strings costs about a millisecond: the packet asks twice per entry (its
# forms column, its marks).
cached_forms = lru_cache(maxsize=None)(literal_forms)


@dataclass(frozen=True, slots=True)
class Marker:
    """What to mark for one convention: its trigger, expected forms and wrong variants as matchers."""

    trigger_mode: str
    mode: str
    trigger: tuple[Entry, ...]
    expected: tuple[Entry, ...]
    wrong: tuple[Entry, ...]


def _entries(values: Sequence[str], mode: str, regex: bool) -> tuple[Entry, ...]:
    """A regex with a finite set of strings becomes those strings (plain matching at word boundaries,
    the meaning its ``\\b`` spells), so only the others are compiled: thousands of compilations
    otherwise."""
    out: list[Entry] = []
    for value in values:
        forms = cached_forms(value, regex)
        out += [make_entry(value, mode, True)] if forms is None else [make_entry(f, mode, False) for f in forms]
    return tuple(out)


def marker(conv: Convention) -> Marker | None:
    """The convention's matchers, or None when one of its regexes does not compile."""
    try:
        trigger = () if conv.src is None else _entries([conv.src], conv.trigger_mode, conv.src_regex)
        return Marker(conv.trigger_mode, conv.match_mode, trigger, _entries(conv.expected_terms, conv.match_mode, conv.regex),
                      _entries(conv.wrong_variants, conv.match_mode, conv.regex))
    except (re.error, RegexTimeout):
        return None


def mark(conv: Marker | None, unit: tuple[str, str, str], role: str) -> Example:
    """The unit with the trigger marked in its source and, in its target, the expected forms
    (evidence) or the wrong variants and any expected form present (counter-example)."""
    uid, source, target = unit
    if conv is None:
        return Example(uid, source, target)
    wanted = conv.expected if role == "evidence" else (*conv.wrong, *conv.expected)
    return Example(uid, source, target, _spans(source, conv.trigger, conv.trigger_mode), _spans(target, wanted, conv.mode))
