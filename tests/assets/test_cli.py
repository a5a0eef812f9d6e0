"""The `housestyle` command on small fixtures: ingest, score, audit, and one-line errors (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from assets.cli import SUBCOMMAND_MODULES, build_parser, main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "assets"
CLIENT = FIXTURES / "client"
SCORE = FIXTURES / "score"


def test_every_registered_subcommand_is_reachable() -> None:
    help_text = build_parser().format_help()
    for command in ("run", "ingest", "score", "audit", "ui"):
        assert command in help_text
    assert len(SUBCOMMAND_MODULES) == len(set(SUBCOMMAND_MODULES))


def test_ingest_writes_tables_and_prints_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = main(["ingest", str(CLIENT / "tm" / "weather.tmx"), str(CLIENT / "tm" / "news" / "broken.tmx"),
                 "--out", str(out), "--client", "acme"])
    printed = capsys.readouterr().out
    assert code == 0
    units, rejects = pl.read_parquet(out / "tm_units.parquet"), pl.read_parquet(out / "tm_rejects.parquet")
    assert {"w1", "w2", "w3"} <= set(units["unit_id"]) and units["client"].unique().to_list() == ["acme"]
    assert "weather.tmx" in printed and "broken.tmx" in printed
    assert f"kept {units.height:,} + rejected {rejects.height:,}" in printed


def test_ingest_missing_file_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.tmx"
    assert main(["ingest", str(missing), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and str(missing) in err and "no such file" in err


def test_score_then_audit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    code = main(["score", "--conventions", str(CLIENT / "conventions" / "authored.jsonl"),
                 "--source", str(SCORE / "source.jsonl"),
                 "--system", f"mt_a={CLIENT / 'systems' / 'mt_a.jsonl'}",
                 "--system", f"mt_b={CLIENT / 'systems' / 'mt_b.tsv'}",
                 "--reference", str(SCORE / "reference.jsonl"), "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    run_dir = Path(printed.split("run: ")[1].split()[0])
    scores = pl.read_parquet(run_dir / "scores.parquet")
    assert set(scores["system"]) == {"mt_a", "mt_b"}
    term = scores.filter(pl.col("dimension") == "term:air mass").sort("system")
    # mt_a: w1 passes (typographic apostrophe), w3 uses the banned variant; mt_b: the reverse; each misses nothing scored
    assert term.select("system", "scored", "passed").rows() == [("mt_a", 2, 1), ("mt_b", 2, 1)]
    assert (run_dir / "failures.parquet").is_file() and (run_dir / "report.html").is_file()
    assert "mt_a" in printed and "mt_b" in printed

    assert main(["audit", "--ack", str(run_dir), "--by", "tester", "--note", "read every failure"]) == 0
    assert "acknowledged" in capsys.readouterr().out
    assert "tester" in json.dumps([p.read_text(encoding="utf-8") for p in run_dir.rglob("*.json")])


def test_score_bad_convention_names_it_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", "--conventions", str(SCORE / "bad_conventions.jsonl"), "--source", str(SCORE / "source.jsonl"),
                 "--system", f"mt_a={CLIENT / 'systems' / 'mt_a.jsonl'}", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.startswith("housestyle score: error:") and err.count("\n") == 0
    assert "bad_conventions.jsonl" in err


def test_score_rejects_malformed_system_argument(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "--conventions", "c.jsonl", "--source", "s.jsonl", "--system", "no-equals-sign", "--out", "o"])
    assert exit_info.value.code == 2
    assert "expected NAME=FILE" in capsys.readouterr().err
