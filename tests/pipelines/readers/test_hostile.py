"""The ingest under hostile input: every case writes its own file, knows how many units it holds and
how many must be kept and rejected, and checks the ingest against that and against the accounting
read back from the written tables (units in the file = kept + rejected, no unit lost)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.atomic import TMP_SUFFIX
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.readers import scan
from tests.bench.gen_tmx import write_synthetic_tmx

from .hostile_cases import CASES, Case, complete_units_in_truncated_gz, faulty, measure, tmx_bytes, tu


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_case(case: Case, tmp_path: Path) -> None:
    got = measure(case, tmp_path)
    kept, rejected = case.kept, case.rejected
    if case.name == "truncated .gz":  # how many whole units the cut archive still holds, counted by zlib
        kept = complete_units_in_truncated_gz(got["path"])  # type: ignore[arg-type]
        assert kept > 500
    assert (got["units"], got["kept"], got["rejected"], got["file_rows"]) == (case.units, kept, rejected,
                                                                            case.file_rows)
    assert got["accounted"], "units in the file = kept + rejected, read back from the tables"
    if case.reason:
        assert any(case.reason in r for r in got["reasons"]), got["reasons"]  # type: ignore[attr-defined]
    table = pl.read_parquet(got["out"] / "tm_rejects.parquet")  # type: ignore[operator]
    assert all("\n" not in r for r in table["reason"])  # one line each


def test_reason_names_libxml2s_cause_and_the_absolute_line(tmp_path: Path) -> None:
    data = tmx_bytes(20, {3: faulty(3, b"a&nbsp;b")})
    path = tmp_path / "nbsp.tmx"
    path.write_bytes(data)
    ingest_files([path], client="c", out_dir=tmp_path / "out")
    row = pl.read_parquet(tmp_path / "out" / "tm_rejects.parquet").row(0, named=True)
    unit_line = data[: data.index(b'<tu tuid="t3"')].count(b"\n") + 1
    assert row["location"] == str(unit_line) and row["unit_ordinal"] == 3
    assert row["reason"] == f"not well-formed XML: Entity 'nbsp' not defined (line {unit_line + 1})"
    assert row["raw"].startswith('<tu tuid="t3">') and "&nbsp;" in row["raw"]


def test_units_around_a_fault_keep_their_ids_and_lines(tmp_path: Path) -> None:
    data = tmx_bytes(30, {9: faulty(9, b"\x00")})
    path = tmp_path / "nul.tmx"
    path.write_bytes(data)
    ingest_files([path], client="c", out_dir=tmp_path / "out")
    units = pl.read_parquet(tmp_path / "out" / "tm_units.parquet")
    assert units["unit_id"].to_list() == [f"t{i}" for i in range(1, 31) if i != 9]
    truth = {f"t{i}": data[: data.index(f'<tu tuid="t{i}"'.encode())].count(b"\n") + 1 for i in range(1, 31)}
    assert all(truth[u] == line for u, line in zip(units["unit_id"], units["line"]))


def test_a_fault_in_a_big_parallel_file_loses_only_its_unit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's case at small scale: a NUL at unit 4,001 of a file parsed on worker processes."""
    monkeypatch.setattr(scan, "CHUNK_BYTES", 64 << 10)
    monkeypatch.setattr("housestyle.pipelines.ingest.PARALLEL_MIN_BYTES", 0)
    path = write_synthetic_tmx(tmp_path / "big.tmx", 6_000)
    data = path.read_bytes()
    at = data.index(b'tuid="u4000"')
    seg = data.index(b"<seg>", at) + 5
    path.write_bytes(data[:seg] + b"\x00" + data[seg:])
    parallel = ingest_files([path], client="c", out_dir=tmp_path / "par", workers=2)
    sequential = ingest_files([path], client="c", out_dir=tmp_path / "seq", workers=1)
    assert parallel.per_file[0].units_in_file == 6_000
    assert (parallel.units_kept, parallel.units_rejected) == (5_999, 1)
    for table in ("tm_units.parquet", "tm_rejects.parquet"):
        assert pl.read_parquet(tmp_path / "par" / table).equals(pl.read_parquet(tmp_path / "seq" / table))
    assert sequential.per_file[0].first_reason is not None and "Char 0x0" in sequential.per_file[0].first_reason


def test_xliff_namespaces(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name.startswith("XLIFF 1.2"))
    got = measure(case, tmp_path)
    units = pl.read_parquet(tmp_path / "out" / "tm_units.parquet")
    assert units["unit_id"].to_list() == ["u1", "u2"]  # no shadow from <sdl:trans-unit> or <ext:trans-unit>
    assert got["summary"].per_file[0].foreign == 3  # type: ignore[attr-defined]
    case2 = next(c for c in CASES if c.name.startswith("XLIFF 2.0"))
    got2 = measure(case2, tmp_path / "v2")
    units2 = pl.read_parquet(tmp_path / "v2" / "out" / "tm_units.parquet")
    assert units2["unit_id"].to_list() == ["u1", "u2"]  # u2's real segment is not renumbered by <ext:segment>
    assert units2["source"].to_list() == ["One", "Two"]
    assert got2["summary"].per_file[0].foreign == 2  # type: ignore[attr-defined]


def test_tmx_without_srclang_flags_the_assumption(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name == "TMX without srclang")
    measure(case, tmp_path)
    flags = pl.read_parquet(tmp_path / "out" / "tm_units.parquet")["flags"].to_list()
    assert flags == [["src_lang_assumed"]] * 5
    path = tmp_path / "with.tmx"
    path.write_bytes(tmx_bytes(2))
    ingest_files([path], client="c", out_dir=tmp_path / "with")
    assert pl.read_parquet(tmp_path / "with" / "tm_units.parquet")["flags"].to_list() == [[], []]


def test_colliding_tuids_are_flagged(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name.startswith("colliding tuids"))
    measure(case, tmp_path)
    units = pl.read_parquet(tmp_path / "out" / "tm_units.parquet")
    by_row = list(zip(units["unit_id"], units["source"], units["id_conflict"], units["duplicate_of"]))
    assert by_row == [("t1", "Source sentence number 1.", True, None), ("t2", "Source sentence number 2.", False, None),
                      ("t1", "Source sentence number 3.", True, None), ("t2", "Source sentence number 2.", False, "t2")]


def test_bombs_are_refused_after_reading_at_most_the_limit(tmp_path: Path) -> None:
    case = next(c for c in CASES if c.name.startswith("gz bomb"))
    got = measure(case, tmp_path)
    compressed = Path(got["path"]).stat().st_size  # type: ignore[arg-type]
    reason = next(r for r in got["reasons"] if "inflates beyond" in r)  # type: ignore[attr-defined]
    stopped = int(reason.split("stopped after ")[1].split(")")[0].replace(",", ""))
    assert 100 * compressed < stopped <= 100 * compressed + (1 << 20)  # one 1 MiB read past the limit at most


def test_nothing_is_left_in_tmpdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spool = tmp_path / "tmpdir"
    spool.mkdir()
    monkeypatch.setenv("TMPDIR", str(spool))
    monkeypatch.setattr("tempfile.tempdir", str(spool))
    monkeypatch.setattr("housestyle.pipelines.ingest.PARALLEL_MIN_BYTES", 0)
    for case in CASES:
        if case.name.startswith(("zip", "gz bomb", "truncated")):
            measure(case, tmp_path / case.name.replace(" ", "_")[:20])
    big = write_synthetic_tmx(tmp_path / "big.tmx", 3000)
    ingest_files([big], client="c", out_dir=tmp_path / "big_out", workers=2)
    assert list(spool.iterdir()) == []


def test_a_killed_ingest_leaves_only_a_temporary_that_the_next_run_removes(tmp_path: Path) -> None:
    big = tmp_path / "big.tmx"
    big.write_bytes(tmx_bytes(80_000))  # ~10 MB: several jobs, each leaving a part in the temporary folder
    out = tmp_path / "out"
    code = ("import sys; from pathlib import Path; from housestyle.pipelines.ingest import ingest_files\n"
            "if __name__ == '__main__':\n"
            f"    ingest_files([Path({str(big)!r})], client='c', out_dir=Path({str(out)!r}), workers=1)\n")
    child = subprocess.Popen([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[3])
    deadline = time.monotonic() + 60
    while not any(p.name.endswith(TMP_SUFFIX) and any(p.iterdir()) for p in out.glob(".*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    stale = [p for p in out.iterdir() if p.name.endswith(TMP_SUFFIX)]
    assert stale and not (out / "tm_units.parquet").exists()  # killed mid-way: no table, only the temporary
    (tmp_path / "small.tmx").write_bytes(tmx_bytes(3, {2: tu(2).encode()}))
    ingest_files([tmp_path / "small.tmx"], client="c", out_dir=out)
    assert sorted(p.name for p in out.iterdir()) == ["tm_rejects.parquet", "tm_units.parquet"]
