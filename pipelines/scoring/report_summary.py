"""The top of the report: the per-system summary table (the page's first table), the set's status
mix and which statuses were scored, and the audit label."""

from __future__ import annotations

from html import escape
from typing import Any

import polars as pl

from housestyle.pipelines.scoring.report_html import fmt
from housestyle.pipelines.scoring.summary import ADEQUACY_METRICS, KIND_PREFIX

MIX_ORDER = ("validated", "candidate", "indicative", "rejected")  # the ones a reader asks about first


def summary_table(summary: pl.DataFrame, references: str) -> str:
    """Systems × (SCS overall, SCS per rule kind | coverage, missing | BLEU, chrF): the SCS columns,
    coverage and adequacy are separate column groups, never one number; the best SCS is bold."""
    kinds = [c for c in summary.columns if c.startswith(KIND_PREFIX)]
    adequacy = [m for m in ADEQUACY_METRICS if m in summary.columns]
    refs = f" vs {escape(references)}" if references else " (no reference given)"
    head1 = (f'<tr><th rowspan="2">system</th><th class="grp" colspan="{2 + len(kinds)}">style compliance (SCS)</th>'
             f'<th class="grp" colspan="2">coverage</th>'
             f'<th class="grp adq" colspan="{len(adequacy)}">adequacy{refs}, beside the SCS, never merged</th></tr>')
    head2 = ('<tr><th class="num">SCS, all items</th><th class="num">items (passed/scored)</th>'
             + "".join(f'<th class="num">{escape(k.removeprefix(KIND_PREFIX))}</th>' for k in kinds)
             + '<th class="num">produced</th><th class="num">missing</th>'
             + "".join(f'<th class="num adq">{m}</th>' for m in adequacy) + "</tr>")
    rows = []
    for r in summary.iter_rows(named=True):
        best = " best" if r["best"] else ""
        cells = [f"<td>{escape(r['system'])}</td>",
                 f'<td class="num{best}" title="100 × passed / scored items">{fmt(r["scs"])}</td>',
                 f'<td class="num">{r["passed"]:,}/{r["scored"]:,}</td>']
        cells += [f'<td class="num">{fmt(r[k])}</td>' for k in kinds]
        cells += [f'<td class="num">{fmt(r["coverage"])}%</td>' if r["coverage"] is not None else '<td class="num">—</td>',
                  f'<td class="num">{r["missing"] if r["missing"] is not None else "—"}</td>']
        cells += [f'<td class="num adq">{fmt(r[m], 2)}</td>' for m in adequacy]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table id="summary">{head1}{head2}{"".join(rows)}</table>'


def status_line(run: dict[str, Any], conventions: list[dict[str, Any]]) -> str:
    """'Convention set: N conventions — validated a · candidate b · rejected c (not scored). Scored:
    candidate + validated.' Runs recorded before status selection show the run's own conventions."""
    statuses = run.get("statuses")
    mix: dict[str, int] = dict(run.get("status_mix") or {})
    if not mix:  # a run from before status selection: its conventions are what it scored
        for c in conventions:
            mix[c.get("status") or "candidate"] = mix.get(c.get("status") or "candidate", 0) + 1
    names = [s for s in MIX_ORDER if s in ("validated", "candidate", "rejected") or mix.get(s)]
    names += sorted(set(mix) - set(names))
    parts = []
    for name in names:
        skipped = statuses is not None and name not in statuses
        parts.append(f"{name} <b>{mix.get(name, 0):,}</b>" + (" (not scored)" if skipped else ""))
    scored = " + ".join(statuses) if statuses is not None else "every status (run made before status selection)"
    total = sum(mix.values())
    left = run.get("left_out") or {}
    left_text = (" · left out: " + ", ".join(f"{n:,} {s}" for s, n in left.items())) if left else ""
    n_scored = run.get("conventions", len(conventions))
    return (f'<p id="statuses">Convention set: {total:,} conventions — {" · ".join(parts)}. '
            f"Statuses scored: <b>{escape(scored)}</b> ({n_scored:,} conventions scored{escape(left_text)}).</p>")


def audit_label(status: str, detail: str) -> str:
    """The audit label: a score is ``unaudited`` until someone acknowledged its failure list."""
    cls = "audited" if status == "audited" else "unaudited"
    return f'<p><span class="label {cls}">{cls}</span> {escape(detail)}</p>'
