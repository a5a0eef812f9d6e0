"""The inbox sensor and the daily schedule (both on by default) run only what changed, decided from
Dagster's records: a real in-process run of a small client first, then the changes a user makes.
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from dagster import (
    AddDynamicPartitionsRequest,
    DagsterInstance,
    DagsterRun,
    DagsterRunStatus,
    DefaultScheduleStatus,
    DefaultSensorStatus,
    RepositoryDefinition,
    RunRequest,
    SensorResult,
    SkipReason,
    build_schedule_context,
    build_sensor_context,
)

from housestyle.assets.freshness import plan_refresh, record_observations
from housestyle.assets.jobs import CLIENT_JOB_NAME
from housestyle.assets.partitions import CLIENTS_PARTITIONS_NAME
from housestyle.assets.resources import HousestyleSettings
from housestyle.assets.schedules import daily_refresh
from housestyle.assets.sensors import inbox_sensor
from tests.assets.conftest import load_repository

WHEN = datetime(2026, 1, 2, 3, 0, tzinfo=timezone.utc)
DOWNSTREAM_OF_TM = {"tm_units", "tm_rejects", "term_candidates", "pattern_candidates", "rule_candidates",
                    "contrast_outputs", "negative_candidates", "convention_candidates", "convention_set",
                    "scoring_run", "miner_evaluation"}


@pytest.fixture(autouse=True)
def runs_use_the_test_installation(settings: HousestyleSettings, monkeypatch: pytest.MonkeyPatch) -> None:
    """The job's own settings resource (no fields) reads the environment: point it at the test installation."""
    for name, value in (("HOUSESTYLE_ROOT", settings.repo_root), ("HOUSESTYLE_INBOX", settings.inbox_root),
                        ("HOUSESTYLE_RULES_OUT", settings.rules_out_root),
                        ("HOUSESTYLE_REGISTRATIONS", settings.registrations_root),
                        ("HOUSESTYLE_STORAGE", settings.storage_root)):
        monkeypatch.setenv(name, str(value))


def repository() -> RepositoryDefinition:
    return load_repository()


def tick(instance: DagsterInstance, settings: HousestyleSettings, cursor: str | None) -> SensorResult:
    result = inbox_sensor(build_sensor_context(instance=instance, cursor=cursor, resources={"settings": settings},
                                               repository_def=repository()))
    assert isinstance(result, SensorResult)
    for request in result.dynamic_partitions_requests or []:  # what the daemon does with the result
        assert isinstance(request, AddDynamicPartitionsRequest)
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))
    return result


def requested(result: SensorResult) -> list[str | None]:
    return sorted(r.partition_key for r in result.run_requests or [])


def selected(request: RunRequest) -> set[str]:
    return {k.to_user_string() for k in request.asset_selection or []}


def daily(instance: DagsterInstance, settings: HousestyleSettings) -> list[RunRequest | SkipReason]:
    context = build_schedule_context(instance=instance, scheduled_execution_time=WHEN, resources={"settings": settings},
                                     repository_def=repository())
    return list(daily_refresh(context))


def execute(instance: DagsterInstance, request: RunRequest) -> set[str]:
    """Run a request as the daemon would (in this process); the assets it materialised."""
    job = repository().get_job(CLIENT_JOB_NAME)
    result = job.execute_in_process(partition_key=request.partition_key, asset_selection=list(request.asset_selection or []),
                                    instance=instance, tags=dict(request.tags), raise_on_error=False)
    assert result.success
    return {e.asset_key.to_user_string() for e in result.get_asset_materialization_events() if e.asset_key}


def rewrite_target(tmx: Path) -> None:
    text = tmx.read_text(encoding="utf-8")
    tmx.write_text(text.replace("traversera la région", "passera sur la région"), encoding="utf-8")


def test_automation_is_on_by_default() -> None:
    repo = repository()
    assert repo.get_schedule_def("daily_refresh").default_status == DefaultScheduleStatus.RUNNING
    assert repo.get_sensor_def("inbox_sensor").default_status == DefaultSensorStatus.RUNNING


def test_refresh_recomputes_only_what_changed(dagster_home: Path, settings: HousestyleSettings,
                                             install_root: Path) -> None:
    with DagsterInstance.get() as instance:
        first = tick(instance, settings, None)
        assert requested(first) == ["acme"]
        assert instance.get_dynamic_partitions(CLIENTS_PARTITIONS_NAME) == ["acme"]
        assert selected(first.run_requests[0]) >= DOWNSTREAM_OF_TM | {"system_outputs", "registration"}
        assert execute(instance, first.run_requests[0]) >= {"tm_units", "convention_set", "scoring_run"}

        assert requested(tick(instance, settings, first.cursor)) == []  # the same files: nothing to do

        started = time.monotonic()
        unchanged = daily(instance, settings)
        wall = time.monotonic() - started
        assert [type(r) for r in unchanged] == [SkipReason], unchanged  # an unchanged inbox recomputes nothing
        print(f"\ndaily tick, unchanged inbox: 0 assets requested in {wall:.2f}s")

        tmx = install_root / "inbox" / "acme" / "tm" / "weather.tmx"
        stat = tmx.stat()
        os.utime(tmx, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        touched = tick(instance, settings, first.cursor)  # the sensor looks (mtime moved) but the content is the same
        assert requested(touched) == [] and "content unchanged" in str(touched.skip_reason)

        rewrite_target(tmx)
        changed = tick(instance, settings, touched.cursor)
        assert requested(changed) == ["acme"]
        assert selected(changed.run_requests[0]) == DOWNSTREAM_OF_TM  # ingest and everything that reads the TM
        reran = execute(instance, changed.run_requests[0])
        assert "system_outputs" not in reran and {"tm_units", "term_candidates", "scoring_run"} <= reran
        print(f"TM target rewritten: re-ran {sorted(reran)}")
        assert [type(r) for r in daily(instance, settings)] == [SkipReason]

        systems = install_root / "inbox" / "acme" / "systems"
        (systems / "mt_c.jsonl").write_bytes((systems / "mt_a.jsonl").read_bytes())
        requests = [r for r in daily(instance, settings) if isinstance(r, RunRequest)]
        assert len(requests) == 1 and selected(requests[0]) == {"system_outputs", "scoring_run"}  # only scoring
        assert execute(instance, requests[0]) == {"system_outputs", "scoring_run"}


def test_a_failed_run_leaves_its_assets_stale(dagster_home: Path, settings: HousestyleSettings) -> None:
    """Observed inputs that no successful evaluation has consumed keep the assets stale (retried next tick)."""
    repo = repository()
    keys = repo.get_job(CLIENT_JOB_NAME).asset_layer.selected_asset_keys
    with DagsterInstance.get() as instance:
        instance.add_dynamic_partitions(CLIENTS_PARTITIONS_NAME, ["acme"])
        plan = plan_refresh(instance, repo.asset_graph, keys, settings, "acme")
        assert set(plan.stale) == set(keys) and "inbox_tm" in plan.new_versions
        record_observations(instance, plan)
        again = plan_refresh(instance, repo.asset_graph, keys, settings, "acme")
        assert not again.new_versions and set(again.stale) == set(keys)  # observed, but never evaluated


def test_other_locations_and_in_flight_runs_are_respected(dagster_home: Path, settings: HousestyleSettings,
                                                          install_root: Path, tmp_path: Path) -> None:
    with DagsterInstance.get() as instance:
        # another code location's client (same instance, its own inbox): this location's schedule leaves it alone
        instance.add_dynamic_partitions(CLIENTS_PARTITIONS_NAME, ["elsewhere"])
        assert [type(r) for r in daily(instance, settings)] == [SkipReason]

        first = tick(instance, settings, None)
        assert requested(first) == ["acme"]
        # a second location on the same inbox, while the first one's run is in progress: it waits
        running = DagsterRun(job_name=CLIENT_JOB_NAME, run_id="running-acme", status=DagsterRunStatus.STARTED,
                            tags={"dagster/partition": "acme"})
        instance.add_run(running)
        second = tick(instance, settings, None)
        assert requested(second) == [] and "in flight" in str(second.skip_reason)
        assert "acme" not in second.cursor  # not advanced: planned again once the run has finished
        assert not [r for r in daily(instance, settings) if isinstance(r, RunRequest)]


def test_sensor_notes_only_is_not_a_client(dagster_home: Path, settings: HousestyleSettings,
                                            install_root: Path) -> None:
    notes_only = install_root / "inbox" / "notes" / "tm"
    notes_only.mkdir(parents=True)
    (notes_only / "PROVENANCE.md").write_text("licence note\n", encoding="utf-8")
    (install_root / "inbox" / "initech" / "tm").mkdir(parents=True)  # empty drop folder: nothing to run yet
    with DagsterInstance.get() as instance:
        assert requested(tick(instance, settings, None)) == ["acme"]


def test_retry_policy_on_model_server_steps() -> None:
    from housestyle.assets.generation import contrast_outputs
    from housestyle.assets.ingest import tm_ingest

    policy = contrast_outputs.op.retry_policy
    assert policy is not None and policy.max_retries >= 2 and policy.backoff is not None
    assert tm_ingest.op.retry_policy is None  # deterministic steps fail once


def test_a_new_decisions_file_rebuilds_the_set_that_follows_it(dagster_home: Path, settings: HousestyleSettings,
                                                               install_root: Path) -> None:
    """review-import writes inbox/<client>/decisions.parquet: the sensor notices it, and only the set and
    what reads it run again; the convention_set asset applies the decisions."""
    import polars as pl

    from housestyle.pipelines.rules.io import load_conventions
    from housestyle.pipelines.conventionset.decisions import DECISIONS_SCHEMA, identity_of

    with DagsterInstance.get() as instance:
        first = tick(instance, settings, None)
        execute(instance, first.run_requests[0])
        before = settings.latest_set_dir("acme")
        assert before is not None
        conv = next(c for c in load_conventions(before) if c.status == "candidate")
        decisions = install_root / "inbox" / "acme" / "decisions.parquet"
        pl.DataFrame([{"convention_id": conv.convention_id, "identity": identity_of(conv), "decision": "reject",
                       "expected_terms": [], "wrong_variants": [], "comment": None, "reviewer": "Anne",
                       "reviewer_role": "linguist", "decided_at": "2026-01-01T00:00:00Z", "set_version": before.name}],
                     schema=DECISIONS_SCHEMA).write_parquet(decisions)
        noticed = tick(instance, settings, first.cursor)
        assert requested(noticed) == ["acme"]
        assert "convention_set" in selected(noticed.run_requests[0]) and "tm_units" not in selected(noticed.run_requests[0])
        assert "convention_set" in execute(instance, noticed.run_requests[0])
        after = settings.latest_set_dir("acme")
        assert after is not None and after != before
        assert {c.convention_id: c.status for c in load_conventions(after)}[conv.convention_id] == "rejected"
        assert requested(tick(instance, settings, noticed.cursor)) == []


def test_a_new_glossary_file_rebuilds_the_set_that_includes_it(dagster_home: Path, settings: HousestyleSettings,
                                                                install_root: Path) -> None:
    """import-glossary writes inbox/<client>/glossary/<name>.jsonl: the sensor notices it, the set runs
    again (not the ingest) and includes the glossary rule."""
    from housestyle.pipelines.rules.io import load_conventions, write_conventions
    from housestyle.pipelines.conventions.model import Convention

    with DagsterInstance.get() as instance:
        first = tick(instance, settings, None)
        execute(instance, first.run_requests[0])
        rule = Convention(dimension="term:glossaryword", rule="term", src="glossaryword", expected_terms=["motglossaire"],
                          match_mode="typographic", src_lang="en", tgt_lang="fr", origin="glossary", status="validated")
        write_conventions([rule], install_root / "inbox" / "acme" / "glossary" / "termbase.jsonl")
        noticed = tick(instance, settings, first.cursor)
        assert requested(noticed) == ["acme"]
        assert "convention_set" in selected(noticed.run_requests[0]) and "tm_units" not in selected(noticed.run_requests[0])
        execute(instance, noticed.run_requests[0])
        after = settings.latest_set_dir("acme")
        assert after is not None and rule.convention_id in {c.convention_id for c in load_conventions(after)}


def test_a_delivery_or_an_ignore_re_scores(dagster_home: Path, settings: HousestyleSettings,
                                           install_root: Path) -> None:
    """A new delivery folder under systems/ and a new ignores.parquet are noticed by the sensor (not
    left for the schedule) and re-run only the scoring."""
    import shutil

    import polars as pl

    from housestyle.pipelines.scoring.ignores import IGNORES_SCHEMA

    with DagsterInstance.get() as instance:
        first = tick(instance, settings, None)
        execute(instance, first.run_requests[0])
        systems = install_root / "inbox" / "acme" / "systems"
        (systems / "mt_d").mkdir()
        shutil.copy(systems / "mt_a.jsonl", systems / "mt_d" / "part.jsonl")
        delivered = tick(instance, settings, first.cursor)
        assert requested(delivered) == ["acme"]
        assert selected(delivered.run_requests[0]) == {"system_outputs", "scoring_run"}
        assert execute(instance, delivered.run_requests[0]) == {"system_outputs", "scoring_run"}
        pl.DataFrame([{"identity": "0" * 16, "convention_id": None, "dimension": "term:x", "segment_id": "s1",
                       "system": "*", "comment": None, "reviewer": "Anne", "decided_at": "2026-01-01T00:00:00Z"}],
                     schema=IGNORES_SCHEMA).write_parquet(install_root / "inbox" / "acme" / "ignores.parquet")
        ignored = tick(instance, settings, delivered.cursor)
        assert requested(ignored) == ["acme"] and selected(ignored.run_requests[0]) == {"scoring_run"}
