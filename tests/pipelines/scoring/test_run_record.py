"""Scoring runs are whole or refused: run.json (every table's sha256) is written last; a run killed
mid-write, changed afterwards or written before the commit record is refused by every reader."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.errors import InputError, OutputError
from housestyle.pipelines.scoring.report import write_report
from housestyle.pipelines.scoring.run_record import TABLE_FILES, open_run
from housestyle.pipelines.scoring.runs import acknowledge_run, run_scoring, store_run
from tests.conftest import REPO_ROOT, fill_disk

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "scoring"
SYSTEMS = {"good": FIX / "good.jsonl", "bad": FIX / "bad.tsv"}
N_SEGMENTS = 60_000  # enough failures that the tables take a while to write: a kill lands mid-run


def _run(out: Path) -> Path:
    return run_scoring(FIX / "set.jsonl", FIX / "sources.tsv", SYSTEMS, [FIX / "good.jsonl"], out)


def test_run_json_is_the_commit_record_of_every_table(tmp_path: Path) -> None:
    run_dir = _run(tmp_path / "run")
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    assert set(record["files"]) == set(TABLE_FILES)
    for name, digest in record["files"].items():  # counted here, not by the code under test
        assert hashlib.sha256((run_dir / name).read_bytes()).hexdigest() == digest, name
    assert open_run(run_dir)["run_id"] == record["run_id"]
    assert not [p.name for p in run_dir.iterdir() if p.name.endswith(".tmp")]


def test_a_table_changed_after_the_run_is_refused_everywhere(tmp_path: Path) -> None:
    run_dir = _run(tmp_path / "run")
    pl.read_parquet(run_dir / "failures.parquet").head(1).write_parquet(run_dir / "failures.parquet")
    with pytest.raises(InputError, match="failures.parquet does not match run.json"):
        open_run(run_dir)
    with pytest.raises(InputError):
        write_report(run_dir)
    with pytest.raises(InputError):
        acknowledge_run(run_dir, "Ana", "")
    assert not (run_dir / "audit.json").exists()
    with pytest.raises(InputError):
        store_run(run_dir, tmp_path / "rules_out", "acme")


def test_a_run_without_a_commit_record_is_refused(tmp_path: Path) -> None:
    run_dir = _run(tmp_path / "run")
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    del record["files"]  # what runs written before the commit record look like
    (run_dir / "run.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(InputError, match="lists no table hashes"):
        open_run(run_dir)
    (run_dir / "run.json").unlink()
    with pytest.raises(InputError, match="incomplete scoring run: no run.json"):
        open_run(run_dir)


def test_a_copied_run_is_whole(tmp_path: Path) -> None:
    run_dir = _run(tmp_path / "run")
    acknowledge_run(run_dir, "Ana", "read them all")
    copied = store_run(run_dir, tmp_path / "rules_out", "acme")
    assert open_run(copied) == open_run(run_dir)
    for name in (*TABLE_FILES, "audit.json", "report.html"):
        assert (copied / name).read_bytes() == (run_dir / name).read_bytes(), name


def _big_inputs(folder: Path, text: str) -> tuple[Path, Path, Path]:
    """N_SEGMENTS sources that each trigger the seed's term convention, and a system failing it."""
    folder.mkdir(parents=True, exist_ok=True)
    ids = [f"s{i}" for i in range(N_SEGMENTS)]
    sources = folder / "sources.jsonl"
    pl.DataFrame({"id": ids, "text": ["An air mass will cross the region on Saturday morning."] * N_SEGMENTS}).write_ndjson(sources)
    system = folder / "system.jsonl"
    pl.DataFrame({"id": ids, "text": [f"{text} ({i})" for i in range(N_SEGMENTS)]}).write_ndjson(system)
    conventions = folder / "set.jsonl"
    conventions.write_text((FIX / "seed.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    return conventions, sources, system


SCORE_CHILD = (
    "import sys\n"
    "from pathlib import Path\n"
    "from housestyle.pipelines.scoring.runs import run_scoring\n"
    "c, s, m, out = map(Path, sys.argv[1:5])\n"
    "run_scoring(c, s, {'mt': m}, [], out)\n"
)


def _kill_when_tables_change(proc: subprocess.Popen[bytes], out: Path, before: dict[str, float]) -> bool:
    """SIGKILL the child as soon as the first table of the new run is in place (before run.json)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        first = out / TABLE_FILES[0]
        if first.is_file() and first.stat().st_mtime_ns != before.get(TABLE_FILES[0]):
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            return True
        time.sleep(0.0005)
    return False


def test_a_run_killed_mid_write_is_refused_and_not_acknowledged(tmp_path: Path) -> None:
    """An old complete run in --out, then a new run killed with SIGKILL after its first table: no
    reader takes the folder (no old run.json or report beside new scores), audit --ack exits 2 with
    one line and records nothing, and a re-run completes it."""
    out = tmp_path / "run"
    conventions, sources, old_system = _big_inputs(tmp_path / "old", "Une masse d'air traversera la région.")
    run_scoring(conventions, sources, {"mt": old_system}, [], out)
    old = open_run(out)
    before = {name: (out / name).stat().st_mtime_ns for name in TABLE_FILES}
    _, _, new_system = _big_inputs(tmp_path / "new", "Une masse atmosphérique traversera la région.")
    proc = subprocess.Popen([sys.executable, "-c", SCORE_CHILD, str(conventions), str(sources), str(new_system), str(out)],
                            cwd=REPO_ROOT)
    assert _kill_when_tables_change(proc, out, before), "the child finished before its first table was replaced"
    assert proc.returncode == -signal.SIGKILL
    with pytest.raises(InputError, match="incomplete scoring run"):
        open_run(out)
    assert not (out / "report.html").exists()  # the old report is withdrawn with the old record
    done = subprocess.run([sys.executable, "-m", "housestyle.pipelines.cli.main", "audit", "--ack", str(out), "--by", "Ana"],
                          cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "incomplete scoring run" in done.stderr
    assert not (out / "audit.json").exists()
    run_scoring(conventions, sources, {"mt": new_system}, [], out)  # the next writer cleans up and completes
    new = open_run(out)
    assert new["run_id"] != old["run_id"]
    assert pl.read_parquet(out / "failures.parquet").height == N_SEGMENTS
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


def test_a_full_disk_mid_run_leaves_no_run_and_no_temporary(small_disk: Path, tmp_path: Path) -> None:
    conventions, sources, system = _big_inputs(tmp_path / "in", "Une masse atmosphérique traversera la région.")
    out = small_disk / "run"
    fill_disk(small_disk, leave=48 * 1024)  # room for the probe and the small tables, not for failures.parquet
    with pytest.raises(OutputError, match="no space left"):
        run_scoring(conventions, sources, {"mt": system}, [], out)
    with pytest.raises(InputError, match="incomplete scoring run"):
        open_run(out)
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
