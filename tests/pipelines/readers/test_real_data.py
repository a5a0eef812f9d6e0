"""The issue's real-data figures: TICO-19 (plain and zipped), Mozilla fr (XLIFF, PO, TBX), format samples."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.ingest import ingest_files
from tests.eval import format_samples_ingest

from .conftest import read_all


def test_tico19_en_fr(shared_data: Path, tmp_path: Path) -> None:
    summary = ingest_files([shared_data / "tico19/TM/all.en-fr.tmx"], client="demo", out_dir=tmp_path)
    assert (summary.units_read, summary.units_kept, summary.units_rejected) == (3071, 3071, 0)
    assert summary.language_pairs == {"en→fr": 3071}
    units = pl.read_parquet(tmp_path / "tm_units.parquet")
    assert units["unit_id"].n_unique() == 3071 and units["unit_id"][0] == "CMU_1:1"
    assert units["note"].null_count() == 3071 and units["props"][0].to_list()[0]["key"] == "note"


@pytest.mark.parametrize("lang", ["es-LA", "pt-BR", "ru", "zh"])
def test_tico19_zipped(shared_data: Path, lang: str) -> None:
    archive = shared_data / f"tico19/TM/all.en-{lang}.tmx.zip"
    units, rejects, errors = read_all(archive)
    assert (len(units), len(rejects), len(errors)) == (3071, 0, 0)
    assert {(u.src_lang, u.tgt_lang) for u in units} == {("en", lang)}


def test_mozilla_fr(shared_data: Path, tmp_path: Path) -> None:
    root = shared_data / "mozilla-fr"
    xliff = sorted(root.rglob("*.xliff"))
    po = sorted(root.rglob("*.po"))
    xliff_units = [u for path in xliff for u in read_all(path)[0]]
    assert len(xliff) == 25 and sum(1 for u in xliff_units if u.target) == 947
    po_units = [u for path in po for u in read_all(path)[0]]
    entries = {(u.unit_id.split("[", 1)[0], u.line) for u in po_units}
    assert len(po) == 11 and len(entries) == 1314  # entries; plural forms are extra rows
    plural_rows = [u for u in po_units if any(f.startswith("plural:") for f in u.flags)]
    assert len(po_units) == 1314 + len(plural_rows) // 2  # every plural entry here has 2 forms
    summary = ingest_files(xliff + po + [root / "terminology_management/terminology/fr.tbx"], client="mozilla-fr",
                           out_dir=tmp_path)
    assert summary.units_rejected == 0
    assert summary.units_kept == 947 + len(po_units) + 96
    assert summary.language_pairs == {"en→fr": 947 + len(po_units), "en-US→fr": 96}


def test_invalid_xml_entity_is_a_reject_naming_file_and_line(shared_data: Path, tmp_path: Path) -> None:
    bad = shared_data / "format-samples/okapi/okapi/filters/xliff/src/test/resources/invalid_xml_entity.xlf"
    good = shared_data / "format-samples/okapi/okapi/filters/xliff/src/test/resources/segmented.xlf"
    summary = ingest_files([bad, good], client="c", out_dir=tmp_path)
    rejects = pl.read_parquet(tmp_path / "tm_rejects.parquet")
    row = rejects.row(0, named=True)  # the unit holding the control character, with libxml2's message and line
    assert (row["source_file"], row["location"], row["unit_ordinal"]) == (str(bad), "6", 1)
    assert row["reason"] == "not well-formed XML: PCDATA invalid Char value 3 (line 8)"
    assert rejects.height == 1 and summary.units_kept == 3  # the other file of the client still ingested


@pytest.fixture(scope="module")
def sample_rows(shared_data: Path) -> dict[str, dict[str, str | int]]:
    return {str(r["file"]): r for r in format_samples_ingest.build_rows(shared_data)}


def test_format_samples_table_key_cells(sample_rows: dict[str, dict[str, str | int]]) -> None:
    assert len(sample_rows) == 40

    def cell(name: str) -> tuple[str | int, ...]:
        row = next(r for f, r in sample_rows.items() if f.endswith(name))
        return row["format"], row["units"], row["kept"], row["rejected"], bool(row["error"])

    assert cell("tmx/src/test/resources/ImportTest2A.tmx") == ("tmx", 7, 7, 0, False)
    assert cell("Paragraph_TM.tmx") == ("tmx", 7, 7, 0, False)
    assert cell("compkit/ImportTest1C.tmx") == ("tmx", 3, 12, 0, False)  # 3 tu, 4 target languages each
    assert cell("html_test.tmx") == ("tmx", 11, 11, 0, False)
    assert cell("segmented.xlf") == ("xliff12", 2, 3, 0, False)  # 2 trans-units, 3 segments
    assert cell("roundtrips/comprehensive_data_input.xlf") == ("xliff2", 2, 4, 0, False)  # + 1 untranslated
    assert sample_rows["xliff/src/test/resources/PAS-10-Test01.xlf"]["untranslated"] == 137  # no <target>: not rejects (21 more have no source text)
    assert cell("plurals-2.po") == ("po", 1, 3, 0, False)  # one entry, three plural forms
    assert cell("fail.po") == ("po", 3, 0, 4, False)  # reads; no language anywhere -> rejected, not an error
    assert cell("msgctxt_notes.po") == ("po", 2, 0, 3, True)  # two entries read past the stray header text
    assert cell("invalid_xml_entity.xlf") == ("xliff12", 1, 0, 1, False)  # the unit is rejected, not the file
    assert "bin-unit" in str(sample_rows["xliff/src/test/resources/BinUnitTest01.xlf"]["reject reasons"])
    assert "PCDATA invalid Char value 3" in str(sample_rows["xliff/src/test/resources/invalid_xml_entity.xlf"]["reject reasons"])


def test_committed_format_samples_table_is_current(sample_rows: dict[str, dict[str, str | int]]) -> None:
    committed = format_samples_ingest.OUTPUT.read_text(encoding="utf-8")
    assert committed == format_samples_ingest.render(list(sample_rows.values())), (
        "regenerate with: python -m tests.eval.format_samples_ingest")
