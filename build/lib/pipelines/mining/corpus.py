"""The units one mining run sees: one language pair, duplicates and unusable rows left out.

Rows are sorted by unit_id so the result never depends on file order (determinism); a repeated
(source, target) pair keeps its first unit only, since repeats would double-count evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from pipelines.errors import InputError
from pipelines.mining.tokens import fold_count

SKIP_FLAGS = ("fuzzy",)  # PO entries a translator marked as unreviewed are not approved translations


def primary(lang: str | None) -> str:
    return (lang or "").split("-")[0].lower()


@dataclass(slots=True)
class Corpus:
    unit_ids: list[str]
    sources: list[str]
    targets: list[str]
    src_lang: str
    tgt_lang: str
    domains: list[str | None] = field(default_factory=list)
    _cache: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.unit_ids)

    def subset(self, indices: list[int]) -> Corpus:
        """The units at ``indices`` (in that order), as a corpus of their own."""
        domains = [self.domains[i] for i in indices] if self.domains else []
        return Corpus([self.unit_ids[i] for i in indices], [self.sources[i] for i in indices],
                      [self.targets[i] for i in indices], self.src_lang, self.tgt_lang, domains)

    @property
    def folded_sources(self) -> list[str]:
        if "src" not in self._cache:
            self._cache["src"] = [fold_count(t) for t in self.sources]
        return self._cache["src"]

    @property
    def folded_targets(self) -> list[str]:
        if "tgt" not in self._cache:
            self._cache["tgt"] = [fold_count(t) for t in self.targets]
        return self._cache["tgt"]


# What mining reads of tm_units (split selectors included). The markup copies, props and hashes
# are about as large again (0.87 GiB for a 1M-unit TM against 0.36 GiB for these), and mining
# holds the frame until the set is written.
MINING_COLUMNS: tuple[str, ...] = ("unit_id", "source", "target", "src_lang_norm", "tgt_lang_norm", "domain", "flags")


def read_units_for_mining(path: Path) -> pl.DataFrame:
    """The tm_units columns mining uses (those the file has: a hand-made file may lack some)."""
    present = set(pl.read_parquet_schema(path))
    return pl.read_parquet(path, columns=[c for c in MINING_COLUMNS if c in present])


def corpus_from_units(units: pl.DataFrame, src_lang: str, tgt_lang: str, *, where: str = "<tm_units>") -> Corpus:
    """Select one language pair (primary subtags compared) from a tm_units frame."""
    missing = {"unit_id", "source", "target"} - set(units.columns)
    if missing:
        raise InputError(f"tm_units lacks columns {sorted(missing)}", path=where)
    frame = units.filter(pl.col("target").is_not_null() & pl.col("source").is_not_null())
    if "src_lang_norm" in frame.columns and "tgt_lang_norm" in frame.columns:
        frame = frame.filter(
            (pl.col("src_lang_norm").str.split("-").list.first().str.to_lowercase() == primary(src_lang))
            & (pl.col("tgt_lang_norm").str.split("-").list.first().str.to_lowercase() == primary(tgt_lang)))
    if "flags" in frame.columns:
        frame = frame.filter(~pl.col("flags").list.eval(pl.element().is_in(list(SKIP_FLAGS))).list.any().fill_null(False))
    domains = frame["domain"] if "domain" in frame.columns else pl.Series("domain", [None] * frame.height, pl.Utf8)
    # Duplicates are judged WITHIN the selected units (``duplicate_of`` may point into another split).
    frame = (frame.with_columns(domains.alias("_domain")).sort("unit_id", "source", "target")
             .unique(["source", "target"], keep="first", maintain_order=True))
    return Corpus(frame["unit_id"].to_list(), frame["source"].to_list(), frame["target"].to_list(),
                  src_lang, tgt_lang, frame["_domain"].to_list())
