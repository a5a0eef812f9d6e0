"""contrast_outputs → negative_candidates on a throwaway client, and the generator resource's choices."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest
from dagster import AssetKey, DagsterInstance, materialize

from housestyle.assets.generation import GeneratorResource, contrast_outputs, negative_candidates
from housestyle.assets.ingest import tm_ingest
from housestyle.assets.partitions import CLIENTS_PARTITIONS_NAME
from housestyle.assets.resources import HousestyleSettings
from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.generation.openai_compat import OpenAICompatBackend
from housestyle.pipelines.generation.precomputed import PrecomputedBackend

CLIENT = Path(__file__).resolve().parents[1] / "fixtures" / "generation" / "client"


@pytest.fixture()
def toy_settings(tmp_path: Path) -> HousestyleSettings:
    root = tmp_path / "install"
    shutil.copytree(CLIENT, root / "inbox" / "toy")
    return HousestyleSettings(repo_root=str(root), inbox_root=str(root / "inbox"), rules_out_root=str(root / "rules_out"),
                              registrations_root=str(root / "registrations"), storage_root=str(root / "storage"))


def run(settings: HousestyleSettings, generator: GeneratorResource | None = None) -> object:
    resources: dict[str, object] = {"settings": settings}
    assets = [tm_ingest, contrast_outputs, negative_candidates]
    with DagsterInstance.get() as instance:
        instance.add_dynamic_partitions(CLIENTS_PARTITIONS_NAME, ["toy"])
        if generator is not None:  # run config of the asset-level resource
            config = {"resources": {"generator": {"config": generator.model_dump(exclude_none=True)}}}
            return materialize(assets, partition_key="toy", instance=instance, resources=resources, run_config=config)
        return materialize(assets, partition_key="toy", instance=instance, resources=resources)


def test_precomputed_generic_system_yields_candidate_conventions(dagster_home: Path,
                                                                  toy_settings: HousestyleSettings) -> None:
    result = run(toy_settings)
    assert result.success  # type: ignore[attr-defined]
    outputs = pl.read_parquet(toy_settings.storage / "contrast_outputs" / "toy" / "outputs.parquet")
    # sampling "terms": only units whose source holds a term (u14 does not), u11 has no generic output
    assert "u14" not in set(outputs["unit_id"]) and len(outputs) == 14
    assert outputs.filter(pl.col("unit_id") == "u11")["status"].to_list() == ["failed"]
    assert set(outputs["system"]) == {"toy"} and set(outputs["backend"]) == {"precomputed"}
    out_dir = toy_settings.storage / "negative_candidates" / "toy"
    candidates = pl.read_parquet(out_dir / "candidates.parquet")
    assert set(candidates.filter(pl.col("status") == "kept")["variant"]) == {"éloignement social", "éclosion"}
    conventions = load_conventions(out_dir / "conventions.jsonl")
    assert len(conventions) == 2 and {c.origin for c in conventions} == {"contrast"}
    assert pl.read_parquet(out_dir / "evidence.parquet")["role"].unique().to_list() == ["contrast"]
    meta = {e.asset_key: e.step_materialization_data.materialization.metadata
            for e in result.get_asset_materialization_events()}  # type: ignore[attr-defined]
    assert meta[AssetKey("negative_candidates")]["kept"].value == 2
    assert "éloignement social" in meta[AssetKey("negative_candidates")]["kept_variants"].value


def test_no_generator_configured_materialises_none_instead_of_failing(dagster_home: Path,
                                                                     toy_settings: HousestyleSettings) -> None:
    """No generic system: both contrast assets materialise an explicit "none", so the merge still runs."""
    shutil.rmtree(Path(toy_settings.inbox_root or "") / "toy" / "generic")
    result = run(toy_settings)
    assert result.success  # type: ignore[attr-defined]
    assert not (toy_settings.storage / "contrast_outputs" / "toy" / "outputs.parquet").exists()
    assert not (toy_settings.storage / "negative_candidates" / "toy" / "conventions.jsonl").exists()


def test_sampling_all_and_a_cap(dagster_home: Path, toy_settings: HousestyleSettings) -> None:
    result = run(toy_settings, GeneratorResource(sampling="all", max_sources=5))
    assert result.success  # type: ignore[attr-defined]
    outputs = pl.read_parquet(toy_settings.storage / "contrast_outputs" / "toy" / "outputs.parquet")
    assert len(outputs) == 5


def test_resource_builds_backends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    generic = tmp_path / "generic"
    generic.mkdir()
    (generic / "sys_a.jsonl").write_text('{"id": "1", "text": "un"}\n', encoding="utf-8")
    (generic / "README.md").write_text("notes", encoding="utf-8")
    [(name, backend)] = GeneratorResource().systems(generic, "fr")
    assert name == "sys_a" and isinstance(backend, PrecomputedBackend)
    assert GeneratorResource(backend="none").systems(generic, "fr") == []
    monkeypatch.setenv("HOUSESTYLE_GENERATOR_BACKEND", "openai")
    monkeypatch.setenv("HOUSESTYLE_GENERATOR_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("HOUSESTYLE_GENERATOR_MODEL", "m")
    monkeypatch.setenv("HOUSESTYLE_GENERATOR_API_KEY", "secret")
    [(name, openai)] = GeneratorResource(api="completion").systems(generic, "fr")
    assert isinstance(openai, OpenAICompatBackend) and openai.api_key == "secret" and name == "openai:m"
    monkeypatch.delenv("HOUSESTYLE_GENERATOR_BASE_URL")
    with pytest.raises(ConfigError, match=r"needs option\(s\) \['base_url'\]"):
        GeneratorResource().systems(generic, "fr")


def test_mined_term_candidates_are_preferred(dagster_home: Path, toy_settings: HousestyleSettings) -> None:
    from housestyle.assets.generation import term_rules_for

    assert term_rules_for(toy_settings, "toy")[1] == "authored"
    pair = toy_settings.storage / "term_candidates" / "toy" / "en__fr"
    pair.mkdir(parents=True)
    (pair / "candidates.jsonl").write_text(
        '{"dimension": "term:social distancing", "rule": "term", "src": "social distancing", '
        '"expected_terms": ["distanciation sociale"], "match_mode": "caseless", "origin": "mined", "dice": 0.9}\n',
        encoding="utf-8")
    (toy_settings.storage / "term_candidates" / "toy" / "de__fr").mkdir()
    (toy_settings.storage / "term_candidates" / "toy" / "de__fr" / "candidates.jsonl").write_text("", encoding="utf-8")
    rules, origin = term_rules_for(toy_settings, "toy")
    assert origin == "mined" and [r.dimension for r in rules] == ["term:social distancing"]
    assert run(toy_settings).success  # type: ignore[attr-defined]
    kept = pl.read_parquet(toy_settings.storage / "negative_candidates" / "toy" / "candidates.parquet")
    assert kept.filter(pl.col("status") == "kept")["variant"].to_list() == ["éloignement social"]
