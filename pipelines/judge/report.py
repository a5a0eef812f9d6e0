"""Readable tables of a judge run (markdown), from the same frames that are written as Parquet."""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

from housestyle.pipelines.judge.samples import LABEL_RULE


def _f(value: object, digits: int = 3) -> str:
    return "" if value is None else f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _interval(point: object, low: object, high: object, signed: bool = False) -> str:
    if point is None:
        return ""
    text = f"{point:+.3f}" if signed and isinstance(point, float) else _f(point)
    if isinstance(low, float) and isinstance(high, float) and not (math.isnan(low) or math.isnan(high)):
        text += f" [{low:+.3f}, {high:+.3f}]" if signed else f" [{low:.3f}, {high:.3f}]"
    return text


def markdown_table(rows: Sequence[dict[str, str]], columns: Sequence[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(row.get(c, "") for c in columns) + " |" for row in rows]
    return "\n".join(lines)


def eval_rows(table: pl.DataFrame) -> list[dict[str, str]]:
    """One readable row per judge_eval row (BA [CI], gain [CI])."""
    return [{"train → test": f"{r['train_lp']} → {r['test_lp']}", "criteria": r["criteria"], "llm mode": r["llm_mode"],
             "model": r["model"] + (" (primary)" if r["primary"] else ""),
             "balanced accuracy [95% CI]": _interval(r["balanced_accuracy"], r["ci_low"], r["ci_high"]),
             "gain vs chrF [95% CI]": _interval(r["gain_vs_chrf"], r["gain_ci_low"], r["gain_ci_high"], signed=True),
             "n": str(r["n_samples"]), "segments": str(r["n_segments"])}
            for r in table.iter_rows(named=True)]


EVAL_HEADERS = ["train → test", "criteria", "llm mode", "model", "balanced accuracy [95% CI]",
                "gain vs chrF [95% CI]", "n", "segments"]


def eval_markdown(table: pl.DataFrame) -> str:
    return markdown_table(eval_rows(table), EVAL_HEADERS)


def curve_markdown(curve: pl.DataFrame) -> str:
    wide = curve.pivot(on=["evaluated_on", "model"], index=["fraction", "train_segments", "train_samples"],
                       values="balanced_accuracy")
    columns = list(wide.columns)
    rows = [{c: _f(r[c]) if c != "fraction" else f"{100 * r[c]:g}%" for c in columns} for r in wide.iter_rows(named=True)]
    names = {c: c.replace('{"', "").replace('","', " ").replace('"}', "") for c in columns}
    return markdown_table([{names[c]: v for c, v in row.items()} for row in rows], [names[c] for c in columns])


def importance_markdown(importance: pl.DataFrame) -> str:
    wide = importance.pivot(on="lp", index="concept", values="importance")
    lps = [c for c in wide.columns if c != "concept"]
    rows = [{"concept": r["concept"], **{lp: _f(r[lp]) for lp in lps}} for r in wide.iter_rows(named=True)]
    rho = importance.group_by("lp", maintain_order=True).agg(pl.col("spearman_vs_train").first())
    rows.append({"concept": "Spearman ρ vs training language", **{r["lp"]: _f(r["spearman_vs_train"])
                                                                  for r in rho.iter_rows(named=True)}})
    return markdown_table(rows, ["concept", *lps])


def cost_markdown(cost: pl.DataFrame, wall: dict[str, float]) -> str:
    """Per call mode: samples, calls/sample, prompt and completion tokens/sample, unparsed answers, wall time."""
    summary = cost.group_by("lp", "mode", maintain_order=True).agg(
        pl.len().alias("samples"), pl.col("calls").mean().alias("calls"),
        pl.col("prompt_tokens").mean().alias("prompt"), pl.col("completion_tokens").mean().alias("completion"),
        pl.col("cached_calls").sum().alias("cached"), pl.col("failed_calls").sum().alias("failed"),
        (pl.col("unparsed").sum() / pl.col("answers").sum()).alias("unparsed"))
    rows = [{"lp": r["lp"], "mode": r["mode"], "samples": str(r["samples"]), "calls / sample": _f(r["calls"], 1),
             "prompt tokens / sample": _f(r["prompt"], 0), "completion tokens / sample": _f(r["completion"], 1),
             "unparsed answers": f"{100 * r['unparsed']:.1f}%", "cached calls": str(r["cached"]),
             "failed calls": str(r["failed"]), "wall s (this run)": _f(wall.get(f"{r['lp']}:{r['mode']}"), 0)}
            for r in summary.iter_rows(named=True)]
    return markdown_table(rows, ["lp", "mode", "samples", "calls / sample", "prompt tokens / sample",
                                 "completion tokens / sample", "unparsed answers", "cached calls", "failed calls",
                                 "wall s (this run)"])


def aggregator_markdown(table: pl.DataFrame) -> str:
    rows = [{"model": r["model"], "balanced accuracy [95% CI]": _interval(r["balanced_accuracy"], r["ci_low"], r["ci_high"]),
             "gain vs zero-shot LLM [95% CI]": _interval(r["gain_vs_zero_shot"], r["gain_zs_ci_low"], r["gain_zs_ci_high"],
                                                         signed=True)}
            for r in table.iter_rows(named=True)]
    return markdown_table(rows, ["model", "balanced accuracy [95% CI]", "gain vs zero-shot LLM [95% CI]"])


def label_rule() -> str:
    return f"Label rule: {LABEL_RULE}."
