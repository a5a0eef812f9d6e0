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
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from pipelines.mining.association import dice, unit_hits
from pipelines.mining.boundary import Choice, share_start
from pipelines.mining.term_context import drop_rules

if TYPE_CHECKING:
    from pipelines.mining.term_rules import TermResult

COMPOUND_JOIN = " - "  # how a lemma key spells a hyphen inside a word (tokens joined by spaces)
_HYPHENATED = re.compile(r"\w+(?:-\w+)+")


def whole_compound(half: Choice, aligned: Counter[str], forms_of: dict[str, Counter[str]], s_units: np.ndarray,
                   folded_targets: Sequence[str]) -> tuple[Choice, np.ndarray] | None:
    """The compound the aligner linked the term to that holds ``half`` as one of its parts, with its
    inflected forms, counted over all units like any rendering; None when the aligner never linked
    such a compound."""
    if " " in half.key:
        return None
    keys = [k for k in aligned if COMPOUND_JOIN in k and half.key in k.split(COMPOUND_JOIN)]
    if not keys:
        return None
    best = max(keys, key=lambda k: (aligned[k], k))
    seen = forms_of.get(best) or Counter({best.replace(COMPOUND_JOIN, "-"): 1})
    best_form = max(seen.items(), key=lambda kv: (kv[1], kv[0]))[0]
    # Its other forms are the TM's own: hyphenated words of the term's units holding the half and
    # spelled like the compound but for an ending (sous-jacent, sous-jacente, sous-jacentes); the
    # word generators inflect words, not compounds.
    spellings = {best_form}
    for index in s_units.tolist():
        for word in _HYPHENATED.findall(folded_targets[index]):
            if set(word.split("-")) & set(half.forms) and share_start(word, best_form, 0.8):
                spellings.add(word)
    forms = sorted(spellings)
    units = np.asarray(sorted({i for hits in unit_hits(forms, folded_targets) for i in hits}), dtype=np.int64)
    joint = int(np.intersect1d(s_units, units, assume_unique=True).size)
    choice = Choice(best, forms, joint, joint / max(1, s_units.size), dice(joint, int(s_units.size), int(units.size)),
                    aligned[best], False)
    return choice, units


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
