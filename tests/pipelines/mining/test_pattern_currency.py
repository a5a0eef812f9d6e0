"""Currency conventions (pipelines/mining/patterns/currency.py): learned from targets, checked by
the reference checker exactly as a system output would be."""

from __future__ import annotations



from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.mine import proposer_group
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.patterns.base import count_variants
from housestyle.pipelines.mining.patterns.currency import SYMBOL_POSITION, SYMBOL_SPACE
from housestyle.pipelines.scoring.check import check_item
from tests.pipelines.mining.conftest import corpus_of

NB = "\u00a0"


def _currency(corpus: Corpus) -> dict[str, Convention]:
    mined, _ = proposer_group(corpus, ("currency",), MiningParams())
    return {m.conv.dimension: m.conv for m in mined}


def _passes(rule: Convention, output: str) -> bool:
    verdict = check_item(rule, "It costs money.", output)
    assert verdict is not None  # pattern rules apply to every segment
    return verdict.full_pass


def test_french_targets_put_the_symbol_after_the_amount_with_a_no_break_space() -> None:
    pairs = [(f"It cost ${n} million.", f"Cela a coûté {n}{NB}millions{NB}$.") for n in (2, 5, 7, 12, 40)]
    pairs += [("The ticket is €15.", f"Le billet coûte 15{NB}€."), ("Fees: £3.50", f"Frais : 3,50{NB}£")]
    rules = _currency(corpus_of(pairs))
    position, space = rules["currency:symbol_position"], rules["currency:symbol_space"]
    assert position.extra["variant"] == "after" and position.support == 7 and position.consistency == 1.0
    assert space.extra["variant"] == "nbsp" and position.match_mode == space.match_mode == "exact"
    assert _passes(position, f"Un don de 20{NB}$.") and not _passes(position, "Un don de $20.")
    assert not _passes(position, f"Un don de US$ 20 et de 5{NB}€.")
    assert _passes(space, f"Un don de 20{NB}$.") and not _passes(space, "Un don de 20 $.")
    assert not _passes(space, "Un don de 20$.") and not _passes(space, "Un don de 3 milliards $.")


def test_a_prefixed_dollar_before_the_amount_is_one_symbol() -> None:
    pairs = [(f"It costs ${n}.00.", f"Custa R$ {n},00.") for n in (2, 5, 7, 12, 40)]
    rules = _currency(corpus_of(pairs, "pt-BR"))
    assert rules["currency:symbol_position"].extra["variant"] == "before"
    assert rules["currency:symbol_space"].extra["variant"] == "space"
    assert not _passes(rules["currency:symbol_position"], "Custa 5,00 R$.")


def test_placeholders_and_variables_do_not_vote() -> None:
    targets = ["Vous avez %1$s messages", "Ouvrir { $name }", "Valeur $1$ de 1$s", "Coût : 10$abc", "Prix ${price}"]
    for family in (SYMBOL_POSITION, SYMBOL_SPACE):
        occ, _ = count_variants(family, targets)
        assert not occ, (family.dimension, occ)


def test_too_few_or_mixed_amounts_make_no_rule() -> None:
    mixed = [(f"${n}", f"{n}{NB}$") for n in range(4)] + [(f"${n}", f"${n}") for n in range(4)]
    assert _currency(corpus_of(mixed)) == {}
    assert _currency(corpus_of([("$4", f"4{NB}$")] * 4)) == {}


def test_the_tico_dev_split_puts_the_dollar_after_the_amount(tico_dev: Corpus) -> None:
    rules = _currency(tico_dev)
    position = rules["currency:symbol_position"]
    assert position.extra["variant"] == "after" and position.support == 5 and position.consistency == 1.0
    assert "currency:symbol_space" not in rules  # 3 no-break spaces against 3 plain ones: no choice made
