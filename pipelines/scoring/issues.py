"""``issues.xlsx``: a run's failures as the checklist a reviewer opens (as Xbench and Verifika export),
and the ``ignore`` marks read back as per-client ignores (``ignores.py``).

One row per failed item, most severe kind first (``verdicts.SEVERITY``): system, segment, file,
source, output, dimension, what is missing or wrong, new / inherited / ignored, and the columns a
reviewer fills (``ignore``: ``x`` for this system, ``*`` for every system; ``comment``). Every cell
is written as text and neutralised like publish's CSV (``csv_glossary.inert_cell``): a TM text
starting with ``=`` never becomes a formula. Reading back is bounded (``pipelines/spreadsheet.py``).
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

import polars as pl
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill

from housestyle.pipelines import atomic
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventionset.decisions import identity_of
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.cells import FORMULA_STARTS, inert_cell, xlsx_text, xlsx_text_back
from housestyle.pipelines.scoring.ignores import ALL_SYSTEMS, IGNORES_SCHEMA
from housestyle.pipelines.scoring.verdicts import severity_rank
from housestyle.pipelines.spreadsheet import XlsxLimits, header_of, read_xlsx_rows

SHEET = "issues"
NOTES_SHEET = "how to fill"
NO_CLIENT = "—"
TITLE = re.compile(r"client (\S+) · set ")
COLUMNS: tuple[str, ...] = ("system", "segment_id", "file", "source", "output", "dimension", "rule", "problem",
                            "status", "convention_id", "identity", "ignore", "comment")
FILLED = ("ignore", "comment")
WIDTHS = {"segment_id": 22, "file": 18, "source": 50, "output": 50, "dimension": 24, "problem": 36, "comment": 30}
IGNORE_WORDS = {"x": None, "yes": None, "y": None, "1": None, "true": None, "ignore": None, ALL_SYSTEMS: ALL_SYSTEMS,
                "all": ALL_SYSTEMS}
FILL = PatternFill("solid", fgColor="FFF2CC")
MAX_ROWS = 100_000  # a checklist past this is no checklist (and openpyxl's memory grows per cell); failures.parquet has all
# read back: the file as written (64 MiB, 512 MiB of XML), its 13 columns and a reviewer's few more, its rows
ISSUE_LIST_LIMITS = XlsxLimits("issue list", 64 << 20, 512 << 20, 64, MAX_ROWS + 1_000)


def split_file(segment_id: str, default: str) -> tuple[str, str]:
    """(file, id) of a segment id qualified by file (``<file>::<id>``); ``default`` otherwise."""
    file, sep, rest = segment_id.partition("::")
    return (file, rest) if sep else (default, segment_id)


def problem_text(row: dict[str, Any]) -> str:
    """'missing: a, b; wrong: c' (literal forms), or why the item could not be decided."""
    if row.get("error"):
        return f"undecided: {row['error']}"
    parts = []
    if row.get("missing_expected"):
        parts.append("missing: " + ", ".join(row["missing_expected"]))
    if row.get("found_wrong"):
        parts.append("wrong: " + ", ".join(row["found_wrong"]))
    return "; ".join(parts) or "failed"


def status_of(row: dict[str, Any]) -> str:
    if row.get("ignored"):
        return "ignored"
    inherited = row.get("inherited")
    return "no approved target" if inherited is None else ("inherited" if inherited else "new")


def issue_rows(failures: pl.DataFrame, conventions: Sequence[Convention], source_file: str) -> list[dict[str, str]]:
    """The checklist rows, most severe kind first, then system, dimension and segment order."""
    identity = {c.convention_id: identity_of(c) for c in conventions}
    rows = [dict(r, _rank=severity_rank(r["rule"] or "")) for r in failures.iter_rows(named=True)]
    rows.sort(key=lambda r: (r["_rank"], r["system"], r["dimension"]))  # stable: segment order kept
    out = []
    for r in rows:
        file, _ = split_file(r["segment_id"], source_file)
        out.append({"system": r["system"], "segment_id": r["segment_id"], "file": file, "source": r["source"] or "",
                    "output": r["output"] or "", "dimension": r["dimension"], "rule": r["rule"] or "",
                    "problem": problem_text(r), "status": status_of(r), "convention_id": r["convention_id"],
                    "identity": identity.get(r["convention_id"], ""), "ignore": "x" if r.get("ignored") else "",
                    "comment": ""})
    return out


def issue_list_title(client: str | None, set_version: str | None, run_id: str | None) -> str:
    """The first line of the notes sheet; ``listed_client`` reads the client back from it."""
    return f"client {client or NO_CLIENT} · set {set_version} · run {run_id}"


def write_issues(rows: Sequence[dict[str, str]], path: Path, title: str) -> Path:
    """The checklist workbook, every cell a text cell (never a formula), whole or absent."""
    book = Workbook(write_only=False)
    sheet = book.active
    assert sheet is not None
    sheet.title = SHEET
    sheet.append(list(COLUMNS))
    wrap = Alignment(wrap_text=True, vertical="top")
    for number, row in enumerate(rows[:MAX_ROWS], start=2):
        for col, name in enumerate(COLUMNS, start=1):
            cell = sheet.cell(row=number, column=col)
            cell.value = inert_cell(xlsx_text(str(row.get(name) or "")))
            cell.data_type = "s"
            if name in ("source", "output", "problem"):
                cell.alignment = wrap
    for col, name in enumerate(COLUMNS, start=1):
        head = sheet.cell(row=1, column=col)
        head.font = Font(bold=True)
        if name in FILLED:
            head.fill = FILL
        sheet.column_dimensions[head.column_letter].width = WIDTHS.get(name, 12)
    sheet.freeze_panes = "C2"
    sheet.auto_filter.ref = sheet.dimensions
    notes = book.create_sheet(NOTES_SHEET)
    cut = [f"{len(rows) - MAX_ROWS:,} more failed items (the least severe) are left out here: failures.parquet has "
           "every one."] if len(rows) > MAX_ROWS else []
    for line in (title, *cut, "ignore: x = a false alarm for this system on this segment; * = for every system.",
                 "status: new = the system's own error; inherited = the client's approved target fails it too.",
                 "Import: housestyle ignore-import FILE --client CLIENT --reviewer NAME"):
        notes.append([inert_cell(line)])
    notes.column_dimensions["A"].width = 110
    return atomic.write_with(path, lambda tmp: book.save(tmp))


def _uninert(text: str) -> str:
    """The text ``inert_cell`` neutralised, as it was (only its own apostrophe is taken off)."""
    return text[1:] if text.startswith("'") and text[1:].startswith(FORMULA_STARTS) else text


def listed_client(path: Path) -> str | None:
    """The client an issue list names in its notes sheet's title (``client X · set …``), None when it
    names none (a run scored without ``--client``, or the sheet gone)."""
    notes = read_xlsx_rows(path, ISSUE_LIST_LIMITS, NOTES_SHEET, or_first=False)
    title = str(notes[0][0]) if notes and notes[0] and notes[0][0] is not None else ""
    found = TITLE.match(title)
    return found.group(1) if found and found.group(1) != NO_CLIENT else None


def read_ignore_marks(path: Path, reviewer: str, now: str | None = None, *, client: str | None = None) -> pl.DataFrame:
    """The rows of a filled issue list whose ``ignore`` cell is marked, as ignores (IGNORES_SCHEMA);
    an unknown mark is an error naming the row. With ``client``, an issue list naming another client
    is refused: its marks would ignore that client's failures on the same rules and segment ids."""
    path = Path(path)
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    if client is not None and (listed := listed_client(path)) not in (None, client):
        raise InputError(f"issue list of client {listed!r}, not of {client!r}: nothing recorded", path=str(path),
                         location=f"'{NOTES_SHEET}' sheet, row 1")
    values = [["" if v is None else str(v) for v in row] for row in read_xlsx_rows(path, ISSUE_LIST_LIMITS, SHEET)]
    header = header_of(values[0], path) if values else []
    needed = ("system", "segment_id", "dimension", "convention_id", "identity", "ignore")
    missing = [c for c in needed if c not in header]
    if missing:
        raise InputError(f"not an issue list: no column(s) {', '.join(missing)}", path=str(path), location="row 1")
    decided = now or datetime.now(timezone.utc).isoformat(timespec="seconds")
    out = []
    for number, row in enumerate(values[1:], start=2):
        rec = {name: (_uninert(row[i]) if i < len(row) else "") for i, name in enumerate(header) if name}
        mark = rec.get("ignore", "").strip().lower()
        if not mark:
            continue
        if mark not in IGNORE_WORDS:
            raise InputError(f"ignore must be x (this system) or * (every system), got {mark!r}", path=str(path),
                             location=f"row {number}")
        if not rec.get("identity") or not rec.get("segment_id"):
            raise InputError("a marked row needs its identity and segment_id", path=str(path), location=f"row {number}")
        out.append({"identity": rec["identity"], "convention_id": rec.get("convention_id") or None,
                    "dimension": rec.get("dimension") or None, "segment_id": xlsx_text_back(rec["segment_id"]),
                    "system": IGNORE_WORDS[mark] or xlsx_text_back(rec.get("system", "")) or ALL_SYSTEMS,
                    "comment": rec.get("comment") or None, "reviewer": reviewer, "decided_at": decided})
    return pl.DataFrame(out, schema=IGNORES_SCHEMA)
