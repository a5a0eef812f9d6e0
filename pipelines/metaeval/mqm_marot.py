"""Marot's layout (Google's current files, e.g. generalMT2023 side-by-side): ten fields
``system doc docSegId globalSegId rater source target category severity metadata``.

As upstream publishes it (google-research marot/README.md "Data file format"; marot.js):
- the header may carry an 11th name, a ``# Documentation: …`` comment, over 10-field rows;
- a segment is (doc, docSegId); globalSegId is optional (may be constant), so it is the seg_id only
  when it identifies the segments one-to-one, else segments are numbered in order of appearance;
- severity ``HOTW-test`` rows are hands-on-the-wheel attention checks (category Found / Missed, an
  injected error): dropped and counted (``attention_check``), never scored; rows with an empty rater
  carry metadata only: dropped and counted (``metadata_only``);
- the ``metadata`` JSON is not parsed (it can be large and is not needed to score);
- source/target texts lose their ``<v>`` span marks and surrounding whitespace (a marked trailing
  space would otherwise make one rater's copy differ from another's).
Weights: Marot's defaults (``mqmDefaultWeights`` in marot.js), patterns searched case-insensitively in
``severity:category``, first match wins: Minor punctuation / trivial 0.1, Creative Reinterpretation 0,
Source issue 0, Non-translation 25, Minor 1, Major 5, Critical 5; No-error and Neutral weigh 0 (Marot
gives 0 to anything unmatched; here any other severity is refused, as in the TED layout).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.metaeval.mqm_score import Layout, MqmRow, Records, strip_spans

COLUMNS = ("system", "doc", "docSegId", "globalSegId", "rater", "source", "target", "category", "severity", "metadata")
LEGACY_LAST = "note"  # Marot's legacy files name the 10th column ``note``
_NUMBER = re.compile(r"[0-9]{1,12}")


@dataclass(frozen=True)
class MarotRule:
    """One Marot weighting: a case-insensitive regex searched in ``severity:category``."""

    name: str
    pattern: str
    weight: float

    def matches(self, severity: str, category: str) -> bool:
        return re.search(self.pattern, f"{severity}:{category}", flags=re.IGNORECASE) is not None

    def describe(self) -> str:
        return f"{self.name}={self.weight:g}"


MAROT_WEIGHTS: tuple[MarotRule, ...] = (
    MarotRule("Trivial", r"minor:.*punctuation|trivial:", 0.1),
    MarotRule("Creative", r":.*reinterpretation", 0.0),
    MarotRule("Source", r":source", 0.0),
    MarotRule("Non-trans", r"non.translation", 25.0),
    MarotRule("Minor", r"minor:", 1.0),
    MarotRule("Major", r"major:", 5.0),
    MarotRule("Critical", r"critical:", 5.0),
    MarotRule("No-error", r"^no.error:", 0.0),
    MarotRule("Neutral", r"^neutral:", 0.0),
)


def matches(header: list[str]) -> bool:
    return header[2:4] == ["docSegId", "globalSegId"]


def _check_header(path: Path, header: list[str]) -> int:
    names, extra = header[: len(COLUMNS)], header[len(COLUMNS):]
    if names[:-1] != list(COLUMNS[:-1]) or names[-1] not in (COLUMNS[-1], LEGACY_LAST):
        raise InputError(f"Marot header must be {list(COLUMNS)}; found {header[:12]}", path=str(path), location=1)
    if any(not name.startswith("#") for name in extra):
        raise InputError(f"Marot header has {len(header)} names; only a '# …' comment may follow the ten columns",
                         path=str(path), location=1)
    return len(COLUMNS)


def rows(path: Path, header: list[str], records: Records, dropped: Counter[str]) -> Iterator[MqmRow]:
    width = _check_header(path, header)
    for line, fields in records:
        if len(fields) != width:
            raise InputError(f"expected {width} tab-separated fields, found {len(fields)}", path=str(path),
                             location=line)
        system, doc, doc_seg, global_seg, rater, source, target, category, severity, _meta = fields
        if severity.strip().casefold() == "hotw-test":
            dropped["attention_check"] += 1
            continue
        if not rater.strip():
            dropped["metadata_only"] += 1
            continue
        if not _NUMBER.fullmatch(doc_seg.strip()):
            raise InputError(f"docSegId {doc_seg[:40]!r} is not a non-negative integer", path=str(path), location=line)
        number = global_seg.strip()
        yield MqmRow(line=line, system=system, unit=f"{doc}#{int(doc_seg)}", seg_id=int(number) if _NUMBER.fullmatch(number) else None,
                     doc=doc, rater=rater, source=strip_spans(source).strip(), target=strip_spans(target).strip(),
                     category=category.strip(), severity=severity.strip())


LAYOUT = Layout("marot", "Marot: system, doc, docSegId, globalSegId, rater, source, target, category, severity, metadata",
                matches, rows, MAROT_WEIGHTS)
