"""What a project manager acts on: failures told apart as new, inherited or ignored, and a pass / fail
per system against the client's threshold.

A failure is *inherited* when the client's own approved target (or the first reference) of the same
segment fails the same convention too: the system repeated what the TM already does, it did not add
an error. ``inherited`` is null where the segment has no approved target. *Ignored* items are the
client's recorded exceptions (``ignores.py``): counted apart, never as failures. The pass / fail
verdict is on the SCS over new errors only: 100 × (scored − new failures) / scored.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import polars as pl

from housestyle.pipelines.conventions.factors import literal_forms
from housestyle.pipelines.conventions.model import Convention

DEFAULT_THRESHOLD = 95.0  # the SCS over new errors a system must reach to pass, unless the client sets one
SEVERITY: tuple[str, ...] = ("placeholder", "numeric", "forbidden", "term", "pattern", "source_copy", "casing")


def run_threshold(run: Mapping[str, object]) -> float:
    """The threshold a run recorded (the default for runs from before thresholds)."""
    value = run.get("threshold")
    return float(value) if isinstance(value, (int, float)) else DEFAULT_THRESHOLD


def severity_rank(rule: str) -> int:
    """The report's section order: placeholders first, casing last (unknown kinds after)."""
    return SEVERITY.index(rule) if rule in SEVERITY else len(SEVERITY)


def readable(failures: pl.DataFrame, conventions: Sequence[Convention]) -> pl.DataFrame:
    """``missing_expected`` as literal forms (a regex entry becomes the strings it stands for, or
    ``/regex/`` when its language is not small), the entries as written in ``missing_expected_regex``
    (null for a plain convention). ``found_wrong`` already holds the text found in the output."""
    is_regex = {c.convention_id: c.regex for c in conventions}
    literal: list[list[str]] = []
    regexes: list[list[str] | None] = []
    for cid, missing in zip(failures["convention_id"].to_list(), failures["missing_expected"].to_list()):
        entries = list(missing or [])
        if not is_regex.get(cid, False):
            literal.append(entries)
            regexes.append(None)
            continue
        forms: list[str] = []
        for entry in entries:
            found = literal_forms(entry, True)
            forms.extend(found if found is not None else (f"/{entry}/",))
        literal.append(forms)
        regexes.append(entries)
    return failures.with_columns(
        pl.Series("missing_expected", literal, dtype=pl.List(pl.Utf8)),
        pl.Series("missing_expected_regex", regexes, dtype=pl.List(pl.Utf8)),
    )


def mark_inherited(failures: pl.DataFrame, approved_failures: pl.DataFrame, approved_ids: set[str]) -> pl.DataFrame:
    """Add ``inherited``: true when the approved target of the segment fails the same convention,
    false when it passes, null when the segment has no approved target."""
    keys = set(zip(approved_failures["convention_id"].to_list(), approved_failures["segment_id"].to_list()))
    values = [None if seg not in approved_ids else (cid, seg) in keys
              for cid, seg in zip(failures["convention_id"].to_list(), failures["segment_id"].to_list())]
    return failures.with_columns(pl.Series("inherited", values, dtype=pl.Boolean))


def recount(scores: pl.DataFrame, failures: pl.DataFrame) -> pl.DataFrame:
    """Scores with ``ignored`` items (``failures.ignored``) counted as passed, not failed, and
    ``new_failed`` / ``inherited_failed`` per system × convention."""
    per = (failures.group_by("system", "convention_id")
           .agg(pl.col("ignored").sum().cast(pl.Int64).alias("ignored"),
                ((~pl.col("ignored")) & pl.col("inherited").fill_null(False)).sum().cast(pl.Int64).alias("inherited_failed"),
                ((~pl.col("ignored")) & ~pl.col("inherited").fill_null(False)).sum().cast(pl.Int64).alias("new_failed")))
    out = scores.drop([c for c in ("ignored", "inherited_failed", "new_failed") if c in scores.columns])
    out = out.join(per, on=["system", "convention_id"], how="left").with_columns(
        pl.col("ignored").fill_null(0), pl.col("inherited_failed").fill_null(0), pl.col("new_failed").fill_null(0))
    out = out.with_columns((pl.col("passed") + pl.col("ignored")).alias("passed"))
    return out.with_columns(
        pl.when(pl.col("scored") > 0).then(100.0 * pl.col("passed") / pl.col("scored")).otherwise(None).alias("score"))


def system_verdicts(scores: pl.DataFrame, coverage: pl.DataFrame, systems: Sequence[str],
                    threshold: float) -> pl.DataFrame:
    """Per system: scored, new, inherited, ignored failures, ``scs_new`` (the SCS over new errors
    only), empty outputs, and ``verdict`` pass / fail against ``threshold`` (``no-items`` when nothing
    was scored)."""
    if "new_failed" not in scores.columns:  # a run from before inherited / ignored were told apart
        scores = scores.with_columns((pl.col("scored") - pl.col("passed")).alias("new_failed"),
                                     pl.lit(0).alias("inherited_failed"), pl.lit(0).alias("ignored"))
    sums = scores.group_by("system").agg(pl.col("scored").sum(), pl.col("new_failed").sum(),
                                         pl.col("inherited_failed").sum(), pl.col("ignored").sum())
    rows = []
    by = {r["system"]: r for r in sums.iter_rows(named=True)}
    empty = dict(zip(coverage["system"].to_list(), coverage["empty"].to_list())) if "empty" in coverage.columns else {}
    for name in systems:
        r = by.get(name) or {"scored": 0, "new_failed": 0, "inherited_failed": 0, "ignored": 0}
        scored = int(r["scored"])
        scs_new = 100.0 * (scored - int(r["new_failed"])) / scored if scored else None
        verdict = "no-items" if scs_new is None else ("pass" if scs_new >= threshold else "fail")
        rows.append({"system": name, "scored": scored, "new": int(r["new_failed"]),
                     "inherited": int(r["inherited_failed"]), "ignored": int(r["ignored"]),
                     "scs_new": scs_new, "threshold": threshold, "verdict": verdict,
                     "empty_outputs": int(empty.get(name) or 0)})
    return pl.DataFrame(rows, schema={"system": pl.Utf8, "scored": pl.Int64, "new": pl.Int64, "inherited": pl.Int64,
                                      "ignored": pl.Int64, "scs_new": pl.Float64, "threshold": pl.Float64,
                                      "verdict": pl.Utf8, "empty_outputs": pl.Int64})


def empty_outputs(sources: Mapping[str, str], outputs: Mapping[str, Mapping[str, str]]) -> dict[str, int]:
    """Per system, how many non-empty sources got an empty (whitespace-only) output."""
    return {name: sum(1 for k, text in out.items() if k in sources and sources[k].strip() and not text.strip())
            for name, out in outputs.items()}
