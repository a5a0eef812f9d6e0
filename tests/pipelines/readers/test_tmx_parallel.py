"""Chunked multi-process TMX parsing gives exactly the sequential result, false boundaries included.

Chunk sizes are shrunk so a small file spans many chunks; worker processes are real (spawned).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.errors import MalformedFileError
from pipelines.readers import tmx_parallel
from pipelines.readers.base import Reject, TranslationUnit
from pipelines.readers.registry import iter_units
from pipelines.readers.tmx import iter_tmx
from tests.bench.gen_tmx import write_synthetic_tmx


@pytest.fixture()
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tmx_parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(tmx_parallel, "CHUNK_BYTES", 1)  # every </tu> is a chunk boundary


def sequential(path: Path) -> list[TranslationUnit | Reject]:
    with open(path, "rb") as handle:
        return list(iter_tmx(handle, str(path)))


INJECTIONS = {
    "comment": ('<tu tuid="u150"', "<!-- a comment that says </tu> -->\n" + '<tu tuid="u150"'),
    "cdata": ('<tuv xml:lang="en-US"><seg>', '<tuv xml:lang="en-US"><seg><![CDATA[x </tu> y]]>'),
}


def make_tmx(directory: Path, kind: str) -> Path:
    """A synthetic TMX with a ``</tu>`` that is not an end tag (a false chunk boundary) at unit 150."""
    path = directory / f"{kind}.tmx"
    write_synthetic_tmx(path, 300)
    text = path.read_text(encoding="utf-8")
    head, tail = text.split('<tu tuid="u150"', 1)
    old, new = INJECTIONS[kind]
    tail = ('<tu tuid="u150"' + tail).replace(old, new, 1)
    path.write_text(head + tail, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def tricky_tmx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tmx(tmp_path_factory.mktemp("par"), "cdata")


@pytest.mark.parametrize("extensions", [0, 4])  # 0: a false boundary sends the rest to iterparse
@pytest.mark.parametrize("kind", sorted(INJECTIONS))
def test_parallel_equals_sequential(tmp_path: Path, small_chunks: None, kind: str, extensions: int,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tmx_parallel, "_EXTENSIONS", extensions)
    path = make_tmx(tmp_path, kind)
    with open(path, "rb") as handle:
        plan = tmx_parallel._prologue(handle)
        assert plan is not None
        false_end = path.read_bytes().index(b"</tu> ") + len(b"</tu>")
        ends = {end for _start, end, _n in tmx_parallel._chunks(handle, len(plan[0]), path.stat().st_size)}
        assert false_end in ends  # the false boundary really is proposed
    expected = sequential(path)
    got = list(tmx_parallel.read_tmx_file(path, str(path), workers=2))
    assert len(expected) == 300
    assert got == expected  # same rows, same order, same line numbers
    with open(path, "rb") as handle:
        assert list(tmx_parallel.read_tmx_stream(handle, str(path))) == expected  # chunked in-process


def test_parallel_truncated_file(tricky_tmx: Path, tmp_path: Path, small_chunks: None) -> None:
    data = tricky_tmx.read_bytes()
    cut = tmp_path / "cut.tmx"
    cut.write_bytes(data[: int(len(data) * 0.7)])
    with pytest.raises(MalformedFileError) as seq_error:
        seq = []
        with open(cut, "rb") as handle:
            for record in iter_tmx(handle, str(cut)):
                seq.append(record)
    par = []
    with pytest.raises(MalformedFileError) as par_error:
        for record in tmx_parallel.read_tmx_file(cut, str(cut), workers=2):
            par.append(record)
    assert par == seq and len(par) > 100
    assert par_error.value.location == seq_error.value.location is not None


def test_registry_uses_workers_for_big_files(tricky_tmx: Path, small_chunks: None) -> None:
    labels = {label for label, _record in iter_units(tricky_tmx, workers=2)}
    assert labels == {str(tricky_tmx)}
    assert sum(1 for _ in iter_units(tricky_tmx, workers=2)) == len(sequential(tricky_tmx))


@pytest.mark.parametrize("block", [3, 7, 64])
def test_chunk_scan_boundaries_and_newlines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    """Chunks are contiguous, each ends just after ``</tu>`` (also when it straddles two reads), and
    their newline counts are exact (they give every unit its absolute line)."""
    monkeypatch.setattr(tmx_parallel, "CHUNK_BYTES", 500)
    monkeypatch.setattr(tmx_parallel, "_SCAN_BLOCK", block)
    path = write_synthetic_tmx(tmp_path / "s.tmx", 60)
    data = path.read_bytes()
    with open(path, "rb") as handle:
        prologue, _closing = tmx_parallel._prologue(handle) or (b"", b"")
        chunks = list(tmx_parallel._chunks(handle, len(prologue), len(data)))
    assert prologue.endswith(b"<body>") and len(chunks) > 10
    position = len(prologue)
    for start, end, newlines in chunks:
        assert start == position and data[end - 5:end] == b"</tu>"
        assert newlines == data[start:end].count(b"\n")
        position = end


@pytest.mark.parametrize("name", ["edge_cases.tmx", "edge_cases_ns.tmx", "multilingual.tmx", "inline_codes.tmx"])
def test_parallel_equals_sequential_on_edge_cases(small_chunks: None, name: str) -> None:
    path = Path(__file__).resolve().parents[2] / "fixtures" / "readers" / name
    expected = sequential(path)
    assert len(expected) > 5
    assert list(tmx_parallel.read_tmx_file(path, str(path), workers=2)) == expected


def test_the_last_chunk_ends_at_the_last_unit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Everything up to the file's last ``</tu>`` goes to the workers; only the closing tags are left
    to the sequential parse in the main process."""
    monkeypatch.setattr(tmx_parallel, "CHUNK_BYTES", 4000)
    path = write_synthetic_tmx(tmp_path / "s.tmx", 60)
    data = path.read_bytes()
    with open(path, "rb") as handle:
        prologue, _closing = tmx_parallel._prologue(handle) or (b"", b"")
        chunks = list(tmx_parallel._chunks(handle, len(prologue), len(data)))
    assert chunks[-1][1] == data.rindex(b"</tu>") + len(b"</tu>")
    assert chunks[-1][2] == data[chunks[-1][0]:chunks[-1][1]].count(b"\n")


class _Unseekable:
    """An archive member's stream: read() only."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def read(self, size: int = -1) -> bytes:
        size = len(self._data) if size < 0 else size
        out, self._data = self._data[:size], self._data[size:]
        return out


def test_lines_stay_exact_past_65535(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """libxml2 keeps element lines in 16 bits: past line 65,535 ``iterparse`` reports the line of the
    <tu>'s first text child (one too many here). Chunks keep lines small and add the exact offset."""
    monkeypatch.setattr(tmx_parallel, "CHUNK_BYTES", 64 << 10)
    path = write_synthetic_tmx(tmp_path / "long.tmx", 14_000)
    data = path.read_bytes()
    assert data.count(b"\n") > 70_000
    truth, last, line = {}, 0, 1
    for unit in range(14_000):
        at = data.find(f'tuid="u{unit}"'.encode(), last)
        if at >= 0:
            line += data.count(b"\n", last, at)
            truth[f"u{unit}"], last = line, at
    streamed = list(tmx_parallel.read_tmx_stream(_Unseekable(data), str(path)))  # type: ignore[arg-type]
    units = [r for r in streamed if isinstance(r, TranslationUnit)]
    assert len(units) == 14_000 and all(truth[u.unit_id] == u.line for u in units if u.unit_id in truth)
    assert sum(1 for u in units if u.unit_id in truth and (u.line or 0) > 65_535) > 500
    monkeypatch.setattr(tmx_parallel, "PARALLEL_MIN_BYTES", 0)
    assert list(tmx_parallel.read_tmx_file(path, str(path), workers=2)) == streamed
    with open(path, "rb") as handle:
        old = [r for r in iter_tmx(handle, str(path)) if isinstance(r, TranslationUnit)]
    assert [u.line for u in old[:13_000]] == [u.line for u in units[:13_000]]
    assert any(a.line != b.line for a, b in zip(old, units))  # the iterparse drift this avoids


def test_error_messages_name_absolute_lines(tmp_path: Path, small_chunks: None) -> None:
    data = write_synthetic_tmx(tmp_path / "s.tmx", 40).read_bytes()
    cut = tmp_path / "cut.tmx"
    cut.write_bytes(data[: data.index(b'tuid="u35"') + 200])
    with pytest.raises(MalformedFileError) as seq_error, open(cut, "rb") as handle:
        list(iter_tmx(handle, str(cut)))
    with pytest.raises(MalformedFileError) as chunked_error, open(cut, "rb") as handle:
        list(tmx_parallel.read_tmx_stream(handle, str(cut)))
    assert str(chunked_error.value) == str(seq_error.value)


def test_utf16_falls_back_to_the_sequential_parse(small_chunks: None) -> None:
    path = Path(__file__).resolve().parents[2] / "fixtures" / "readers" / "utf16_bom.tmx"
    with open(path, "rb") as handle:
        assert tmx_parallel._prologue(handle) is None  # a byte scan for b"</tu>" cannot work on UTF-16
    assert list(tmx_parallel.read_tmx_file(path, str(path), workers=2)) == sequential(path)
