"""Which target renderings a source term's rule may choose among (``term_rules`` measures and
chooses): its aligned renderings and their one-word truncations, co-occurring content words and
cognates as a fallback, the nominal ones first. Apart from ``term_rules`` because choosing the keys
is one job and measuring them another."""

from __future__ import annotations

from collections import Counter

from rapidfuzz import fuzz

from housestyle.pipelines.mining.params import MiningParams, at_least
from housestyle.pipelines.mining.rendering_class import nominal_key
from housestyle.pipelines.mining.term_candidates import Candidates, TermCandidate
from housestyle.pipelines.mining.term_context import verb_senses


def _truncations(key: str, forms_of: dict[str, Counter[str]]) -> list[str]:
    words = key.split(" ")
    return [k for k in (" ".join(words[1:]), " ".join(words[:-1])) if k and k in forms_of and k != key]


class KeyFacts:
    """A rendering key's most frequent form and whether it is nominal, looked up once per key of one
    ``Candidates`` (not once per term proposing it: a frequent target word co-occurs with thousands
    of terms). Valid while ``cands`` is unchanged, i.e. while the candidate keys are chosen."""

    __slots__ = ("cands", "forms", "nominal")

    def __init__(self, cands: Candidates) -> None:
        self.cands = cands
        self.forms: dict[str, str] = {}
        self.nominal: dict[str, bool] = {}

    def form(self, key: str) -> str:
        found = self.forms.get(key)
        if found is None:
            found = self.forms[key] = form_of(self.cands, key)
        return found

    def is_nominal(self, key: str) -> bool:
        found = self.nominal.get(key)
        if found is None:
            found = self.nominal[key] = nominal_key(key, self.cands)
        return found


def candidate_keys(name: str, term: TermCandidate, cands: Candidates, params: MiningParams,
                    facts: KeyFacts | None = None) -> list[str]:
    """Aligned renderings (the strongest few) and truncations of them (boundary repair); for terms
    seen in enough units, target content words co-occurring in most of its units (a fallback used
    only when no aligned rendering is consistent enough). Terms are nominal; a one-word term with no
    nominal rendering takes its verb renderings instead (UI actions: ``Select`` → ``sélectionner``,
    ``Confirm`` → ``confirmer``; VPN XLIFF dev)."""
    keys: list[str] = []
    if term.aligned:
        ranked = sorted(term.aligned.items(), key=lambda kv: (-kv[1], kv[0]))
        top = ranked[0][1]
        keys = [k for k, n in ranked[:params.candidates.aligned_keys] if at_least(n, top, params.candidates.aligned_key_share)]
        for k in list(keys):
            keys += [t for t in _truncations(k, cands.forms) if t not in keys]
    counts: Counter[str] = Counter()
    for unit in term.units:
        counts.update(cands.unit_keys[unit])
    frequent = len(term.units) >= params.terms.cooc_min_units
    floor = params.terms.min_consistency * len(term.units)
    facts = facts if facts is not None else KeyFacts(cands)
    # cognate() is False for a multiword or short term whatever the key: its form is then not looked up
    may_cognate = " " not in name and len(name) >= params.candidates.cognate_min_chars
    keys += sorted(k for k, n in counts.items()
                   if k not in keys and ((frequent and n >= floor) or (may_cognate and cognate(name, facts.form(k), params))))
    nominal = [k for k in keys if facts.is_nominal(k)]
    if nominal or " " in name:
        return nominal
    # A word the TM only ever renders as a verb (UI actions: confirm → confirmer) is a verb term.
    return [k for k in verb_senses(name, cands, params) if term.aligned[k] >= params.terms.verb_min_aligned]


def form_of(cands: Candidates, key: str) -> str:
    forms = cands.forms.get(key)
    return max(forms.items(), key=lambda kv: (kv[1], kv[0]))[0] if forms else key


def cognate(term: str, form: str, params: MiningParams) -> bool:
    """Orthographically close single words (``address``/``adresse``, ``firmware``): in a
    technical TM such a target word is almost always the rendering, even where alignment failed."""
    if " " in term or " " in form or min(len(term), len(form)) < params.candidates.cognate_min_chars:
        return False
    return fuzz.ratio(term, form) / 100 >= params.terms.cognate_similarity
