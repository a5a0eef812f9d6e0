"""Column contracts of the ``tm_units`` and ``tm_rejects`` tables (SPEC.md §2: names are the contract).

Extensions beyond SPEC.md are documented in README.md and only ever added, never renamed.
"""

from __future__ import annotations

import polars as pl

PROPS_TYPE = pl.List(pl.Struct({"key": pl.Utf8, "value": pl.Utf8}))

TM_UNITS_SCHEMA: dict[str, pl.DataType] = {
    "client": pl.Utf8(),
    "source_file": pl.Utf8(),
    "unit_id": pl.Utf8(),
    "src_lang": pl.Utf8(),
    "tgt_lang": pl.Utf8(),
    "src_lang_norm": pl.Utf8(),
    "tgt_lang_norm": pl.Utf8(),
    "source": pl.Utf8(),
    "target": pl.Utf8(),
    "source_markup": pl.Utf8(),
    "target_markup": pl.Utf8(),
    "domain": pl.Utf8(),
    "created_at": pl.Datetime("us", "UTC"),
    "changed_at": pl.Datetime("us", "UTC"),
    "creator": pl.Utf8(),
    "note": pl.Utf8(),
    "props": PROPS_TYPE,
    "unit_hash": pl.Utf8(),
    # extensions
    "format": pl.Utf8(),
    "line": pl.Int64(),
    "context": pl.Utf8(),
    "flags": pl.List(pl.Utf8),
    "duplicate_of": pl.Utf8(),
}

TM_REJECTS_SCHEMA: dict[str, pl.DataType] = {
    "client": pl.Utf8(),
    "source_file": pl.Utf8(),
    "location": pl.Utf8(),
    "reason": pl.Utf8(),
    "raw": pl.Utf8(),
}

REJECT_RAW_MAX_CHARS = 500
