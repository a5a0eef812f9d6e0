"""The byte scan that counts units and cuts chunks (readers/scan.py), and chunked parsing on worker
processes giving exactly the in-process result."""

from __future__ import annotations

import io
import re
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.readers import scan
from housestyle.pipelines.readers.scan import Chunk, UnitScanner, Vocabulary
from housestyle.pipelines.readers.tmx import TMX_FORMAT
from housestyle.pipelines.readers.xliff12 import XLIFF12_FORMAT
from tests.bench.gen_tmx import write_synthetic_tmx

from .conftest import FIXTURES, read_all
from .hostile_cases import tmx_bytes

TMX = TMX_FORMAT.vocabulary


def chunks_of(data: bytes, vocabulary: Vocabulary = TMX, **sizes: int) -> tuple[UnitScanner, list[Chunk]]:
    scanner = UnitScanner(io.BytesIO(data), vocabulary, **sizes)  # type: ignore[arg-type]
    return scanner, [e for e in scanner.events() if isinstance(e, Chunk)]


@pytest.mark.parametrize("block", [3, 7, 64, 4096])
def test_spans_and_lines_do_not_depend_on_how_the_stream_is_read(tmp_path: Path, block: int) -> None:
    data = write_synthetic_tmx(tmp_path / "s.tmx", 200).read_bytes()
    scanner, chunks = chunks_of(data, block_bytes=block, chunk_bytes=5000)
    assert scanner.units == 200 and scanner.complete and len(chunks) > 10
    starts = [m.start() for m in re.finditer(rb"<tu ", data)]  # independent: this file has no comment or CDATA
    seen = []
    for chunk in chunks:
        for k, (s, e) in enumerate(chunk.spans):
            absolute = chunk.offset + s
            assert chunk.data[s:s + 4] == b"<tu " and chunk.data[e - 5:e] == b"</tu>"
            seen.append(absolute)
            assert chunk.first_ordinal + k == len(seen)
        assert chunk.line == data[: chunk.offset].count(b"\n") + 1
    assert seen == starts


def test_markup_that_looks_like_units_is_not_counted() -> None:
    data = tmx_bytes(3).replace(b"<body>\n", b'<body>\n<!-- <tu tuid="c"></tu> --><?pi <tu> ?>\n'
                                b'<x:tu xmlns:x="urn:x"><tuv/></x:tu>\n', 1)
    data = data.replace(b"number 2.", b"<![CDATA[</tu><tu tuid='cdata'>]]>", 1)
    scanner, chunks = chunks_of(data)
    assert scanner.units == 3 and scanner.foreign == 1
    units, rejects, _errors = read_all_bytes(data)
    assert [u.unit_id for u in units] == ["t1", "t2", "t3"] and not rejects
    assert units[1].source == "Source sentence </tu><tu tuid='cdata'>"


def read_all_bytes(data: bytes) -> tuple[list, list, list]:  # type: ignore[type-arg]
    from housestyle.pipelines.readers.xmlunits import iter_xml_records
    from housestyle.pipelines.readers.base import TranslationUnit

    records = list(iter_xml_records(io.BytesIO(data), TMX_FORMAT, "mem.tmx"))
    return ([r for r in records if isinstance(r, TranslationUnit)],
            [r for r in records if not isinstance(r, TranslationUnit)], [])


def test_context_changes_cut_chunks_and_keep_each_units_file() -> None:
    data = b"""<?xml version="1.0"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
<file original="a" source-language="en" target-language="fr" datatype="plaintext"><body>
<trans-unit id="a1"><source>A</source><target>Un</target></trans-unit>
<group id="g"><trans-unit id="a2"><source>B</source><target>Deux</target></trans-unit></group>
</body></file>
<file original="b" source-language="en" target-language="de" datatype="plaintext"><body>
<group xmlns="urn:other"><trans-unit id="other"><source>No</source></trans-unit></group>
<trans-unit id="b1"><source>C</source><target>Drei</target></trans-unit>
</body></file>
</xliff>"""
    scanner, chunks = chunks_of(data, XLIFF12_FORMAT.vocabulary)
    assert scanner.units == 3 and scanner.foreign == 1  # the group redeclares the default namespace
    assert [len(c.spans) for c in chunks] == [1, 1, 1]  # a chunk never spans a context change
    assert b'<group id="g">' in chunks[1].context.open and chunks[2].context.open.count(b"<file") == 1
    from housestyle.pipelines.readers.xmlunits import iter_xml_records

    units = [r for r in iter_xml_records(io.BytesIO(data), XLIFF12_FORMAT, "two.xlf") if hasattr(r, "tgt_lang")]
    assert [(u.unit_id, u.tgt_lang, u.line) for u in units] == [("a1", "fr", 4), ("a2", "fr", 5), ("b1", "de", 9)]


def test_an_oversized_unit_is_rejected_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scan, "MAX_UNIT_BYTES", 10_000)
    data = tmx_bytes(5).replace(b"number 3.", b"number 3." + b"y" * 50_000)
    path = tmp_path / "big_unit.tmx"
    path.write_bytes(data)
    summary = ingest_files([path], client="c", out_dir=tmp_path / "out")
    assert (summary.per_file[0].units_in_file, summary.units_kept, summary.units_rejected) == (5, 4, 1)
    row = pl.read_parquet(tmp_path / "out" / "tm_rejects.parquet").row(0, named=True)
    assert row["unit_ordinal"] == 3 and "over the 10,000-byte limit" in row["reason"]


def test_lines_stay_exact_past_65535(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """libxml2 keeps element lines in 16 bits; chunks keep lines small and add the exact offset."""
    monkeypatch.setattr(scan, "CHUNK_BYTES", 64 << 10)
    path = tmp_path / "long.tmx"
    path.write_bytes(tmx_bytes(18_000))
    data = path.read_bytes()
    assert data.count(b"\n") > 70_000
    units = read_all(path)[0]
    truth = {m.group(1).decode(): data[: m.start()].count(b"\n") + 1
             for m in re.finditer(rb'<tu tuid="(t\d+)"', data) if m.group(1) in (b"t1", b"t9000", b"t17999")}
    assert {u.unit_id: u.line for u in units if u.unit_id in truth} == truth and truth["t17999"] > 65_535


@pytest.mark.parametrize("name", ["edge_cases.tmx", "edge_cases_ns.tmx", "multilingual.tmx", "inline_codes.tmx",
                                  "inline_codes.xlf", "utf16_bom.tmx"])
def test_workers_give_exactly_the_in_process_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    name: str) -> None:
    monkeypatch.setattr(scan, "CHUNK_BYTES", 200)  # a job every unit or two
    monkeypatch.setattr("housestyle.pipelines.ingest.PARALLEL_MIN_BYTES", 0)
    path = FIXTURES / name
    ingest_files([path], client="c", out_dir=tmp_path / "par", workers=2)
    ingest_files([path], client="c", out_dir=tmp_path / "seq", workers=1)
    for table in ("tm_units.parquet", "tm_rejects.parquet"):
        assert pl.read_parquet(tmp_path / "par" / table).equals(pl.read_parquet(tmp_path / "seq" / table)), table


def test_records_and_tables_agree_on_the_synthetic_tm(tmp_path: Path) -> None:
    path = write_synthetic_tmx(tmp_path / "s.tmx", 500)
    units = read_all(path)[0]
    ingest_files([path], client="c", out_dir=tmp_path / "out")
    table = pl.read_parquet(tmp_path / "out" / "tm_units.parquet")
    assert table["unit_id"].to_list() == [u.unit_id for u in units]
    assert table["source_markup"].to_list() == [u.source_markup for u in units]
    assert table["created_at"].to_list() == [u.created_at for u in units]
    assert table["unit_ordinal"].to_list() == list(range(1, 501))
