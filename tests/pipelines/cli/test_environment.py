"""Errors about the environment (read-only or full --out, a missing folder) are one line on stderr,
exit 2, come before the long work, and leave no temporary behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.cli.main import main
from housestyle.pipelines.conventionset.store import open_set
from tests.conftest import REPO_ROOT, fill_disk

TM = REPO_ROOT / "tests" / "fixtures" / "mining" / "tiny_enfr.xliff"
SCORE = REPO_ROOT / "tests" / "fixtures" / "scoring"


def _one_line_error(capsys: pytest.CaptureFixture[str], *needles: str) -> str:
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1, captured.err
    assert all(n in captured.err for n in needles), captured.err
    return captured.out


def _temporaries(folder: Path) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.name.endswith(".tmp")] if folder.exists() else []


def test_mine_into_a_read_only_out_fails_before_ingesting(readonly_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mine", str(TM), "--src", "en", "--tgt", "fr", "--out", str(readonly_folder)]) == 2
    out = _one_line_error(capsys, "housestyle mine: error:", str(readonly_folder), "cannot write here")
    assert "ingested" not in out  # nothing was read or mined before the check
    assert list(readonly_folder.iterdir()) == []


def test_mine_into_a_full_disk_fails_before_ingesting(small_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fill_disk(small_disk)
    assert main(["mine", str(TM), "--src", "en", "--tgt", "fr", "--out", str(small_disk / "out")]) == 2
    out = _one_line_error(capsys, "no space left")
    assert "ingested" not in out and _temporaries(small_disk) == []


def test_a_disk_filling_up_while_the_set_is_written_is_one_line_and_leaves_nothing(
        small_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The probe and the ingest (its tables go beside the sets and are removed before the set is
    # written) fit; the set's files do not. The ingest's report (its total line) precedes the error.
    fill_disk(small_disk, leave=64 * 1024)
    assert main(["mine", str(TM), "--src", "en", "--tgt", "fr", "--client", "fx", "--out", str(small_disk / "out")]) == 2
    captured = capsys.readouterr()
    report, error = captured.err.splitlines()[:-1], captured.err.splitlines()[-1]
    assert all(line.startswith("total: ") for line in report), captured.err
    assert error.startswith("housestyle mine: error:") and "no space left" in error, captured.err
    assert "ingested" in captured.out  # this one is only found when writing
    assert _temporaries(small_disk) == [] and not (small_disk / "out" / "fx" / "LATEST").exists()
    # Whole or absent: whatever folder is there (the set can fit when only LATEST does not) is a set
    # the verified reader opens.
    for folder in (small_disk / "out" / "fx").iterdir():
        assert open_set(folder).path == folder


def test_mine_refuses_missing_inputs_and_an_out_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, needle in (
        (["mine", str(tmp_path / "no-folder"), "--src", "en", "--tgt", "fr", "--out", str(tmp_path / "o")], "no such file or folder"),
        (["mine", str(TM), "--src", "en", "--tgt", "fr", "--authored", str(tmp_path / "none"), "--out", str(tmp_path / "o")],
         "no such file or folder"),
        (["mine", str(TM), "--src", "en", "--tgt", "fr", "--contrast", str(tmp_path / "c.jsonl"), "--out", str(tmp_path / "o")],
         "no such file"),
    ):
        assert main(argv) == 2, argv
        _one_line_error(capsys, needle)
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    assert main(["mine", str(TM), "--src", "en", "--tgt", "fr", "--out", str(tmp_path / "afile")]) == 2
    _one_line_error(capsys, "not a folder")


def test_score_into_a_read_only_out_fails_before_reading_the_conventions(
        readonly_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "--conventions", str(SCORE / "bad_rule.jsonl"), "--source", str(SCORE / "sources.tsv"),
            "--system", f"good={SCORE / 'good.jsonl'}", "--out", str(readonly_folder / "run")]
    assert main(argv) == 2
    _one_line_error(capsys, "cannot write here")  # not the bad convention: the place is checked first
    assert list(readonly_folder.iterdir()) == []


def test_score_with_a_missing_system_file_fails_before_scoring(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", "--conventions", str(SCORE / "bad_rule.jsonl"), "--source", str(SCORE / "sources.tsv"),
            "--system", f"good={tmp_path / 'absent.jsonl'}", "--out", str(tmp_path / "run")]
    assert main(argv) == 2
    _one_line_error(capsys, "absent.jsonl: no such file")
    assert not (tmp_path / "run" / "run.json").exists() and _temporaries(tmp_path) == []


def test_acknowledging_a_run_on_a_read_only_place_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import subprocess

    run = tmp_path / "ro" / "run"
    assert main(["score", "--conventions", str(SCORE / "set.jsonl"), "--source", str(SCORE / "sources.tsv"),
                 "--system", f"good={SCORE / 'good.jsonl'}", "--out", str(run)]) == 0
    capsys.readouterr()
    done = subprocess.run(["mount", "--bind", "-o", "ro", str(run), str(run)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("cannot bind-mount a folder read-only here (needs root)")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(run)], capture_output=True, check=False)
        assert main(["audit", "--ack", str(run), "--by", "Ana"]) == 2
        _one_line_error(capsys, "cannot write here")
    finally:
        subprocess.run(["umount", "-l", str(run)], capture_output=True, check=False)
    assert not (run / "audit.json").exists() and _temporaries(run) == []
