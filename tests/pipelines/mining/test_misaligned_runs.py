"""Runs of misaligned units (pipelines/mining/misaligned_runs.py): a unit whose TM neighbours are
misaligned is told on weaker evidence of its own; the TM's file order, never the ids, says who
the neighbours are."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.mining.corpus import Corpus, corpus_from_units
from housestyle.pipelines.mining.mine import misaligned_units
from housestyle.pipelines.mining.misaligned_runs import (
    clustering_p_value,
    max_bayes_factor,
    prior_odds_ratios,
    run_members,
    tm_neighbours,
)
from housestyle.pipelines.mining.suspect_units import Suspect
from tests.conftest import REPO_ROOT

# 60 units of one document: bulletins (two numbers, two names) and reviews (one number; every third
# counts in weeks, so its aligned target drops the source's number). Units doc:25–doc:40 each carry
# the target of the next unit of their kind: a run, as an export offset makes one.
RUN_TMX = REPO_ROOT / "tests" / "fixtures" / "mining" / "misaligned_run.tmx"
RUN = {f"doc:{n}" for n in range(25, 41)}
# the run's reviews (one number each: too little evidence alone), and the aligned reviews in weeks,
# which fail the same two trials
RUN_REVIEWS = {"doc:28", "doc:31", "doc:35", "doc:38"}
WEEKS = {"doc:7", "doc:14", "doc:19", "doc:46", "doc:51", "doc:58"}


def _corpus(tmx: Path, out: Path, drop: tuple[str, ...] = ()) -> Corpus:
    ingest_files([tmx], client="fixture", out_dir=out)
    return corpus_from_units(pl.read_parquet(out / "tm_units.parquet").drop(*drop), "en", "fr")


def _flagged(corpus: Corpus) -> dict[str, float]:
    return {corpus.unit_ids[s.index]: s.p_value for s in misaligned_units(corpus, {}, alpha=0.01)}


def test_a_run_is_told_whole_and_the_same_evidence_outside_a_run_is_not(tmp_path: Path) -> None:
    flagged = _flagged(_corpus(RUN_TMX, tmp_path))
    assert set(flagged) == RUN
    # the run's reviews are told by their run: their own test alone does not reach alpha ...
    assert all(0.01 <= flagged[u] < 1 / math.e for u in RUN_REVIEWS)
    assert all(flagged[u] < 0.01 for u in RUN - RUN_REVIEWS)
    # ... and the aligned reviews in weeks, with the same two failed trials, have no flagged neighbour
    assert not WEEKS & set(flagged)


@pytest.mark.parametrize("seed", [25, 26, 27])
def test_a_shuffled_tm_has_no_runs(tmp_path: Path, seed: int) -> None:
    """The same units in another file order: the bulletins of the run are still told by their own
    test; nothing joins them, whatever the unit ids say."""
    text = RUN_TMX.read_text(encoding="utf-8")
    units = re.findall(r"<tu .*?</tu>\n", text)
    random.Random(seed).shuffle(units)
    start, end = text.index("<tu "), text.rindex("</tu>\n") + len("</tu>\n")
    shuffled = tmp_path / "shuffled.tmx"
    shuffled.write_text(text[:start] + "".join(units) + text[end:], encoding="utf-8")
    flagged = _flagged(_corpus(shuffled, tmp_path / "units"))
    assert set(flagged) == RUN - RUN_REVIEWS


def test_without_a_tm_order_units_have_no_neighbours(tmp_path: Path) -> None:
    corpus = _corpus(RUN_TMX, tmp_path, drop=("unit_ordinal",))
    assert corpus.tm_order is None
    assert set(_flagged(corpus)) == RUN - RUN_REVIEWS


def test_a_p_value_is_worth_at_most_the_sellke_berger_bound() -> None:
    assert max_bayes_factor(0.01) == pytest.approx(7.99, abs=0.01)
    assert max_bayes_factor(1 / math.e) == max_bayes_factor(0.9) == 1.0  # no evidence at all
    assert max_bayes_factor(0.0) == math.inf
    assert max_bayes_factor(0.001) > max_bayes_factor(0.01) > max_bayes_factor(0.2) > 1.0


def test_neighbours_follow_each_files_positions_not_the_index() -> None:
    files = np.array([1, 0, 1, 0, 1])
    ordinals = np.array([30, 7, 10, 2, 20])  # file 1: units 2, 4, 0; file 0: units 3, 1
    assert tm_neighbours((files, ordinals)).tolist() == [[4, -1], [3, -1], [-1, 4], [-1, 1], [2, 0]]
    assert tm_neighbours((np.array([0]), np.array([5]))).tolist() == [[-1, -1]]


def _one_file(flags: str) -> tuple[np.ndarray, np.ndarray]:
    """Flags (F) and their neighbours in one file, in index order."""
    flagged = np.array([c == "F" for c in flags])
    return flagged, tm_neighbours((np.zeros(len(flags), dtype=np.int64), np.arange(len(flags))))


def test_flags_side_by_side_raise_a_neighbours_odds_and_scattered_flags_do_not() -> None:
    flagged, neighbours = _one_file("." * 30 + "FF.FFF.FF" + "." * 30)
    ratios = prior_odds_ratios(flagged, neighbours)
    assert ratios[32] > 20 and ratios[36] > 20  # between two flags of a run
    assert ratios[5] < 1  # far from it
    flagged, neighbours = _one_file(("." * 9 + "F") * 8)  # every 10th unit: no run
    assert prior_odds_ratios(flagged, neighbours)[[8, 10]].max() < 2
    assert prior_odds_ratios(*_one_file("....")).tolist() == [1.0] * 4  # nothing flagged, nothing to learn


def test_the_order_counts_only_when_flags_meet_more_often_than_chance() -> None:
    run = _one_file("." * 30 + "FF.FFF.FF" + "." * 30)
    assert clustering_p_value(*run, np.zeros(69, dtype=np.int64)) < 0.01  # 4 pairs of 7 flags; chance 6/68 each
    scattered = _one_file(("." * 9 + "F") * 8)
    assert clustering_p_value(*scattered, np.zeros(80, dtype=np.int64)) == 1.0  # no two flags meet
    two_meet = _one_file("." * 20 + "FF" + "." * 20 + "F" + "." * 20)
    assert clustering_p_value(*two_meet, np.zeros(63, dtype=np.int64)) > 0.01  # one pair in 63 units: chance
    # a TM too large for the exact tail: the normal approximation says the same
    big_run = _one_file(("." * 40 + "F" * 20) * 300)
    assert clustering_p_value(*big_run, np.zeros(18_000, dtype=np.int64)) < 1e-6
    big_scattered = _one_file(("." * 3 + "F") * 8_000)
    assert clustering_p_value(*big_scattered, np.zeros(32_000, dtype=np.int64)) == pytest.approx(1.0)
    # two files, each wholly flagged or not: per file, a flag is followed by a flag with certainty
    flagged = np.array([True] * 5 + [False] * 5)
    neighbours = tm_neighbours((np.array([0] * 5 + [1] * 5), np.arange(10)))
    assert clustering_p_value(flagged, neighbours, np.array([0] * 5 + [1] * 5)) == pytest.approx(1.0)


def _test(index: int, p_value: float, failed: int = 1) -> Suspect:
    return Suspect(index, 1, failed, p_value)


def test_a_run_member_needs_a_failure_of_its_own_and_no_sign_of_alignment() -> None:
    """Inside a run (both neighbours flagged) weak evidence joins, and a unit whose p-value is no
    evidence at all (p >= 1/e) joins on its neighbours' prior alone, if it fails some trial; at a
    run's edge (one flagged neighbour) it needs evidence (p < 1/e); a unit failing nothing never joins."""
    flags = "." * 30 + "FF.FFF.FF" + "." * 30
    order = (np.zeros(len(flags), dtype=np.int64), np.arange(len(flags)))
    told = {i for i, c in enumerate(flags) if c == "F"}
    inside, inside_too, edge, far = 32, 36, 39, 5
    tests = [_test(inside, 0.2), _test(inside_too, 0.5), _test(edge, 0.5), _test(far, 0.02)]
    assert [t.index for t in run_members(tests, told, order, 0.01)] == [inside, inside_too]
    assert run_members([_test(inside, 1.0, failed=0)], told, order, 0.01) == []  # fails nothing
    assert run_members(tests, told, order, 0.01, aligned={inside, inside_too}) == []  # a kept rare anchor: aligned
    assert run_members(tests, told, None, 0.01) == []  # no TM order: no neighbours


def test_a_run_is_followed_across_weak_units_and_stops_where_evidence_stops() -> None:
    """Three weak units in a run's gap: the outer two join first (each has a told neighbour; at a
    run's edge the chain's prior is modest, so they need p ~ .03), then the middle one, whose two
    neighbours have joined, on weaker evidence still. Units that fail nothing stop the run."""
    flags = "." * 30 + "FFFFFF" + "abc" + "FFFFFF" + "de" + "FFFF" + "." * 30
    order = (np.zeros(len(flags), dtype=np.int64), np.arange(len(flags)))
    told = {i for i, c in enumerate(flags) if c == "F"}
    at = {c: flags.index(c) for c in "abcde"}
    tests = [_test(at["a"], 0.03), _test(at["b"], 0.2), _test(at["c"], 0.03), _test(at["d"], 1.0, failed=0),
             _test(at["e"], 0.5)]
    joined = [t.index for t in run_members(tests, told, order, 0.01)]
    assert joined == [at["a"], at["b"], at["c"]]  # e: p >= 1/e with one flagged neighbour, d failing nothing
    assert not run_members([_test(at["b"], 0.2)], told, order, 0.01)  # alone, b has no flagged neighbour
