"""Choosing one term's rendering among its candidates: boundary repair and grouping of variants.

``choose``: among the renderings aligned to the term, the most strongly associated (Dice) one whose
coverage reaches ``terms.min_consistency`` (an exact tie goes to a cognate or copy of the term before
the aligner's pick: on a one-unit term the aligner often links a neighbouring word, ``Golgi`` →
``compartiment``); then an aligned rendering containing it wins when it does not lower coverage by
more than ``terms.boundary_tolerance`` (extension). A shorter rendering wins only through Dice: letting
it win on coverage alone (``rhume`` over ``rhume commun``) cost 2 gold pairs on the dev split and cut
rules to their first word (``host cell`` → ``hôte``, ``school closures`` → ``fermeture``).
``trim_overlong``: Dice cannot tell an over-long rendering (equal coverage, fewer units elsewhere, so
Dice is never lower) from the term's own; a source word next to the term can. ``with_siblings``:
derived words and spelling variants of the chosen rendering become alternatives of the same rule.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from housestyle.pipelines.mining.association import dice
from housestyle.pipelines.mining.column_hits import joint_count
from housestyle.pipelines.mining.params import DEFAULT_PARAMS, MiningParams


@dataclass(slots=True)
class Choice:
    key: str
    forms: list[str]
    support: int
    coverage: float
    dice: float
    aligned: int
    cognate: bool = False
    repair: str = ""  # how boundary repair rebuilt it ("compound": ``compound.whole_compound``), "" if it did not
    # lemma keys folded in by ``with_siblings``: their forms are generated too (the tagger gave
    # ``alternative`` the lemma ``alternative`` in some units and ``alternatif`` in others)
    siblings: tuple[str, ...] = ()


def nested(short: str, long: str) -> bool:
    return short != long and f" {short} " in f" {long} "


def choose(choices: list[Choice], tolerance: float, min_coverage: float) -> Choice:
    """Boundary repair over the candidates (see module docstring)."""
    aligned = [c for c in choices if c.aligned > 0 or c.cognate]
    pool = aligned if aligned and max(c.coverage for c in aligned) > 0 else choices
    qualified = [c for c in pool if c.coverage >= min_coverage]
    if qualified:  # the most strongly associated of the consistent renderings
        chosen = max(qualified, key=lambda c: (round(c.dice, 3), c.coverage, c.cognate, c.aligned, len(c.key), c.key))
    else:
        chosen = max(pool, key=lambda c: (c.coverage, c.aligned, round(c.dice, 3), len(c.key), c.key))
    # extension: a longer rendering that keeps (within tolerance) the coverage is the more precise term
    longer = [c for c in aligned if nested(chosen.key, c.key) and c.coverage >= chosen.coverage - tolerance]
    if longer:
        chosen = max(longer, key=lambda c: (c.coverage, c.aligned, len(c.key), c.key))
    return chosen


def trim_overlong(chosen: Choice, choices: list[Choice], renders_neighbour: Callable[[str], bool],
                  params: MiningParams = DEFAULT_PARAMS) -> Choice:
    """The shorter nested rendering when every extra word of the chosen one renders a source word
    NEXT TO the term (for instance ``status bar`` → ``barre d'état principale`` where ``principale``
    is ``main``, the word before the term in most of its units). ``renders_neighbour(key)``: whether ``key`` is an
    aligned rendering of a word adjacent to the term in enough of its units."""
    shorter = [c for c in choices if nested(c.key, chosen.key) and c.coverage >= chosen.coverage]
    for short in sorted(shorter, key=lambda c: (-len(c.key), c.key)):
        extra = [w for w in _without(chosen.key.split(" "), short.key.split(" "))
                 if len(w) >= params.candidates.rendering_word_min_chars]
        if extra and all(renders_neighbour(w) for w in extra):
            return short
    return chosen


def _without(words: list[str], part: list[str]) -> list[str]:
    """``words`` minus the contiguous run ``part`` (first occurrence)."""
    for i in range(len(words) - len(part) + 1):
        if words[i:i + len(part)] == part:
            return words[:i] + words[i + len(part):]
    return words


def unaccented(text: str) -> str:
    """Diacritics removed: ``aigüe`` and ``aiguë`` (1990 spelling reform), ``évènement`` and
    ``événement`` meet. Used only to compare renderings of ONE term, where such a collision is a
    spelling variant, never two words (``élève``/``élevé`` do not both render one English term)."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def with_siblings(term: str, chosen: Choice, choices: list[Choice], s_units: np.ndarray,
                  key_hits: Mapping[str, np.ndarray], params: MiningParams,
                  senses: Sequence[Choice] = ()) -> tuple[Choice, np.ndarray]:
    """Fold into the chosen rendering (one rule, alternatives): aligned one-word renderings sharing a
    long stem with it (``économie`` / ``économique`` for ``economy``: noun and adjective of one
    English word) and spelling variants of it (same words without diacritics: ``règlementation`` /
    ``réglementation``). The source word left untranslated is no variant (``identity`` in a French
    target would be a copy of the English, not a spelling of ``identité``). ``senses``: renderings of
    the term's other part of speech (a verb sense, ``travailler`` beside ``travail``), joined when of
    one family."""
    units = key_hits[chosen.key]
    siblings = [c for c in choices if c.key != chosen.key and (_stem_sibling(c, chosen, params) or (
        _spelling_variant(c.forms, chosen.forms) and term not in c.forms and c.key != term))]
    siblings += [c for c in senses if c.key != chosen.key and c not in siblings and _derived(c.key, chosen.key, params)]
    if not siblings:
        return chosen, units
    for sib in siblings:
        units = np.union1d(units, key_hits[sib.key])
    joint = joint_count(s_units, units)
    merged = Choice(chosen.key, sorted({f for c in [chosen, *siblings] for f in c.forms}), joint,
                    joint / max(1, s_units.size), dice(joint, int(s_units.size), int(units.size)),
                    chosen.aligned + sum(c.aligned for c in siblings), chosen.cognate, chosen.repair,
                    tuple(sorted({*chosen.siblings, *(c.key for c in siblings)})))
    return merged, units


def share_start(a: str, b: str, fraction: float, params: MiningParams = DEFAULT_PARAMS) -> bool:
    """``a`` and ``b`` share at least ``candidates.shared_prefix_min_chars`` characters and ``fraction``
    of the shorter word."""
    return len(os.path.commonprefix([a, b])) >= max(params.candidates.shared_prefix_min_chars, fraction * min(len(a), len(b)))


def _derived(a: str, b: str, params: MiningParams) -> bool:
    """Words of one family across parts of speech share their start (``travail``/``travailler``);
    a verb the aligner linked to a term beside an unrelated noun (``aider`` beside ``téléphonique``
    for ``help``) is the term's real sense, not an alternative."""
    return share_start(a, b, params.candidates.family_prefix_share, params)


def _spelling_variant(forms: list[str], chosen: list[str]) -> bool:
    """Forms equal to the chosen ones but for diacritics, and none identical (a form shared as it
    is means the tagger gave one word two lemmas, ``revenus`` of ``revenu`` and of ``revenir``:
    merging would bring the other lemma's forms along)."""
    return not set(forms) & set(chosen) and bool({unaccented(f) for f in forms} & {unaccented(f) for f in chosen})


def _stem_sibling(c: Choice, chosen: Choice, params: MiningParams) -> bool:
    if " " in chosen.key or " " in c.key or not (c.aligned or c.cognate):
        return False
    return len(os.path.commonprefix([c.key, chosen.key])) >= max(params.terms.stem_min_chars,
                                                                  params.candidates.stem_prefix_share * min(len(c.key), len(chosen.key)))
