"""Misaligned TM units (pipelines/mining/suspect_units.py): told by the term rules' counter-evidence,
left out of the term rules, reported in the set."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from housestyle.pipelines.mining.anchors import Trials
from housestyle.pipelines.mining.build_set import mine_to_set
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.mine import term_group
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.suspect_units import find_suspects, tail_probabilities, tail_probability, unit_tests


def test_tail_probability_is_the_poisson_binomial_tail() -> None:
    assert tail_probability([0.5, 0.5], 0) == 1.0
    assert tail_probability([0.5, 0.5], 2) == pytest.approx(0.25)
    assert tail_probability([0.1, 0.2, 0.3], 2) == pytest.approx(0.1 * 0.2 * 0.7 + 0.1 * 0.8 * 0.3 + 0.9 * 0.2 * 0.3 + 0.006)
    assert tail_probability([0.1] * 3, 4) == 0.0


def test_a_unit_failing_well_attested_rules_is_suspect_and_a_rare_rule_is_no_witness() -> None:
    common = {f"r{k}": (list(range(1, 40)), [0]) for k in range(4)}  # unit 0 fails four rules seen in 40 units
    suspects = find_suspects(common, alpha=0.01)
    assert [(s.index, s.in_scope, s.failed) for s in suspects] == [(0, 4, 4)] and suspects[0].p_value < 1e-5
    rare = {f"r{k}": ([1], [0]) for k in range(4)}  # rules seen in two units: failing them is ordinary
    assert find_suspects(rare, alpha=0.01) == []
    one_slip = {"r0": (list(range(1, 40)), [0]), **{f"r{k}": ([0, *range(1, 40)], []) for k in range(1, 6)}}
    assert find_suspects(one_slip, alpha=0.01) == []


def _per_unit_suspects(evidence: dict[str, tuple[list[int], list[int]]], alpha: float) -> list[tuple[int, int, int, float]]:
    """The definition, unit by unit: each unit's rule rates in rule order, its failures, its tail."""
    rates: dict[int, list[float]] = {}
    failed: dict[int, int] = {}
    for passing, failing in evidence.values():
        rate = (len(failing) + 1) / (len(passing) + len(failing) + 2)
        for unit in [*passing, *failing]:
            rates.setdefault(unit, []).append(rate)
        for unit in failing:
            failed[unit] = failed.get(unit, 0) + 1
    return [(u, len(rates[u]), failed[u], p) for u in sorted(failed) if (p := tail_probability(rates[u], failed[u])) < alpha]


def test_suspects_as_arrays_are_the_per_unit_definition_exactly() -> None:
    """Random rule evidence over 300 units (a unit in ~half the rules, failing a quarter of them, a
    dozen units failing nearly all): the array computation finds the same units with the same
    p-values, to the last bit, from lists and from integer arrays alike."""
    rng = np.random.default_rng(7)
    evidence: dict[str, tuple[list[int], list[int]]] = {}
    for k in range(60):
        units = np.flatnonzero(rng.random(300) < 0.5)
        fails = rng.random(units.size) < np.where(units < 12, 0.9, 0.25)
        evidence[f"r{k}"] = (units[~fails].tolist(), units[fails].tolist())
    expected = _per_unit_suspects(evidence, 0.01)
    assert {u for u, *_ in expected} >= set(range(12))  # the planted units are among them
    for given in (evidence, {k: (np.asarray(p, dtype=np.int32), np.asarray(f, dtype=np.int32)) for k, (p, f) in evidence.items()}):
        assert [(s.index, s.in_scope, s.failed, s.p_value) for s in find_suspects(given, 0.01)] == expected
    assert find_suspects({}, 0.01) == [] and find_suspects({"r": ([], [])}, 0.01) == []


def test_unit_tests_by_blocks_of_units_are_the_same_tests() -> None:
    """The units' trials gathered a block at a time (the miner's peak at 1M units): the same tests,
    in unit order, whatever the block, with anchors among the trials and units given out of order."""
    rng = np.random.default_rng(11)
    evidence = {}
    for k in range(40):
        units = rng.permutation(np.flatnonzero(rng.random(500) < 0.3))
        fails = rng.random(units.size) < 0.2
        evidence[f"r{k}"] = (units[~fails], units[fails])
    anchor_units = np.sort(rng.integers(0, 520, 900))
    anchors = Trials(anchor_units, rng.random(900) * 0.3, rng.random(900) < 0.15)
    whole = unit_tests(evidence, anchors, block=10_000)
    assert [s.index for s in whole] == sorted(s.index for s in whole) and len(whole) > 100
    for block in (1, 7, 64, 513):
        assert unit_tests(evidence, anchors, block=block) == whole
    assert unit_tests({}, Trials.empty()) == [] and unit_tests({"r": ([], [])}) == []


def _swap_every_tenth_target(corpus: Corpus) -> tuple[Corpus, set[str]]:
    """The dev split with every 10th target replaced by the target five units on: known misalignments."""
    targets = list(corpus.targets)
    swapped = set()
    for i in range(0, len(corpus), 10):
        targets[i] = corpus.targets[(i + 5) % len(corpus)]
        swapped.add(corpus.unit_ids[i])
    order = corpus.tm_order
    assert order is not None  # the TM's order, so the run test runs
    return Corpus(corpus.unit_ids, corpus.sources, targets, corpus.src_lang, corpus.tgt_lang, tm_order=order), swapped


def test_swapped_targets_on_the_dev_split_are_found_and_no_real_unit(tico_dev: Corpus) -> None:
    """Real data: the default alpha was chosen on exactly this (dev split, real and swapped)."""
    real = tico_dev
    _, _, stats, _ = term_group(real, MiningParams())
    assert stats["suspect_units"] == []
    corrupted, swapped = _swap_every_tenth_target(real)
    mined, _, stats, _ = term_group(corrupted, MiningParams())
    found = {row["unit_id"] for row in stats["suspect_units"]}
    # every unit found is a swapped one; 46 of 97 were found once termhood (issue 25) left general words
    # (which witnessed swaps too) out of the term rules (.47, was >= .5 before); 43 (.44) since the term
    # filters the held-out bar replaced went (issue 25 part 4), with no real unit found still; 57 of 98
    # (.58) with the anchors as a second witness (anchors.py)
    assert found <= swapped and len(found) >= 0.55 * len(swapped)
    left_out = {corrupted.unit_ids.index(u) for u in found}
    assert not any(left_out & {*map(int, m.evidence), *map(int, m.counter)} for m in mined)  # no term rule counts them


def test_the_set_lists_its_suspect_units(tiny_units: pl.DataFrame, tmp_path: Path) -> None:
    written, result = mine_to_set(tiny_units, src_lang="en", tgt_lang="fr", client="fx", rules_out=tmp_path,
                                  inputs={"tm": "abc"})
    table = pl.read_parquet(written.path / "suspect_units.parquet")
    assert table.columns == ["unit_id", "rules_in_scope", "rules_failed", "anchors_in_scope", "anchors_failed", "p_value"]
    manifest = json.loads((written.path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["suspect_units"] == table.height == len(result.suspects)
    assert "suspect_units.parquet" in manifest["files"]


def test_a_fold_leaves_out_the_units_the_full_run_told_without_telling_them_again(tiny: Corpus) -> None:
    """``term_group(told=…)`` (the cross-fit's folds): one pass without those units, no suspects reported."""
    from housestyle.pipelines.mining.mine import term_group
    from housestyle.pipelines.mining.params import DEFAULT_PARAMS

    told = set(tiny.unit_ids[:3])
    mined, _conflicts, stats, _trace = term_group(tiny, DEFAULT_PARAMS, trace=False, told=told)
    assert stats["suspect_units"] == []
    left_out = {tiny.unit_ids.index(u) for u in told}
    assert mined and not any(set(m.evidence.tolist()) & left_out or set(m.counter.tolist()) & left_out for m in mined)


def test_tail_probabilities_equal_the_one_unit_recurrence_bit_for_bit() -> None:
    rng = np.random.default_rng(7)
    lengths = [0, 1, 1, 2, 3, 5, 8, 9, 16, 17, 40, 3, 2, 64, 65]
    rates = rng.random(sum(lengths)) * rng.choice([1.0, 0.05], sum(lengths))
    starts = np.cumsum([0, *lengths[:-1]]).tolist()
    ends = [s + n for s, n in zip(starts, lengths)]
    ks = [min(n, int(k)) for n, k in zip(lengths, rng.integers(0, 6, len(lengths)))]
    ks[3] = 0
    got = tail_probabilities(rates, starts, ends, ks)
    assert got == [tail_probability(rates[s:e].tolist(), k) for s, e, k in zip(starts, ends, ks)]


def test_tail_probabilities_in_small_blocks_are_the_same() -> None:
    rates = np.linspace(0.01, 0.5, 30)
    starts, ends, ks = [0, 10, 20, 25], [10, 20, 25, 30], [1, 2, 3, 0]
    assert tail_probabilities(rates, starts, ends, ks, block_cells=8) == tail_probabilities(rates, starts, ends, ks)
