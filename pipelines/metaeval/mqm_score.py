"""Score MQM annotation rows the way upstream does, whatever file layout they came from.

Every layout (housestyle.pipelines.metaeval.mqm_ted, mqm_marot) turns its lines into ``MqmRow``s; this module
weights each row, checks that texts agree, and aggregates:
- a rater's segment score is the sum of that rater's error weights for the (system, segment);
- the segment score is the MEAN over the raters who rated that (system, segment) — Marot's and
  mt-metrics-eval's aggregation (google-research marot/README.md "Score computations");
- the system score is the mean over the system's rated segments.
Scores are MQM error points: LOWER is better. ``human_score`` (= -MQM) is what correlations use.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import polars as pl

from housestyle.pipelines.errors import InputError

SPAN_TAG_RE = re.compile(r"</?v>")


class Weighting(Protocol):
    """One weighting rule: does it cover (severity, category), and with which weight."""

    @property
    def weight(self) -> float: ...

    def matches(self, severity: str, category: str) -> bool: ...

    def describe(self) -> str: ...


@dataclass(frozen=True)
class WeightRule:
    """One mt-metrics-eval weighting rule; ``None`` matches anything. Category matches by path prefix."""

    severity: str | None
    category: str | None
    weight: float

    def matches(self, severity: str, category: str) -> bool:
        if self.severity is not None and self.severity.casefold() != severity.casefold():
            return False
        if self.category is None:
            return True
        # "Non-translation!" is upstream's spelling of the whole-segment category; compare path parts.
        want = [p.strip().rstrip("!").casefold() for p in self.category.split("/")]
        have = [p.strip().rstrip("!").casefold() for p in category.split("/")]
        return have[: len(want)] == want

    def describe(self) -> str:
        return f"{self.severity or '*'}/{self.category or '*'}={self.weight:g}"


# TED / newstest files (mt-metrics-eval score_mqm.py). Most specific first: the first match weighs.
DEFAULT_WEIGHTS: tuple[WeightRule, ...] = (
    WeightRule(None, "Non-translation", 25.0),
    WeightRule("Minor", "Fluency/Punctuation", 0.1),
    WeightRule("Major", None, 5.0),
    WeightRule("Minor", None, 1.0),
    WeightRule("Neutral", None, 0.0),
    WeightRule("No-error", None, 0.0),
)


def weights_signature(rules: Sequence[Weighting]) -> str:
    """Compact, order-preserving text of the weighting, for signatures."""
    return ",".join(r.describe() for r in rules)


def error_weight(severity: str, category: str, rules: Sequence[Weighting] = DEFAULT_WEIGHTS) -> float | None:
    """Weight of one annotated error, or None when no rule covers its severity."""
    for rule in rules:
        if rule.matches(severity, category):
            return rule.weight
    return None


def strip_spans(text: str) -> str:
    """Plain text of an annotated source/target: the ``<v>``/``</v>`` span markers removed."""
    return SPAN_TAG_RE.sub("", text)


@dataclass(frozen=True)
class MqmRow:
    """One annotation, layout-independent. ``unit`` identifies the segment within the file (TED: the
    seg_id; Marot: doc + docSegId); ``seg_id`` is the number the file gives it, if any."""

    line: int
    system: str
    unit: str
    seg_id: int | None
    doc: str
    rater: str
    source: str
    target: str
    category: str
    severity: str


@dataclass(frozen=True)
class MqmData:
    """One language pair's MQM annotations, scored.

    segments: system, seg_id, doc, source, target, mqm (error points), n_raters, n_errors.
    errors: line, system, seg_id, rater, category, severity, weight (one row per scored annotation).
    dropped: rows read but not scored, by reason (e.g. ``attention_check`` for Marot HOTW-test rows).
    """

    path: Path
    lp: str
    segments: pl.DataFrame
    errors: pl.DataFrame
    signature: str
    layout: str = "ted"
    dropped: Mapping[str, int] = field(default_factory=dict)

    @property
    def tgt_lang(self) -> str:
        return self.lp.split("-")[1] if "-" in self.lp else ""

    @property
    def systems(self) -> list[str]:
        return sorted(self.segments["system"].unique().to_list())

    @property
    def seg_ids(self) -> list[int]:
        return sorted(self.segments["seg_id"].unique().to_list())

    def outputs(self, system: str) -> dict[int, str]:
        """seg_id → the system's plain output text."""
        rows = self.segments.filter(pl.col("system") == system)
        return dict(zip(rows["seg_id"].to_list(), rows["target"].to_list()))

    def sources(self) -> dict[int, str]:
        rows = self.segments.unique("seg_id", keep="first")
        return dict(zip(rows["seg_id"].to_list(), rows["source"].to_list()))

    def system_scores(self) -> pl.DataFrame:
        """system, mqm (mean error points over rated segments), n_segments, rank (1 = best)."""
        table = (
            self.segments.group_by("system")
            .agg(pl.col("mqm").mean().alias("mqm"), pl.len().cast(pl.Int64).alias("n_segments"))
            .sort(["mqm", "system"])
        )
        return table.with_columns(pl.int_range(1, table.height + 1).alias("rank"))


def _seg_numbers(units: dict[str, tuple[int | None, int]]) -> dict[str, int]:
    """unit → seg_id: the file's numbers when they identify the units one-to-one, else 1, 2, … in
    order of first appearance (Marot allows a constant globalSegId)."""
    given = {unit: number for unit, (number, _) in units.items()}
    numbers = list(given.values())
    if None not in numbers and len(set(numbers)) == len(numbers):
        return {unit: int(number) for unit, number in given.items() if number is not None}
    ordered = sorted(units, key=lambda unit: units[unit][1])
    return {unit: index for index, unit in enumerate(ordered, start=1)}


def score_rows(rows: Iterable[MqmRow], *, path: Path, weights: Sequence[Weighting]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(segments, errors) of the rows; a row no rule weighs, or a text that disagrees with an
    earlier row of the same segment, is an InputError naming file and line."""
    rater_sums: dict[tuple[str, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    texts: dict[tuple[str, str], tuple[str, str, int]] = {}  # (system, unit) -> doc, target, line
    sources: dict[str, tuple[str, int]] = {}
    units: dict[str, tuple[int | None, int]] = {}
    errors: dict[str, list[object]] = {k: [] for k in ("line", "system", "unit", "rater", "category", "severity", "weight")}
    for row in rows:
        weight = error_weight(row.severity, row.category, weights)
        if weight is None:
            raise InputError(f"no MQM weight for severity {row.severity!r} (category {row.category!r})",
                             path=str(path), location=row.line)
        key = (row.system, row.unit)
        seen = texts.setdefault(key, (row.doc, row.target, row.line))
        if seen[1] != row.target:
            raise InputError(f"target of {row.system} segment {row.unit} differs from line {seen[2]}",
                             path=str(path), location=row.line)
        first_src = sources.setdefault(row.unit, (row.source, row.line))
        if first_src[0] != row.source:
            raise InputError(f"source of segment {row.unit} differs from line {first_src[1]}", path=str(path),
                             location=row.line)
        units.setdefault(row.unit, (row.seg_id, row.line))
        rater_sums[key][row.rater] += weight
        for name, value in zip(errors, (row.line, row.system, row.unit, row.rater, row.category, row.severity, weight)):
            errors[name].append(value)
    if not texts:
        raise InputError("MQM file has a header but no rated rows", path=str(path), location=2)
    seg_of = _seg_numbers(units)
    keys = sorted(texts, key=lambda k: (k[0], seg_of[k[1]]))
    segments = pl.DataFrame(
        {
            "system": [k[0] for k in keys],
            "seg_id": [seg_of[k[1]] for k in keys],
            "doc": [texts[k][0] for k in keys],
            "source": [sources[k[1]][0] for k in keys],
            "target": [texts[k][1] for k in keys],
            "mqm": [sum(rater_sums[k].values()) / len(rater_sums[k]) for k in keys],
            "n_raters": [len(rater_sums[k]) for k in keys],
        },
        schema_overrides={"seg_id": pl.Int64, "mqm": pl.Float64, "n_raters": pl.Int64},
    )
    errors["seg_id"] = [seg_of[str(u)] for u in errors.pop("unit")]
    error_table = pl.DataFrame(errors, schema_overrides={"line": pl.Int64, "seg_id": pl.Int64, "weight": pl.Float64})
    error_table = error_table.select("line", "system", "seg_id", "rater", "category", "severity", "weight")
    n_errors = (
        error_table.filter(pl.col("severity").str.to_lowercase() != "no-error")
        .group_by("system", "seg_id")
        .agg(pl.len().cast(pl.Int64).alias("n_errors"))
    )
    segments = segments.join(n_errors, on=["system", "seg_id"], how="left").with_columns(pl.col("n_errors").fill_null(0))
    return segments.sort("system", "seg_id"), error_table


Records = Iterator[tuple[int, list[str]]]


@dataclass(frozen=True)
class Layout:
    """One MQM file layout: recognises its header, turns its records into rows (counting the rows
    it drops by reason in ``dropped``), and names the weighting its authors score with."""

    name: str
    description: str
    matches: Callable[[list[str]], bool]
    rows: Callable[[Path, list[str], Records, Counter[str]], Iterator[MqmRow]]
    weights: tuple[Weighting, ...]
