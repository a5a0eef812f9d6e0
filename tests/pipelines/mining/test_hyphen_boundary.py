"""Hyphenated words are not cut: a multiword source term never ends inside one (``outbreak of COVID``
of ``outbreak of COVID-19``), and a rendering cuts one only where its term does."""

from __future__ import annotations

from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.term_candidates import cut_edges, rendering_span, source_spans
from housestyle.pipelines.mining.tokens import Tok, tokenize


def _toks(text: str, lang: str) -> list[Tok]:
    return next(tokenize([text], lang, analyse=lang == "fr"))


def test_cut_edges_of_source_spans() -> None:
    covid = _toks("COVID-19 cases", "en")  # covid / - / 19 / cases
    assert cut_edges(covid, (0, 0)) == (False, True)  # covid of covid-19
    assert cut_edges(covid, (0, 3)) == (False, False)
    assert cut_edges(_toks("gastrointestinal disease", "en"), (0, 1)) == (False, False)


def test_whole_compound_when_the_term_is_whole() -> None:
    tgt = _toks("la maladie gastro-intestinale", "fr")  # la / maladie / gastro / - / intestinale
    links = [(1, 1), (0, 2)]  # disease → maladie, gastrointestinal → gastro (the aligner missed the rest)
    assert rendering_span((0, 1), links, tgt, 5, (False, False)) == (1, 4)
    assert rendering_span((0, 1), links, tgt, 5) == (1, 2)  # default: no repair (cut edges allowed)


def test_no_growth_over_a_piece_rendering_a_word_outside_the_term() -> None:
    tgt = _toks("le royaume-uni", "fr")  # le / royaume / - / uni
    links = [(0, 1), (1, 3)]  # United → royaume, Kingdom → uni
    assert rendering_span((1, 1), links, tgt, 5, (False, False)) == (3, 3)  # Kingdom: uni, royaume is United's
    assert rendering_span((0, 1), links, tgt, 5, (False, False)) == (1, 3)


def test_a_cut_source_edge_allows_a_cut_target_edge() -> None:
    tgt = _toks("la covid-19", "fr")  # la / covid / - / 19 (a number: never grown over)
    assert rendering_span((0, 0), [(0, 1)], tgt, 5, (False, False)) == (1, 1)
    tgt = _toks("le sars-cov", "fr")
    assert rendering_span((0, 0), [(0, 1)], tgt, 5, (False, True)) == (1, 1)
    assert rendering_span((0, 0), [(0, 1)], tgt, 5, (False, False)) == (1, 3)


def test_multiword_source_terms_never_end_inside_a_hyphenated_word() -> None:
    text = "The outbreak of COVID-19 hit RNA-dependent polymerase studies."
    surfaces = {surface for _, surface in source_spans(_toks(text, "en"), text, MiningParams())}
    assert {"outbreak of covid-19", "covid", "covid-19", "outbreak", "rna-dependent polymerase"} <= surfaces
    assert "outbreak of covid" not in surfaces and "dependent polymerase" not in surfaces
