"""Real-data check of the checker: German punctuation conventions vs expert MQM annotations.

Data: ../shared/data/wmt-mqm/ted/ende/mqm_ted_ende.tsv (WMT21 TED, en→de; 14 "systems" = 13 MT
systems + ``ref``; every (system, segment) rated once; one row per error, ``No-error`` rows for clean
segments; the error span is marked ``<v>…</v>`` in the target). Conventions:
tests/eval/mqm_punctuation_de.jsonl (authored; spaced hyphen / ``--`` as a dash; straight or
English quotes instead of „“ or »«).

Definitions
- item: one (system, segment) output; every convention here applies to every item (no ``src``).
- annotated positive: the item has at least one ``Fluency/Punctuation`` row (any severity).
- flagged: the convention fails on the item (a wrong variant is present).
- segment-level precision = flagged ∧ annotated / flagged; recall = flagged ∧ annotated / annotated
  (recall against ALL punctuation annotations, including commas no rule here targets).
- span level: a flag is confirmed when one of its spans OVERLAPS an annotated punctuation span
  (offsets in the output with the ``<v>`` tags removed); span precision = flagged items with a
  confirmed flag / flagged; span recall = annotated punctuation spans overlapped by some flag /
  annotated spans; in-scope recall = the same over annotated spans that contain ``-`` or a double
  quote character (what these rules are about).

Run: python -m tests.eval.mqm_punctuation_de [--data ../shared/data] [--out tests/eval/mqm_punctuation_de.md]
"""

from __future__ import annotations

import argparse
import csv
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.scoring.engine import score_systems

REPO = Path(__file__).resolve().parents[2]
TSV = Path("wmt-mqm/ted/ende/mqm_ted_ende.tsv")
CONVENTIONS = REPO / "tests/eval/mqm_punctuation_de.jsonl"
_V_RE = re.compile(r"</?v>")
IN_SCOPE = ('-', '"', "\u201c", "\u201d")


def strip_spans(marked: str) -> tuple[str, list[tuple[int, int]]]:
    """Plain text and the [start, end) spans that were inside <v>…</v>."""
    plain: list[str] = []
    spans: list[tuple[int, int]] = []
    pos, length, start = 0, 0, None
    for match in _V_RE.finditer(marked):
        chunk = marked[pos:match.start()]
        plain.append(chunk)
        length += len(chunk)
        if match.group() == "<v>":
            start = length
        elif start is not None:
            spans.append((start, length))
            start = None
        pos = match.end()
    plain.append(marked[pos:])
    return "".join(plain), spans


def read_mqm(path: Path) -> tuple[dict[str, str], dict[str, dict[str, str]], dict[tuple[str, str], list[tuple[int, int]]]]:
    """sources {seg: text}, outputs {system: {seg: text}}, punctuation spans {(system, seg): spans}."""
    sources: dict[str, str] = {}
    outputs: dict[str, dict[str, str]] = defaultdict(dict)
    punct: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            seg = row["seg_id"]
            text, spans = strip_spans(row["target"])
            previous = outputs[row["system"]].setdefault(seg, text)
            assert previous == text, f"{row['system']} {seg}: rows disagree on the output text"
            sources.setdefault(seg, row["source"])
            if row["category"] == "Fluency/Punctuation":
                punct[(row["system"], seg)].extend(spans or [(0, 0)])
    return sources, dict(outputs), dict(punct)


def _overlaps(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> bool:
    return any(s1 < e2 and s2 < e1 for s1, e1 in a for s2, e2 in b)


def evaluate(data: Path) -> dict[str, Any]:
    conventions = load_conventions(CONVENTIONS)
    sources, outputs, punct = read_mqm(data / TSV)
    result = score_systems(conventions, sources, outputs)
    flags: dict[str, dict[tuple[str, str], list[tuple[int, int]]]] = defaultdict(dict)
    for r in result.failures.iter_rows(named=True):
        spans = [(s["start"], s["end"]) for s in r["spans"]]
        flags[r["dimension"]][(r["system"], r["segment_id"])] = spans
        flags["any rule"].setdefault((r["system"], r["segment_id"]), []).extend(spans)
    items = sum(len(o) for o in outputs.values())
    annotated = set(punct)
    all_spans = [(key, span) for key, spans in punct.items() for span in spans]
    in_scope = [(key, span) for key, span in all_spans
                if any(ch in outputs[key[0]][key[1]][span[0]:span[1]] for ch in IN_SCOPE)]
    rows = []
    for dim in [c.dimension for c in conventions] + ["any rule"]:
        flagged = flags.get(dim, {})
        hit = set(flagged) & annotated
        confirmed = [k for k, sp in flagged.items() if k in punct and _overlaps(sp, punct[k])]
        span_hits = [1 for key, span in all_spans if key in flagged and _overlaps(flagged[key], [span])]
        scope_hits = [1 for key, span in in_scope if key in flagged and _overlaps(flagged[key], [span])]
        rows.append({
            "rule": dim, "flagged": len(flagged), "flagged_annotated": len(hit),
            "seg_precision": len(hit) / len(flagged) if flagged else None,
            "seg_recall": len(hit) / len(annotated) if annotated else None,
            "span_precision": len(confirmed) / len(flagged) if flagged else None,
            "span_recall": len(span_hits) / len(all_spans) if all_spans else None,
            "in_scope_recall": len(scope_hits) / len(in_scope) if in_scope else None,
        })
    per_system = (
        result.scores.group_by("system").agg(pl.col("scored").sum(), pl.col("passed").sum())
        .with_columns((100 * pl.col("passed") / pl.col("scored")).alias("scs"))
        .join(pl.DataFrame({"system": list(outputs),
                            "annotated_punct": [sum(1 for k in annotated if k[0] == s) for s in outputs]}), on="system")
        .sort("scs")
    )
    return {
        "items": items, "systems": sorted(outputs), "annotated_items": len(annotated), "annotated_spans": len(all_spans),
        "in_scope_spans": len(in_scope), "rules": pl.DataFrame(rows), "per_system": per_system,
        "signature": result.signature,
    }


def _md_table(frame: pl.DataFrame) -> str:
    lines = ["| " + " | ".join(frame.columns) + " |", "|" + "---|" * len(frame.columns)]
    for row in frame.iter_rows():
        cells = [("" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)) for v in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="German punctuation conventions vs MQM Fluency/Punctuation")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    res = evaluate(args.data)
    text = "\n".join([
        f"items: {res['items']} ({len(res['systems'])} systems × 529 segments); systems: {', '.join(res['systems'])}",
        f"annotated items (≥1 Fluency/Punctuation row): {res['annotated_items']}; annotated spans: "
        f"{res['annotated_spans']} (in scope, containing - or a double quote: {res['in_scope_spans']})",
        f"signature: {res['signature']}", "", "Per rule:", "", _md_table(res["rules"]), "",
        "Per system (all four conventions pooled; SCS = 100 × passed / scored):", "", _md_table(res["per_system"]),
    ])
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
