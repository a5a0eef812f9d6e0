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

from pipelines.conventions.matching import HYPHENS
from pipelines.mining.association import dice, unit_hits
from pipelines.mining.boundary import Choice, share_start
from pipelines.mining.params import DEFAULT_PARAMS, MiningParams
from pipelines.mining.term_context import drop_rules
from pipelines.mining.term_result import TermResult
from pipelines.mining.tokens import fold_count

COMPOUND_JOIN = " - "  # how a lemma key spells a hyphen inside a word (tokens joined by spaces)
_HYPHENATED = re.compile(r"\w+(?:[" + HYPHENS.replace("-", r"\-") + r"]\w+)+")


def whole_compound(half: Choice, aligned: Counter[str], forms_of: Mapping[str, Counter[str]], s_units: np.ndarray,
                   folded_targets: Sequence[str], params: MiningParams = DEFAULT_PARAMS,
                   raw_targets: Sequence[str] | None = None) -> tuple[Choice, np.ndarray] | None:
    """The compound the aligner linked the term to that holds ``half`` as one of its parts, with its
    inflected forms, counted over all units like any rendering (word-bounded as the checker counts:
    ``raw_targets``, the unfolded texts, tell a hyphen from a dash the fold wrote as one); None when
    the aligner never linked such a compound."""
    if " " in half.key:
        return None
    # one hyphen-joined word (``sous - jacents``), not a phrase holding one (``covid - 19 suspectée``)
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
    for index in s_units.tolist():  # hyphen-joined in the raw text (a dash the fold wrote as "-" joins nothing)
        text = folded_targets[index] if raw_targets is None else raw_targets[index]
        for word in (w if raw_targets is None else fold_count(w) for w in _HYPHENATED.findall(text)):
            if set(word.split("-")) & set(half.forms) and share_start(word, best_form, params.term_compound_prefix_share, params):
                spellings.add(word)
    forms = sorted(spellings)
    units = np.asarray(sorted({i for hits in unit_hits(forms, folded_targets, raw_targets) for i in hits}), dtype=np.int64)
    joint = int(np.intersect1d(s_units, units, assume_unique=True).size)
    choice = Choice(best, forms, joint, joint / max(1, s_units.size), dice(joint, int(s_units.size), int(units.size)),
                    aligned[best], False, repair="compound")
    return choice, units


def repair_halves(choices: Sequence[Choice], aligned: Counter[str], forms_of: Mapping[str, Counter[str]],
                  s_units: np.ndarray, folded_targets: Sequence[str], raw_targets: Sequence[str] | None,
                  key_hits: dict[str, np.ndarray],
                  params: MiningParams = DEFAULT_PARAMS) -> tuple[list[Choice], Mapping[str, np.ndarray]]:
    """The term's candidate renderings with every one-word half of a hyphenated compound the aligner
    linked the term to replaced by that whole compound (``whole_compound``) when the compound covers more of the term's
    units than the half does as a word of its own; and the unit hits with the rebuilt renderings'
    (an overlay: the shared table of every term is left as it is).

    Why before the choice: the aligner links a term to one piece of a compound (the tokenizer splits
    it), while the checker, like the counts, sees the compound as one word (SPEC §2), so the half is
    rarely found where the aligner put it and would never be chosen, and a repair after the choice
    never runs. A compound that already is one of the term's renderings stays as the aligner gave it
    (a copy, ``covid-19``, keeps its own forms and is no repair)."""
    rebuilt: dict[str, tuple[Choice, np.ndarray]] = {}
    out: list[Choice] = []
    for choice in choices:
        whole = None
        if " " not in choice.key:
            whole = whole_compound(choice, aligned, forms_of, s_units, folded_targets, params, raw_targets)
        if whole is not None and whole[0].coverage > choice.coverage:
            rebuilt.setdefault(whole[0].key, whole)
        else:
            out.append(choice)
    if not rebuilt:
        return out, key_hits
    own = {c.key for c in out}
    out += [c for c, _ in rebuilt.values() if c.key not in own]
    return out, ChainMap({k: units for k, (_, units) in rebuilt.items()}, key_hits)


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
