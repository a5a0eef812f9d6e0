"""Housestyle's own verdicts as criteria: per sample, the SCS pass/fail of each convention dimension.

The bulk checker (``housestyle.pipelines.scoring.engine.score_systems``) gives the failed items; applicability
comes from ``housestyle.pipelines.scoring.check.applies`` on the source. A sample's answer for a dimension is
1.0 (every applicable convention of the dimension passed), 0.0 (one failed) or null (none applies):
null, not a pass, so the concept mean is taken over the dimensions that say something.

The default convention set (``conventions/ted.jsonl``, authored for the WMT21 TED data, origin
``authored``) holds German quotes and number format for en→de, number integrity for zh→en, and
language-agnostic checks (full-width CJK punctuation left in a German/English output, space before
punctuation, doubled spaces, sentence-initial capital). Conventions are filtered by the language
pair (a null src_lang/tgt_lang applies to every pair).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.scoring.check import applies
from housestyle.pipelines.scoring.engine import score_systems

DEFAULT_CONVENTIONS = Path(__file__).resolve().parent / "conventions" / "ted.jsonl"


def conventions_for(conventions: Sequence[Convention], src_lang: str, tgt_lang: str) -> list[Convention]:
    """The conventions that apply to this language pair (base subtags compared)."""
    def ok(want: str | None, have: str) -> bool:
        return want is None or want.split("-")[0].lower() == have.split("-")[0].lower()
    return [c for c in conventions if ok(c.src_lang, src_lang) and ok(c.tgt_lang, tgt_lang)]


def dimensions_of(conventions: Sequence[Convention]) -> list[str]:
    return sorted({c.dimension for c in conventions})


def load_default_conventions(path: Path | None = None) -> list[Convention]:
    return load_conventions(path or DEFAULT_CONVENTIONS, regex_guard=False)


def scs_verdicts(samples: pl.DataFrame, conventions: Sequence[Convention], src_lang: str,
                 tgt_lang: str) -> pl.DataFrame:
    """system, seg_id and one Float64 column ``scs:<dimension>`` per dimension of ``conventions``
    (all of them, so every language pair gets the same columns): 1.0 / 0.0 / null as above."""
    all_dims = dimensions_of(conventions)
    active = conventions_for(conventions, src_lang, tgt_lang)
    keys = samples.select("system", "seg_id")
    if not active:
        return keys.with_columns([pl.lit(None, dtype=pl.Float64).alias(f"scs:{d}") for d in all_dims])
    sources = {str(k): s for k, s in zip(samples["seg_id"].to_list(), samples["source"].to_list())}
    systems: dict[str, dict[str, str]] = {}
    for system, seg_id, target in zip(samples["system"].to_list(), samples["seg_id"].to_list(),
                                      samples["target"].to_list()):
        systems.setdefault(system, {})[str(seg_id)] = target
    result = score_systems(active, sources, systems)
    failed = {(r["system"], r["segment_id"], r["dimension"]) for r in result.failures.iter_rows(named=True)}
    applicable: dict[str, set[str]] = {d: set() for d in all_dims}
    for conv in active:
        for seg_id, source in sources.items():
            if applies(conv, source):
                applicable[conv.dimension].add(seg_id)
    columns: dict[str, list[float | None]] = {}
    pairs = list(zip(samples["system"].to_list(), (str(s) for s in samples["seg_id"].to_list())))
    for dim in all_dims:
        columns[f"scs:{dim}"] = [
            None if seg not in applicable[dim] else (0.0 if (system, seg, dim) in failed else 1.0)
            for system, seg in pairs]
    return keys.with_columns([pl.Series(name, values, dtype=pl.Float64) for name, values in columns.items()])
