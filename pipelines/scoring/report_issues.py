"""The report's verdict and to-fix sections: what a project manager acts on.

The verdict table says, per system, pass or fail against the client's threshold on the SCS over
*new* errors, with the new, inherited (the client's approved target fails the same item too) and
ignored counts beside it, and empty outputs as a warning. The to-fix list follows, one collapsible
section per rule kind in severity order (placeholder, numeric, forbidden, term, pattern, casing),
each failure with its source and output (the offending characters marked) and what is missing or
wrong; inherited failures are listed apart under each dimension, never mixed with the new ones.
"""

from __future__ import annotations

from html import escape
from typing import Any

import polars as pl

from housestyle.pipelines.scoring.issues import problem_text
from housestyle.pipelines.scoring.report_html import CONTEXT_CHARS, fmt, highlight, visible
from housestyle.pipelines.scoring.verdicts import severity_rank

NEW_PER_DIMENSION = 5  # new failures shown per system × dimension (issues.xlsx has every one)
INHERITED_PER_DIMENSION = 2
MAX_DIMENSIONS = 120  # dimensions with examples; the rest are one line each


def verdict_table(verdicts: pl.DataFrame) -> str:
    """System × (verdict, SCS over new errors, new, inherited, ignored failures, empty outputs)."""
    rows = []
    for r in verdicts.iter_rows(named=True):
        cls = {"pass": "audited", "fail": "unaudited"}.get(r["verdict"], "")
        empty = f'<td class="num"><b>{r["empty_outputs"]:,}</b> ⚠</td>' if r["empty_outputs"] else '<td class="num">0</td>'
        rows.append(f'<tr><td>{escape(r["system"])}</td><td><span class="label {cls}">{escape(r["verdict"])}</span></td>'
                    f'<td class="num">{fmt(r["scs_new"])}</td><td class="num">{r["new"]:,}</td>'
                    f'<td class="num">{r["inherited"]:,}</td><td class="num">{r["ignored"]:,}</td>{empty}</tr>')
    threshold = verdicts["threshold"][0] if verdicts.height else None
    warn = "".join(f'<p class="label unaudited">⚠ {escape(r["system"])}: {r["empty_outputs"]:,} empty output(s) for '
                   "non-empty sources (they fail placeholder, number and copy checks as dropped text would)</p>"
                   for r in verdicts.iter_rows(named=True) if r["empty_outputs"])
    return (f'<table id="verdicts"><tr><th>system</th><th>verdict (threshold {fmt(threshold)})</th>'
            '<th class="num">SCS, new errors only</th><th class="num">new failures</th>'
            '<th class="num">inherited from the TM</th><th class="num">ignored</th><th class="num">empty outputs</th>'
            f'</tr>{"".join(rows)}</table>{warn}')


def _item(r: dict[str, Any]) -> str:
    return (f'<li><span class="muted">{escape(r["segment_id"])}</span> — {escape(problem_text(r))}<br>'
            f'<span class="muted">source:</span> <span class="out">{visible(_cut(r["source"] or ""))}</span><br>'
            f'<span class="muted">output:</span> {_output(r)}</li>')


def _output(r: dict[str, Any]) -> str:
    if not (r["output"] or "").strip():
        return '<em class="muted">(empty output)</em>'
    return f'<span class="out">{highlight(r["output"], r["spans"] or [], CONTEXT_CHARS)}</span>'


def _cut(text: str) -> str:
    return text if len(text) <= 3 * CONTEXT_CHARS else text[:3 * CONTEXT_CHARS] + "…"


def _dimension(dim: str, rows: pl.DataFrame, systems: list[str], with_examples: bool) -> str:
    parts = []
    for system in systems:
        mine = rows.filter(pl.col("system") == system)
        if mine.is_empty():
            continue
        new = mine.filter(~pl.col("inherited").fill_null(False))
        inherited = mine.filter(pl.col("inherited").fill_null(False))
        label = f"<b>{escape(system)}</b>: " if len(systems) > 1 else ""
        line = f"{label}{new.height:,} new, {inherited.height:,} inherited"
        if not with_examples:
            parts.append(f"<div>{line}</div>")
            continue
        shown = "".join(_item(r) for r in new.head(NEW_PER_DIMENSION).iter_rows(named=True))
        more = f'<div class="muted">… {new.height - NEW_PER_DIMENSION:,} more new in issues.xlsx</div>' \
            if new.height > NEW_PER_DIMENSION else ""
        inh = ""
        if inherited.height:
            inh = (f'<details><summary class="muted">inherited: {inherited.height:,} (the approved target fails them '
                   f'too)</summary><ul class="ex">'
                   + "".join(_item(r) for r in inherited.head(INHERITED_PER_DIMENSION).iter_rows(named=True))
                   + "</ul></details>")
        parts.append(f'<div>{line}<ul class="ex">{shown}</ul>{more}{inh}</div>')
    return f'<tr data-k="{escape(dim.lower())}"><td>{escape(dim)}</td><td>{"".join(parts)}</td></tr>'


def to_fix_section(failures: pl.DataFrame, systems: list[str]) -> str:
    """One collapsible section per rule kind, most severe first; in each, dimensions with the most new
    failures first. Ignored items are not listed (they are counted in the verdict table)."""
    if failures.is_empty():
        return "<p>No failed item: every system passes every scored item.</p>"
    live = failures.filter(~pl.col("ignored").fill_null(False)) if "ignored" in failures.columns else failures
    if "inherited" not in live.columns:
        live = live.with_columns(pl.lit(None, dtype=pl.Boolean).alias("inherited"))
    kinds = sorted(live["rule"].unique().to_list(), key=lambda k: (severity_rank(k or ""), k or ""))
    sections, shown = [], 0
    for kind in kinds:
        mine = live.filter(pl.col("rule") == kind)
        order = (mine.group_by("dimension").agg((~pl.col("inherited").fill_null(False)).sum().alias("new"), pl.len())
                 .sort("new", "len", "dimension", descending=[True, True, False]))
        rows = []
        for dim in order["dimension"].to_list():
            rows.append(_dimension(dim, mine.filter(pl.col("dimension") == dim), systems, shown < MAX_DIMENSIONS))
            shown += 1
        n_new = int((~mine["inherited"].fill_null(False)).sum())
        sections.append(f'<details{" open" if n_new else ""}><summary>{escape(str(kind))} · {n_new:,} new, '
                        f'{mine.height - n_new:,} inherited failed items in {order.height:,} dimension(s)</summary>'
                        f'<table>{"".join(rows)}</table></details>')
    return "".join(sections)
