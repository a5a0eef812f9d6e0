"""Registry and containers: explicit format table, .zip (several members) and .gz of every format."""

from __future__ import annotations

import gzip
import shutil
import zipfile
from pathlib import Path

import pytest

from housestyle.pipelines.errors import MalformedFileError, UnsupportedFormatError
from housestyle.pipelines.readers.base import Reject
from housestyle.pipelines.readers.registry import READERS, iter_sources, iter_units, reader_for

from .conftest import read_all

EVERY_FORMAT = ["inline_codes.tmx", "inline_codes.xlf", "inline_codes_v2.xlf", "sample.po", "sample.tbx"]


def test_registry_is_explicit() -> None:
    assert set(READERS) == {"tmx", "xliff", "xliff12", "xliff2", "po", "tbx"}
    assert reader_for("tmx") is READERS["tmx"]
    assert reader_for("dir/a.TMX") is READERS["tmx"]
    assert reader_for("a.pot") is READERS["po"]
    with pytest.raises(UnsupportedFormatError):
        reader_for("notes.docx")


@pytest.mark.parametrize("name", EVERY_FORMAT)
def test_gz_of_every_format(fixtures: Path, tmp_path: Path, name: str) -> None:
    gz = tmp_path / f"{name}.gz"
    with open(fixtures / name, "rb") as src, gzip.open(gz, "wb") as dst:
        shutil.copyfileobj(src, dst)
    plain = read_all(fixtures / name)
    packed = read_all(gz)
    assert [(u.unit_id, u.source, u.target) for u in packed[0]] == [(u.unit_id, u.source, u.target) for u in plain[0]]
    assert len(packed[1]) == len(plain[1])
    assert {label for label, _r in iter_units(gz)} == {str(gz)}


def test_zip_with_several_members(fixtures: Path, tmp_path: Path) -> None:
    archive = tmp_path / "outer.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for name in EVERY_FORMAT:
            zf.write(fixtures / name, f"tm/{name}")
        zf.writestr("readme.txt", "not a TM")
        zf.writestr("nested.zip", b"PK")
        zf.writestr("__MACOSX/._inline_codes.tmx", b"\x00\x05")
        zf.writestr("tm/", b"")
    seen: dict[str, list[str]] = {}
    errors: dict[str, str] = {}
    for info, record in iter_sources(archive):
        kind = type(record).__name__
        seen.setdefault(info.label, []).append(kind)
        if kind == "FileError":
            errors[info.label] = str(record.error)  # type: ignore[union-attr]
    expected_members = {f"{archive}!tm/{name}" for name in EVERY_FORMAT}
    assert expected_members <= set(seen)
    for name in EVERY_FORMAT:
        units = [k for k in seen[f"{archive}!tm/{name}"] if k == "TranslationUnit"]
        assert len(units) == len(read_all(fixtures / name)[0])
    assert "unsupported file type" in errors[f"{archive}!readme.txt"]
    assert "unsupported nested archive" in errors[f"{archive}!nested.zip"]
    assert not any("__MACOSX" in label for label in seen)


def test_zip_member_error_does_not_stop_other_members(fixtures: Path, tmp_path: Path) -> None:
    archive = tmp_path / "mixed.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(fixtures / "truncated.tmx", "a_truncated.tmx")
        zf.write(fixtures / "sample.po", "b_sample.po")
    records: dict[str, list[object]] = {}
    for label, record in iter_units(archive):
        records.setdefault(label, []).append(record)
    assert len(records[f"{archive}!b_sample.po"]) == 8  # read although the member before it is broken
    cut = [r for r in records[f"{archive}!a_truncated.tmx"] if isinstance(r, Reject) and r.ordinal == 4]
    assert len(cut) == 1 and cut[0].location == "21" and "Premature end of data" in cut[0].reason


def test_broken_archives(tmp_path: Path) -> None:
    bad_zip = tmp_path / "bad.zip"
    bad_zip.write_bytes(b"this is not a zip")
    bad_gz = tmp_path / "bad.tmx.gz"
    bad_gz.write_bytes(b"\x1f\x8b\x08\x00garbage")
    for path in (bad_zip, bad_gz):
        _u, _r, errors = read_all(path)
        assert len(errors) == 1 and isinstance(errors[0].error, MalformedFileError), path


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    _u, _r, errors = read_all(tmp_path / "nope.tmx")
    assert len(errors) == 1 and "cannot open" in str(errors[0].error)
