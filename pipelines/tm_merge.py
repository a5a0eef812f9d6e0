"""The ingest's last step: Arrow parts -> one tm_units.parquet, with ``duplicate_of`` and ``id_conflict``.

Both columns need every unit at once, so they are computed on compact keys, not on rows: the first
128 bits of each ``unit_hash`` (hex, decoded with NumPy: 16 bytes a unit) and, per file, the
``unit_id`` and language pair as dictionary codes. A NumPy sort then finds each unit's first
occurrence (in ingest order, across files) and the ids whose units disagree. Memory: ~50 bytes a
unit at the peak of this pass (a Python dict of hash -> id would cost ~150). The parts are then
read in order (memory-mapped, zero-copy), the two columns set, and written once with zstd.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

from housestyle.pipelines.tm_writer import UNITS_ARROW

ROW_GROUP_ROWS = 50_000
LOW_CARDINALITY = ["client", "source_file", "src_lang", "tgt_lang", "src_lang_norm", "tgt_lang_norm", "domain",
                   "creator", "format", "context"]  # dictionary-encoded; the text columns are not (measured: faster)
STATISTICS = ["client", "source_file", "unit_id", "src_lang", "tgt_lang", "src_lang_norm", "tgt_lang_norm", "domain",
              "created_at", "changed_at", "creator", "format", "line", "unit_ordinal", "duplicate_of", "id_conflict"]
# min/max statistics only where a reader can filter on them: on the text columns they cost 14% of the
# write (measured on 200k units: 0.64 -> 0.55 s CPU, same file size) and serve no query
_HEX = np.full(256, 255, dtype=np.uint8)
_HEX[np.frombuffer(b"0123456789abcdef", np.uint8)] = np.arange(16, dtype=np.uint8)
_HEX[np.frombuffer(b"ABCDEF", np.uint8)] = np.arange(10, 16, dtype=np.uint8)


@dataclass(frozen=True)
class Part:
    """One job's kept rows on disk, and which input file they belong to (ingest order)."""

    path: Path
    rows: int
    file: int


def _read(path: Path, columns: list[str] | None = None) -> pa.Table:
    with pa.memory_map(str(path)) as source:
        table = ipc.open_file(source).read_all()
    return table if columns is None else table.select(columns)


def hash_keys(hashes: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """(n, 2) uint64: the first 128 bits of hex sha256 strings (vectorised, no Python per row)."""
    array = pa.concat_arrays(hashes.chunks) if isinstance(hashes, pa.ChunkedArray) else hashes
    n = len(array)
    if n == 0:
        return np.zeros((0, 2), dtype=np.uint64)
    offsets = np.frombuffer(array.buffers()[1], dtype=np.int64, count=n + 1, offset=array.offset * 8)
    data = np.frombuffer(array.buffers()[2], dtype=np.uint8)
    if array.null_count or not np.all(np.diff(offsets) == 64):
        raise ValueError("unit_hash is not 64 hex characters on every row")
    hexes = data[offsets[0]:offsets[-1]].reshape(n, 64)[:, :32]
    nibbles = _HEX[hexes]
    if (nibbles == 255).any():
        raise ValueError("unit_hash is not hexadecimal on every row")
    packed = (nibbles[:, 0::2] << 4) | nibbles[:, 1::2]  # (n, 16) bytes, big-endian order
    return np.ascontiguousarray(packed).view(">u8").astype(np.uint64)


def first_occurrence(keys: np.ndarray) -> np.ndarray:
    """first[i] = index of the first row with row i's key (== i for first occurrences)."""
    n = len(keys)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    rows = np.arange(n, dtype=np.int64)
    order = np.lexsort((rows, keys[:, 1], keys[:, 0]))
    a, b = keys[order, 0], keys[order, 1]
    starts = np.ones(n, dtype=bool)
    starts[1:] = (a[1:] != a[:-1]) | (b[1:] != b[:-1])
    group_first = order[np.maximum.accumulate(np.where(starts, rows, 0))]
    first = np.empty(n, dtype=np.int64)
    first[order] = group_first
    return first


def conflicting(groups: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Rows whose group (same unit_id and pair) holds more than one distinct content key."""
    n = len(groups)
    if n == 0:
        return np.zeros(0, dtype=bool)
    order = np.lexsort((keys[:, 1], keys[:, 0], groups))
    g, a, b = groups[order], keys[order, 0], keys[order, 1]
    new_group = np.ones(n, dtype=bool)
    new_group[1:] = g[1:] != g[:-1]
    differs = np.zeros(n, dtype=bool)
    differs[1:] = ((a[1:] != a[:-1]) | (b[1:] != b[:-1])) & ~new_group[1:]
    group_index = np.cumsum(new_group) - 1
    bad = np.zeros(int(group_index[-1]) + 1, dtype=bool)
    bad[group_index[differs]] = True
    flags = np.empty(n, dtype=bool)
    flags[order] = bad[group_index]
    return flags


def _id_groups(parts: list[Part]) -> np.ndarray:
    """A code per row, equal for rows of the same file, unit_id and normalised language pair."""
    if not parts:
        return np.zeros(0, dtype=np.int64)
    tables = [_read(p.path, ["unit_id", "src_lang_norm", "tgt_lang_norm"]) for p in parts]
    table = pa.concat_tables(tables)
    ids = pc.dictionary_encode(table.column("unit_id").combine_chunks())
    pairs = pc.dictionary_encode(pc.binary_join_element_wise(table.column("src_lang_norm").combine_chunks(),
                                                             table.column("tgt_lang_norm").combine_chunks(),
                                                             pa.scalar("\x1f", pa.large_string())))
    files = np.repeat(np.array([p.file for p in parts], dtype=np.int64), [p.rows for p in parts])
    width = max(len(pairs.dictionary), 1)
    code = ids.indices.to_numpy(zero_copy_only=False).astype(np.int64) * width
    code += pairs.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    return code * (int(files.max()) + 1) + files


def write_units(parts: list[Part], final: Path) -> tuple[int, int]:
    """Write every part, in order, to ``final`` with duplicate_of and id_conflict; returns the number
    of duplicates and of rows flagged id_conflict."""
    keys = (np.concatenate([hash_keys(_read(p.path, ["unit_hash"]).column(0)) for p in parts])
            if parts else np.zeros((0, 2), dtype=np.uint64))
    first = first_occurrence(keys)
    conflict = conflicting(_id_groups(parts), keys)
    del keys
    n = len(first)
    is_dup = first != np.arange(n, dtype=np.int64)
    ids_of_firsts = _unit_ids_at(parts, np.unique(first[is_dup]))
    writer = pq.ParquetWriter(final, UNITS_ARROW, compression="zstd", compression_level=1,
                              use_dictionary=LOW_CARDINALITY, write_statistics=STATISTICS)
    try:
        buffered: list[pa.Table] = []
        buffered_rows = offset = 0
        for part in parts:
            table = _read(part.path)
            window = slice(offset, offset + part.rows)
            dup_rows = np.nonzero(is_dup[window])[0]
            if len(dup_rows):
                values: list[str | None] = [None] * part.rows
                for i in dup_rows:
                    values[int(i)] = ids_of_firsts[int(first[offset + int(i)])]
                table = table.set_column(table.schema.get_field_index("duplicate_of"), "duplicate_of",
                                         pa.array(values, pa.large_string()))
            table = table.set_column(table.schema.get_field_index("id_conflict"), "id_conflict",
                                     pa.array(conflict[window], pa.bool_()))
            buffered.append(table)
            buffered_rows += part.rows
            offset += part.rows
            if buffered_rows >= ROW_GROUP_ROWS:
                writer.write_table(pa.concat_tables(buffered), row_group_size=buffered_rows)
                buffered, buffered_rows = [], 0
        if buffered:
            writer.write_table(pa.concat_tables(buffered), row_group_size=buffered_rows)
    finally:
        writer.close()
    return int(is_dup.sum()), int(conflict.sum())


def _unit_ids_at(parts: list[Part], rows: np.ndarray) -> dict[int, str]:
    """unit_id of the given global row numbers (the first occurrences that later rows duplicate)."""
    out: dict[int, str] = {}
    offset = 0
    for part in parts:
        local = rows[(rows >= offset) & (rows < offset + part.rows)] - offset
        if len(local):
            ids = _read(part.path, ["unit_id"]).column(0).take(pa.array(local)).to_pylist()
            out.update(zip((local + offset).tolist(), ids))
        offset += part.rows
    return out
