"""Fault suite, bounded inputs (issue 26 part 6): a review packet is bounded before openpyxl opens it
(file size, zip members, declared uncompressed size) and read as a bounded stream of rows."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.review.packet_bounds import MAX_PACKET_MEMBERS, MAX_PACKET_UNCOMPRESSED
from housestyle.pipelines.review.xlsx import read_packet

HEADER = ["convention_id", "decision", "expected_terms", "wrong_variants", "comment", "reviewer", "reviewer_role"]


def _workbook(path: Path) -> Path:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "review"
    sheet.append(HEADER)
    sheet.append(["abc", "accept"])
    book.save(path)
    return path


def _with_member(path: Path, name: str, chunks: int, chunk: bytes = b"\0" * (1 << 20)) -> None:
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as archive, archive.open(name, "w", force_zip64=True) as out:
        for _ in range(chunks):
            out.write(chunk)


def test_a_decompression_bomb_is_refused_from_the_zip_directory(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "bomb.xlsx")
    _with_member(path, "xl/media/pad.bin", (MAX_PACKET_UNCOMPRESSED >> 20) + 1)
    assert path.stat().st_size < 1 << 20
    with pytest.raises(InputError, match=r"bomb.xlsx: refused: declares [\d,]+ bytes uncompressed, over the limit"):
        read_packet(path)


def test_too_many_members_are_refused(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "many.xlsx")
    with zipfile.ZipFile(path, "a") as archive:
        for i in range(MAX_PACKET_MEMBERS):
            archive.writestr(f"xl/media/{i}.bin", b"")
    with pytest.raises(InputError, match="zip members, over the limit of 1,000"):
        read_packet(path)


def test_a_sheet_declaring_column_xfd_is_refused_at_its_first_value(tmp_path: Path) -> None:
    """A dimension of A1:XFD5000 made openpyxl pad every row to 16,384 cells; a value out there would be
    read by nobody, so the packet is refused at the row holding it (``pipelines/spreadsheet.py``)."""
    path = _workbook(tmp_path / "wide.xlsx")
    rows = "".join(f'<row r="{r}"><c r="XFD{r}"><v>1</v></c></row>' for r in range(3, 5000))
    cells = "".join(f'<c r="{chr(65 + i)}1" t="inlineStr"><is><t>{h}</t></is></c>' for i, h in enumerate(HEADER))
    sheet = ('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/'
             'spreadsheetml/2006/main"><dimension ref="A1:XFD5000"/><sheetData>'
             f'<row r="1">{cells}</row><row r="2"><c r="A2" t="inlineStr"><is><t>abc</t></is></c>'
             f'<c r="B2" t="inlineStr"><is><t>accept</t></is></c></row>{rows}</sheetData></worksheet>')
    copy = tmp_path / "copy.xlsx"
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(copy, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = sheet.encode() if info.filename == "xl/worksheets/sheet1.xml" else source.read(info)
            target.writestr(info.filename, data)
    with pytest.raises(InputError, match=r"copy.xlsx:row 3: refused: a value in column XFD, past the last column read"):
        read_packet(copy)


def test_an_oversized_csv_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    with path.open("wb") as out:
        out.truncate((32 << 20) + 1)
    with pytest.raises(InputError, match="big.csv: refused: 33,554,433 bytes, over the review packet limit"):
        read_packet(path)
