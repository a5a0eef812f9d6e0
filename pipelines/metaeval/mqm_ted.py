"""The TED / newstest layout (WMT20–22 files): ``system doc doc_id seg_id rater source target category
severity [comment]``, one header line with one name per field; weights of mt-metrics-eval
(``DEFAULT_WEIGHTS``: Non-translation 25, Minor Fluency/Punctuation 0.1, Major 5, Minor 1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.metaeval.mqm_score import DEFAULT_WEIGHTS, Layout, MqmRow, Records, strip_spans

REQUIRED_COLUMNS = ("system", "seg_id", "rater", "source", "target", "category", "severity")


def matches(header: list[str]) -> bool:
    return "seg_id" in header and "docSegId" not in header


def rows(path: Path, header: list[str], records: Records, dropped: Counter[str]) -> Iterator[MqmRow]:
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise InputError(f"MQM header lacks column(s) {missing}; found {header}", path=str(path), location=1)
    col = {name: i for i, name in enumerate(header)}
    for line, fields in records:
        if len(fields) != len(header):
            raise InputError(f"expected {len(header)} tab-separated fields, found {len(fields)}", path=str(path),
                             location=line)
        try:
            seg_id = int(fields[col["seg_id"]])
        except ValueError:
            raise InputError(f"seg_id {fields[col['seg_id']][:40]!r} is not an integer", path=str(path),
                             location=line) from None
        yield MqmRow(line=line, system=fields[col["system"]], unit=str(seg_id), seg_id=seg_id,
                     doc=fields[col["doc"]] if "doc" in col else "", rater=fields[col["rater"]],
                     source=strip_spans(fields[col["source"]]), target=strip_spans(fields[col["target"]]),
                     category=fields[col["category"]].strip(), severity=fields[col["severity"]].strip())


LAYOUT = Layout("ted", "TED/newstest: system, doc, doc_id, seg_id, rater, source, target, category, severity[, comment]",
                matches, rows, DEFAULT_WEIGHTS)
