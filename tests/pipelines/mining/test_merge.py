"""The merged candidate list and its evidence table: order, caps, duplicates, and the round trip
through a stored table (the mining assets store each family's evidence and reload it)."""

from __future__ import annotations

import numpy as np
import polars as pl

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.merge import (
    EVIDENCE_IDS_IN_RECORD,
    EVIDENCE_SCHEMA,
    Mined,
    empty_evidence,
    evidence_frame,
    from_rows,
    in_evidence_order,
    merge,
)

UNIT_IDS = [f"u{i:03d}" for i in range(40)][::-1]  # corpus order is not id order: u039 … u000


def _rule(term: str) -> Convention:
    return Convention(dimension=f"term:{term}", rule="term", src=term, expected_terms=[term.upper()],
                      src_lang="en", tgt_lang="fr", origin="mined", status="candidate")


def test_evidence_rows_are_sorted_by_rule_role_and_unit_id_with_nothing_dropped() -> None:
    a, b = _rule("virus"), _rule("mask")
    items = [Mined(a, [0, 5, 1], [39]), Mined(b, list(range(30)), [])]
    frame = evidence_frame(items, UNIT_IDS)
    assert frame.schema == EVIDENCE_SCHEMA
    assert frame.height == 3 + 1 + 30
    assert frame.rows() == sorted(frame.rows(), key=lambda r: (r[0], r[2], r[1]))
    rows_a = frame.filter(pl.col("convention_id") == a.convention_id).rows()
    assert rows_a == [(a.convention_id, "u000", "counter"), (a.convention_id, "u034", "evidence"),
                      (a.convention_id, "u038", "evidence"), (a.convention_id, "u039", "evidence")]


def test_merge_keeps_the_first_of_a_duplicate_and_caps_the_record_ids() -> None:
    a = _rule("virus")
    twin = _rule("virus")
    conventions, frame = merge([Mined(a, list(range(40)), []), Mined(twin, [0], [1])], UNIT_IDS)
    assert len(conventions) == 1
    assert conventions[0].evidence_unit_ids == sorted(UNIT_IDS)[:EVIDENCE_IDS_IN_RECORD]
    assert conventions[0].counter_unit_ids == []
    assert frame.height == 40 and set(frame["role"]) == {"evidence"}


def test_a_stored_table_gives_back_the_same_units() -> None:
    a, b, c = _rule("virus"), _rule("mask"), _rule("vaccine")
    items = [Mined(a, [3, 4], [7]), Mined(b, [9], [])]
    frame = evidence_frame(items, UNIT_IDS)
    extra = pl.DataFrame([{"convention_id": a.convention_id, "unit_id": "not-in-corpus", "role": "evidence"}],
                         schema=EVIDENCE_SCHEMA)
    back = from_rows([a, b, c], pl.concat([frame, extra]), UNIT_IDS)
    assert [(sorted(m.evidence), sorted(m.counter)) for m in back] == [([3, 4], [7]), ([9], []), ([], [])]


def test_no_items_no_rows() -> None:
    assert evidence_frame([], UNIT_IDS).schema == EVIDENCE_SCHEMA
    assert merge([], UNIT_IDS)[1].height == 0


def test_the_table_is_every_row_in_string_order_from_lists_or_arrays() -> None:
    """Random evidence over ids with repeats (two corpus units may share an id): the table is the
    rows themselves sorted as strings, and the record ids are the smallest ids, from lists and
    from integer arrays alike."""
    rng = np.random.default_rng(3)
    ids = [f"u{int(n):04d}" for n in rng.integers(0, 150, 200)]
    rules = [_rule(f"term{k}") for k in range(25)]
    picks = [(rng.choice(200, rng.integers(0, 60), replace=False), rng.choice(200, rng.integers(0, 5), replace=False))
             for _ in rules]
    picks = [(ev, np.setdiff1d(co, ev)) for ev, co in picks]
    expected = sorted((r.convention_id, ids[u], role) for r, (ev, co) in zip(rules, picks)
                      for role, part in (("evidence", ev), ("counter", co)) for u in part.tolist())
    expected.sort(key=lambda row: (row[0], row[2], row[1]))  # (convention_id, role, unit_id)
    for as_arrays in (False, True):
        items = [Mined(r, ev if as_arrays else ev.tolist(), co.astype(np.int32) if as_arrays else co.tolist())
                 for r, (ev, co) in zip(rules, picks)]
        assert evidence_frame(items, ids).rows() == expected
        conventions, frame = merge(items, ids)
        assert frame.rows() == expected
        for conv, (ev, co) in zip(sorted(rules, key=lambda c: c.dimension), [picks[rules.index(c)] for c in conventions]):
            assert conv.evidence_unit_ids == sorted(ids[u] for u in ev.tolist())[:EVIDENCE_IDS_IN_RECORD]
            assert conv.counter_unit_ids == sorted(ids[u] for u in co.tolist())[:EVIDENCE_IDS_IN_RECORD]


def test_the_order_check_sees_any_row_out_of_place_even_across_slices() -> None:
    a, b = _rule("virus"), _rule("mask")
    frame = evidence_frame([Mined(a, list(range(0, 40, 3)), [1, 2]), Mined(b, [5, 6, 7], [8])], UNIT_IDS)
    for rows in (1, 2, 5, frame.height, frame.height + 3):
        assert in_evidence_order(frame, rows)
        for i in range(frame.height - 1):  # swap neighbours: out of order wherever the slices fall
            swapped = pl.concat([frame.slice(0, i), frame.slice(i + 1, 1), frame.slice(i, 1), frame.slice(i + 2)])
            assert not in_evidence_order(swapped, rows)
    assert in_evidence_order(empty_evidence()) and in_evidence_order(frame.head(1))
    ties = pl.concat([frame.head(1), frame.head(1)])  # a repeated row is in order
    assert in_evidence_order(ties, 1)
