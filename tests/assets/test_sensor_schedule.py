"""The inbox sensor (new/changed tm files → partition + run) and the daily schedule (one run per client)."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

from dagster import (
    AddDynamicPartitionsRequest,
    DagsterInstance,
    RunRequest,
    SensorResult,
    SkipReason,
    build_schedule_context,
    build_sensor_context,
)

from assets.partitions import CLIENTS_PARTITIONS_NAME
from assets.resources import HousestyleSettings
from assets.schedules import daily_refresh
from assets.sensors import inbox_sensor


def tick(instance: DagsterInstance, settings: HousestyleSettings, cursor: str | None) -> SensorResult:
    result = inbox_sensor(build_sensor_context(instance=instance, cursor=cursor, resources={"settings": settings}))
    assert isinstance(result, SensorResult)
    for request in result.dynamic_partitions_requests or []:  # what the daemon does with the result
        assert isinstance(request, AddDynamicPartitionsRequest)
        instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))
    return result


def requested(result: SensorResult) -> list[str | None]:
    return sorted(r.partition_key for r in result.run_requests or [])


def test_sensor_adds_partition_and_requests_run_on_new_or_changed_files(
        dagster_home: Path, settings: HousestyleSettings, install_root: Path) -> None:
    with DagsterInstance.get() as instance:
        first = tick(instance, settings, None)
        assert requested(first) == ["acme"]
        assert [list(r.partition_keys) for r in first.dynamic_partitions_requests or []] == [["acme"]]
        assert instance.get_dynamic_partitions(CLIENTS_PARTITIONS_NAME) == ["acme"]

        unchanged = tick(instance, settings, first.cursor)
        assert requested(unchanged) == []
        assert not unchanged.dynamic_partitions_requests

        tmx = install_root / "inbox" / "acme" / "tm" / "weather.tmx"
        stat = tmx.stat()
        os.utime(tmx, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # touched: re-run, no new partition
        touched = tick(instance, settings, unchanged.cursor)
        assert requested(touched) == ["acme"]
        assert not touched.dynamic_partitions_requests

        newcomer = install_root / "inbox" / "globex" / "tm"
        newcomer.mkdir(parents=True)
        (newcomer / "memory.tmx").write_bytes(tmx.read_bytes())
        (install_root / "inbox" / "initech" / "tm").mkdir(parents=True)  # empty drop folder: nothing to run yet
        added = tick(instance, settings, touched.cursor)
        assert requested(added) == ["globex"]
        assert sorted(instance.get_dynamic_partitions(CLIENTS_PARTITIONS_NAME)) == ["acme", "globex"]
        run_keys = {r.run_key for r in added.run_requests or []}
        assert tick(instance, settings, added.cursor).run_requests == []
        assert all(key and key.startswith("globex:") for key in run_keys)


def test_sensor_notes_only_is_not_a_client(dagster_home: Path, settings: HousestyleSettings,
                                            install_root: Path) -> None:
    notes_only = install_root / "inbox" / "notes" / "tm"
    notes_only.mkdir(parents=True)
    (notes_only / "PROVENANCE.md").write_text("licence note\n", encoding="utf-8")
    with DagsterInstance.get() as instance:
        assert "notes" not in requested(tick(instance, settings, None))


def test_schedule_yields_one_request_per_client_partition(dagster_home: Path) -> None:
    when = datetime(2026, 1, 2, 3, 0, tzinfo=timezone.utc)
    with DagsterInstance.get() as instance:
        empty = list(daily_refresh(build_schedule_context(instance=instance, scheduled_execution_time=when)))
        assert len(empty) == 1 and isinstance(empty[0], SkipReason)

        instance.add_dynamic_partitions(CLIENTS_PARTITIONS_NAME, ["demo", "acme", "globex"])
        requests = list(daily_refresh(build_schedule_context(instance=instance, scheduled_execution_time=when)))
    assert all(isinstance(r, RunRequest) for r in requests)
    assert sorted(r.partition_key for r in requests if isinstance(r, RunRequest)) == ["acme", "demo", "globex"]
    assert len({r.run_key for r in requests if isinstance(r, RunRequest)}) == 3
