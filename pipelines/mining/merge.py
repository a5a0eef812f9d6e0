"""Merge the families' conventions into one deterministic candidate list with evidence rows.

Sorted by (rule, dimension, convention_id); duplicates (same id) keep the first; evidence and
counter-example unit ids are sorted, capped in the convention record (``EVIDENCE_IDS_IN_RECORD``)
and complete in the evidence table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pipelines.conventions.model import Convention

EVIDENCE_IDS_IN_RECORD = 20


@dataclass(slots=True)
class Mined:
    """One mined convention with its full evidence as unit indices into the corpus."""

    conv: Convention
    evidence: list[int]
    counter: list[int]


@dataclass(slots=True)
class MiningResult:
    conventions: list[Convention]
    evidence: list[dict[str, str]]  # rows: convention_id, unit_id, role (evidence | counter)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    suspects: list[dict[str, Any]] = field(default_factory=list)  # suspect_units.Suspect rows


def from_rows(conventions: Sequence[Convention], rows: Sequence[dict[str, str]], unit_ids: Sequence[str]) -> list[Mined]:
    """Rebuild Mined items from stored evidence rows (unit ids back to corpus indices)."""
    index = {u: i for i, u in enumerate(unit_ids)}
    evidence: dict[str, tuple[list[int], list[int]]] = {c.convention_id: ([], []) for c in conventions}
    for row in rows:
        pair = evidence.get(row["convention_id"])
        if pair is not None and row["unit_id"] in index:
            pair[0 if row["role"] == "evidence" else 1].append(index[row["unit_id"]])
    return [Mined(c, *evidence[c.convention_id]) for c in conventions]


def merge(mined: Sequence[Mined], unit_ids: Sequence[str]) -> tuple[list[Convention], list[dict[str, str]]]:
    seen: set[str] = set()
    out: list[Convention] = []
    rows: list[dict[str, str]] = []
    for item in sorted(mined, key=lambda m: (m.conv.rule, m.conv.dimension, m.conv.convention_id)):
        conv = item.conv
        if conv.convention_id in seen:
            continue
        seen.add(conv.convention_id)
        evidence = sorted(unit_ids[i] for i in item.evidence)
        counter = sorted(unit_ids[i] for i in item.counter)
        conv.evidence_unit_ids = evidence[:EVIDENCE_IDS_IN_RECORD]
        conv.counter_unit_ids = counter[:EVIDENCE_IDS_IN_RECORD]
        out.append(conv)
        rows.extend({"convention_id": conv.convention_id, "unit_id": u, "role": "evidence"} for u in evidence)
        rows.extend({"convention_id": conv.convention_id, "unit_id": u, "role": "counter"} for u in counter)
    return out, rows
