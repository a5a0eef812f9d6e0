"""Load Google's WMT MQM annotation TSVs and score them the way upstream does.

Upstream convention (google/wmt-mqm-human-evaluation README, mt-metrics-eval score_mqm.py):
- one row per error; a segment without errors has one row with severity ``No-error``;
- an error's weight is the most specific matching rule: Non-translation 25 (any severity),
  Minor Fluency/Punctuation 0.1, Major 5, Minor 1, Neutral / No-error 0;
- a rater's segment score is the sum of the rater's error weights; the segment score is the mean
  over the raters who rated that (system, segment); the system score is the mean over segments.
Scores are MQM error points: LOWER is better. ``human_score`` (= -MQM) is what correlations use.

The TSVs are read with csv.QUOTE_NONE (quotes are literal text) and the ``<v>…</v>`` error-span
markers are removed from source and target to recover the plain texts.
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pipelines.errors import InputError

REQUIRED_COLUMNS = ("system", "seg_id", "rater", "source", "target", "category", "severity")
SPAN_TAG_RE = re.compile(r"</?v>")
_LP_RE = re.compile(r"^([a-z]{2,3})-?([a-z]{2,3})$")


@dataclass(frozen=True)
class WeightRule:
    """One weighting rule; ``None`` matches anything. Category matches by path prefix."""

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


# Most specific first: the first matching rule gives the weight.
DEFAULT_WEIGHTS: tuple[WeightRule, ...] = (
    WeightRule(None, "Non-translation", 25.0),
    WeightRule("Minor", "Fluency/Punctuation", 0.1),
    WeightRule("Major", None, 5.0),
    WeightRule("Minor", None, 1.0),
    WeightRule("Neutral", None, 0.0),
    WeightRule("No-error", None, 0.0),
)


def weights_signature(rules: tuple[WeightRule, ...]) -> str:
    """Compact, order-preserving text of the weighting, for signatures."""
    return ",".join(f"{r.severity or '*'}/{r.category or '*'}={r.weight:g}" for r in rules)


def error_weight(severity: str, category: str, rules: tuple[WeightRule, ...] = DEFAULT_WEIGHTS) -> float | None:
    """Weight of one annotated error, or None when no rule covers its severity."""
    for rule in rules:
        if rule.matches(severity, category):
            return rule.weight
    return None


def strip_spans(text: str) -> str:
    """Plain text of an annotated source/target: the ``<v>``/``</v>`` span markers removed."""
    return SPAN_TAG_RE.sub("", text)


def lp_from_path(path: Path) -> str:
    """``mqm_ted_ende.tsv`` → ``en-de``; otherwise the file name without extensions."""
    stem = path.name.split(".")[0]
    last = re.split(r"[_.]", stem)[-1]
    match = _LP_RE.match(last)
    return f"{match.group(1)}-{match.group(2)}" if match else stem


@dataclass(frozen=True)
class MqmData:
    """One language pair's MQM annotations, scored.

    segments: system, seg_id, doc, source, target, mqm (error points), n_raters, n_errors.
    errors: line, system, seg_id, rater, category, severity, weight (one row per annotation row).
    """

    path: Path
    lp: str
    segments: pl.DataFrame
    errors: pl.DataFrame
    signature: str

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


def _file_sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def load_mqm(path: Path | str, *, lp: str | None = None, weights: tuple[WeightRule, ...] = DEFAULT_WEIGHTS) -> MqmData:
    """Read and score one MQM TSV; every malformed row is an InputError naming file and line."""
    path = Path(path)
    if not path.is_file():
        raise InputError("MQM file not found", path=str(path))
    rater_sums: dict[tuple[str, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    texts: dict[tuple[str, int], tuple[str, str, str, int]] = {}  # (system, seg) -> doc, source, target, line
    sources: dict[int, tuple[str, int]] = {}
    errors: dict[str, list[object]] = {k: [] for k in ("line", "system", "seg_id", "rater", "category", "severity", "weight")}
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader, None)
        if header is None:
            raise InputError("empty MQM file (no header line)", path=str(path), location=1)
        header = [h.strip() for h in header]
        missing = [c for c in REQUIRED_COLUMNS if c not in header]
        if missing:
            raise InputError(f"MQM header lacks column(s) {missing}; found {header}", path=str(path), location=1)
        col = {name: i for i, name in enumerate(header)}
        for fields in reader:
            line = reader.line_num
            if fields == [] or fields == [""]:
                continue
            if len(fields) != len(header):
                raise InputError(f"expected {len(header)} tab-separated fields, found {len(fields)}", path=str(path), location=line)
            system, rater = fields[col["system"]], fields[col["rater"]]
            severity, category = fields[col["severity"]].strip(), fields[col["category"]].strip()
            try:
                seg_id = int(fields[col["seg_id"]])
            except ValueError:
                raise InputError(f"seg_id {fields[col['seg_id']]!r} is not an integer", path=str(path), location=line) from None
            weight = error_weight(severity, category, weights)
            if weight is None:
                raise InputError(f"no MQM weight for severity {severity!r} (category {category!r})", path=str(path), location=line)
            source, target = strip_spans(fields[col["source"]]), strip_spans(fields[col["target"]])
            doc = fields[col["doc"]] if "doc" in col else ""
            key = (system, seg_id)
            seen = texts.get(key)
            if seen is None:
                texts[key] = (doc, source, target, line)
            elif seen[2] != target:
                raise InputError(f"target of {system} segment {seg_id} differs from line {seen[3]}", path=str(path), location=line)
            first_src = sources.setdefault(seg_id, (source, line))
            if first_src[0] != source:
                raise InputError(f"source of segment {seg_id} differs from line {first_src[1]}", path=str(path), location=line)
            rater_sums[key][rater] += weight
            for name, value in zip(errors, (line, system, seg_id, rater, category, severity, weight)):
                errors[name].append(value)
    if not texts:
        raise InputError("MQM file has a header but no rows", path=str(path), location=2)
    keys = sorted(texts)
    segments = pl.DataFrame(
        {
            "system": [k[0] for k in keys],
            "seg_id": [k[1] for k in keys],
            "doc": [texts[k][0] for k in keys],
            "source": [texts[k][1] for k in keys],
            "target": [texts[k][2] for k in keys],
            "mqm": [sum(rater_sums[k].values()) / len(rater_sums[k]) for k in keys],
            "n_raters": [len(rater_sums[k]) for k in keys],
        },
        schema_overrides={"seg_id": pl.Int64, "mqm": pl.Float64, "n_raters": pl.Int64},
    )
    error_table = pl.DataFrame(errors, schema_overrides={"line": pl.Int64, "seg_id": pl.Int64, "weight": pl.Float64})
    n_errors = (
        error_table.filter(pl.col("severity").str.to_lowercase() != "no-error")
        .group_by("system", "seg_id")
        .agg(pl.len().cast(pl.Int64).alias("n_errors"))
    )
    segments = segments.join(n_errors, on=["system", "seg_id"], how="left").with_columns(pl.col("n_errors").fill_null(0))
    name = lp or lp_from_path(path)
    signature = f"mqm|lp:{name}|weights:{weights_signature(weights)}|seg:mean-over-raters|sys:mean-over-segs|sha256:{_file_sha(path)}"
    return MqmData(path=path, lp=name, segments=segments.sort("system", "seg_id"), errors=error_table, signature=signature)
