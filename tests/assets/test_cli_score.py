"""`housestyle score` output for a system with nothing scored: no score (—), never nan."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from assets.cli import main
from tests.conftest import REPO_ROOT

FIX = REPO_ROOT / "tests" / "fixtures" / "scoring"


def test_a_header_only_system_shows_no_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.tsv"
    empty.write_text("id\ttext\n", encoding="utf-8")  # the header, no segment
    assert main(["score", "--conventions", str(FIX / "set.jsonl"), "--source", str(FIX / "sources.tsv"),
                 "--system", f"empty={empty}", "--system", f"good={FIX / 'good.jsonl'}",
                 "--reference", str(FIX / "good.jsonl"), "--out", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines()[2:4]}
    assert rows["empty"] == ["empty", "0", "0", rows["empty"][3], "—"] and rows["good"][-1] == "100.0"
    assert "nan" not in out.lower()
    scores = pl.read_parquet(tmp_path / "run" / "scores.parquet").filter(pl.col("system") == "empty")
    assert scores["scored"].sum() == 0 and scores["score"].null_count() == scores.height  # stored as null
    html = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert not re.search(r">\s*nan\b|\bn/a\b", html, flags=re.IGNORECASE)
    cells = re.findall(r'<td class="num" style="background:#eeeeee"[^>]*>([^<]*)<', html)  # the grey, unscored cells
    assert cells and {c.strip() for c in cells} == {"—"}
