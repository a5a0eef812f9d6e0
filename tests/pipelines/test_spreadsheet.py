"""The bounded workbook reader behind review-import, ignore-import and import-glossary: every row the
sheet holds is read whatever its <dimension> says, and a workbook built to exhaust memory is refused
with the file and the row named (hostile findings of 2026-12-07: a stale dimension silently dropped
48 of 50 termbase entries; a 722 kB termbase with cells in column XFD took 7 GB and died)."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import Workbook

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.glossary.tables import read_rows
from housestyle.pipelines.review.xlsx import read_packet
from housestyle.pipelines.scoring.issues import read_ignore_marks
from housestyle.pipelines.spreadsheet import XlsxLimits, csv_records, read_xlsx_rows

LIMITS = XlsxLimits("test book", 1 << 20, 8 << 20, 8, 1_000)
SHEET_XML = "xl/worksheets/sheet1.xml"


def _book(path: Path, rows: list[list[str]], title: str = "Sheet") -> Path:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = title
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def _rewrite_sheet(path: Path, edit: Callable[[str], str]) -> Path:
    """A copy of the workbook whose first sheet's XML went through ``edit``."""
    copy = path.with_name("edited_" + path.name)
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            target.writestr(info.filename, edit(data.decode()).encode() if info.filename == SHEET_XML else data)
    return copy


def _stale_dimension(path: Path) -> Path:
    """The workbook with a dimension that says it has three rows (as some exporters leave it)."""
    return _rewrite_sheet(path, lambda xml: re.sub(r'<dimension ref="[^"]+"/>', '<dimension ref="A1:B3"/>', xml))


def test_every_row_is_read_whatever_the_dimension_says(tmp_path: Path) -> None:
    path = _stale_dimension(_book(tmp_path / "b.xlsx", [["en", "fr"]] + [[f"t{i}", f"u{i}"] for i in range(50)]))
    rows = read_xlsx_rows(path, LIMITS)
    assert len(rows) == 51 and rows[-1] == ["t49", "u49"]


def test_missing_rows_keep_the_spreadsheet_numbering_and_trailing_blanks_are_cut(tmp_path: Path) -> None:
    path = _rewrite_sheet(_book(tmp_path / "b.xlsx", [["a", "b"]]), lambda xml: xml.replace(
        "</sheetData>", '<row r="4"><c r="A4" t="inlineStr"><is><t>x</t></is></c><c r="H4" s="0"/></row></sheetData>'))
    assert read_xlsx_rows(path, LIMITS) == [["a", "b"], [], [], ["x"]]


def test_a_value_past_the_last_column_is_refused_with_its_row(tmp_path: Path) -> None:
    path = _rewrite_sheet(_book(tmp_path / "wide.xlsx", [["a", "b"]]), lambda xml: xml.replace(
        "</sheetData>", "".join(f'<row r="{r}"><c r="XFD{r}"><v>1</v></c></row>' for r in range(2, 5000)) + "</sheetData>"))
    with pytest.raises(InputError, match=r"edited_wide.xlsx:row 2: refused: a value in column XFD, past the last "
                                         r"column read \(H, test book\)"):
        read_xlsx_rows(path, LIMITS)


def test_empty_cells_far_right_are_cut_not_padded(tmp_path: Path) -> None:
    """A dimension of A1:XFD900 and styled empty cells in XFD: rows are cut to their last value."""
    path = _rewrite_sheet(_book(tmp_path / "wide.xlsx", [["a", "b"]]), lambda xml: re.sub(
        r'<dimension ref="[^"]+"/>', '<dimension ref="A1:XFD900"/>', xml).replace(
        "</sheetData>", "".join(f'<row r="{r}"><c r="XFD{r}" s="0"/></row>' for r in range(2, 901)) + "</sheetData>"))
    rows = read_xlsx_rows(path, LIMITS)
    assert rows[0] == ["a", "b"] and len(rows) == 900 and not any(rows[1:])


def test_rows_past_the_limit_are_refused(tmp_path: Path) -> None:
    path = _book(tmp_path / "long.xlsx", [[str(i)] for i in range(1_001)])  # one over
    with pytest.raises(InputError, match=r"long.xlsx:row 1001: refused: more than 1,000 rows, over the test book limit"):
        read_xlsx_rows(path, LIMITS)


def test_a_declared_decompression_bomb_is_refused_before_openpyxl(tmp_path: Path) -> None:
    path = _book(tmp_path / "bomb.xlsx", [["a"]])
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as archive, archive.open("xl/media/pad.bin", "w") as out:
        for _ in range(9):
            out.write(b"\0" * (1 << 20))
    with pytest.raises(InputError, match=r"bomb.xlsx: refused: declares [\d,]+ bytes uncompressed, over the limit of 8,388,608"):
        read_xlsx_rows(path, LIMITS)


def test_a_file_that_is_no_workbook_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "no.xlsx"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(InputError, match="no.xlsx: not a readable XLSX workbook"):
        read_xlsx_rows(path, LIMITS)


# The three readers that take a workbook back from a person: none loses a row to a stale dimension.

def test_a_termbase_with_a_stale_dimension_keeps_every_entry(tmp_path: Path) -> None:
    path = _stale_dimension(_book(tmp_path / "terms.xlsx", [["en", "fr"]] + [[f"term{i}", f"terme{i}"] for i in range(50)]))
    assert len(read_rows(path)) == 51


def test_a_review_packet_with_a_stale_dimension_keeps_every_decision(tmp_path: Path) -> None:
    header = ["convention_id", "decision", "expected_terms", "wrong_variants", "comment", "reviewer", "reviewer_role"]
    rows = [header] + [[f"c{i}", "accept"] for i in range(50)]
    path = _stale_dimension(_book(tmp_path / "packet.xlsx", rows, title="review"))
    got = read_packet(path)
    assert [n for n, _ in got] == list(range(2, 52)) and got[-1][1]["convention_id"] == "c49"


def test_an_issue_list_with_a_stale_dimension_keeps_every_ignore(tmp_path: Path) -> None:
    header = ["system", "segment_id", "dimension", "convention_id", "identity", "ignore"]
    rows = [header] + [["mt", f"s{i}", "term", f"c{i}", f"id{i}", "x"] for i in range(50)]
    path = _stale_dimension(_book(tmp_path / "issues.xlsx", rows, title="issues"))
    marks = read_ignore_marks(path, "reviewer", now="2026-12-07T00:00:00+00:00")
    assert marks.height == 50 and marks["segment_id"][-1] == "s49"


def test_csv_records_name_the_line_a_record_starts_on() -> None:
    text = 'a,b\n"multi\nline",x\nc,d\n'
    assert csv_records(text, Path("t.csv"), max_rows=10) == [(1, ["a", "b"]), (2, ["multi\nline", "x"]), (4, ["c", "d"])]
    with pytest.raises(InputError, match=r"t.csv:4: refused: more than 2 rows"):
        csv_records(text, Path("t.csv"), max_rows=2)


def test_a_review_packet_csv_with_an_unclosed_quote_is_refused_not_swallowed(tmp_path: Path) -> None:
    """Read leniently, the comment's quote took the 20 decisions after it into one cell, unseen."""
    path = tmp_path / "packet.csv"
    rows = "".join(f"c{i},accept,,,,me,linguist\n" for i in range(2, 22))
    path.write_text("convention_id,decision,expected_terms,wrong_variants,comment,reviewer,reviewer_role\n"
                    'c1,reject,,,"too general,me,linguist\n' + rows)
    with pytest.raises(InputError, match=r"packet.csv:2: not readable as CSV: unexpected end of data"):
        read_packet(path)


def test_a_formula_reads_as_its_saved_value_and_one_saved_without_a_value_is_refused(tmp_path: Path) -> None:
    """Read as empty, a decision filled by a formula that no spreadsheet ever computed was dropped unseen."""
    header = ["convention_id", "decision", "expected_terms", "wrong_variants", "comment", "reviewer", "reviewer_role"]
    path = _book(tmp_path / "f.xlsx", [header, ["c1", '=LOWER("ACCEPT")'], ["c2", "reject"]], title="review")
    with pytest.raises(InputError, match=r"f.xlsx:row 2: column B holds a formula saved without its value "
                                         r"\(=LOWER\(\"ACCEPT\"\)\)"):
        read_packet(path)
    saved = _rewrite_sheet(path, lambda xml: re.sub(r"<c r=\"B2\"[^>]*>.*?</c>",
                                                    '<c r="B2" t="str"><f>LOWER("ACCEPT")</f><v>accept</v></c>', xml))
    assert [(r["convention_id"], r["decision"]) for _, r in read_packet(saved)] == [("c1", "accept"), ("c2", "reject")]


def test_a_column_named_twice_refuses_the_packet_and_the_issue_list(tmp_path: Path) -> None:
    """Read by name, the second ``decision`` column silently hid the first one's decisions."""
    packet = tmp_path / "packet.csv"
    packet.write_text("convention_id,decision,expected_terms,wrong_variants,comment,decision\nc1,reject,,,,\n")
    with pytest.raises(InputError, match=r"packet.csv:row 1: column\(s\) named twice: decision"):
        read_packet(packet)
    header = ["system", "segment_id", "dimension", "convention_id", "identity", "ignore", "ignore"]
    issues = _book(tmp_path / "issues.xlsx", [header, ["mt", "s1", "term", "c1", "id1", "x", ""]], title="issues")
    with pytest.raises(InputError, match=r"issues.xlsx:row 1: column\(s\) named twice: ignore"):
        read_ignore_marks(issues, "reviewer")
