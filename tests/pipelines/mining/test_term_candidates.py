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


def _span_by_link_list(span: tuple[int, int], links: list[tuple[int, int]], tgt: list[Tok], max_words: int,
                       cut: tuple[bool, bool]) -> tuple[int, int] | None:
    """``rendering_span`` as it read the unit's whole link list per span (before ``LinkIndex``): the
    specification the indexed lookup must keep."""
    from housestyle.pipelines.mining.term_candidates import _REORDERED, _joined, trim_closed_edges

    lo, hi = span
    inside = [j for i, j in links if lo <= i <= hi]
    foreign = [j for i, j in links if not lo <= i <= hi]
    if not inside:
        return None
    a, b = min(inside), max(inside)
    if any(a <= j <= b and (lo == hi or tgt[j].pos not in _REORDERED) for j in foreign):
        return None
    trimmed = trim_closed_edges(a, b, tgt, MiningParams())
    if trimmed is None:
        return None
    a, b = trimmed
    while not cut[0] and _joined(tgt, a, -1) and not {a - 1, a - 2} & set(foreign):
        a -= 2
    while not cut[1] and _joined(tgt, b, 1) and not {b + 1, b + 2} & set(foreign):
        b += 2
    return None if sum(t.is_word and not t.is_hyphen for t in tgt[a:b + 1]) > max_words else (a, b)


def test_indexed_links_give_the_spans_the_link_list_gives() -> None:
    """Every source span, under seeded random links (with repeats, crossings and hyphenated and
    closed target words), ends on the same target span through ``LinkIndex`` as through the list."""
    import random

    from housestyle.pipelines.mining.term_candidates import LinkIndex, rendering_span

    tgt = _toks("le réseau wi-fi de la e-mail des auto-tests et 19 COVID-19 du vih", "fr")
    rng = random.Random(25)
    checked = 0
    for _ in range(400):
        links = [(rng.randrange(8), rng.randrange(len(tgt))) for _ in range(rng.randrange(1, 14))]
        for lo in range(8):
            for hi in range(lo, min(lo + 4, 8)):
                for cut in ((True, True), (False, False), (False, True)):
                    want = _span_by_link_list((lo, hi), links, tgt, 4, cut)
                    assert rendering_span((lo, hi), LinkIndex(links), tgt, 4, cut) == want
                    assert rendering_span((lo, hi), links, tgt, 4, cut) == want
                    checked += want is not None
    assert checked > 1000  # most draws give a span: the comparison is not between two Nones
