"""`housestyle ingest` and `housestyle mine` report rejects on stderr and exit 1 with --strict."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.cli.main import main
from tests.pipelines.readers.hostile_cases import faulty, tmx_bytes


@pytest.fixture()
def tms(tmp_path: Path) -> tuple[Path, Path]:
    good, bad = tmp_path / "good.tmx", tmp_path / "bad.tmx"
    good.write_bytes(tmx_bytes(4))
    bad.write_bytes(tmx_bytes(6, {2: faulty(2, b"a&nbsp;b")}))
    return good, bad


def test_ingest_reports_each_file_with_rejects_and_a_total(tms: tuple[Path, Path], tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = tms
    assert main(["ingest", str(good), str(bad), "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [f"{bad}: kept 5, rejected 1: not well-formed XML: Entity 'nbsp' not defined (line 10)",
                   "total: 9 kept, 1 rejected from 2 file(s)"]


def test_ingest_strict_exits_1_when_anything_was_rejected(tms: tuple[Path, Path], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = tms
    assert main(["ingest", str(good), "--out", str(tmp_path / "a"), "--strict"]) == 0
    assert capsys.readouterr().err.strip() == "total: 4 kept, 0 rejected from 1 file(s)"
    assert main(["ingest", str(good), str(bad), "--out", str(tmp_path / "b"), "--strict"]) == 1


def test_ingest_archive_limits_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import gzip

    packed = tmp_path / "tm.tmx.gz"
    packed.write_bytes(gzip.compress(tmx_bytes(12_000)))  # 1.6 MB: over the 1 MiB any member may reach
    assert main(["ingest", str(packed), "--out", str(tmp_path / "out"), "--max-ratio", "2", "--strict"]) == 1
    err = capsys.readouterr().err
    assert f"{packed}: kept " in err and "inflates beyond 2x" in err
    assert "1 file(s) whose units could not be counted" in err


def test_mine_reports_rejects_and_strict_mines_nothing(tms: tuple[Path, Path], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = tms
    out = tmp_path / "rules"
    assert main(["mine", str(bad), "--src", "en", "--tgt", "fr", "--out", str(out), "--strict"]) == 1
    err = capsys.readouterr().err
    assert f"{bad}: kept 5, rejected 1: not well-formed XML: Entity 'nbsp' not defined" in err
    assert not out.exists() or not any(out.rglob("conventions.jsonl"))  # no set from partial data


def test_untranslated_catalogue_entries_are_counted_apart_and_strict_passes(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A catalogue in progress (issue 26 part 12): empty msgstr / no <target> are untranslated, not rejects."""
    po = tmp_path / "de.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "Save"\nmsgstr "Speichern"\n\nmsgid "Open"\nmsgstr ""\n\nmsgid "Close"\nmsgstr ""\n',
                  encoding="utf-8")
    xlf = tmp_path / "de.xlf"
    xlf.write_text('<?xml version="1.0"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
                   '<file source-language="en" target-language="de" datatype="plaintext" original="x"><body>\n'
                   '<trans-unit id="1"><source>Save</source><target>Speichern</target></trans-unit>\n'
                   '<trans-unit id="2"><source>Open</source></trans-unit>\n'
                   '<trans-unit id="3"><source>Close</source><target/></trans-unit>\n'
                   '</body></file></xliff>\n', encoding="utf-8")
    assert main(["ingest", str(po), str(xlf), "--out", str(tmp_path / "out"), "--strict"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [f"{po}: kept 1, untranslated 2 (not rejects)",
                                         f"{xlf}: kept 1, untranslated 2 (not rejects)",
                                         "total: 2 kept, 0 rejected, 4 untranslated from 2 file(s)"]
    assert "rows read 6 = kept 2 + rejected 0 + untranslated 4" in captured.out
    from housestyle.pipelines.tm_accounting import accounting  # units in the file = kept + rejected + untranslated

    accounts = accounting([(str(po), 3), (str(xlf), 3)], tmp_path / "out" / "tm_units.parquet",
                          tmp_path / "out" / "tm_rejects.parquet")
    assert [(a.units_kept, a.units_rejected, a.units_untranslated, a.ok) for a in accounts] == [(1, 0, 2, True)] * 2
