"""Readable renderings of meta-evaluation results (Markdown; the same text is printed by the CLI)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from housestyle.pipelines.metaeval.mqm import MqmData


def _fmt(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _with_interval(row: dict[str, object], figure: str) -> str:
    point, low, high = row.get(figure), row.get(f"{figure}_low"), row.get(f"{figure}_high")
    if point is None:
        return "–"
    text = _fmt(point)  # type: ignore[arg-type]
    if low is not None and high is not None:
        text += f" [{_fmt(low)}, {_fmt(high)}]"  # type: ignore[arg-type]
    return text


def results_markdown(results: pl.DataFrame) -> str:
    """One Markdown table: a line per (lp, metric, references, level), figures with 95% intervals."""
    header = ("| lp | metric | references | level | pairwise accuracy | Pearson | Kendall tau-b | systems | segments |\n"
              "|---|---|---|---|---|---|---|---|---|")
    lines = [header]
    for row in results.iter_rows(named=True):
        lines.append(
            f"| {row['lp']} | {row['metric']} | {row['references']} | {row['level']} | "
            f"{_with_interval(row, 'pairwise_accuracy')} | {_with_interval(row, 'pearson')} | "
            f"{_with_interval(row, 'kendall')} | {row['n_systems']} | {row['n_segments']} |"
        )
    return "\n".join(lines)


def signatures_markdown(results: pl.DataFrame) -> str:
    """The distinct signatures, one bullet each (pooled signatures repeat per-lp ones, so skipped)."""
    rows = results.filter(pl.col("lp") != "pooled").select("lp", "metric", "references", "signature").unique(maintain_order=True)
    return "\n".join(f"- {r[0]} {r[1]} ({r[2]}): `{r[3]}`" for r in rows.iter_rows())


def mqm_markdown(datas: Sequence[MqmData], digits: int = 4) -> str:
    """System-level MQM per lp (error points, lower is better), as in the upstream README tables."""
    parts = []
    for data in datas:
        dropped = "".join(f"; {n} {reason.replace('_', '-')} rows dropped" for reason, n in sorted(data.dropped.items()))
        lines = [f"**{data.lp}** ({data.layout} layout{dropped}; `{data.signature}`)", "",
                 "| rank | system | MQM | segments |", "|---|---|---|---|"]
        for row in data.system_scores().iter_rows(named=True):
            lines.append(f"| {row['rank']} | {row['system']} | {row['mqm']:.{digits}f} | {row['n_segments']} |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)
