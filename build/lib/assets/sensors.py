"""The inbox sensor: a new or changed file under inbox/<client>/tm/ adds the client and requests a run.

The cursor maps client → fingerprint of its tm/ files (paths, sizes, mtimes), so an unchanged inbox
requests nothing and a touched file re-runs only its client.
"""

# No `from __future__ import annotations`: Dagster inspects the context/resource annotations at runtime.

import json

from dagster import (
    DefaultSensorStatus,
    RunRequest,
    SensorEvaluationContext,
    SensorResult,
    SkipReason,
    sensor,
)

from assets.inbox import clients_with_tm, fingerprint, tm_files
from assets.jobs import CLIENT_JOB_NAME
from assets.partitions import CLIENTS, CLIENTS_PARTITIONS_NAME
from assets.resources import HousestyleSettings


def evaluate_inbox(context: SensorEvaluationContext, settings: HousestyleSettings) -> SensorResult:
    """One tick: compare each client's tm/ fingerprint with the cursor."""
    seen: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    known = set(context.instance.get_dynamic_partitions(CLIENTS_PARTITIONS_NAME))
    current: dict[str, str] = {}
    new_clients: list[str] = []
    requests: list[RunRequest] = []
    for client in clients_with_tm(settings.inbox):
        files = tm_files(settings.inbox, client)
        if not files:
            continue
        current[client] = fingerprint(files, settings.inbox / client / "tm")
        if client not in known:
            new_clients.append(client)
        if seen.get(client) != current[client]:
            requests.append(RunRequest(partition_key=client, run_key=f"{client}:{current[client]}",
                                       tags={"housestyle/trigger": "inbox"}))
    return SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[CLIENTS.build_add_request(new_clients)] if new_clients else [],
        cursor=json.dumps(current, sort_keys=True),
        skip_reason=None if requests else SkipReason("no new or changed files under inbox/*/tm/"),
    )


@sensor(job_name=CLIENT_JOB_NAME, minimum_interval_seconds=30, default_status=DefaultSensorStatus.RUNNING,
        description="Adds a client partition and runs it when files appear or change under inbox/<client>/tm/.")
def inbox_sensor(context: SensorEvaluationContext, settings: HousestyleSettings) -> SensorResult:
    return evaluate_inbox(context, settings)
