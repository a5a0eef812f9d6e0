"""The one atomic-write helper: whole or absent, unique temporaries, stale ones found after a kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pipelines import atomic


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
