"""Bounds on a filled review packet, checked before openpyxl (or the CSV reader) sees it.

Why: an XLSX is a zip of XML; a 1.5 MB workbook can declare gigabytes of sheet XML (3.2 GB peak in
openpyxl for 1.5 MB, over 8 GB for 4.2 MB). The zip's central directory is read first: the file
size, the number of members and the sum of their declared uncompressed sizes must stay under the
limits below, and Python's zipfile never inflates a member beyond its declared size, so what
openpyxl can read is bounded by what was checked. The rows are then read as a stream, at most
``MAX_PACKET_COLUMNS`` wide and ``MAX_PACKET_ROWS`` long (a sheet that declares a cell in column
XFD would otherwise pad every row to 16,384 cells).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from housestyle.pipelines.errors import InputError

MAX_PACKET_BYTES = 32 << 20  # the file as given (XLSX or CSV)
MAX_PACKET_UNCOMPRESSED = 64 << 20  # all XLSX members together, as their headers declare
MAX_PACKET_MEMBERS = 1_000  # a workbook of a few sheets has ~10-20
MAX_PACKET_COLUMNS = 64  # a packet has ~16 (review.packet.PACKET_COLUMNS + DECISION_COLUMNS)
MAX_PACKET_ROWS = 1_000_000  # one row per convention: far above any set a person reviews


def check_packet_bounds(path: Path) -> None:
    """Raise InputError naming the file and the limit when a packet is too big to read safely."""
    size = path.stat().st_size
    if size > MAX_PACKET_BYTES:
        raise InputError(f"refused: {size:,} bytes, over the review packet limit of {MAX_PACKET_BYTES:,}", path=str(path))
    if path.suffix.lower() != ".xlsx":
        return
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise InputError(f"not a readable XLSX workbook: {exc}", path=str(path)) from None
    if len(members) > MAX_PACKET_MEMBERS:
        raise InputError(f"refused: {len(members):,} zip members, over the limit of {MAX_PACKET_MEMBERS:,}",
                         path=str(path))
    declared = sum(m.file_size for m in members)
    if declared > MAX_PACKET_UNCOMPRESSED:
        raise InputError(f"refused: declares {declared:,} bytes uncompressed, over the limit of "
                         f"{MAX_PACKET_UNCOMPRESSED:,} (decompression bomb?)", path=str(path))
