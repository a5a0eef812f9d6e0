"""Segment files: TSV, JSONL, WMT fake-SGML, TMX through the readers; errors name file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.segments import load_segments

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "scoring"


def test_tsv_and_jsonl() -> None:
    tsv = load_segments(FIX / "sources.tsv")
    assert list(tsv)[:2] == ["s1", "s2"] and tsv["s1"].startswith("An air mass")
    jsonl = load_segments(FIX / "good.jsonl")
    assert jsonl["s3"] == "Cela coûte 3,5 euros, soit 12\u202f000 au total (voir %(name)s)."


def test_jsonl_null_text_is_not_produced(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text('{"id": 1, "text": "a"}\n\n{"id": "2", "text": null}\n', encoding="utf-8")
    assert load_segments(path) == {"1": "a"}


@pytest.mark.parametrize(
    ("name", "content", "where"),
    [
        ("a.tsv", "identifier\ttext\nx\ty\n", ":1:"),
        ("b.tsv", "id\ttext\nx\ty\tz\n", ":2:"),
        ("c.tsv", "id\ttext\nx\ty\nx\tz\n", ":3: duplicate segment id 'x'"),
        ("d.jsonl", '{"id": "x", "text": "y"}\n{"id": "x"}\n', ":2:"),
        ("e.jsonl", '{"id": "x", "text": "y"}\n[1]\n', ":2:"),
        ("f.jsonl", '{"id": "x", "text": 3}\n', ":1:"),
    ],
)
def test_errors_name_file_and_line(tmp_path: Path, name: str, content: str, where: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_segments(path)
    assert f"{path}{where}" in str(info.value)


def test_wmt_hyp_file_is_keyed_like_the_tmx(shared_data: Path) -> None:
    wmt = shared_data / "wmt21-terminology-enfr"
    hyp = load_segments(wmt / "en-fr.hyp.txt.truecased.xml")
    ids = [line.strip() for line in (wmt / "all.ids.txt").read_text(encoding="utf-8").splitlines() if line.strip()]
    assert list(hyp) == ids
    assert hyp["CMU_1:1"] == "depuis combien de temps ces symptômes persistent-ils ?"
    source = load_segments(wmt / "all.en-fr.en.xml")  # <term> markup removed
    assert source["CMU_1:1"] == "about how long have these symptoms been going on ?"


def test_tmx_sides_through_the_readers(shared_data: Path) -> None:
    tmx = shared_data / "tico19" / "TM" / "all.en-fr.tmx"
    source = load_segments(tmx, side="source")
    target = load_segments(tmx, side="target")
    assert len(source) == len(target) == 3071
    assert source["CMU_1:1"] == "about how long have these symptoms been going on?"
    assert target["CMU_1:1"] == "depuis combien ressentez-vous ces symptômes ?"
    assert load_segments(tmx) == target  # default: the target when there is one


@pytest.mark.parametrize("name", ["sources.tsv", "good.jsonl"])
def test_a_utf8_byte_order_mark_is_not_part_of_the_first_line(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + (FIX / name).read_bytes())
    assert load_segments(path) == load_segments(FIX / name)


def test_markup_in_plain_text_formats_stays_text(tmp_path: Path) -> None:
    """TSV and JSONL keep HTML/XML tags as they are written: the placeholder rule sees them."""
    (tmp_path / "s.tsv").write_text('id\ttext\na\tOpen <a href="x">the <em>page</em></a>\n', encoding="utf-8")
    (tmp_path / "s.jsonl").write_text('{"id": "a", "text": "Open <a href=\\"x\\">the <em>page</em></a>"}\n', encoding="utf-8")
    assert load_segments(tmp_path / "s.tsv") == load_segments(tmp_path / "s.jsonl") == {"a": 'Open <a href="x">the <em>page</em></a>'}
