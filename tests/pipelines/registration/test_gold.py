"""Gold readers: both TICO-19 CSV layouts, TBX (no DTD, no entities), gold conventions; sanity counts on the real gold."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.errors import MalformedFileError, UnsafeXmlError
from housestyle.pipelines.registration.fold import contains_bounded, fold
from housestyle.pipelines.registration.gold import (
    load_gold_conventions,
    load_term_pairs,
    primary_lang,
)

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "registration"


def test_fold_is_the_gold_readme_folding() -> None:
    assert fold("  Masse\u00a0d’Air\u202f ‘x’ ʼy  ") == "masse d'air 'x' 'y"


def test_word_bounded_only_at_letters_and_digits() -> None:
    assert not contains_bounded("sit on the chair", "air")
    assert contains_bounded("the air-mass", "air")
    assert not contains_bounded("covid-19s", "covid-19")
    assert contains_bounded("chair air", "air")  # a later bounded occurrence counts


def test_facebook_layout_folds_dedups_and_reports_skipped_rows() -> None:
    skipped: list[str] = []
    pairs = load_term_pairs(FIX / "terms_facebook.csv", "termbase_csv", "en", "fr", skipped)
    assert sorted(p.key for p in pairs) == [
        ("air mass", "masse d'air"), ("chair", "chaise"), ("face mask", "masque"),
        ("fever", "fièvre"), ("self isolation", "auto isolement")]
    assert next(p for p in pairs if p.source == "face mask").refs == ["line 3", "line 4"]
    assert skipped == [f"{FIX / 'terms_facebook.csv'}:line 7: empty sourceString"]


def test_google_layout_with_quoted_descriptions() -> None:
    pairs = load_term_pairs(FIX / "terms_google.csv", "termbase_csv", "en", "fr")
    assert [p.key for p in pairs] == [("air mass", "masse d'air"), ("contagious", "contagieux"), ("doctor", "médecin")]


def test_csv_without_term_columns_names_file_and_line() -> None:
    with pytest.raises(MalformedFileError, match=r"bad_header.csv:1: term CSV needs columns 'sourceString'"):
        load_term_pairs(FIX / "bad_header.csv", "termbase_csv", "en", "fr")


def test_tbx_pairs_every_source_term_with_every_target_term() -> None:
    pairs = load_term_pairs(FIX / "mini.tbx", "tbx", "en", "fr")
    assert [p.key for p in pairs] == [("sign-in", "connexion"), ("sign-in", "identification")]
    assert pairs[0].refs == ["termEntry c1 (line 5)"]


def test_tbx_with_entity_declarations_is_refused() -> None:
    with pytest.raises(UnsafeXmlError, match="entities.tbx: TBX declares entities"):
        load_term_pairs(FIX / "entities.tbx", "tbx", "en", "fr")


def test_primary_lang() -> None:
    assert [primary_lang(t) for t in ("fr_XX", "fr-FR", "en-US", None)] == ["fr", "fr", "en", ""]


def test_real_gold_files_parse(shared_data: Path, shared_gold: Path) -> None:
    terms = shared_data / "tico19" / "terminologies"
    assert len(load_term_pairs(terms / "f_en-fr_XX.csv", "termbase_csv", "en", "fr")) == 306
    assert len(load_term_pairs(terms / "g_en_fr-FR.csv", "termbase_csv", "en", "fr")) == 329  # 336 rows, 7 fold-duplicates
    tbx = shared_data / "mozilla-fr" / "terminology_management" / "terminology" / "fr.tbx"
    assert len(load_term_pairs(tbx, "tbx", "en", "fr")) == 96
    gold = load_gold_conventions(shared_gold / "mozilla-fr.conventions.jsonl", "en", "fr")
    assert [g.gold_id for g in gold] == [f"moz-fr-0{i}" for i in range(1, 7)]
    assert all(g.probes and g.convention.origin == "gold" and g.convention.tgt_lang == "fr" for g in gold)
