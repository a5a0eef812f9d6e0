"""The one atomic-write helper: whole or absent, unique temporaries, stale ones found after a kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from housestyle.pipelines import atomic
from housestyle.pipelines.errors import OutputError
from tests.conftest import fill_disk


def test_write_text_replaces_whole_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "a.json"
    target.write_text("old", encoding="utf-8")
    atomic.write_text(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_failed_write_keeps_the_old_file_and_removes_the_temporary(tmp_path: Path) -> None:
    target = tmp_path / "a.parquet"
    target.write_bytes(b"old")

    def half_then_fail(path: Path) -> None:
        path.write_bytes(b"half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        atomic.write_with(target, half_then_fail)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.parquet"]


def test_temporary_names_are_unique_and_hidden(tmp_path: Path) -> None:
    names = {atomic.temporary_name(tmp_path / "x.parquet").name for _ in range(1000)}
    assert len(names) == 1000
    assert all(n.startswith(".x.parquet.") and n.endswith(".tmp") for n in names)


def test_two_writers_of_one_file_never_tear_it(tmp_path: Path) -> None:
    target = tmp_path / "shared.txt"
    payloads = [str(i) * 100_000 for i in range(8)]
    errors: list[BaseException] = []

    def writer(text: str) -> None:
        try:
            for _ in range(20):
                atomic.write_text(target, text)
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(p,)) for p in payloads]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert target.read_text(encoding="utf-8") in payloads
    assert [p.name for p in tmp_path.iterdir()] == ["shared.txt"]


def test_atomic_dir_publishes_a_complete_folder_or_nothing(tmp_path: Path) -> None:
    final = tmp_path / "run1"
    with pytest.raises(RuntimeError):
        with atomic.atomic_dir(final) as tmp:
            (tmp / "scores.parquet").write_bytes(b"x")
            raise RuntimeError("killed half-way")
    assert not final.exists() and list(tmp_path.iterdir()) == []
    with atomic.atomic_dir(final) as tmp:
        (tmp / "scores.parquet").write_bytes(b"x")
        (tmp / "run.json").write_text("{}", encoding="utf-8")
    assert sorted(p.name for p in final.iterdir()) == ["run.json", "scores.parquet"]
    with pytest.raises(FileExistsError):
        with atomic.atomic_dir(final) as tmp:
            (tmp / "other").write_bytes(b"y")
    assert sorted(p.name for p in final.iterdir()) == ["run.json", "scores.parquet"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run1"]


def test_temporary_of_a_killed_writer_is_found_and_removed(tmp_path: Path) -> None:
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from pipelines import atomic\n"
        "with atomic.atomic_path(Path(sys.argv[1])) as tmp:\n"
        "    tmp.write_bytes(b'half')\n"
        "    print('written', flush=True)\n"
        "    time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "t.bin")], stdout=subprocess.PIPE,
                            cwd=Path(__file__).resolve().parents[2])
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"written"
    assert atomic.stale_temporaries(tmp_path) == []  # the writer is alive: its temporary is not stale
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    stale = atomic.stale_temporaries(tmp_path)
    assert len(stale) == 1 and stale[0].name.startswith(".t.bin.")
    assert atomic.remove_stale_temporaries(tmp_path) == 1
    assert list(tmp_path.iterdir()) == []


def test_two_processes_writing_one_file_never_tear_it(tmp_path: Path) -> None:
    """Two writer processes replace one file 40 times each while this process reads it: every read
    is one writer's whole payload, and no temporary is left."""
    target = tmp_path / "shared.json"
    atomic.write_text(target, "0" * 200_000)
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from pipelines import atomic\n"
        "for _ in range(40):\n"
        "    atomic.write_text(Path(sys.argv[1]), sys.argv[2] * 200_000)\n"
    )
    root = Path(__file__).resolve().parents[2]
    writers = [subprocess.Popen([sys.executable, "-c", code, str(target), digit], cwd=root) for digit in "12"]
    seen: set[str] = set()
    while any(w.poll() is None for w in writers):
        text = target.read_text(encoding="utf-8")
        assert len(text) == 200_000 and len(set(text)) == 1, "a torn or partial file was read"
        seen.add(text[0])
    assert [w.returncode for w in writers] == [0, 0]
    assert target.read_text(encoding="utf-8") in ("1" * 200_000, "2" * 200_000)
    assert [p.name for p in tmp_path.iterdir()] == ["shared.json"]


def test_copy_file_is_whole_or_absent(tmp_path: Path) -> None:
    source = tmp_path / "src.bin"
    source.write_bytes(b"abc" * 1000)
    atomic.copy_file(source, tmp_path / "copy.bin")
    assert (tmp_path / "copy.bin").read_bytes() == source.read_bytes()
    with pytest.raises(FileNotFoundError):  # a missing source is the caller's error, not the place's
        atomic.copy_file(tmp_path / "absent.bin", tmp_path / "copy2.bin")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.bin", "src.bin"]


def test_writable_folder_creates_and_probes_without_leaving_anything(tmp_path: Path) -> None:
    folder = atomic.writable_folder(tmp_path / "a" / "b")
    assert folder.is_dir() and list(folder.iterdir()) == []
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match="not a folder"):
        atomic.writable_folder(tmp_path / "file")


def test_a_read_only_place_is_one_output_error(readonly_folder: Path) -> None:
    with pytest.raises(OutputError) as caught:
        atomic.writable_folder(readonly_folder)
    assert str(caught.value).startswith(f"{readonly_folder}: cannot write here") and "\n" not in str(caught.value)
    with pytest.raises(OutputError):
        atomic.write_text(readonly_folder / "x.json", "{}")
    with pytest.raises(OutputError):
        with atomic.atomic_dir(readonly_folder / "run"):
            pass
    assert list(readonly_folder.iterdir()) == []


def test_a_full_disk_is_one_output_error_and_keeps_the_old_file(small_disk: Path) -> None:
    import polars as pl

    target = small_disk / "table.parquet"
    pl.DataFrame({"a": [1, 2, 3]}).write_parquet(target)
    old = target.read_bytes()
    big = pl.DataFrame({"a": [str(i) * 20 for i in range(60_000)]})  # ~ MBs, the disk holds 256 KiB
    with pytest.raises(OutputError, match="no space left"):
        atomic.write_with(target, lambda p: big.write_parquet(p, compression="uncompressed"))
    with pytest.raises(OutputError, match="no space left"):
        atomic.write_text(small_disk / "big.txt", "x" * 1_000_000)
    assert target.read_bytes() == old
    assert sorted(p.name for p in small_disk.iterdir()) == ["table.parquet"]
    fill_disk(small_disk)
    with pytest.raises(OutputError, match="no space left"):
        atomic.writable_folder(small_disk)
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "table.parquet"]


def test_the_code_publishes_files_only_through_this_module() -> None:
    """One atomic-write function: no other module renames its own temporaries into place (ingest's
    table writer and the readers excepted: another change converts them)."""
    import re

    root = Path(__file__).resolve().parents[2]
    exempt = {"pipelines/atomic.py", "pipelines/tm_writer.py", "pipelines/ingest.py"}
    pattern = re.compile(r"os\.(replace|rename)\(|\btmp\w*\.replace\(|\.tmp[\"']")
    offenders = []
    for path in sorted([*(root / "pipelines").rglob("*.py"), *(root / "assets").rglob("*.py")]):
        name = path.relative_to(root).as_posix()
        if name in exempt or name.startswith("pipelines/readers/"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.search(line):
                offenders.append(f"{name}:{number}: {line.strip()}")
    assert offenders == []
