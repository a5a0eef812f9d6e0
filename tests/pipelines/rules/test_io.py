"""Loading convention sets in every format, and refusing bad ones by convention and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from housestyle.pipelines.rules.io import load_conventions, write_conventions
from housestyle.pipelines.errors import ConventionError, InputError

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "scoring"


def test_seed_example_loads_as_is() -> None:
    (conv,) = load_conventions(FIX / "seed.jsonl")
    assert conv.dimension == "term:air mass"
    assert conv.rule == "term"
    assert conv.expected_terms == ["masse d'air"]
    assert conv.wrong_variants == ["masse atmosphérique"]
    assert conv.match_mode == "caseless"
    assert conv.trigger_mode == "caseless"
    assert len(conv.convention_id) == 16


@pytest.mark.parametrize("name", ["set.jsonl", "set.json", "set.yaml"])
def test_every_format_gives_the_same_set(name: str) -> None:
    assert load_conventions(FIX / name) == load_conventions(FIX / "set.jsonl")


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl", ".json"])
def test_round_trip_keeps_ids_and_params(tmp_path: Path, suffix: str) -> None:
    original = load_conventions(FIX / "set.jsonl", regex_guard=False)
    path = write_conventions(original, tmp_path / f"conventions{suffix}")
    again = load_conventions(path, regex_guard=False)
    assert again == original
    assert [c.convention_id for c in again] == [c.convention_id for c in original]
    assert again[3].params == {"decimal": ",", "group": "\u202f"}


def test_directory_loads_its_conventions_file(tmp_path: Path) -> None:
    write_conventions(load_conventions(FIX / "seed.jsonl"), tmp_path / "conventions.parquet")
    assert len(load_conventions(tmp_path)) == 1


@pytest.mark.parametrize(
    ("name", "field", "words"),
    [
        ("bad_rule.jsonl", "rule", "unknown rule 'terminology'"),
        ("bad_mode.jsonl", "match_mode", "unknown match_mode 'fuzzy'"),
        ("bad_regex.jsonl", "wrong_variants", "does not compile"),
        ("slow_regex.jsonl", "wrong_variants", "nested quantifier"),
        ("empty_dimension.jsonl", "dimension", "dimension is empty"),
        ("nfkc_fullwidth.jsonl", "expected_terms", "changes under NFKC"),
        ("typo_field.jsonl", "expected_term", "did you mean 'expected_terms'"),
    ],
)
def test_bad_conventions_are_refused_naming_convention_and_field(name: str, field: str, words: str) -> None:
    with pytest.raises(ConventionError) as info:
        load_conventions(FIX / name)
    err = info.value
    assert err.field == field
    assert err.path == f"{FIX / name}:2"
    assert str(err).startswith(f"{FIX / name}:2: convention ")
    assert f"field {field!r}: " in str(err)
    assert words in str(err)


def _jsonl(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "conv.jsonl"
    path.write_text("".join(row + "\n" for row in rows), encoding="utf-8")
    return path


GOOD = '{"dimension": "term:air", "rule": "term", "expected_terms": ["air"]}'


@pytest.mark.parametrize(
    ("row", "field", "words"),
    [
        ('{"dimension": "number:x", "rule": "numeric", "params": {"decimal": ",,"}}', "params.decimal", "one non-digit character"),
        ('{"dimension": "number:x", "rule": "numeric", "params": {"colour": "red"}}', "params.colour", "unknown params"),
        ('{"dimension": "term:x", "rule": "forbidden", "wrong_variants": ["x"], "params": {"a": 1}}', "params", "takes no params"),
        ('{"dimension": "term:x", "rule": "term", "expected_terms": ["x"], "params": {"a": 1}}', "params.a", "unknown params"),
        ('{"dimension": "casing:x", "rule": "casing", "params": {}}', "params.style", "casing needs"),
        ('{"dimension": "ph:x", "rule": "placeholder", "params": {"patterns": ["(x"]}}', "params.patterns", "does not compile"),
        ('{"dimension": "copy:x", "rule": "source_copy"}', "src", "needs src"),
    ],
)
def test_rule_level_errors_name_the_file_and_line(tmp_path: Path, row: str, field: str, words: str) -> None:
    """A rule module's own check (params, src) is reported like a field check: file:line, convention, field."""
    path = _jsonl(tmp_path, GOOD, row)
    with pytest.raises(ConventionError) as info:
        load_conventions(path, regex_guard=False)
    err = info.value
    assert str(err).startswith(f"{path}:2: convention {err.convention}: field {field!r}: ")
    assert len(err.convention) == 16  # the id of the convention on that line
    assert words in str(err)


def test_type_errors_before_the_id_exists_name_file_and_line(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, GOOD, '{"dimension": "term:x", "rule": "term", "expected_terms": "x"}')
    with pytest.raises(ConventionError, match=rf"^{path}:2: convention term:x: field 'expected_terms': must be a list"):
        load_conventions(path)


def test_parquet_errors_name_the_row(tmp_path: Path) -> None:
    import polars as pl

    write_conventions(load_conventions(FIX / "seed.jsonl"), tmp_path / "c.parquet")
    frame = pl.read_parquet(tmp_path / "c.parquet")
    frame.with_columns(pl.lit("fuzzy").alias("match_mode")).write_parquet(tmp_path / "c.parquet")
    with pytest.raises(ConventionError, match=rf"^{tmp_path / 'c.parquet'}:row 1: convention "):
        load_conventions(tmp_path / "c.parquet")


def test_a_jsonl_with_a_byte_order_mark_reads(tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (FIX / "seed.jsonl").read_bytes())
    assert load_conventions(path) == load_conventions(FIX / "seed.jsonl")


def test_edited_row_with_stale_id_is_refused(tmp_path: Path) -> None:
    path = write_conventions(load_conventions(FIX / "seed.jsonl"), tmp_path / "c.jsonl")
    path.write_text(path.read_text(encoding="utf-8").replace("masse atmosphérique", "masse aérienne"), encoding="utf-8")
    with pytest.raises(ConventionError, match="does not match its semantic fields"):
        load_conventions(path)


def test_duplicate_convention_is_refused(tmp_path: Path) -> None:
    line = (FIX / "seed.jsonl").read_text(encoding="utf-8")
    (tmp_path / "dup.jsonl").write_text(line + line, encoding="utf-8")
    with pytest.raises(ConventionError, match=r"dup\.jsonl:2: convention \w+: field 'convention_id': duplicate of line 1"):
        load_conventions(tmp_path / "dup.jsonl")


def test_broken_json_names_the_line(tmp_path: Path) -> None:
    (tmp_path / "b.jsonl").write_text((FIX / "seed.jsonl").read_text(encoding="utf-8") + "{oops\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"b\.jsonl:2: invalid JSON"):
        load_conventions(tmp_path / "b.jsonl")


def test_unknown_extra_fields_are_kept_not_refused(tmp_path: Path) -> None:
    (tmp_path / "x.jsonl").write_text(
        '{"dimension": "x:y", "rule": "term", "expected_terms": ["a"], "reviewer_comment": "ok"}\n', encoding="utf-8"
    )
    (conv,) = load_conventions(tmp_path / "x.jsonl")
    assert conv.extra == {"reviewer_comment": "ok"}


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl"])
def test_heldout_counts_round_trip_outside_the_id(tmp_path: Path, suffix: str) -> None:
    from dataclasses import replace
    original = load_conventions(FIX / "set.jsonl", regex_guard=False)
    counted = [replace(original[0], heldout_items=7, heldout_passed=6, status="suggested"), *original[1:]]
    assert counted[0].convention_id == original[0].convention_id  # evidence, not part of the id
    again = load_conventions(write_conventions(counted, tmp_path / f"c{suffix}"), regex_guard=False)
    assert (again[0].heldout_items, again[0].heldout_passed, again[0].status) == (7, 6, "suggested")
    assert again[1].heldout_items is None and again[1].heldout_passed is None


@pytest.mark.parametrize("items,passed,words", [(3, 4, "exceeds"), (None, 2, "together"), (-1, 0, "negative")])
def test_bad_heldout_counts_are_refused(tmp_path: Path, items: object, passed: object, words: str) -> None:
    row = '{"dimension": "term:x", "rule": "term", "src": "x", "expected_terms": ["y"], "heldout_items": %s, "heldout_passed": %s}'
    path = tmp_path / "c.jsonl"
    path.write_text(row % (json.dumps(items), json.dumps(passed)) + "\n", encoding="utf-8")
    with pytest.raises(ConventionError, match=words):
        load_conventions(path, regex_guard=False)
