"""Cells are data, never formulas: the one neutraliser for every CSV and XLSX housestyle writes.

A cell a spreadsheet would evaluate (first character ``=``, ``+``, ``-``, ``@``, tab or CR, and not a
plain number) gets a leading apostrophe in CSV (OWASP's advice for CSV injection): a TM term or a
convention text such as ``=HYPERLINK(…)`` would otherwise run when the file is opened in Excel. XLSX
cells are written as text cells (``data_type`` ``s``), which no spreadsheet evaluates, so they keep
the text exactly. Used by publish's CSV glossary, the review packets (CSV, XLSX), the registration
review files and review-sample's sample.

A worksheet cannot hold most C0 control characters at all (openpyxl raises ``IllegalCharacterError``):
``xlsx_text`` shows each as its Unicode control picture (a vertical tab, common in Word-born TMs, as
``␋``), so one system output holding ``\x01`` no longer fails a whole scoring run.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

if TYPE_CHECKING:
    import polars as pl

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PICTURES = re.compile("[\u2400-\u241f]")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)*")


def inert_cell(text: str) -> str:
    """``text`` as a CSV cell no spreadsheet evaluates (see the module docstring)."""
    if text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def inert_frame(frame: pl.DataFrame) -> pl.DataFrame:
    """Every text column of ``frame`` through ``inert_cell`` (other columns as they are)."""
    import polars as pl

    texts = [name for name, dtype in frame.schema.items() if dtype == pl.Utf8]
    return frame.with_columns(pl.col(name).map_elements(inert_cell, return_dtype=pl.Utf8) for name in texts) \
        if texts and frame.height else frame


def write_csv_safe(frame: pl.DataFrame, path: Path | Any) -> None:
    """``frame.write_csv(path)`` with every text cell neutralised."""
    inert_frame(frame).write_csv(path)


def as_text_cell(cell: Any) -> Any:
    """An openpyxl cell holding a string, forced to a text cell (openpyxl makes ``=…`` a formula)."""
    if isinstance(cell.value, str):
        cell.data_type = "s"
    return cell


def xlsx_text(text: str) -> str:
    """``text`` as a worksheet can hold it: each character openpyxl refuses (its
    ``ILLEGAL_CHARACTERS_RE``: C0 controls but tab, LF and CR) as its control picture, U+2400 + code."""
    return ILLEGAL_CHARACTERS_RE.sub(lambda m: chr(0x2400 + ord(m.group())), text)


def xlsx_text_back(text: str) -> str:
    """``xlsx_text`` undone, for the key cells read back (a segment id must match as it was written)."""
    return _PICTURES.sub(lambda m: ch if ILLEGAL_CHARACTERS_RE.fullmatch(ch := chr(ord(m.group()) - 0x2400)) else m.group(), text)
