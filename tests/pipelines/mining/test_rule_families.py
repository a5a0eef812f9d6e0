from __future__ import annotations

from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.mine import proposer_group
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.source_copy import candidates
from housestyle.pipelines.scoring.check import check_item


def _rules(corpus: Corpus) -> dict[str, object]:
    mined, _ = proposer_group(corpus, ("source_copy", "numeric", "placeholder"), MiningParams())
    return {m.conv.dimension: m.conv for m in mined}


def test_names_copied_verbatim_become_source_copy_rules(tiny: Corpus) -> None:
    rule = _rules(tiny)["copy:Firefox"]
    assert rule.rule == "source_copy" and rule.match_mode == "exact" and rule.support == 5
    assert check_item(rule, "Get Firefox", "Obtenez Firefox").full_pass
    assert not check_item(rule, "Get Firefox", "Obtenez firefox").full_pass


def test_name_candidates_skip_sentence_initial_words() -> None:
    assert candidates("Open the VPN with Firefox. Then macOS asks.") == {"VPN", "Firefox", "macOS"}


def test_numeric_format_learned_from_pairs(tiny: Corpus) -> None:
    rule = _rules(tiny)["number:format"]
    assert rule.params["decimal"] == ","
    assert check_item(rule, "It is 4.5 km", "C’est 4,5 km").full_pass
    assert not check_item(rule, "It is 4.5 km", "C’est 4.5 km").full_pass


def test_placeholders_from_the_sources_tokens(tiny: Corpus) -> None:
    rule = _rules(tiny)["placeholder:integrity"]
    assert rule.params == {"patterns": [r"\{[A-Za-z_][\w.\-]*\}"]}
    assert check_item(rule, "Hi {name}", "Salut {name}").full_pass
    assert not check_item(rule, "Hi {name}", "Salut {nom}").full_pass


def test_no_evidence_no_rule(make_corpus) -> None:
    corpus = make_corpus([("plain text", "texte simple")] * 10)
    assert _rules(corpus) == {} or set(_rules(corpus)) <= {"copy:url"}
