"""The judge's inputs: both MQM files checked before any preparation, any layout (Marot too), and a
train and a test file of the same pair never overwriting each other's files."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.judge.job import JudgeJob, run_judge
from housestyle.pipelines.judge.samples import load_samples

MAROT = Path(__file__).resolve().parents[2] / "fixtures" / "metaeval" / "mqm_toy_marot.tsv"


def test_bad_test_file_refused_before_any_preparation(toy_ende: Path, tmp_path: Path) -> None:
    bad = tmp_path / "mqm_bad_zhen.tsv"
    bad.write_text(toy_ende.read_text(encoding="utf-8") + "sysA\ttruncated\n", encoding="utf-8")
    started = time.perf_counter()
    with pytest.raises(InputError) as info:
        run_judge(JudgeJob(train=toy_ende, test=bad, criteria="deterministic", out=tmp_path / "out"))
    assert info.value.path == str(bad) and time.perf_counter() - started < 10
    assert not (tmp_path / "out").exists()


def test_marot_labels_ignore_source_issue_and_creative_majors() -> None:
    samples = load_samples(MAROT, reference_systems=["refA"])
    labels = {(r["system"], r["seg_id"]): r["not_acceptable"] for r in samples.frame.iter_rows(named=True)}
    # sysA: 1 = creative-reinterpretation Major only (weight 0), 2 = Major mistranslation (+ Major source
    # issue), 3 = Non-translation; sysB: 2 = Critical, 1 and 3 minor / none
    assert labels == {("sysA", 1): 0, ("sysA", 2): 1, ("sysA", 3): 1, ("sysB", 1): 0, ("sysB", 2): 1, ("sysB", 3): 0}
    assert samples.lp == "en-de" and "no-source,no-zero-weight" in samples.signature


def test_same_pair_train_and_test_keep_their_own_files(toy_ende: Path, tmp_path: Path) -> None:
    test = tmp_path / "mqm_other_ende.tsv"
    shutil.copy(toy_ende, test)
    with test.open("a", encoding="utf-8") as handle:  # different content, same pair
        handle.write("\n")
    run_judge(JudgeJob(train=toy_ende, test=test, criteria="deterministic", out=tmp_path / "o", n_bootstrap=20,
                       analyses=False))
    names = sorted(p.name for p in (tmp_path / "o").glob("criteria_vectors_*.parquet"))
    assert len(names) == 2 and names[0].startswith("criteria_vectors_test_en-de_")
    assert names[1].startswith("criteria_vectors_train_en-de_")
    for name in names:
        assert pl.read_parquet(tmp_path / "o" / name).height == 32


def test_lp_option_overrides_the_file(toy_ende: Path, toy_zhen: Path, tmp_path: Path) -> None:
    out = run_judge(JudgeJob(train=toy_zhen, test=toy_ende, criteria="deterministic", out=tmp_path, n_bootstrap=20,
                             analyses=False, lps=("zh-en", "en-at")))
    assert out.table.select("train_lp", "test_lp").unique().rows() == [("zh-en", "en-at")]
