"""Score one slice of segments: the engine's inner loop (run in-process, or in worker processes).

Every per-item decision is local to its segment (applicability depends on the source, verdicts on
the source and the output), so a corpus can be cut into row slices scored independently and the
counts summed: that is how the engine uses several cores despite Python's GIL.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np
import polars as pl
import pyarrow as pa

from housestyle.pipelines.conventions.compiled import Compiled
from housestyle.pipelines.conventions.folding import fold_with_map
from housestyle.pipelines.conventions.code_spans import MASKED_TRIGGER_RULES, mask_code
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventions.multisearch import EMPTY
from housestyle.pipelines.conventions.timed_regex import RegexTimeout
from housestyle.pipelines.rules.base import ItemVerdict, error_verdict, verdict
from housestyle.pipelines.rules.registry import RULES, compile_convention
from housestyle.pipelines.scoring.rowsets import Column, Rows, applicability, union

PASS_FRACTION = 50  # conventions applying to more than 1/50 of the rows get their entries into the column pass
PASS_MIN_ROWS = 2000
SPAN_TYPE = pl.List(pl.Struct({"start": pl.Int64, "end": pl.Int64}))
FAILURES_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.Utf8(), "convention_id": pl.Utf8(), "dimension": pl.Utf8(), "segment_id": pl.Utf8(),
    "source": pl.Utf8(), "output": pl.Utf8(), "missing_expected": pl.List(pl.Utf8),
    "found_wrong": pl.List(pl.Utf8), "spans": SPAN_TYPE, "match_mode": pl.Utf8(),
    "rule": pl.Utf8(),  # extension
    "error": pl.Utf8(),  # extension: why the item could not be decided (a regex timed out); null for failures
}
COUNTS_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.Utf8(), "conv_idx": pl.Int64(), "applicable": pl.Int64(), "scored": pl.Int64(), "passed": pl.Int64(),
    "errors": pl.Int64(),
}


@dataclass(slots=True)
class _StaticHits:
    """Per entry of one static convention, the scored rows where it is present (reused to explain
    each failure without re-matching the expected entries)."""

    scored: Rows | None
    expected: list[Rows]
    wrong: list[Rows]
    _sets: tuple[list[set[int]], list[set[int]]] | None = None

    def fail_rows(self, out: Column) -> Rows:
        """Items where some expected entry is absent or some wrong entry present."""
        missing_rows = EMPTY
        if self.expected:
            scored = out.rows if self.scored is None else self.scored
            ok = self.expected[0]
            for rows in self.expected[1:]:
                ok = np.intersect1d(ok, rows, assume_unique=True)
            missing_rows = np.setdiff1d(scored, ok, assume_unique=True)
        return union([missing_rows, *self.wrong])

    def explain(self, cc: Compiled, row: int, output: str, folded: list[str]) -> ItemVerdict:
        """The reference verdict for a failed row, from the per-entry row sets."""
        if self._sets is None:
            self._sets = ([set(r.tolist()) for r in self.expected], [set(r.tolist()) for r in self.wrong])
        expected_sets, wrong_sets = self._sets
        missing = [e.raw for e, rows in zip(cc.expected, expected_sets) if row not in rows]
        found_entries = [e for e, rows in zip(cc.wrong, wrong_sets) if row in rows]
        if not found_entries:
            return verdict(missing, [], [])
        text = folded[row]
        mapped = fold_with_map(output, cc.mode) if len(text) != len(output) or cc.mode == "nfkc" else None
        found: list[str] = []
        spans: list[tuple[int, int]] = []
        for entry in found_entries:
            for start, end in entry.find(mapped.text if mapped else text, raw=output):
                raw_start, raw_end = mapped.raw_span(start, end) if mapped else (start, end)
                found.append(output[raw_start:raw_end])
                spans.append((raw_start, raw_end))
        return verdict(missing, found, spans)


def _static_hits(cc: Compiled, out: Column, rows_c: Rows | None) -> _StaticHits:
    return _StaticHits(
        scored=rows_c,
        expected=[out.entry_rows(entry, rows_c) for entry in cc.expected],
        wrong=[out.entry_rows(entry, rows_c) for entry in cc.wrong],
    )


ARROW_SPANS = pa.list_(pa.struct([("start", pa.int64()), ("end", pa.int64())]))


class Failures:
    """Column-wise accumulator of failure rows. Built through pyarrow: converting nested Python
    lists (spans, string lists) is two orders of magnitude faster there than in polars' constructor."""

    def __init__(self) -> None:
        self.cols: dict[str, list[Any]] = {name: [] for name in (*FAILURES_SCHEMA, "conv_idx", "seg_idx")}

    def add(self, system: str, cc: Compiled, seg_id: str, source: str, output: str, v: ItemVerdict,
            conv_idx: int, seg_idx: int) -> None:
        c = self.cols
        c["conv_idx"].append(conv_idx)
        c["seg_idx"].append(seg_idx)
        c["system"].append(system)
        c["convention_id"].append(cc.conv.convention_id)
        c["dimension"].append(cc.conv.dimension)
        c["segment_id"].append(seg_id)
        c["source"].append(source)
        c["output"].append(output)
        c["missing_expected"].append(v.missing_expected)
        c["found_wrong"].append(v.found_wrong)
        c["spans"].append(v.spans)
        c["match_mode"].append(cc.mode)
        c["rule"].append(cc.conv.rule)
        c["error"].append(v.error)

    def frame(self) -> pl.DataFrame:
        arrays = {}
        for name, values in self.cols.items():
            if name == "spans":
                arrays[name] = pa.array(values, type=ARROW_SPANS)
            elif name in ("missing_expected", "found_wrong"):
                arrays[name] = pa.array(values, type=pa.list_(pa.string()))
            elif name in ("conv_idx", "seg_idx"):
                arrays[name] = pa.array(values, type=pa.int64())
            else:
                arrays[name] = pa.array(values, type=pa.string())
        frame = pl.from_arrow(pa.table(arrays))
        assert isinstance(frame, pl.DataFrame)
        schema: dict[str, pl.DataType] = {**FAILURES_SCHEMA, "conv_idx": pl.Int64(), "seg_idx": pl.Int64()}
        return frame.cast(schema)  # type: ignore[arg-type]


@dataclass(slots=True)
class Chunk:
    """What one slice contributes: per (system, convention) counts, failure rows (with the
    convention and segment indices for a stable global order) and per-system produced counts."""

    counts: pl.DataFrame
    failures: pl.DataFrame
    produced: dict[str, int]
    # with ``keep_rows``: per (system, convention), in the counts' order, the rows scored and the
    # rows failed (row numbers of this slice), for a caller that needs the items, not only the counts
    rows: list[tuple[Rows, Rows]] = field(default_factory=list)


def _masked_columns(compiled: Sequence[Compiled], raw: Column) -> list[Column]:
    """Per convention, the column it reads: ``raw``, or for the MASKED_TRIGGER_RULES one shared copy
    with code spans blanked (same length, so spans stay raw offsets). The triggers read the sources
    so (``code_spans.trigger_text``), the entries the outputs (``code_spans.entry_text``)."""
    masked: list[Column] = []
    read = []
    for cc in compiled:
        if cc.conv.rule in MASKED_TRIGGER_RULES:
            if not masked:
                masked.append(Column.of([mask_code(t) if t is not None else None for t in raw.texts]))
            read.append(masked[0])
        else:
            read.append(raw)
    return read


def _applicability(compiled: Sequence[Compiled], columns: Sequence[Column]) -> list[Rows | None]:
    """``rowsets.applicability`` per trigger column, in the conventions' order."""
    out: list[Rows | None] = [None] * len(compiled)
    for column in {id(c): c for c in columns}.values():
        picked = [i for i, c in enumerate(columns) if c is column]
        for i, rows in zip(picked, applicability([compiled[i] for i in picked], column)):
            out[i] = rows
    return out


def score_chunk(
    conventions: Sequence[Convention],
    seg_ids: Sequence[str],
    source_texts: Sequence[str],
    systems: Mapping[str, Sequence[str | None]],
    *,
    offset: int = 0,
    pass_min_rows: int = PASS_MIN_ROWS,
    keep_rows: bool = False,
) -> Chunk:
    """Score rows ``offset … offset+len(seg_ids)``; ``systems[name][i]`` is the output for
    ``seg_ids[i]`` or None when the system did not produce it. ``keep_rows``: also which rows each
    convention scored and failed (``Chunk.rows``)."""
    compiled = [compile_convention(c) for c in conventions]
    # a term's trigger never matches inside placeholders or markup (``{user}`` is not the word "user")
    trigger_cols = _masked_columns(compiled, Column.of(list(source_texts)))
    appl = _applicability(compiled, trigger_cols)
    n = len(seg_ids)
    counts: dict[str, list[Any]] = {name: [] for name in COUNTS_SCHEMA}
    failures = Failures()
    produced: dict[str, int] = {}
    kept_rows: list[tuple[Rows, Rows]] = []
    src_texts = list(source_texts)
    for system, outputs in systems.items():
        out = Column.of(list(outputs))
        # what each convention's entries read: the output, or for a term its code spans blanked
        read = _masked_columns(compiled, out)
        # one Aho–Corasick pass per column for the entries of conventions that apply to many rows;
        # the others are matched directly on their (few) applicable rows
        wide = max(pass_min_rows, n // PASS_FRACTION)
        for column in {id(c): c for c in read}.values():
            column.run_pass(
                entry for cc, rows, col in zip(compiled, appl, read)
                if col is column and RULES[cc.conv.rule].static and (rows is None or len(rows) > wide)
                for entry in cc.expected + cc.wrong
            )
        produced[system] = len(out.rows)
        for index, (cc, rows, col) in enumerate(zip(compiled, appl, read)):
            rule = RULES[cc.conv.rule]
            rows_c = None if rows is None else rows[out.present[rows]]
            scored = len(out.rows) if rows_c is None else len(rows_c)
            n_failed = 0
            # items a regex could not decide in time (trigger on the source, entries on the output)
            undecided = {r: m for r, m in (trigger_cols[index].timeouts_of(cc.trigger) if cc.trigger is not None else {}).items()
                         if out.present[r]}
            if rule.static:
                hits = _static_hits(cc, col, rows_c)
                for entry in cc.expected + cc.wrong:
                    undecided.update(col.timeouts_of(entry))  # of every convention sharing the entry:
                if rows_c is not None and undecided:  # keep this convention's scored rows
                    mine = set(rows_c.tolist())
                    undecided = {r: m for r, m in undecided.items() if r in mine}
                fail_rows = union([hits.fail_rows(out), np.array(sorted(undecided), dtype=np.int64)])
                n_failed = len(fail_rows)
                folded = col.folded(cc.mode) if n_failed else []
                for r in fail_rows.tolist():
                    output = out.texts[r] or ""
                    try:
                        v = error_verdict(undecided[r]) if r in undecided else hits.explain(cc, r, col.texts[r] or "", folded)
                    except RegexTimeout as exc:  # re-finding the spans of a wrong variant on a long text
                        v = error_verdict(str(exc))
                        undecided[r] = str(exc)
                    failures.add(system, cc, seg_ids[r], src_texts[r] or "", output, v, index, offset + r)
            else:
                failed: list[int] = []
                for r in (rows_c if rows_c is not None else out.rows).tolist():
                    source, output = src_texts[r] or "", out.texts[r] or ""
                    if r in undecided:
                        v = error_verdict(undecided[r])
                    else:
                        try:
                            v = rule.check(cc, source, col.texts[r] or "")
                        except RegexTimeout as exc:
                            v = error_verdict(str(exc))
                            undecided[r] = str(exc)
                    if not v.full_pass:
                        n_failed += 1
                        failed.append(r)
                        failures.add(system, cc, seg_ids[r], source, output, v, index, offset + r)
                fail_rows = np.array(failed, dtype=np.int64)
            if keep_rows:
                kept_rows.append((out.rows if rows_c is None else rows_c, fail_rows))
            counts["system"].append(system)
            counts["conv_idx"].append(index)
            counts["applicable"].append(n if rows is None else len(rows))
            counts["scored"].append(scored)
            counts["passed"].append(scored - n_failed)
            counts["errors"].append(len(undecided))
    return Chunk(pl.DataFrame(counts, schema=COUNTS_SCHEMA), failures.frame(), produced, kept_rows)
