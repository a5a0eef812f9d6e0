"""`housestyle mine` and `housestyle diff` on the mining fixture, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from housestyle.pipelines.cli.main import main
from tests.conftest import REPO_ROOT

FIXTURE = REPO_ROOT / "tests" / "fixtures" / "mining" / "tiny_enfr.xliff"


def test_mine_then_diff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mine", str(FIXTURE), "--src", "en", "--tgt", "fr", "--client", "fx", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    version = (tmp_path / "fx" / "LATEST").read_text(encoding="utf-8").strip()
    assert f"set_version:    {version}" in out and "conventions from 43 units" in out
    splits = tmp_path / "splits.json"
    splits.write_text(json.dumps({"half": {"unit_id": ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9"]}}),
                      encoding="utf-8")
    assert main(["mine", str(FIXTURE), "--src", "en", "--tgt", "fr", "--client", "fx", "--out", str(tmp_path),
                 "--split", "half", "--splits", str(splits)]) == 0
    half = (tmp_path / "fx" / "LATEST").read_text(encoding="utf-8").strip()
    assert half != version
    capsys.readouterr()
    assert main(["diff", str(tmp_path / "fx" / version), str(tmp_path / "fx" / half)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("added ") and "\n- " in text


def test_mine_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mine", str(tmp_path / "nope.tmx"), "--src", "en", "--tgt", "fr", "--out", str(tmp_path)]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["mine", str(FIXTURE), "--src", "en", "--tgt", "fr", "--split", "x", "--out", str(tmp_path)]) == 2


def test_mine_leaves_no_temporary_and_clears_a_killed_mines(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The ingest of `mine` goes to a pid-tagged folder beside the sets, never to $TMPDIR, and a folder
    a killed mine left (its pid is dead) is removed by the next mine of the client."""
    tmpdir = tmp_path / "tmpdir"
    tmpdir.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmpdir))
    out = tmp_path / "out"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True).stdout.strip()
    leftover = out / "fx" / f".ingest.{dead}-0123456789ab.tmp"
    (leftover / "parts").mkdir(parents=True)
    (leftover / "parts" / "part-0.arrow").write_bytes(b"half")
    assert main(["mine", str(FIXTURE), "--src", "en", "--tgt", "fr", "--client", "fx", "--out", str(out)]) == 0
    capsys.readouterr()
    version = (out / "fx" / "LATEST").read_text(encoding="utf-8").strip()
    assert sorted(p.name for p in (out / "fx").iterdir()) == sorted(["LATEST", version])
    assert list(tmpdir.iterdir()) == []
