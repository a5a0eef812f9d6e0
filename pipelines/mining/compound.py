"""Boundary repair for renderings that are one half of a hyphenated compound.

The French tokenizer splits ``sous-jacents`` into ``sous`` ``-`` ``jacents``, so the aligner often
links ``underlying`` to ``sous`` alone; ``term_filters.fragment_of_compound`` then rejects that half.
When the aligner linked the term to the whole compound at least once (``sous - jacents``), the
compound is the term's rendering and is measured like any candidate (TICO dev: ``underlying`` →
``sous-jacent``, ``gastrointestinal`` → ``gastro-intestinal``). A one-word term whose compound is
the rendering of a longer ruled term holding it (``east`` → ``moyen-orient`` of ``middle east``)
is that term's fragment and is dropped afterwards (``drop_compound_of_longer_term``).
"""

from __future__ import annotations

import re
from collections import ChainMap, Counter
from collections.abc import Mapping, Sequence

import numpy as np

from housestyle.pipelines.conventions.matching import HYPHENS
from housestyle.pipelines.mining.association import dice, unit_hits
from housestyle.pipelines.mining.column_hits import batched_unit_hits, concat_hits, joint_count
from housestyle.pipelines.mining.corpus import Texts
from housestyle.pipelines.mining.boundary import Choice, share_start
from housestyle.pipelines.mining.params import DEFAULT_PARAMS, MiningParams
from housestyle.pipelines.mining.term_context import drop_rules
from housestyle.pipelines.mining.term_result import TermResult
from housestyle.pipelines.mining.tokens import fold_count

COMPOUND_JOIN = " - "  # how a lemma key spells a hyphen inside a word (tokens joined by spaces)
_HYPHENATED = re.compile(r"\w+(?:[" + HYPHENS.replace("-", r"\-") + r"]\w+)+")


def whole_compound(half: Choice, aligned: Counter[str], forms_of: Mapping[str, Counter[str]], s_units: np.ndarray,
                   folded_targets: Sequence[str], params: MiningParams = DEFAULT_PARAMS,
                   raw_targets: Sequence[str] | None = None) -> tuple[Choice, np.ndarray] | None:
    """The compound the aligner linked the term to that holds ``half`` as one of its parts, with its
    inflected forms, counted over all units like any rendering (word-bounded as the checker counts:
    ``raw_targets``, the unfolded texts, tell a hyphen from a dash the fold wrote as one); None when
    the aligner never linked such a compound."""
    spelled = compound_spellings(half, aligned, forms_of, s_units, folded_targets, params, raw_targets)
    if spelled is None:
        return None
    key, forms = spelled
    units = _count(forms, folded_targets, raw_targets)
    return _measured(key, forms, aligned, s_units, units), units


def compound_spellings(half: Choice, aligned: Counter[str], forms_of: Mapping[str, Counter[str]], s_units: np.ndarray,
                       folded_targets: Sequence[str], params: MiningParams = DEFAULT_PARAMS,
                       raw_targets: Sequence[str] | None = None) -> tuple[str, list[str]] | None:
    """(key, forms) of ``whole_compound`` before counting."""
    if " " in half.key:
        return None
    # one hyphen-joined word (``wi - fi``), not a phrase holding one (``wi - fi gratuit``)
    keys = [k for k in aligned if COMPOUND_JOIN in k and " " not in k.replace(COMPOUND_JOIN, "-")
            and half.key in k.split(COMPOUND_JOIN)]
    if not keys:
        return None
    best = max(keys, key=lambda k: (aligned[k], k))
    seen = forms_of.get(best) or Counter({best.replace(COMPOUND_JOIN, "-"): 1})
    best_form = max(seen.items(), key=lambda kv: (kv[1], kv[0]))[0]
    # Its other forms are the TM's own: hyphenated words of the term's units holding the half and
    # spelled like the compound but for an ending (sous-jacent, sous-jacente, sous-jacentes); the
    # word generators inflect words, not compounds.
    spellings = {best_form}
    source = folded_targets if raw_targets is None else raw_targets  # hyphen-joined in the RAW text
    texts = source.gather(s_units) if isinstance(source, Texts) else [source[i] for i in s_units.tolist()]
    for text in texts:  # (a dash the counting fold wrote as "-" joins nothing)
        for word in (w if raw_targets is None else fold_count(w) for w in _HYPHENATED.findall(text)):
            if set(word.split("-")) & set(half.forms) and share_start(word, best_form, params.candidates.compound_prefix_share, params):
                spellings.add(word)
    return best, sorted(spellings)


def _count(forms: Sequence[str], folded_targets: Sequence[str], raw_targets: Sequence[str] | None) -> np.ndarray:
    """Units holding any of the forms (word-bounded, see ``association.unit_hits``)."""
    if isinstance(folded_targets, Texts):  # a corpus column: counted batch by batch
        raws = raw_targets if isinstance(raw_targets, Texts) else None
        return concat_hits(batched_unit_hits(list(forms), folded_targets, raws)).astype(np.int64)
    return np.asarray(sorted({i for hits in unit_hits(forms, folded_targets, raw_targets) for i in hits}), dtype=np.int64)


def _measured(key: str, forms: list[str], aligned: Counter[str], s_units: np.ndarray, units: np.ndarray) -> Choice:
    joint = joint_count(s_units, units)
    return Choice(key, forms, joint, joint / max(1, s_units.size), dice(joint, int(s_units.size), int(units.size)),
                  aligned[key], False, repair="compound")


def repair_halves(choices_of: dict[str, list[Choice]], aligned_of: Mapping[str, Counter[str]],
                  forms_of: Mapping[str, Counter[str]], src_hits: Mapping[str, np.ndarray],
                  folded_targets: Sequence[str], raw_targets: Sequence[str] | None,
                  key_hits: dict[str, np.ndarray],
                  params: MiningParams = DEFAULT_PARAMS) -> dict[str, Mapping[str, np.ndarray]]:
    """Each term's candidate renderings (``choices_of``, replaced in place) with every one-word half of
    a hyphenated compound the aligner linked the term to replaced by that whole compound
    (``whole_compound``) when the compound covers more of the term's units than the half does as a
    word of its own; returned: per term, the unit hits with its rebuilt renderings' (an overlay: the
    shared table of every term is left as it is). All the compounds are counted in one search.

    Why before the choice: the aligner links a term to one piece of a compound (the tokenizer splits
    it), while the checker, like the counts, sees the compound as one word (SPEC §2), so the half is
    rarely found where the aligner put it and would never be chosen, and a repair after the choice
    never runs. A compound that already is one of the term's renderings stays as the aligner gave it
    (a copy, ``wi-fi``, keeps its own forms and is no repair)."""
    plans: dict[str, list[tuple[int, str, list[str]]]] = {}
    for term, choices in choices_of.items():
        for i, choice in enumerate(choices):
            spelled = compound_spellings(choice, aligned_of[term], forms_of, src_hits[term], folded_targets, params,
                                         raw_targets)
            if spelled is not None:
                plans.setdefault(term, []).append((i, *spelled))
    all_forms = sorted({f for plan in plans.values() for _, _, forms in plan for f in forms})
    if all_forms:
        if isinstance(folded_targets, Texts):
            raws = raw_targets if isinstance(raw_targets, Texts) else None
            form_units = dict(zip(all_forms, batched_unit_hits(all_forms, folded_targets, raws)))
        else:
            form_units = {f: np.asarray(h, dtype=np.int64) for f, h in zip(all_forms, unit_hits(all_forms, folded_targets, raw_targets))}
    hits_of: dict[str, Mapping[str, np.ndarray]] = {}
    for term, choices in choices_of.items():
        rebuilt: dict[str, tuple[Choice, np.ndarray]] = {}
        halves: set[int] = set()
        for i, key, forms in plans.get(term, []):
            units = concat_hits(form_units[f] for f in forms).astype(np.int64)
            whole = _measured(key, forms, aligned_of[term], src_hits[term], units)
            if whole.coverage > choices[i].coverage:
                rebuilt.setdefault(key, (whole, units))
                halves.add(i)
        if not rebuilt:
            hits_of[term] = key_hits
            continue
        kept = [c for i, c in enumerate(choices) if i not in halves]
        own = {c.key for c in kept}
        added = {k: whole for k, whole in rebuilt.items() if k not in own}  # an own compound keeps its hits too
        choices_of[term] = kept + [c for c, _ in added.values()]
        hits_of[term] = ChainMap({k: units for k, (_, units) in added.items()}, key_hits) if added else key_hits
    return hits_of


def drop_compound_of_longer_term(result: TermResult) -> None:
    """A one-word term whose rendering was rebuilt as a compound (``whole_compound``) that is also the
    rendering of a longer ruled term holding that word (``east`` → ``moyen-orient``, like ``middle
    east``) renders only as part of that term: a fragment."""
    terms_of: dict[str, list[str]] = {}
    for conv in result.conventions:
        terms_of.setdefault(str(conv.extra.get("lemma_key", "")), []).append(conv.dimension.removeprefix("term:"))
    fragments: set[str] = set()
    for conv in result.conventions:
        term, key = conv.dimension.removeprefix("term:"), str(conv.extra.get("lemma_key", ""))
        if conv.extra.get("boundary_repair") == "compound" and " " not in term and any(
                other != term and term in other.split(" ") for other in terms_of[key]):
            fragments.add(conv.convention_id)
    drop_rules(result, fragments, "compound_of_longer_term")
