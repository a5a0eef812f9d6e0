"""Token alignment around a mandated term: anchors, edge trimming, gaps, omissions."""

from __future__ import annotations

from housestyle.pipelines.contrast.align import extract
from housestyle.pipelines.contrast.analysis import analyse


def run(reference: str, term: str, output: str) -> tuple[str, int, bool, bool]:
    ref, out = analyse([reference, output], "fr")
    start = reference.index(term)
    ext = extract(ref, start, start + len(term), out, output)
    assert ext is not None
    return ext.text, ext.gap, ext.left_anchor, ext.right_anchor


def test_substitution_between_shared_neighbours() -> None:
    assert run("Pratiquez la distanciation sociale au travail.", "distanciation sociale",
               "Pratiquez l'éloignement social au travail.") == ("éloignement social", 0, True, True)


def test_shared_word_inside_the_term_stays_in_the_rendering() -> None:
    text, *_ = run("Respectez la distanciation sociale partout.", "distanciation sociale",
                   "Respectez la distanciation physique partout.")
    assert text == "distanciation physique"


def test_neighbour_rendered_differently_is_trimmed_by_lemma() -> None:
    # "nouveau" lies between the anchors but outside the term; its rendering "nouvelle" is not the variant
    assert run("Un nouveau médicament est approuvé.", "médicament",
               "Une drogue nouvelle est approuvée.")[:2] == ("drogue", 0)


def test_omission_and_unanchored_output() -> None:
    assert run("Lavez-vous les mains avec du savon.", "savon", "Lavez-vous les mains avec du.")[0] == ""
    text, _gap, left, right = run("Le savon tue le virus.", "savon", "Complètement autre chose")
    assert not left and not right and text == "Complètement autre chose"


def test_term_without_tokens_is_none() -> None:
    ref, out = analyse(["Bonjour.", "Salut."], "fr")
    assert extract(ref, 50, 60, out, "Salut.") is None
