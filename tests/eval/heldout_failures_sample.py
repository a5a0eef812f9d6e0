"""Seeded sample of held-out failures for hand classification (issue 25 "Verified"; not a test).

Input: the parquet files ``python -m tests.bench.bench_heldout --failures DIR`` writes (failures of the
rules a run scores, candidate/validated, on the held-out half's APPROVED targets). Draws N rows per
corpus with a fixed seed and writes a CSV with empty ``class``/``reason`` columns to fill by hand
(classes: TM inconsistency / wrong rule / matching defect).

    python -m tests.eval.heldout_failures_sample OUT.csv N DIR/case.parquet[,DIR/case_B_A.parquet][@N] ...

(a group's ``@N`` overrides N for it: a corpus with fewer failures than N gives all of them.)
"""
from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

SEED = 25
# The word-boundary lookarounds every compiled term regex carries: dropped for reading, not for matching.
BOUNDARY = r"\(\?<?!\(\?:\[\^\\W_\]\|\[\\u0300-\\u036f\]\)\)|\(\?<?!\(\?:\[\^\\W_\]\|\[\\u0300-\\u036f\]\)\[\\-‐‑\]\)|\(\?<?!\[\\-‐‑\]\(\?:\[\^\\W_\]\|\[\\u0300-\\u036f\]\)\)"


def sample(files: list[Path], n: int) -> pl.DataFrame:
    """Up to ``n`` failures drawn with ``SEED`` from the concatenated files (every row when fewer)."""
    frames = [pl.read_parquet(f).with_columns(pl.lit(f.stem).alias("corpus")) for f in files]
    rows = pl.concat(frames, how="diagonal_relaxed").sort("corpus", "convention_id", "segment_id")
    return rows.sample(min(n, rows.height), seed=SEED, shuffle=True) if rows.height else rows


def main() -> None:
    out, n = Path(sys.argv[1]), int(sys.argv[2])
    picked = []
    for group in sys.argv[3:]:
        files, _, count = group.partition("@")
        picked.append(sample([Path(p) for p in files.split(",")], int(count) if count else n))
    table = pl.concat(picked, how="diagonal_relaxed").select(
        "corpus", "rule", "src", pl.col("expected").list.join(" | ").str.replace_all(BOUNDARY, "").alias("expected"), "segment_id", "source",
        "output", pl.col("missing_expected").list.join(" | ").str.replace_all(BOUNDARY, "").alias("missing_expected"),
        pl.col("found_wrong").list.join(" | ").alias("found_wrong"),
        pl.lit("").alias("class"), pl.lit("").alias("reason"))
    table.write_csv(out)
    print(f"{table.height} rows -> {out}")


if __name__ == "__main__":
    main()
