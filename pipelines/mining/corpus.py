"""The units one mining run sees: one language pair, duplicates and unusable rows left out.

Rows are sorted by unit_id so the result never depends on file order (determinism); a repeated
(source, target) pair keeps its first unit only, since repeats would double-count evidence.

The texts stay Arrow columns (polars string views over the tm_units buffers) for the whole run,
and passes over all units read them in batches of Python strings (``Texts``): at 1M units of real
text, Python lists of the raw and folded texts were ~1.4 GiB of the miner's peak (memray), and
they grow with the TM, while a batch does not.
"""

from __future__ import annotations

import hashlib
import heapq
import logging
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import overload

import numpy as np
import polars as pl

from housestyle.pipelines.conventions.code_spans import mask_code
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.mining.tokens import fold_count

log = logging.getLogger(__name__)
SKIP_FLAGS = ("fuzzy",)  # PO entries a translator marked as unreviewed are not approved translations
BATCH = 100_000  # texts per batch of a pass over all units: bounds the Python strings alive at once
# A column of at most this many texts is read into a Python list on its first ``gather`` (~2 MB per
# 10,000 texts): the term decision gathers a few texts per term tens of thousands of times, and a
# polars gather costs ~40 µs of overhead each (~2 s of the demo TM's run), as does every one-pattern
# pass over a column (``expression.measured``). A larger TM keeps reading the column itself.
LISTED_MAX = 20_000


def log_memory(phase: str) -> None:
    """Resident and peak memory at a phase boundary, at debug level: where the miner's peak is
    (issue 21) without a profiler."""
    if not log.isEnabledFor(logging.DEBUG):
        return
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return
    fields = dict(line.split(":", 1) for line in status.splitlines() if line.startswith(("VmRSS", "VmHWM")))
    log.debug("memory %s: rss %s, peak %s", phase, fields.get("VmRSS", "?").strip(), fields.get("VmHWM", "?").strip())


def primary(lang: str | None) -> str:
    return (lang or "").split("-")[0].lower()


class Texts(Sequence[str]):
    """A string column read as a sequence of str. Iterating walks it batch by batch (one batch of
    Python strings alive at a time); ``gather`` reads the units a step needs. A bounded sample read
    unit by unit carries its strings as a list (``Corpus.listed``), and so does a column of at most
    ``LISTED_MAX`` texts once gathered from."""

    __slots__ = ("series", "values")

    def __init__(self, series: pl.Series, values: list[str] | None = None) -> None:
        self.series = series
        self.values = values

    def __len__(self) -> int:
        return self.series.len()

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if self.values is not None:
            return self.values[index]
        if isinstance(index, slice):
            return list(self)[index]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        value: str = self.series[index]
        return value

    def __iter__(self) -> Iterator[str]:
        if self.values is not None:
            yield from self.values
            return
        for _, batch in self.batches():
            yield from batch

    def batches(self, size: int = BATCH) -> Iterator[tuple[int, list[str]]]:
        """(offset, texts) of consecutive batches."""
        for offset in range(0, len(self), size):
            batch = self.values[offset:offset + size] if self.values is not None else None
            yield offset, batch if batch is not None else self.series.slice(offset, size).to_list()

    def gather(self, indices: Sequence[int] | np.ndarray) -> list[str]:
        if self.values is None and len(self) <= LISTED_MAX:
            self.values = self.series.to_list()
        if self.values is not None:
            values = self.values
            return [values[i] for i in (indices.tolist() if isinstance(indices, np.ndarray) else indices)]
        # Indexing by a numpy array is Series.gather without its expression round trip (a third of
        # the time: the term decision reads a few texts per term, tens of thousands of times).
        texts: list[str] = self.series[np.asarray(indices, dtype=np.int64)].to_list()
        return texts


Positions = Sequence[int | None] | np.ndarray  # per unit: its file's number, or its position there


def _column(name: str, values: Sequence[str | None] | Texts) -> pl.Series:
    if isinstance(values, Texts):
        return values.series.alias(name)
    return pl.Series(name, list(values), dtype=pl.Utf8)


class Corpus:
    """One language pair's units as columns (``unit_id``, ``source``, ``target``, ``domain``; the TM
    order the sort by id loses: ``tm_file``, ``tm_ordinal``, from tm_units' ``source_file`` and
    ``unit_ordinal``) and their counting folds (``fold_count``), made once on first use, in batches."""

    __slots__ = ("frame", "src_lang", "tgt_lang", "_folded", "_lists", "_views")

    def __init__(self, unit_ids: Sequence[str] | Texts, sources: Sequence[str] | Texts,
                 targets: Sequence[str] | Texts, src_lang: str, tgt_lang: str,
                 domains: Sequence[str | None] | Texts | None = None,
                 tm_order: tuple[Positions, Positions] | None = None) -> None:
        columns = [_column("unit_id", unit_ids), _column("source", sources), _column("target", targets)]
        columns.append(_column("domain", domains) if domains is not None and len(domains)
                       else pl.Series("domain", [None] * len(columns[0]), dtype=pl.Utf8))
        files, ordinals = tm_order if tm_order is not None else ([None] * len(columns[0]),) * 2
        columns += [pl.Series("tm_file", list(files), dtype=pl.UInt32),
                    pl.Series("tm_ordinal", list(ordinals), dtype=pl.Int64)]
        self.frame = pl.DataFrame(columns)
        self.src_lang, self.tgt_lang = src_lang, tgt_lang
        self._folded: dict[str, pl.Series] = {}
        self._lists: dict[str, list[str]] = {}
        self._views: dict[str, Texts] = {}

    @classmethod
    def from_frame(cls, frame: pl.DataFrame, src_lang: str, tgt_lang: str,
                   folded: dict[str, pl.Series] | None = None) -> Corpus:
        corpus = cls.__new__(cls)
        corpus.frame, corpus.src_lang, corpus.tgt_lang = frame, src_lang, tgt_lang
        corpus._folded, corpus._lists, corpus._views = dict(folded or {}), {}, {}
        return corpus

    def __len__(self) -> int:
        return self.frame.height

    def __repr__(self) -> str:
        return f"Corpus({self.src_lang}→{self.tgt_lang}, {len(self)} units)"

    def _texts(self, column: str) -> Texts:
        view = self._views.get(column)  # made once: families read a sample's texts millions of times
        if view is None:
            view = self._views[column] = Texts(self.frame[column], self._lists.get(column))
        return view

    @property
    def unit_ids(self) -> Texts:
        return self._texts("unit_id")

    @property
    def sources(self) -> Texts:
        return self._texts("source")

    @property
    def targets(self) -> Texts:
        return self._texts("target")

    @property
    def tm_order(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(file number, position in the file) of every unit, or None when some unit lacks them."""
        files, ordinals = self.frame["tm_file"], self.frame["tm_ordinal"]
        if files.null_count() or ordinals.null_count():
            return None
        return files.to_numpy(), ordinals.to_numpy()

    @property
    def domains(self) -> list[str | None]:
        domains: list[str | None] = self.frame["domain"].to_list()
        return domains

    def subset(self, indices: Sequence[int] | np.ndarray) -> Corpus:
        """The units at ``indices`` (in that order), as a corpus of their own. Gathering string
        views shares the text buffers: the subset costs 16 bytes a unit and column, not its text."""
        rows = pl.Series(np.asarray(indices, dtype=np.int64))
        return Corpus.from_frame(self.frame[rows], self.src_lang, self.tgt_lang,
                                 {side: folded.gather(rows) for side, folded in self._folded.items()})

    def listed(self) -> Corpus:
        """This corpus with its unit ids and texts also held as Python lists, for a bounded sample
        that families read unit by unit (a list lookup, not a column lookup, per access)."""
        corpus = Corpus.from_frame(self.frame, self.src_lang, self.tgt_lang, self._folded)
        corpus._lists = {column: self.frame[column].to_list() for column in ("unit_id", "source", "target")}
        return corpus

    def _fold(self, side: str) -> Texts:
        name = f"folded {side}"
        if name not in self._views:
            if side not in self._folded:
                # folded with code spans blanked, as the checker's term triggers and entries read the
                # texts (``code_spans.trigger_text``, ``entry_text``): ``heading_group_members`` is no unit
                # of ``group`` (Plone keys many units by such a msgid; counted, they made consistent
                # rules look split), and a URL's path holds no rendering
                chunks = [pl.Series(side, [fold_count(mask_code(t)) for t in batch], dtype=pl.Utf8)
                          for _, batch in self._texts(side).batches()]
                self._folded[side] = pl.concat(chunks) if chunks else pl.Series(side, [], dtype=pl.Utf8)
                log_memory(f"folded {side}s")
            self._views[name] = Texts(self._folded[side])
        return self._views[name]

    @property
    def folded_sources(self) -> Texts:
        return self._fold("source")

    @property
    def folded_targets(self) -> Texts:
        return self._fold("target")

    def release_folds(self) -> None:
        """Drop the folded columns (only the term rules count on them)."""
        self._folded.clear()
        self._views = {k: v for k, v in self._views.items() if not k.startswith("folded ")}


def hashed_sample(corpus: Corpus, limit: int) -> list[int]:
    """All units, or a deterministic pseudo-random ``limit`` of them: the units whose id has the
    smallest sha1 (ties by position), in corpus order. A heap of ``limit`` keeps the pass over the
    ids bounded (``heapq.nsmallest`` equals the first ``limit`` of the stable sort)."""
    if len(corpus) <= limit:
        return list(range(len(corpus)))
    keyed = ((hashlib.sha1(unit_id.encode()).hexdigest(), i) for i, unit_id in enumerate(corpus.unit_ids))
    return sorted(i for _, i in heapq.nsmallest(limit, keyed))


# What mining reads of tm_units (split selectors included; source_file and unit_ordinal: the TM
# order, ``misaligned_runs``). The markup copies, props and hashes are about as large again (0.87 GiB
# for a 1M-unit TM against 0.36 GiB for these), and mining holds the frame until the set is written.
MINING_COLUMNS: tuple[str, ...] = ("unit_id", "source", "target", "src_lang_norm", "tgt_lang_norm", "domain", "flags",
                                   "source_file", "unit_ordinal")


def read_units_for_mining(path: Path) -> pl.DataFrame:
    """The tm_units columns mining uses (those the file has: a hand-made file may lack some)."""
    present = set(pl.read_parquet_schema(path))
    columns = [pl.col(c).cast(pl.Categorical) if c == "source_file" else pl.col(c)  # a name per file, not per unit
               for c in MINING_COLUMNS if c in present]
    return pl.scan_parquet(path).select(columns).collect()


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
    domains = frame["domain"].cast(pl.Utf8) if "domain" in frame.columns else pl.lit(None, dtype=pl.Utf8)
    # Duplicates are judged WITHIN the selected units (``duplicate_of`` may point into another split).
    ordered = "source_file" in frame.columns and "unit_ordinal" in frame.columns
    tm_file = pl.col("source_file").rank("dense").cast(pl.UInt32) if ordered else pl.lit(None, dtype=pl.UInt32)
    tm_ordinal = pl.col("unit_ordinal").cast(pl.Int64) if ordered else pl.lit(None, dtype=pl.Int64)
    frame = (frame.select(pl.col("unit_id").cast(pl.Utf8), pl.col("source").cast(pl.Utf8),
                          pl.col("target").cast(pl.Utf8), domains.alias("domain"), tm_file.alias("tm_file"),
                          tm_ordinal.alias("tm_ordinal"))
             .sort("unit_id", "source", "target")
             .unique(["source", "target"], keep="first", maintain_order=True))
    return Corpus.from_frame(frame, src_lang, tgt_lang)
