"""Term-rule filters (pipelines/mining/term_filters.py): why a chosen rendering is not a rule."""

from __future__ import annotations

from pipelines.mining.boundary import Choice
from pipelines.mining.params import MiningParams
from pipelines.mining.term_filters import reject

WORD_KEYS = {"internet": {"internet"}, "connection": {"connexion"}, "open": {"ouvrir"}}
LEXICON = (set(WORD_KEYS), WORD_KEYS)


def _why(term: str, chosen: Choice, occurrences: int) -> str | None:
    return reject(term, chosen, occurrences, {}, LEXICON, MiningParams())


def test_a_rendering_in_half_the_units_needs_a_second_line_of_evidence() -> None:
    # TICO dev: ``open`` is ``ouvrir`` in 6 of its 12 units, something else in the other 6
    assert _why("open", Choice("ouvrir", ["ouvrir", "ouvert"], 6, 0.5, 0.67, 4), 12) == "no_majority"
    # a cognate is evidence of its own (VPN XLIFF: video → vidéo in 1 of 2 units)
    assert _why("video", Choice("vidéo", ["vidéo"], 1, 0.5, 0.67, 1, cognate=True), 2) != "no_majority"
    # so is a multiword rendering built from its words' own renderings
    phrase = Choice("connexion internet", ["connexion internet"], 1, 0.5, 0.67, 1)
    assert _why("internet connection", phrase, 2) != "no_majority"


def test_a_majority_rendering_needs_nothing_more() -> None:
    assert _why("open", Choice("ouvrir", ["ouvrir"], 7, 7 / 12, 0.7, 6), 12) is None
