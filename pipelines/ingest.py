"""Ingest: files -> ``tm_units.parquet`` + ``tm_rejects.parquet`` (SPEC.md §2), nothing lost, nothing unbounded.

Counting rules (``accounting`` checks them on the written tables, the asset check blocks on them):
- units in a file are counted independently of the parser (XML: the byte scan of ``readers/scan.py``;
  PO: the entry scan) and numbered (``unit_ordinal``); every one of them has at least one row, in
  tm_units (one per target language / plural form) or in tm_rejects (with the reason), so
  units in the file = units kept + units rejected, per file;
- a unit the ingest cannot use (missing/empty target, missing or unreadable language tag, empty
  source) is a reject with the reason; a unit that does not parse is a reject with libxml2's (or the
  PO parser's) message and line, and the units around it are still read;
- a file-level problem (unsupported format, unreadable or truncated archive, a refused bomb, junk
  between units) is one more row in tm_rejects without an ordinal (SPEC: one more unit read and
  rejected); when the stream broke, the file's count is unknown and that row says so.
Rows read = rows in tm_units + rows in tm_rejects. Domain precedence: the unit's own domain prop
(TMX prop x-domain/domain/subject) > ``domain_of(path)``.

Big XML files are scanned here and parsed on ``workers`` processes that write Arrow parts
(``tm_writer``); this process only merges them (``tm_merge``). Temporaries live in a pid-tagged
folder in ``out_dir`` (``atomic.temporary_name``), removed on every exit; a killed run's are removed
by the next run (``atomic.remove_stale_temporaries``). Nothing is written to ``$TMPDIR``.
"""

from __future__ import annotations

import dataclasses
import gc
import multiprocessing
import re
import shutil
import stat
from collections import Counter, deque
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from housestyle.pipelines.atomic import atomic_path, remove_stale_temporaries, temporary_name
from housestyle.pipelines.errors import InputError, UnsupportedFormatError
from housestyle.pipelines.readers import containers, safexml
from housestyle.pipelines.readers.base import TranslationUnit
from housestyle.pipelines.readers.containers import ContainerLimits
from housestyle.pipelines.readers.po import po_records
from housestyle.pipelines.readers.registry import READ_ERRORS, format_of, read_error
from housestyle.pipelines.readers.scan import Chunk, Oversized, Problem, UnitScanner
from housestyle.pipelines.readers.xmlformats import XML_FORMATS
from housestyle.pipelines.readers.xmlunits import check_context, oversized_row
from housestyle.pipelines.tm_merge import Part, write_units
from housestyle.pipelines.tm_writer import (UNTRANSLATED, ColumnSink, Job, RejectRow, RejectWriter, SinkResult, init_worker,
                                 lean_arrow_memory, run_job)
from housestyle.pipelines.tm_writer import unusable_reason as unusable_reason  # re-exported: the ingest's rule

_LINE_NUMBER = re.compile(r"\bline \d+")
PARALLEL_MIN_BYTES = 8 << 20  # below this, starting processes costs more than it saves
_FILE_REASON = {"MalformedFileError": "malformed file", "ContainerLimitError": "archive limit exceeded",
                "UnsafeXmlError": "unsafe xml", "UnsupportedFormatError": "unsupported format"}


@dataclass
class FileSummary:
    source_file: str
    format: str | None
    kept: int = 0  # rows in tm_units
    rejected: int = 0  # rows in tm_rejects (unit rejects and file-level rows), untranslated entries apart
    untranslated: int = 0  # rows in tm_rejects of PO / XLIFF entries not translated yet (not rejects)
    units_in_file: int | None = None  # the independent count (None: could not be established)
    foreign: int = 0  # foreign-namespace elements ignored (XLIFF)
    error: str | None = None  # the first file-level problem
    first_reason: str | None = None  # the first reject's reason, in file order


@dataclass
class IngestSummary:
    units_read: int = 0  # rows: kept + rejected + untranslated
    units_kept: int = 0
    units_rejected: int = 0
    units_untranslated: int = 0  # PO / XLIFF entries with no translation yet (in tm_rejects, not rejects)
    duplicates: int = 0
    per_file: list[FileSummary] = field(default_factory=list)
    language_pairs: dict[str, int] = field(default_factory=dict)  # "en→fr-CA" (normalised tags) -> units kept
    reject_reasons: dict[str, int] = field(default_factory=dict)
    alt_trans_ignored: int = 0  # XLIFF 1.2 <alt-trans> entries seen (ignored: not approved translations)
    id_conflicts: int = 0  # rows flagged id_conflict

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict (for run metadata)."""
        return asdict(self)


def reason_kind(reason: str) -> str:
    """A reject reason without its line numbers, so the summary groups one cause once."""
    return _LINE_NUMBER.sub("line N", reason)[:200]


def domain_from_path(path: Path, tm_root: Path) -> str | None:
    """The first sub-folder under ``tm_root`` (``tm/vpn/fr/x.xliff`` -> ``vpn``); None for files directly in it."""
    try:
        relative = path.resolve().relative_to(tm_root.resolve())
    except ValueError:
        return None
    return relative.parts[0] if len(relative.parts) > 1 else None


Pending = tuple[FileSummary, "Future[SinkResult] | SinkResult", Job | None]


def _worker_context() -> multiprocessing.context.BaseContext:
    """Spawned workers: never forked from this (possibly threaded: Dagster, Arrow) process, and
    children of it, so their CPU and memory count in its resource usage (a forkserver's workers
    would not: /usr/bin/time would under-report them). Each pays ~0.35 s of imports."""
    return multiprocessing.get_context("spawn")


class _Run:
    """One ingest: the queue of jobs in file order, the worker pool, the writers."""

    def __init__(self, client: str, work: Path, workers: int, rejects: RejectWriter) -> None:
        self.client, self.work, self.workers, self.rejects = client, work, workers, rejects
        self.summary = IngestSummary()
        self.pairs: Counter[str] = Counter()
        self.reasons: Counter[str] = Counter()
        self.parts: list[Part] = []
        self.queue: deque[Pending] = deque()
        self.pool: ProcessPoolExecutor | None = None
        self.pool_failed = False
        self.jobs = 0

    def file(self, source_file: str, fmt: str | None) -> FileSummary:
        summary = FileSummary(source_file, fmt)
        self.summary.per_file.append(summary)
        return summary

    def submit(self, fs: FileSummary, job: Job, parallel: bool) -> None:
        if parallel and self.workers > 1 and self.pool is None and not self.pool_failed:
            self.pool = ProcessPoolExecutor(self.workers, mp_context=_worker_context(), initializer=init_worker)
        if parallel and self.pool is not None:
            try:
                self.queue.append((fs, self.pool.submit(run_job, job), job))
            except (BrokenProcessPool, RuntimeError):  # workers cannot start (e.g. an unguarded __main__)
                self._lose_pool()
                self.queue.append((fs, run_job(job), None))
            while len(self.queue) > 3 * self.workers:
                self.collect_one()
        else:
            self.queue.append((fs, run_job(job), None))
            self.drain()

    def _lose_pool(self) -> None:
        """Go on in this process: the same jobs, the same rows, one core."""
        self.pool_failed = True
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    def rejects_only(self, fs: FileSummary, rows: list[RejectRow]) -> None:
        self.queue.append((fs, SinkResult(None, 0, rows, {}, Counter(r[1] for r in rows)), None))
        self.drain()

    def drain(self) -> None:
        while self.queue and (not isinstance(self.queue[0][1], Future) or self.queue[0][1].done()):
            self.collect_one()

    def collect_one(self) -> None:
        fs, pending, job = self.queue.popleft()
        if isinstance(pending, Future):
            try:
                result = pending.result()
            except (BrokenProcessPool, CancelledError):  # a worker died (killed, out of memory): redo here
                assert job is not None
                self._lose_pool()
                result = run_job(job)
        else:
            result = pending
        if result.part is not None:
            self.parts.append(Part(Path(result.part), result.kept, self.summary.per_file.index(fs)))
        self.rejects.add(fs.source_file, result.rejects)
        untranslated = result.reasons.get(UNTRANSLATED, 0)
        if fs.first_reason is None:
            fs.first_reason = next((r[1] for r in result.rejects if r[1] != UNTRANSLATED), None)
        fs.kept += result.kept
        fs.rejected += len(result.rejects) - untranslated
        fs.untranslated += untranslated
        fs.foreign += result.foreign
        self.summary.alt_trans_ignored += result.alt_trans
        self.pairs.update({f"{s}→{t}": n for (s, t), n in result.pairs.items()})
        for reason, n in result.reasons.items():
            if reason != UNTRANSLATED:
                self.reasons[reason_kind(reason)] += n

    def part_path(self) -> str:
        self.jobs += 1
        return str(self.work / f"part-{self.jobs:07d}.arrow")

    def close(self) -> None:
        while self.queue:
            self.collect_one()
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


def _file_error(run: _Run, fs: FileSummary, error: InputError) -> None:
    fs.error = fs.error or str(error)
    reason = f"{_FILE_REASON.get(type(error).__name__, 'unreadable file')}: {error.reason}"
    run.rejects_only(fs, [(error.location or "file", reason, str(error), None)])


def _xml(run: _Run, fs: FileSummary, member: containers.Member, domain: str | None) -> None:
    fmt = XML_FORMATS[fs.format or ""]
    known_big = (member.size or 0) >= PARALLEL_MIN_BYTES
    refused: dict[object, str | None] = {}
    with member.open() as raw:
        stream = safexml.utf8_stream(raw)
        transcoded = not isinstance(stream, safexml.Prefixed)  # UTF-16/32: offsets are not the file's
        scanner = UnitScanner(stream, fmt.vocabulary)  # type: ignore[arg-type]
        scanned = 0
        for event in scanner.events():
            if isinstance(event, Chunk):
                scanned += len(event.data)
                if event.context not in refused:
                    refused[event.context] = check_context(event.context, fs.source_file)
                    if refused[event.context] is not None:
                        fs.error = fs.error or f"{fs.source_file}: {refused[event.context]}"
                parallel = known_big or scanned >= PARALLEL_MIN_BYTES
                job = Job(fmt.name, event, run.client, fs.source_file, domain, run.part_path(), refused[event.context])
                if parallel and member.path is not None and not transcoded:  # the worker reads the bytes itself
                    job.path, job.offset, job.size = str(member.path), event.offset, len(event.data)
                    job.chunk = dataclasses.replace(event, data=b"")
                run.submit(fs, job, parallel)
            elif isinstance(event, Oversized):
                line, reason, raw_text = oversized_row(event)
                run.rejects_only(fs, [(str(line), reason, raw_text, event.ordinal)])
            elif isinstance(event, Problem):
                if scanner.root not in fmt.vocabulary.roots:
                    _file_error(run, fs, InputError(event.message, path=fs.source_file, location=event.line))
                    fs.units_in_file = 0
                    return
                fs.error = fs.error or f"{fs.source_file}:{event.line}: {event.message}"
                run.rejects_only(fs, [(str(event.line), f"malformed file: {event.message}", "", None)])
    fs.units_in_file = scanner.units
    fs.foreign += scanner.foreign  # foreign elements between units (those inside units: the workers')
    if scanner.read_error is not None:
        fs.units_in_file = None
        error = read_error(scanner.read_error, fs.source_file)
        error.reason += f"; {scanner.units:,} units read before it, the rest of the file cannot be counted"
        _file_error(run, fs, error)


def _po(run: _Run, fs: FileSummary, member: containers.Member, domain: str | None) -> None:
    sink = ColumnSink(run.client, fs.source_file, "po", domain)
    with member.open() as stream:
        entries, records = po_records(stream.read(), fs.source_file)
    for record in records:
        if isinstance(record, TranslationUnit):
            sink.add_unit(record.ordinal or 0, record)
        elif record.ordinal is None:
            fs.error = fs.error or f"{fs.source_file}:{record.location}: {record.reason}"
            sink.problem(int(record.location) if record.location.isdigit() else 0, record.reason, record.raw)
        else:
            sink.rows(record.ordinal, [(record.location, record.reason, record.raw)])
    run.queue.append((fs, sink.finish(Path(run.part_path())), None))
    run.drain()
    fs.units_in_file = entries


def ingest_files(
    paths: Sequence[Path],
    *,
    client: str,
    out_dir: Path,
    domain_of: Callable[[Path], str | None] | None = None,
    workers: int = 2,
    limits: ContainerLimits | None = None,
) -> IngestSummary:
    """Read every file (any supported format, .zip/.gz too) into ``out_dir``/tm_units.parquet and tm_rejects.parquet.

    Files are read in the given order (so ``duplicate_of`` names the first occurrence in that order);
    ``workers`` processes parse big XML files. Tables are written whole or not at all.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(out_dir)  # what a killed run left behind
    work = temporary_name(out_dir / "ingest")
    work.mkdir()
    gc_was_enabled = gc.isenabled()
    gc.disable()  # bulk load of acyclic rows: the cyclic GC cost ~20% of the CPU (measured before)
    try:
        with lean_arrow_memory():
            rejects = RejectWriter(work / "tm_rejects.parquet", client)
            run = _Run(client, work, workers, rejects)
            try:
                for path in paths:
                    _read_path(run, Path(path), domain_of(Path(path)) if domain_of else None, limits)
            finally:
                run.close()
                rejects.close()
            with atomic_path(out_dir / "tm_units.parquet") as tmp:
                run.summary.duplicates, run.summary.id_conflicts = write_units(run.parts, tmp)
            with atomic_path(out_dir / "tm_rejects.parquet") as tmp:
                shutil.move(str(rejects.path), tmp)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if gc_was_enabled:
            gc.enable()
    summary = run.summary
    summary.units_kept = sum(p.rows for p in run.parts)
    summary.units_untranslated = sum(f.untranslated for f in summary.per_file)
    summary.units_rejected = rejects.count - summary.units_untranslated
    summary.units_read = summary.units_kept + summary.units_rejected + summary.units_untranslated
    summary.language_pairs = dict(sorted(run.pairs.items()))
    summary.reject_reasons = dict(run.reasons.most_common())
    return summary


def not_regular(path: Path) -> InputError | None:
    """The reject for an entry that is not a regular file (symlink, FIFO, socket, device), or None.

    Decided on the entry itself (``lstat``): a link is never followed and nothing is opened, so the
    reason quotes nothing of what it points at (a link to /etc/shadow leaks no line of it)."""
    try:
        mode = path.lstat().st_mode
    except OSError as exc:
        return InputError(f"cannot open: {exc.strerror or exc}", path=str(path))
    if stat.S_ISREG(mode):
        return None
    kind = ("a symbolic link" if stat.S_ISLNK(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a folder" if stat.S_ISDIR(mode) else "a special file")
    return InputError(f"not a regular file ({kind}): only regular files are read, links are never followed",
                      path=str(path))


def _read_path(run: _Run, path: Path, domain: str | None, limits: ContainerLimits | None) -> None:
    refused = not_regular(path)
    if refused is not None:
        _file_error(run, run.file(str(path), None), refused)
        return
    for member in containers.expand(path, limits):
        if isinstance(member, InputError):
            _file_error(run, run.file(member.path, None), member)
            continue
        fs = run.file(member.label, None)
        try:
            fs.format = format_of(member)
            (_po if fs.format == "po" else _xml)(run, fs, member, domain)
        except UnsupportedFormatError as exc:
            _file_error(run, fs, exc)
        except (InputError, *READ_ERRORS) as exc:  # a sniff that could not read the file's start
            fs.units_in_file = None
            _file_error(run, fs, read_error(exc, member.label))
