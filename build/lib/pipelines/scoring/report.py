"""The self-contained HTML report of a scoring run (inline CSS, no scripts, no external files).

It is rendered from the files of the run directory alone (scores, failures, adequacy, coverage,
run.json, audit.json, conventions.jsonl), so re-rendering after an acknowledgement can never show
different figures. Sections: audit label, signature, systems × dimensions heat map, coverage,
adequacy (separate table, never merged), dimension notes, and the failure list with the offending
characters highlighted (capped per system × dimension; failures.parquet holds every row).
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

import polars as pl

FAILURES_SHOWN = 25  # per system × dimension in the HTML; the parquet file has them all

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}.sig{font-family:monospace;background:#f4f4f4;padding:4px 8px;display:inline-block}
.label{font-weight:bold;padding:6px 10px;display:inline-block;border-radius:4px}.unaudited{background:#fde2b5}.audited{background:#c8ecc8}
mark{background:#ff8a80;outline:1px solid #c62828}.out{font-family:monospace;white-space:pre-wrap}.ws{color:#c62828}
details{margin:.3em 0}summary{cursor:pointer}.muted{color:#777}
"""


def heat(score: float | None) -> str:
    """Cell colour: red (0) → yellow → green (100); grey when nothing was scored."""
    if score is None:
        return "#eeeeee"
    return f"hsl({int(score * 1.2)},70%,78%)"


def visible(text: str) -> str:
    """Escape, and make invisible characters visible (NBSP ⍽, narrow NBSP, plain space inside a
    highlight) because the conventions are often ABOUT them."""
    out = escape(text)
    return out.replace("\u00a0", '<span class="ws" title="U+00A0">⍽</span>').replace(
        "\u202f", '<span class="ws" title="U+202F">˽</span>'
    )


def highlight(output: str, spans: list[dict[str, int]]) -> str:
    """The output with each failing span in <mark> (raw offsets; overlapping spans merged)."""
    merged: list[list[int]] = []
    for span in sorted(spans, key=lambda s: (s["start"], s["end"])):
        if merged and span["start"] <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], span["end"])
        else:
            merged.append([span["start"], span["end"]])
    parts, pos = [], 0
    for start, end in merged:
        parts.append(visible(output[pos:start]))
        inner = visible(output[start:end]).replace(" ", '<span class="ws" title="U+0020">␣</span>')
        parts.append(f"<mark>{inner or '∅'}</mark>")
        pos = end
    parts.append(visible(output[pos:]))
    return "".join(parts)


def _table(frame: pl.DataFrame, numeric: set[str]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in frame.columns)
    body = []
    for row in frame.iter_rows():
        cells = []
        for name, value in zip(frame.columns, row):
            text = "" if value is None else (f"{value:.2f}" if isinstance(value, float) else str(value))
            cls = ' class="num"' if name in numeric else ""
            cells.append(f"<td{cls}>{escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _heatmap(dims: pl.DataFrame, systems: list[str]) -> str:
    head = "<th>dimension</th>" + "".join(f"<th>{escape(s)}</th>" for s in systems)
    rows = []
    for dim in sorted(dims["dimension"].unique().to_list()):
        cells = [f"<td>{escape(dim)}</td>"]
        for system in systems:
            hit = dims.filter((pl.col("dimension") == dim) & (pl.col("system") == system))
            if hit.is_empty():
                cells.append("<td></td>")
                continue
            r = hit.row(0, named=True)
            score = r["score"]
            label = "n/a" if score is None else f"{score:.1f}"
            title = f"{r['passed']}/{r['scored']} passed, {r['missing']} missing"
            cells.append(
                f'<td class="num" style="background:{heat(score)}" title="{escape(title)}">{label}'
                f' <span class="muted">({r["passed"]}/{r["scored"]})</span></td>'
            )
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def _failures(failures: pl.DataFrame, systems: list[str]) -> str:
    blocks = []
    for system in systems:
        mine = failures.filter(pl.col("system") == system)
        for (dim,), group in sorted(mine.group_by("dimension"), key=lambda kv: str(kv[0][0])):
            items = []
            for r in group.head(FAILURES_SHOWN).iter_rows(named=True):
                missing = ", ".join(escape(m) for m in r["missing_expected"]) or "—"
                wrong = ", ".join(visible(w) for w in r["found_wrong"]) or "—"
                items.append(
                    f"<tr><td>{escape(r['segment_id'])}</td><td>{escape(r['source'])}</td>"
                    f"<td class=\"out\">{highlight(r['output'], r['spans'])}</td>"
                    f"<td>{missing}</td><td>{wrong}</td><td>{escape(r['match_mode'])}</td></tr>"
                )
            more = len(group) - FAILURES_SHOWN
            tail = f'<p class="muted">… and {more} more in failures.parquet</p>' if more > 0 else ""
            blocks.append(
                f"<details><summary>{escape(system)} · {escape(str(dim))} · {len(group)} failed items</summary>"
                "<table><tr><th>segment</th><th>source</th><th>output (offending characters marked)</th>"
                f"<th>missing expected</th><th>wrong found</th><th>mode</th></tr>{''.join(items)}</table>{tail}</details>"
            )
    return "".join(blocks) or "<p>No failed items.</p>"


def _notes(conventions: list[dict[str, Any]]) -> str:
    rows = []
    for c in sorted(conventions, key=lambda c: (c["dimension"], c.get("convention_id", ""))):
        rows.append(
            f"<tr><td>{escape(c['dimension'])}</td><td>{escape(c['rule'])}</td><td>{escape(c.get('match_mode') or '')}</td>"
            f"<td>{escape(c.get('origin') or '')}</td><td>{escape(c.get('note') or '')}</td></tr>"
        )
    return (
        "<table><tr><th>dimension</th><th>rule</th><th>mode</th><th>origin</th><th>why / evidence</th></tr>"
        + "".join(rows) + "</table>"
    )


def render(run_dir: Path) -> str:
    """The report HTML for a run directory."""
    from pipelines.scoring.audit import audit_status  # audit re-renders reports: import lazily

    run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    scores = pl.read_parquet(run_dir / "scores.parquet")
    dims = pl.read_parquet(run_dir / "dimension_scores.parquet")
    failures = pl.read_parquet(run_dir / "failures.parquet")
    coverage = pl.read_parquet(run_dir / "coverage.parquet")
    adequacy = pl.read_parquet(run_dir / "adequacy.parquet")
    conv_path = run_dir / "conventions.jsonl"
    conventions = [json.loads(x) for x in conv_path.read_text(encoding="utf-8").splitlines() if x.strip()] if conv_path.exists() else []
    systems = list(dict.fromkeys(scores["system"].to_list())) or list(coverage["system"])
    status, detail = audit_status(run_dir)
    label = (
        f'<span class="label audited">audited</span> {escape(detail)}' if status == "audited"
        else f'<span class="label unaudited">unaudited</span> {escape(detail)}'
    )
    adequacy_html = (
        _table(adequacy.drop("signature"), {"score", "segments", "missing", "n_refs"})
        + "".join(f'<div class="sig">{escape(s)}</div><br>' for s in adequacy["signature"].unique(maintain_order=True))
        if not adequacy.is_empty() else "<p>No reference given: adequacy not computed.</p>"
    )
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>housestyle scoring run {escape(run['run_id'])}</title><style>{_CSS}</style></head><body>
<h1>Style compliance score (SCS) — run {escape(run['run_id'])}</h1>
<p>{label}</p>
<p>Signature: <span class="sig">{escape(run['signature'])}</span></p>
<p class="muted">Convention set {escape(str(run.get('set_version')))} · {len(conventions)} conventions ·
{run.get('segments', '?')} source segments · created {escape(str(run.get('created_at', '')))}.
Score = 100 × passed / scored items; items a system did not produce are <em>missing</em>, not failures.</p>
<h2>Systems × dimensions</h2>{_heatmap(dims, systems)}
<h2>Coverage</h2>{_table(coverage, {"segments", "produced", "missing", "extra_ids"})}
<h2>Adequacy (reported beside the SCS, never merged)</h2>{adequacy_html}
<h2>Dimensions: what each convention checks and why</h2>{_notes(conventions)}
<h2>Failure list</h2><p class="muted">Up to {FAILURES_SHOWN} items per system × dimension;
failures.parquet holds all {len(failures)}. ⍽ = U+00A0, ˽ = U+202F, ␣ = plain space inside a mark.</p>
{_failures(failures, systems)}
</body></html>
"""


def write_report(run_dir: Path) -> Path:
    """(Re)write report.html atomically."""
    path = run_dir / "report.html"
    tmp = run_dir / "report.html.tmp"
    tmp.write_text(render(run_dir), encoding="utf-8")
    tmp.replace(path)
    return path
