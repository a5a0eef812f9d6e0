"""Merge the families' conventions into one deterministic candidate list with its evidence table.

Sorted by (rule, dimension, convention_id); duplicates (same id) keep the first; evidence and
counter-example unit ids are sorted, capped in the convention record (``EVIDENCE_IDS_IN_RECORD``)
and complete in the evidence table.

The evidence table is built as integer columns and turned into strings once: a 1,000,000-unit TM
has ~12M evidence rows, which as one Python dict each (and their conversion when the set was
written) were ~2 GiB of the miner's peak (memray).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from pipelines.conventions.model import Convention

EVIDENCE_IDS_IN_RECORD = 20
# role: evidence | counter | contrast (a generic system's divergence, pipelines.contrast)
EVIDENCE_SCHEMA = pl.Schema({"convention_id": pl.Utf8, "unit_id": pl.Utf8, "role": pl.Utf8})


@dataclass(slots=True)
class Mined:
    """One mined convention with its full evidence as unit indices into the corpus."""

    conv: Convention
    evidence: list[int]
    counter: list[int]


@dataclass(slots=True)
class MiningResult:
    conventions: list[Convention]
    evidence: pl.DataFrame  # EVIDENCE_SCHEMA, one row per (convention, unit, role)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    suspects: list[dict[str, Any]] = field(default_factory=list)  # suspect_units.Suspect rows


def empty_evidence() -> pl.DataFrame:
    return pl.DataFrame(schema=EVIDENCE_SCHEMA)


def evidence_frame(items: Sequence[Mined], unit_ids: Sequence[str]) -> pl.DataFrame:
    """The items' evidence and counter-example units as EVIDENCE_SCHEMA rows, sorted by
    (convention_id, role, unit_id). Sorted on integer ranks, then gathered into strings."""
    if not items:
        return empty_evidence()
    sizes = [(len(i.counter), len(i.evidence)) for i in items]
    conv = np.repeat(np.arange(len(items), dtype=np.int64), [c + e for c, e in sizes])
    unit = np.concatenate([np.asarray([*i.counter, *i.evidence], dtype=np.int64) for i in items])
    role = np.concatenate([np.repeat(np.array([0, 1], dtype=np.int8), size) for size in sizes])  # counter < evidence
    ids = pl.Series("convention_id", [i.conv.convention_id for i in items], dtype=pl.Utf8)
    units = pl.Series("unit_id", list(unit_ids), dtype=pl.Utf8)
    c_rank = ids.rank("dense").to_numpy()[conv]
    u_rank = units.rank("dense").to_numpy()[unit]
    order = pl.DataFrame({"c": conv, "u": unit, "r": role, "cr": c_rank, "ur": u_rank}).sort("cr", "r", "ur")
    return pl.DataFrame({
        "convention_id": ids.gather(order["c"]),
        "unit_id": units.gather(order["u"]),
        "role": pl.Series(["counter", "evidence"], dtype=pl.Utf8).gather(order["r"]),
    }, schema=EVIDENCE_SCHEMA)


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


def _first_ids(indices: Sequence[int], unit_ids: Sequence[str]) -> list[str]:
    return heapq.nsmallest(EVIDENCE_IDS_IN_RECORD, (unit_ids[i] for i in indices))


def merge(mined: Sequence[Mined], unit_ids: Sequence[str]) -> tuple[list[Convention], pl.DataFrame]:
    seen: set[str] = set()
    out: list[Convention] = []
    kept: list[Mined] = []
    for item in sorted(mined, key=lambda m: (m.conv.rule, m.conv.dimension, m.conv.convention_id)):
        conv = item.conv
        if conv.convention_id in seen:
            continue
        seen.add(conv.convention_id)
        conv.evidence_unit_ids = _first_ids(item.evidence, unit_ids)
        conv.counter_unit_ids = _first_ids(item.counter, unit_ids)
        out.append(conv)
        kept.append(item)
    return out, evidence_frame(kept, unit_ids)
