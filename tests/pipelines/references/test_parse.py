"""Parsing N candidates from one answer: list styles, preamble, stray text, duplicates, truncation."""

from __future__ import annotations

from housestyle.pipelines.references.parse import parse_candidates


def test_numbered_list_after_the_prompt_prefix() -> None:
    parsed = parse_candidates(" It rains.\n2. It is raining.\n3) Rain is falling.", 10, prefix="1.")
    assert parsed.candidates == ["It rains.", "It is raining.", "Rain is falling."] and parsed.dropped == []


def test_preamble_stray_text_quotes_bold_and_bullets() -> None:
    raw = ('Here are three translations:\n\n(1) "It rains."\n2: **It is raining.**\n- « Rain falls. »\n'
           "Note: all three are fine.\n")
    parsed = parse_candidates(raw, 10)
    assert parsed.candidates == ["It rains.", "It is raining.", "Rain falls."]
    assert parsed.dropped == [("Here are three translations:", "preamble"), ("Note: all three are fine.", "stray text")]


def test_duplicates_copies_and_beyond_n_are_dropped_with_reasons() -> None:
    raw = "1. A cat.\n2. a  cat.\n3. Un chat.\n4. The cat.\n5. One cat.\n6. Some cat.\n7. "
    parsed = parse_candidates(raw, 2, source="Un chat.", ground_truth="The cat.")
    assert parsed.candidates == ["A cat.", "One cat."]
    assert [r for _t, r in parsed.dropped] == ["duplicate", "copy of the source", "copy of the ground truth",
                                               "beyond the 2 asked for", "empty"]


def test_unnumbered_lines_and_fewer_than_n() -> None:
    parsed = parse_candidates("It rains.\nIt is raining.", 10)
    assert parsed.candidates == ["It rains.", "It is raining."]


def test_truncated_answer_drops_the_last_item() -> None:
    parsed = parse_candidates("1. It rains.\n2. It is rain", 10, truncated=True)
    assert parsed.candidates == ["It rains."] and parsed.dropped == [("It is rain", "truncated at max_tokens")]
