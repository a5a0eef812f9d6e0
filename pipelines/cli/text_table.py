"""Plain-text tables for the terminal (the CLI's summaries)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

NO_VALUE = "—"  # a figure that does not exist (nothing scored); aligned like the numbers around it


def _fmt(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def text_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """Left-aligned text, right-aligned numbers, one header rule."""
    cells = [[_fmt(row.get(c)) for c in columns] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    numeric = [all(isinstance(row.get(c), (int, float)) for row in rows if row.get(c) not in (None, NO_VALUE))
               for c in columns]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)).rstrip()

    return "\n".join([line(list(columns)), line(["-" * w for w in widths])] + [line(r) for r in cells])
