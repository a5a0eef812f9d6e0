"""`housestyle score --client … --source FOLDER` and `housestyle ignore-import`: the ignore round trip
from the command line (counts before and after), a folder as the source, one-line errors."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from openpyxl import load_workbook

from housestyle.pipelines.cli.main import main

FIX = Path(__file__).resolve().parents[3] / "fixtures" / "scoring"


def _score(tmp_path: Path, out: str) -> Path:
    assert main(["score", "--conventions", str(FIX / "adoption" / "set.jsonl"), "--source", str(FIX / "adoption" / "sources.tsv"),
                 "--system", f"mt={FIX / 'adoption' / 'mt.tsv'}", "--reference", str(FIX / "adoption" / "approved.tsv"),
                 "--client", "acme", "--inbox", str(tmp_path / "inbox"), "--out", str(tmp_path / out)]) == 0
    return tmp_path / out


def test_ignore_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "inbox" / "acme").mkdir(parents=True)
    (tmp_path / "inbox" / "acme" / "settings.json").write_text('{"threshold": 50}', encoding="utf-8")
    first = _score(tmp_path, "run1")
    out = capsys.readouterr().out
    assert "threshold: SCS over new errors >= 50" in out
    book = load_workbook(first / "issues.xlsx")
    sheet = book["issues"]
    header = [c.value for c in sheet[1]]
    sheet.cell(row=2, column=header.index("ignore") + 1).value = "x"
    book.save(tmp_path / "marked.xlsx")
    assert main(["ignore-import", str(tmp_path / "marked.xlsx"), "--client", "acme", "--reviewer", "Anne",
                 "--inbox", str(tmp_path / "inbox")]) == 0
    assert "recorded 1 ignore(s) (mt 1)" in capsys.readouterr().out
    second = _score(tmp_path, "run2")
    before, after = (pl.read_parquet(d / "scores.parquet") for d in (first, second))
    assert after["ignored"].sum() == 1 and after["passed"].sum() == before["passed"].sum() + 1


def test_a_folder_source_and_bad_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conventions = tmp_path / "set.jsonl"
    conventions.write_text('{"dimension":"term:save","rule":"term","src":"Save","expected_terms":["Enregistrer"],'
                           '"src_lang":"en","tgt_lang":"fr"}\n', encoding="utf-8")
    delivery = FIX / "delivery"
    assert main(["score", "--conventions", str(conventions), "--source", str(delivery / "tm"),
                 "--system", f"mt={delivery / 'mt'}", "--out", str(tmp_path / "run")]) == 0
    assert "mt " in capsys.readouterr().out
    assert main(["score", "--conventions", str(conventions), "--source", str(delivery / "tm"),
                 "--system", f"mt={delivery / 'mt'}", "--client", "../x", "--out", str(tmp_path / "r2")]) == 2
    assert "client name" in capsys.readouterr().err
