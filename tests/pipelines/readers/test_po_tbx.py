"""PO (plurals, msgctxt, fuzzy/obsolete flags, header charset, header-less files) and TBX termbases."""

from __future__ import annotations

from pathlib import Path

from .conftest import read_all

PO_SAMPLES = "format-samples/okapi/okapi/filters/po/src/test/resources"


def test_po_entries(fixtures: Path) -> None:
    units, rejects, errors = read_all(fixtures / "sample.po")
    assert not rejects and not errors
    assert all((u.src_lang, u.tgt_lang) == ("en", "fr") for u in units)
    assert all("src_lang_assumed" in u.flags for u in units)
    hello = units[0]
    assert (hello.source, hello.target, hello.line) == ("Hello %s", "Bonjour %s", 10)
    assert "c-format" in hello.flags and hello.note == "Developer comment"
    assert ("location", "src/app.c:10") in hello.props
    opens = [u for u in units if u.source == "Open"]
    assert [(u.context, u.target) for u in opens] == [("menu", "Ouvrir"), ("verb", "Ouvrez")]
    assert opens[0].unit_id != opens[1].unit_id  # msgctxt is part of the identity


def test_po_plural_forms_are_rows(fixtures: Path) -> None:
    units = read_all(fixtures / "sample.po")[0]
    plural = [u for u in units if any(f.startswith("plural:") for f in u.flags)]
    assert [(u.source, u.target, u.flags[-1]) for u in plural] == [
        ("%d file", "%d fichier", "plural:0"), ("%d files", "%d fichiers", "plural:1")]
    assert plural[0].unit_id.endswith("[0]") and plural[1].unit_id.endswith("[1]")
    assert all(type(u.source) is str and type(u.target) is str for u in units)


def test_po_fuzzy_obsolete_untranslated(fixtures: Path) -> None:
    units = {u.source: u for u in read_all(fixtures / "sample.po")[0]}
    assert "fuzzy" in units["Maybe"].flags
    assert "obsolete" in units["Old string"].flags
    assert units["Untranslated"].target == ""  # the ingest rejects it as "empty target"


def test_po_utf8_bom(fixtures: Path) -> None:
    plain = read_all(fixtures / "sample.po")[0]
    bom = read_all(fixtures / "utf8_bom.po")[0]
    assert [(u.source, u.target) for u in bom] == [(u.source, u.target) for u in plain]


def test_po_cp1251_charset_from_header(shared_data: Path) -> None:
    units, _rejects, errors = read_all(shared_data / PO_SAMPLES / "Test_DrupalRussianCP1251.po")
    assert not errors
    assert units[0].target == "Позволяет вводить различные контент-зависимые ссылки."


def test_po_headerless_fail_po_reads(shared_data: Path) -> None:
    units, rejects, errors = read_all(shared_data / PO_SAMPLES / "fail.po")
    assert not errors and not rejects
    assert len(units) == 4  # 1 entry + obsolete plural (2 forms) + obsolete fuzzy
    assert units[0].target == 'wys na "%s"' and units[0].tgt_lang is None
    assert "obsolete" in units[1].flags and "fuzzy" in units[3].flags


def test_po_syntax_error_loses_only_what_does_not_parse(shared_data: Path) -> None:
    """msgctxt_notes.po opens with header strings but no ``msgid ""``: the two entries after them
    are read, and the stray text is one file-level row naming line 1."""
    units, rejects, errors = read_all(shared_data / PO_SAMPLES / "msgctxt_notes.po")
    assert not errors
    assert [(u.context, u.target, u.ordinal) for u in units] == [
        ("Context A", "Bonjour tout le monde", 1), ("Context B", "Bonjour bonjour", 2)]
    assert len(rejects) == 1 and rejects[0].location == "1" and rejects[0].ordinal is None
    assert rejects[0].reason.startswith("PO syntax error on line 1: text outside any entry")


def test_po_language_from_gettext_path(fixtures: Path, tmp_path: Path) -> None:
    target = tmp_path / "locale" / "pt_BR" / "LC_MESSAGES" / "app.po"
    target.parent.mkdir(parents=True)
    target.write_text((fixtures / "sample.po").read_text(encoding="utf-8").replace('"Language: fr\\n"\n', ""),
                      encoding="utf-8")
    units = read_all(target)[0]
    assert {u.tgt_lang for u in units} == {"pt_BR"}
    assert ("tgt_lang_from", "path") in units[0].props


def test_tbx_entries(fixtures: Path) -> None:
    units, rejects, errors = read_all(fixtures / "sample.tbx")
    assert not rejects and not errors
    fr, de, lone = units
    assert (fr.unit_id, fr.src_lang, fr.tgt_lang, fr.source, fr.target) == ("t1", "en-US", "fr", "air mass", "masse d’air")
    assert ("synonym:fr", "masse atmosphérique") in fr.props and ("src:partOfSpeech", "noun") in fr.props
    assert fr.note == "A large body of air." and fr.flags == ["termbase"]
    assert (de.tgt_lang, de.target) == ("de", "Luftmasse")  # <tig> as well as <ntig>
    assert lone.target is None  # a single-language entry: read, rejected by the ingest


def test_mozilla_tbx_declares_an_external_dtd_and_reads(shared_data: Path) -> None:
    path = shared_data / "mozilla-fr/terminology_management/terminology/fr.tbx"
    assert b"TBXcoreStructV02.dtd" in path.read_bytes()[:200]
    units, rejects, errors = read_all(path)
    assert len(units) == 96 and not rejects and not errors
    assert {(u.src_lang, u.tgt_lang) for u in units} == {("en-US", "fr")}
    assert any(u.source == "breakpoint" and u.target == "point d’arrêt" for u in units)
