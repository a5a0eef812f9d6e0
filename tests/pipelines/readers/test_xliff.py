"""XLIFF 1.2 (seg-source segmentation, alt-trans counted, bin-unit visible) and XLIFF 2.0 (segments)."""

from __future__ import annotations

import io
from pathlib import Path

from housestyle.pipelines.readers.registry import READERS, reader_for, sniff_xliff_version

from .conftest import read_all


def test_xliff12_rows_and_metadata(fixtures: Path) -> None:
    units, rejects, errors = read_all(fixtures / "inline_codes.xlf")
    assert not errors
    by_id = {u.unit_id: u for u in units}
    assert by_id["g"].flags == ["approved", "state:translated"]
    assert by_id["g"].note == "Nested g"
    assert ("file", "app.html") in by_id["g"].props
    assert (by_id["g"].src_lang, by_id["g"].tgt_lang) == ("en-US", "fr-FR")
    assert by_id["no-target"].target is None
    assert by_id["in-group"].flags == ["translate:no"] and by_id["in-group"].context == "linenumber: 12"
    assert [(r.location, r.reason) for r in rejects] == [("52", "binary unit (bin-unit) has no text")]


def test_seg_source_gives_one_row_per_segment(fixtures: Path) -> None:
    units = {u.unit_id: u for u in read_all(fixtures / "inline_codes.xlf")[0]}
    assert "segmented" not in units
    first, second = units["segmented#0"], units["segmented#1"]
    assert (first.source, first.target) == ("First sentence.", "Première phrase.")
    assert (second.source, second.target) == ("Second ⟨g1⟩one⟨/g1⟩.", "La ⟨g1⟩deuxième⟨/g1⟩.")
    assert ("alt-trans", "2") in first.props  # alt-trans ignored (no row), but counted, once per unit
    assert not any(k == "alt-trans" for k, _v in second.props)


def test_real_segmented_samples(shared_data: Path) -> None:
    root = shared_data / "format-samples/okapi/okapi/filters/xliff/src/test/resources"
    units = read_all(root / "segmented.xlf")[0]
    assert [u.unit_id for u in units] == ["1#0", "3#0", "3#1"]
    assert units[2].target == "Segment zwei."
    seg = read_all(root / "segsource.xlf")[0]
    assert [(u.unit_id, u.source) for u in seg] == [("tu1#0", "This is sentence 1."), ("tu1#1", " This is sentence 2.")]


def test_xliff2_segments_ignorable_and_original_data(fixtures: Path) -> None:
    units, rejects, errors = read_all(fixtures / "inline_codes_v2.xlf")
    assert not rejects and not errors
    by_id = {u.unit_id: u for u in units}
    assert set(by_id) == {"pc", "ph-sc-ec", "mrk-sm-em-cp#a", "mrk-sm-em-cp#b", "empty"}
    assert (by_id["pc"].src_lang, by_id["pc"].tgt_lang) == ("en", "fr-CA")
    assert ("data:d1", "<b>") in by_id["pc"].props and by_id["pc"].flags == ["state:final"]
    assert ("ignorable", "1") in by_id["mrk-sm-em-cp#b"].props
    assert by_id["ph-sc-ec"].source == "⟨ph1/⟩ files ⟨sc2⟩selected⟨/sc2⟩"
    assert by_id["empty"].target is None


def test_version_sniffing_and_dispatch(fixtures: Path) -> None:
    assert sniff_xliff_version(io.BytesIO((fixtures / "inline_codes.xlf").read_bytes()), "a") == "xliff12"
    assert sniff_xliff_version(io.BytesIO((fixtures / "inline_codes_v2.xlf").read_bytes()), "b") == "xliff2"
    reader = reader_for("some/file.xlf")
    assert reader is READERS["xliff"]
    with open(fixtures / "inline_codes_v2.xlf", "rb") as stream:
        assert len(list(reader.read(stream, "x.xlf"))) == 5


def test_bom_xliff(fixtures: Path) -> None:
    plain = read_all(fixtures / "inline_codes.xlf")[0]
    bom = read_all(fixtures / "utf8_bom.xlf")[0]
    assert [(u.source, u.target) for u in bom] == [(u.source, u.target) for u in plain]
