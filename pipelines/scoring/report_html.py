"""HTML pieces shared by the report's sections: escaping that shows invisible characters, failure
highlighting at raw offsets, score cells, and the page's inline CSS and search script."""

from __future__ import annotations

import math
from html import escape

NO_SCORE = "—"  # shown where nothing was scored (a header-only system): never "nan" or 0
CONTEXT_CHARS = 90  # characters of output kept on each side of the marked spans in an example

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#222;max-width:110em}
table{border-collapse:collapse;margin:.5em 0 1.2em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}td.best{font-weight:bold}th.grp{text-align:center;background:#f4f4f4}
td.adq,th.adq{background:#f6f8fc}.sig{font-family:monospace;background:#f4f4f4;padding:4px 8px;display:inline-block;word-break:break-all}
.label{font-weight:bold;padding:4px 10px;display:inline-block;border-radius:4px}.unaudited{background:#fde2b5}.audited{background:#c8ecc8}
mark{background:#ff8a80;outline:1px solid #c62828}.out{font-family:monospace;white-space:pre-wrap}.ws{color:#c62828}
details{margin:.4em 0}summary{cursor:pointer;font-weight:600}.muted{color:#777}.settled{background:#eef7ee;padding:4px 10px;display:inline-block}
tr.ex td{background:#fcfcfc;border-top:none}ul.ex{margin:.2em 0 .4em 1.2em;padding:0}ul.ex li{margin:.15em 0}
#q{font-size:15px;padding:4px 8px;width:28em}
"""

# A few lines of inline JS (no network): filter the dimension rows by the search box; a
# ``#q=<text>`` fragment pre-fills it, so a filtered view can be linked (and tested headless).
SEARCH_JS = """
var q=document.getElementById('q');function f(){var v=q.value.toLowerCase(),n=0;
document.querySelectorAll('tr[data-k]').forEach(function(r){var h=v!==''&&r.dataset.k.indexOf(v)<0;r.hidden=h;if(!h&&!r.classList.contains('ex'))n++;});
document.getElementById('qn').textContent=v?n+' shown':'';}
q.addEventListener('input',f);if(location.hash.indexOf('#q=')===0){q.value=decodeURIComponent(location.hash.slice(3));q.dispatchEvent(new Event('input'));}
"""


def visible(text: str) -> str:
    """Escape, and make invisible characters visible (NBSP ⍽, narrow NBSP) because the conventions
    are often ABOUT them."""
    out = escape(text)
    return out.replace("\u00a0", '<span class="ws" title="U+00A0">⍽</span>').replace(
        "\u202f", '<span class="ws" title="U+202F">˽</span>'
    )


def _merged(spans: list[dict[str, int]]) -> list[list[int]]:
    merged: list[list[int]] = []
    for span in sorted(spans, key=lambda s: (s["start"], s["end"])):
        if merged and span["start"] <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], span["end"])
        else:
            merged.append([span["start"], span["end"]])
    return merged


def highlight(output: str, spans: list[dict[str, int]], context: int | None = None) -> str:
    """The output with each failing span in <mark> (raw offsets; overlapping spans merged); a plain
    space inside a mark is shown as ␣. With ``context``, text farther than that from every mark is
    cut to "…" (a long segment stays readable in a list of examples)."""
    merged = _merged(spans)
    parts, pos = [], 0

    def plain(a: int, b: int, first: bool, last: bool) -> str:
        piece = output[a:b]
        if context is not None:
            if not merged and len(piece) > 3 * context:  # nothing marked (an expected term is missing)
                piece = piece[:3 * context] + "…"
            elif not first and not last and len(piece) > 2 * context:
                piece = piece[:context] + "…" + piece[-context:]
            elif first and len(piece) > context and merged:
                piece = "…" + piece[-context:]
            elif last and len(piece) > context and merged:
                piece = piece[:context] + "…"
        return visible(piece)

    for i, (start, end) in enumerate(merged):
        parts.append(plain(pos, start, i == 0, False))
        inner = visible(output[start:end]).replace(" ", '<span class="ws" title="U+0020">␣</span>')
        parts.append(f"<mark>{inner or '∅'}</mark>")
        pos = end
    parts.append(plain(pos, len(output), not merged, True))
    return "".join(parts)


def heat(score: float | None) -> str:
    """Cell colour: red (0) → yellow → green (100); grey when nothing was scored."""
    if score is None or math.isnan(score):
        return "#eeeeee"
    return f"hsl({int(score * 1.2)},70%,78%)"


def fmt(value: float | None, digits: int = 1) -> str:
    """A score for a cell: NO_SCORE when absent, never 'nan'."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return NO_SCORE
    return f"{value:.{digits}f}"


def score_cell(score: float | None, passed: int, scored: int, extra: str = "") -> str:
    """A heat-coloured score cell with passed/scored beside it."""
    title = f"{passed}/{scored} passed{extra}"
    return (f'<td class="num" style="background:{heat(score)}" title="{escape(title)}">{fmt(score)}'
            f' <span class="muted">({passed}/{scored})</span></td>')
