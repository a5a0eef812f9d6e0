"""Model-contrast mining: a generic system's systematic divergences from the approved references
become candidate banned variants of the mandated terms.

A curated TM never contains the banned variants (curation removed them), so they are mined from the
errors systems make: for each required-term rule, the units whose reference has the mandated
rendering and whose generic output does not (``cases``) are aligned (``align``) to read what the
system wrote instead; alternatives that recur in ``min_support`` units are candidates, each kept or
demoted with its reason (``demote``). Kept ones become ``wrong_variants`` (``conventions``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import polars as pl

from housestyle.pipelines.contrast.align import Extraction, extract
from housestyle.pipelines.contrast.analysis import (
    Tok,
    analyse,
    content_lemmas,
    has_lemmas,
    in_span,
)
from housestyle.pipelines.contrast.cases import Case, CaseCounts, Unit, compile_rules, find_cases
from housestyle.pipelines.contrast.demote import Usage, majority, noise_reason, relation, tm_usage
from housestyle.pipelines.contrast.params import DEFAULT_CONTRAST_PARAMS, ContrastParams
from housestyle.pipelines.conventions.folding import fold_text
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.fingerprint import code_version

CONTRAST_FORMAT = "housestyle-contrast/1"
GRAMMAR = ("inflection", "function_words")  # same term, other grammar: demoted


@dataclass(frozen=True, slots=True)
class Occurrence:
    case: Case
    extraction: Extraction
    key: str  # typographic fold of the alternative ("" = omission)
    lemma_key: str | None  # its content lemmas: the forms of one variant are grouped by them
    noise: str | None
    relation: str | None  # to the mandated term: format / inflection / function_words / partial / insertion
    reference_term: str


@dataclass(slots=True)
class ContrastResult:
    """``candidates``: one row per recurring (rule, variant); ``occurrences``: one row per case;
    ``conventions``: the kept variants as candidate conventions (origin ``contrast``)."""

    candidates: pl.DataFrame
    occurrences: pl.DataFrame
    conventions: list[Convention]
    stats: dict[str, int] = field(default_factory=dict)
    signature: str = ""


def _occurrences(cases: Sequence[Case], units: Mapping[str, Unit], outputs: Mapping[str, str], tgt_lang: str,
                 params: ContrastParams) -> list[Occurrence]:
    ids = sorted({c.unit_id for c in cases})
    toks = analyse([units[i].reference for i in ids] + [outputs[i] for i in ids], tgt_lang)
    ref_toks: dict[str, list[Tok]] = dict(zip(ids, toks[:len(ids)]))
    out_toks: dict[str, list[Tok]] = dict(zip(ids, toks[len(ids):]))
    found = []
    for case in cases:
        ref = ref_toks[case.unit_id]
        ext = extract(ref, case.ref_start, case.ref_end, out_toks[case.unit_id], outputs[case.unit_id])
        if ext is None:
            continue
        term_toks = in_span(ref, case.ref_start, case.ref_end)
        n_content = sum(t.is_content for t in term_toks)
        written = content_lemmas(ext.tokens)
        lemma_key = "lemmas:" + " ".join(written) if written else None
        reference_term = units[case.unit_id].reference[case.ref_start:case.ref_end]
        rel = relation(term_toks, reference_term, ext.tokens, ext.text) if ext.text else None
        noise = noise_reason(ext, n_content, params) or (rel if rel in ("partial", "insertion") else None)
        found.append(Occurrence(case, ext, fold_text(ext.text, "typographic"), lemma_key, noise, rel, reference_term))
    return found


def _forms(occs: Sequence[Occurrence]) -> list[str]:
    """The surface forms of one variant, most frequent first (case-insensitive duplicates merged)."""
    counts = Counter(o.extraction.text for o in occs)
    seen: dict[str, str] = {}
    for text, _n in counts.most_common():
        seen.setdefault(fold_text(text, "typographic"), text)
    return list(seen.values())


def _combine(usages: Sequence[Usage]) -> Usage:
    """TM usage of a variant = of any of its forms."""
    return Usage(sum(u.units for u in usages), sum(u.units_for_term for u in usages),
                 tuple(x for u in usages for x in u.examples)[:3])


def _decide(noise: str | None, grammar: str | None, used: int, params: ContrastParams) -> tuple[str, list[str]]:
    reasons = [f"noise:{noise}"] if noise else []
    if grammar:
        reasons.append(grammar)
    if used >= params.tm_min_units:
        reasons.append("client_uses")
    return ("demoted" if reasons else "kept"), reasons


def mine_contrast(rules: Sequence[Convention], units: Sequence[Unit], outputs: Mapping[str, str], *, tgt_lang: str,
                  tm: Sequence[Unit] | None = None, params: ContrastParams = DEFAULT_CONTRAST_PARAMS,
                  system: str = "generic") -> ContrastResult:
    """Candidate banned variants of every ``term`` rule in ``rules``.

    ``units``: the TM units the generic system translated (id, source, approved reference);
    ``outputs``: its outputs by unit id; ``tm``: every approved unit of the client (default
    ``units``), where a variant the client uses is looked for."""
    term_rules = [r for r in rules if r.rule == "term" and r.expected_terms]
    by_id = {u.unit_id: u for u in units}
    cases, counts = find_cases(term_rules, units, outputs)
    occurrences = _occurrences(cases, by_id, outputs, tgt_lang, params)
    groups: dict[tuple[int, str], list[Occurrence]] = {}
    by_surface: dict[tuple[int, str], str] = {}  # one surface = one group even if lemmas vary by context
    for occ in occurrences:
        if occ.key:
            index = occ.case.rule_index
            group = by_surface.setdefault((index, occ.key), occ.lemma_key or occ.key)
            groups.setdefault((index, group), []).append(occ)
    recurring = {k: v for k, v in groups.items() if len({o.case.unit_id for o in v}) >= params.min_support}
    compiled = compile_rules(term_rules)
    keys = sorted(recurring, key=lambda k: (term_rules[k[0]].dimension, k[1]))
    forms = [_forms(recurring[k]) for k in keys]
    flat = [(k, f) for k, fs in zip(keys, forms) for f in fs]
    flat_usage = tm_usage([(f, term_rules[k[0]].match_mode, compiled[k[0]]) for k, f in flat],
                          list(tm) if tm is not None else list(units))
    usage = [_combine([u for (kk, _f), u in zip(flat, flat_usage) if kk == k]) for k in keys]
    rows = []
    for key, variant_forms, used in zip(keys, forms, usage):
        occs = recurring[key]
        surface = variant_forms[0]
        rule = term_rules[key[0]]
        noise = majority((o.noise for o in occs), params.noise_share)
        # a grammar variant needs only half its occurrences: the other half may simply lack lemmas that agree
        grammar = majority((o.relation if o.relation in GRAMMAR else None for o in occs), params.noise_share - 1e-9)
        status, reasons = _decide(noise, grammar, used.units, params)
        src_key = fold_text(rule.src or "", "typographic")
        rows.append({
            "convention_id": rule.convention_id, "dimension": rule.dimension, "src": rule.src,
            "expected": Counter(o.case.expected for o in occs).most_common(1)[0][0],
            "reference_term": Counter(o.reference_term for o in occs).most_common(1)[0][0],
            "variant": surface, "forms": variant_forms, "variant_key": key[1],
            "support": len({o.case.unit_id for o in occs}),
            "unit_ids": sorted({o.case.unit_id for o in occs}), "status": status, "reason": reasons[0] if reasons else None,
            "reasons": reasons, "untranslated": bool(src_key) and any(o.key == src_key for o in occs),
            "format": majority((o.relation if o.relation == "format" else None for o in occs),
                               params.noise_share) is not None,
            "noise_share": sum(o.noise is not None for o in occs) / len(occs),
            "context_score": sum(o.extraction.context_score for o in occs) / len(occs),
            "tm_units": used.units, "tm_units_for_term": used.units_for_term, "tm_examples": list(used.examples),
            "example_unit": occs[0].case.unit_id,
        })
    candidates = pl.DataFrame(rows, schema=CANDIDATE_SCHEMA)
    from housestyle.pipelines.contrast.conventions import (
        contrast_conventions,  # the output side, kept in its own module
    )

    conventions = contrast_conventions(term_rules, candidates, params, system=system)
    stats = _stats(counts, occurrences, groups, recurring, candidates, len(term_rules), has_lemmas(tgt_lang))
    signature = (f"{CONTRAST_FORMAT}|system:{system}|params:{params.params_hash()}|rules:{len(term_rules)}"
                 f"|units:{len(units)}|lemmas:{'yes' if has_lemmas(tgt_lang) else 'no'}|housestyle:{code_version()}")
    return ContrastResult(candidates, occurrence_frame(occurrences, term_rules), conventions, stats, signature)


CANDIDATE_SCHEMA: dict[str, pl.DataType] = {
    "convention_id": pl.Utf8(), "dimension": pl.Utf8(), "src": pl.Utf8(), "expected": pl.Utf8(),
    "reference_term": pl.Utf8(), "variant": pl.Utf8(), "forms": pl.List(pl.Utf8), "variant_key": pl.Utf8(),
    "support": pl.Int64(),
    "unit_ids": pl.List(pl.Utf8), "status": pl.Utf8(), "reason": pl.Utf8(), "reasons": pl.List(pl.Utf8),
    "untranslated": pl.Boolean(), "format": pl.Boolean(), "noise_share": pl.Float64(), "context_score": pl.Float64(),
    "tm_units": pl.Int64(), "tm_units_for_term": pl.Int64(), "tm_examples": pl.List(pl.Utf8), "example_unit": pl.Utf8(),
}


def occurrence_frame(occurrences: Sequence[Occurrence], rules: Sequence[Convention]) -> pl.DataFrame:
    """One row per contrast case: the evidence behind every candidate, readable on its own."""
    rows = [{"convention_id": rules[o.case.rule_index].convention_id, "dimension": rules[o.case.rule_index].dimension,
             "unit_id": o.case.unit_id, "expected": o.case.expected, "reference_term": o.reference_term,
             "variant": o.extraction.text, "start": o.extraction.start, "end": o.extraction.end,
             "noise": o.noise, "relation": o.relation, "gap": o.extraction.gap,
             "context_score": o.extraction.context_score} for o in occurrences]
    schema = {"convention_id": pl.Utf8(), "dimension": pl.Utf8(), "unit_id": pl.Utf8(), "expected": pl.Utf8(),
              "reference_term": pl.Utf8(), "variant": pl.Utf8(), "start": pl.Int64(), "end": pl.Int64(),
              "noise": pl.Utf8(), "relation": pl.Utf8(), "gap": pl.Int64(), "context_score": pl.Float64()}
    return pl.DataFrame(rows, schema=schema)


def _stats(counts: CaseCounts, occurrences: Sequence[Occurrence], groups: Mapping[tuple[int, str], list[Occurrence]],
           recurring: Mapping[tuple[int, str], list[Occurrence]], candidates: pl.DataFrame, n_rules: int,
           lemmas: bool) -> dict[str, int]:
    return {
        "term_rules": n_rules, "triggered_items": sum(counts.triggered.values()), "agreements": sum(counts.agree.values()),
        "reference_lacks_term": sum(counts.ref_lacks.values()), "cases": len(occurrences),
        "omissions": sum(1 for o in occurrences if not o.key), "variants": len(groups),
        "recurring_variants": len(recurring), "kept": int((candidates["status"] == "kept").sum()),
        "demoted": int((candidates["status"] == "demoted").sum()),
        "rules_with_kept_variant": candidates.filter(pl.col("status") == "kept")["convention_id"].n_unique(),
        "lemmatiser": int(lemmas),
    }
