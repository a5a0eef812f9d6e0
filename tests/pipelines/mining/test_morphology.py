"""Chinese word segmentation (jieba through spaCy) and Russian lemmas (pymorphy3) in the miner."""

from __future__ import annotations

from collections.abc import Callable

from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.inflection import entry_matches
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.term_rules import mine_terms
from housestyle.pipelines.mining.tokens import tokenize


def test_chinese_is_segmented_into_words_not_characters() -> None:
    toks = next(tokenize(["加拿大卫生部估计，病毒⟨g1⟩传播。"], "zh", analyse=True))
    words = [t.norm for t in toks if t.is_word]
    assert "加拿大" in words and "估计" in words and "加" not in words


def test_russian_case_forms_share_a_lemma() -> None:
    toks = next(tokenize(["Вакцины и вакцинами, коронавирусной и коронавирусная."], "ru", analyse=True))
    keys = {t.norm: t.key for t in toks if t.is_word}
    assert keys["вакцины"] == keys["вакцинами"] == "вакцина"
    assert keys["коронавирусной"] == keys["коронавирусная"]


def test_russian_rule_lists_case_forms_as_alternatives(make_corpus: Callable[..., Corpus]) -> None:
    pairs = [(f"The vaccine works {i}.", f"Вакцина работает {i}.") for i in range(3)] + [
        (f"We need the vaccine {i}.", f"Нам нужна вакцина {i}.") for i in range(2)] + [
        (f"Trust in the vaccine {i}.", f"Доверие к вакцине {i}.") for i in range(2)] + [
        (f"Without the vaccine {i}.", f"Без вакцины {i}.") for i in range(2)]
    rules = {c.src: c for c in mine_terms(make_corpus(pairs, "ru"), MiningParams()).conventions}
    vaccine = rules["vaccine"]
    assert vaccine.regex and vaccine.support == 9
    assert all(entry_matches(vaccine.expected_terms[0], True, w) for w in ("вакцина", "вакцине", "вакцины"))


def test_chinese_rule_renders_a_whole_word(make_corpus: Callable[..., Corpus]) -> None:
    pairs = [(f"Canadian experts agree {i}.", f"加拿大专家同意{i}。") for i in range(3)] + [
        (f"The Canadian government {i}.", f"加拿大政府{i}。") for i in range(3)]
    rules = {c.src: c for c in mine_terms(make_corpus(pairs, "zh"), MiningParams()).conventions}
    assert rules["Canadian"].expected_terms == ["加拿大"]
