"""Held-out agreement (issue 25): folds, counts from the scoring engine, the ``suggested`` tier."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.heldout import (
    FOLDS, apply_heldout, bar_of, fold_of, fold_scores, heldout_counts, heldout_table, rule_key, sample_of,
)
from housestyle.pipelines.mining.mine import cross_fit, mine_corpus, term_group
from housestyle.pipelines.mining.params import DEFAULT_PARAMS
from housestyle.pipelines.mining.tokens import TokenCache
from tests.pipelines.mining.conftest import corpus_of


def term(src: str, expected: str) -> Convention:
    return Convention(dimension=f"term:{src}", rule="term", src=src, expected_terms=[expected], match_mode="caseless",
                      origin="mined", src_lang="en", tgt_lang="fr")


def recording(rules: list[Convention], seen: list[int]) -> Callable[[Corpus], Iterable[Convention]]:
    """A stand-in miner: finds ``rules`` in any part, and notes each part's size in ``seen``."""
    def mine(part: Corpus) -> Iterable[Convention]:
        seen.append(len(part))
        return rules
    return mine


def test_folds_are_deterministic_and_split_the_units() -> None:
    ids = [f"u{i:04d}" for i in range(400)]
    folds = [fold_of(u) for u in ids]
    assert folds == [fold_of(u) for u in ids]
    assert set(folds) == set(range(FOLDS))
    assert 150 < folds.count(0) < 250  # a hash split, roughly even


def test_counts_are_the_held_out_folds_approved_targets_scored() -> None:
    # "browser" is rendered "navigateur" everywhere but two units; "tab" is seen in one unit only.
    pairs = [(f"Open the browser {i}", f"Ouvrez le navigateur {i}") for i in range(20)]
    pairs += [("Close the browser now", "Fermez le butineur"), ("Restart the browser", "Relancez le butineur")]
    pairs += [("A new tab", "Un nouvel onglet")]
    corpus = corpus_of(pairs)
    rules = [term("browser", "navigateur"), term("tab", "onglet")]

    def mine(part: Corpus) -> Iterable[Convention]:  # a stand-in miner: a rule when its term is in the part
        return [r for r in rules if any(str(r.src) in s.lower() for s in part.sources)]

    counts = heldout_counts(corpus, rules, mine)
    items, passed = counts[rules[0].convention_id]
    assert items == 22 and passed == 20  # every unit is held out once, scored with the real checker
    tab_items, _ = counts[rules[1].convention_id]
    assert tab_items == 0  # the one unit that has it is never on the mining side of its own fold
    apply_heldout(rules, counts)
    assert [r.status for r in rules] == ["candidate" if 20 / 22 >= bar_of("term").min_rate else "suggested", "suggested"]
    assert (rules[1].heldout_items, rules[1].heldout_passed) == (0, 0)
    table = heldout_table(rules)
    assert table["term"]["rules"] == 2 and table["term"]["heldout_items"] == 22 and table["term"]["suggested"] >= 1


def test_fold_scores_tell_a_rule_not_re_found_from_one_that_failed() -> None:
    """Per fold: the rules its complement re-found and their counts on the fold. A rule the complement
    does not re-find has no count there (not judged), which is not a failed item; ``heldout_counts``
    is their sum."""
    pairs = [(f"Open the browser {i}", f"Ouvrez le navigateur {i}") for i in range(12)]
    corpus = corpus_of(pairs + [("A new tab", "Un nouvel onglet")])
    rules = [term("browser", "navigateur"), term("tab", "onglet")]

    def mine(part: Corpus) -> Iterable[Convention]:
        return [r for r in rules if any(str(r.src) in s.lower() for s in part.sources)]

    scores = list(fold_scores(corpus, rules, mine))
    assert [s.fold for s in scores] == list(range(FOLDS))
    tab = rule_key(rules[1])
    tab_fold = fold_of(corpus.unit_ids[12])
    assert tab not in scores[tab_fold].refound and tab not in scores[tab_fold].counts  # not judged where it is
    other = next(s for s in scores if s.fold != tab_fold)  # its one unit is on the mining side:
    assert tab in other.refound and other.counts[tab] == (0, 0)  # re-found, nothing to judge
    browser = rule_key(rules[0])
    assert sum(s.counts[browser][0] for s in scores) == 12 == sum(len(s.held) for s in scores) - 1
    assert heldout_counts(corpus, rules, mine)[rules[0].convention_id] == (12, 12)


def test_a_fold_that_spells_the_term_otherwise_re_finds_the_same_rule() -> None:
    """A term rule's ``src`` is the spelling its units write most often: a fold whose units start a
    sentence with it ("School closures") re-finds the full run's rule, not another one."""
    pairs = [(f"School closures help {i}", f"Les fermetures d'écoles aident {i}") for i in range(6)]
    corpus = corpus_of(pairs)
    full = term("school closures", "fermetures d'écoles")
    capitalised = term("school closures", "fermetures d'écoles")
    capitalised.src = "School closures"
    assert rule_key(full) == rule_key(capitalised)
    counts = heldout_counts(corpus, [full], lambda part: [capitalised])
    assert counts[full.convention_id] == (6, 6)
    other = Convention(dimension="copy:x", rule="source_copy", src="[A-Z]+", src_regex=True, match_mode="exact")
    assert rule_key(other)[2] == "[A-Z]+"  # only a term's trigger is folded (a regex is not)


def test_misaligned_units_judge_no_rule() -> None:
    """The two "butineur" units, told misaligned, are left out of the held-out judging (never of the
    mining side: the miner tells them again itself)."""
    pairs = [(f"Open the browser {i}", f"Ouvrez le navigateur {i}") for i in range(20)]
    pairs += [("Close the browser now", "Fermez le butineur"), ("Restart the browser", "Relancez le butineur")]
    corpus = corpus_of(pairs)
    rules = [term("browser", "navigateur")]
    seen: list[int] = []
    mine = recording(rules, seen)
    misaligned = {corpus.unit_ids[20], corpus.unit_ids[21]}
    assert heldout_counts(corpus, rules, mine, excluded=misaligned)[rules[0].convention_id] == (20, 20)
    assert sum(seen) == (FOLDS - 1) * len(corpus)  # each fold's complement mined whole


def test_the_cross_fit_sample_is_bounded_and_per_unit() -> None:
    """Up to ``max_units`` every unit is used; beyond, about ``max_units`` by a per-unit draw that is
    independent of order, of the other units, and of the unit's fold."""
    ids = [f"u{i:05d}" for i in range(20_000)]
    assert sample_of(ids, 20_000).all() and sample_of(ids, 0).all()
    mask = sample_of(ids, 2_000)
    assert 1_800 < mask.sum() < 2_200
    chosen = {u for u, m in zip(ids, mask) if m}
    backwards = ids[::-1]
    assert chosen == {u for u, m in zip(backwards, sample_of(backwards, 2_000)) if m}  # order does not matter
    assert 800 < sum(fold_of(u) == 0 for u in chosen) < 1_200  # both folds in the sample


def test_fold_scores_cut_their_folds_from_the_sample() -> None:
    pairs = [(f"Open the browser {i}", f"Ouvrez le navigateur {i}") for i in range(40)]
    corpus = corpus_of(pairs)
    rules = [term("browser", "navigateur")]
    seen: list[int] = []
    mine = recording(rules, seen)
    sample = sample_of(corpus.unit_ids, 10)
    counts = heldout_counts(corpus, rules, mine, sample=sample)
    assert counts[rules[0].convention_id] == (int(sample.sum()), int(sample.sum()))  # judged on the sample only
    assert sum(seen) == (FOLDS - 1) * int(sample.sum()) < len(corpus)


def test_bars_demote_only_candidates() -> None:
    kept, low, reviewed = term("a", "b"), term("c", "d"), term("e", "f")
    reviewed.status = "validated"
    apply_heldout([kept, low, reviewed], {kept.convention_id: (10, 10), low.convention_id: (10, 8),
                                          reviewed.convention_id: (0, 0)})
    assert (kept.status, low.status, reviewed.status) == ("candidate", "suggested", "validated")
    assert bar_of("pattern").min_rate > bar_of("term").min_rate
    strict = term("g", "h")  # the bars are read from the parameters
    apply_heldout([strict], {strict.convention_id: (10, 10)}, DEFAULT_PARAMS.with_({"heldout.term.min_items": 11}))
    assert strict.status == "suggested"
    assert rule_key(kept) == ("term", "term:a", "a")


def test_mine_corpus_writes_heldout_counts(tiny: Corpus) -> None:
    result = mine_corpus(tiny)
    mined = [c for c in result.conventions if c.origin == "mined"]
    assert mined
    for conv in mined:
        assert conv.heldout_items is not None and conv.heldout_passed is not None
        assert 0 <= conv.heldout_passed <= conv.heldout_items
        bar = DEFAULT_PARAMS.heldout.term if conv.rule == "term" else DEFAULT_PARAMS.heldout.other
        clears = conv.heldout_items >= bar.min_items and conv.heldout_passed >= bar.min_rate * conv.heldout_items
        assert conv.status == ("candidate" if clears else "suggested")
    plain = mine_corpus(tiny, heldout=False)
    assert {c.convention_id for c in plain.conventions} == {c.convention_id for c in result.conventions}
    assert all(c.heldout_items is None and c.status == "candidate" for c in plain.conventions)
    assert result.stats["cross_fit"] == {"units": len(tiny), "sampled_units": len(tiny)}
    sampled = mine_corpus(tiny, DEFAULT_PARAMS.with_({"heldout.max_units": len(tiny) // 2}))
    assert 0 < sampled.stats["cross_fit"]["sampled_units"] < len(tiny)
    assert {c.convention_id for c in sampled.conventions} == {c.convention_id for c in result.conventions}
    assert sum(c.heldout_items or 0 for c in sampled.conventions) < sum(c.heldout_items or 0 for c in result.conventions)


def test_cross_fit_reuses_the_units_analysis_and_counts_the_same(tiny: Corpus) -> None:
    cache = TokenCache()
    term_group(tiny, DEFAULT_PARAMS, cache)  # the full run's analysis of every unit
    analysed = len(cache)
    shared_result = mine_corpus(tiny, heldout=False)
    cross_fit(tiny, shared_result, DEFAULT_PARAMS, cache)
    assert len(cache) == analysed  # no fold tokenised or tagged a unit again
    fresh_result = mine_corpus(tiny, heldout=False)
    empty = TokenCache()
    cross_fit(tiny, fresh_result, DEFAULT_PARAMS, empty)  # each fold analyses its own units
    assert len(empty) == 0  # and forgets them once mined: the other fold only judges them
    shared, fresh = shared_result.conventions, fresh_result.conventions
    assert shared and [(c.convention_id, c.heldout_items, c.heldout_passed, c.status) for c in shared] == [
        (c.convention_id, c.heldout_items, c.heldout_passed, c.status) for c in fresh]


def test_a_folds_rules_and_their_compiled_forms_are_not_held_through_the_next_fold() -> None:
    """A fold's rules are scored once; holding them (and the scoring engine's compiled forms of them,
    ``registry.release_compiled``) through the next fold's mining raised a 1M-unit run's peak."""
    pairs = [(f"Open the browser {i}", f"Ouvrez le navigateur {i}") for i in range(12)]
    corpus = corpus_of(pairs)
    earlier: list[Convention] = []  # every fold's rules; at the next fold, nothing else may refer to them
    held_elsewhere: list[int] = []

    def mine(part: Corpus) -> Iterable[Convention]:
        gc.collect()
        held_elsewhere.append(sum(any(r is not earlier for r in gc.get_referrers(rule)) for rule in earlier))
        fresh = [term("browser", "navigateur")]  # a new object per fold, as a real re-mining makes
        earlier.extend(fresh)
        return fresh

    scores = list(fold_scores(corpus, [term("browser", "navigateur")], mine))
    assert len(scores) == FOLDS and all(s.counts for s in scores)
    assert held_elsewhere == [0] * FOLDS
