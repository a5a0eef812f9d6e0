"""Term-rule filters (pipelines/mining/term_filters.py, term_decision.py): why a chosen rendering is not a rule."""

from __future__ import annotations

from housestyle.pipelines.mining.boundary import Choice
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.term_decision import TermCase, first_rejection
from housestyle.pipelines.mining.term_filters import fragment_of_compound, hyphen_sides

WORD_KEYS = {"internet": {"internet"}, "connection": {"connexion"}, "open": {"ouvrir"}}
LEXICON = (set(WORD_KEYS), WORD_KEYS)


def _why(term: str, chosen: Choice, occurrences: int) -> str | None:
    found = first_rejection(TermCase(term, chosen, MiningParams(), occurrences, term, "en", {}, *LEXICON))
    return None if found is None else found[0]


def test_a_rendering_in_half_the_units_needs_a_second_line_of_evidence() -> None:
    # TICO dev: ``open`` is ``ouvrir`` in 6 of its 12 units, something else in the other 6
    assert _why("open", Choice("ouvrir", ["ouvrir", "ouvert"], 6, 0.5, 0.67, 4), 12) == "no_majority"
    # a cognate is evidence of its own (VPN XLIFF: video → vidéo in 1 of 2 units)
    assert _why("video", Choice("vidéo", ["vidéo"], 1, 0.5, 0.67, 1, cognate=True), 2) != "no_majority"
    # so is a multiword rendering built from its words' own renderings
    phrase = Choice("connexion internet", ["connexion internet"], 1, 0.5, 0.67, 1)
    assert _why("internet connection", phrase, 2) != "no_majority"


def test_a_majority_rendering_needs_nothing_more() -> None:
    assert _why("firewall", Choice("pare-feu", ["pare-feu"], 7, 7 / 12, 0.7, 6), 12) is None


def test_hyphen_sides_of_a_rendering() -> None:
    assert hyphen_sides(["sous"], ["des maladies sous-jacentes"]) == {"after"}
    assert hyphen_sides(["unis"], ["aux états-unis", "les états-unis d'amérique"]) == {"before"}
    # one free occurrence, and the rendering is a word of its own
    assert hyphen_sides(["auto"], ["l'auto-isolement", "une auto rouge"]) is None
    assert hyphen_sides(["auto"], ["rien"]) is None
    assert hyphen_sides(["sous"], ["sous - jacent"]) is None  # a spaced dash joins nothing
    # the substring test that spares the regex: "sous-" in a longer word is no joined occurrence,
    # and a text without "form-" or "-form" still counts as a free occurrence once one text has it
    assert hyphen_sides(["sous"], ["dessous-jacent"]) is None
    assert hyphen_sides(["sous"], ["sous-jacent", "sous le toit"], 0.5) == {"after"}
    assert hyphen_sides(["sous"], ["sous-jacent", "sous le toit", "sous terre"], 0.5) is None


def test_a_rendering_that_is_half_a_compound_is_a_fragment() -> None:
    # TICO dev: underlying → sous (sous-jacents), States → unis (États-Unis), isolation → auto
    assert fragment_of_compound("underlying", ["sous"], ["underlying conditions"], ["affections sous-jacentes"])
    assert fragment_of_compound("states", ["unis"], ["the united states"], ["les états-unis"])
    # self-isolation: the source term is joined BEFORE its neighbour, the rendering AFTER
    assert fragment_of_compound("isolation", ["auto"], ["self-isolation"], ["auto-isolement"])


def test_a_rendering_joined_in_most_of_its_occurrences_is_a_fragment_at_the_default_share() -> None:
    # TICO dev: United → états is "États-Unis" 27 times and a free "état" (of "state") twice
    targets = ["les états-unis"] * 27 + ["l'état de washington", "les états et les régions"]
    sources = ["the united states"] * 27 + ["washington state", "states and regions"]
    share = MiningParams().terms.compound_share
    assert fragment_of_compound("united", ["état", "états"], sources, targets, share)
    assert not fragment_of_compound("united", ["état", "états"], sources, targets)  # share 1.0: every one
    # an imperative with its pronoun (lavez-vous) is no compound when the verb also stands free
    washing = ["lavez-vous les mains"] * 8 + ["laver les mains"] * 3
    assert not fragment_of_compound("wash", ["lavez", "laver"], ["wash your hands"] * 11, washing, share)


def test_a_compound_translated_piece_by_piece_keeps_its_halves() -> None:
    # ICD-10 → CIM-10, self-isolation → auto-isolement: joined on the same side in both languages
    assert not fragment_of_compound("icd", ["cim"], ["the icd-10 code"], ["le code cim-10"])
    assert not fragment_of_compound("self", ["auto"], ["self-isolation"], ["auto-isolement"])
    assert not fragment_of_compound("fever", ["fièvre"], ["high fever"], ["forte fièvre"])
