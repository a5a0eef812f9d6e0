"""Why a recurring alternative is NOT proposed as a banned variant (each reason is kept with it).

- ``noise``: the alignment cannot be trusted — nothing anchors it, it is much longer than the term
  (``too_long``), the reference has other content words between the anchors (``loose_alignment``),
  the contexts around term and alternative do not match (``low_context``), or it holds no content
  word. Decided per occurrence; a variant is noise when most of its occurrences are.
- ``inflection``: the same lemmas as the mandated term (``réseau local`` for ``réseaux locaux``,
  ``fenêtres`` for ``fenêtre``): a grammar matter, not a term choice; ``function_words``: the same
  content words, other articles or prepositions (``barre des outils`` for ``barre d'outils``). A
  variant that differs only in spacing, hyphens or punctuation (``copier / coller``,
  ``glisser-déposer``) is a FORMAT alternative and stays a candidate. A variant whose content lemmas
  are a strict part of the term's (``mode lecture`` for ``mode lecture seule``) or strictly contain
  them (``gestionnaire local de mots de passe`` for ``gestionnaire de mots de passe``) is an
  omission or an insertion, not an alternative: noise (``partial``, ``insertion``).
- ``client_uses``: the variant occurs in the client's own approved references (never ban what the
  client writes); the count restricted to units that trigger the term is reported beside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from housestyle.pipelines.contrast.align import Extraction
from housestyle.pipelines.contrast.analysis import Tok, content_lemmas
from housestyle.pipelines.contrast.cases import Unit
from housestyle.pipelines.contrast.params import ContrastParams
from housestyle.pipelines.conventions.compiled import Compiled
from housestyle.pipelines.conventions.folding import fold_term, fold_text
from housestyle.pipelines.conventions.multisearch import word_hits


def noise_reason(ext: Extraction, term_content_tokens: int, params: ContrastParams) -> str | None:
    """The first noise reason of one occurrence, or None when it looks like a clean substitution."""
    if not ext.left_anchor and not ext.right_anchor:
        return "no_anchor"
    if ext.content_tokens == 0:
        return "no_content_word"
    if len(ext.tokens) > max(1, term_content_tokens) + params.max_extra_tokens:
        return "too_long"
    if ext.gap > params.max_gap:
        return "loose_alignment"
    if ext.context_score < params.min_context_score:
        return "low_context"
    return None


def _squeeze(text: str) -> str:
    return re.sub(r"[\W_]+", "", fold_text(text, "typographic"))


def relation(mandated: Sequence[Tok], mandated_text: str, written: Sequence[Tok], written_text: str) -> str | None:
    """How the variant relates to the mandated term: ``format``, ``inflection``, ``function_words``,
    ``partial``, ``insertion``; None for a different wording (or when there are no lemmas)."""
    if _squeeze(mandated_text) == _squeeze(written_text):
        return "format"
    m, w = content_lemmas(mandated), content_lemmas(written)
    if not m or not w:
        return None
    mc, wc = [t for t in mandated if t.is_content], [t for t in written if t.is_content]
    # word by word: same lemma, or the very same form (the tagger may lemmatise one form two ways)
    if len(mc) == len(wc) and all(a.lemma == b.lemma or a.norm == b.norm for a, b in zip(mc, wc)):
        return "function_words" if all(a.norm == b.norm for a, b in zip(mc, wc)) else "inflection"
    if set(w) < set(m):
        return "partial"
    if set(m) < set(w):
        return "insertion"
    return None


@dataclass(frozen=True, slots=True)
class Usage:
    units: int  # approved references holding the variant
    units_for_term: int  # ... among units whose source triggers the term's rule
    examples: tuple[str, ...]  # a few unit ids


def tm_usage(variants: Sequence[tuple[str, str, Compiled]], tm: Sequence[Unit], max_examples: int = 3) -> list[Usage]:
    """For each (variant, match mode, rule): where the client's approved references use it.

    The checker's many-strings search (``multisearch.word_hits``) per match mode over the folded
    references, so "used" means exactly what a wrong_variant would match."""
    hits: list[list[int]] = [[] for _ in variants]
    by_mode: dict[str, list[int]] = {}
    for i, (_variant, mode, _cc) in enumerate(variants):
        by_mode.setdefault(mode, []).append(i)
    raws = [unit.reference for unit in tm]
    for mode, idx in by_mode.items():
        usable = [(i, f) for i in idx if (f := fold_term(variants[i][0], mode))]
        if not usable:
            continue
        texts = [fold_text(raw, mode) for raw in raws]
        for (i, _f), units in zip(usable, word_hits([f for _i, f in usable], texts, raws=raws, mode=mode)):
            hits[i] = units
    out = []
    for i, (_variant, _mode, cc) in enumerate(variants):
        for_term = sum(1 for u in hits[i] if cc.triggered(tm[u].source))
        out.append(Usage(len(hits[i]), for_term, tuple(tm[u].unit_id for u in hits[i][:max_examples])))
    return out


def majority(values: Iterable[str | None], share: float) -> str | None:
    """The most common non-None value if more than ``share`` of all values are non-None."""
    items = list(values)
    flagged = [v for v in items if v is not None]
    if not items or len(flagged) / len(items) <= share:
        return None
    return max(sorted(set(flagged)), key=flagged.count)
