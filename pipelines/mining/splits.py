"""Select the units of one split from a client's splits.json (SPEC §1: a MINER input).

Format: ``{"<split>": {"unit_id": [...]} | {"domain": [...]}}``. Deliberately independent of the
registration code (the miner never imports it); the format is the shared contract.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from pipelines.errors import InputError

SELECTORS = ("unit_id", "domain")


def read_split(path: Path, name: str) -> tuple[str, list[str]]:
    """(selector, values) of split ``name``; errors name the file and the split."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("splits file not found", path=str(path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", path=str(path), location=f"line {exc.lineno}") from None
    if not isinstance(data, dict) or name not in data:
        known = sorted(data) if isinstance(data, dict) else []
        raise InputError(f"no split {name!r} (splits: {known})", path=str(path))
    spec = data[name]
    if not isinstance(spec, dict) or len(spec) != 1 or next(iter(spec)) not in SELECTORS:
        raise InputError(f"split must be an object with exactly one of {SELECTORS}", path=str(path), location=f"split {name!r}")
    (selector, values), = spec.items()
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise InputError(f"{selector} must be a list of strings", path=str(path), location=f"split {name!r}")
    return selector, values


def select_split(units: pl.DataFrame, path: Path, name: str) -> pl.DataFrame:
    selector, values = read_split(path, name)
    if selector not in units.columns:
        raise InputError(f"tm_units has no column {selector!r} for split {name!r}", path=str(path))
    return units.filter(pl.col(selector).is_in(values))
