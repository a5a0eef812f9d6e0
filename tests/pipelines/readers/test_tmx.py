"""TMX reader: one row per (tu x target language), metadata, encodings, truncated files."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from housestyle.pipelines.readers.base import TranslationUnit, parse_tmx_date
from housestyle.pipelines.readers.registry import READERS

from .conftest import read_all


def test_multilingual_tu_gives_one_row_per_target(fixtures: Path) -> None:
    units, _rejects, _errors = read_all(fixtures / "multilingual.tmx")
    m1 = [u for u in units if u.unit_id == "m1"]
    assert [(u.src_lang, u.tgt_lang) for u in m1] == [("en", "fr_FR"), ("en", "de"), ("en", "es-LA")]
    assert {u.source for u in m1} == {"Wash your hands."}
    assert all(u.domain == "medical" and u.note == "from the COVID glossary" for u in m1)
    assert ("tu@usagecount", "3") in m1[0].props
    de = m1[1]  # tuv-level metadata applies to its own row only
    assert de.creator == "bob" and de.changed_at == datetime(2021, 1, 1, tzinfo=timezone.utc)
    assert ("tuv:prop:x-status", "approved") in de.props and ("tuv:prop:x-status", "approved") not in m1[0].props


def test_srclang_all_and_missing_tuid(fixtures: Path) -> None:
    units, rejects, _errors = read_all(fixtures / "multilingual.tmx")
    hashed = [u for u in units if u.tgt_lang == "zh"]
    assert len(hashed) == 1 and hashed[0].unit_id.startswith("h") and len(hashed[0].unit_id) == 17
    assert hashed[0].src_lang == "en"  # *all*: the first tuv is the source
    again = [u for u in read_all(fixtures / "multilingual.tmx")[0] if u.tgt_lang == "zh"]
    assert again[0].unit_id == hashed[0].unit_id  # content hash: stable across reads
    only_source = [u for u in units if u.unit_id == "m4"]
    assert only_source[0].target is None and only_source[0].tgt_lang is None
    assert any(r.reason == "no tuv in the source language" and r.location == "28" for r in rejects)


def test_lines_and_dates(fixtures: Path) -> None:
    units = {u.unit_id: u for u in read_all(fixtures / "inline_codes.tmx")[0]}
    unit = units["bpt-ept"]
    assert unit.line == 7
    assert unit.created_at == datetime(2024, 1, 2, 3, 4, 5, tzinfo=timezone.utc)
    assert unit.changed_at == datetime(2024, 2, 3, 4, 5, 6, tzinfo=timezone.utc)
    assert unit.creator == "alice"
    assert parse_tmx_date("2024-01-02") is None and parse_tmx_date("20241399T000000Z") is None


@pytest.mark.parametrize("name", ["utf16_bom.tmx", "utf8_bom.tmx"])
def test_bom_encodings(fixtures: Path, name: str) -> None:
    units, rejects, errors = read_all(fixtures / name)
    assert not rejects and not errors
    assert [(u.source, u.target) for u in units] == [
        ("Colour “quoted” text", "Texte « cité » en couleur"), ("Second", "Deuxième")]


def test_truncated_file_keeps_every_complete_unit_and_names_the_cut(fixtures: Path) -> None:
    """The unit the file ends in is rejected with libxml2's own message and line; the units before
    it are kept; the missing end tags are one file-level row."""
    units, rejects, errors = read_all(fixtures / "truncated.tmx")
    assert not errors
    assert [u.unit_id for u in units] == ["m1", "m1", "m1", units[3].unit_id, "m3"]
    assert [u.ordinal for u in units] == [1, 1, 1, 2, 3]
    cut, structure = rejects
    assert (cut.location, cut.ordinal) == ("21", 4)
    assert cut.reason == "not well-formed XML: Premature end of data in tag seg line 22 (line 22)"
    assert cut.raw.startswith('<tu tuid="m4">')
    assert structure.ordinal is None and "ends before </body></tmx>" in structure.reason


def test_reader_protocol_on_a_stream(fixtures: Path) -> None:
    with open(fixtures / "inline_codes.tmx", "rb") as stream:
        records = list(READERS["tmx"].read(stream, "label.tmx"))
    assert len(records) == 7


def test_wrong_root_is_an_error(fixtures: Path, tmp_path: Path) -> None:
    wrong = tmp_path / "actually_xliff.tmx"
    wrong.write_bytes((fixtures / "inline_codes.xlf").read_bytes())
    _units, _rejects, errors = read_all(wrong)
    assert len(errors) == 1 and "root element is <xliff>" in str(errors[0].error)


def test_precomputed_unit_hash_matches_the_ingest_key(fixtures: Path) -> None:
    from housestyle.pipelines.langtags import try_normalise
    from housestyle.pipelines.unit_hash import unit_hash

    units = [u for u in read_all(fixtures / "multilingual.tmx")[0] if u.target is not None]
    assert units and all(u.unit_hash for u in units)
    for u in units:
        assert u.unit_hash == unit_hash(try_normalise(u.src_lang), try_normalise(u.tgt_lang), u.source, u.target)


def test_edge_cases_pin_the_row_semantics(fixtures: Path) -> None:
    """Odd but well-formed structures (edge_cases.tmx), pinned so the hot path stays exact."""
    units, rejects, errors = read_all(fixtures / "edge_cases.tmx")
    assert not errors
    by_id: dict[str, list[TranslationUnit]] = {}
    for u in units:
        by_id.setdefault(u.unit_id, []).append(u)
    a1 = by_id["a1"][0]  # entities, CDATA, &#13;, empty creationid, extra and namespaced tu attributes
    assert a1.source == 'Plain & simple <text> with\ttab\nand CR\r and "quotes"'
    assert a1.source_markup == 'Plain &amp; simple &lt;text&gt; with\ttab\nand CR\r and "quotes"'
    assert (a1.target, a1.target_markup) == ("CDATA <b>kept</b> & all", "CDATA &lt;b&gt;kept&lt;/b&gt; &amp; all")
    assert a1.creator == "" and a1.changed_at is None and a1.note == "first\n\nthird"
    assert a1.props[:3] == [("tu@usagecount", "7"), ("tu@lastusagedate", "20240101T000000Z"), ("tu@{urn:x}extra", "ns attr")]
    assert a1.domain == "Legal"  # first non-blank domain-like prop, stripped, over the header's
    assert by_id[""][0].src_lang == "EN" and by_id[""][0].tgt_lang == "de"  # tuid="" kept; TMX 1.1 `lang`
    assert [u.tgt_lang for u in by_id["a3"]] == ["de", "en", "es"] and by_id["a3"][0].src_lang == "FR_fr"
    assert by_id["a4"][0].props == [("tuv:prop:x-p", "v")]  # the target tuv's own prop
    assert (by_id["a5"][0].source, by_id["a6"][0].target) == ("", "")  # tuv without seg
    assert by_id["a7"][0].source == "Comment  in seg"  # comments dropped by the parser
    assert [u.tgt_lang for u in by_id["a8"]] == ["fr-FR", "es-ES"]
    assert by_id["a8"][0].target == "⟨ph3/⟩ Imbriqué ⟨hi1⟩gras ⟨bpt2⟩x⟨/bpt2⟩⟨/hi1⟩ et ⟨ept7/⟩⟨ph8/⟩"
    assert by_id["a9"][0].domain == "Finance"
    assert by_id["a16"][0].target == "Deux ⟨ph1/⟩ ⟨bpt3⟩a⟨/bpt3⟩ ids ⟨ph2/⟩⟨ph5/⟩"
    assert by_id["a2b"][0].src_lang == "de" and by_id["a2b"][0].tgt_lang == "en"  # first of lang/xml:lang
    assert by_id["a18"][0].src_lang == "" and by_id["a19"][0].source == "Sub in ph ⟨ph1/⟩⟨sub2⟩Title ⟨ph3/⟩⟨/sub2⟩ end"
    hashed = [k for k in by_id if k.startswith("h")]
    assert len(hashed) == 1 and len(by_id[hashed[0]]) == 2
    assert sorted((r.location, r.reason) for r in rejects) == [
        ("43", "unparseable inline markup"), ("43", "unparseable inline markup"),
        ("61", "no tuv in tu"), ("62", "no tuv in the source language")]
    ns_units, ns_rejects, _ = read_all(fixtures / "edge_cases_ns.tmx")  # the same file in a default namespace
    assert [(u.unit_id, u.source, u.target, u.props) for u in ns_units if not u.unit_id.startswith("h")] == [
        (u.unit_id, u.source, u.target, u.props) for u in units if not u.unit_id.startswith("h")]
    assert len(ns_rejects) == len(rejects)
