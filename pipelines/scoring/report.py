"""The self-contained HTML report of a scoring run, laid out as a to-do list (inline CSS, a few lines
of inline JS for the search box, no external files, no network).

It is rendered from the files of the run directory alone (scores, dimension scores, failures,
adequacy, coverage, run.json, audit.json, conventions.jsonl), so re-rendering after an
acknowledgement can never show different figures. From the top: the per-system summary (the
page's first table: SCS overall and per rule kind, coverage, BLEU and chrF in their own columns),
the set's status mix and the statuses scored, the audit label; then where the systems differ
(``report_differ``), and at the bottom the signature and the full adequacy table. The page
shows a few failures per dimension; failures.parquet holds every one.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines import atomic
from housestyle.pipelines.scoring.audit import audit_status
from housestyle.pipelines.scoring.differ import dimension_order
from housestyle.pipelines.scoring.report_differ import EXAMPLE_DIMENSIONS, EXAMPLES_PER_SYSTEM, differ_section
from housestyle.pipelines.scoring.report_issues import to_fix_section, verdict_table
from housestyle.pipelines.scoring.verdicts import run_threshold, system_verdicts
from housestyle.pipelines.scoring.report_html import CSS, NO_SCORE, SEARCH_JS, highlight, visible
from housestyle.pipelines.scoring.report_summary import audit_label, status_line, summary_table
from housestyle.pipelines.scoring.run_record import REPORT_FILE, open_run
from housestyle.pipelines.scoring.summary import adequacy_references, system_summary

__all__ = ["NO_SCORE", "highlight", "render", "visible", "write_report"]


def _adequacy_table(adequacy: pl.DataFrame) -> str:
    if adequacy.is_empty():
        return "<p>No reference given: adequacy not computed.</p>"
    cols = [c for c in adequacy.columns if c != "signature"]
    head = "".join(f"<th>{escape(c)}</th>" for c in cols)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(f'{v:.2f}' if isinstance(v, float) else str(v))}</td>" for v in row) + "</tr>"
        for row in adequacy.select(cols).iter_rows())
    sigs = "".join(f'<div class="sig">{escape(s)}</div><br>' for s in adequacy["signature"].unique(maintain_order=True))
    return f"<table><tr>{head}</tr>{body}</table>{sigs}"


def _conventions(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / "conventions.jsonl"
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def render(run_dir: Path) -> str:
    """The report HTML for a complete run directory (an incomplete one is refused: ``run_record``)."""
    run = open_run(run_dir)
    scores = pl.read_parquet(run_dir / "scores.parquet")
    dims = pl.read_parquet(run_dir / "dimension_scores.parquet")
    failures = pl.read_parquet(run_dir / "failures.parquet")
    coverage = pl.read_parquet(run_dir / "coverage.parquet")
    adequacy = pl.read_parquet(run_dir / "adequacy.parquet")
    conventions = _conventions(run_dir)
    systems = list(run.get("systems") or coverage["system"].to_list())
    summary = system_summary(scores, coverage, adequacy, systems)
    order = dimension_order(dims, scores)
    status, detail = audit_status(run_dir)
    verdicts = system_verdicts(scores, coverage, systems, run_threshold(run))
    title = (f"{run.get('client') or 'housestyle'} · set {run.get('set_version')} · "
             f"{', '.join(systems) or 'no system'}")
    differ = f"""<h2>Where systems differ</h2>
<p class="muted">Dimensions ordered by (gap between the systems' scores) × (items affected); cells are
score (passed/scored). The first {EXAMPLE_DIMENSIONS} dimensions show up to {EXAMPLES_PER_SYSTEM} failed items per
system, offending characters marked (⍽ = U+00A0, ˽ = U+202F, ␣ = plain space inside a mark).</p>
<p><input id="q" type="search" placeholder="filter dimensions, e.g. term: or punct:" aria-label="filter dimensions">
<span id="qn" class="muted"></span></p>
{differ_section(order, dims, failures, systems, conventions)}""" if len(systems) > 1 else ""
    builtin = (f" Built-in checks (no mined rule needed): {escape(', '.join(run['builtin']))}."
               if run.get("builtin") else "")
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>{escape(title)} — housestyle report</title><style>{CSS}</style></head><body>
<h1>{escape(title)}</h1>
<p class="muted">Client {escape(str(run.get('client') or '—'))} · convention set {escape(str(run.get('set_version')))}
· systems {escape(', '.join(systems))} · run {escape(run['run_id'])}</p>
{verdict_table(verdicts)}
{summary_table(summary, adequacy_references(adequacy))}
{status_line(run, conventions)}
{audit_label(status, detail)}
<p class="muted">Convention set {escape(str(run.get('set_version')))} · {run.get('segments', '?')} source segments ·
created {escape(str(run.get('created_at', '')))}. SCS = 100 × passed / scored items (overall and per rule kind);
segments a system did not produce are <em>missing</em> (coverage), not failures; BLEU and chrF are adequacy,
reported beside the SCS and never merged into it. The best SCS is in bold. A failure is <em>new</em> unless the
client's approved target of the segment fails it too (<em>inherited</em>); the verdict counts new errors only.{builtin}</p>
<h2>To fix, most severe first</h2>
<p class="muted">Every failed item, source and output (offending characters marked: ⍽ = U+00A0, ˽ = U+202F,
␣ = plain space), is in <code>issues.xlsx</code> beside this page (mark <code>ignore</code> for a false alarm and
run <code>housestyle ignore-import</code>); all {failures.height:,} failed items are in <code>failures.parquet</code>.</p>
{to_fix_section(failures, systems)}
{differ}
<h2>Signature and adequacy</h2>
<p>Signature: <span class="sig">{escape(run['signature'])}</span></p>
<details><summary>Adequacy, every reference combination</summary>{_adequacy_table(adequacy)}</details>
{f"<script>{SEARCH_JS}</script>" if len(systems) > 1 else ""}
</body></html>
"""


def write_report(run_dir: Path) -> Path:
    """(Re)write report.html atomically."""
    return atomic.write_text(run_dir / REPORT_FILE, render(run_dir))
