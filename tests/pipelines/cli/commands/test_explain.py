"""`housestyle explain` on a set mined in the test from the tiny fixture TM, as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from housestyle.pipelines.cli.main import main
from tests.conftest import REPO_ROOT

FIXTURE = REPO_ROOT / "tests" / "fixtures" / "mining" / "tiny_enfr.xliff"


@pytest.fixture(scope="module")
def mined_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("explain")
    assert main(["mine", str(FIXTURE), "--src", "en", "--tgt", "fr", "--client", "fx", "--out", str(out)]) == 0
    return out / "fx" / (out / "fx" / "LATEST").read_text(encoding="utf-8").strip()


def _explain(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["explain", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_rule_is_explained_with_its_forms_and_renderings(mined_set: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _explain(capsys, "--conventions", str(mined_set), "devices")
    assert code == 0
    assert out.startswith("Devices [en→fr]: rule")  # folded the way the miner keys terms: any case finds it
    rules = [json.loads(line) for line in (mined_set / "conventions.jsonl").read_text(encoding="utf-8").splitlines()]
    rule = next(r for r in rules if r["dimension"] == "term:devices")
    assert f"rule written: {rule['convention_id']}" in out
    assert "rendering 'appareils' [appareil]: support 3, coverage 1.00" in out and "(chosen)" in out
    assert rule["status"] == "suggested" and rule["heldout_items"] < 3  # 3 units of 43: too few held out (issue 25)
    assert f"term rule {rule['convention_id']} [mined, suggested, en→fr]: required appareil | appareils" in out


def test_a_rejected_term_names_its_filter_and_figures(mined_set: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _explain(capsys, "--conventions", str(mined_set), "CONNECTING", "--tgt-lang", "fr")
    assert code == 0
    assert "Connecting [en→fr]: rejected (general_word)" in out
    assert "why: a general word (zipf 4.2 >= terms.general_zipf 4.0), support 1 < terms.general_min_support 3" in out
    code, out, _ = _explain(capsys, "--conventions", str(mined_set), "protect")
    assert code == 0 and "protect [en→fr]: no_rendering" in out and "'protéger' [protéger]: not measured, aligned 1" in out


def test_an_unknown_term_says_why_it_was_never_a_candidate(mined_set: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _explain(capsys, "--conventions", str(mined_set), "the mask")
    assert code == 0
    assert out.startswith("'the mask': the miner never considered it (not a candidate: it starts or ends with 'the'")
    code, out, _ = _explain(capsys, "--conventions", str(mined_set), "zebra")
    assert code == 0 and "it occurs in no source of the units the miner aligned" in out
    code, out, _ = _explain(capsys, "--conventions", str(mined_set), "devices", "--tgt-lang", "de")
    assert code == 0 and "never considered it" in out  # no de pair in the set


def test_an_incomplete_or_untraced_set_exits_2(mined_set: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(mined_set, broken)
    (broken / "term_trace.parquet").write_bytes(b"changed")
    code, out, err = _explain(capsys, "--conventions", str(broken), "devices")
    assert code == 2 and out == "" and "term_trace.parquet does not match manifest.json" in err and err.count("\n") == 1
    untraced = tmp_path / "untraced"  # a sealed set from before the trace was kept
    shutil.copytree(mined_set, untraced)
    (untraced / "term_trace.parquet").unlink()
    manifest = json.loads((untraced / "manifest.json").read_text(encoding="utf-8"))
    del manifest["files"]["term_trace.parquet"]
    manifest.pop("seal", None)  # sets from before the trace predate the seal too
    (untraced / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    code, _, err = _explain(capsys, "--conventions", str(untraced), "devices")
    assert code == 2 and "has no term_trace.parquet" in err
    code, _, err = _explain(capsys, "--conventions", str(FIXTURE), "devices")
    assert code == 2 and "not a mined convention set folder" in err
