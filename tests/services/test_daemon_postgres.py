"""The real dagster-daemon on PostgreSQL: the inbox sensor adds three clients, their runs queue within the
limits (2 at once, 1 per client), all succeed, runs and events are rows in PostgreSQL, the history
survives a daemon restart, and a daily tick on the unchanged inbox recomputes nothing.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone

import pytest

from tests.services.conftest import max_overlap, query, small_client, wait_for

pytestmark = [pytest.mark.services, pytest.mark.timeout(1500)]

CLIENTS = {"alpha": 0, "beta": 1000, "gamma": 2000}  # offsets into the demo TM
TERMINAL = {"SUCCESS", "FAILURE", "CANCELED"}


def run_rows(instance: object) -> list[object]:
    return list(instance.get_run_records())  # type: ignore[attr-defined]


def test_three_clients_through_the_daemon_on_postgres(make_project) -> None:  # type: ignore[no-untyped-def]
    from dagster import RunRequest, SkipReason, build_schedule_context

    project = make_project()
    for name, offset in CLIENTS.items():
        small_client(project.root / "inbox", name, offset, count=150)
    started = time.monotonic()
    daemon = project.start("daemon", log="daemon-1.log")
    instance = project.instance()

    def all_done() -> bool:
        rows = run_rows(instance)
        return len(rows) == len(CLIENTS) and all(r.dagster_run.status.value in TERMINAL for r in rows)

    wait_for(all_done, 900, "three runs to finish", every=3)
    wall = time.monotonic() - started
    rows = run_rows(instance)
    statuses = {r.dagster_run.tags["dagster/partition"]: r.dagster_run.status.value for r in rows}
    assert statuses == dict.fromkeys(CLIENTS, "SUCCESS"), (project.root / "daemon-1.log").read_text()[-3000:]
    assert sorted(instance.get_dynamic_partitions("clients")) == sorted(CLIENTS)
    intervals = [(r.start_time, r.end_time) for r in rows]
    concurrent = max_overlap(intervals)  # type: ignore[arg-type]
    assert 1 <= concurrent <= 2
    per_client = {c: max_overlap([(r.start_time, r.end_time) for r in rows if r.dagster_run.tags["dagster/partition"] == c])
                  for c in CLIENTS}
    assert set(per_client.values()) == {1}
    print(f"\nthree clients through the daemon on PostgreSQL: {wall:.0f}s wall, at most {concurrent} runs at once")

    # What Dagster stored is in PostgreSQL: the runs, their events, the materialisations per client.
    env = project.env
    assert query(env, "SELECT count(*) FROM runs")[0][0] == len(CLIENTS)
    events = dict(query(env, "SELECT run_id, count(*) FROM event_logs WHERE run_id <> '' GROUP BY run_id"))
    assert set(events) == {r.dagster_run.run_id for r in rows} and min(events.values()) > 20
    materialized = query(env, "SELECT partition, count(DISTINCT asset_key) FROM event_logs "
                              "WHERE dagster_event_type = 'ASSET_MATERIALIZATION' GROUP BY partition")
    assert {p for p, n in materialized if n >= 8} == set(CLIENTS)
    ticks_before = query(env, "SELECT count(*) FROM job_ticks")[0][0]
    assert ticks_before >= 1

    # Restart the daemon: the history is still there and nothing runs again (cursor and plans hold).
    project.stop(daemon)
    restarted_at = datetime.now(timezone.utc).replace(tzinfo=None)
    project.start("daemon", log="daemon-2.log")
    wait_for(lambda: query(env, "SELECT count(*) FROM job_ticks WHERE timestamp > %s", (restarted_at,))[0][0] > 0,
             120, "a sensor tick after the restart")
    time.sleep(5)
    instance = project.instance()
    assert len(run_rows(instance)) == len(CLIENTS)
    assert {r.dagster_run.status.value for r in run_rows(instance)} == {"SUCCESS"}

    # The daily tick on the unchanged inbox: no run, nothing recomputed.
    from housestyle.assets.definitions import build_definitions
    from housestyle.assets.resources import HousestyleSettings
    from housestyle.assets.schedules import daily_refresh

    with project.instance() as current:  # entered: definitions load against this instance's state storage
        repository = build_definitions().get_repository_def()
        tick_started = time.monotonic()
        context = build_schedule_context(instance=current, resources={"settings": HousestyleSettings()},
                                         scheduled_execution_time=datetime(2026, 1, 2, 3, tzinfo=timezone.utc),
                                         repository_def=repository)
        results = list(daily_refresh(context))
        tick = time.monotonic() - tick_started
    assert not [r for r in results if isinstance(r, RunRequest)]
    assert any(isinstance(r, SkipReason) for r in results)
    print(f"daily tick on the unchanged inbox of three clients: 0 runs requested, {tick:.2f}s")
