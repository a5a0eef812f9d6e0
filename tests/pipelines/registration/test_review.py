"""Review import, the precision gate (linguists only), Wilson interval, reproducible review samples."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.registration.review import (
    precision_gate,
    read_review,
    review_sample,
    wilson_interval,
)

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "registration"
PARAMS = {"min_judgements": 1, "counted_roles": ["linguist"], "correct_verdicts": ["correct"],
          "incorrect_verdicts": ["incorrect"]}
SET_IDS = {f"c{i}" for i in range(1, 8)}


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(5, 5)[1] == 1.0


def test_only_linguist_judgements_of_set_rules_count() -> None:
    result = precision_gate(read_review(FIX / "review_mixed.csv"), SET_IDS, 0.85, PARAMS)
    assert (result.correct, result.judged) == (2, 3)
    assert result.ignored == {"not_a_linguist": 3, "unknown_convention_id": 1, "no_verdict": 1}
    assert result.status == "fail" and result.value == pytest.approx(2 / 3)
    assert result.interval == pytest.approx(wilson_interval(2, 3))


def test_engineer_only_review_never_passes(tmp_path: Path) -> None:
    path = tmp_path / "r.parquet"
    pl.DataFrame({"convention_id": ["c1", "c2"], "verdict": ["correct", "correct"],
                  "reviewer": ["Bob", "Bob"], "reviewer_role": ["engineer", "engineer"]}).write_parquet(path)
    result = precision_gate(read_review(path), SET_IDS, 0.85, PARAMS)
    assert result.status == "pending" and result.reason == "no counted linguist judgement"


def test_review_without_role_column_counts_nobody(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("convention_id,verdict,comment\nc1,correct,\n", encoding="utf-8")
    assert precision_gate(read_review(path), SET_IDS, 0.85, PARAMS).status == "pending"


def test_pass_pending_and_minimum() -> None:
    frame = pl.DataFrame({"convention_id": ["c1", "c2", "c3"], "verdict": ["correct"] * 3,
                          "comment": [None] * 3, "reviewer": ["A"] * 3, "reviewer_role": ["linguist"] * 3})
    assert precision_gate(frame, SET_IDS, 0.85, PARAMS).status == "pass"
    assert precision_gate(frame, SET_IDS, 0.85, {**PARAMS, "min_judgements": 30}).status == "pending"
    assert precision_gate(None, SET_IDS, 0.85, PARAMS).reason == "no linguist review file yet"


def test_review_file_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("id,verdict\n1,correct\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"r.csv:1: review file lacks columns \['convention_id'\]"):
        read_review(path)
    with pytest.raises(InputError, match="must be .csv, .tsv or .parquet"):
        read_review(tmp_path / "r.xlsx")


def test_review_sample_is_reproducible_per_set_version() -> None:
    rules = [Convention(dimension=f"term:t{i}", rule="term", src=f"t{i}", expected_terms=[f"u{i}"]) for i in range(200)]
    first = review_sample(rules, 50, "abc123")
    assert first.height == 50 and first["convention_id"].n_unique() == 50
    assert first.equals(review_sample(list(reversed(rules)), 50, "abc123"))
    assert not first.equals(review_sample(rules, 50, "other"))
    assert review_sample(rules[:3], 50, "abc123").height == 3
    assert set(first.columns) >= {"convention_id", "verdict", "comment", "reviewer", "reviewer_role"}


def test_review_sample_shows_each_rule_in_its_first_evidence_unit() -> None:
    rules = [Convention(dimension="term:fever", rule="term", src="fever", expected_terms=["fièvre"],
                        evidence_unit_ids=["u2", "u1"]),
             Convention(dimension="term:cough", rule="term", src="cough", expected_terms=["toux"])]
    units = pl.DataFrame({"unit_id": ["u1", "u2"], "source": ["A fever.", "High fever."],
                          "target": ["Une fièvre.", "Forte fièvre."]})
    sample = review_sample(rules, 2, "abc123", units).sort("src")
    assert sample.select("src", "example_source", "example_target").rows() == [
        ("cough", "", ""), ("fever", "High fever.", "Forte fièvre.")]
    assert review_sample(rules, 2, "abc123")["example_source"].to_list() == ["", ""]  # no TM given


def test_a_verdict_file_with_an_unclosed_quote_names_its_line(tmp_path: Path) -> None:
    """polars refused it too, but printed the rest of the file as the error; now one line, the record's."""
    path = tmp_path / "v.csv"
    path.write_text("convention_id,verdict,comment\nc1,wrong,\"too general\n" + "c2,correct,\n" * 20)
    with pytest.raises(InputError, match=r"^\S*v.csv:2: not readable as CSV: unexpected end of data"):
        read_review(path)


def test_a_tsv_verdict_file_reads_as_text_and_a_doubled_column_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "v.tsv"
    path.write_text("convention_id\tverdict\treviewer_role\nc1\tcorrect\tlinguist\nc2\twrong\t\n")
    frame = read_review(path)
    assert frame.rows() == [("c1", "correct", None, None, "linguist"), ("c2", "wrong", None, None, None)]
    path.write_text("convention_id\tverdict\tverdict\nc1\tcorrect\twrong\n")
    with pytest.raises(InputError, match=r"v.tsv:row 1: column\(s\) named twice: verdict"):
        read_review(path)
