"""Reading one of housestyle's own Parquet tables (decisions, ignores) back with its schema: a file
that is not that table is one InputError naming it, never a polars traceback."""

from __future__ import annotations

from pathlib import Path
import polars as pl

from housestyle.pipelines.errors import InputError


def read_typed_parquet(path: Path, schema: pl.Schema, what: str) -> pl.DataFrame:
    """The table at ``path`` with exactly ``schema``'s columns and types (``what`` names it in errors)."""
    try:
        frame = pl.read_parquet(path)
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise InputError(f"not {what}: {exc}", path=str(path)) from None
    missing = [c for c in schema if c not in frame.columns]
    if missing:
        raise InputError(f"{what} lacks columns {missing}", path=str(path))
    try:
        return frame.select(list(schema)).cast(schema)
    except pl.exceptions.PolarsError as exc:
        raise InputError(f"{what} has columns of the wrong type: {exc}", path=str(path)) from None
