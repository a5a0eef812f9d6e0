"""Required-term rules: choose each source term's rendering, measure it over all units, keep the
rules that pass the thresholds, report conflicts.

Per term: the aligned renderings (lemma-grouped) are the candidates, plus one-word truncations of
the best one (boundary repair). Each is counted over units (Aho–Corasick, folded, word-bounded;
acronyms spelled like a function word, ``IT``, case-sensitively as they are scored): coverage =
units whose target holds a form / units whose source holds the term; Dice over units. The choice,
over-long trimming and the grouping of derived words and spelling variants live in ``boundary``.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from housestyle.pipelines.conventions.compound_parts import compounding
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.langtags import primary_subtag
from housestyle.pipelines.mining.align import align_with_sure
from housestyle.pipelines.mining.association import dice
from housestyle.pipelines.mining.boundary import Choice, choose, trim_overlong, with_siblings
from housestyle.pipelines.mining.compound import drop_compound_of_longer_term, repair_halves, whole_compound
from housestyle.pipelines.mining.column_hits import batched_unit_hits, concat_hits, joint_count
from housestyle.pipelines.mining.corpus import Corpus, hashed_sample
from housestyle.pipelines.mining.expression import attested_context, fragment_of_expression, measured
from housestyle.pipelines.mining.inflection import alternatives
from housestyle.pipelines.mining.paradigm import GENDER_READERS, add_attested_forms, generated_forms
from housestyle.pipelines.mining.params import MiningParams, at_least
from housestyle.pipelines.mining.precedence import add_precedence
from housestyle.pipelines.mining.spelling import as_written
from housestyle.pipelines.mining.term_candidates import Candidates, TermCandidate, extract
from housestyle.pipelines.mining.term_context import (
    drop_headless,
    drop_nested,
    verb_senses,
)
from housestyle.pipelines.mining.term_decision import TermCase, first_rejection
from housestyle.pipelines.mining.term_filters import STOP_LIKE, fragment_of_compound
from housestyle.pipelines.mining.term_keys import KeyFacts, candidate_keys, cognate, form_of
from housestyle.pipelines.mining.term_result import TermResult
from housestyle.pipelines.mining.term_trace import Decision, describe_conflict, trace_frame
from housestyle.pipelines.mining.tokens import TokenCache, settle_closed_tags

MQM_TERM = "Terminology/Inconsistent use of terminology"
CONFLICT_FORMS_SHOWN = 10  # forms listed per rendering in a conflict record (the evidence table has all)


def aligned_candidates(corpus: Corpus, indices: Sequence[int], params: MiningParams,
                       cache: TokenCache | None = None) -> Candidates:
    sources = corpus.sources.gather(indices)
    targets = corpus.targets.gather(indices)
    cache = cache if cache is not None else TokenCache()
    src_toks = cache.tokenize(sources, corpus.src_lang)
    tgt_toks = cache.tokenize(targets, corpus.tgt_lang, analyse=True)
    settle_closed_tags(tgt_toks)
    # Target words are aligned by lemma: a rare term's case or number forms pool their evidence
    # (fichiers/fichier), which IBM-1 needs on a small TM (dev split: +3 gold pairs of 100).
    links = align_with_sure([[t.norm for t in s] for s in src_toks], [[t.key for t in t_] for t_ in tgt_toks],
                  iterations=params.alignment.iterations, tension=params.alignment.diagonal, p_null=params.alignment.null,
                  max_pairs=params.alignment.max_pairs_per_unit)
    cands = extract(sources, targets, src_toks, tgt_toks, links, params)
    add_attested_forms(cands, tgt_toks, targets, params.terms.form_suffix_slack)
    if (read_genders := GENDER_READERS.get(primary_subtag(corpus.tgt_lang))) is not None:  # articles a generated form may take
        cands.genders = read_genders([(t.norm, t.key, t.pos) for t in toks] for toks in tgt_toks)
    return cands


def mine_terms(corpus: Corpus, params: MiningParams, cache: TokenCache | None = None, *,
               trace: bool = True) -> TermResult:
    """Term rules for the corpus's language pair (see module docstring); ``cache`` keeps the
    tokens for a second pass over part of the same units. Without ``trace`` no trace frame is
    built (a held-out fold's re-mining keeps only its rules)."""
    indices = hashed_sample(corpus, params.alignment.max_units)
    cands = aligned_candidates(corpus, indices, params, cache)
    facts = KeyFacts(cands)
    keys_of = {t: candidate_keys(t, c, cands, params, facts) for t, c in sorted(cands.terms.items())}
    del facts
    terms = [t for t, keys in keys_of.items() if keys]
    senses_of = {t: verb_senses(t, cands, params) for t in terms}
    all_keys = sorted({k for ks in [*keys_of.values(), *senses_of.values()] for k in ks})
    all_forms = sorted({f for k in all_keys for f in cands.forms[k]})
    src_hits = dict(zip(terms, batched_unit_hits(terms, corpus.folded_sources, corpus.sources)))
    # Acronyms spelled like a function word (IT) are scored case-sensitively: count them so too.
    acronyms = {t: s for t in terms if _is_acronym(s := spelled(cands.terms[t]))}
    src_hits.update(zip(acronyms, batched_unit_hits(list(acronyms.values()), corpus.sources)))
    # counted as the rule will check them: in a compounding language, compound parts too
    form_hits = dict(zip(all_forms, batched_unit_hits(all_forms, corpus.folded_targets, corpus.targets,
                                                      compound=compounding(corpus.tgt_lang))))
    key_hits = {key: concat_hits(form_hits[form] for form in cands.forms[key]) for key in all_keys}
    del form_hits
    result = TermResult([], {}, [], Counter())
    choices_of = {t: _choices(t, cands, keys_of[t], src_hits[t], key_hits, params) for t in terms if src_hits[t].size}
    # per term: key_hits with its rebuilt compounds (halves of compounds replaced before any choice)
    hits_of = repair_halves(choices_of, {t: cands.terms[t].aligned for t in choices_of}, cands.forms, src_hits,
                            corpus.folded_targets, corpus.targets, key_hits, params)
    sense_choices = {t: _choices(t, cands, senses_of[t], src_hits[t], key_hits, params) for t in choices_of if senses_of[t]}
    rivals: dict[str, list[tuple[float, str]]] = {}  # rendering -> (dice, term) of every term proposing it
    for t, choices in choices_of.items():
        for c in choices:
            rivals.setdefault(c.key, []).append((c.dice, t))
    best_dice = {k: sorted(v, reverse=True)[:params.candidates.rival_terms] for k, v in rivals.items()}
    vocabulary = set(cands.terms)
    word_keys = {t: {k for k, _ in c.aligned.most_common(params.candidates.word_renderings)}
                 for t, c in cands.terms.items() if " " not in t}
    rendered_by: dict[str, set[str]] = {}  # rendering key -> source words it is a top aligned rendering of
    for word, keys in word_keys.items():
        for key in keys:
            rendered_by.setdefault(key, set()).add(word)
    for term in terms:
        if term not in choices_of:
            result.stats["no_source_hit"] += 1
            continue
        _decide(term, cands, choices_of[term], src_hits[term], hits_of[term], best_dice, (vocabulary, word_keys), corpus,
                params, result, _neighbour_test(term, cands, rendered_by, params), sense_choices.get(term, []))
    drop_nested(result, cands, params)
    drop_headless(result, cands, params)
    drop_compound_of_longer_term(result)
    add_precedence(result)  # longest match: a term yields to the longer mined terms holding it
    result.stats = dict(result.stats)
    del key_hits, choices_of, sense_choices, rivals, best_dice, rendered_by  # not held while the trace is built
    if trace:
        result.build_trace = partial(trace_frame, cands, keys_of, indices, src_hits, result.trace, corpus.unit_ids,
                                     corpus.src_lang, corpus.tgt_lang)
    result.trace = {}
    return result


def _neighbour_test(term: str, cands: Candidates, rendered_by: dict[str, set[str]],
                    params: MiningParams) -> Callable[[str], bool]:
    """Whether a rendering key renders a source word adjacent to ``term`` in at least
    ``candidates.neighbour_share`` of its units (the span ``word term`` or ``term word`` is itself a
    candidate seen that often)."""
    units = len(cands.terms[term].units)
    share = params.candidates.neighbour_share
    empty = TermCandidate()

    def renders(key: str) -> bool:
        return any(at_least(len(cands.terms.get(f"{w} {term}", empty).units), units, share)
                   or at_least(len(cands.terms.get(f"{term} {w}", empty).units), units, share)
                   for w in rendered_by.get(key, ()))
    return renders


def spelled(cand: TermCandidate) -> str:
    """The term as the TM most often writes it (Wi-Fi, IT)."""
    return max(cand.surfaces.items(), key=lambda kv: (kv[1], kv[0]))[0]


def _is_acronym(spelling: str) -> bool:
    return len(spelling) > 1 and spelling.isupper() and spelling.casefold() in STOP_LIKE


def _choices(term: str, cands: Candidates, keys: list[str], s_units: np.ndarray,
             key_hits: dict[str, np.ndarray], params: MiningParams) -> list[Choice]:
    out = []
    # An acronym copied as it is (RSC → RSC) is the term's own spelling however short; two acronyms
    # always written together (RCGP RSC → RSC du RCGP) tie on Dice, and the copy must win the tie.
    acronym = spelled(cands.terms[term]).isupper()
    for key in keys:
        k_units = key_hits[key]
        joint = joint_count(s_units, k_units)
        out.append(Choice(key, sorted(cands.forms[key]), joint, joint / max(1, s_units.size),
                          dice(joint, int(s_units.size), int(k_units.size)), cands.terms[term].aligned.get(key, 0),
                          cognate(term, form_of(cands, key), params) or (acronym and form_of(cands, key) == term)))
    return out


def _decide(term: str, cands: Candidates, choices: list[Choice], s_units: np.ndarray, key_hits: Mapping[str, np.ndarray],
            best_dice: dict[str, list[tuple[float, str]]], lexicon: tuple[set[str], dict[str, set[str]]], corpus: Corpus,
            params: MiningParams, result: TermResult, renders_neighbour: Callable[[str], bool],
            senses: Sequence[Choice] = ()) -> None:
    stats: Counter[str] = result.stats  # type: ignore[assignment]
    chosen = choose(choices, params.terms.boundary_tolerance, params.terms.min_consistency)
    chosen = trim_overlong(chosen, choices, renders_neighbour, params)
    chosen, chosen_units = with_siblings(term, chosen, choices, s_units, key_hits, params,
                                         senses if " " not in chosen.key else ())
    trace = result.trace[term] = Decision(choices, chosen.key)
    vocabulary, word_keys = lexicon
    spelling = spelled(cands.terms[term])

    def case_of(choice: Choice) -> TermCase:
        return TermCase(term, choice, params, cands.terms[term].occurrences, spelling, corpus.src_lang, best_dice,
                        vocabulary, word_keys)

    found = first_rejection(case_of(chosen))
    evidence = np.intersect1d(s_units, chosen_units, assume_unique=True)
    repair = chosen.repair
    # A copy (IPv6 → IPv6) or a cognate is the term's own word even inside a compound.
    sample = evidence[:params.terms.compound_sample]
    if found is None and not chosen.cognate and term not in chosen.forms and fragment_of_compound(
            term, chosen.forms, corpus.folded_sources.gather(sample), corpus.folded_targets.gather(sample),
            params.terms.compound_share):
        rebuilt = whole_compound(chosen, cands.terms[term].aligned, cands.forms, s_units, corpus.folded_targets, params,
                                 corpus.targets)
        if rebuilt is None or rebuilt[0].coverage < params.terms.min_consistency:
            found = "fragment_of_compound", (
                f"'{chosen.key}' is hyphen-joined to a word the term lacks in >= terms.compound_share "
                f"{params.terms.compound_share} of its occurrences, and no whole compound "
                + ("was aligned" if rebuilt is None else f"reaches coverage {params.terms.min_consistency}"))
        else:  # the whole compound stands as a candidate of its own, through the same filters
            (chosen, chosen_units), repair = rebuilt, "compound"
            stats["compound_rebuilt"] += 1
            trace.chosen, trace.renderings = chosen.key, [chosen, *choices]
            found = first_rejection(case_of(chosen))
            evidence = np.intersect1d(s_units, chosen_units, assume_unique=True)
    if found is None and not chosen.cognate and term not in chosen.forms:
        found, replaced = _whole_expression(term, chosen, choices, cands, s_units, key_hits, corpus, sample, params)
        if replaced is not None:
            (chosen, chosen_units), repair = replaced, "expression"
            stats["expression_rebuilt"] += 1
            trace.chosen = chosen.key
            found = first_rejection(case_of(chosen))
            evidence = np.intersect1d(s_units, chosen_units, assume_unique=True)
    if found is not None:
        why = found[0]
        trace.reject(*found)
        stats[why] += 1
        if why in ("low_consistency", "no_majority"):  # the TM is split: report the renderings, mandate none
            _conflict(term, choices, chosen, params, result, mandated=False)
        return
    forms = chosen.forms
    if params.terms.generate_forms:  # the term is required, not the grammatical number the TM used
        # each lemma key folded into the rendering inflects by its own analysis (``alternatif`` gives
        # ``alternatifs``, which the key ``alternative`` cannot)
        forms = sorted(set(forms).union(*(generated_forms(sorted(cands.forms.get(key) or chosen.forms), key, cands.pos.get(key),
                                                          corpus.tgt_lang, spelling, cands.genders)
                                          for key in (chosen.key, *chosen.siblings))))
    entry, is_regex = alternatives(forms, tgt_lang=corpus.tgt_lang)
    if not is_regex:  # a name keeps its capitals (Mozilla); matching folds it anyway
        entry = as_written(entry, corpus.targets.gather(sample))
    counter = np.delete(s_units, np.searchsorted(s_units, evidence))  # s_units but the evidence (ascending, unique)
    acronym = _is_acronym(spelling)
    conv = Convention(
        dimension=f"term:{term}", rule="term", src=spelling, src_match_mode="exact" if acronym else None, expected_terms=[entry], regex=is_regex,
        match_mode="typographic", src_lang=corpus.src_lang, tgt_lang=corpus.tgt_lang, mqm_category=MQM_TERM,
        origin="mined", status="candidate", support=chosen.support, consistency=round(chosen.coverage, 4),
    )
    conv.extra = {"dice": round(chosen.dice, 4), "aligned": chosen.aligned, "lemma_key": chosen.key}
    if repair:  # audit trail: the rendering is not the aligner's first pick
        conv.extra["boundary_repair"] = repair
    result.conventions.append(conv)
    result.evidence[conv.convention_id] = (evidence, counter)
    result.forms[conv.convention_id] = forms  # precedence reads them instead of parsing the regex
    stats["rules"] += 1
    trace.decision, trace.convention_id = "rule", conv.convention_id
    trace.figures = (f"support {chosen.support}, coverage {chosen.coverage:.2f}, dice {chosen.dice:.2f}"
                     + (f", rebuilt as a whole {repair}" if repair else ""))
    _conflict(term, choices, chosen, params, result, mandated=True)


def _whole_expression(term: str, chosen: Choice, choices: list[Choice], cands: Candidates, s_units: np.ndarray,
                      key_hits: Mapping[str, np.ndarray], corpus: Corpus, sample: np.ndarray,
                      params: MiningParams) -> tuple[tuple[str, str] | None, tuple[Choice, np.ndarray] | None]:
    """(rejection, replacement and its units) for a one-word rendering that is a word of a longer
    aligned expression (``expression.fragment_of_expression``): the expression when it reaches
    ``terms.min_consistency``, else a rejection; (None, None) when the rendering stands on its own."""
    aligned = cands.terms[term].aligned
    fragment, whole = fragment_of_expression(chosen, choices, aligned, cands.forms, corpus.folded_targets.gather(sample),
                                             params.terms.compound_share)
    if not fragment:
        return None, None
    replacement: tuple[Choice, np.ndarray] | None
    if isinstance(whole, str):
        replacement = measured(whole, sorted(cands.forms[whole]), aligned.get(whole, 0), s_units, corpus)
    else:
        replacement = None if whole is None else (whole, key_hits[whole.key])
    if replacement is None or replacement[0].coverage < params.terms.min_consistency:
        # the aligner linked a longer rendering, not the one the TM writes: read it off the targets
        numbers = generated_forms(sorted(chosen.forms), chosen.key, cands.pos.get(chosen.key), corpus.tgt_lang, term,
                                  cands.genders)
        spelled = attested_context(numbers, corpus.folded_targets.gather(sample), params.terms.compound_share)
        if spelled:
            replacement = measured(spelled[0], spelled, 0, s_units, corpus)
    if replacement is None or replacement[0].coverage < params.terms.min_consistency:
        return ("fragment_of_expression",
                f"'{chosen.key}' lies inside a longer aligned rendering in >= terms.compound_share "
                f"{params.terms.compound_share} of its occurrences, and "
                + ("none has forms" if replacement is None
                   else f"'{replacement[0].key}' reaches only coverage {replacement[0].coverage:.2f}")), None
    return None, replacement


def _conflict(term: str, choices: list[Choice], chosen: Choice, params: MiningParams, result: TermResult,
              *, mandated: bool) -> None:
    """Report a second rendering that is neither part of nor contains the chosen one and is frequent."""
    rivals = [c for c in choices if c.key != chosen.key and c.key not in chosen.key and chosen.key not in c.key
              and c.coverage >= params.terms.conflict_min_share and c.support >= params.terms.conflict_min_support]
    if not rivals:
        return
    if term in result.trace:
        result.trace[term].conflict = describe_conflict([chosen, *rivals], mandated=mandated)
    result.conflicts.append({
        "kind": "term", "dimension": f"term:{term}", "src": term, "resolved": mandated,
        "renderings": [{"lemma_key": c.key, "forms": c.forms[:CONFLICT_FORMS_SHOWN], "support": c.support, "coverage": round(c.coverage, 4),
                        "chosen": c.key == chosen.key} for c in [chosen, *rivals]],
    })
