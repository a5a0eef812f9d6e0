"""Required-term rules: choose each source term's rendering, measure it over all units, keep the
rules that pass the thresholds, report conflicts.

Per term: the aligned renderings (lemma-grouped) are the candidates, plus one-word truncations of
the best one (boundary repair). Each is counted over units (Aho–Corasick, folded, word-bounded):
coverage = units whose target holds a form / units whose source holds the term; Dice over units.
The choice is the most strongly associated (Dice) candidate whose coverage is within
``term_boundary_tolerance`` of the best coverage: a truncation wins only when it raises coverage
by more than the tolerance, an extension only when it does not lower it by more.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from rapidfuzz import fuzz

from pipelines.conventions.model import Convention
from pipelines.mining.align import align
from pipelines.mining.association import dice, unit_hits
from pipelines.mining.corpus import Corpus
from pipelines.mining.inflection import alternatives
from pipelines.mining.params import MiningParams
from pipelines.mining.term_candidates import Candidates, TermCandidate, extract, nominal
from pipelines.mining.tokens import tokenize

MQM_TERM = "Terminology/Inconsistent use of terminology"
_PLAIN_FORM = __import__("re").compile(r"[^\W_](?:[\w' /\-]*[^\W_])?")
# Acronyms spelled like a function word (WHO, US, IT) trigger only when written in capitals.
STOP_LIKE = frozenset(w.casefold() for w in __import__("spacy").blank("en").Defaults.stop_words)


@dataclass(slots=True)
class Choice:
    key: str
    forms: list[str]
    support: int
    coverage: float
    dice: float
    aligned: int
    cognate: bool = False


@dataclass(slots=True)
class TermResult:
    conventions: list[Convention]
    evidence: dict[str, tuple[list[int], list[int]]]  # convention_id -> (evidence, counter) unit indices
    conflicts: list[dict[str, object]] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)


def sample_indices(corpus: Corpus, limit: int) -> list[int]:
    """All units, or a deterministic pseudo-random ``limit`` of them (hash of the unit id)."""
    if len(corpus) <= limit:
        return list(range(len(corpus)))
    ranked = sorted(range(len(corpus)), key=lambda i: hashlib.sha1(corpus.unit_ids[i].encode()).hexdigest())
    return sorted(ranked[:limit])


def aligned_candidates(corpus: Corpus, indices: Sequence[int], params: MiningParams) -> Candidates:
    sources = [corpus.sources[i] for i in indices]
    targets = [corpus.targets[i] for i in indices]
    src_toks = list(tokenize(sources, corpus.src_lang))
    tgt_toks = list(tokenize(targets, corpus.tgt_lang, analyse=True))
    links = align([[t.norm for t in s] for s in src_toks], [[t.norm for t in t_] for t_ in tgt_toks],
                  iterations=params.align_iterations, tension=params.align_diagonal, p_null=params.align_null)
    return extract(sources, targets, src_toks, tgt_toks, links, params)


def _truncations(key: str, forms_of: dict[str, Counter[str]]) -> list[str]:
    words = key.split(" ")
    return [k for k in (" ".join(words[1:]), " ".join(words[:-1])) if k and k in forms_of and k != key]


def _candidate_keys(name: str, term: TermCandidate, cands: Candidates, params: MiningParams) -> list[str]:
    """Aligned renderings (the strongest few) and truncations of them (boundary repair); for terms
    seen in enough units, target content words co-occurring in most of its units (a fallback used
    only when no aligned rendering is consistent enough)."""
    keys: list[str] = []
    if term.aligned:
        ranked = sorted(term.aligned.items(), key=lambda kv: (-kv[1], kv[0]))
        top = ranked[0][1]
        keys = [k for k, n in ranked[:4] if n * 5 >= top]
        for k in list(keys):
            keys += [t for t in _truncations(k, cands.forms) if t not in keys]
    counts: Counter[str] = Counter()
    for unit in term.units:
        counts.update(cands.unit_keys[unit])
    frequent = len(term.units) >= params.term_cooc_min_units
    floor = params.term_min_consistency * len(term.units)
    keys += sorted(k for k, n in counts.items()
                   if k not in keys and ((frequent and n >= floor) or cognate(name, _form(cands, k), params)))
    return [k for k in keys if nominal(cands.pos.get(k, Counter()))]


def _form(cands: Candidates, key: str) -> str:
    forms = cands.forms.get(key)
    return max(forms.items(), key=lambda kv: (kv[1], kv[0]))[0] if forms else key


def cognate(term: str, form: str, params: MiningParams) -> bool:
    """Orthographically close single words (``immunity``/``immunité``, ``transmissible``): in a
    technical TM such a target word is almost always the rendering, even where alignment failed."""
    if " " in term or " " in form or min(len(term), len(form)) < 5:
        return False
    return fuzz.ratio(term, form) / 100 >= params.term_cognate_similarity


def content_words(text: str) -> int:
    return sum(1 for w in text.replace("-", " ").split(" ") if len(w) > 2 and w not in STOP_LIKE)


def covers(term: str, key: str) -> bool:
    """A rendering far shorter than its term translates only part of it (``share of annual revenue``
    → ``revenus``): at least half the term's content words must have a counterpart."""
    return 2 * max(1, len([w for w in key.replace(" - ", "-").split(" ") if len(w) > 1])) >= content_words(term)


def _nested(short: str, long: str) -> bool:
    return short != long and f" {short} " in f" {long} "


def choose(choices: list[Choice], tolerance: float, min_coverage: float) -> Choice:
    """Boundary repair over the candidates (see module docstring)."""
    aligned = [c for c in choices if c.aligned > 0 or c.cognate]
    pool = aligned if aligned and max(c.coverage for c in aligned) > 0 else choices
    qualified = [c for c in pool if c.coverage >= min_coverage]
    if qualified:  # the most strongly associated of the consistent renderings
        chosen = max(qualified, key=lambda c: (round(c.dice, 3), c.coverage, c.aligned, len(c.key), c.key))
    else:
        chosen = max(pool, key=lambda c: (c.coverage, c.aligned, round(c.dice, 3), len(c.key), c.key))
    # extension: a longer rendering that keeps (within tolerance) the coverage is the more precise term
    longer = [c for c in aligned if _nested(chosen.key, c.key) and c.coverage >= chosen.coverage - tolerance]
    if longer:
        chosen = max(longer, key=lambda c: (c.coverage, c.aligned, len(c.key), c.key))
    return chosen


def mine_terms(corpus: Corpus, params: MiningParams) -> TermResult:
    """Term rules for the corpus's language pair (see module docstring)."""
    indices = sample_indices(corpus, params.term_max_units_align)
    cands = aligned_candidates(corpus, indices, params)
    keys_of = {t: _candidate_keys(t, c, cands, params) for t, c in sorted(cands.terms.items())}
    terms = [t for t, keys in keys_of.items() if keys]
    all_keys = sorted({k for ks in keys_of.values() for k in ks})
    all_forms = sorted({f for k in all_keys for f in cands.forms[k]})
    src_hits = dict(zip(terms, (np.asarray(h, dtype=np.int64) for h in unit_hits(terms, corpus.folded_sources))))
    form_hits = dict(zip(all_forms, unit_hits(all_forms, corpus.folded_targets)))
    key_hits: dict[str, np.ndarray] = {}
    for key in all_keys:
        units: set[int] = set()
        for form in cands.forms[key]:
            units.update(form_hits[form])
        key_hits[key] = np.asarray(sorted(units), dtype=np.int64)
    result = TermResult([], {}, [], Counter())
    choices_of = {t: _choices(t, cands, keys_of[t], src_hits[t], key_hits, params) for t in terms if src_hits[t].size}
    rivals: dict[str, list[tuple[float, str]]] = {}  # rendering -> (dice, term) of every term proposing it
    for t, choices in choices_of.items():
        for c in choices:
            rivals.setdefault(c.key, []).append((c.dice, t))
    best_dice = {k: sorted(v, reverse=True)[:8] for k, v in rivals.items()}
    vocabulary = set(cands.terms)
    word_keys = {t: {k for k, _ in c.aligned.most_common(3)} for t, c in cands.terms.items() if " " not in t}
    for term in terms:
        if term not in choices_of:
            result.stats["no_source_hit"] += 1
            continue
        _decide(term, cands, choices_of[term], src_hits[term], key_hits, best_dice, (vocabulary, word_keys), corpus,
                params, result)
    result.stats = dict(result.stats)
    return result


def adverb(word: str, vocabulary: set[str]) -> bool:
    """English -ly adverbs (``successfully``, ``possibly``, ``easily``): phrasing, not terms. A word
    counts as an adverb when its base (successful, possible, easy) is itself a word of the TM."""
    if not word.endswith("ly") or len(word) < 6:
        return False
    return any(base in vocabulary for base in (word[:-2], word[:-1] + "e", word[:-3] + "y"))


def _choices(term: str, cands: Candidates, keys: list[str], s_units: np.ndarray,
             key_hits: dict[str, np.ndarray], params: MiningParams) -> list[Choice]:
    out = []
    for key in keys:
        k_units = key_hits[key]
        joint = int(np.intersect1d(s_units, k_units, assume_unique=True).size)
        out.append(Choice(key, sorted(cands.forms[key]), joint, joint / max(1, s_units.size),
                          dice(joint, int(s_units.size), int(k_units.size)), cands.terms[term].aligned.get(key, 0),
                          cognate(term, _form(cands, key), params)))
    return out


def compositional(term: str, key: str, word_keys: dict[str, set[str]]) -> bool:
    """Every content word of a multiword term has one of its own aligned renderings inside ``key``
    (``immune system`` → ``système immunitaire``: system→système, immune→immunitaire). A phrase
    seen once has no other evidence; this keeps real terms and drops clause fragments."""
    inside = set(key.split(" "))
    for word in term.replace("-", " ").split(" "):
        if len(word) <= 2 or word in STOP_LIKE:
            continue
        if not any(set(k.split(" ")) & inside for k in word_keys.get(word, ())):
            return False
    return True


def stem(term: str) -> str:
    """English plural folded away (trials → trial, viruses → virus): a term and its plural are
    one term when deciding whose rendering a target phrase is."""
    for suffix, repl in (("ies", "y"), ("ses", "s"), ("s", "")):
        if term.endswith(suffix) and len(term) > len(suffix) + 2:
            return term[: -len(suffix)] + repl
    return term


def _rival_dice(term: str, key: str, best_dice: dict[str, list[tuple[float, str]]]) -> float:
    return max((d for d, t in best_dice.get(key, []) if stem(t) != stem(term)), default=0.0)


def _reject(term: str, chosen: Choice, occurrences: int, best_dice: dict[str, list[tuple[float, str]]],
            lexicon: tuple[set[str], dict[str, set[str]]], params: MiningParams) -> str | None:
    """Why a chosen (term, rendering) is not a rule (None when it is)."""
    vocabulary, word_keys = lexicon
    if chosen.support < params.term_min_support:
        return "low_support"
    if chosen.support <= params.term_low_support and not chosen.cognate and (
            chosen.dice < params.term_min_dice or chosen.aligned < params.term_low_support_min_align * occurrences):
        return "weak_low_support"
    if chosen.support <= 1 and len(term.split(" ")) > params.term_singleton_max_words:
        return "long_singleton"
    if (" " in term and (chosen.support <= params.term_compositional_support or chosen.dice < params.term_compositional_dice)
            and not compositional(term, chosen.key, word_keys)):
        return "not_compositional"
    extra = content_words(chosen.key) - content_words(term)
    if extra > (0 if chosen.support <= params.term_low_support else 1):
        return "rendering_adds_words"  # "research efforts" → "efforts importants dans la recherche"
    if not all(_PLAIN_FORM.fullmatch(f) for f in chosen.forms):
        return "odd_rendering"  # "p.", fragments with punctuation
    if not covers(term, chosen.key):
        return "partial_rendering"
    words = term.split(" ")
    if adverb(words[0], vocabulary) or adverb(words[-1], vocabulary):
        return "adverb"
    if len(words) > 1 and words[-1].endswith("ed") and len(words[-1]) > 4:
        return "ends_in_participle"  # "people infected", "cases reported": clauses, not terms
    if words[-1].endswith("ing") and chosen.support <= params.term_low_support:
        return "rare_gerund"  # "investigating", "patients showing": verbs unless well attested
    if not (term[0].isalnum() and term[-1].isalnum()):
        return "ragged_edge"
    if (chosen.support <= params.term_reverse_max_support
            and chosen.dice < params.term_reverse_ratio * _rival_dice(term, chosen.key, best_dice)):
        return "rendering_belongs_to_other_term"  # competitive linking: santé publique ↔ public health
    return None


def _decide(term: str, cands: Candidates, choices: list[Choice], s_units: np.ndarray, key_hits: dict[str, np.ndarray],
            best_dice: dict[str, list[tuple[float, str]]], lexicon: tuple[set[str], dict[str, set[str]]], corpus: Corpus,
            params: MiningParams, result: TermResult) -> None:
    stats: Counter[str] = result.stats  # type: ignore[assignment]
    chosen = choose(choices, params.term_boundary_tolerance, params.term_min_consistency)
    chosen, chosen_units = _with_derivations(chosen, choices, s_units, key_hits, params)
    occurrences = cands.terms[term].occurrences
    if chosen.coverage < params.term_min_consistency:
        stats["low_consistency"] += 1
        _conflict(term, choices, chosen, params, result, mandated=False)
        return
    why = _reject(term, chosen, occurrences, best_dice, lexicon, params)
    if why is not None:
        stats[why] += 1
        return
    entry, is_regex = alternatives(chosen.forms)
    evidence = np.intersect1d(s_units, chosen_units, assume_unique=True)
    counter = np.setdiff1d(s_units, chosen_units, assume_unique=True)
    spelled = max(cands.terms[term].surfaces.items(), key=lambda kv: (kv[1], kv[0]))[0]
    acronym = len(spelled) > 1 and spelled.isupper() and spelled.casefold() in STOP_LIKE
    conv = Convention(
        dimension=f"term:{term}", rule="term", src=spelled, src_match_mode="exact" if acronym else None, expected_terms=[entry], regex=is_regex,
        match_mode="typographic", src_lang=corpus.src_lang, tgt_lang=corpus.tgt_lang, mqm_category=MQM_TERM,
        origin="mined", status="candidate", support=chosen.support, consistency=round(chosen.coverage, 4),
    )
    conv.extra = {"dice": round(chosen.dice, 4), "aligned": chosen.aligned, "lemma_key": chosen.key}
    result.conventions.append(conv)
    result.evidence[conv.convention_id] = (evidence.tolist(), counter.tolist())
    stats["rules"] += 1
    _conflict(term, choices, chosen, params, result, mandated=True)


def _with_derivations(chosen: Choice, choices: list[Choice], s_units: np.ndarray, key_hits: dict[str, np.ndarray],
                      params: MiningParams) -> tuple[Choice, np.ndarray]:
    """Fold in aligned one-word renderings sharing a long stem with the chosen one (``épidémie`` /
    ``épidémique`` for ``epidemic``, noun and adjective of one English word): one rule, alternatives."""
    units = key_hits[chosen.key]
    if " " in chosen.key:
        return chosen, units
    siblings = [c for c in choices if c.key != chosen.key and " " not in c.key and (c.aligned or c.cognate)
                and len(os.path.commonprefix([c.key, chosen.key])) >= max(params.term_stem_min_chars,
                                                                           0.8 * min(len(c.key), len(chosen.key)))]
    if not siblings:
        return chosen, units
    for sib in siblings:
        units = np.union1d(units, key_hits[sib.key])
    joint = int(np.intersect1d(s_units, units, assume_unique=True).size)
    merged = Choice(chosen.key, sorted({f for c in [chosen, *siblings] for f in c.forms}), joint,
                    joint / max(1, s_units.size), dice(joint, int(s_units.size), int(units.size)),
                    chosen.aligned + sum(c.aligned for c in siblings), chosen.cognate)
    return merged, units


def _conflict(term: str, choices: list[Choice], chosen: Choice, params: MiningParams, result: TermResult,
              *, mandated: bool) -> None:
    """Report a second rendering that is neither part of nor contains the chosen one and is frequent."""
    rivals = [c for c in choices if c.key != chosen.key and c.key not in chosen.key and chosen.key not in c.key
              and c.coverage >= params.term_conflict_min_share and c.support >= 2]
    if not rivals:
        return
    result.conflicts.append({
        "kind": "term", "dimension": f"term:{term}", "src": term, "resolved": mandated,
        "renderings": [{"lemma_key": c.key, "forms": c.forms[:10], "support": c.support, "coverage": round(c.coverage, 4),
                        "chosen": c.key == chosen.key} for c in [chosen, *rivals]],
    })
