"""Termhood: how general a source word is, from a maintained frequency list (``wordfreq``).

WHY (issue 25, "terms, not vocabulary"): on held-out approved output the one-word rules whose
source word is frequent in general language fail far more often than specific ones (Mozilla VPN,
half A mined / half B scored: Zipf >= 4 passes .85, Zipf < 4 passes .996): ``like``, ``turn``,
``allow``, ``new`` are phrasing the translator renders freely, not terms. Zipf is log10 of
occurrences per billion words (``wordfreq.zipf_frequency``); a language wordfreq does not cover
scores 0 (nothing is general, nothing is filtered). No part-of-speech model is used for the
source: no English spaCy pipeline is installed, and the frequency list separates vocabulary from
terms without one (the target-side tagger already gives verb senses, ``term_context``).
"""

from __future__ import annotations

from functools import lru_cache

from wordfreq import available_languages, zipf_frequency


@lru_cache(maxsize=16)
def _covered(lang: str) -> bool:
    return lang in available_languages()


@lru_cache(maxsize=200_000)
def zipf(term: str, lang: str) -> float:
    """Zipf frequency of a folded term in general ``lang`` text (0 when the language is not covered)."""
    base = lang.split("-")[0].split("_")[0].lower()
    return zipf_frequency(term, base) if _covered(base) else 0.0


def general_word(term: str, lang: str, threshold: float) -> bool:
    """A one-word term at least as frequent as ``threshold`` Zipf: general vocabulary. A phrase or a
    hyphenated compound (``cloud-based``) is judged by the other filters (wordfreq would score
    its parts)."""
    return " " not in term and "-" not in term and zipf(term, lang) >= threshold
