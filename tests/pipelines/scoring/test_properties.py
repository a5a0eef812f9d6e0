"""Properties of the scoring rule (SPEC.md §2), checked with hypothesis."""

from __future__ import annotations

import random

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.scoring.check import applies, check_item
from housestyle.pipelines.scoring.engine import score_systems
from tests.pipelines.scoring.test_engine import conventions, text_st


@settings(max_examples=200, deadline=None)
@given(conv=conventions(), source=text_st, output=text_st)
def test_vacuous_truth_on_either_side(conv: Convention, source: str, output: str) -> None:
    if conv.rule not in ("term", "forbidden", "pattern"):
        return
    no_expected = Convention(**{**conv.to_dict(), "expected_terms": [], "convention_id": "", "extra": {}})
    no_wrong = Convention(**{**conv.to_dict(), "wrong_variants": [], "convention_id": "", "extra": {}})
    v1, v2 = check_item(no_expected, source, output), check_item(no_wrong, source, output)
    if v1 is not None:
        assert v1.domain_pass and v1.missing_expected == []
    if v2 is not None:
        assert v2.no_wrong_variant and v2.found_wrong == [] and v2.spans == []


def _table(result_scores: pl.DataFrame) -> pl.DataFrame:
    return result_scores.sort("system", "convention_id")


@settings(max_examples=60, deadline=None)
@given(
    convs=st.lists(conventions(), min_size=1, max_size=5),
    sources=st.lists(text_st, min_size=1, max_size=6),
    new_source=text_st,
)
def test_adding_a_segment_the_system_did_not_produce_changes_only_missing(
    convs: list[Convention], sources: list[str], new_source: str
) -> None:
    convs = list({c.convention_id: c for c in convs}.values())
    src = {f"s{i}": s for i, s in enumerate(sources)}
    system = {f"s{i}": s.upper() for i, s in enumerate(sources)}
    before = _table(score_systems(convs, src, {"sys": system}).scores)
    after = _table(score_systems(convs, {**src, "new": new_source}, {"sys": system}).scores)
    assert before.drop("missing", "score").equals(after.drop("missing", "score"))
    assert before["score"].to_list() == after["score"].to_list()
    added = [int(applies(c, new_source)) for c in sorted(convs, key=lambda c: c.convention_id)]
    assert (after["missing"] - before["missing"]).to_list() == added


@settings(max_examples=60, deadline=None)
@given(
    convs=st.lists(conventions(), min_size=1, max_size=5),
    pairs=st.lists(st.tuples(text_st, st.one_of(st.none(), text_st)), min_size=1, max_size=8),
    seed=st.integers(0, 10_000),
)
def test_scores_are_invariant_to_row_order(convs: list[Convention], pairs: list[tuple[str, str | None]], seed: int) -> None:
    convs = list({c.convention_id: c for c in convs}.values())
    src = {f"s{i}": s for i, (s, _o) in enumerate(pairs)}
    out = {f"s{i}": o for i, (_s, o) in enumerate(pairs) if o is not None}
    rng = random.Random(seed)
    keys, okeys, shuffled_convs = list(src), list(out), list(convs)
    rng.shuffle(keys)
    rng.shuffle(okeys)
    rng.shuffle(shuffled_convs)
    a = score_systems(convs, src, {"sys": out})
    b = score_systems(shuffled_convs, {k: src[k] for k in keys}, {"sys": {k: out[k] for k in okeys}})
    assert _table(a.scores).equals(_table(b.scores))
    assert a.dimension_scores.sort("dimension").equals(b.dimension_scores.sort("dimension"))
    assert a.signature == b.signature
    key = ["system", "convention_id", "segment_id"]
    assert a.failures.sort(key).equals(b.failures.sort(key))
