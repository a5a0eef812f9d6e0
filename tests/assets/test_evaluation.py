"""registration → miner_evaluation → non-blocking gate checks, materialised on a throwaway install."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from dagster import AssetCheckSeverity, DagsterInstance, materialize

from housestyle.assets.evaluation import evaluation_gates, miner_evaluation, registration
from housestyle.assets.partitions import CLIENTS
from housestyle.assets.resources import HousestyleSettings
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.registration.freeze import freeze_registration, read_spec
from tests.conftest import write_sealed_set

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "registration"


@pytest.fixture()
def install(tmp_path: Path) -> Path:
    root = tmp_path / "install"
    (root / "gold_src").mkdir(parents=True)
    for name in ("terms_facebook.csv", "mini.tbx"):
        shutil.copyfile(FIX / name, root / "gold_src" / name)
    (root / "inbox" / "fx").mkdir(parents=True)
    shutil.copyfile(FIX / "splits.json", root / "inbox" / "fx" / "splits.json")
    freeze_registration(read_spec(FIX / "spec_fixture.json"), root=root)
    (root / "storage" / "tm_units" / "fx").mkdir(parents=True)
    pl.read_ndjson(FIX / "units.jsonl").write_parquet(root / "storage" / "tm_units" / "fx" / "tm_units.parquet")
    set_dir = root / "rules_out" / "fx" / "s1"
    conventions = [Convention(dimension="term:fever", rule="term", src="fever", expected_terms=["fièvre"],
                              src_lang="en", tgt_lang="fr")]
    write_sealed_set(set_dir, conventions, {"split": "dev"})
    (root / "rules_out" / "fx" / "LATEST").write_text("s1\n", encoding="utf-8")
    return root


def _settings(root: Path) -> HousestyleSettings:
    return HousestyleSettings(repo_root=str(root), inbox_root=str(root / "inbox"), rules_out_root=str(root / "rules_out"),
                              registrations_root=str(root / "registrations"), storage_root=str(root / "storage"))


def _run(root: Path, dagster_home: Path):  # type: ignore[no-untyped-def]
    """Only the three evaluation nodes: convention_set / tm_units are plain deps, read from disk here."""
    with DagsterInstance.get() as instance:  # DAGSTER_HOME = the test's throwaway folder
        instance.add_dynamic_partitions(CLIENTS.name, ["fx"])
        return materialize([registration, miner_evaluation, evaluation_gates], partition_key="fx", instance=instance,
                           resources={"settings": _settings(root)}, raise_on_error=False)


def test_failed_gates_label_the_set_and_never_delete_it(install: Path, dagster_home: Path) -> None:
    result = _run(install, dagster_home)
    assert result.success
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert checks["gate_dev"].passed is False and checks["gate_dev"].severity == AssetCheckSeverity.ERROR
    assert checks["gate_heldout"].passed is False
    assert checks["gate_review"].passed is False and checks["gate_review"].severity == AssetCheckSeverity.WARN
    evaluation = json.loads((install / "rules_out" / "fx" / "s1" / "evaluation.json").read_text(encoding="utf-8"))
    assert [(g["name"], g["value"], g["status"]) for g in evaluation["gates"]] == [
        ("recall_dev", 0.25, "fail"), ("recall_test", 0.5, "fail"), ("precision_under_review", None, "pending")]
    assert evaluation["claim_level"] == "assisted authoring, not zero-curation mining"
    assert (install / "rules_out" / "fx" / "s1" / "conventions.jsonl").is_file()  # the set is labelled, not deleted
    metadata = result.asset_materializations_for_node("miner_evaluation")[0].metadata
    assert metadata["verdict"].value == "fail" and metadata["label"].value == "indicative"


def test_tampered_registration_fails_the_registration_asset(install: Path, dagster_home: Path) -> None:
    splits = install / "inbox" / "fx" / "splits.json"
    splits.write_text(splits.read_text(encoding="utf-8").replace('"d:3"', '"d:4"'), encoding="utf-8")
    result = _run(install, dagster_home)
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure and e.step_key == "registration")
    assert "splits file inbox/fx/splits.json: expected sha256" in str(failure.event_specific_data.error)
    assert not (install / "rules_out" / "fx" / "s1" / "evaluation.json").exists()


def test_client_without_registration_skips(install: Path, dagster_home: Path) -> None:
    shutil.rmtree(install / "registrations" / "fx")
    result = _run(install, dagster_home)
    assert result.success
    assert result.asset_materializations_for_node("miner_evaluation") == []


def test_an_incomplete_latest_set_fails_the_evaluation_asset(install: Path, dagster_home: Path) -> None:
    (install / "rules_out" / "fx" / "s1" / "manifest.json").unlink()  # what a killed mine left before sets were sealed
    result = _run(install, dagster_home)
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure and e.step_key == "miner_evaluation")
    assert "incomplete convention set: no manifest.json" in str(failure.event_specific_data.error)
    assert not (install / "rules_out" / "fx" / "s1" / "evaluation.json").exists()
