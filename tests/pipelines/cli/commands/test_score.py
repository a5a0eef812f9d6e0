"""`housestyle score` output for a system with nothing scored: no score (—), never nan."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.cli.main import main
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
    assert rows["empty"][:5] == ["empty", "0", "0", rows["empty"][3], "—"] and rows["good"][4] == "100.0"
    assert rows["empty"][-1] == "no-items" and rows["good"][-1] == "pass"  # the verdict column
    assert "nan" not in out.lower()
    scores = pl.read_parquet(tmp_path / "run" / "scores.parquet").filter(pl.col("system") == "empty")
    assert scores["scored"].sum() == 0 and scores["score"].null_count() == scores.height  # stored as null
    html = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert not re.search(r">\s*nan\b|\bn/a\b", html, flags=re.IGNORECASE)
    summary = html.split('<table id="summary">')[1].split("</table>")[0]
    empty_row = summary.split("<td>empty</td>")[1].split("</tr>")[0]  # the summary row of the unscored system
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", empty_row)
    assert cells[0] == "—" and cells[1] == "0/0" and "—" in cells[2:]  # SCS and per-kind SCS: no score


def test_status_names_what_is_scored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.pipelines.conventions.test_statuses import statused_set

    conventions = statused_set(tmp_path)
    args = ["score", "--conventions", str(conventions), "--source", str(FIX / "sources.tsv"),
            "--system", f"bad={FIX / 'bad.tsv'}"]
    assert main([*args, "--out", str(tmp_path / "default")]) == 0
    assert "statuses scored: candidate+validated; left out: rejected 1" in capsys.readouterr().out
    assert main([*args, "--status", "rejected", "--out", str(tmp_path / "rejected")]) == 0
    out = capsys.readouterr().out
    assert "statuses scored: rejected; left out: candidate 5, validated 1" in out
    assert set(pl.read_parquet(tmp_path / "rejected" / "scores.parquet")["dimension"]) == {"term:air mass"}


def test_an_unknown_status_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--conventions", str(FIX / "set.jsonl"), "--source", str(FIX / "sources.tsv"),
                 "--system", f"good={FIX / 'good.jsonl'}", "--status", "candidate,aproved",
                 "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown status aproved" in err[0] and not (tmp_path / "run").exists()
