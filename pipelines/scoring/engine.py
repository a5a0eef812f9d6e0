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

from pipelines.conventions.compiled import Compiled, Entry
from pipelines.conventions.model import Convention
from pipelines.rules.base import ItemVerdict
from pipelines.rules.registry import RULES, compile_convention
from pipelines.scoring.multifind import EMPTY
from pipelines.scoring.rowsets import Column, Rows, applicability, union
from pipelines.scoring.signature import score_signature

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


def _static_fail_rows(cc: Compiled, out: Column, rows_c: Rows | None) -> Rows:
    """Items of a static convention that fail: some expected entry absent, or a wrong one present."""
    ok: Rows | None = rows_c
    for entry in cc.expected:
        ok = out.entry_rows(entry, ok)
    missing_rows = EMPTY
    if cc.expected:
        scored = out.rows if rows_c is None else rows_c
        missing_rows = np.setdiff1d(scored, ok if ok is not None else EMPTY, assume_unique=True)
    wrong_rows = union([out.entry_rows(entry, rows_c) for entry in cc.wrong])
    return union([missing_rows, wrong_rows])


class _Failures:
    """Column-wise accumulator of failure rows (one dict per row would be far slower)."""

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
        c["spans"].append([{"start": s, "end": e} for s, e in v.spans])
        c["match_mode"].append(cc.mode)
        c["rule"].append(cc.conv.rule)

    def frame(self) -> pl.DataFrame:
        return pl.DataFrame(self.cols, schema=FAILURES_SCHEMA)


def score_systems(
    conventions: Sequence[Convention],
    sources: Mapping[str, str],
    systems: Mapping[str, Mapping[str, str]],
) -> ScoreResult:
    """Score every system's outputs against every convention (SPEC.md §2 scoring rule).

    Segments are matched by id. A source id a system did not produce (absent, or ``None``) is
    ``missing`` for every convention that applies to it and is excluded from that system's
    denominators; an empty string is a produced (empty) output. Output ids without a source are
    ignored and counted in ``coverage.extra_ids``.
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
        by_mode: dict[str, list[Entry]] = {}
        for cc in compiled:
            if RULES[cc.conv.rule].static:
                by_mode.setdefault(cc.mode, []).extend(cc.expected + cc.wrong)
        for mode, entries in by_mode.items():
            out.prepare_hits(mode, entries)
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
            verdicts: dict[int, ItemVerdict] = {}
            if rule.static:
                fail_rows = _static_fail_rows(cc, out, rows_c)
            else:
                for r in rows_c if rows_c is not None else out.rows:
                    v = rule.check(cc, src_texts[r] or "", out.texts[r] or "")
                    if not v.full_pass:
                        verdicts[int(r)] = v
                fail_rows = np.array(sorted(verdicts), dtype=np.int64)
            for r in fail_rows:
                source, output = src_texts[r] or "", out.texts[r] or ""
                v = verdicts.get(int(r)) or rule.check(cc, source, output)
                failures.add(system, cc, seg_ids[r], source, output, v)
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
