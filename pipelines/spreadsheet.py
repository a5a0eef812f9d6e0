"""Reading a workbook a user hands back (a filled review packet, an issue list, a termbase), bounded.

Why one reader for all three: an XLSX is a zip of XML, and openpyxl's read-only mode trusts the
sheet's ``<dimension>`` element.
- A dimension that understates the rows makes openpyxl stop at it: a 50-entry termbase whose
  dimension said ``A1:B3`` imported 2 entries, and a filled packet or issue list would have lost the
  decisions and ignores below, without a word. The declared dimension is therefore dropped
  (``reset_dimensions``) and every row the sheet holds is read.
- A dimension (or a cell) in column XFD pads every row to 16,384 cells: a 722 kB termbase of
  100,000 such rows took 7 GB and died with MemoryError in ``import-glossary``. Rows are read one at
  a time; a row wider than the reader's columns is refused if a cell past them holds a value (it
  would be read by nobody), else cut to them.
- A formula cell reads as the value saved with it (openpyxl's ``data_only``); one saved without a value
  (a workbook a program wrote) read as empty and dropped the decision it held, so it is refused. The
  formulas pass runs only when a sheet's XML holds a formula element.
- A small file can declare gigabytes of XML: the zip's central directory is checked first (size,
  members, declared uncompressed size), and Python's zipfile never inflates a member beyond its
  declared size, so what openpyxl reads is bounded by what was checked.

The CSV forms of the same files go through ``csv_records``: parsed strictly, because a quote never
closed made the lenient reader swallow every row after it into one cell (the decisions of a packet,
the entries of a termbase), and a cell past the csv module's field limit was a traceback.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from housestyle.pipelines.errors import InputError


_FORMULA = re.compile(rb"<(?:\w+:)?f[\s/>]")


@dataclass(frozen=True)
class XlsxLimits:
    """What one kind of workbook may hold; ``what`` names it in refusals ("review packet")."""

    what: str
    max_bytes: int  # the file as given
    max_inflated: int  # all zip members together, as the zip declares them
    max_columns: int
    max_rows: int  # header included
    max_members: int = 1_000  # a workbook of a few sheets has ~10-20


def check_file_size(path: Path, max_bytes: int, what: str) -> None:
    """Refuse a file over ``max_bytes`` before anything reads it (XLSX or CSV); ``what`` names the limit."""
    size = path.stat().st_size
    if size > max_bytes:
        raise InputError(f"refused: {size:,} bytes, over the {what} limit of {max_bytes:,}", path=str(path))


def check_xlsx_bounds(path: Path, limits: XlsxLimits) -> None:
    """Refuse a workbook whose zip directory is over the limits (module doc), naming the limit."""
    check_file_size(path, limits.max_bytes, limits.what)
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise InputError(f"not a readable XLSX workbook: {exc}", path=str(path)) from None
    if len(members) > limits.max_members:
        raise InputError(f"refused: {len(members):,} zip members, over the limit of {limits.max_members:,}",
                         path=str(path))
    declared = sum(m.file_size for m in members)
    if declared > limits.max_inflated:
        raise InputError(f"refused: declares {declared:,} bytes uncompressed, over the limit of "
                         f"{limits.max_inflated:,} (decompression bomb?)", path=str(path))


def read_xlsx_rows(path: Path, limits: XlsxLimits, sheet: str | None = None, *, or_first: bool = True) -> list[list[Any]]:
    """Every row of the named sheet (else the first; with ``or_first=False``, none: ``[]``) as cell
    values, ``None`` for an empty cell and trailing empty cells cut; ``rows[i]`` is the spreadsheet's
    row ``i + 1`` (a missing row is ``[]``). A formula cell reads as the value the file saved with it;
    one saved without a value (a workbook written by a program, never recalculated) is refused with
    its row and column: read as empty, it silently dropped the decision or mark it held."""
    check_xlsx_bounds(path, limits)
    if not _holds_formulas(path):  # the usual workbook: one pass over the saved values
        return _sheet_rows(path, limits, sheet, or_first, None)
    formulas: list[tuple[int, int]] = []
    rows = _sheet_rows(path, limits, sheet, or_first, formulas)
    if formulas:
        saved = _sheet_rows(path, limits, sheet, or_first, None)
        for r, c in formulas:
            value = saved[r][c] if r < len(saved) and c < len(saved[r]) else None
            if value is None:
                raise InputError(f"column {get_column_letter(c + 1)} holds a formula saved without its value ({rows[r][c]}): "
                                 "type the value, or open and save the file in a spreadsheet program",
                                 path=str(path), location=f"row {r + 1}")
            rows[r][c] = value
    return rows


def _holds_formulas(path: Path) -> bool:
    """Whether a worksheet of the workbook holds a formula element (``<f>``), read in 1 MiB chunks
    (the zip directory is checked already, so what is read is bounded)."""
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if not name.startswith("xl/worksheets/"):
                continue
            with archive.open(name) as member:
                tail = b""
                while chunk := member.read(1 << 20):
                    if _FORMULA.search(tail + chunk):
                        return True
                    tail = chunk[-16:]
    return False


def _sheet_rows(path: Path, limits: XlsxLimits, sheet: str | None, or_first: bool,
                formulas: list[tuple[int, int]] | None) -> list[list[Any]]:
    """One bounded pass over the sheet (``read_xlsx_rows``): with ``formulas``, the cells as stored
    (a formula as its text, its position appended there); without, the values saved with formulas."""
    try:
        book = load_workbook(path, read_only=True, data_only=formulas is None, rich_text=False)
    except Exception as exc:  # openpyxl raises zipfile, KeyError and its own errors for a broken file  # noqa: BLE001
        raise InputError(f"not a readable XLSX workbook: {type(exc).__name__}: {exc}", path=str(path)) from None
    try:
        if not book.worksheets:
            raise InputError("the workbook has no sheet", path=str(path))
        if sheet is not None and sheet not in book.sheetnames and not or_first:
            return []
        found = book[sheet] if sheet is not None and sheet in book.sheetnames else book.worksheets[0]
        if hasattr(found, "reset_dimensions"):  # read-only sheets: read every row, whatever <dimension> says
            found.reset_dimensions()
        rows: list[list[Any]] = []
        for number, row in enumerate(found.iter_rows(values_only=formulas is None), start=1):
            if number > limits.max_rows:
                raise InputError(f"refused: more than {limits.max_rows:,} rows, over the {limits.what} limit",
                                 path=str(path), location=f"row {number}")
            # past the last column read only empty cells may stand (counted in C: a styled empty cell in
            # column XFD pads the row to 16,384 entries); then trailing empty cells are cut
            past = row[limits.max_columns:] if formulas is None else tuple(c.value for c in row[limits.max_columns:])
            if past and past.count(None) != len(past):
                last = next(i for i in range(len(past) - 1, -1, -1) if past[i] is not None)
                raise InputError(f"refused: a value in column {get_column_letter(limits.max_columns + last + 1)}, "
                                 f"past the last column read ({get_column_letter(limits.max_columns)}, {limits.what})",
                                 path=str(path), location=f"row {number}")
            cells = list(row[:limits.max_columns]) if formulas is None else [c.value for c in row[:limits.max_columns]]
            while cells and cells[-1] is None:
                cells.pop()
            if formulas is not None:
                formulas.extend((number - 1, c) for c, cell in enumerate(row[:len(cells)])
                                if getattr(cell, "data_type", None) == "f")
            rows.append(cells)
        return rows
    except (InputError, MemoryError):
        raise
    except Exception as exc:  # a sheet's XML broken past its first rows  # noqa: BLE001
        raise InputError(f"not a readable XLSX workbook: {type(exc).__name__}: {exc}", path=str(path)) from None
    finally:
        book.close()


def csv_records(text: str, path: Path, *, max_rows: int,
                dialect: type[csv.Dialect] | csv.Dialect = csv.excel) -> list[tuple[int, list[str]]]:
    """Every record of a CSV text with the line it starts on; a malformed record (a quote never
    closed, a cell over the field limit) is an InputError naming that line."""
    reader = csv.reader(io.StringIO(text, newline=""), dialect, strict=True)
    records: list[tuple[int, list[str]]] = []
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return records
        except csv.Error as exc:
            raise InputError(f"not readable as CSV: {exc} (in the record that starts on this line)",
                             path=str(path), location=start) from None
        if len(records) >= max_rows:
            raise InputError(f"refused: more than {max_rows:,} rows", path=str(path), location=start)
        records.append((start, row))


def header_of(cells: list[str], path: Path) -> list[str]:
    """A table's header row, stripped; a column named twice is refused (reading by name, the later
    column silently won: a second ``decision`` column hid the first's decisions)."""
    header = [str(h).strip() for h in cells]
    twice = sorted({h for h in header if h and header.count(h) > 1})
    if twice:
        raise InputError(f"column(s) named twice: {', '.join(twice)}", path=str(path), location="row 1")
    return header
