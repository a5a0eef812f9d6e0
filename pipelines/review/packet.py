"""The review packet (SPEC §3 ``review-export``): one row per convention of a set, readable by a
linguist — the literal forms instead of the regex, support and consistency, a few evidence units and
counter-examples with the match marked, the term's conflicting renderings — and the empty decision
columns ``review-import`` reads back. Rows are sorted by the units a rule governs (support), most
first, so the rules that matter most are judged first.

Cells that hold text with marks are lists of runs ``(text, marked)``; the CSV writes a mark as
``[[…]]``, the XLSX writer (``review.xlsx``) as bold coloured rich text.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines import atomic
from housestyle.pipelines.cells import inert_cell
from housestyle.pipelines.conventions.model import STATUSES, Convention
from housestyle.pipelines.conventions.statuses import UNLISTED_STATUSES
from housestyle.pipelines.conventionset.decisions import DECISION_WORDS, ENTRY_SEPARATOR, REGEX_PREFIX
from housestyle.pipelines.review.examples import Example, cached_forms, mark, marker, pick_units

Runs = list[tuple[str, bool]]
INFO_COLUMNS: tuple[str, ...] = (
    "convention_id", "dimension", "rule", "src", "expected_forms", "wrong_forms", "support", "consistency",
    "evidence", "counter_examples", "conflicts", "origin", "status", "match_mode", "params", "language_pair",
    "client", "set_version",
)
DECISION_COLUMNS: tuple[str, ...] = ("decision", "expected_terms", "wrong_variants", "comment", "reviewer", "reviewer_role")
PACKET_COLUMNS: tuple[str, ...] = (*INFO_COLUMNS, *DECISION_COLUMNS)
MARKED_COLUMNS = ("evidence", "counter_examples")
CSV_MARK = ("[[", "]]")
HELP = (f"decision: {' | '.join(DECISION_WORDS)}. For edit, expected_terms and wrong_variants hold the new forms "
        f"the way the packet shows them: 'a | b' is ONE term in any of these forms (e.g. 'mot de passe | mots de passe' "
        f"passes with either); several terms are separate entries separated by '{ENTRY_SEPARATOR}' (each one required, "
        f"or each one wrong: 'courriel{ENTRY_SEPARATOR} adresse électronique'); an entry starting with "
        f"'{REGEX_PREFIX}' is one regular expression up to the end of the cell. review-import prints what each edit "
        f"will require (--dry-run prints it without recording).")


@dataclass(frozen=True, slots=True)
class Packet:
    """The packet's rows (column → value; MARKED_COLUMNS hold Runs) and what it was drawn from."""

    rows: list[dict[str, Any]]
    client: str
    set_version: str
    with_texts: bool


def display_forms(entries: Sequence[str], is_regex: bool) -> str:
    """``|``-joined literal forms; an entry with no finite set of strings shows as ``re:<regex>``."""
    shown: list[str] = []
    for entry in entries:
        forms = cached_forms(entry, is_regex)
        for form in forms if forms is not None else (f"{REGEX_PREFIX}{entry}",):
            if form not in shown:
                shown.append(form)
    return " | ".join(shown)


def _marked(text: str, spans: Iterable[tuple[int, int]]) -> Runs:
    runs: Runs = []
    at = 0
    for start, end in spans:
        if start > at:
            runs.append((text[at:start], False))
        runs.append((text[start:end], True))
        at = end
    if at < len(text):
        runs.append((text[at:], False))
    return runs


def _example_runs(examples: Sequence[Example], src_lang: str, tgt_lang: str) -> Runs:
    runs: Runs = []
    for n, ex in enumerate(examples):
        runs.append((("\n\n" if n else "") + f"{ex.unit_id}\n{src_lang}: ", False))
        runs += _marked(ex.source, ex.source_spans)
        runs.append((f"\n{tgt_lang}: ", False))
        runs += _marked(ex.target, ex.target_spans)
    return runs


def conflict_text(conflicts: pl.DataFrame) -> dict[tuple[str, str | None], str]:
    """(dimension, src) → the renderings the TM gives the term: ``forms (support, share)``, ``*`` chosen."""
    out: dict[tuple[str, str | None], str] = {}
    for dimension, src, resolved, renderings in conflicts.select("dimension", "src", "resolved", "renderings").iter_rows():
        try:
            items = json.loads(renderings or "[]")
        except json.JSONDecodeError:
            continue
        parts = [f"{'*' if r.get('chosen') else ''}{' / '.join(r.get('forms', []))} "
                 f"({r.get('support')}, {round(100 * float(r.get('coverage') or 0))}%)" for r in items]
        out[(dimension, src)] = ("" if resolved else "UNRESOLVED: ") + "; ".join(parts)
    return out


def build_packet(conventions: Sequence[Convention], *, client: str, set_version: str, evidence: pl.DataFrame,
                 conflicts: pl.DataFrame | None = None, units: pl.DataFrame | None = None,
                 rules: Sequence[str] = (), statuses: Sequence[str] = ()) -> Packet:
    """The packet rows of ``conventions`` (only ``rules`` / ``statuses`` when given; by default every
    status but ``suggested``, which ``--status suggested`` lists for promotion); ``units``
    (unit_id, source, target: the TM the set was mined from) give the examples their texts."""
    shown = set(statuses) if statuses else set(STATUSES) - set(UNLISTED_STATUSES)
    chosen = [c for c in conventions if (not rules or c.rule in rules) and c.status in shown]
    chosen.sort(key=lambda c: (-(c.support or 0), c.convention_id))
    wanted = {c.convention_id for c in chosen}
    picked = pick_units(evidence.filter(pl.col("convention_id").is_in(sorted(wanted))), units)
    renderings = conflict_text(conflicts) if conflicts is not None else {}
    rows = []
    for conv in chosen:
        src_lang, tgt_lang = conv.src_lang or "src", conv.tgt_lang or "tgt"
        units_of = picked.get(conv.convention_id, {})
        compiled = marker(conv) if units_of else None
        examples = {role: [mark(compiled, u, role) for u in units_of.get(role, [])] for role in ("evidence", "counter")}
        rows.append({
            "convention_id": conv.convention_id, "dimension": conv.dimension, "rule": conv.rule, "src": conv.src or "",
            "expected_forms": display_forms(conv.expected_terms, conv.regex),
            "wrong_forms": display_forms(conv.wrong_variants, conv.regex),
            "support": conv.support, "consistency": conv.consistency,
            "evidence": _example_runs(examples["evidence"], src_lang, tgt_lang),
            "counter_examples": _example_runs(examples["counter"], src_lang, tgt_lang),
            "conflicts": renderings.get((conv.dimension, conv.src), ""), "origin": conv.origin, "status": conv.status,
            "match_mode": conv.match_mode, "params": json.dumps(conv.params, ensure_ascii=False) if conv.params else "",
            "language_pair": f"{conv.src_lang or '*'}→{conv.tgt_lang or '*'}", "client": client, "set_version": set_version,
            **{c: "" for c in DECISION_COLUMNS},
        })
    return Packet(rows, client, set_version, units is not None)


def plain(value: Any) -> str:
    """A cell as CSV text: marked runs as ``[[…]]``, numbers as written, None empty."""
    if isinstance(value, list):
        return "".join(f"{CSV_MARK[0]}{t}{CSV_MARK[1]}" if marked else t for t, marked in value)
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def write_csv(packet: Packet, path: Path) -> Path:
    """The packet as UTF-8 CSV (with a BOM, so spreadsheet programs read the accents), whole or absent."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(PACKET_COLUMNS)
    for row in packet.rows:
        writer.writerow([inert_cell(plain(row[c])) for c in PACKET_COLUMNS])
    return atomic.write_bytes(path, ("\ufeff" + buffer.getvalue()).encode("utf-8"))
