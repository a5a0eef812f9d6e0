"""Fault suite, bounded inputs (issue 26 part 6): a PO entry over the unit limit (64 MiB, the XML
units' ``MAX_UNIT_BYTES``) is one reject, read by nobody; its neighbours are kept and counted."""

from __future__ import annotations

from housestyle.pipelines.readers.base import Reject, TranslationUnit
from housestyle.pipelines.readers.po import po_records
from housestyle.pipelines.readers.scan_events import MAX_UNIT_BYTES

HEADER = b'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


def test_oversized_entry_is_rejected_unread_and_the_others_kept() -> None:
    data = (HEADER + b'msgid "Save"\nmsgstr "Speichern"\n\n#: huge.c:1\nmsgid "Huge"\nmsgstr "' + b"x" * 5000
            + b'"\n\nmsgid "Open"\nmsgstr "Offnen"\n')
    entries, records = po_records(data, "de.po", max_entry_bytes=4096)
    assert entries == 3
    kept = [(r.ordinal, r.source, r.target) for r in records if isinstance(r, TranslationUnit)]
    assert kept == [(1, "Save", "Speichern"), (3, "Open", "Offnen")]
    (reject,) = [r for r in records if isinstance(r, Reject)]
    assert (reject.location, reject.ordinal) == ("9", 2)
    assert reject.reason.startswith("entry of 5,0") and "over the limit of 4,096 bytes: rejected unread" in reject.reason


def test_the_default_limit_is_the_xml_units_one() -> None:
    assert po_records.__defaults__ == (MAX_UNIT_BYTES,) and MAX_UNIT_BYTES == 64 << 20
    _entries, records = po_records(HEADER + b'msgid "a"\nmsgstr "' + b"y" * 100_000 + b'"\n', "de.po")
    assert [type(r).__name__ for r in records] == ["TranslationUnit"]
