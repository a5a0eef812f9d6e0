"""`housestyle import-glossary`: counts, refusals with reasons, the client's file; bad input is one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from housestyle.pipelines.cli.main import main

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "glossary"


def test_import_reports_counts_and_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inbox = tmp_path / "inbox"
    args = ["import-glossary", str(FIXTURES / "basic2008.tbx"), "--client", "fx", "--src", "en", "--tgt", "fr",
            "--inbox", str(inbox)]
    assert main([*args, "--dry-run"]) == 0
    assert "dry run: nothing written" in capsys.readouterr().out and not (inbox / "fx").exists()
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "imported 2 conventions (term 2; en→fr 2)" in out and "refused 3: " in out
    assert "basic2008.tbx:20 [c3]: unknown status 'maybeTerm' of target term 'bidule'" in out
    written = inbox / "fx" / "glossary" / "basic2008.jsonl"
    assert f"→ {written}" in out
    assert {json.loads(line)["origin"] for line in written.read_text(encoding="utf-8").splitlines()} == {"glossary"}


def test_bad_input_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import-glossary", str(FIXTURES / "entities.tbx"), "--client", "fx", "--inbox", str(tmp_path)]) == 2
    assert "declares entities" in capsys.readouterr().err
    notes = tmp_path / "notes.txt"
    notes.write_text("x", encoding="utf-8")
    assert main(["import-glossary", str(notes), "--client", "fx", "--inbox", str(tmp_path)]) == 2
    assert "a termbase is one of" in capsys.readouterr().err
