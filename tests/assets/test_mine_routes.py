"""`housestyle mine` and the convention_set asset build the same set from the same inputs: the mined
candidates, the generic system's contrast candidates and the authored rules (one build function)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from dagster import DagsterInstance, materialize

from housestyle.pipelines.cli.main import main
from housestyle.assets.generation import contrast_outputs, negative_candidates
from housestyle.assets.ingest import tm_ingest
from housestyle.assets.mining import convention_candidates, convention_set, pattern_candidates, rule_candidates, term_candidates
from housestyle.assets.partitions import CLIENTS_PARTITIONS_NAME
from housestyle.assets.resources import HousestyleSettings

CLIENT = Path(__file__).resolve().parents[1] / "fixtures" / "generation" / "client"


def _origins(path: Path) -> set[str]:
    return {json.loads(line)["origin"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def test_the_cli_and_the_asset_give_the_same_conventions(tmp_path: Path, dagster_home: Path) -> None:
    root = tmp_path / "install"
    shutil.copytree(CLIENT, root / "inbox" / "toy")
    settings = HousestyleSettings(repo_root=str(root), inbox_root=str(root / "inbox"), rules_out_root=str(root / "rules_out"),
                                  registrations_root=str(root / "registrations"), storage_root=str(root / "storage"))
    with DagsterInstance.get() as instance:
        instance.add_dynamic_partitions(CLIENTS_PARTITIONS_NAME, ["toy"])
        result = materialize([tm_ingest, term_candidates, pattern_candidates, rule_candidates, contrast_outputs,
                              negative_candidates, convention_candidates, convention_set],
                             partition_key="toy", instance=instance, resources={"settings": settings})
    assert result.success
    (asset_set,) = [p for p in (root / "rules_out" / "toy").iterdir() if p.is_dir()]
    contrast = root / "storage" / "negative_candidates" / "toy" / "conventions.jsonl"
    assert main(["mine", str(root / "inbox" / "toy" / "tm"), "--src", "en", "--tgt", "fr", "--client", "toy",
                 "--contrast", str(contrast), "--authored", str(root / "inbox" / "toy" / "conventions"),
                 "--out", str(tmp_path / "cli")]) == 0
    (cli_set,) = [p for p in (tmp_path / "cli" / "toy").iterdir() if p.is_dir()]
    assert {"mined", "contrast", "authored"} <= _origins(asset_set / "conventions.jsonl")  # every input counted
    assert (cli_set / "conventions.jsonl").read_bytes() == (asset_set / "conventions.jsonl").read_bytes()
    assert (cli_set / "evidence.parquet").read_bytes() == (asset_set / "evidence.parquet").read_bytes()
    assert (cli_set / "term_trace.parquet").read_bytes() == (asset_set / "term_trace.parquet").read_bytes()  # both routes trace
    # without the contrast and authored inputs the CLI builds another set: the inputs are what differ
    assert main(["mine", str(root / "inbox" / "toy" / "tm"), "--src", "en", "--tgt", "fr", "--client", "toy",
                 "--out", str(tmp_path / "bare")]) == 0
    (bare,) = [p for p in (tmp_path / "bare" / "toy").iterdir() if p.is_dir()]
    assert _origins(bare / "conventions.jsonl") == {"mined"}
