"""Bounds on a filled review packet, checked before openpyxl (or the CSV reader) sees it.

Why: a 1.5 MB workbook can declare gigabytes of sheet XML (3.2 GB peak in openpyxl for 1.5 MB, over
8 GB for 4.2 MB), and a sheet may declare cells in column XFD. The checks and the bounded stream of
rows are ``pipelines/spreadsheet.py``'s, shared with the issue list and the termbase readers.
"""

from __future__ import annotations

from housestyle.pipelines.spreadsheet import XlsxLimits

MAX_PACKET_BYTES = 32 << 20  # the file as given (XLSX or CSV)
MAX_PACKET_UNCOMPRESSED = 64 << 20  # all XLSX members together, as their headers declare
MAX_PACKET_MEMBERS = 1_000  # a workbook of a few sheets has ~10-20
MAX_PACKET_COLUMNS = 64  # a packet has ~16 (review.packet.PACKET_COLUMNS + DECISION_COLUMNS)
MAX_PACKET_ROWS = 1_000_000  # one row per convention: far above any set a person reviews

PACKET_LIMITS = XlsxLimits("review packet", MAX_PACKET_BYTES, MAX_PACKET_UNCOMPRESSED, MAX_PACKET_COLUMNS,
                           MAX_PACKET_ROWS, MAX_PACKET_MEMBERS)
