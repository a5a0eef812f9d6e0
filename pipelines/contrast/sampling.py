"""Which TM units a generic system must translate for contrast mining.

A large TM must not mean a full re-translation: ``terms`` (default) keeps only the units whose source
triggers one of the mined term rules — the only units contrast mining looks at — and ``max_sources``
caps the count with a deterministic stride (every k-th unit, so a re-run asks for the same units and
hits the cache). ``all`` translates every unit.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from housestyle.pipelines.contrast.cases import TriggerIndex, Unit, compile_rules
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import ConfigError

SAMPLING_MODES = ("terms", "all")


def units_from_frame(units: pl.DataFrame, src_lang: str | None = None, tgt_lang: str | None = None) -> tuple[list[Unit], str, str]:
    """(units, src, tgt) of one language pair of a tm_units frame (default: its most frequent pair).

    Units without a target, and duplicates of an earlier unit id, are left out (first row wins)."""
    pairs = units.group_by("src_lang_norm", "tgt_lang_norm").len().sort(["len", "tgt_lang_norm"], descending=[True, False])
    if tgt_lang:
        pairs = pairs.filter(pl.col("tgt_lang_norm").str.to_lowercase().str.starts_with(tgt_lang.lower()))
    if src_lang:
        pairs = pairs.filter(pl.col("src_lang_norm").str.to_lowercase().str.starts_with(src_lang.lower()))
    if pairs.is_empty():
        raise ConfigError(f"tm_units has no units for {src_lang or '*'}→{tgt_lang or '*'}")
    src, tgt = pairs.row(0)[:2]
    chosen = (units.filter((pl.col("src_lang_norm") == src) & (pl.col("tgt_lang_norm") == tgt)
                           & pl.col("target").is_not_null())
              .unique("unit_id", keep="first", maintain_order=True))
    return [Unit(u, s, t) for u, s, t in chosen.select("unit_id", "source", "target").iter_rows()], src, tgt


def sample_units(units: Sequence[Unit], rules: Sequence[Convention], *, mode: str = "terms",
                 max_sources: int | None = None) -> list[Unit]:
    """The units to generate for, in TM order."""
    if mode not in SAMPLING_MODES:
        raise ConfigError(f"sampling must be one of {SAMPLING_MODES}, not {mode!r}")
    picked = list(units)
    if mode == "terms":
        terms = [r for r in rules if r.rule == "term" and r.expected_terms]
        triggered = TriggerIndex(compile_rules(terms)).triggered_all([u.source for u in units]) if terms else []
        picked = [u for u, hit in zip(units, triggered) if hit]
    if max_sources is not None and len(picked) > max_sources:
        step = len(picked) / max_sources
        picked = [picked[int(i * step)] for i in range(max_sources)]
    return picked
