"""Renderings from word links: what the sure links (both directions agree) may add."""

from __future__ import annotations

from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.term_candidates import extract
from housestyle.pipelines.mining.tokens import Tok, tokenize


def _toks(text: str, lang: str) -> list[Tok]:
    return next(tokenize([text], lang, analyse=lang == "fr"))


def test_sure_links_corroborate_but_never_propose_a_rendering() -> None:
    """A span inconsistent under the grown links (``medications`` also grown onto ``vih``) counts
    through the sure links only for a rendering the grown links found for that term elsewhere."""
    sources = ["HIV tests", "HIV medications", "new virus medications"]
    targets = ["tests du vih", "médicaments contre le vih", "nouveaux médicaments contre le virus"]
    src_toks = [_toks(s, "en") for s in sources]
    tgt_toks = [_toks(t, "fr") for t in targets]
    grown_sure = [
        ([(0, 2), (1, 0)], [(0, 2), (1, 0)]),  # HIV → vih, tests → tests
        ([(0, 3), (1, 0), (1, 3)], [(0, 3), (1, 0)]),  # medications grown onto vih: HIV inconsistent
        ([(0, 0), (1, 4), (2, 1), (2, 4)], [(0, 0), (1, 4), (2, 1)]),  # virus: consistent only under sure links
    ]
    cands = extract(sources, targets, src_toks, tgt_toks, grown_sure, MiningParams())
    assert cands.terms["hiv"].aligned["vih"] == 2  # one grown-consistent span, one corroborating
    assert cands.terms["virus"].aligned == {}  # consistent nowhere under grown links: no rendering proposed


def test_a_preposition_linked_outside_does_not_break_a_reordered_multiword_rendering() -> None:
    from housestyle.pipelines.mining.term_candidates import rendering_span

    tgt = _toks("le taux de mortalité des enfants", "fr")  # le / taux / de / mortalité / des / enfants
    links = [(0, 0), (1, 3), (2, 1), (3, 2), (3, 4), (4, 5)]  # "the mortality rate of children": of → de, des
    assert tgt[2].pos == "ADP"
    assert rendering_span((1, 2), links, tgt, 5) == (1, 3)  # mortality rate → taux de mortalité
    one_word = [(0, 1), (0, 3), (1, 2)]  # a one-word term across a preposition another word holds
    assert rendering_span((0, 0), one_word, tgt, 5) is None
