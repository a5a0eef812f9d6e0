"""Linguist review: draw a reproducible sample of mined rules, import the verdicts, measure precision.

Review file (CSV or Parquet): convention_id, verdict, comment, reviewer, reviewer_role. Only
judgements whose role is one of the gate's ``counted_roles`` (``linguist``) count: the engineers who
built the miner judging their own rules is not a review, so those rows are reported and ignored.
"""

from __future__ import annotations

import csv
import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.spreadsheet import check_file_size, csv_records, header_of
from housestyle.pipelines.textinput import read_text

REQUIRED_COLUMNS: tuple[str, ...] = ("convention_id", "verdict")
OPTIONAL_COLUMNS: tuple[str, ...] = ("comment", "reviewer", "reviewer_role")
Z_95 = 1.959963984540054
MAX_REVIEW_BYTES = 64 << 20  # a verdict file has a row per sampled rule: hundreds
MAX_REVIEW_ROWS = 1_000_000


def read_review(path: Path) -> pl.DataFrame:
    """The review table with every column as text (missing optional columns become null)."""
    path = Path(path)
    try:
        if path.suffix.lower() == ".parquet":
            frame = pl.read_parquet(path)
        elif path.suffix.lower() in (".csv", ".tsv"):
            frame = _text_table(path)
        else:
            raise InputError("review file must be .csv, .tsv or .parquet", path=str(path))
    except (pl.exceptions.ComputeError, OSError) as exc:
        raise InputError(f"cannot read review file: {exc}", path=str(path)) from None
    missing = [c for c in REQUIRED_COLUMNS if c not in frame.columns]
    if missing:
        raise InputError(f"review file lacks columns {missing} (has {frame.columns})", path=str(path), location=1)
    for column in OPTIONAL_COLUMNS:
        if column not in frame.columns:
            frame = frame.with_columns(pl.lit(None, dtype=pl.Utf8).alias(column))
    return frame.select([pl.col(c).cast(pl.Utf8) for c in (*REQUIRED_COLUMNS, *OPTIONAL_COLUMNS)])


def _text_table(path: Path) -> pl.DataFrame:
    """A CSV / TSV verdict file as text columns, parsed strictly (``spreadsheet.csv_records``): a
    quote never closed names its line, where polars printed the rest of the file."""
    check_file_size(path, MAX_REVIEW_BYTES, "review file")
    text = read_text(path)
    dialect = csv.excel_tab if path.suffix.lower() == ".tsv" else csv.excel
    records = [row for _, row in csv_records(text, path, max_rows=MAX_REVIEW_ROWS, dialect=dialect) if row]
    if not records:
        raise InputError("empty review file (no header row)", path=str(path), location=1)
    header = header_of(records[0], path)
    columns = {name: [row[i] if i < len(row) and row[i] != "" else None for row in records[1:]]
               for i, name in enumerate(header) if name}
    return pl.DataFrame(columns, schema={name: pl.Utf8 for name in columns})


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval (a three-line closed form; no installed library exposes it without statsmodels)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(slots=True)
class Precision:
    status: str
    value: float | None
    interval: tuple[float, float] | None
    correct: int = 0
    judged: int = 0
    reason: str = ""
    ignored: dict[str, int] = field(default_factory=dict)

    def detail(self) -> dict[str, Any]:
        return {"correct": self.correct, "judged": self.judged, "wilson_95": list(self.interval) if self.interval else None,
                "reason": self.reason, "ignored": self.ignored}


def precision_gate(review: pl.DataFrame | None, set_ids: set[str], threshold: float, params: dict[str, Any]) -> Precision:
    """The precision-under-review gate (counting_rules.precision_under_review)."""
    if review is None:
        return Precision("pending", None, None, reason="no linguist review file yet")
    roles = {r.casefold() for r in params.get("counted_roles", ["linguist"])}
    good = {v.casefold() for v in params.get("correct_verdicts", ["correct"])}
    bad = {v.casefold() for v in params.get("incorrect_verdicts", ["incorrect"])}
    rows = review.with_columns(pl.col("verdict").str.strip_chars().str.to_lowercase().alias("v"),
                               pl.col("reviewer_role").fill_null("").str.strip_chars().str.to_lowercase().alias("role"))
    ignored = {
        "not_a_linguist": rows.filter(~pl.col("role").is_in(list(roles))).height,
        "unknown_convention_id": rows.filter(pl.col("role").is_in(list(roles)) & ~pl.col("convention_id").is_in(list(set_ids))).height,
    }
    counted = rows.filter(pl.col("role").is_in(list(roles)) & pl.col("convention_id").is_in(list(set_ids)))
    ignored["no_verdict"] = counted.filter(~pl.col("v").is_in(list(good | bad))).height
    correct = counted.filter(pl.col("v").is_in(list(good))).height
    judged = correct + counted.filter(pl.col("v").is_in(list(bad))).height
    minimum = int(params.get("min_judgements", 1))
    if judged == 0:
        return Precision("pending", None, None, reason="no counted linguist judgement", ignored=ignored)
    value = correct / judged
    interval = wilson_interval(correct, judged)
    if judged < minimum:
        return Precision("pending", value, interval, correct, judged, f"{judged} linguist judgements < {minimum} required", ignored)
    status = "pass" if value >= threshold else "fail"
    return Precision(status, value, interval, correct, judged, "point estimate vs threshold", ignored)


def sample_seed(set_version: str) -> int:
    return int(hashlib.sha256(set_version.encode("utf-8")).hexdigest()[:16], 16)


def review_sample(conventions: Sequence[Convention], n: int, set_version: str,
                  units: pl.DataFrame | None = None) -> pl.DataFrame:
    """N rules drawn uniformly, seeded by the set version: the same set always yields the same sample.
    With the TM's units (``tm_units``: unit_id, source, target), each row also shows its first
    evidence unit, so a reviewer judges the rendering in context without looking ids up."""
    ordered = sorted(conventions, key=lambda c: c.convention_id)
    picked = random.Random(sample_seed(set_version)).sample(ordered, min(n, len(ordered)))
    example = _examples(picked, units)
    rows = [{"convention_id": c.convention_id, "dimension": c.dimension, "rule": c.rule, "src": c.src,
             "expected_terms": " | ".join(c.expected_terms), "wrong_variants": " | ".join(c.wrong_variants),
             "regex": c.regex, "match_mode": c.match_mode, "support": c.support,
             "example_unit_ids": " ".join(c.evidence_unit_ids[:3]),
             "example_source": example.get(c.convention_id, ("", ""))[0],
             "example_target": example.get(c.convention_id, ("", ""))[1],
             "verdict": "", "comment": "", "reviewer": "", "reviewer_role": ""} for c in picked]
    schema = {"convention_id": pl.Utf8, "dimension": pl.Utf8, "rule": pl.Utf8, "src": pl.Utf8, "expected_terms": pl.Utf8,
              "wrong_variants": pl.Utf8, "regex": pl.Boolean, "match_mode": pl.Utf8, "support": pl.Int64,
              "example_unit_ids": pl.Utf8, "example_source": pl.Utf8, "example_target": pl.Utf8,
              "verdict": pl.Utf8, "comment": pl.Utf8, "reviewer": pl.Utf8, "reviewer_role": pl.Utf8}
    return pl.DataFrame(rows, schema=schema)


def _examples(picked: Sequence[Convention], units: pl.DataFrame | None) -> dict[str, tuple[str, str]]:
    """convention_id -> (source, target) of its first evidence unit found in ``units``."""
    if units is None:
        return {}
    wanted = {c.evidence_unit_ids[0] for c in picked if c.evidence_unit_ids}
    found = units.filter(pl.col("unit_id").is_in(list(wanted))).unique("unit_id", keep="first")
    text = {u: (s or "", t or "") for u, s, t in found.select("unit_id", "source", "target").iter_rows()}
    return {c.convention_id: text[c.evidence_unit_ids[0]] for c in picked
            if c.evidence_unit_ids and c.evidence_unit_ids[0] in text}
