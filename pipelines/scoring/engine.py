"""The bulk scorer: every convention × every segment × every system, in one pass per match mode.

Semantics are ``pipelines.scoring.check.check_item``'s (a test compares them on random data). The
speed comes from (1) deciding pass/fail for the static rules (term, forbidden, pattern) with row
sets: one Aho–Corasick pass per column and mode finds every literal and every regex factor, and
boundaries/regexes are confirmed only on those rows; (2) computing applicability once from the
sources, shared by all systems; (3) building the readable failure rows (what is missing, what was
found, spans) with the reference ``check`` itself, only for the items that failed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np
import polars as pl
import pyarrow as pa

from pipelines.conventions.compiled import Compiled
from pipelines.conventions.folding import fold_with_map
from pipelines.conventions.model import Convention
from pipelines.rules.base import ItemVerdict, verdict
from pipelines.rules.registry import RULES, compile_convention
from pipelines.scoring.multifind import EMPTY
from pipelines.scoring.rowsets import Column, Rows, applicability, union
from pipelines.scoring.signature import score_signature

PASS_FRACTION = 50  # conventions applying to more than 1/50 of the rows get their entries into the column pass
PASS_MIN_ROWS = 2000
SPAN_TYPE = pl.List(pl.Struct({"start": pl.Int64, "end": pl.Int64}))
SCORES_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.Utf8(), "dimension": pl.Utf8(), "convention_id": pl.Utf8(), "rule": pl.Utf8(),
    "scored": pl.Int64(), "passed": pl.Int64(), "missing": pl.Int64(), "score": pl.Float64(),
    "match_mode": pl.Utf8(),  # extension: the equivalence the figure was computed under
}
FAILURES_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.Utf8(), "convention_id": pl.Utf8(), "dimension": pl.Utf8(), "segment_id": pl.Utf8(),
    "source": pl.Utf8(), "output": pl.Utf8(), "missing_expected": pl.List(pl.Utf8),
    "found_wrong": pl.List(pl.Utf8), "spans": SPAN_TYPE, "match_mode": pl.Utf8(),
    "rule": pl.Utf8(),  # extension
}
COVERAGE_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.Utf8(), "segments": pl.Int64(), "produced": pl.Int64(), "missing": pl.Int64(),
    "extra_ids": pl.Int64(),
}


@dataclass(slots=True)
class ScoreResult:
    """scores: per system × convention. dimension_scores: per system × dimension, items pooled over
    the dimension's conventions (score = 100 × Σpassed / Σscored). failures: one readable row per
    failed item. coverage: per system, segments produced / missing. signature: see signature.py."""

    scores: pl.DataFrame
    dimension_scores: pl.DataFrame
    failures: pl.DataFrame
    coverage: pl.DataFrame
    signature: str


def dimension_table(scores: pl.DataFrame) -> pl.DataFrame:
    """Pool a scores table by (system, dimension)."""
    return (
        scores.group_by("system", "dimension", maintain_order=True)
        .agg(
            pl.len().alias("conventions"), pl.col("scored").sum(), pl.col("passed").sum(), pl.col("missing").sum(),
        )
        .with_columns(
            pl.when(pl.col("scored") > 0).then(100.0 * pl.col("passed") / pl.col("scored")).otherwise(None).alias("score")
        )
        .sort("system", "dimension")
    )


@dataclass(slots=True)
class _StaticHits:
    """Per entry of one static convention, the scored rows where it is present (reused to explain
    each failure without re-matching the expected entries)."""

    scored: Rows | None
    expected: list[Rows]
    wrong: list[Rows]

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
        missing = [e.raw for e, rows in zip(cc.expected, self.expected) if not _has(rows, row)]
        found_entries = [e for e, rows in zip(cc.wrong, self.wrong) if _has(rows, row)]
        if not found_entries:
            return verdict(missing, [], [])
        text = folded[row]
        mapped = fold_with_map(output, cc.mode) if len(text) != len(output) or cc.mode == "nfkc" else None
        found: list[str] = []
        spans: list[tuple[int, int]] = []
        for entry in found_entries:
            for start, end in entry.find(mapped.text if mapped else text):
                raw_start, raw_end = mapped.raw_span(start, end) if mapped else (start, end)
                found.append(output[raw_start:raw_end])
                spans.append((raw_start, raw_end))
        return verdict(missing, found, spans)


def _has(rows: Rows, row: int) -> bool:
    i = int(np.searchsorted(rows, row))
    return i < len(rows) and int(rows[i]) == row


def _static_hits(cc: Compiled, out: Column, rows_c: Rows | None) -> _StaticHits:
    return _StaticHits(
        scored=rows_c,
        expected=[out.entry_rows(entry, rows_c) for entry in cc.expected],
        wrong=[out.entry_rows(entry, rows_c) for entry in cc.wrong],
    )


_ARROW_SPANS = pa.list_(pa.struct([("start", pa.int64()), ("end", pa.int64())]))


class _Failures:
    """Column-wise accumulator of failure rows. Built through pyarrow: converting nested Python
    lists (spans, string lists) is two orders of magnitude faster there than in polars' constructor."""

    def __init__(self) -> None:
        self.cols: dict[str, list[Any]] = {name: [] for name in FAILURES_SCHEMA}

    def add(self, system: str, cc: Compiled, seg_id: str, source: str, output: str, v: ItemVerdict) -> None:
        c = self.cols
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

    def frame(self) -> pl.DataFrame:
        arrays = {}
        for name, values in self.cols.items():
            if name == "spans":
                arrays[name] = pa.array(values, type=_ARROW_SPANS)
            elif name in ("missing_expected", "found_wrong"):
                arrays[name] = pa.array(values, type=pa.list_(pa.string()))
            else:
                arrays[name] = pa.array(values, type=pa.string())
        frame = pl.from_arrow(pa.table(arrays))
        assert isinstance(frame, pl.DataFrame)
        return frame.cast(FAILURES_SCHEMA)  # type: ignore[arg-type]


def score_systems(
    conventions: Sequence[Convention],
    sources: Mapping[str, str],
    systems: Mapping[str, Mapping[str, str]],
    *,
    pass_min_rows: int = PASS_MIN_ROWS,
) -> ScoreResult:
    """Score every system's outputs against every convention (SPEC.md §2 scoring rule).

    Segments are matched by id. A source id a system did not produce (absent, or ``None``) is
    ``missing`` for every convention that applies to it and is excluded from that system's
    denominators; an empty string is a produced (empty) output. Output ids without a source are
    ignored and counted in ``coverage.extra_ids``. ``pass_min_rows`` only tunes speed (which
    conventions go through the column-wide Aho–Corasick pass), never results.
    """
    seg_ids = list(sources)
    src_col = Column.of([sources[s] for s in seg_ids])
    compiled = [compile_convention(c) for c in conventions]
    appl = applicability(compiled, src_col)
    n = len(seg_ids)
    score_cols: dict[str, list[Any]] = {name: [] for name in SCORES_SCHEMA}
    cover_cols: dict[str, list[Any]] = {name: [] for name in COVERAGE_SCHEMA}
    failures = _Failures()
    src_texts = src_col.texts
    for system, outputs in systems.items():
        out = Column.of([outputs.get(s) for s in seg_ids])
        # one Aho–Corasick pass for the entries of conventions that apply to many rows; the others
        # are matched directly on their (few) applicable rows
        wide = max(pass_min_rows, n // PASS_FRACTION)
        out.run_pass(
            entry for cc, rows in zip(compiled, appl)
            if RULES[cc.conv.rule].static and (rows is None or len(rows) > wide)
            for entry in cc.expected + cc.wrong
        )
        n_out = len(out.rows)
        cover_cols["system"].append(system)
        cover_cols["segments"].append(n)
        cover_cols["produced"].append(n_out)
        cover_cols["missing"].append(n - n_out)
        cover_cols["extra_ids"].append(sum(1 for k in outputs if k not in sources))
        for cc, rows in zip(compiled, appl):
            rule = RULES[cc.conv.rule]
            rows_c = None if rows is None else rows[out.present[rows]]
            applicable = n if rows is None else len(rows)
            scored = n_out if rows_c is None else len(rows_c)
            if rule.static:
                hits = _static_hits(cc, out, rows_c)
                fail_rows = hits.fail_rows(out)
                folded = out.folded(cc.mode) if len(fail_rows) else []
                for r in fail_rows:
                    output = out.texts[r] or ""
                    failures.add(system, cc, seg_ids[r], src_texts[r] or "", output, hits.explain(cc, int(r), output, folded))
            else:
                n_failed = 0
                for r in rows_c if rows_c is not None else out.rows:
                    source, output = src_texts[r] or "", out.texts[r] or ""
                    v = rule.check(cc, source, output)
                    if not v.full_pass:
                        n_failed += 1
                        failures.add(system, cc, seg_ids[r], source, output, v)
                fail_rows = np.zeros(n_failed, dtype=np.int64)
            passed = scored - len(fail_rows)
            score_cols["system"].append(system)
            score_cols["dimension"].append(cc.conv.dimension)
            score_cols["convention_id"].append(cc.conv.convention_id)
            score_cols["rule"].append(cc.conv.rule)
            score_cols["scored"].append(scored)
            score_cols["passed"].append(passed)
            score_cols["missing"].append(applicable - scored)
            score_cols["score"].append(100.0 * passed / scored if scored else None)
            score_cols["match_mode"].append(cc.mode)
    scores = pl.DataFrame(score_cols, schema=SCORES_SCHEMA)
    return ScoreResult(
        scores=scores,
        dimension_scores=dimension_table(scores),
        failures=failures.frame(),
        coverage=pl.DataFrame(cover_cols, schema=COVERAGE_SCHEMA),
        signature=score_signature(conventions, n),
    )
