"""Ingest: tables match the contract, read = kept + rejected, duplicates marked not dropped, domains."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from housestyle.pipelines import tm_merge
from housestyle.pipelines.readers import scan
from housestyle.pipelines.ingest import domain_from_path, ingest_files
from housestyle.pipelines.tm_schema import REJECT_RAW_MAX_CHARS, TM_REJECTS_SCHEMA, TM_UNITS_SCHEMA
from housestyle.pipelines.unit_hash import unit_hash

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "readers"
ALL_FIXTURES = sorted(p for p in FIXTURES.iterdir() if p.is_file())


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("ingest")
    unsupported = out.parent / "notes.txt"
    unsupported.write_text("not a TM", encoding="utf-8")
    summary = ingest_files(ALL_FIXTURES + [unsupported], client="acme", out_dir=out / "tables")
    return out / "tables", summary


def test_schemas_are_the_contract(ingested: tuple[Path, object]) -> None:
    out, _summary = ingested
    assert dict(pl.read_parquet(out / "tm_units.parquet").schema) == TM_UNITS_SCHEMA
    assert dict(pl.read_parquet(out / "tm_rejects.parquet").schema) == TM_REJECTS_SCHEMA


def test_invariant_read_equals_kept_plus_rejected(ingested: tuple[Path, object]) -> None:
    out, summary = ingested
    units = pl.read_parquet(out / "tm_units.parquet")
    rejects = pl.read_parquet(out / "tm_rejects.parquet")
    untranslated = rejects.filter(pl.col("reason") == "untranslated").height  # PO / XLIFF entries not translated yet
    assert untranslated and summary.units_untranslated == untranslated  # type: ignore[attr-defined]
    assert summary.units_kept == units.height  # type: ignore[attr-defined]
    assert summary.units_rejected + untranslated == rejects.height  # type: ignore[attr-defined]
    assert summary.units_read == units.height + rejects.height  # type: ignore[attr-defined]
    per_file = summary.per_file  # type: ignore[attr-defined]
    assert sum(f.kept for f in per_file) == units.height
    assert sum(f.rejected + f.untranslated for f in per_file) == rejects.height
    assert {Path(f.source_file).name for f in per_file} >= {p.name for p in ALL_FIXTURES}


def test_reject_reasons_and_file_errors(ingested: tuple[Path, object]) -> None:
    out, summary = ingested
    rejects = pl.read_parquet(out / "tm_rejects.parquet")
    reasons = summary.reject_reasons  # type: ignore[attr-defined]
    for reason in ("missing target", "empty target", "missing source language", "unparseable inline markup",
                   "binary unit (bin-unit) has no text"):
        assert reason in reasons, reason
    for prefix in ("unsafe xml: refused", "malformed file: the file ends before", "unsupported format",
                   "not well-formed XML: Premature end of data"):
        assert any(r.startswith(prefix) for r in reasons), prefix
    truncated = rejects.filter(pl.col("source_file").str.ends_with("truncated.tmx"))
    assert truncated.filter(pl.col("unit_ordinal") == 4)["location"].to_list() == ["21"]  # the unit cut short
    assert truncated.filter(pl.col("unit_ordinal").is_null())["location"].to_list() == ["22"]  # the missing end tags
    by_name = {Path(f.source_file).name: f for f in summary.per_file}  # type: ignore[attr-defined]
    assert by_name["truncated.tmx"].kept == 4 and by_name["truncated.tmx"].error is not None
    assert by_name["truncated.tmx"].units_in_file == 4
    assert by_name["sample.po"].kept == 7 and by_name["sample.po"].rejected == 0  # its untranslated entry is not a reject
    assert by_name["sample.po"].untranslated == 1 and "untranslated" not in reasons
    assert by_name["notes.txt"].error is not None and by_name["notes.txt"].rejected == 1
    assert by_name["notes.txt"].units_in_file is None  # not a TM: its units cannot be counted
    assert rejects["raw"].str.len_chars().max() <= REJECT_RAW_MAX_CHARS  # type: ignore[operator]


def test_languages_as_written_and_normalised(ingested: tuple[Path, object]) -> None:
    out, summary = ingested
    units = pl.read_parquet(out / "tm_units.parquet")
    fr = units.filter(pl.col("tgt_lang") == "fr_FR").row(0, named=True)
    assert fr["tgt_lang_norm"] == "fr-FR" and fr["src_lang_norm"] == "en"
    assert {"en→es-LA", "en→zh", "en→fr-FR", "en-US→fr-FR"} <= set(summary.language_pairs)  # type: ignore[attr-defined]


def test_duplicates_are_marked_not_dropped(ingested: tuple[Path, object]) -> None:
    out, summary = ingested
    units = pl.read_parquet(out / "tm_units.parquet")
    wash = units.filter((pl.col("source") == "Wash your hands.") & (pl.col("tgt_lang_norm") == "fr-FR"))
    # m1 (fr_FR) and m7 (fr-FR, doubled space) are the same unit after normalisation; the truncated copy too
    assert wash.height == 3 and wash["unit_hash"].n_unique() == 1
    first = wash.filter(pl.col("duplicate_of").is_null())
    assert first.height == 1 and first["unit_id"][0] == "m1"
    assert set(wash["duplicate_of"].drop_nulls()) == {"m1"}
    assert summary.duplicates == units["duplicate_of"].is_not_null().sum()  # type: ignore[attr-defined]


def test_unit_hash_normalises_text_and_tags() -> None:
    a = unit_hash("fr-FR", "en", "Lavez-vous  les mains.", "x")
    assert a == unit_hash("fr-FR", "en", " Lavez-vous les\nmains. ", "x")
    assert a == unit_hash("fr-FR", "en", "Lavez-vous les mains.", "x")
    assert unit_hash("fr-FR", "en", "e\u0301", "x") == unit_hash("fr-FR", "en", "\u00e9", "x")  # NFC
    assert a != unit_hash("fr-CA", "en", "Lavez-vous les mains.", "x")


def test_domain_precedence(tmp_path: Path) -> None:
    summary = ingest_files([FIXTURES / "inline_codes.tmx", FIXTURES / "multilingual.tmx"], client="c",
                           out_dir=tmp_path, domain_of=lambda path: "from-path")
    units = pl.read_parquet(tmp_path / "tm_units.parquet")
    domains = dict(zip(units["unit_id"], units["domain"]))
    assert domains["ph"] == "ui"  # the unit's own prop
    assert domains["bpt-ept"] == "software"  # the file header's prop
    assert domains["m1"] == "medical"
    assert domains["m7"] == "from-path"  # no prop: the folder
    assert summary.units_kept == units.height


def test_domain_from_path(tmp_path: Path) -> None:
    root = tmp_path / "inbox" / "mozilla-fr" / "tm"
    assert domain_from_path(root / "vpn" / "fr" / "x.xliff", root) == "vpn"
    assert domain_from_path(root / "x.tmx", root) is None
    assert domain_from_path(tmp_path / "elsewhere" / "x.tmx", root) is None


def test_parquet_is_written_in_row_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tm_merge, "ROW_GROUP_ROWS", 3)
    monkeypatch.setattr(scan, "CHUNK_BYTES", 300)  # a job (and a part) every few units
    ingest_files([FIXTURES / "multilingual.tmx", FIXTURES / "inline_codes.tmx"], client="c", out_dir=tmp_path)
    meta = pq.ParquetFile(tmp_path / "tm_units.parquet").metadata
    assert meta.num_row_groups > 3 and meta.num_rows == 12
    units = pl.read_parquet(tmp_path / "tm_units.parquet")
    assert units.filter(pl.col("unit_id") == "m7")["duplicate_of"].to_list() == ["m1"]


def test_empty_input_writes_empty_tables(tmp_path: Path) -> None:
    summary = ingest_files([], client="c", out_dir=tmp_path)
    assert (summary.units_read, summary.units_kept, summary.units_rejected) == (0, 0, 0)
    assert pl.read_parquet(tmp_path / "tm_units.parquet").height == 0
    assert dict(pl.read_parquet(tmp_path / "tm_rejects.parquet").schema) == TM_REJECTS_SCHEMA
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tm_rejects.parquet", "tm_units.parquet"]


def test_summary_to_dict(ingested: tuple[Path, object]) -> None:
    _out, summary = ingested
    as_dict = summary.to_dict()  # type: ignore[attr-defined]
    assert as_dict["units_read"] == summary.units_read and isinstance(as_dict["per_file"][0], dict)  # type: ignore[attr-defined]
    assert as_dict["alt_trans_ignored"] == 4  # 2 alt-trans in each of the two XLIFF 1.2 fixtures
