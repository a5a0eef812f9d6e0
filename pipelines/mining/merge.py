"""Merge the families' conventions into one deterministic candidate list with its evidence table.

Sorted by (rule, dimension, convention_id); duplicates (same id) keep the first; evidence and
counter-example unit ids are sorted, capped in the convention record (``EVIDENCE_IDS_IN_RECORD``)
and complete in the evidence table.

The evidence table is built as integer columns and turned into strings once: a 1,000,000-unit TM
has ~12M evidence rows, which as one Python dict each (and their conversion when the set was
written) were ~2 GiB of the miner's peak (memray).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from housestyle.pipelines.conventions.model import Convention

EVIDENCE_IDS_IN_RECORD = 20
# role: evidence | counter | contrast (a generic system's divergence, housestyle.pipelines.contrast)
# Unit indices of a convention's evidence: a list, or an integer array (the miners' own, which cost
# 4-8 bytes a unit instead of a Python int's 36).
UnitIndices = Sequence[int] | np.ndarray
EVIDENCE_SCHEMA = pl.Schema({"convention_id": pl.Utf8, "unit_id": pl.Utf8, "role": pl.Utf8})


@dataclass(slots=True)
class Mined:
    """One mined convention with its full evidence as unit indices into the corpus."""

    conv: Convention
    evidence: UnitIndices
    counter: UnitIndices


@dataclass(slots=True)
class MiningResult:
    conventions: list[Convention]
    evidence: pl.DataFrame  # EVIDENCE_SCHEMA, one row per (convention, unit, role)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    suspects: list[dict[str, Any]] = field(default_factory=list)  # suspect_units.Suspect rows
    term_trace: pl.DataFrame | None = None  # term_trace.TRACE_SCHEMA rows: what was decided per source term


def empty_evidence() -> pl.DataFrame:
    return pl.DataFrame(schema=EVIDENCE_SCHEMA)


def evidence_frame(items: Sequence[Mined], unit_ids: Sequence[str], unit_ranks: np.ndarray | None = None) -> pl.DataFrame:
    """The items' evidence and counter-example units as EVIDENCE_SCHEMA rows, sorted by
    (convention_id, role, unit_id). Each row is one int64 key (convention rank, role, unit rank)
    sorted in place, then gathered into strings: a 5M-unit TM has ~60M rows, and a frame of
    integer columns sorted on three keys was ~4 times the key's memory."""
    if not items:
        return empty_evidence()
    ids = pl.Series("convention_id", [i.conv.convention_id for i in items], dtype=pl.Utf8)
    units = _id_series(unit_ids)
    ranks = (unit_ranks if unit_ranks is not None else _ranks(units)).astype(np.int64)
    span = int(ranks.max()) + 1 if ranks.size else 1
    conv_ranks = ids.rank("dense").to_numpy().astype(np.int64)
    key = np.concatenate([(conv_ranks[k] * 2 + role) * span + ranks[_indices(part)]  # counter (0) before evidence
                          for k, item in enumerate(items) for role, part in enumerate((item.counter, item.evidence))])
    key.sort()
    unit_rank = key % span
    key //= span
    role = (key & 1).astype(np.int8)
    key >>= 1
    conv_of_rank = np.zeros(int(conv_ranks.max()) + 1, dtype=np.int32)
    conv_of_rank[conv_ranks] = np.arange(len(items), dtype=np.int32)
    convention_id = ids.gather(conv_of_rank[key])
    del key
    unit_of_rank = np.zeros(span, dtype=np.int64)  # any unit of that rank: their ids are equal
    unit_of_rank[ranks] = np.arange(ranks.size, dtype=np.int64)
    unit_id = units.gather(unit_of_rank[unit_rank])
    del unit_rank
    return pl.DataFrame({
        "convention_id": convention_id,
        "unit_id": unit_id,
        "role": pl.Series(["counter", "evidence"], dtype=pl.Utf8).gather(role),
    }, schema=EVIDENCE_SCHEMA)


def _indices(units: UnitIndices) -> np.ndarray:
    return np.asarray(units, dtype=np.int64)


def _id_series(unit_ids: Sequence[str]) -> pl.Series:
    """The unit ids as a column (the corpus's own column when it has one: no copy)."""
    series = getattr(unit_ids, "series", None)
    return series.alias("unit_id") if isinstance(series, pl.Series) else pl.Series("unit_id", list(unit_ids), dtype=pl.Utf8)


def _ranks(units: pl.Series) -> np.ndarray:
    """Each unit id's dense rank in string order: comparing ranks compares the ids."""
    ranks: np.ndarray = units.rank("dense").to_numpy()
    return ranks


EVIDENCE_ORDER = ("convention_id", "role", "unit_id")  # the stored table's row order


def in_evidence_order(frame: pl.DataFrame, rows: int = 1 << 20) -> bool:
    """Whether the rows are already sorted by ``EVIDENCE_ORDER`` (``evidence_frame``'s are), checked
    a slice at a time: sorting a table that is in order costs a copy of it and its sort keys
    (~3 GiB for the ~60M rows of a 5M-unit TM)."""
    keys = [pl.col(k) for k in EVIDENCE_ORDER]
    before = [k.shift(1) for k in keys]
    (c, r, u), (pc, pr, pu) = keys, before
    ordered = ((c > pc) | ((c == pc) & ((r > pr) | ((r == pr) & (u >= pu))))).fill_null(True).all()
    for offset in range(0, frame.height, rows):
        start = max(0, offset - 1)  # one row of overlap: each slice's first row is compared too
        if not frame.slice(start, offset + rows - start).select(ordered).item():
            return False
    return True


def from_rows(conventions: Sequence[Convention], evidence: pl.DataFrame, unit_ids: Sequence[str]) -> list[Mined]:
    """Rebuild Mined items from a stored evidence table (unit ids back to corpus indices, in table
    order; any role but ``evidence`` is a counter-example)."""
    index = pl.DataFrame({"unit_id": list(unit_ids), "index": np.arange(len(unit_ids), dtype=np.int64)},
                         schema={"unit_id": pl.Utf8, "index": pl.Int64}).unique("unit_id", keep="last", maintain_order=True)
    grouped = (evidence.join(index, on="unit_id", how="inner", maintain_order="left")
               .group_by("convention_id", pl.col("role") == "evidence", maintain_order=True).agg("index"))
    found: dict[tuple[str, bool], list[int]] = {(c, r): list(ix) for c, r, ix in grouped.iter_rows()}
    return [Mined(c, found.get((c.convention_id, True), []), found.get((c.convention_id, False), []))
            for c in conventions]


def _first_ids(indices: UnitIndices, unit_ids: Sequence[str], ranks: np.ndarray) -> list[str]:
    """The ``EVIDENCE_IDS_IN_RECORD`` smallest unit ids of ``indices``, in order."""
    index = _indices(indices)
    if index.size > EVIDENCE_IDS_IN_RECORD:
        index = index[np.argpartition(ranks[index], EVIDENCE_IDS_IN_RECORD - 1)[:EVIDENCE_IDS_IN_RECORD]]
    return sorted(unit_ids[int(i)] for i in index)


def merge(mined: Sequence[Mined], unit_ids: Sequence[str]) -> tuple[list[Convention], pl.DataFrame]:
    seen: set[str] = set()
    out: list[Convention] = []
    kept: list[Mined] = []
    ranks = _ranks(_id_series(unit_ids))
    for item in sorted(mined, key=lambda m: (m.conv.rule, m.conv.dimension, m.conv.convention_id)):
        conv = item.conv
        if conv.convention_id in seen:
            continue
        seen.add(conv.convention_id)
        conv.evidence_unit_ids = _first_ids(item.evidence, unit_ids, ranks)
        conv.counter_unit_ids = _first_ids(item.counter, unit_ids, ranks)
        out.append(conv)
        kept.append(item)
    return out, evidence_frame(kept, unit_ids, ranks)
