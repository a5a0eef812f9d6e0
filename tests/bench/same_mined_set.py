"""Whether two `housestyle mine` outputs hold the same set, for cost work that must not change it:
``conventions.parquet`` (sorted by convention_id), ``evidence``, ``conflicts``, ``suspect_units`` and
``term_trace`` equal under polars ``equals`` (the manifests differ by code_version, seal and
set_version). On demand: ``python -m tests.bench.same_mined_set OUT_A OUT_B CLIENT``, each OUT the
``--out`` of one run; exit 1 when a table differs."""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

TABLES = ("conventions", "evidence", "conflicts", "suspect_units", "term_trace")


def latest_set(out: Path, client: str) -> Path:
    """The set the client's LATEST names."""
    return out / client / (out / client / "LATEST").read_text(encoding="utf-8").strip()


def same_tables(a: Path, b: Path) -> dict[str, bool]:
    """table -> whether both sets hold it equal (conventions compared sorted by convention_id)."""
    out = {}
    for name in TABLES:
        x, y = pl.read_parquet(a / f"{name}.parquet"), pl.read_parquet(b / f"{name}.parquet")
        if name == "conventions":
            x, y = x.sort("convention_id"), y.sort("convention_id")
        out[name] = x.equals(y)
    return out


def main(argv: list[str]) -> int:
    a, b = (latest_set(Path(p), argv[2]) for p in argv[:2])
    result = same_tables(a, b)
    for name, equal in result.items():
        print(f"{name}: {'equal' if equal else 'DIFFERENT'}")
    return 0 if all(result.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
