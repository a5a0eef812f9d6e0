"""Rows -> Arrow, where they are parsed: the ingest's column sink, the worker job, the rejects writer.

Why here and not in the ingest's main process: building Python rows for a million units and
pickling them to one process that also writes Parquet made that process the bottleneck. A worker
parses its chunk, applies the ingest's rules (``unusable_reason``), builds the Arrow columns and
writes them as one Arrow IPC part (uncompressed: the main process memory-maps it for free); only
counts and rejects travel back. The main process then only merges parts (``tm_merge``).
This module is imported by worker processes: it must not import polars or translate-toolkit.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator

import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

from housestyle.pipelines.langtags import try_normalise
from housestyle.pipelines.readers.base import Row, TranslationUnit, parse_tmx_date
from housestyle.pipelines.readers.scan import Chunk
from housestyle.pipelines.readers.xmlformats import XML_FORMATS
from housestyle.pipelines.readers.xmlunits import Tally, parse_chunk, refuse_chunk
from housestyle.pipelines.unit_hash import unit_hash

REJECT_RAW_MAX_CHARS = 500
_STR = pa.large_string()
_PROP = pa.struct([pa.field("key", _STR), pa.field("value", _STR)])
UNITS_ARROW = pa.schema([
    *(pa.field(n, _STR) for n in ("client", "source_file", "unit_id", "src_lang", "tgt_lang", "src_lang_norm",
                                   "tgt_lang_norm", "source", "target", "source_markup", "target_markup", "domain")),
    pa.field("created_at", pa.timestamp("us", "UTC")), pa.field("changed_at", pa.timestamp("us", "UTC")),
    pa.field("creator", _STR), pa.field("note", _STR), pa.field("props", pa.large_list(pa.field("element", _PROP))),
    pa.field("unit_hash", _STR), pa.field("format", _STR), pa.field("line", pa.int64()), pa.field("context", _STR),
    pa.field("flags", pa.large_list(pa.field("element", _STR))), pa.field("duplicate_of", _STR),
    pa.field("unit_ordinal", pa.int64()), pa.field("id_conflict", pa.bool_()),
])  # == tm_writer's polars contract (tm_schema.TM_UNITS_SCHEMA) as polars writes it; a test holds them equal
REJECTS_ARROW = pa.schema([*(pa.field(n, _STR) for n in ("client", "source_file", "location", "reason", "raw")),
                           pa.field("unit_ordinal", pa.int64())])
RejectRow = tuple[str, str, str, int | None]  # location, reason, raw, unit_ordinal
# A PO / XLIFF entry nobody translated yet (empty msgstr, no or empty <target>) is not a bad unit: a
# catalogue in progress has many. Its row still goes to tm_rejects (units in the file = kept + rows
# there) under this reason, and the summary counts it apart from the rejects (``--strict`` ignores it).
UNTRANSLATED = "untranslated"
CATALOGUE_FORMATS = frozenset({"po", "xliff12", "xliff2"})


def unusable_reason(target: str | None, source: str, src_lang: str | None, tgt_lang: str | None,
                    src_norm: str | None, tgt_norm: str | None) -> str | None:
    """Why a unit cannot go to tm_units (None when it can)."""
    if target is None:
        return "missing target"
    if not target.strip():
        return "empty target"
    if not source.strip():
        return "empty source"
    if not src_lang or not src_lang.strip():
        return "missing source language"
    if not tgt_lang or not tgt_lang.strip():
        return "missing target language"
    if src_norm is None:
        return "invalid source language tag"
    if tgt_norm is None:
        return "invalid target language tag"
    return None


@dataclass
class SinkResult:
    """What a job sends back: counts and rejects, never the kept rows (those are in ``part``)."""

    part: str | None
    kept: int
    rejects: list[RejectRow]
    pairs: dict[tuple[str, str], int]
    reasons: Counter[str] = field(default_factory=Counter)
    alt_trans: int = 0
    foreign: int = 0


class ColumnSink:
    """Rows of one job -> Arrow columns, under the ingest's rules (a unit without a usable target
    or language becomes a reject); ``finish`` writes the part."""

    def __init__(self, client: str, source_file: str, fmt: str, domain: str | None) -> None:
        self.tally = Tally()
        self.client, self.source_file, self.fmt, self.path_domain = client, source_file, fmt, domain
        self.count_alt_trans = fmt == "xliff12"
        self.catalogue = fmt in CATALOGUE_FORMATS
        self.alt_trans = 0
        names = ("unit_id", "src_lang", "tgt_lang", "src_norm", "tgt_norm", "source", "target", "source_markup",
                 "target_markup", "domain", "created", "changed", "creator", "note", "unit_hash", "line",
                 "context", "ordinal")
        self.columns: dict[str, list[Any]] = {n: [] for n in names}
        self.prop_pairs: list[tuple[str, str]] = []
        self.prop_ends: list[int] = [0]
        self.flag_items: list[str] = []
        self.flag_ends: list[int] = [0]
        self.rejects: list[RejectRow] = []
        self.pairs: dict[tuple[str, str], int] = {}

    def problem(self, line: int, reason: str, raw: str) -> None:
        self.rejects.append((str(line), reason, raw[:REJECT_RAW_MAX_CHARS], None))

    def rows(self, ordinal: int, rows: list[Row]) -> None:
        c = self.columns
        for row in rows:
            if len(row) == 3:
                self.rejects.append((str(row[0]), row[1], row[2][:REJECT_RAW_MAX_CHARS], ordinal))
                continue
            (unit_id, src_lang, tgt_lang, source, target, source_markup, target_markup, line, created, changed,
             creator, note, context, props, flags, domain, digest) = row
            src_norm, tgt_norm = try_normalise(src_lang), try_normalise(tgt_lang)
            if (target is None or src_norm is None or tgt_norm is None or not target.strip()
                    or not source.strip()):
                reason = unusable_reason(target, source, src_lang, tgt_lang, src_norm, tgt_norm) or "unusable unit"
                if self.catalogue and reason in ("missing target", "empty target") and source.strip():
                    reason = UNTRANSLATED
                raw = f"[{unit_id}] {src_lang}->{tgt_lang}: {source_markup} ||| {target_markup}"
                where = str(line) if line is not None else unit_id
                self.rejects.append((where, reason, raw[:REJECT_RAW_MAX_CHARS], ordinal))
                continue
            c["unit_id"].append(unit_id)
            c["src_lang"].append(src_lang)
            c["tgt_lang"].append(tgt_lang)
            c["src_norm"].append(src_norm)
            c["tgt_norm"].append(tgt_norm)
            c["source"].append(source)
            c["target"].append(target)
            c["source_markup"].append(source_markup)
            c["target_markup"].append(target_markup)
            c["domain"].append(domain or self.path_domain)
            c["created"].append(created)
            c["changed"].append(changed)
            c["creator"].append(creator)
            c["note"].append(note)
            c["unit_hash"].append(digest or unit_hash(src_norm, tgt_norm, source, target))
            c["line"].append(line)
            c["context"].append(context)
            c["ordinal"].append(ordinal)
            self.prop_pairs.extend(props)
            self.prop_ends.append(len(self.prop_pairs))
            self.flag_items.extend(flags)
            self.flag_ends.append(len(self.flag_items))
            pair = (src_norm, tgt_norm)
            self.pairs[pair] = self.pairs.get(pair, 0) + 1
            if self.count_alt_trans:
                self.alt_trans += sum(int(v) for k, v in props if k == "alt-trans")

    def add_unit(self, ordinal: int, unit: TranslationUnit) -> None:
        """A reader's record (PO) through the same rules."""
        self.rows(ordinal, [(unit.unit_id, unit.src_lang, unit.tgt_lang, unit.source, unit.target, unit.source_markup,
                             unit.target_markup, unit.line, None, None, unit.creator, unit.note, unit.context,
                             unit.props, unit.flags, unit.domain, unit.unit_hash)])

    def batch(self) -> pa.RecordBatch:
        c = self.columns
        n = len(c["unit_id"])
        keys, values = zip(*self.prop_pairs) if self.prop_pairs else ((), ())
        props = pa.LargeListArray.from_arrays(
            pa.array(self.prop_ends, pa.int64()),
            pa.StructArray.from_arrays([pa.array(keys, _STR), pa.array(values, _STR)], fields=list(_PROP)),
            type=UNITS_ARROW.field("props").type)
        flags = pa.LargeListArray.from_arrays(pa.array(self.flag_ends, pa.int64()), pa.array(self.flag_items, _STR),
                                              type=UNITS_ARROW.field("flags").type)
        constant = {name: pa.array([value] * n, _STR) for name, value in
                    (("client", self.client), ("source_file", self.source_file), ("format", self.fmt))}
        arrays = [
            constant["client"], constant["source_file"], *(pa.array(c[k], _STR) for k in (
                "unit_id", "src_lang", "tgt_lang", "src_norm", "tgt_norm", "source", "target", "source_markup",
                "target_markup", "domain")),
            tmx_dates(c["created"]), tmx_dates(c["changed"]), pa.array(c["creator"], _STR), pa.array(c["note"], _STR),
            props, pa.array(c["unit_hash"], _STR), constant["format"], pa.array(c["line"], pa.int64()),
            pa.array(c["context"], _STR), flags, pa.nulls(n, _STR), pa.array(c["ordinal"], pa.int64()),
            pa.nulls(n, pa.bool_()),
        ]
        return pa.RecordBatch.from_arrays(arrays, schema=UNITS_ARROW)

    def finish(self, part: Path | None) -> SinkResult:
        """Write the kept rows to ``part`` (an Arrow IPC file; none when nothing was kept)."""
        kept = len(self.columns["unit_id"])
        written = None
        if kept and part is not None:
            with pa.OSFile(str(part), "wb") as out, ipc.new_file(out, UNITS_ARROW) as writer:
                writer.write_batch(self.batch())
            written = str(part)
        reasons = Counter(reason for _loc, reason, _raw, _ord in self.rejects)
        return SinkResult(written, kept, self.rejects, self.pairs, reasons, self.alt_trans, self.tally.foreign)


_MICROS: dict[str | None, int | None] = {None: None}
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def tmx_dates(values: list[str | None]) -> pa.Array:
    """TMX date strings -> UTC timestamps (null when not a TMX date); each distinct value parsed once
    (``parse_tmx_date``: the one definition), as microseconds, so Arrow never sees a datetime object."""
    micros = _MICROS
    out = []
    for value in values:
        found = micros.get(value, -1)
        if found == -1:
            parsed = parse_tmx_date(value)
            found = micros[value] = None if parsed is None else (parsed - _EPOCH) // timedelta(microseconds=1)
        out.append(found)
    return pa.array(out, pa.timestamp("us", "UTC"))


@dataclass
class Job:
    """One chunk of one file for a worker: where its rows go and what they are labelled with."""

    fmt: str
    chunk: Chunk
    client: str
    source_file: str
    domain: str | None
    part: str
    refused: str | None = None  # the context cannot be read (unsafe, broken header): reject every unit with this
    path: str | None = None  # set when chunk.data is to be read from this file instead (offset, size)
    offset: int = 0
    size: int = 0


def init_worker() -> None:
    """Worker processes build millions of acyclic tuples and lists: the cyclic GC would only re-scan
    them (measured ~20% of a reader's CPU before), so it is off in them."""
    gc.disable()


def run_job(job: Job) -> SinkResult:
    """Worker entry (also run in the main process for small files). A job of a file on disk carries
    no bytes: the worker reads its chunk itself (``path``, ``offset``), nothing is pickled twice."""
    sink = ColumnSink(job.client, job.source_file, job.fmt, job.domain)
    chunk = job.chunk
    if job.path is not None:
        with open(job.path, "rb") as handle:
            handle.seek(job.offset)
            chunk = dataclasses.replace(chunk, data=handle.read(job.size))
    if job.refused is None:
        parse_chunk(XML_FORMATS[job.fmt], chunk, sink)
    else:
        refuse_chunk(chunk, job.refused, sink)
    return sink.finish(Path(job.part))


class RejectWriter:
    """tm_rejects rows -> Parquet, in batches (a hostile file may have millions)."""

    def __init__(self, path: Path, client: str, batch_rows: int = 5_000) -> None:
        self.path, self.client, self.batch_rows = path, client, batch_rows
        self.rows: list[tuple[str, RejectRow]] = []
        self.count = 0
        self._writer = pq.ParquetWriter(path, REJECTS_ARROW, compression="zstd", compression_level=1)

    def add(self, source_file: str, rows: list[RejectRow]) -> None:
        self.rows.extend((source_file, row) for row in rows)
        if len(self.rows) >= self.batch_rows:
            self.flush()

    def flush(self) -> None:
        if not self.rows:
            return
        files = [f for f, _r in self.rows]
        location, reason, raw, ordinal = zip(*(r for _f, r in self.rows))
        arrays = [pa.array([self.client] * len(files), _STR), pa.array(files, _STR), pa.array(location, _STR),
                  pa.array(reason, _STR), pa.array(raw, _STR), pa.array(ordinal, pa.int64())]
        self._writer.write_batch(pa.RecordBatch.from_arrays(arrays, schema=REJECTS_ARROW))
        self.count += len(self.rows)
        self.rows = []

    def close(self) -> None:
        self.flush()
        self._writer.close()


@contextlib.contextmanager
def lean_arrow_memory() -> Iterator[None]:
    """Use jemalloc (memory returned to the OS at once) instead of mimalloc while ingesting.

    Measured on a 200k-unit ingest: streaming the Parquet passes left ~70 MB more resident under
    mimalloc's retention than under jemalloc with zero decay. Process-wide while active (pyarrow has
    one default pool); buffers always return to the pool that allocated them, so switching is safe.
    """
    previous = pa.default_memory_pool()
    try:
        pool = pa.jemalloc_memory_pool()
        pa.jemalloc_set_decay_ms(0)
    except NotImplementedError:  # a pyarrow built without jemalloc
        pool = pa.system_memory_pool()
    pa.set_memory_pool(pool)
    try:
        yield
    finally:
        pa.set_memory_pool(previous)
