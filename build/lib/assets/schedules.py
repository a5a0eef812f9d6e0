"""Daily refresh: one run per known client partition (new TM, new systems or new code all get picked up)."""

# No `from __future__ import annotations`: Dagster inspects the context/resource annotations at runtime.

from collections.abc import Iterator

from dagster import RunRequest, ScheduleEvaluationContext, SkipReason, schedule

from assets.jobs import CLIENT_JOB_NAME
from assets.partitions import CLIENTS_PARTITIONS_NAME


def daily_requests(context: ScheduleEvaluationContext) -> Iterator[RunRequest | SkipReason]:
    """One RunRequest per client partition, keyed by client and tick date (a retried tick does not double-run)."""
    clients = sorted(context.instance.get_dynamic_partitions(CLIENTS_PARTITIONS_NAME))
    if not clients:
        yield SkipReason("no client partitions yet (the inbox sensor adds them)")
        return
    day = context.scheduled_execution_time.strftime("%Y-%m-%d") if context.scheduled_execution_time else "manual"
    for client in clients:
        yield RunRequest(partition_key=client, run_key=f"daily:{client}:{day}", tags={"housestyle/trigger": "daily"})


@schedule(job_name=CLIENT_JOB_NAME, cron_schedule="0 3 * * *", execution_timezone="UTC",
          description="Refresh every client once a day.")
def daily_refresh(context: ScheduleEvaluationContext) -> Iterator[RunRequest | SkipReason]:
    yield from daily_requests(context)
