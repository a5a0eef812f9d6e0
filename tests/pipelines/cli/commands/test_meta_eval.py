"""`housestyle meta-eval` on the toy MQM fixtures: files written, table printed, errors named."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.cli.main import main

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "metaeval"
ENDE, ZHEN = FIXTURES / "mqm_toy_ende.tsv", FIXTURES / "mqm_toy_zhen.tsv"
SPEC_COLUMNS = {"lp", "metric", "references", "level", "pairwise_accuracy", "pearson", "kendall", "n_systems",
                "pairwise_accuracy_low", "pairwise_accuracy_high", "pearson_low", "pearson_high",
                "kendall_low", "kendall_high"}


def test_meta_eval_writes_parquet_markdown_and_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = main(["meta-eval", "--mqm", str(ENDE), "--mqm", str(ZHEN), "--reference-system", "ref",
                     "--exclude-system", "refB", "--out", str(out), "--bootstrap", "25", "--seed", "1"])
    assert code == 0
    df = pl.read_parquet(out / "meta_eval.parquet")
    assert SPEC_COLUMNS <= set(df.columns)
    assert set(df["lp"]) == {"en-de", "zh-en", "pooled"} and set(df["level"]) == {"system", "segment"}
    assert df.filter(pl.col("level") == "system")["pairwise_accuracy_low"].null_count() == 0
    printed = capsys.readouterr().out
    assert "pairwise accuracy" in printed and "pooled" in printed and "25 resamples, seed 1" in printed
    markdown = (out / "meta_eval.md").read_text(encoding="utf-8")
    assert "--reference-system ref" in markdown and "| en-de | BLEU | ref | system |" in markdown
    assert "| 2 | sysA | 1.1500 | 4 |" in markdown  # the human MQM table
    assert "tok:13a" in markdown


def test_multi_reference_and_nargs_form(tmp_path: Path) -> None:
    out = tmp_path / "multi"
    assert main(["meta-eval", "--mqm", str(ZHEN), "--reference-system", "ref", "refB", "--out", str(out), "--bootstrap", "0"]) == 0
    df = pl.read_parquet(out / "meta_eval.parquet")
    assert set(df["references"]) == {"ref+refB"} and set(df["n_systems"]) == {3}
    assert df["pearson_low"].null_count() == df.height


def test_absent_reference_system_is_a_named_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["meta-eval", "--mqm", str(ZHEN), str(ENDE), "--reference-system", "ref", "--reference-system",
                 "refB", "--out", str(tmp_path / "x"), "--bootstrap", "0"])
    assert code == 2
    err = capsys.readouterr().err
    assert str(ENDE) in err and "refB" in err
    assert not (tmp_path / "x" / "meta_eval.parquet").exists()


def test_include_human_ranks_the_other_human_translation(tmp_path: Path) -> None:
    assert main(["meta-eval", "--mqm", str(ZHEN), "--reference-system", "refB", "--out", str(tmp_path / "a"), "--bootstrap", "0"]) == 0
    assert set(pl.read_parquet(tmp_path / "a" / "meta_eval.parquet")["n_systems"]) == {3}
    assert main(["meta-eval", "--mqm", str(ZHEN), "--reference-system", "refB", "--include-human", "--out", str(tmp_path / "b"),
                 "--bootstrap", "0"]) == 0
    assert set(pl.read_parquet(tmp_path / "b" / "meta_eval.parquet")["n_systems"]) == {4}
    assert "--include-human" in (tmp_path / "b" / "meta_eval.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("words", [["--bootstrap", "-1"], ["--mqm", "/nonexistent/mqm.tsv"]])
def test_errors_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str]) -> None:
    args = ["meta-eval", "--mqm", str(ZHEN), "--reference-system", "ref", "--out", str(tmp_path / "x"), *words]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("housestyle meta-eval: error: ") and err.count("\n") == 1
