"""Glossary entries as the CSV each CAT / localization tool imports (``publish --format csv --layout …``).

One row per concept (a published term convention): its source term and its BASE forms
(``glossary.base_forms``: the termbase's own words, or one form per mined rendering), never every
inflection — memoQ made six entries of ``email`` from the inflection rows. Language columns carry the
tags or names the tool maps to its languages, status columns the values it knows; the layouts, their
columns and the sources they follow are in pipelines/publish/README.md. Weblate keys a glossary by
source string, so its layout writes the preferred translation and each forbidden one as rows of the
same source (flag ``forbidden``). Cells are made inert (``csv_glossary.inert_cell``); UTF-8 with BOM, CRLF.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from pathlib import Path

import langcodes

from housestyle.pipelines import atomic
from housestyle.pipelines.cells import inert_cell
from housestyle.pipelines.publish.csv_glossary import ENCODING
from housestyle.pipelines.publish.glossary import GlossaryEntry

LAYOUTS: tuple[str, ...] = ("memoq", "phrase", "crowdin", "weblate")
Slot = tuple[str, str]  # (term, role: preferred | admitted | forbidden)


def _slots(entry: GlossaryEntry) -> list[Slot]:
    preferred = entry.base_preferred or entry.preferred[:1]
    return [*((t, "preferred") for t in preferred), *((t, "admitted") for t in entry.base_admitted),
            *((t, "forbidden") for t in (entry.base_deprecated or entry.deprecated))]


def _note(entry: GlossaryEntry) -> str:
    conv = entry.convention
    others = [f for f in entry.preferred if f not in entry.base_preferred]
    return "; ".join([*([conv.note] if conv.note else []), *([f"forms: {', '.join(others)}"] if others else []),
                      f"convention_id: {conv.convention_id}"])


def language_name(tag: str) -> str:
    """memoQ's language column name: ``English_United_States``, ``French``."""
    name = langcodes.Language.get(tag).display_name()
    return "_".join(name.replace("(", " ").replace(")", " ").replace(",", " ").split())


def _wide(entries: Sequence[GlossaryEntry], head: Callable[[GlossaryEntry], list[str]], lead: list[str],
          slot_header: list[str], cells: Callable[[Slot], list[str]]) -> list[list[str]]:
    """Header and rows of a one-row-per-concept layout: lead columns, then ``slot_header`` repeated
    for the most target terms any concept has."""
    width = max((len(_slots(e)) for e in entries), default=1)
    rows = [lead + slot_header * width]
    for entry in entries:
        slots = _slots(entry)
        row = head(entry)
        for slot in slots:
            row += cells(slot)
        rows.append(row + [""] * (len(rows[0]) - len(row)))
    return rows


def layout_rows(entries: Sequence[GlossaryEntry], layout: str) -> list[list[str]]:
    """The CSV's rows (header first) in ``layout``."""
    if not entries:
        return [["source", "target"]]
    src, tgt = entries[0].src_lang, entries[0].tgt_lang
    if layout == "memoq":  # entry fields, then language / term fields in bound order (memoQ WS API CSV doc)
        return _wide(entries, lambda e: [e.convention.convention_id, _note(e), e.source_terms[0]],
                     ["Entry_ID", "Entry_Note", language_name(src)], [language_name(tgt), "Term_Forbidden"],
                     lambda s: [s[0], "True" if s[1] == "forbidden" else "False"])
    if layout == "phrase":  # language-code columns, per-term status and forbidden flag
        return _wide(entries, lambda e: [e.source_terms[0], _note(e)], [src, "note"],
                     [tgt, f"{tgt}_status", f"{tgt}_forbidden"],
                     lambda s: [s[0], "Approved", "TRUE" if s[1] == "forbidden" else "FALSE"])
    if layout == "crowdin":  # Term [lang] / Status [lang] with Crowdin's term statuses
        status = {"preferred": "preferred", "admitted": "admitted", "forbidden": "not recommended"}
        return _wide(entries, lambda e: [e.source_terms[0], _note(e)], [f"Term [{src}]", f"Description [{src}]"],
                     [f"Term [{tgt}]", f"Status [{tgt}]"], lambda s: [s[0], status[s[1]]])
    if layout == "weblate":
        rows = [["source", "target", "context", "explanation", "flags"]]
        for entry in entries:
            for term, role in _slots(entry):
                rows.append([entry.source_terms[0], term, "", _note(entry), "forbidden" if role == "forbidden" else ""])
        return rows
    raise ValueError(f"unknown layout {layout!r} (one of {', '.join(LAYOUTS)})")


def layout_text(entries: Sequence[GlossaryEntry], layout: str) -> str:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in layout_rows(entries, layout):
        writer.writerow([inert_cell(c) for c in row])
    return buffer.getvalue()


def write_layout(entries: Sequence[GlossaryEntry], out: Path, layout: str) -> tuple[int, int]:
    """Write the layout atomically; returns (data rows, bytes)."""
    text = layout_text(entries, layout)
    data = text.encode(ENCODING)
    atomic.write_bytes(out, data)
    return len(layout_rows(entries, layout)) - 1, len(data)
