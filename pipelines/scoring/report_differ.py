"""The report's to-do list: the dimensions where the systems differ, most important first
(``differ.dimension_order``), grouped per rule kind in collapsible groups, a few highlighted failures
per system for the first ones, and one line for everything every system passes.

The page stays small on a large set (thousands of dimensions): each open dimension is one row;
examples are shown for the first ``EXAMPLE_DIMENSIONS`` of them only, at most
``EXAMPLES_PER_SYSTEM`` per system, cut around the marked characters. failures.parquet has every
failed item.
"""

from __future__ import annotations

from html import escape
from typing import Any

import polars as pl

from housestyle.pipelines.conventions.factors import literal_forms
from housestyle.pipelines.scoring.differ import NOT_APPLICABLE, OPEN, settled_totals
from housestyle.pipelines.scoring.report_html import CONTEXT_CHARS, fmt, highlight, score_cell, visible

EXAMPLE_DIMENSIONS = 150  # dimensions (in page order) that get example failures
EXAMPLES_PER_SYSTEM = 3
PARAMS_CHARS = 120


def _forms(entries: list[str], is_regex: bool) -> str:
    shown: list[str] = []
    for entry in entries:
        forms = literal_forms(entry, is_regex)
        shown.extend(forms if forms is not None else (f"/{entry}/",))
    return ", ".join(f"<code>{visible(s)}</code>" for s in shown[:6]) + (" …" if len(shown) > 6 else "")


def checks(conventions: list[dict[str, Any]], dimension: str) -> str:
    """What a dimension's conventions check, for people: 'expects … · bans …' (literal forms, not regexes)."""
    parts = []
    for c in (c for c in conventions if c.get("dimension") == dimension):
        expected, wrong = c.get("expected_terms") or [], c.get("wrong_variants") or []
        bits = ([f"expects {_forms(expected, bool(c.get('regex')))}"] if expected else []) + (
            [f"bans {_forms(wrong, bool(c.get('regex')))}"] if wrong else [])
        params = str(c.get("params") or "")
        params = params if len(params) <= PARAMS_CHARS else params[:PARAMS_CHARS] + " …"  # a casing keep-list is long
        what = " · ".join(bits) or escape(f"{c.get('rule')} rule {params}".strip())
        parts.append(f"{what} <span class=\"muted\">({escape(str(c.get('match_mode') or 'exact'))})</span>")
    return "; ".join(parts[:3]) + (f" … (+{len(parts) - 3} conventions)" if len(parts) > 3 else "")


def _examples(failures: pl.DataFrame, dims: list[str]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """(system, dimension) → its first failed items (segment order), for the dimensions shown."""
    if not dims or failures.is_empty():
        return {}
    firsts = (failures.filter(pl.col("dimension").is_in(dims))
              .filter(pl.int_range(pl.len()).over("system", "dimension") < EXAMPLES_PER_SYSTEM))
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in firsts.iter_rows(named=True):
        out.setdefault((r["system"], r["dimension"]), []).append(r)
    return out


def _still_regex(row: dict[str, Any], regex_of: dict[str, bool]) -> bool:
    """Whether a failure's ``missing_expected`` holds regexes (runs from before the literal forms
    moved there, ``verdicts.readable``); newer runs carry ``missing_expected_regex`` beside them."""
    return regex_of.get(row["convention_id"], False) and "missing_expected_regex" not in row


def _example_row(dim: str, width: int, systems: list[str], cells: dict[tuple[str, str], dict[str, Any]],
                 examples: dict[tuple[str, str], list[dict[str, Any]]], conventions: list[dict[str, Any]]) -> str:
    blocks = [f'<div class="muted">checks: {checks(conventions, dim)}</div>']
    # a missing regex entry is shown by its literal forms, as under "checks" (the miner's entries
    # carry long word-boundary lookarounds no reader needs to see)
    regex_of = {c["convention_id"]: bool(c.get("regex")) for c in conventions if c.get("dimension") == dim}
    for system in systems:
        cell = cells.get((system, dim))
        failed = 0 if cell is None else cell["scored"] - cell["passed"]
        if failed == 0:
            continue
        shown = examples.get((system, dim), [])
        items = "".join(
            f'<li><span class="muted">{escape(r["segment_id"])}</span> '
            f'<span class="out">{highlight(r["output"], r["spans"], CONTEXT_CHARS)}</span>'
            f' <span class="muted">← source:</span> <span class="out">{visible((r.get("source") or "")[:3 * CONTEXT_CHARS])}</span>'
            + (f' <span class="muted">missing: {_forms(list(r["missing_expected"]), _still_regex(r, regex_of))}</span>'
               if r["missing_expected"] else "") + "</li>"
            for r in shown)
        rest = failed - len(shown)
        more = f'<div class="muted">… and {rest:,} more in failures.parquet</div>' if rest > 0 else ""
        blocks.append(f"<b>{escape(system)}</b>: {failed:,} failed<ul class=\"ex\">{items}</ul>{more}")
    return f'<tr class="ex" data-k="{escape(dim.lower())}"><td colspan="{width}">{"".join(blocks)}</td></tr>'


def differ_section(order: pl.DataFrame, dimension_scores: pl.DataFrame, failures: pl.DataFrame,
                   systems: list[str], conventions: list[dict[str, Any]]) -> str:
    """'Where systems differ': one collapsible group per rule kind (groups ordered by their top
    dimension), the settled line, and the not-applicable line."""
    open_dims = order.filter(pl.col("state") == OPEN)
    with_examples = open_dims["dimension"].head(EXAMPLE_DIMENSIONS).to_list()
    examples = _examples(failures, with_examples)
    shown = set(with_examples)
    cells = {(r["system"], r["dimension"]): r for r in dimension_scores.iter_rows(named=True)}
    width = 4 + len(systems)
    head = ("<tr><th>dimension</th><th class=\"num\">gap</th><th class=\"num\">items</th>"
            + "".join(f"<th class=\"num\">{escape(s)}</th>" for s in systems) + "<th class=\"num\">failed items</th></tr>")
    groups = []
    kinds = open_dims["rule"].unique(maintain_order=True).to_list()  # first appearance = the group's top weight
    for kind in kinds:
        mine = open_dims.filter(pl.col("rule") == kind)
        rows = []
        for r in mine.iter_rows(named=True):
            dim = r["dimension"]
            key = escape(dim.lower())
            score_cells = "".join(
                score_cell(c["score"], c["passed"], c["scored"], f", {c['missing']} missing") if (c := cells.get((s, dim)))
                else "<td></td>" for s in systems)
            vac = ' <span class="muted">(vacuous)</span>' if r["vacuous"] else ""
            rows.append(f'<tr data-k="{key}"><td>{escape(dim)}{vac}</td><td class="num">{fmt(r["gap"])}</td>'
                        f'<td class="num">{r["items"]:,}</td>{score_cells}<td class="num">{r["failed"]:,}</td></tr>')
            if dim in shown:
                rows.append(_example_row(dim, width, systems, cells, examples, conventions))
        groups.append(f"<details open><summary>{escape(str(kind))} · {mine.height:,} dimension(s) to look at, "
                      f"{int(mine['failed'].sum()):,} failed items</summary><table>{head}{''.join(rows)}</table></details>")
    settled = settled_totals(order, dimension_scores)
    vacuous = f"; {settled['vacuous']:,} of them vacuous (they check nothing)" if settled["vacuous"] else ""
    n_na = order.filter(pl.col("state") == NOT_APPLICABLE)
    na_line = (f'<p class="muted">not applicable here: {int(n_na["conventions"].sum()):,} conventions '
               f"({n_na.height:,} dimensions) apply to no source segment of this run.</p>") if n_na.height else ""
    return (
        f'<p class="settled">settled: {settled["conventions"]:,} conventions, {settled["items"]:,} items — every system '
        f'passes them ({settled["dimensions"]:,} dimensions{vacuous})</p>{na_line}'
        + ("".join(groups) or "<p>No dimension to look at: every system passes every scored item.</p>")
    )
