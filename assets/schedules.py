"""Daily refresh, on by default: each client of this location's inbox is brought up to date, and only
what changed is recomputed (assets/freshness.py decides from Dagster's records; an unchanged client
gets no run at all).
"""

# No `from __future__ import annotations`: Dagster inspects the context/resource annotations at runtime.

from collections.abc import Iterator, Sequence
from typing import Any

from dagster import (
    DagsterInstance,
    DagsterRunStatus,
    DefaultScheduleStatus,
    RepositoryDefinition,
    RunRequest,
    RunsFilter,
    ScheduleEvaluationContext,
    SkipReason,
    schedule,
)

from housestyle.assets.freshness import RefreshPlan, plan_refresh, record_observations
from housestyle.pipelines.inbox_files import clients_with_tm
from housestyle.assets.jobs import CLIENT_JOB_NAME
from housestyle.assets.partitions import CLIENTS_PARTITIONS_NAME
from housestyle.assets.resources import HousestyleSettings
from housestyle.assets.run_owner import release_dead_runs

IN_FLIGHT = [DagsterRunStatus.QUEUED, DagsterRunStatus.NOT_STARTED, DagsterRunStatus.STARTING, DagsterRunStatus.STARTED]


def client_in_flight(instance: DagsterInstance, client: str) -> bool:
    """A run of this client is queued or running, from any code location of the instance: its refresh
    waits for the next tick (two locations on one inbox never compute a client twice)."""
    return bool(instance.get_run_records(RunsFilter(tags={"dagster/partition": client}, statuses=IN_FLIGHT), limit=1))


def refresh_request(instance: DagsterInstance, repository: RepositoryDefinition, settings: HousestyleSettings,
                    client: str, trigger: str, run_key: str) -> tuple[RunRequest | None, RefreshPlan]:
    """A run of just the client's stale assets (None when nothing is stale); new source versions are observed."""
    job = repository.get_job(CLIENT_JOB_NAME)
    plan = plan_refresh(instance, repository.asset_graph, job.asset_layer.selected_asset_keys, settings, client)
    record_observations(instance, plan)
    if not plan.stale:
        return None, plan
    tags = {"housestyle/trigger": trigger, "housestyle/stale": str(len(plan.stale))}
    return RunRequest(partition_key=client, run_key=run_key, asset_selection=plan.asset_selection, tags=tags), plan


def local_clients(settings: HousestyleSettings, known: Sequence[str]) -> list[str]:
    """Client partitions whose folder is in THIS location's inbox (the partition set is instance-wide)."""
    here = set(clients_with_tm(settings.inbox))
    return sorted(c for c in known if c in here)


def daily_requests(context: ScheduleEvaluationContext, settings: HousestyleSettings) -> Iterator[Any]:
    """One RunRequest per client with stale assets, keyed by client and tick date (a retried tick does not double-run)."""
    clients = local_clients(settings, context.instance.get_dynamic_partitions(CLIENTS_PARTITIONS_NAME))
    if not clients:
        yield SkipReason(f"no client partitions with a folder in {settings.inbox} yet (the inbox sensor adds them)")
        return
    day = context.scheduled_execution_time.strftime("%Y-%m-%d") if context.scheduled_execution_time else "manual"
    fresh: list[str] = []
    for client in clients:
        for run_id in release_dead_runs(context.instance, client):  # its process is gone: not in flight
            context.log.warning(f"{client}: run {run_id} marked failed: the process that ran it is gone")
        if client_in_flight(context.instance, client):
            context.log.info(f"{client}: a run is queued or in progress; next tick")
            continue
        request, plan = refresh_request(context.instance, context.repository_def, settings, client, "daily",
                                        f"daily:{client}:{day}")
        if request is None:
            fresh.append(client)
        else:
            context.log.info(f"{client}: {len(plan.stale)} stale asset(s): " +
                             "; ".join(f"{k.to_user_string()} ({why})" for k, why in plan.stale.items()))
            yield request
    if fresh and len(fresh) == len(clients):
        yield SkipReason(f"every client is up to date ({', '.join(fresh)}): nothing to recompute")


@schedule(job_name=CLIENT_JOB_NAME, cron_schedule="0 3 * * *", execution_timezone="UTC",
          default_status=DefaultScheduleStatus.RUNNING,
          description="Once a day, recompute what changed for every client (nothing, when nothing did).")
def daily_refresh(context: ScheduleEvaluationContext, settings: HousestyleSettings) -> Iterator[Any]:
    yield from daily_requests(context, settings)
