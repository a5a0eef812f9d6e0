"""`housestyle mine` and `housestyle diff` on the mining fixture, as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assets.cli import main
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
