"""`housestyle register | evaluate | review-sample | review-import` on the fixture registration and the real mozilla-fr one."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.cli.main import main
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.registration.gold import load_gold_conventions
from tests.conftest import REPO_ROOT, write_sealed_set



@pytest.fixture()
def repo(registration_repo: Path) -> Path:
    """A repository-shaped folder: gold sources, inbox/fx/splits.json, the fixture spec."""
    return registration_repo


def _term(src: str, expected: str) -> Convention:
    return Convention(dimension=f"term:{src}", rule="term", src=src, expected_terms=[expected], src_lang="en", tgt_lang="fr")


def test_register_then_evaluate_then_review(repo: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOUSESTYLE_ROOT", str(repo))  # review-import files into this project's inbox
    assert main(["register", "--client", "fx", "--root", str(repo)]) == 0
    out = capsys.readouterr().out
    assert f"froze fx v1 at {repo / 'registrations' / 'fx' / 'v1'}" in out and "registration_hash " in out
    assert main(["register", "--spec", str(repo / "registrations" / "specs" / "fx.json"), "--root", str(repo)]) == 0
    assert "froze fx v2" in capsys.readouterr().out

    set_dir = repo / "rules_out" / "fx" / "s1"
    write_sealed_set(set_dir, [_term("air mass", "masse d'air"), _term("fever", "fièvre")], {"split": "dev"})
    args = ["evaluate", "--registration", str(repo / "registrations" / "fx" / "v1"), "--conventions", str(set_dir),
            "--tm-units", str(repo / "tm_units.parquet")]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "[PASS   ] recall_dev: 0.500 vs ≥ 0.500" in out and "[FAIL   ] recall_test: 0.500 vs ≥ 0.600" in out
    assert "recall_dev missed 2: chair → chaise, face mask → masque" in out
    assert "verdict: fail · claim: same-domain scaling only · label: indicative" in out
    assert json.loads((set_dir / "evaluation.json").read_text(encoding="utf-8"))["verdict"] == "fail"
    assert main([*args, "--strict", "--no-write"]) == 1
    capsys.readouterr()

    sample = repo / "review" / "sample.csv"
    assert main(["review-sample", "--conventions", str(set_dir), "-n", "5", "--out", str(sample)]) == 0
    assert "2 of 2 rules of set s1" in capsys.readouterr().out
    assert main(["review-sample", "--conventions", str(set_dir), "-n", "5", "--out", str(sample),
                 "--tm-units", str(repo / "missing.parquet")]) == 2
    assert "missing.parquet: file not found" in capsys.readouterr().err
    filled = pl.read_csv(sample, infer_schema=False).with_columns(
        verdict=pl.lit("correct"), reviewer=pl.lit("Anne"), reviewer_role=pl.lit("linguist"))
    filled.write_csv(sample)
    assert main(["review-import", str(sample), "--conventions", str(set_dir),
                 "--registration", str(repo / "registrations" / "fx" / "v1")]) == 0
    out = capsys.readouterr().out
    assert "2 linguist judgements, precision 1.000" in out and "precision_under_review (>= 0.85): pass" in out
    assert (repo / "inbox" / "fx" / "review" / "s1.csv").is_file()
    assert main([*args, "--review", str(repo / "inbox" / "fx" / "review" / "s1.csv")]) == 0
    assert "[PASS   ] precision_under_review: 1.000 vs ≥ 0.850" in capsys.readouterr().out


def test_evaluate_a_tampered_registration_is_one_line_exit_2(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["register", "--client", "fx", "--root", str(repo)]) == 0
    reg = repo / "registrations" / "fx" / "v1"
    data = json.loads((reg / "registration.json").read_text(encoding="utf-8"))
    data["gates"][1]["threshold"] = 0.1
    (reg / "registration.json").write_text(json.dumps(data), encoding="utf-8")
    write_sealed_set(repo / "set", [])
    capsys.readouterr()
    code = main(["evaluate", "--registration", str(reg), "--conventions", str(repo / "set"),
                 "--tm-units", str(repo / "tm_units.parquet")])
    err = capsys.readouterr().err
    assert code == 2
    assert "frozen registration fx/v1 changed after freezing (1 change)" in err
    assert "field gates[recall_test].threshold: frozen hash " in err and "now 0.1" in err
    assert not (repo / "set" / "evaluation.json").exists()


def test_evaluate_ingests_the_client_inbox_when_no_tm_units(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The real mozilla-fr registration; tm_units come from inbox/mozilla-fr/tm/ through the real readers."""
    gold = [g.convention for g in load_gold_conventions(REPO_ROOT / "registrations" / "mozilla-fr" / "v1" / "gold" /
                                                        "mozilla-fr.conventions.jsonl", "en", "fr")]
    gold = [c for c in gold if c.rule != "casing"]  # as written it is not executable (no params)
    write_sealed_set(tmp_path / "set", gold)
    assert main(["evaluate", "--registration", str(REPO_ROOT / "registrations" / "mozilla-fr" / "v1"),
                 "--conventions", str(tmp_path / "set")]) == 0
    out = capsys.readouterr().out
    assert "[PASS   ] conventions_recovered_dev: 5 vs ≥ 5" in out
    assert "[PASS   ] conventions_recovered_heldout: 5 vs ≥ 5" in out
    evaluation = json.loads((tmp_path / "set" / "evaluation.json").read_text(encoding="utf-8"))
    assert [g["detail"]["units"] for g in evaluation["gates"][:2]] == [947, 1323]
    assert evaluation["gates"][0]["detail"]["missed"][0]["gold_id"] == "moz-fr-05"


def test_register_takes_its_paths_from_the_project_without_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Like every command, `register` takes its paths from the project (the nearest one upward),
    not from the working directory, and says so in one line where there is none."""
    monkeypatch.delenv("HOUSESTYLE_ROOT", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["register", "--client", "fx"]) == 2
    assert "no housestyle project" in capsys.readouterr().err
    (tmp_path / "inbox").mkdir()
    (tmp_path / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    (tmp_path / "deep").mkdir()
    monkeypatch.chdir(tmp_path / "deep")
    assert main(["register", "--client", "fx"]) == 2
    assert f"{tmp_path / 'registrations' / 'specs' / 'fx.json'}: no registration spec" in capsys.readouterr().err
