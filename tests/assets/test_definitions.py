"""The Definitions object loads, and the per-client job covers the whole client-partitioned graph."""

from __future__ import annotations

from dagster import AssetCheckKey, AssetKey, Definitions

from housestyle.assets.definitions import ASSET_MODULES, build_definitions
from housestyle.assets.ingest import INVARIANT_CHECK
from housestyle.assets.jobs import CLIENT_JOB_NAME
from housestyle.assets.partitions import CLIENTS


def test_definitions_load_and_wire_the_graph() -> None:
    defs = build_definitions()
    Definitions.validate_loadable(defs)
    graph = defs.resolve_asset_graph()
    keys = {key.to_user_string() for key in graph.get_all_asset_keys()}
    assert {"tm_units", "tm_rejects", "convention_set", "system_outputs", "scoring_run"} <= keys
    assert AssetKey("tm_units") in graph.get(AssetKey("scoring_run")).parent_keys
    check = AssetCheckKey(AssetKey("tm_units"), INVARIANT_CHECK)
    assert check in graph.asset_check_keys
    assert graph.get_check_spec(check).blocking
    assert all(graph.get(AssetKey(k)).partitions_def == CLIENTS for k in ("tm_units", "tm_rejects", "scoring_run"))

    job = defs.resolve_job_def(CLIENT_JOB_NAME)
    assert {k.to_user_string() for k in job.asset_layer.selected_asset_keys} >= {"tm_units", "scoring_run"}
    assert defs.resolve_sensor_def("inbox_sensor").job_name == CLIENT_JOB_NAME
    assert defs.resolve_schedule_def("daily_refresh").job_name == CLIENT_JOB_NAME
    assert {"housestyle.assets.ingest", "housestyle.assets.scoring"} <= set(ASSET_MODULES) and len(set(ASSET_MODULES)) == len(ASSET_MODULES)
