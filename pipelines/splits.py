"""The client's splits.json: which units each mining run / each gate sees.

Neutral ground: the miner (a split is a miner input) and the registration (each gate names a split)
both read it, and neither imports the other.

Format (documented in README): ``{"<split>": {"unit_id": [ids…]} | {"domain": [domains…]}, …}``.
A split selects the tm_units rows whose ``unit_id`` (or ``domain``) is in its list. One selector key
per split, so a split's meaning is never ambiguous.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from housestyle.pipelines.errors import InputError

SELECTORS: tuple[str, ...] = ("unit_id", "domain")

Splits = dict[str, dict[str, list[str]]]


def read_splits(path: Path) -> Splits:
    """Parse and validate a splits file; every problem names the file and the split."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("splits file not found", path=str(path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg}", path=str(path), location=f"line {exc.lineno}") from None
    if not isinstance(data, dict) or not data:
        raise InputError("splits file must be a non-empty JSON object: split -> {selector: [values]}", path=str(path))
    out: Splits = {}
    for name, spec in data.items():
        if not isinstance(spec, dict) or len(spec) != 1:
            raise InputError(f"split must be an object with exactly one of {SELECTORS}", path=str(path), location=f"split {name!r}")
        (selector, values), = spec.items()
        if selector not in SELECTORS:
            raise InputError(f"unknown selector {selector!r} (expected one of {SELECTORS})", path=str(path), location=f"split {name!r}")
        if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
            raise InputError(f"{selector} must be a non-empty list of strings", path=str(path), location=f"split {name!r}")
        out[name] = {selector: list(values)}
    return out


def split_units(units: pl.DataFrame, splits: Splits, name: str) -> pl.DataFrame:
    """The tm_units rows of one split (rows with a null target are never evidence of anything)."""
    (selector, values), = splits[name].items()
    return units.filter(pl.col(selector).is_in(values) & pl.col("target").is_not_null())


def select_split(units: pl.DataFrame, path: Path, name: str) -> pl.DataFrame:
    """The units of split ``name`` of the splits file at ``path`` (for mining: every row, targets or not)."""
    splits = read_splits(path)
    if name not in splits:
        raise InputError(f"no split {name!r} (splits: {sorted(splits)})", path=str(path))
    (selector, values), = splits[name].items()
    if selector not in units.columns:
        raise InputError(f"tm_units has no column {selector!r} for split {name!r}", path=str(path))
    return units.filter(pl.col(selector).is_in(values))
