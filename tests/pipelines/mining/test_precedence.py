"""Longest match between mined term rules (pipelines/mining/precedence.py, issue 25)."""

from __future__ import annotations

import numpy as np

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.inflection import alternatives
from housestyle.pipelines.mining.precedence import add_precedence, longer_terms
from housestyle.pipelines.mining.term_result import TermResult
from housestyle.pipelines.mining.term_trace import Decision


def _rule(src: str, forms: list[str], support: int = 5, tgt: str = "fr") -> Convention:
    entry, is_regex = alternatives(forms, tgt_lang=tgt)
    return Convention(dimension=f"term:{src.casefold()}", rule="term", src=src, expected_terms=[entry], regex=is_regex,
                      match_mode="typographic", src_lang="en", tgt_lang=tgt, origin="mined", support=support)


def test_a_term_yields_to_longer_terms_whose_rendering_lacks_its_own() -> None:
    page, child = _rule("page", ["page", "pages"]), _rule("child page", ["sous-page", "sous-pages"], 4)
    title = _rule("Page title", ["titre de la page", "titres de la page"])  # holds "page": no need to yield
    vpn, mozilla_vpn = _rule("VPN", ["vpn"]), _rule("Mozilla VPN", ["mozilla vpn"])
    de_page = _rule("child page", ["unterseite"], tgt="de")  # another language pair
    yields = longer_terms([page, child, title, vpn, mozilla_vpn, de_page])
    assert yields == {page.convention_id: ["child page"]}


def test_the_rule_is_rekeyed_in_evidence_and_trace() -> None:
    page, child = _rule("page", ["page", "pages"]), _rule("child page", ["sous-page"])
    old = page.convention_id
    result = TermResult([page, child], {old: (np.array([1]), np.array([], dtype=np.int64))})
    result.trace["page"] = Decision([], "page", decision="rule", convention_id=old)
    assert add_precedence(result) == 1
    assert page.params == {"yields_to": ["child page"]} and page.convention_id != old
    assert list(result.evidence) == [page.convention_id] and result.trace["page"].convention_id == page.convention_id
    assert child.params == {}
