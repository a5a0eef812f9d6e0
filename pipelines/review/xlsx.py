"""The review packet as an XLSX workbook (openpyxl) and filled packets read back (XLSX or CSV).

The sheet is made for a linguist in a spreadsheet: frozen header row and first column, set column
widths, wrapped text, the matched spans bold and coloured, the decision columns shaded, and a
drop-down list (data validation) for ``decision``. A second sheet says how to fill it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from housestyle.pipelines import atomic
from housestyle.pipelines.cells import as_text_cell, xlsx_text
from housestyle.pipelines.conventionset.decisions import DECISION_WORDS
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.review.packet import DECISION_COLUMNS, HELP, MARKED_COLUMNS, PACKET_COLUMNS, Packet, plain
from housestyle.pipelines.review.packet_bounds import PACKET_LIMITS
from housestyle.pipelines.spreadsheet import check_file_size, csv_records, header_of, read_xlsx_rows
from housestyle.pipelines.textinput import read_text

SHEET = "review"
WIDTHS = {"convention_id": 18, "dimension": 28, "rule": 10, "src": 24, "expected_forms": 30, "wrong_forms": 24,
          "support": 9, "consistency": 11, "evidence": 70, "counter_examples": 60, "conflicts": 40, "params": 20,
          "decision": 11, "expected_terms": 28, "wrong_variants": 24, "comment": 30}
WRAPPED = ("dimension", "src", "expected_forms", "wrong_forms", "evidence", "counter_examples", "conflicts", "params",
           "expected_terms", "wrong_variants", "comment")
MARK_FONT = InlineFont(b=True, color="C00000")
DECISION_FILL = PatternFill("solid", fgColor="FFF2CC")


def _cell(value: Any, marked: bool) -> Any:
    """A packet value as a worksheet holds it (a TM text's control characters as ``cells.xlsx_text`` shows them)."""
    if marked and isinstance(value, list):
        if not any(m for _t, m in value):
            return xlsx_text(plain(value)) or None
        return CellRichText([TextBlock(MARK_FONT, xlsx_text(t)) if m else xlsx_text(t) for t, m in value if t])
    if value is None or value == "":
        return None
    return xlsx_text(value) if isinstance(value, str) else value


def write_xlsx(packet: Packet, path: Path) -> Path:
    """The packet as one sheet (+ a help sheet), whole or absent."""
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = SHEET
    sheet.append(list(PACKET_COLUMNS))
    for row in packet.rows:
        sheet.append([_cell(row[c], c in MARKED_COLUMNS) for c in PACKET_COLUMNS])
    # text, never a formula (housestyle.pipelines.cells); the rows by number: ``sheet[sheet.max_row]``
    # after each append scanned every cell so far (7,787 rules: 66 of the export's 75 s)
    for cells in sheet.iter_rows(min_row=2, max_row=len(packet.rows) + 1, max_col=len(PACKET_COLUMNS)):
        for cell in cells:
            as_text_cell(cell)
    wrap = Alignment(wrap_text=True, vertical="top")
    for index, name in enumerate(PACKET_COLUMNS, start=1):
        letter = get_column_letter(index)
        sheet.column_dimensions[letter].width = WIDTHS.get(name, 14)
        head = sheet.cell(row=1, column=index)
        head.font = Font(bold=True)
        if name in DECISION_COLUMNS:
            head.fill = DECISION_FILL
    # Only the text columns wrap: a style set on every one of ~150,000 cells is most of the export's time.
    for name in WRAPPED:
        index = PACKET_COLUMNS.index(name) + 1
        for (cell,) in sheet.iter_rows(min_row=2, min_col=index, max_col=index):
            cell.alignment = wrap
    sheet.freeze_panes = "B2"
    sheet.auto_filter.ref = sheet.dimensions
    last = max(2, len(packet.rows) + 1)
    column = get_column_letter(PACKET_COLUMNS.index("decision") + 1)
    choice = DataValidation(type="list", formula1='"' + ",".join(DECISION_WORDS) + '"', allow_blank=True,
                            showErrorMessage=True, errorTitle="decision", error=f"one of {', '.join(DECISION_WORDS)}")
    sheet.add_data_validation(choice)
    choice.add(f"{column}2:{column}{last}")
    notes = book.create_sheet("how to fill")
    for line in (HELP, f"client {packet.client}, set {packet.set_version}; {len(packet.rows)} rules.",
                 "Marked spans: the trigger in the source; the expected forms (evidence) or the wrong variants "
                 "(counter-examples) in the target.", "Import: housestyle review-import FILE --conventions SET"):
        notes.append([line])
    notes.column_dimensions["A"].width = 120
    return atomic.write_with(path, lambda tmp: book.save(tmp))


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_packet(path: Path) -> list[tuple[int, dict[str, str]]]:
    """The rows of a filled packet, each with its row number as a spreadsheet shows it (header = 1)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    check_file_size(path, PACKET_LIMITS.max_bytes, PACKET_LIMITS.what)
    rows: list[list[str]]
    if suffix == ".xlsx":  # blank rows stay [] (row numbers stay the spreadsheet's)
        rows = [[_text(v) for v in values] for values in read_xlsx_rows(path, PACKET_LIMITS, SHEET)]
    elif suffix == ".csv":
        text = read_text(path)
        rows = [row for _, row in csv_records(text, path, max_rows=PACKET_LIMITS.max_rows)]
    else:
        raise InputError("a review packet is .xlsx or .csv", path=str(path))
    if not rows:
        raise InputError("empty review packet (no header row)", path=str(path), location="row 1")
    header = header_of(rows[0], path)
    missing = [c for c in ("convention_id", *DECISION_COLUMNS) if c not in header]
    if missing:
        raise InputError(f"not a review packet: no column(s) {', '.join(missing)}", path=str(path), location="row 1")
    out = []
    for number, values in enumerate(rows[1:], start=2):
        record = {name: (values[i] if i < len(values) else "") for i, name in enumerate(header) if name}
        if any(v.strip() for v in record.values()):
            out.append((number, record))
    return out
