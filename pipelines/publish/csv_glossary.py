"""Glossary entries as a CSV glossary, the kind CAT tools import.

Layout (documented in pipelines/publish/README.md): one row per (source term, target term), the preferred
renderings of a source term first, then its wrong variants with ``forbidden`` = ``true``.
Why one row per target term rather than ``|``-joined cells: memoQ's and Phrase's term-base CSV
import and Trados's Glossary Converter map each column to one term of one language and read further
synonyms from further rows of the same source term; a joined cell would import as one odd term.
A per-term ``forbidden`` flag is what memoQ ("Forbidden") and Phrase ("Forbidden") store.

Encoding: UTF-8 with a BOM and CRLF line ends (RFC 4180): Excel opens a BOM-less UTF-8 CSV as
the ANSI code page and garbles accents, and the CAT tools read the BOM as the encoding mark.
Written with the csv module (quoting is its job), atomically.

Cells are data, never formulas (``housestyle.pipelines.cells.inert_cell``, the one neutraliser every CSV and
XLSX writer uses): a TM term such as ``=HYPERLINK(…)`` gets a leading apostrophe. The TBX keeps every
term exactly as written.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from housestyle.pipelines import atomic
from housestyle.pipelines.cells import inert_cell
from housestyle.pipelines.publish.glossary import GlossaryEntry, entry_note

COLUMNS: tuple[str, ...] = ("source", "target", "forbidden", "note", "convention_id")
ENCODING = "utf-8-sig"
def glossary_rows(entries: Sequence[GlossaryEntry]) -> list[dict[str, str]]:
    """The CSV rows (dicts keyed by COLUMNS), in entry order."""
    rows = []
    for entry in entries:
        conv = entry.convention
        # the id has its own column; the set_version is the same on every row (in the QA/TBX header)
        note = "; ".join(f for f in entry_note(conv, None) if not f.startswith("convention_id:"))
        for source in entry.source_terms:
            for target, forbidden in [*((t, False) for t in entry.preferred), *((t, True) for t in entry.deprecated)]:
                rows.append({"source": inert_cell(source), "target": inert_cell(target),
                             "forbidden": "true" if forbidden else "false", "note": inert_cell(note),
                             "convention_id": conv.convention_id})
    return rows


def csv_text(entries: Sequence[GlossaryEntry]) -> str:
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=list(COLUMNS), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(glossary_rows(entries))
    return buffer.getvalue()


def write_csv(entries: Sequence[GlossaryEntry], out: Path) -> int:
    """Write the glossary atomically; returns its size in bytes."""
    data = csv_text(entries).encode(ENCODING)
    atomic.write_bytes(out, data)
    return len(data)
