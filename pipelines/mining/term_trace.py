"""The term trace: what the term miner decided for every source term it considered, and why.

The miner's statistics only count its decisions (``no_majority: 52``); an analyst asking "why is
there no rule for X?" needs the one decision about X, with the figures that made it. While
``term_rules.mine_terms`` decides, it fills one ``Decision`` per measured term (``TermResult.trace``);
at the end ``trace_frame`` turns every candidate of the aligned sample into one row of
``TRACE_SCHEMA`` — the rule written (convention_id), or the filter that rejected it by name with
the figure and threshold that decided it, or the conflict it left unresolved — with its top
renderings (support, coverage) and a few of its units. The set stores it as ``term_trace.parquet``
(sealed by the manifest); ``term_explain`` reads it for ``housestyle explain``.

Cheap by construction: decisions hold references to the choices the miner built anyway, and rows
are built once, from the sample's candidates (at most ``alignment.max_units`` units).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl
import pyarrow as pa

from housestyle.pipelines.mining.boundary import Choice

if TYPE_CHECKING:
    from housestyle.pipelines.mining.term_candidates import Candidates

TRACE_FILE = "term_trace.parquet"
TRACE_UNITS = 5  # unit ids kept per term (the evidence table has every rule's units)
TRACE_RENDERINGS = 3  # renderings kept per term, strongest first
RENDERING = pl.Struct({"lemma_key": pl.Utf8, "form": pl.Utf8, "support": pl.Int64, "coverage": pl.Float64,
                       "aligned": pl.Int64})
_COLUMNS: dict[str, Any] = {
    "src": pl.Utf8,  # the folded source term (fold_count), as the miner keys it
    "spelling": pl.Utf8,  # the TM's most frequent spelling of it
    "src_lang": pl.Utf8,
    "tgt_lang": pl.Utf8,
    "units": pl.Int64,  # units whose source holds it (all units when measured; else the aligned sample)
    "unit_ids": pl.List(pl.Utf8),  # the first TRACE_UNITS of them
    "renderings": pl.List(RENDERING),
    "decision": pl.Utf8,  # rule | rejected | dropped | no_rendering | no_source_hit
    "filter": pl.Utf8,  # the filter's name (a statistics key of the miner), null for a rule
    "figures": pl.Utf8,  # the figure and threshold that decided it
    "convention_id": pl.Utf8,  # the rule written (decision rule)
    "lemma_key": pl.Utf8,  # the chosen rendering's lemma key
    "conflict": pl.Utf8,  # competing renderings reported (resolved or not), readable
    "why": pl.Utf8,  # all of the above on one readable line
}
TRACE_SCHEMA = pl.Schema(_COLUMNS)


@dataclass(slots=True)
class Decision:
    """What the miner decided for one measured term (``term_rules._decide`` fills it in)."""

    choices: list[Choice]
    chosen: str = ""  # lemma key of the chosen rendering
    decision: str = "rejected"
    filter: str | None = None
    figures: str = ""
    convention_id: str | None = None
    conflict: str | None = None
    renderings: list[Choice] = field(default_factory=list)  # when the decision replaced the choices (compound)

    def reject(self, name: str, figures: str) -> None:
        self.decision, self.filter, self.figures = "rejected", name, figures


def describe_conflict(rivals: Sequence[Choice], *, mandated: bool) -> str:
    """The competing renderings of a conflict record on one line."""
    shown = "; ".join(f"'{c.key}' support {c.support}, coverage {c.coverage:.2f}" for c in rivals)
    return f"{'resolved (majority kept)' if mandated else 'unresolved (no rule)'}: {shown}"


def _rendering(choice: Choice) -> dict[str, object]:
    return {"lemma_key": choice.key, "form": choice.forms[0] if choice.forms else choice.key,
            "support": choice.support, "coverage": round(choice.coverage, 4), "aligned": choice.aligned}


def _line(row: Mapping[str, object]) -> str:
    decision = row["decision"]
    top = row["renderings"]
    assert isinstance(top, list)
    if decision == "rule":
        head = f"rule {row['convention_id']} → '{row['lemma_key']}'"
    elif decision == "dropped":
        head = f"rule dropped by {row['filter']}: {row['figures']}"
    elif decision == "rejected":
        head = f"rejected by {row['filter']} (chosen '{row['lemma_key']}'): {row['figures']}"
    else:
        head = f"no rule ({decision}): {row['figures']}"
    shown = ", ".join(f"'{r['lemma_key']}'" + (f" {r['support']}/{row['units']} units" if r["support"] is not None
                                                 else f" aligned {r['aligned']}") for r in top)
    conflict = f"; conflict {row['conflict']}" if row["conflict"] else ""
    return f"{row['spelling']} [{row['src_lang']}→{row['tgt_lang']}, {row['units']} units]: {head}" + (
        f"; renderings {shown}" if shown else "") + conflict


def trace_frame(cands: Candidates, keys_of: Mapping[str, list[str]], sample: Sequence[int],
                src_hits: Mapping[str, np.ndarray], decisions: Mapping[str, Decision], unit_ids: Sequence[str],
                src_lang: str, tgt_lang: str) -> pl.DataFrame:
    """One TRACE_SCHEMA row per candidate source term of the aligned sample (``sample``: the corpus
    indices of its units), sorted by term. Built column by column: one dict at a time, not one per term."""
    columns: dict[str, list[object]] = {name: [] for name in TRACE_SCHEMA}
    for term in sorted(cands.terms):
        cand = cands.terms[term]
        spelling = max(cand.surfaces.items(), key=lambda kv: (kv[1], kv[0]))[0]
        hits = src_hits.get(term)
        if hits is not None and hits.size:
            units, first = int(hits.size), [int(i) for i in hits[:TRACE_UNITS]]
        else:
            units, first = len(cand.units), [sample[i] for i in heapq.nsmallest(TRACE_UNITS, cand.units)]
        found = decisions.get(term)
        row: dict[str, object] = {"src": term, "spelling": spelling, "src_lang": src_lang, "tgt_lang": tgt_lang,
                                  "units": units, "unit_ids": [unit_ids[i] for i in first], "filter": None,
                                  "convention_id": None, "lemma_key": None, "conflict": None}
        if found is not None:
            ranked = sorted(found.renderings or found.choices, key=lambda c: (-c.support, -c.coverage, c.key))
            row.update(renderings=[_rendering(c) for c in ranked[:TRACE_RENDERINGS]], decision=found.decision,
                       filter=found.filter, figures=found.figures, convention_id=found.convention_id,
                       lemma_key=found.chosen or None, conflict=found.conflict)
        else:
            aligned = sorted(cand.aligned.items(), key=lambda kv: (-kv[1], kv[0]))[:TRACE_RENDERINGS]
            row["renderings"] = [{"lemma_key": k, "form": k, "support": None, "coverage": None, "aligned": n}
                                 for k, n in aligned]
            if keys_of.get(term):
                row.update(decision="no_source_hit", figures="its spelling is found word-bounded in no source")
            else:
                row.update(decision="no_rendering", figures="no aligned rendering is a nominal phrase or a verb aligned "
                           "often enough" if aligned else "the aligner linked it to no consistent target span")
        row["why"] = _line(row)
        for name, value in row.items():
            columns[name].append(value)
    if not columns["src"]:
        return empty_trace()
    nested = {"unit_ids": _list_series("unit_ids", columns.pop("unit_ids")),
              "renderings": _list_series("renderings", columns.pop("renderings"))}
    flat = pl.DataFrame(columns, schema={name: TRACE_SCHEMA[name] for name in columns})
    return flat.with_columns(*nested.values()).select(list(TRACE_SCHEMA))


def _list_series(name: str, rows: list[Any]) -> pl.Series:
    """A list column of ``TRACE_SCHEMA`` from its rows' lists, built from one flat Arrow array and the
    rows' offsets: polars' own conversion of nested Python lists and dicts took 0.9 s and left ~150 MB
    more resident (the demo TM's 23,460 rows), which the held-out folds' aligner then stacked on."""
    values = [value for row in rows for value in row]
    column = TRACE_SCHEMA[name]
    assert isinstance(column, pl.List)
    dtype = column.inner
    if isinstance(dtype, pl.Struct):
        fields = [(field.name, _arrow_type(field.dtype)) for field in dtype.fields]
        flat: pa.Array = pa.StructArray.from_arrays([pa.array([v[f] for v in values], t) for f, t in fields],
                                                    names=[f for f, _ in fields])
    else:
        flat = pa.array(values, pa.large_string())
    offsets = pa.array(np.concatenate(([0], np.cumsum([len(row) for row in rows], dtype=np.int64))), pa.int64())
    return pl.Series(name, pl.from_arrow(pa.LargeListArray.from_arrays(offsets, flat)), dtype=column)


def _arrow_type(dtype: Any) -> pa.DataType:
    """The Arrow type of a field of ``RENDERING``."""
    for polars_type, arrow_type in ((pl.Utf8, pa.large_string()), (pl.Int64, pa.int64()), (pl.Float64, pa.float64())):
        if dtype == polars_type:
            return arrow_type
    raise TypeError(f"no Arrow type for {dtype}")


def empty_trace() -> pl.DataFrame:
    return pl.DataFrame(schema=TRACE_SCHEMA)


def mark_dropped(decisions: Mapping[str, Decision], term: str, reason: str, figures: str) -> None:
    """A rule removed after it was written (nested, headless, a compound's fragment)."""
    found = decisions.get(term)
    if found is None:
        return
    dropped = found.convention_id
    found.decision, found.filter, found.convention_id = "dropped", reason, None
    found.figures = f"{figures} (rule {dropped} withdrawn)"
