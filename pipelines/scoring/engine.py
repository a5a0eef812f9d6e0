"""The bulk scorer: every convention × every segment × every system.

Semantics are ``housestyle.pipelines.scoring.check.check_item``'s (a test compares them on random data). The
speed comes from (1) deciding pass/fail for the static rules (term, forbidden, pattern) with row
sets: one Aho–Corasick pass per column finds the literals and regex factors of the conventions
that apply widely, the others are matched only on the rows they apply to, and boundaries and
regexes are always confirmed with the reference matchers; (2) computing applicability once from
the sources, shared by all systems; (3) explaining only the failed items; (4) on large inputs,
scoring row slices in worker processes (see ``chunk.py``) and summing the counts.
"""

from __future__ import annotations

import logging
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Mapping, Sequence

import polars as pl

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules.registry import is_vacuous
from housestyle.pipelines.scoring.chunk import FAILURES_SCHEMA, PASS_MIN_ROWS, SPAN_TYPE, Chunk, score_chunk
from housestyle.pipelines.scoring.signature import score_signature

__all__ = ["COVERAGE_SCHEMA", "FAILURES_SCHEMA", "SCORES_SCHEMA", "SPAN_TYPE", "ScoreResult", "score_systems"]

LOG = logging.getLogger("housestyle.scoring")
PARALLEL_MIN_SEGMENTS = 200_000  # below this, worker start-up costs more than it saves
SCORES_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.Utf8(), "dimension": pl.Utf8(), "convention_id": pl.Utf8(), "rule": pl.Utf8(),
    "scored": pl.Int64(), "passed": pl.Int64(), "missing": pl.Int64(), "score": pl.Float64(),
    "match_mode": pl.Utf8(),  # extension: the equivalence the figure was computed under
    "vacuous": pl.Boolean(),  # extension: the convention checks nothing (SPEC.md §2), so its 100 says nothing
    "errors": pl.Int64(),  # extension: scored items a regex could not decide in time (counted, never passed)
}
COVERAGE_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.Utf8(), "segments": pl.Int64(), "produced": pl.Int64(), "missing": pl.Int64(),
    "extra_ids": pl.Int64(),
}


@dataclass(slots=True)
class ScoreResult:
    """scores: per system × convention (``vacuous``: the convention checks nothing). dimension_scores:
    per system × dimension, items pooled over the dimension's conventions (score = 100 × Σpassed /
    Σscored; ``vacuous`` when all of them are). failures: one readable row per
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
        .agg(pl.len().alias("conventions"), pl.col("scored").sum(), pl.col("passed").sum(), pl.col("missing").sum(),
             pl.col("vacuous").all(), pl.col("errors").sum())
        .with_columns(
            pl.when(pl.col("scored") > 0).then(100.0 * pl.col("passed") / pl.col("scored")).otherwise(None).alias("score")
        )
        .sort("system", "dimension")
    )


def _chunk_job(args: tuple[Sequence[Convention], list[str], list[str], dict[str, list[str | None]], int, int]) -> Chunk:
    conventions, ids, texts, outputs, offset, pass_min_rows = args
    return score_chunk(conventions, ids, texts, outputs, offset=offset, pass_min_rows=pass_min_rows)


def _workers(requested: int | None, n_segments: int) -> int:
    if requested is not None:
        return max(1, requested)
    if n_segments < PARALLEL_MIN_SEGMENTS:
        return 1
    return max(1, min(4, os.cpu_count() or 1))


def score_systems(
    conventions: Sequence[Convention],
    sources: Mapping[str, str],
    systems: Mapping[str, Mapping[str, str]],
    *,
    pass_min_rows: int = PASS_MIN_ROWS,
    workers: int | None = None,
    statuses: Sequence[str] | None = None,
) -> ScoreResult:
    """Score every system's outputs against every convention (SPEC.md §2 scoring rule).

    Segments are matched by id. A source id a system did not produce (absent, or ``None``) is
    ``missing`` for every convention that applies to it and is excluded from that system's
    denominators; an empty string is a produced (empty) output. Output ids without a source are
    ignored, counted in ``coverage.extra_ids`` and warned about (logger ``housestyle.scoring``: a
    system scored against the wrong source file shows up here, not as a silently small score). ``pass_min_rows`` and ``workers`` (default: one
    process per core, up to 4, from 200,000 segments) only change speed, never results.
    ``statuses`` is the status selection the caller made (``statuses.select_statuses``); it only
    goes into the signature: every convention passed is scored.
    """
    seg_ids = list(sources)
    texts = [sources[s] for s in seg_ids]
    for name, out in systems.items():
        extra = [k for k in out if k not in sources]
        if extra:
            LOG.warning("system %s: %d output id(s) not in the source, not scored (first: %s)", name, len(extra),
                        ", ".join(repr(k) for k in sorted(extra)[:5]))
    columns = {name: [out.get(s) for s in seg_ids] for name, out in systems.items()}
    n = len(seg_ids)
    k = _workers(workers, n)
    if k == 1:
        chunks = [score_chunk(conventions, seg_ids, texts, columns, pass_min_rows=pass_min_rows)]
    else:
        bounds = [(n * i // k, n * (i + 1) // k) for i in range(k)]
        jobs = [(conventions, seg_ids[a:b], texts[a:b], {s: c[a:b] for s, c in columns.items()}, a, pass_min_rows)
                for a, b in bounds]
        # spawn, not fork: polars' thread pool must not be forked
        with ProcessPoolExecutor(max_workers=k, mp_context=get_context("spawn")) as pool:
            chunks = list(pool.map(_chunk_job, jobs))
    return _assemble(conventions, systems, sources, chunks, n, statuses)


def _assemble(conventions: Sequence[Convention], systems: Mapping[str, Mapping[str, str]],
              sources: Mapping[str, str], chunks: list[Chunk], n: int,
              statuses: Sequence[str] | None = None) -> ScoreResult:
    """Sum the slices' counts and order every table deterministically (system, convention, segment)."""
    order = pl.DataFrame({"system": list(systems), "sys_idx": range(len(systems))}, schema={"system": pl.Utf8, "sys_idx": pl.Int64})
    meta = pl.DataFrame(
        {"conv_idx": range(len(conventions)), "dimension": [c.dimension for c in conventions],
         "convention_id": [c.convention_id for c in conventions], "rule": [c.rule for c in conventions],
         "match_mode": [c.match_mode for c in conventions], "vacuous": [is_vacuous(c) for c in conventions]},
        schema={"conv_idx": pl.Int64, "dimension": pl.Utf8, "convention_id": pl.Utf8, "rule": pl.Utf8, "match_mode": pl.Utf8,
                "vacuous": pl.Boolean},
    )
    counts = (
        pl.concat([c.counts for c in chunks]).group_by("system", "conv_idx")
        .agg(pl.col("applicable").sum(), pl.col("scored").sum(), pl.col("passed").sum(), pl.col("errors").sum())
        .join(order, on="system").join(meta, on="conv_idx").sort("sys_idx", "conv_idx")
    )
    scores = counts.select(
        "system", "dimension", "convention_id", "rule", "scored", "passed",
        (pl.col("applicable") - pl.col("scored")).alias("missing"),
        pl.when(pl.col("scored") > 0).then(100.0 * pl.col("passed") / pl.col("scored")).otherwise(None).alias("score"),
        "match_mode", "vacuous", "errors",
    ).cast(SCORES_SCHEMA)  # type: ignore[arg-type]
    failures = (
        pl.concat([c.failures for c in chunks]).join(order, on="system", how="left")
        .sort("sys_idx", "conv_idx", "seg_idx").select(list(FAILURES_SCHEMA))
    )
    produced = {s: sum(c.produced.get(s, 0) for c in chunks) for s in systems}
    coverage = pl.DataFrame(
        {"system": list(systems), "segments": [n] * len(systems), "produced": [produced[s] for s in systems],
         "missing": [n - produced[s] for s in systems],
         "extra_ids": [sum(1 for k in out if k not in sources) for out in systems.values()]},
        schema=COVERAGE_SCHEMA,
    )
    return ScoreResult(scores, dimension_table(scores), failures, coverage, score_signature(conventions, n, statuses))
