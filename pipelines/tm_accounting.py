"""Units in each file = units kept + units rejected, checked on the written tables.

The count per file comes from the independent scan (``FileSummary.units_in_file``); what is checked
against it is read back from tm_units and tm_rejects, not taken from the ingest's own tallies: every
ordinal 1..N of the file must appear in one table or the other (a unit kept for one target language
and rejected for another appears in both and counts once), and no other ordinal may. A file whose
count is unknown (its stream broke) is reported, not failed: its reject row already says so.
A unit whose only rows are PO / XLIFF entries not translated yet (reason ``untranslated``) is counted
apart from the rejects (``units_untranslated``): units in the file = kept + rejected + untranslated.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from housestyle.pipelines.tm_writer import UNTRANSLATED


@dataclass(frozen=True)
class FileAccount:
    source_file: str
    units_in_file: int | None  # independent count; None: could not be established
    units_kept: int  # units with at least one row in tm_units
    units_rejected: int  # units with rows only in tm_rejects, not all of them "untranslated"
    rows_kept: int
    rows_rejected: int  # including file-level rows
    stray: int  # ordinals in the tables that the count does not have (must be 0)
    units_untranslated: int = 0  # units whose only rows are untranslated catalogue entries

    @property
    def accounted(self) -> int:
        return self.units_kept + self.units_rejected + self.units_untranslated

    @property
    def ok(self) -> bool:
        return self.units_in_file is None or (self.accounted == self.units_in_file and not self.stray)


def _untranslated(path: Path) -> np.ndarray:
    """Per row of tm_rejects: whether its reason is ``untranslated`` (one column read)."""
    if not path.exists():
        return np.zeros(0, bool)
    if "reason" not in pq.read_schema(path).names:  # a table of ordinals only: nothing marked untranslated
        return np.zeros(pq.read_metadata(path).num_rows, bool)
    reasons = pq.read_table(path, columns=["reason"], read_dictionary=["reason"]).column("reason")
    marks = [pc.equal(chunk, UNTRANSLATED).fill_null(False).to_numpy(zero_copy_only=False) for chunk in
             (c.cast(pa.large_string()) if isinstance(c, pa.DictionaryArray) else c for c in reasons.chunks)]
    return np.concatenate(marks).astype(bool) if marks else np.zeros(0, bool)


def _codes(path: Path, index: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
    """(file index, ordinal or 0) per row of one table, from two columns only."""
    if not path.exists():
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    table = pq.read_table(path, columns=["source_file", "unit_ordinal"], read_dictionary=["source_file"])
    files, ordinals = [], []
    for chunk in table.column("source_file").chunks:
        if not isinstance(chunk, pa.DictionaryArray):
            chunk = chunk.dictionary_encode()
        lookup = np.array([index.get(v, -1) for v in chunk.dictionary.to_pylist()] or [-1], dtype=np.int64)
        files.append(lookup[chunk.indices.fill_null(0).to_numpy(zero_copy_only=False)])
    for chunk in table.column("unit_ordinal").chunks:
        ordinals.append(chunk.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64))
    return (np.concatenate(files) if files else np.zeros(0, np.int64),
            np.concatenate(ordinals) if ordinals else np.zeros(0, np.int64))


def accounting(counts: Sequence[tuple[str, int | None]], units_path: Path, rejects_path: Path) -> list[FileAccount]:
    """One account per (source_file, independent count), read back from the two tables."""
    index = {name: i for i, (name, _n) in enumerate(counts)}
    kept_files, kept_ordinals = _codes(units_path, index)
    rejected_files, rejected_ordinals = _codes(rejects_path, index)
    width = int(max([n or 0 for _f, n in counts] + [kept_ordinals.max(initial=0), rejected_ordinals.max(initial=0)])) + 1
    kept_keys = np.unique(kept_files[kept_ordinals > 0] * width + kept_ordinals[kept_ordinals > 0])
    rejected_keys = np.unique(rejected_files[rejected_ordinals > 0] * width + rejected_ordinals[rejected_ordinals > 0])
    only_rejected = np.setdiff1d(rejected_keys, kept_keys, assume_unique=True)
    untranslated_rows = _untranslated(rejects_path)
    real = (rejected_ordinals > 0) & ~untranslated_rows
    really_rejected = np.unique(rejected_files[real] * width + rejected_ordinals[real])
    only_untranslated = np.setdiff1d(only_rejected, really_rejected, assume_unique=True)
    only_rejected = np.setdiff1d(only_rejected, only_untranslated, assume_unique=True)
    out = []
    for i, (name, n) in enumerate(counts):
        low, high = i * width, (i + 1) * width
        kept = kept_keys[(kept_keys >= low) & (kept_keys < high)] - low
        rejected = only_rejected[(only_rejected >= low) & (only_rejected < high)] - low
        untranslated = only_untranslated[(only_untranslated >= low) & (only_untranslated < high)] - low
        stray = 0 if n is None else int((kept > n).sum() + (rejected > n).sum() + (untranslated > n).sum())
        out.append(FileAccount(name, n, len(kept), len(rejected), int((kept_files == i).sum()),
                               int((rejected_files == i).sum()), stray, len(untranslated)))
    return out
