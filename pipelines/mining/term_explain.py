"""``housestyle explain``: what the miner decided for one source term of a set, and why.

Reads the set's ``term_trace.parquet`` (``term_trace``), its rules and its conflicts through the
verified set (``store.convention_source``: an incomplete set is refused), and says, for each
language pair: the rule(s) written for the term with their literal forms, or the filter that
rejected it with the figure and threshold that decided it; its candidate renderings with support
and coverage; the conflict it left. The term is folded as the miner keys its candidates
(``tokens.fold_count``: casefold, apostrophes and spaces). A term the miner never considered gets
the cheap reason (its shape is not a candidate's: ``term_candidates.source_spans``), and the
considered terms that hold it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines.conventions.factors import literal_forms
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventionset.store import OpenedSet, convention_source
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.mining.params import DEFAULT_PARAMS, MiningParams
from housestyle.pipelines.mining.term_decision import describe
from housestyle.pipelines.mining.term_trace import TRACE_FILE
from housestyle.pipelines.mining.tokens import fold_count

CONTAINING_SHOWN = 5  # considered terms holding an unknown term, shown


def open_traced(path: Path) -> tuple[OpenedSet, Path]:
    """The verified set and its conventions file; a loose convention file or a set without a trace
    is an input error (exit 2 at the command line)."""
    conventions_file, opened = convention_source(Path(path))
    if opened is None:
        raise InputError("not a mined convention set folder (explain reads its term_trace.parquet)", path=str(path))
    if TRACE_FILE not in opened.files:
        raise InputError(f"this set has no {TRACE_FILE} (mined before the term trace was kept); mine it again",
                         path=str(opened.path))
    return opened, conventions_file


def _params(opened: OpenedSet) -> MiningParams:
    stored = opened.manifest.get("params") or {}
    return MiningParams.from_dict(stored) if isinstance(stored, dict) else DEFAULT_PARAMS


def _same_lang(lang: str | None, wanted: str | None) -> bool:
    if wanted is None:
        return True
    a, b = (lang or "").casefold().replace("_", "-"), wanted.casefold().replace("_", "-")
    return a == b or a.startswith(b + "-") or b.startswith(a + "-")


def _rules(conventions: Sequence[Convention], folded: str, tgt_lang: str | None) -> list[Convention]:
    """Term and forbidden rules of the set triggered by the term (mined, contrast or authored)."""
    return [c for c in conventions if c.rule in ("term", "forbidden") and _same_lang(c.tgt_lang, tgt_lang)
            and (c.dimension.casefold() == f"term:{folded}" or (c.src is not None and not c.src_regex
                                                               and fold_count(c.src).strip() == folded))]


def _forms(entries: Sequence[str], is_regex: bool) -> str:
    out = []
    for entry in entries:
        forms = literal_forms(entry, is_regex)
        out.append(" | ".join(forms) if forms else f"/{entry}/")
    return "; ".join(out) or "(none)"


def _rule_lines(conv: Convention) -> list[str]:
    lines = [f"  {conv.rule} rule {conv.convention_id} [{conv.origin}, {conv.status}, {conv.src_lang}→{conv.tgt_lang}]: "
             f"required {_forms(conv.expected_terms, conv.regex)}"]
    if conv.wrong_variants:
        lines.append(f"    wrong variants: {_forms(conv.wrong_variants, conv.regex)}")
    if conv.support is not None:
        lines.append(f"    support {conv.support}, consistency {conv.consistency}")
    return lines


def _row_lines(row: dict[str, Any]) -> list[str]:
    lines = [f"{row['spelling']} [{row['src_lang']}→{row['tgt_lang']}]: {row['decision']}"
             + (f" ({row['filter']})" if row["filter"] else "")]
    lines.append(f"  why: {row['figures']}")
    if row["filter"]:  # where it stands in the one decision list the miner ran
        lines.append(f"  filter: {describe(row['filter'])}")
    if row["convention_id"]:
        lines.append(f"  rule written: {row['convention_id']} (rendering '{row['lemma_key']}')")
    lines.append(f"  source units: {row['units']}" + (f" (e.g. {', '.join(row['unit_ids'])})" if row["unit_ids"] else ""))
    for r in row["renderings"]:
        chosen = " (chosen)" if r["lemma_key"] == row["lemma_key"] else ""
        measured = (f"support {r['support']}, coverage {r['coverage']:.2f}" if r["support"] is not None
                    else "not measured")
        lines.append(f"  rendering '{r['form']}' [{r['lemma_key']}]: {measured}, aligned {r['aligned']}{chosen}")
    if row["conflict"]:
        lines.append(f"  conflict {row['conflict']}")
    return lines


def _not_a_candidate(term: str, src_lang: str, params: MiningParams) -> str:
    """Why a term's shape is not one the miner takes as a candidate (or that it simply was not
    found in the sources it aligned)."""
    from housestyle.pipelines.mining.term_candidates import source_spans
    from housestyle.pipelines.mining.tokens import TokenCache

    toks = TokenCache().tokenize([term], src_lang)[0]
    words = [t for t in toks if t.is_word and not t.is_hyphen]
    if not toks:
        return "it holds no word"
    if any(span == (0, len(toks) - 1) for span, _ in source_spans(toks, term, params)):
        return "its shape is a candidate's, but it occurs in no source of the units the miner aligned"
    if len(fold_count(term)) < params.terms.min_chars:
        return f"shorter than terms.min_chars {params.terms.min_chars}"
    if len(words) > params.terms.max_words:
        return f"{len(words)} words > terms.max_words {params.terms.max_words}"
    for edge in (toks[0], toks[-1]):
        if not edge.is_word or edge.is_stop or edge.is_hyphen:
            return f"it starts or ends with '{edge.norm}', a function word, number or punctuation"
    inner = [t.norm for t in toks[1:-1] if (t.is_stop and t.is_word and t.norm != "of") or not (t.is_word or t.is_hyphen)]
    if inner:
        return f"it holds '{inner[0]}' inside (only 'of', hyphens and digits may sit inside a term)"
    return "its words do not form a candidate span (an edge word too short, or a hyphenated word cut)"


def explain(path: Path, term: str, tgt_lang: str | None = None) -> str:
    """The explanation of ``term`` in the set at ``path`` as printable text."""
    opened, conventions_file = open_traced(path)
    folded = fold_count(term).strip()
    trace = pl.read_parquet(opened.path / TRACE_FILE)
    rows = [r for r in trace.filter(pl.col("src") == folded).iter_rows(named=True) if _same_lang(r["tgt_lang"], tgt_lang)]
    rules = _rules(load_conventions(conventions_file, regex_guard=False), folded, tgt_lang)
    lines: list[str] = []
    for row in rows:
        lines += _row_lines(row)
    if rules:
        lines.append(f"rules in the set for '{term}':")
        for conv in rules:
            lines += _rule_lines(conv)
    if rows:
        return "\n".join(lines) + "\n"
    src_lang = str(opened.manifest.get("src_lang") or "en").split(",")[0]
    head = f"'{term}': the miner never considered it (not a candidate: {_not_a_candidate(term, src_lang, _params(opened))})"
    pattern = re.compile(r"(?<!\w)" + re.escape(folded) + r"(?!\w)")
    inside = [pattern.search(src) is not None for src in trace["src"].to_list()]
    holding = [r for r in trace.filter(pl.Series(inside, dtype=pl.Boolean)).sort("units", "src", descending=[True, False])
               .iter_rows(named=True) if _same_lang(r["tgt_lang"], tgt_lang)][:CONTAINING_SHOWN]
    if holding:
        lines.append("considered terms holding it: " + "; ".join(f"'{r['spelling']}' ({r['decision']}, {r['units']} units)"
                                                                 for r in holding))
    return "\n".join([head, *lines]) + "\n"
