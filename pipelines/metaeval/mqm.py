"""Load Google's WMT MQM annotation files, whatever their layout, and score them as upstream does.

A small layout registry (``LAYOUTS``): the header line picks the layout — ``mqm_ted`` (TED /
newstest files: seg_id, mt-metrics-eval weights) or ``mqm_marot`` (Marot's files such as
generalMT2023: docSegId/globalSegId, metadata, attention-check rows, Marot's default weights).
Scoring (mean over raters of each rater's weighted sum, then mean over segments) is shared:
housestyle.pipelines.metaeval.mqm_score. Files are read bounded (housestyle.pipelines.metaeval.mqm_tsv), plain or as the
``.tsv.tar.gz`` upstream ships.

The language pair: ``lp`` when given (``--lp``), else the one ``:xx-yy`` suffix every doc name carries
(Marot's convention), else the file name (``mqm_ted_ende.tsv`` → ``en-de``).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from housestyle.pipelines.errors import ConfigError, InputError
from housestyle.pipelines.metaeval import mqm_marot, mqm_ted
from housestyle.pipelines.metaeval.mqm_score import (
    DEFAULT_WEIGHTS,
    Layout,
    MqmData,
    WeightRule,
    Weighting,
    error_weight,
    score_rows,
    strip_spans,
    weights_signature,
)
from housestyle.pipelines.metaeval.mqm_tsv import tsv_records

__all__ = ["DEFAULT_WEIGHTS", "LAYOUTS", "MqmData", "WeightRule", "check_lp", "error_weight", "layout_for",
           "load_mqm", "lp_from_path", "sniff_layout", "strip_spans", "weights_signature"]

LAYOUTS: tuple[Layout, ...] = (mqm_ted.LAYOUT, mqm_marot.LAYOUT)
_LP_RE = re.compile(r"^([a-z]{2,3})-?([a-z]{2,3})$")
LP_RE = re.compile(r"[a-z]{2,3}-[a-z]{2,3}")  # src-tgt ISO 639 codes; MqmData.tgt_lang splits on the dash
_DOC_LP_RE = re.compile(r":([a-z]{2,3})-([a-z]{2,3})$")


def check_lp(lp: str) -> str:
    """A language pair given by the user: ``src-tgt`` two- or three-letter codes (``en-de``, ``zh-en``)."""
    if not LP_RE.fullmatch(lp):
        raise ConfigError(f"--lp {lp[:40]!r} is not a language pair like en-de")
    return lp


def lp_from_path(path: Path) -> str:
    """``mqm_ted_ende.tsv`` → ``en-de``; otherwise the file name without extensions."""
    stem = path.name.split(".")[0]
    last = re.split(r"[_.]", stem)[-1]
    match = _LP_RE.match(last)
    return f"{match.group(1)}-{match.group(2)}" if match else stem


def _lp_from_docs(docs: list[str]) -> str | None:
    found = {m.group(1) + "-" + m.group(2) for m in (_DOC_LP_RE.search(d) for d in docs) if m}
    return found.pop() if len(found) == 1 and all(_DOC_LP_RE.search(d) for d in docs) else None


def layout_for(header: list[str], path: Path) -> Layout:
    """The registered layout whose header this is; a one-line InputError listing them otherwise."""
    for layout in LAYOUTS:
        if layout.matches(header):
            return layout
    known = "; ".join(layout.description for layout in LAYOUTS)
    raise InputError(f"not a known MQM layout (header {header[:12]}); expected {known}", path=str(path), location=1)


def _header(path: Path, records: Iterator[tuple[int, list[str]]]) -> tuple[list[str], Layout]:
    first = next(records, None)
    if first is None:
        raise InputError("empty MQM file (no header line)", path=str(path), location=1)
    header = [h.strip() for h in first[1]]
    return header, layout_for(header, path)


def sniff_layout(path: Path | str) -> Layout:
    """The file's layout from its header line alone (milliseconds): a wrong or empty file is refused
    before any other file is read in full."""
    records = tsv_records(Path(path))
    try:
        return _header(Path(path), records)[1]
    finally:
        records.close()


def _file_sha(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def load_mqm(path: Path | str, *, lp: str | None = None, weights: tuple[Weighting, ...] | None = None) -> MqmData:
    """Read and score one MQM file; every malformed line is an InputError naming file and line.
    ``weights`` default to the layout's own (TED: mt-metrics-eval; Marot: Marot's defaults)."""
    path = Path(path)
    records = tsv_records(path)
    header, layout = _header(path, records)
    rules = layout.weights if weights is None else weights
    dropped: Counter[str] = Counter()
    segments, errors = score_rows(layout.rows(path, header, records, dropped), path=path, weights=rules)
    name = lp or _lp_from_docs(segments["doc"].unique().to_list()) or lp_from_path(path)
    signature = (f"mqm|layout:{layout.name}|lp:{name}|weights:{weights_signature(rules)}|seg:mean-over-raters"
                 f"|sys:mean-over-segs|sha256:{_file_sha(path)}")
    if dropped:
        signature += "|dropped:" + ",".join(f"{k}={v}" for k, v in sorted(dropped.items()))
    return MqmData(path=path, lp=name, segments=segments, errors=errors, signature=signature, layout=layout.name,
                   dropped=dict(dropped))
