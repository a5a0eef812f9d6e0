"""Small helpers that turn tables into Dagster UI metadata (markdown tables, escaped and truncated)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import polars as pl
from dagster import MetadataValue

CELL_MAX_CHARS = 80


def _cell(value: Any) -> str:
    """One markdown cell: pipes escaped, newlines flattened, long text cut (the UI is a preview)."""
    if value is None:
        return ""
    if isinstance(value, float):
        text = f"{value:.1f}"
    elif isinstance(value, int):
        text = f"{value:,}"
    else:
        text = str(value)
    text = text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ")
    return text if len(text) <= CELL_MAX_CHARS else text[: CELL_MAX_CHARS - 1] + "…"


def md_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    """A GitHub-style markdown table of ``rows`` (``columns`` picks and orders them)."""
    if not rows:
        return "_(none)_"
    cols = list(columns) if columns is not None else list(rows[0].keys())
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(_cell(row.get(c)) for c in cols) + " |" for row in rows]
    return "\n".join(lines)


def md_frame(frame: pl.DataFrame, limit: int = 20) -> MetadataValue:
    """The first ``limit`` rows of a polars frame as a markdown metadata value."""
    return MetadataValue.md(md_table(frame.head(limit).to_dicts(), frame.columns))


def md_counts(counts: Mapping[str, int] | Iterable[tuple[str, int]], key: str, value: str = "count") -> MetadataValue:
    """A two-column markdown table, largest first."""
    items = counts.items() if isinstance(counts, Mapping) else counts
    ordered = sorted(((str(k), int(v)) for k, v in items), key=lambda kv: (-kv[1], kv[0]))
    return MetadataValue.md(md_table([{key: k, value: v} for k, v in ordered], [key, value]))
